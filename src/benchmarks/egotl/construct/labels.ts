/**
 * Clip labels read from the camera trajectory (the paper's §4: direction from the motion,
 * distance by eq. 3 over the camera centres sampled at 10 fps).
 */
import type { DirectionLabel } from "../schema.js";
import type { Pose } from "./motion.js";
import { DEG, EGOTL_PARAMS as P } from "./params.js";

/** Net yaw change of a clip (unwrapped sample to sample), radians. */
export function netYaw(poses: readonly Pose[]): number {
  let total = 0;
  for (let k = 1; k < poses.length; k++) {
    let d = (poses[k]!.yaw - poses[k - 1]!.yaw) % (2 * Math.PI);
    if (d > Math.PI) d -= 2 * Math.PI;
    if (d <= -Math.PI) d += 2 * Math.PI;
    total += d;
  }
  return total;
}

/** Eq. 3: the sum of 3D displacements between consecutive camera centres (head bob included). */
export function travelledMetres(poses: readonly Pose[]): number {
  let s = 0;
  for (let k = 1; k < poses.length; k++) s += Math.hypot(poses[k]!.x - poses[k - 1]!.x, poses[k]!.y - poses[k - 1]!.y, poses[k]!.z - poses[k - 1]!.z);
  return s;
}

/**
 * The dominant motion: a net yaw of at least 45 degrees is a turn (CCW = left); an eye-height
 * change of at least 0.25 m is going up or down (standing up, sitting down); a clip turning less
 * than 20 degrees, keeping its height within 0.1 m and moving at least 0.5 m is moving forward;
 * anything else is ambiguous (null) and not asked.
 */
export function directionOf(poses: readonly Pose[]): DirectionLabel | null {
  const yaw = netYaw(poses) / DEG;
  const dz = poses[poses.length - 1]!.z - poses[0]!.z;
  const first = poses[0]!, last = poses[poses.length - 1]!;
  const moved = Math.hypot(last.x - first.x, last.y - first.y);
  if (Math.abs(yaw) >= P.turnLabelDeg && Math.abs(dz) < P.flatMaxHeightM) return yaw > 0 ? "Turn left" : "Turn right";
  if (Math.abs(dz) >= P.heightLabelM && Math.abs(yaw) < P.straightMaxYawDeg) return dz > 0 ? "Going up" : "Going down";
  if (Math.abs(yaw) < P.straightMaxYawDeg && Math.abs(dz) < P.flatMaxHeightM && moved >= P.straightMinMoveM) return "Move forward";
  return null;
}
