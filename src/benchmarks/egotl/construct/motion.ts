/**
 * Egocentric camera motion at head height, sampled at the episode rate (10 fps, the paper's §4
 * distance rate): walks with raised-cosine speed ramps at starts and stops and head bob at the step
 * frequency, on-the-spot turns with a capped yaw rate, pauses with small head motion, sitting down
 * and standing up, and the look-down of a manipulation. Every clip starts and ends at the resting
 * head pitch, so clips join without jumps.
 */
import type { Rng } from "../../../stats/rng.js";
import type { Vec2, Vec3 } from "../../../world/types.js";
import { DEG, EGOTL_PARAMS as P } from "./params.js";

/** A camera pose: eye position (metres), yaw (CCW from +x) and pitch (up positive), radians. */
export interface Pose {
  x: number;
  y: number;
  z: number;
  yaw: number;
  pitch: number;
}

/** The walker of one episode: standing eye height, cruise speed, step frequency. */
export interface Walker {
  eye: number;
  speed: number;
  stepHz: number;
}

export const REST_PITCH = P.walkPitchDeg * DEG;

/** Samples k / n of a clip of `seconds` at the episode rate (at least one step). */
export function clipSteps(seconds: number, fps: number = P.fps): number {
  return Math.max(1, Math.ceil(seconds * fps - 1e-9));
}

/** Raised-cosine ease 0 -> 1 on [0, 1]. */
export const ease = (u: number): number => (u <= 0 ? 0 : u >= 1 ? 1 : (1 - Math.cos(Math.PI * u)) / 2);
/** A bump 0 -> 1 -> 0 on [0, 1]. */
const bump = (u: number): number => (u <= 0 || u >= 1 ? 0 : Math.sin(Math.PI * u) ** 2);

/** Smallest signed difference b - a of two angles, in (-pi, pi]. */
export function angleDelta(a: number, b: number): number {
  let d = (b - a) % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}

/**
 * Distance along a walk of length L at time t: cruise speed v with raised-cosine ramps of `ramp`
 * seconds at both ends (a short walk never reaches v: the ramps meet). Returns the duration too.
 */
export function walkProfile(length: number, speed: number, ramp: number = P.rampS): { duration: number; at: (t: number) => { s: number; v: number } } {
  const v = Math.min(speed, length / ramp);
  const cruise = v > 0 ? (length - v * ramp) / v : 0;
  const duration = 2 * ramp + cruise;
  const rampDistance = (t: number) => (v / 2) * (t - (ramp / Math.PI) * Math.sin((Math.PI * t) / ramp));
  return {
    duration,
    at(t: number) {
      if (t <= 0) return { s: 0, v: 0 };
      if (t >= duration) return { s: length, v: 0 };
      if (t < ramp) return { s: rampDistance(t), v: v * ease(t / ramp) };
      if (t <= ramp + cruise) return { s: (v * ramp) / 2 + v * (t - ramp), v };
      const r = duration - t;
      return { s: length - rampDistance(r), v: v * ease(r / ramp) };
    },
  };
}

