/**
 * The official evaluator's legacy routing contract (evaluate_next.py, used for route rows with no
 * direct-pairs sidecar, no acceptable_goal_ids and no goal_ring_threshold_m, as train/val rows of
 * older exports are): legality comes from the scene's sparse waypoint graph, an undirected edge list
 * on scene waypoint ids; displayed ids are mapped onto graph waypoints first.
 */
import path from "node:path";
import { MAX_DISTANCE_M, rangeProblem } from "../../core/limits.js";
import { shownValue, type DataProblem } from "../../core/problems.js";
import { pyFloat } from "../../core/pycompat/float.js";
import { pyStr } from "../../core/pycompat/keys.js";
import type { Adjacency, Waypoint } from "./types.js";

/** A waypoint of the scene graph file, as far as the display-to-graph mapping reads it. */
export interface GraphWaypoint {
  waypointId: bigint;
  worldXYZ?: [number, number, number];
  gridXY?: [bigint, bigint];
}

export interface WaypointGraph {
  /** Undirected: every edge is legal both ways; a later edge on the same pair overwrites the length. */
  adjacency: Adjacency;
  waypoints: GraphWaypoint[];
}

/** Whether the row uses the legacy graph: nothing in it asks for the eval-fix (sidecar) contract. */
export function usesDirectPairs(gt: Record<string, unknown>, pairsRef: unknown): boolean {
  return pairsRef != null || gt["acceptable_goal_ids"] != null || gt["goal_ring_threshold_m"] != null;
}

/**
 * The evaluator decides point vs embodied graph once per task file, from its first row: task b2,
 * route_semantics "embodied", route_source_task "b2", or a robot_diameter_m above 0.
 */
export function isEmbodiedRoutingRow(row: Record<string, unknown>): boolean {
  const text = (value: unknown) => (value == null || value === "" || value === false || value === 0 ? "" : pyStr(value)).trim().toLowerCase();
  if (text(row["task"]) === "b2") return true;
  const gt = row["ground_truth"];
  const truth = typeof gt === "object" && gt !== null && !Array.isArray(gt) ? (gt as Record<string, unknown>) : {};
  if (text(truth["route_semantics"]) === "embodied") return true;
  if (text(truth["route_source_task"]) === "b2") return true;
  const diameter = truth["robot_diameter_m"];
  if (diameter == null) return false;
  const value = pyFloat(diameter);
  return value !== null && value > 0;
}

/** Graph files tried for a scene folder (assets/<scene>), in order; the last is read even if absent. */
export function graphFileCandidates(sceneDir: string, embodied: boolean): [string, string] {
  const first = embodied ? "waypoint_graph_embodied.json" : "waypoint_graph_pointmass.json";
  return [path.posix.join(sceneDir, first), path.posix.join(sceneDir, "waypoint_graph.json")];
}

/** The scene folder of a row: two levels above its image (assets/<scene>/view_<v>/rgb.png -> assets/<scene>). */
export function sceneDirOf(imageRef: string): string {
  return path.posix.dirname(path.posix.dirname(imageRef.replaceAll("\\", "/")));
}

type IdOf = (value: unknown) => bigint | null;

/**
 * Read a waypoint graph payload: `edges[{source, target, distance}]` (distance 1.0 when the key is
 * absent) and `waypoints[{waypoint_id, world_xyz, grid_xy}]`. Values the evaluator's int()/float()
 * would raise on are problems here.
 */
