/**
 * Goals, starts and the shortest path of an episode, on the robot's plan grid.
 *
 * - View points (App. C.1, the reference note): for each goal object, points every 0.1 m on the
 *   lattice that starts 0.6 m below the box's min corner, kept when they lie within 0.6 m of the
 *   object's plan box, inside the goal's room and free at the robot's radius.
 * - The nearest view point: by the grid's geodesic distance (8 neighbours); the 3 m rule (§3.3)
 *   reads that distance.
 * - dist_to_goal: the length of the shortest path to it pulled straight (the route below), what
 *   Habitat's geodesic distance and the simulator's shortestPath report; the grid's own distance
 *   is 3-8% longer (its 45-degree steps).
 * - Room centres for the Distance rule: the free cell of the room nearest its centroid.
 * - The shortest path: the grid path to the nearest view point, pulled straight (smoothPath),
 *   sampled every 0.25 m (one FORWARD step).
 */
import { cellCenter, inGrid, isFreePoint, pathLength, roomAt, smoothPath, worldToCell, type OccupancyGrid, type ShortestPathTree } from "../../../world/space/index.js";
import type { Scene, SceneObject, Vec2 } from "../../../world/types.js";
import { VCN_PARAMS as P } from "./params.js";
import type { RoomFact } from "./facts.js";

const r4 = (v: number): number => Math.round(v * 1e4) / 1e4 + 0;

/** Distance from a plan point to an axis-aligned box (0 inside). */
export function pointBoxDistance(p: Vec2, box: { min: readonly number[]; max: readonly number[] }): number {
  const dx = Math.max(box.min[0]! - p[0], 0, p[0] - box.max[0]!);
  const dy = Math.max(box.min[1]! - p[1], 0, p[1] - box.max[1]!);
  return Math.hypot(dx, dy);
}

/** View points of one goal object (see the file comment), rounded to 0.1 mm. */
export function viewPoints(scene: Pick<Scene, "rooms">, grid: OccupancyGrid, object: Pick<SceneObject, "bbox" | "room">): Vec2[] {
  const { viewPointStepM: step, viewPointRangeM: range } = P;
  const out: Vec2[] = [];
  const x0 = object.bbox.min[0] - range, y0 = object.bbox.min[1] - range;
  const nx = Math.floor((object.bbox.max[0] + range - x0) / step + 1e-9);
  const ny = Math.floor((object.bbox.max[1] + range - y0) / step + 1e-9);
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      const p: Vec2 = [r4(x0 + i * step), r4(y0 + j * step)];
      if (pointBoxDistance(p, object.bbox) > range + 1e-9) continue;
      if (!isFreePoint(grid, p) || roomAt(scene, p) !== object.room) continue;
      out.push(p);
    }
  }
  return out;
}

/** The nearest view point by geodesic distance (ties: the first), or null when none is reached. */
export function nearestViewPoint(tree: ShortestPathTree, points: readonly Vec2[]): { point: Vec2; distance: number } | null {
  let best: { point: Vec2; distance: number } | null = null;
  for (const p of points) {
    const d = tree.distanceTo(p);
    if (Number.isFinite(d) && (best === null || d < best.distance)) best = { point: p, distance: d };
  }
  return best;
}

/** The free cell centre of the room nearest the room's centroid (the point the Distance rule measures to), or null. */
export function roomCentrePoint(scene: Pick<Scene, "rooms">, grid: OccupancyGrid, room: RoomFact): Vec2 | null {
  const [i0, j0] = worldToCell(grid, [room.box.minX, room.box.minY]);
  const [i1, j1] = worldToCell(grid, [room.box.maxX, room.box.maxY]);
  let best: Vec2 | null = null;
  let bestD = Infinity;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      if (!inGrid(grid, i, j) || grid.occupied[j * grid.width + i]) continue;
      const c = cellCenter(grid, i, j);
      const d = Math.hypot(c[0] - room.centre[0], c[1] - room.centre[1]);
      if (d < bestD && roomAt(scene, c) === room.id) {
        best = c;
        bestD = d;
      }
    }
  }
  return best;
}

/** Points every `step` metres along a polyline (its first point, then one per step, then its last). */
export function resample(polyline: readonly Vec2[], step: number): Vec2[] {
  const out: Vec2[] = [polyline[0]!];
  let carry = 0;
  for (let k = 1; k < polyline.length; k++) {
    const a = polyline[k - 1]!, b = polyline[k]!;
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    let s = step - carry;
    while (s <= length + 1e-12) {
      const t = s / length;
      out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
      s += step;
    }
    carry = length - (s - step);
  }
  const last = polyline[polyline.length - 1]!;
  const tail = out[out.length - 1]!;
  if (Math.hypot(tail[0] - last[0], tail[1] - last[1]) > 1e-9) out.push(last);
  return out;
}

export interface ShortestRoute {
  /** The smoothed path's corners, start first, the view point last. */
  corners: Vec2[];
  /** Points every 0.25 m along it. */
  samples: Vec2[];
  length: number;
  /** FORWARD steps (ceil(length / 0.25)) + 30-degree turns to face each leg from the start heading + STOP. */
  steps: number;
}

/** Smallest signed angle a - b, radians in (-pi, pi]. */
export function angleDiff(a: number, b: number): number {
  let d = (a - b) % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}

/** The shortest route from the start to a view point (null when the grid does not join them). */
export function shortestRoute(grid: OccupancyGrid, tree: ShortestPathTree, start: Vec2, heading: number, goal: Vec2): ShortestRoute | null {
  const cells = tree.pathTo(goal);
  if (!cells) return null;
  const raw: Vec2[] = [start, ...cells.slice(1, -1), goal];
  const corners = raw.length >= 2 ? smoothPath(grid, raw) : [start];
  const samples = corners.length >= 2 ? resample(corners, P.forwardStepM) : [start];
  const length = pathLength(corners);
  let turns = 0;
  let facing = heading;
  for (let k = 1; k < corners.length; k++) {
    const leg = Math.atan2(corners[k]![1] - corners[k - 1]![1], corners[k]![0] - corners[k - 1]![0]);
    turns += Math.ceil(Math.abs(angleDiff(leg, facing)) / ((P.turnStepDeg * Math.PI) / 180) - 1e-9);
    facing = leg;
  }
  return { corners, samples, length, steps: Math.ceil(length / P.forwardStepM - 1e-9) + turns + 1 };
}
