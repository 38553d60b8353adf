/**
 * The oracle executor (VCN-Bench §4.1, §5.2: "an oracle executor moves to the predicted
 * waypoint"): it drives the robot to a point with the primitive actions, re-planning the geodesic
 * path from the current pose before every action, so collisions and the 30-degree heading grid
 * are absorbed as it goes.
 *
 * Rule of one action (executorAction, pure): arrived when the path is no longer than the radius;
 * else aim at the path's next corner (the first point farther than AIM_MIN_M; the last point when
 * none is) and turn towards, or walk along, the reachable heading closest to it; a heading whose
 * FORWARD was blocked where the robot stands is left out until it has moved.
 */
import { forwardOf, wrapAngle, type GeodesicPath, type NavAction, type Pose, type Vec3 } from "../../../sim/types.js";

/** Corners closer than this are passed over when aiming (the robot is on them already). */
export const AIM_MIN_M = 0.05;

/** The heading (Habitat convention: CCW from above, 0 facing -z) that faces from a to b on the floor. */
export function headingTowards(a: Vec3, b: Vec3): number {
  return Math.atan2(-(b[0] - a[0]), -(b[2] - a[2]));
}

const floorDistance = (a: Vec3, b: Vec3) => Math.hypot(b[0] - a[0], b[2] - a[2]);

/** The point the robot aims at: the first path corner farther than AIM_MIN_M from it. */
export function aimPoint(position: Vec3, path: Pick<GeodesicPath, "points">): Vec3 {
  for (const p of path.points) if (floorDistance(position, p) > AIM_MIN_M) return p;
  return path.points[path.points.length - 1] ?? position;
}

/**
 * One executor action towards the end of `path`, or "arrived". The robot can face start + k x
 * turn step only, so it picks the reachable heading closest to the aim point's direction, leaving
 * out the headings whose FORWARD was blocked without moving at this very position
 * (`blockedHeadings`, radians): it turns towards that heading (the shorter way) or, facing it,
 * goes forward. Null when every heading is blocked.
 */
export function executorAction(pose: Pose, path: Pick<GeodesicPath, "points" | "distance">, radiusM: number, turnStepDeg: number, blockedHeadings: readonly number[] = []): NavAction | "arrived" | null {
  if (path.distance <= radiusM) return "arrived";
  const aim = aimPoint(pose.position, path);
  if (floorDistance(pose.position, aim) <= AIM_MIN_M) return "arrived";
  const desired = headingTowards(pose.position, aim);
  const step = (turnStepDeg * Math.PI) / 180;
  const turns = Math.round((2 * Math.PI) / step);
  const isBlocked = (h: number) => blockedHeadings.some((b) => Math.abs(wrapAngle(b - h)) < step / 4);
  let best: { k: number; off: number } | null = null;
  // k from the current heading: 0, then +1, -1, +2, -2, ... so ties go to the smaller turn, left first.
  for (let i = 0; i < turns; i++) {
    const k = i % 2 === 1 ? (i + 1) / 2 : -i / 2;
    const heading = pose.heading + k * step;
    if (isBlocked(heading)) continue;
    const off = Math.abs(wrapAngle(desired - heading));
    if (best === null || off < best.off - 1e-9) best = { k, off };
  }
  if (best === null) return null;
  if (best.k === 0) return "FORWARD";
  return best.k > 0 ? "TURN_LEFT" : "TURN_RIGHT";
}

/** Where a FORWARD of `step` metres from the pose would end (no obstacles), for checks. */
export function forwardTarget(pose: Pose, step: number): Vec3 {
  const [dx, dz] = forwardOf(pose.heading);
  return [pose.position[0] + dx * step, pose.position[1], pose.position[2] + dz * step];
}

/**
 * When the executor gives up on a point: more actions than a generous allowance for the path it
 * had at the start (four times the forward steps it needs plus a full turn each way), or every
 * heading blocked where it stands.
 */
export function executorBudget(distance: number, forwardStepM: number, turnStepDeg: number): number {
  return 4 * Math.ceil(distance / forwardStepM) + 2 * Math.ceil(360 / turnStepDeg);
}