export function parseWaypointGraph(data: unknown, ref: string, toId: IdOf, problems: DataProblem[]): WaypointGraph | undefined {
  if (!isObject(data)) {
    problems.push({ file: ref, message: "waypoint graph must be a JSON object" });
    return undefined;
  }
  const edges = data["edges"] === undefined ? [] : data["edges"];
  if (!Array.isArray(edges)) {
    problems.push({ file: ref, field: "edges", message: "must be a list" });
    return undefined;
  }
  const adjacency: Adjacency = new Map();
  const link = (a: bigint, b: bigint, w: number) => {
    const row = adjacency.get(a) ?? new Map<bigint, number>();
    adjacency.set(a, row);
    row.set(b, w);
  };
  let ok = true;
  edges.forEach((edge, index) => {
    const field = `edges[${index}]`;
    if (!isObject(edge)) {
      problems.push({ file: ref, field, message: "must be an object with source, target and distance" });
      ok = false;
      return;
    }
    const u = edge["source"] == null ? null : toId(edge["source"]);
    const v = edge["target"] == null ? null : toId(edge["target"]);
    const w = "distance" in edge ? pyFloat(edge["distance"]) : 1.0;
    // An edge's length is a distance in metres: finite, from 0 to 100 km (core/limits.ts).
    const badLength = w === null ? `must be a number, found ${shownValue(edge["distance"])}` : rangeProblem(w, 0, MAX_DISTANCE_M, " (metres)");
    if (u === null) problems.push({ file: ref, field: `${field}.source`, message: "must be an integer waypoint id" });
    if (v === null) problems.push({ file: ref, field: `${field}.target`, message: "must be an integer waypoint id" });
    if (badLength) problems.push({ file: ref, field: `${field}.distance`, message: badLength });
    if (u === null || v === null || w === null || badLength) {
      ok = false;
      return;
    }
    link(u, v, w);
    link(v, u, w);
  });
  const listed = data["waypoints"] === undefined ? [] : data["waypoints"];
  if (!Array.isArray(listed)) {
    problems.push({ file: ref, field: "waypoints", message: "must be a list" });
    return undefined;
  }
  const waypoints: GraphWaypoint[] = [];
  for (const w of listed) {
    if (!isObject(w)) continue;
    const id = w["waypoint_id"] == null ? null : toId(w["waypoint_id"]);
    if (id === null) continue; // never among the graph's ids (the evaluator reads a missing id as -1)
    const waypoint: GraphWaypoint = { waypointId: id };
    const xyz = worldPoint(w["world_xyz"]);
    if (xyz) waypoint.worldXYZ = xyz;
    const grid = gridPoint(w["grid_xy"], toId);
    if (grid) waypoint.gridXY = grid;
    waypoints.push(waypoint);
  }
  return ok ? { adjacency, waypoints } : undefined;
}

/**
 * Display id -> graph waypoint id, as the evaluator maps them: a displayed waypoint whose own
 * waypoint_id has an edge keeps it; any other goes to the nearest graph waypoint that has one, by
 * 3-D world distance, then grid Manhattan distance, then the smaller id. With an edgeless graph
 * every displayed waypoint keeps its own waypoint_id.
 */
export function displayToGraph(visible: readonly Waypoint[], graph: WaypointGraph): Map<bigint, bigint> {
  const mapping = new Map<bigint, bigint>();
  const graphIds = graph.adjacency;
  if (graphIds.size === 0) {
    for (const w of visible) if (w.waypointId !== undefined) mapping.set(BigInt(w.displayId), w.waypointId);
    return mapping;
  }
  const usable = graph.waypoints.filter((g) => graphIds.has(g.waypointId));
  for (const w of visible) {
    if (w.waypointId === undefined) continue;
    const display = BigInt(w.displayId);
    if (graphIds.has(w.waypointId)) {
      mapping.set(display, w.waypointId);
      continue;
    }
    let best: { world: number; grid: bigint; id: bigint } | undefined;
    for (const g of usable) {
      const candidate = { world: worldDistance(w.worldXYZ, g.worldXYZ), grid: gridDistance(w.gridXY, g.gridXY), id: g.waypointId };
      if (!best || closer(candidate, best)) best = candidate;
    }
    if (best) mapping.set(display, best.id);
  }
  return mapping;
}

/** Python's tuple order on (world distance, grid distance, id). */
function closer(a: { world: number; grid: bigint; id: bigint }, b: { world: number; grid: bigint; id: bigint }): boolean {
  if (a.world !== b.world) return a.world < b.world;
  if (a.grid !== b.grid) return a.grid < b.grid;
  return a.id < b.id;
}

/** sqrt(dx²+dy²+dz²) summed in that order; infinite when either point is unknown. */
function worldDistance(a?: readonly number[], b?: readonly number[]): number {
  if (!a || !b) return Infinity;
  const dx = a[0]! - b[0]!;
  const dy = a[1]! - b[1]!;
  const dz = a[2]! - b[2]!;
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** |dx| + |dy| on grid cells; 10^9 when either cell is unknown (the evaluator's sentinel). */
function gridDistance(a?: readonly [bigint, bigint], b?: readonly [bigint, bigint]): bigint {
  if (!a || !b) return 1_000_000_000n;
  const abs = (v: bigint) => (v < 0n ? -v : v);
  return abs(a[0] - b[0]) + abs(a[1] - b[1]);
}

/** A 3-vector of numbers (Python float() of each), else undefined. */
export function worldPoint(value: unknown): [number, number, number] | undefined {
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const xyz = value.map(pyFloat);
  return xyz.every((v) => v !== null) ? (xyz as [number, number, number]) : undefined;
}

/** A 2-vector read with Python int() (3.7 -> 3), else undefined. */
export function gridPoint(value: unknown, toId: IdOf): [bigint, bigint] | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const xy = value.map((v) => (v == null ? null : toId(v)));
  return xy[0] != null && xy[1] != null ? [xy[0], xy[1]] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
