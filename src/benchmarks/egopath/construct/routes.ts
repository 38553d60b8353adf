/**
 * Route units of a view (render_scenes.py `select_goal_routing_candidates`,
 * `find_shortest_candidate_path`, `sparsify_gt_path_keypoints`, `_materialize_routing_mode`):
 * for one target, the goal ring around its footprint, the shortest free-space path from the start
 * on each agent's grid (point first, then embodied), cut into few waypoints that the image shows,
 * and checked before any question is written.
 */
import { cameraBasis, inImage, projectPoint } from "../../../world/camera.js";
import { cellCenter, lineOfSight, pathLength, smoothPath, type OccupancyGrid, type ShortestPathTree } from "../../../world/space/index.js";
import type { SceneObject, Vec2, Vec3 } from "../../../world/types.js";
import { labelFloorCandidate, type ViewInputs } from "./candidates.js";
import { EGOPATH_PARAMS as P, scalePx } from "./params.js";
import { pointFootprintDistance, type Footprint } from "../../../world/house/footprint.js";
import type { Agent, Candidate } from "./types.js";

/** The target's footprint rectangle (catalogue width x depth, turned by its yaw). */
export function objectFootprint(o: SceneObject): Footprint {
  return { cx: o.position[0], cy: o.position[1], hx: o.size.width / 2, hy: o.size.depth / 2, yaw: o.yaw };
}

/** Planar distance from p to the footprint (0 inside): `distance_to_oriented_bbox_2d`. */
export function footprintDistance(f: Footprint, p: Vec2): number {
  return pointFootprintDistance(p[0], p[1], f);
}

export interface GoalRing {
  /** Closest feasible approach to the footprint, metres. */
  minDistance: number;
  /** Accepted distance: the closest approach plus 0.10 m (for the point agent, at least the embodied agent's closest approach). */
  threshold: number;
}

/** The ring rule on a set of distances of feasible points; null when there are none. */
export function goalRing(distances: readonly number[], floor = 0): GoalRing | null {
  if (distances.length === 0) return null;
  const minDistance = Math.min(...distances);
  return { minDistance, threshold: Math.max(minDistance + P.goalRingToleranceM, floor) };
}

/** Free cells of the grid every 0.10 m within `reach` metres of the footprint, with their distance. */
export function denseGoalCells(grid: OccupancyGrid, f: Footprint, reach = 1.5): Array<{ p: Vec2; d: number }> {
  const stride = Math.max(1, Math.round(P.denseGoalSpacingM / grid.cellSize));
  const r = Math.hypot(f.hx, f.hy) + reach;
  const i0 = Math.max(0, Math.floor((f.cx - r - grid.origin[0]) / grid.cellSize));
  const i1 = Math.min(grid.width - 1, Math.ceil((f.cx + r - grid.origin[0]) / grid.cellSize));
  const j0 = Math.max(0, Math.floor((f.cy - r - grid.origin[1]) / grid.cellSize));
  const j1 = Math.min(grid.height - 1, Math.ceil((f.cy + r - grid.origin[1]) / grid.cellSize));
  const out: Array<{ p: Vec2; d: number }> = [];
  for (let j = j0 - (j0 % stride); j <= j1; j += stride) {
    for (let i = i0 - (i0 % stride); i <= i1; i += stride) {
      if (i < 0 || j < 0 || grid.occupied[j * grid.width + i]) continue;
      const p = cellCenter(grid, i, j);
      const d = footprintDistance(f, p);
      if (d <= reach) out.push({ p, d });
    }
  }
  return out;
}

export interface AgentRoute {
  agent: Agent;
  /** Candidate keys from the start to the goal. */
  keys: number[];
  /** Planar length of the continuous shortest path (the release's optimal_length_m before evalfix). */
  continuousLengthM: number;
  ring: GoalRing;
  /** Turns of the waypoint route (interior points). */
  turns: number;
  /** The continuous (string-pulled) free-space path from the start to the goal it reached. */
  path: Vec2[];
}

