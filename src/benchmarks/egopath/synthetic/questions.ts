/** Question rows (vqa and gt) for one view, with reference routes from Dijkstra over the sidecar graph. */
import { reachableFrom, shortestPathToAny, type WeightedDigraph } from "../../../geometry/dijkstra.js";
import { pointRectDistance } from "../../../geometry/rect.js";
import type { Rng } from "../../../stats/rng.js";
import {
  embodiedRoutePrompt,
  embodiedTraversabilityPrompt,
  INTENTS,
  intentRoutePrompt,
  pointRoutePrompt,
  pointTraversabilityPrompt,
  SYSTEM_PROMPT,
} from "./prompts.js";
import { ROBOT_DIAMETER_M, round4, type Obstacle, type Scene } from "./scene.js";
import type { DirectPairs, View, ViewWaypoint } from "./view.js";

export const TASK_CODES = ["a1", "b1", "a2", "b2", "c"] as const;
export type TaskCode = (typeof TASK_CODES)[number];
export const ROUTE_TASKS = ["a2", "b2", "c"] as const;
export type RouteTask = (typeof ROUTE_TASKS)[number];

/** Waypoints this close to a target's footprint count as having reached it. */
export const GOAL_RING_M = 1.0;

export const imagePath = (sceneId: string, view: number, task: TaskCode): string =>
  `assets/${sceneId}/view_${view}/rgb_overlay_${task}.png`;
export const visibleWaypointsPath = (sceneId: string, view: number, task: TaskCode): string =>
  `assets/${sceneId}/view_${view}/visible_waypoints_${task}.json`;
export const sidecarPath = (sceneId: string, view: number, task: RouteTask): string =>
  `benchmark_evalfix/benchmark/sidecars/${task}/${sceneId}/view_${view}.direct_pairs.json`;

export interface QuestionRow {
  question_id: string;
  source: "synthetic";
  task: TaskCode;
  scene_id: string;
  view_id: number;
  routing_id?: string;
  image_path: string;
  visible_waypoints_path: string;
  system_prompt: string;
  user_prompt: string;
  ground_truth: Record<string, unknown>;
}

/**
 * Edge weights exactly as the official evaluator reads a sidecar: distance_m when present,
 * otherwise the 3-D distance between the two waypoints' world_xyz.
 */
export function pairsToGraph(pairs: DirectPairs, waypoints: readonly ViewWaypoint[]): WeightedDigraph {
  const byId = new Map(waypoints.map((w) => [w.displayId, w]));
  const graph: WeightedDigraph = new Map();
  for (const [src, entries] of pairs) {
    const a = byId.get(src)!;
    const out = new Map<number, number>();
    for (const e of entries) {
      const b = byId.get(e.displayId)!;
      // Floor points: world z is 0 for both ends.
      const dx = a.x - b.x;
      const dy = a.y - b.y;
      const dz = 0;
      out.set(e.displayId, e.distance ?? Math.sqrt(dx * dx + dy * dy + dz * dz));
    }
    graph.set(src, out);
  }
  return graph;
}

/** Feasible waypoints within GOAL_RING_M of any of `targets`, with the nearest target and its distance. */
function goalRing(
  wps: readonly ViewWaypoint[],
  targets: readonly Obstacle[],
  feasible: (w: ViewWaypoint) => boolean,
): Map<number, { target: Obstacle; distance: number }> {
  const ring = new Map<number, { target: Obstacle; distance: number }>();
  for (const w of wps) {
    if (!feasible(w)) continue;
    let best: { target: Obstacle; distance: number } | undefined;
    for (const t of targets) {
      const d = pointRectDistance(w, t.rect);
      if (d <= GOAL_RING_M && (!best || d < best.distance)) best = { target: t, distance: d };
    }
    if (best) ring.set(w.displayId, best);
  }
  return ring;
}

interface PlannedRoute {
  answer: number[];
  length: number;
  goals: number[];
  target: Obstacle;
  minRingDistance: number;
}

/** The shortest route from `start` to the ring; null when the start is already there or no goal is reachable. */
function planRoute(
  graph: WeightedDigraph,
  start: number,
  ring: Map<number, { target: Obstacle; distance: number }>,
): PlannedRoute | null {
  if (ring.has(start)) return null;
  const reach = reachableFrom(graph, start);
  const goals = [...ring.keys()].filter((id) => reach.has(id)).sort((a, b) => a - b);
  if (goals.length === 0) return null;
  const best = shortestPathToAny(graph, start, goals);
  if (!best || best.path.length < 2) return null;
  return {
    answer: best.path,
    length: best.length,
    goals,
    target: ring.get(best.path[best.path.length - 1]!)!.target,
    minRingDistance: round4(Math.min(...goals.map((g) => ring.get(g)!.distance))),
  };
}

/** Usually waypoint 1 (nearest the viewer); sometimes, or when 1 has no way out, another id. */
function chooseStart(graph: WeightedDigraph, rng: Rng): number | null {
  const usable = [...graph.entries()].filter(([, out]) => out.size > 0).map(([id]) => id).sort((a, b) => a - b);
  if (usable.length === 0) return null;
  if (usable[0] === 1 && rng.chance(0.8)) return 1;
  return rng.pick(usable);
}

