/**
 * Smooth camera motion along a planned route (paper §3.3: "cubic spline interpolation for position
 * and spherical linear interpolation for rotation").
 *
 * Positions: the route polyline is cut into pieces at corners sharper than TOUR_PARAMS.stopCornerDeg
 * (dead ends and doubling back: there the walker stops and turns on the spot), each piece is
 * densified to control points at most controlSpacingM apart, and a centripetal Catmull-Rom spline
 * runs through them. A spline span with any fine sample off the free space (the grid inflated by
 * sampleClearanceM) is replaced by its straight chord, which lies on the planned polyline.
 * The walker moves at a constant speed (speedMps / fps metres per frame, measured along the curve;
 * the speed and the turn rate on the spot may be set per tour, WalkerPace).
 *
 * Headings: in the plan, the shortest-arc interpolation of yaw (2-D slerp) toward the direction
 * to the point lookAheadM ahead, closing headingGain of the error per frame and never turning more
 * than maxTurnDegPerFrame; an error above turnOnSpotDeg stops the walker, who turns on the spot
 * (spotTurnDegPerFrame a frame, the remainder in the last frame) until facing the target.
 */
import type { Vec2 } from "../../../world/types.js";
import { isFreePoint, type OccupancyGrid } from "../../../world/space/index.js";
import { roundTo, TOUR_PARAMS } from "./tour-params.js";

const DEG = Math.PI / 180;

export interface MotionParams {
  /** Metres between consecutive frames while walking. */
  stepM: number;
  controlSpacingM: number;
  stopCornerDeg: number;
  lookAheadM: number;
  headingGain: number;
  maxTurnDegPerFrame: number;
  /** Largest heading change between two frames while turning on the spot, degrees. */
  spotTurnDegPerFrame: number;
  turnOnSpotDeg: number;
  positionDecimals: number;
  angleDecimals: number;
}

/** The walker's pace: walking speed and the turn rate on the spot (defaults: TOUR_PARAMS, the same turn rate as while walking). */
export interface WalkerPace {
  speedMps?: number;
  spotTurnDegPerS?: number;
}

export function motionParams(fps: number = TOUR_PARAMS.fps, pace: WalkerPace = {}): MotionParams {
  const P = TOUR_PARAMS;
  const walkTurnDegPerS = P.maxTurnDegPerFrame * P.fps;
  return {
    stepM: (pace.speedMps ?? P.speedMps) / fps,
    controlSpacingM: P.controlSpacingM,
    stopCornerDeg: P.stopCornerDeg,
    lookAheadM: P.lookAheadM,
    headingGain: P.headingGain,
    maxTurnDegPerFrame: walkTurnDegPerS / fps,
    spotTurnDegPerFrame: (pace.spotTurnDegPerS ?? walkTurnDegPerS) / fps,
    turnOnSpotDeg: P.turnOnSpotDeg,
    positionDecimals: P.positionDecimals,
    angleDecimals: P.angleDecimals,
  };
}

/** A plan pose: position and yaw (radians, counter-clockwise from +x, in (-pi, pi]). */
export interface PlanPose {
  x: number;
  y: number;
  yaw: number;
}

/** Signed shortest rotation from angle a to angle b, radians in (-pi, pi]. */
export function shortestArc(a: number, b: number): number {
  let d = (b - a) % (2 * Math.PI);
  if (d <= -Math.PI) d += 2 * Math.PI;
  else if (d > Math.PI) d -= 2 * Math.PI;
  return d;
}

/** An angle in (-pi, pi]. */
export function wrapAngle(a: number): number {
  return shortestArc(0, a);
}

/** Pieces of the polyline between stops: vertices where the heading turns by more than `stopDeg` (repeated vertices dropped). */
export function splitAtStops(polyline: readonly Vec2[], stopDeg: number): Vec2[][] {
  const pts: Vec2[] = [];
  for (const p of polyline) if (pts.length === 0 || p[0] !== pts[pts.length - 1]![0] || p[1] !== pts[pts.length - 1]![1]) pts.push([p[0], p[1]]);
  if (pts.length < 2) return [pts];
  const pieces: Vec2[][] = [[pts[0]!]];
  for (let k = 1; k < pts.length; k++) {
    pieces[pieces.length - 1]!.push(pts[k]!);
    if (k + 1 < pts.length) {
      const a = Math.atan2(pts[k]![1] - pts[k - 1]![1], pts[k]![0] - pts[k - 1]![0]);
      const b = Math.atan2(pts[k + 1]![1] - pts[k]![1], pts[k + 1]![0] - pts[k]![0]);
      if (Math.abs(shortestArc(a, b)) > stopDeg * DEG) pieces.push([pts[k]!]);
    }
  }
  return pieces;
}