/** Samples every `step` metres along a polyline, ends included. */
function densify(path: readonly Vec2[], step: number): Vec2[] {
  const out: Vec2[] = [path[0]!];
  for (let k = 1; k < path.length; k++) {
    const a = path[k - 1]!, b = path[k]!;
    const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / step));
    for (let s = 1; s <= n; s++) out.push([a[0] + ((b[0] - a[0]) * s) / n, a[1] + ((b[1] - a[1]) * s) / n]);
  }
  return out;
}

/**
 * Image pixels the route line must not cross: pixels of objects other than the target that
 * block (not rugs, doors, windows), padded by 2 px at 1024 px.
 */
export function blockingTest(v: ViewInputs, targetId: number): (x: number, y: number) => boolean {
  const b = v.buffers;
  const pad = Math.max(1, Math.round(scalePx(P.blockingMaskPadPx, b.width)));
  const blocks = (id: number): boolean => {
    if (id === 0 || id === targetId) return false;
    const o = v.objectsById.get(id);
    return o !== undefined && !o.inWall && o.category !== "rug" && o.category !== "towel";
  };
  return (x, y) => {
    const cx = Math.floor(x), cy = Math.floor(y);
    for (let j = Math.max(0, cy - pad); j <= Math.min(b.height - 1, cy + pad); j++) {
      for (let i = Math.max(0, cx - pad); i <= Math.min(b.width - 1, cx + pad); i++) if (blocks(b.instance[j * b.width + i]!)) return true;
    }
    return false;
  };
}

/** True when the image segment between two points misses the blocking mask (1 px steps). */
export function imageSegmentClear(blocked: (x: number, y: number) => boolean, a: [number, number], b: [number, number]): boolean {
  const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
  for (let s = 0; s <= n; s++) if (blocked(a[0] + ((b[0] - a[0]) * s) / n, a[1] + ((b[1] - a[1]) * s) / n)) return false;
  return true;
}

export interface RoutePool {
  candidates: Candidate[];
  nextKey: number;
}

const feasibleFor = (agent: Agent, c: Candidate): boolean => (agent === "point" ? c.pointWalkable : c.embodiedFeasible);

/**
 * The displayable waypoint for a floor point: an existing candidate of the pool within 0.12 m or
 * 6 px that the agent may stand on, or a new one inserted into the pool; null when the point is
 * not shown (outside the image, hidden, on an object).
 */
function waypointFor(v: ViewInputs, pool: RoutePool, agent: Agent, p: Vec2, near: (c: Candidate) => boolean): Candidate | null {
  const q = projectPoint(v.camera, [p[0], p[1], 0]);
  if (!q || !inImage(v.camera, q)) return null;
  const mergePx = scalePx(P.keypointMergePx, v.buffers.width);
  let best: Candidate | null = null, bestD = Infinity;
  for (const c of pool.candidates) {
    if (c.source === "object_surface" || !feasibleFor(agent, c) || !near(c)) continue;
    const dw = Math.hypot(c.world[0] - p[0], c.world[1] - p[1]);
    const dp = Math.hypot(c.image[0] - q.x, c.image[1] - q.y);
    if ((dw <= P.keypointMergeM || dp <= mergePx) && dw < bestD) {
      bestD = dw;
      best = c;
    }
  }
  if (best) return best;
  const fresh = labelFloorCandidate(v, pool.nextKey, "route_keypoint", [p[0], p[1], 0] as Vec3, q);
  const d = v.buffers.depth[Math.floor(q.y) * v.buffers.width + Math.floor(q.x)]!;
  if (!(d === 0 || d >= q.depth - P.visibilityToleranceM) || !feasibleFor(agent, fresh)) return null;
  pool.nextKey++;
  pool.candidates.push(fresh);
  return fresh;
}