/** Point and heading at arc length s along a polyline; the heading blends over 0.3 m around each bend. */
function alongPolyline(points: readonly Vec2[], s: number, startYaw: number): { p: Vec2; yaw: number } {
  const headings: number[] = [];
  const lengths: number[] = [];
  for (let k = 1; k < points.length; k++) {
    headings.push(Math.atan2(points[k]![1] - points[k - 1]![1], points[k]![0] - points[k - 1]![0]));
    lengths.push(Math.hypot(points[k]![0] - points[k - 1]![0], points[k]![1] - points[k - 1]![1]));
  }
  let rest = s;
  let seg = 0;
  while (seg < lengths.length - 1 && rest > lengths[seg]!) rest -= lengths[seg++]!;
  const a = points[seg]!, b = points[seg + 1]!;
  const f = lengths[seg]! > 0 ? Math.min(1, rest / lengths[seg]!) : 1;
  const p: Vec2 = [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
  // Unwrapped headings, starting from the walker's yaw.
  const unwrapped: number[] = [];
  let prev = startYaw;
  for (const h of headings) unwrapped.push((prev = prev + angleDelta(prev, h)));
  const blend = 0.3;
  let yaw = unwrapped[0]!;
  // Blend from the start yaw into the first heading over the first 0.6 m.
  yaw = startYaw + (unwrapped[0]! - startYaw) * ease(s / (2 * blend));
  let acc = 0;
  for (let k = 0; k + 1 < unwrapped.length; k++) {
    acc += lengths[k]!;
    yaw += (unwrapped[k + 1]! - unwrapped[k]!) * ease((s - (acc - blend)) / (2 * blend));
  }
  return { p, yaw };
}

export function polylineLength(points: readonly Vec2[]): number {
  let s = 0;
  for (let k = 1; k < points.length; k++) s += Math.hypot(points[k]![0] - points[k - 1]![0], points[k]![1] - points[k - 1]![1]);
  return s;
}

/**
 * A walk along a polyline: speed ramps, vertical bob at the step frequency and lateral sway at
 * half of it (both scaled by the momentary speed, so zero at rest), a glance (yaw and pitch bumps
 * that return to zero). Starts at `startYaw`, ends facing the last segment's heading.
 */
export function walkPoses(points: readonly Vec2[], startYaw: number, walker: Walker, rng: Rng): Pose[] {
  const length = polylineLength(points);
  const profile = walkProfile(length, walker.speed);
  const n = clipSteps(profile.duration);
  const glanceYaw = rng.chance(0.5) ? rng.float(-1, 1) * P.glanceYawDeg * DEG : 0;
  const glancePitch = rng.float(-1, 1) * P.glancePitchDeg * DEG;
  const glanceAt = rng.float(0.2, 0.5);
  const glanceLen = rng.float(0.3, 0.5);
  const out: Pose[] = [];
  let phase = 0;
  let lastT = 0;
  for (let k = 0; k <= n; k++) {
    const t = (k / n) * profile.duration;
    const { s, v } = profile.at(t);
    const { p, yaw } = alongPolyline(points, s, startYaw);
    // Step phase advances with the distance walked, so the bob follows the footfalls.
    phase += (t - lastT) * walker.stepHz * (v / walker.speed);
    lastT = t;
    const scale = v / walker.speed;
    const vertical = P.bobVerticalM * scale * Math.sin(2 * Math.PI * phase);
    const lateral = P.bobLateralM * scale * Math.sin(Math.PI * phase);
    const right: Vec2 = [Math.sin(yaw), -Math.cos(yaw)];
    const g = bump((k / n - glanceAt) / glanceLen);
    out.push({
      x: p[0] + right[0] * lateral,
      y: p[1] + right[1] * lateral,
      z: walker.eye + vertical,
      yaw: yaw + glanceYaw * g,
      pitch: REST_PITCH + glancePitch * g,
    });
  }
  // The ends lie exactly on the path (bob and sway vanish at rest).
  return out;
}

/** An on-the-spot turn by `delta` radians: raised-cosine yaw with the peak rate capped. */
export function turnPoses(at: Pose, delta: number, peakRateDegS: number): Pose[] {
  const duration = Math.max(P.minTurnS, (Math.abs(delta) * Math.PI) / (2 * peakRateDegS * DEG));
  const n = clipSteps(duration);
  return Array.from({ length: n + 1 }, (_, k) => ({ ...at, yaw: at.yaw + delta * ease(k / n), pitch: REST_PITCH }));
}

/** A pause: the head drifts a little (yaw and pitch bumps), the body stays. Frames after `at` only. */
export function pausePoses(at: Pose, seconds: number, rng: Rng): Pose[] {
  const n = clipSteps(seconds);
  const dy = rng.float(-2, 2) * DEG, dp = rng.float(-1.5, 1.5) * DEG;
  return Array.from({ length: n }, (_, k) => ({ ...at, yaw: at.yaw + dy * bump((k + 1) / (n + 1)), pitch: at.pitch + dp * bump((k + 1) / (n + 1)) }));
}

/**
 * Sitting down from standing (facing away from the seat): the body moves back onto the seat and
 * the eye drops to the seated height, with a forward lean of the head midway. Standing up is the
 * same motion reversed.
 */
export function sitPoses(standing: Pose, seatedEye: number, back: number, seconds: number, reverse = false): Pose[] {
  const n = clipSteps(seconds);
  const bx = -Math.cos(standing.yaw) * back, by = -Math.sin(standing.yaw) * back;
  const poses = Array.from({ length: n + 1 }, (_, k) => {
    const u = ease(k / n);
    return { x: standing.x + bx * u, y: standing.y + by * u, z: standing.z + (seatedEye - standing.z) * u, yaw: standing.yaw, pitch: REST_PITCH - 12 * DEG * bump(k / n) };
  });
  return reverse ? poses.reverse() : poses;
}

/** Yaw and pitch that look from the eye at a point. */
export function lookAt(eye: Vec3, q: Vec3): { yaw: number; pitch: number } {
  const d = Math.hypot(q[0] - eye[0], q[1] - eye[1]);
  return { yaw: Math.atan2(q[1] - eye[1], q[0] - eye[0]), pitch: Math.atan2(q[2] - eye[2], d) };
}

/**
 * A manipulation: the head turns and pitches to look at `target` (0-25% of the clip), holds
 * (25-75%), and comes back to the resting pitch (75-100%), still facing the target. Returns the
 * poses and each sample's clip fraction (for the object's motion).
 */
export function manipulationPoses(at: Pose, target: Vec3, seconds: number): { poses: Pose[]; u: number[] } {
  const n = clipSteps(seconds);
  const look = lookAt([at.x, at.y, at.z], target);
  const yaw1 = at.yaw + angleDelta(at.yaw, look.yaw);
  const poses: Pose[] = [];
  const u: number[] = [];
  for (let k = 0; k <= n; k++) {
    const f = k / n;
    const toLook = ease(f / 0.25);
    const back = ease((f - 0.75) / 0.25);
    poses.push({ ...at, yaw: at.yaw + (yaw1 - at.yaw) * toLook, pitch: REST_PITCH + (look.pitch - REST_PITCH) * toLook * (1 - back) });
    u.push(f);
  }
  return { poses, u };
}