/** The polyline with every segment split evenly into parts at most `spacing` long (vertices kept). */
export function densify(points: readonly Vec2[], spacing: number): Vec2[] {
  const out: Vec2[] = [[points[0]![0], points[0]![1]]];
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1]!, b = points[k]!;
    const parts = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / spacing - 1e-9));
    for (let m = 1; m <= parts; m++) out.push(m === parts ? [b[0], b[1]] : [a[0] + ((b[0] - a[0]) * m) / parts, a[1] + ((b[1] - a[1]) * m) / parts]);
  }
  return out;
}

/**
 * Point at parameter u in [0, 1] on the centripetal Catmull-Rom span from p1 to p2 (neighbours p0,
 * p3), by the Barry-Goldman pyramid with knot gaps |p_{i+1} - p_i|^0.5.
 */
export function catmullRomPoint(p0: Vec2, p1: Vec2, p2: Vec2, p3: Vec2, u: number): Vec2 {
  const gap = (a: Vec2, b: Vec2): number => Math.max(1e-9, Math.sqrt(Math.hypot(b[0] - a[0], b[1] - a[1])));
  const t0 = 0, t1 = gap(p0, p1), t2 = t1 + gap(p1, p2), t3 = t2 + gap(p2, p3);
  const t = t1 + u * (t2 - t1);
  const lerp = (a: Vec2, b: Vec2, ta: number, tb: number): Vec2 => {
    const w = (t - ta) / (tb - ta);
    return [a[0] + (b[0] - a[0]) * w, a[1] + (b[1] - a[1]) * w];
  };
  const a1 = lerp(p0, p1, t0, t1), a2 = lerp(p1, p2, t1, t2), a3 = lerp(p2, p3, t2, t3);
  const b1 = lerp(a1, a2, t0, t2), b2 = lerp(a2, a3, t1, t3);
  return lerp(b1, b2, t1, t2);
}

/** Fine samples per metre of a spline span (for its arc length and the free-space check). */
const SAMPLES_PER_M = 100;

/**
 * The curve of one piece as fine samples: Catmull-Rom through the control points (end neighbours
 * mirrored), each span checked on `free` and replaced by its chord where a sample is not free, or
 * when `straight` holds its index.
 */
export function pieceCurve(controls: readonly Vec2[], free: OccupancyGrid, straight: ReadonlySet<number> = new Set()): { points: Vec2[]; spanStart: number[] } {
  const n = controls.length;
  const at = (k: number): Vec2 => {
    if (k < 0) return [2 * controls[0]![0] - controls[1]![0], 2 * controls[0]![1] - controls[1]![1]];
    if (k >= n) return [2 * controls[n - 1]![0] - controls[n - 2]![0], 2 * controls[n - 1]![1] - controls[n - 2]![1]];
    return controls[k]!;
  };
  const points: Vec2[] = [[controls[0]![0], controls[0]![1]]];
  const spanStart: number[] = [];
  for (let k = 0; k + 1 < n; k++) {
    spanStart.push(points.length - 1);
    const p1 = controls[k]!, p2 = controls[k + 1]!;
    const m = Math.max(2, Math.ceil(Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) * SAMPLES_PER_M));
    let span: Vec2[] = [];
    if (!straight.has(k)) {
      for (let s = 1; s <= m; s++) span.push(s === m ? [p2[0], p2[1]] : catmullRomPoint(at(k - 1), p1, p2, at(k + 2), s / m));
      if (span.some((p) => !isFreePoint(free, p))) span = [];
    }
    if (span.length === 0) for (let s = 1; s <= m; s++) span.push(s === m ? [p2[0], p2[1]] : [p1[0] + ((p2[0] - p1[0]) * s) / m, p1[1] + ((p2[1] - p1[1]) * s) / m]);
    points.push(...span);
  }
  return { points, spanStart };
}