function turnCount(points: readonly Vec2[]): number {
  let turns = 0;
  for (let k = 1; k + 1 < points.length; k++) {
    const a = points[k - 1]!, b = points[k]!, c = points[k + 1]!;
    const h1 = Math.atan2(b[1] - a[1], b[0] - a[0]), h2 = Math.atan2(c[1] - b[1], c[0] - b[0]);
    const d = Math.abs(((h2 - h1 + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
    if (d >= (P.keypointTurnDeg * Math.PI) / 180) turns++;
  }
  return turns;
}

/**
 * One agent's route to the target: the ring's goals (the 18 closest), the nearest reachable by
 * grid path, string-pulled; then, walking along that path (0.10 m samples), from each waypoint
 * the farthest point that is in straight sight on the agent's grid, whose image segment misses
 * the other objects, and that the image shows becomes the next waypoint. The last must lie in the
 * ring. Null when any step fails.
 */
export function planAgentRoute(
  v: ViewInputs, pool: RoutePool, agent: Agent, tree: ShortestPathTree, start: Candidate, target: SceneObject,
  ringFloor = 0, cells: ReadonlyArray<{ p: Vec2; d: number }> = denseGoalCells(v.grids[agent], objectFootprint(target)),
): AgentRoute | null {
  const grid = v.grids[agent];
  const f = objectFootprint(target);
  const ring = goalRing(cells.map((c) => c.d), ringFloor);
  if (!ring) return null;
  const eye = v.camera.position;
  const goals = cells
    .filter((c) => c.d <= ring.threshold + 1e-9)
    .sort((a, b) => a.d - b.d || Math.hypot(a.p[0] - eye[0], a.p[1] - eye[1]) - Math.hypot(b.p[0] - eye[0], b.p[1] - eye[1]))
    .slice(0, P.maxGoalsSearched);
  let goal: Vec2 | null = null, goalDist = Infinity;
  for (const g of goals) {
    const d = tree.distanceTo(g.p);
    if (d < goalDist) {
      goalDist = d;
      goal = g.p;
    }
  }
  if (!goal) return null;
  const cellPath = tree.pathTo(goal);
  if (!cellPath || cellPath.length < 2) return null;
  const startP: Vec2 = [start.world[0], start.world[1]];
  const continuous = smoothPath(grid, [startP, ...cellPath.slice(1)]);
  const dense = densify(continuous, P.denseGoalSpacingM);
  const blocked = blockingTest(v, target.id);
  const basis = cameraBasis(v.camera);
  const pixel = (p: Vec2): [number, number] | null => {
    const q = projectPoint(v.camera, [p[0], p[1], 0], basis);
    return q && inImage(v.camera, q) ? [q.x, q.y] : null;
  };

  const route: Candidate[] = [start];
  let at = 0;
  while (at < dense.length - 1) {
    const from = route[route.length - 1]!;
    const fromP: Vec2 = [from.world[0], from.world[1]];
    let next: Candidate | null = null, nextAt = -1;
    for (let k = dense.length - 1; k > at; k--) {
      const px = pixel(dense[k]!);
      if (!px || !lineOfSight(grid, fromP, dense[k]!) || !imageSegmentClear(blocked, from.image, px)) continue;
      const w = waypointFor(v, pool, agent, dense[k]!, (c) => lineOfSight(grid, fromP, [c.world[0], c.world[1]]) && imageSegmentClear(blocked, from.image, c.image));
      if (!w || w === from) continue;
      next = w;
      nextAt = k;
      break;
    }
    if (!next) return null;
    route.push(next);
    at = nextAt;
  }
  const last = route[route.length - 1]!;
  if (route.length < 2 || footprintDistance(f, [last.world[0], last.world[1]]) > ring.threshold + 1e-9) return null;
  const points = route.map((c) => [c.world[0], c.world[1]] as Vec2);
  return { agent, keys: route.map((c) => c.key), continuousLengthM: pathLength(continuous), ring, turns: turnCount(points), path: continuous };
}
