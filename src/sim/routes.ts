/**
 * Routes on the robot's plan grid (robot.ts): the goal a shortest-path tree reaches first, and the
 * shortest route to it pulled straight (smoothPath) and sampled every FORWARD step, with the number
 * of actions it takes (FORWARDs, turns to face each leg, STOP).
 */
import { pathLength, smoothPath, type OccupancyGrid, type ShortestPathTree } from "../world/space/index.js";
import type { Vec2 } from "../world/types.js";
import { ROBOT_MOTION } from "./motion.js";

/** The goal point nearest by geodesic distance (ties: the first), or null when none is reached. */
export function nearestViewPoint(tree: ShortestPathTree, points: readonly Vec2[]): { point: Vec2; distance: number } | null {
  let best: { point: Vec2; distance: number } | null = null;
  for (const p of points) {
    const d = tree.distanceTo(p);
    if (Number.isFinite(d) && (best === null || d < best.distance)) best = { point: p, distance: d };
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
  /** The smoothed path's corners, start first, the goal point last. */
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

/** The shortest route from the start to a goal point (null when the grid does not join them). */
export function shortestRoute(grid: OccupancyGrid, tree: ShortestPathTree, start: Vec2, heading: number, goal: Vec2): ShortestRoute | null {
  const cells = tree.pathTo(goal);
  if (!cells) return null;
  const raw: Vec2[] = [start, ...cells.slice(1, -1), goal];
  const corners = raw.length >= 2 ? smoothPath(grid, raw) : [start];
  const samples = corners.length >= 2 ? resample(corners, ROBOT_MOTION.forwardM) : [start];
  const length = pathLength(corners);
  let turns = 0;
  let facing = heading;
  for (let k = 1; k < corners.length; k++) {
    const leg = Math.atan2(corners[k]![1] - corners[k - 1]![1], corners[k]![0] - corners[k - 1]![0]);
    turns += Math.ceil(Math.abs(angleDiff(leg, facing)) / ((ROBOT_MOTION.turnDeg * Math.PI) / 180) - 1e-9);
    facing = leg;
  }
  return { corners, samples, length, steps: Math.ceil(length / ROBOT_MOTION.forwardM - 1e-9) + turns + 1 };
}