/** Builds every question of one view; route questions without a reachable goal are skipped. */
export function buildViewQuestions(scene: Scene, view: View, rng: Rng): Record<TaskCode, QuestionRow[]> {
  const v = view.index;
  const wps = view.waypoints;
  const rows: Record<TaskCode, QuestionRow[]> = { a1: [], b1: [], a2: [], b2: [], c: [] };
  const base = (task: TaskCode, n: number) => ({
    question_id: `${scene.id}_v${v}_${task}_${String(n).padStart(2, "0")}`,
    source: "synthetic" as const,
    task,
    scene_id: scene.id,
    view_id: v,
  });
  const media = (task: TaskCode) => ({
    image_path: imagePath(scene.id, v, task),
    visible_waypoints_path: visibleWaypointsPath(scene.id, v, task),
    system_prompt: SYSTEM_PROMPT,
  });

  const allIds = wps.map((w) => w.displayId);
  for (const task of ["a1", "b1"] as const) {
    const embodied = task === "b1";
    const walkable = wps.filter((w) => (embodied ? w.embodied : w.freeFloor)).map((w) => w.displayId);
    rows[task].push({
      ...base(task, 0),
      ...media(task),
      user_prompt: embodied ? embodiedTraversabilityPrompt(ROBOT_DIAMETER_M) : pointTraversabilityPrompt(),
      ground_truth: {
        answer: walkable,
        all_ids: allIds,
        walkable_ids: walkable,
        robot_diameter_m: embodied ? ROBOT_DIAMETER_M : 0,
      },
    });
  }

  const graphs = { point: pairsToGraph(view.pointPairs, wps), embodied: pairsToGraph(view.embodiedPairs, wps) };
  const routeRow = (
    task: RouteTask,
    start: number,
    route: PlannedRoute,
    prompt: string,
    extra: Record<string, unknown>,
  ): QuestionRow => {
    const embodied = task !== "a2";
    return {
      ...base(task, rows[task].length),
      routing_id: `${scene.id}_v${v}_s${start}_t${route.target.id}${task === "c" ? `_${String(extra.intent_family)}` : ""}`,
      ...media(task),
      user_prompt: prompt,
      ground_truth: {
        answer: route.answer,
        start_id: start,
        goal_id: route.answer[route.answer.length - 1],
        acceptable_goal_ids: route.goals,
        optimal_length_m: route.length,
        reference_path_display_ids: route.answer,
        direct_pairs_ref: sidecarPath(scene.id, v, task),
        robot_diameter_m: embodied ? ROBOT_DIAMETER_M : 0,
        route_semantics: embodied ? "embodied" : "pointmass",
        target_id: route.target.id,
        target_category: route.target.category,
        target_color_name: route.target.color,
        goal_ring_threshold_m: GOAL_RING_M,
        goal_ring_min_distance_m: route.minRingDistance,
        ...extra,
      },
    };
  };

  /**
   * Multi-hop routes first (random order within each group); the first tries of a question accept
   * nothing else, so few answers are a single step.
   */
  const preferLong = <T extends { route: PlannedRoute }>(options: T[], tries: number): T[] => {
    const shuffled = rng.shuffle(options);
    const long = shuffled.filter((o) => o.route.answer.length > 2);
    return tries < 4 ? long : [...long, ...shuffled.filter((o) => o.route.answer.length <= 2)];
  };

  for (const task of ["a2", "b2"] as const) {
    const embodied = task === "b2";
    const graph = embodied ? graphs.embodied : graphs.point;
    const feasible = (w: ViewWaypoint): boolean => (embodied ? w.embodied : w.freeFloor);
    const wanted = rng.chance(0.8) ? 2 : 1;
    // A (target, start) pair is asked once; a second question may reuse the target from another start.
    const used = new Set<string>();
    for (let tries = 0; tries < 6 && rows[task].length < wanted; tries++) {
      const start = chooseStart(graph, rng);
      if (start === null) break;
      const options = view.visibleObstacles
        .filter((t) => !used.has(`${t.id}@${start}`))
        .map((target) => ({ target, route: planRoute(graph, start, goalRing(wps, [target], feasible)) }))
        .filter((o): o is { target: Obstacle; route: PlannedRoute } => o.route !== null);
      const pick = preferLong(options, tries)[0];
      if (!pick) continue;
      used.add(`${pick.target.id}@${start}`);
      const { target, route } = pick;
      const prompt = embodied
        ? embodiedRoutePrompt(start, target.color, target.category, ROBOT_DIAMETER_M)
        : pointRoutePrompt(start, target.color, target.category);
      rows[task].push(routeRow(task, start, route, prompt, {}));
    }
  }

  const wantedC = rng.chance(0.4) ? 2 : 1;
  const usedFamilies = new Set<string>();
  for (let tries = 0; tries < 6 && rows.c.length < wantedC; tries++) {
    const start = chooseStart(graphs.embodied, rng);
    if (start === null) break;
    const options = INTENTS.filter((i) => !usedFamilies.has(i.family)).flatMap((intent) => {
      const targets = view.visibleObstacles.filter((o) => intent.categories.includes(o.category));
      const route = targets.length > 0 ? planRoute(graphs.embodied, start, goalRing(wps, targets, (w) => w.embodied)) : null;
      return route ? [{ intent, route }] : [];
    });
    const pick = preferLong(options, tries)[0];
    if (!pick) continue;
    usedFamilies.add(pick.intent.family);
    const text = rng.pick(pick.intent.texts);
    rows.c.push(
      routeRow("c", start, pick.route, intentRoutePrompt(start, text, ROBOT_DIAMETER_M), {
        route_source_task: "b2",
        intent_family: pick.intent.family,
        intent_text: text,
      }),
    );
  }
  return rows;
}

/** The flat gt_next row: ids, paths and ground-truth fields side by side. */
export function gtRow(row: QuestionRow): Record<string, unknown> {
  const { system_prompt: _s, user_prompt: _u, ground_truth, ...rest } = row;
  return { ...rest, ...ground_truth };
}