/** A polyline with its cumulative arc length, for points at a distance along it. */
export class ArcPath {
  readonly length: number;
  private readonly cum: Float64Array;
  constructor(private readonly pts: readonly Vec2[]) {
    this.cum = new Float64Array(pts.length);
    for (let k = 1; k < pts.length; k++) this.cum[k] = this.cum[k - 1]! + Math.hypot(pts[k]![0] - pts[k - 1]![0], pts[k]![1] - pts[k - 1]![1]);
    this.length = this.cum[pts.length - 1]!;
  }
  at(s: number): Vec2 {
    if (s <= 0) return this.pts[0]!;
    if (s >= this.length) return this.pts[this.pts.length - 1]!;
    let lo = 0, hi = this.pts.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid]! <= s) lo = mid;
      else hi = mid;
    }
    const a = this.pts[lo]!, b = this.pts[hi]!;
    const w = (s - this.cum[lo]!) / (this.cum[hi]! - this.cum[lo]!);
    return [a[0] + (b[0] - a[0]) * w, a[1] + (b[1] - a[1]) * w];
  }
  /** Index of the fine segment holding distance s. */
  segmentAt(s: number): number {
    let lo = 0, hi = this.pts.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid]! <= s) lo = mid;
      else hi = mid;
    }
    return lo;
  }
}

/** Heading from a to b, or null when they coincide. */
function headingOf(a: Vec2, b: Vec2): number | null {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  return Math.hypot(dx, dy) < 1e-6 ? null : Math.atan2(dy, dx);
}

/** A turn on the spot ends when the heading error is below this, radians (above the 1e-6 rounding of written angles). */
const TURN_DONE = 1e-5;

export interface Walk {
  poses: PlanPose[];
  /** Where each pose stands: the piece and the distance along its curve, metres. */
  stations: Array<{ piece: number; s: number }>;
}

/**
 * Frames along the pieces' curves (each at least two points and longer than 1e-6 m): constant
 * step while walking (a frame lands exactly on each piece's end), heading as in the module
 * comment; at most `maxFrames` frames. Poses are rounded to the params' decimals, and the heading
 * state continues from the rounded values.
 */
export function walkCurves(curves: readonly (readonly Vec2[])[], params: MotionParams, maxFrames: number = Infinity): Walk {
  const paths = curves.map((c) => new ArcPath(c));
  if (paths.length === 0 || paths.some((p) => !(p.length > 1e-6))) throw new Error("every curve of a walk needs a length above 1e-6 m");
  const cap = params.maxTurnDegPerFrame * DEG;
  const spotCap = params.spotTurnDegPerFrame * DEG;
  const lookAhead = (piece: number, s: number): number | null => {
    const path = paths[piece]!;
    return headingOf(path.at(s), path.at(Math.min(path.length, s + params.lookAheadM)));
  };
  /** Target heading at distance s on a piece: ahead on it, or the next piece's start once at its end. */
  const target = (piece: number, s: number): number | null => {
    const own = paths[piece]!.length - s > 1e-6 ? lookAhead(piece, s) : null;
    if (own !== null) return own;
    return piece + 1 < paths.length ? lookAhead(piece + 1, 0) : null;
  };
  const poses: PlanPose[] = [];
  const stations: Walk["stations"] = [];
  let piece = 0, s = 0, yaw = target(0, 0) ?? 0, turning = false;
  const emit = (): void => {
    const p = paths[piece]!.at(s);
    yaw = roundTo(wrapAngle(yaw), params.angleDecimals);
    poses.push({ x: roundTo(p[0], params.positionDecimals), y: roundTo(p[1], params.positionDecimals), yaw });
    stations.push({ piece, s });
  };
  emit();
  while (poses.length < maxFrames) {
    if (paths[piece]!.length - s <= 1e-6) {
      if (piece + 1 >= paths.length) break;
      piece++;
      s = 0;
    }
    const aim = target(piece, s);
    const error = aim === null ? 0 : shortestArc(yaw, aim);
    if (Math.abs(error) > params.turnOnSpotDeg * DEG || (turning && Math.abs(error) > TURN_DONE)) {
      turning = true;
      yaw += Math.sign(error) * Math.min(spotCap, Math.abs(error));
      emit();
      continue;
    }
    turning = false;
    s = Math.min(paths[piece]!.length, s + params.stepM);
    const ahead = target(piece, s);
    if (ahead !== null) {
      const e = shortestArc(yaw, ahead);
      yaw += Math.sign(e) * Math.min(cap, Math.abs(e) * params.headingGain);
    }
    emit();
  }
  return { poses, stations };
}

