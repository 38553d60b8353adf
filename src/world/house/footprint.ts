/**
 * Plan-view geometry of placed objects: oriented rectangles ("footprints"), axis-aligned
 * rectangles, and the tests the furniture placer needs (overlap by the separating-axis theorem,
 * containment, point distance). Pure functions, metres, z up, yaw counter-clockwise from +x.
 */
import type { Vec2 } from "../types.js";

/** An axis-aligned rectangle. */
export interface Box2 {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * An oriented rectangle: centre, half extents along its own axes, and yaw. Its local x axis is
 * (cos yaw, sin yaw), its local y axis (-sin yaw, cos yaw).
 */
export interface Footprint {
  cx: number;
  cy: number;
  /** Half extent along the local x axis (half the model's width). */
  hx: number;
  /** Half extent along the local y axis (half the model's depth). */
  hy: number;
  yaw: number;
}

const QUARTER = Math.PI / 2;

/**
 * cos and sin of a yaw, exact (0, 1, -1) at multiples of 90 degrees so quarter-turned objects
 * stay on the plan's axes without floating-point residue.
 */
export function yawCosSin(yaw: number): [number, number] {
  const q = Math.round(yaw / QUARTER);
  if (Math.abs(yaw - q * QUARTER) < 1e-12) {
    switch (((q % 4) + 4) % 4) {
      case 0: return [1, 0];
      case 1: return [0, 1];
      case 2: return [-1, 0];
      default: return [0, -1];
    }
  }
  return [Math.cos(yaw), Math.sin(yaw)];
}

/** The yaw of quarter turn q (0..3): 0, pi/2, pi, 3pi/2. */
export function quarterYaw(q: number): number {
  return (((q % 4) + 4) % 4) * QUARTER;
}

/** World direction of a model's front at this yaw: the model front is -y at yaw 0 (types.ts). */
export function frontDirection(yaw: number): Vec2 {
  const [c, s] = yawCosSin(yaw);
  // Rotate (0, -1) by yaw.
  return [s, -c];
}

/** The quarter turn (0..3) whose front direction is the axis direction d ((0,-1) -> 0, (1,0) -> 1, (0,1) -> 2, (-1,0) -> 3). */
export function quarterFacing(d: Vec2): number {
  if (Math.abs(d[0]) >= Math.abs(d[1])) return d[0] > 0 ? 1 : 3;
  return d[1] > 0 ? 2 : 0;
}

/** The world point of local offset (u along local x, v along local y) of a footprint. */
export function footprintPoint(f: Footprint, u: number, v: number): Vec2 {
  const [c, s] = yawCosSin(f.yaw);
  return [f.cx + c * u - s * v, f.cy + s * u + c * v];
}

/** Corners counter-clockwise from local (-hx, -hy). */
export function footprintCorners(f: Footprint): Vec2[] {
  return [
    footprintPoint(f, -f.hx, -f.hy),
    footprintPoint(f, f.hx, -f.hy),
    footprintPoint(f, f.hx, f.hy),
    footprintPoint(f, -f.hx, f.hy),
  ];
}

/** Axis-aligned bounds of a footprint. */
export function footprintBounds(f: Footprint): Box2 {
  const [c, s] = yawCosSin(f.yaw);
  const ex = Math.abs(c) * f.hx + Math.abs(s) * f.hy;
  const ey = Math.abs(s) * f.hx + Math.abs(c) * f.hy;
  return { minX: f.cx - ex, minY: f.cy - ey, maxX: f.cx + ex, maxY: f.cy + ey };
}

/** A footprint for an axis-aligned rectangle. */
export function boxFootprint(b: Box2): Footprint {
  return { cx: (b.minX + b.maxX) / 2, cy: (b.minY + b.maxY) / 2, hx: (b.maxX - b.minX) / 2, hy: (b.maxY - b.minY) / 2, yaw: 0 };
}

/** Half-width of a footprint's projection on the unit axis (ax, ay). */
function projectedRadius(f: Footprint, c: number, s: number, ax: number, ay: number): number {
  return f.hx * Math.abs(c * ax + s * ay) + f.hy * Math.abs(-s * ax + c * ay);
}

/**
 * Separating-axis overlap of two oriented rectangles: true when, on each of the four edge
 * normals, their projections overlap by more than `tolerance` metres (so rectangles that touch,
 * or interpenetrate by at most `tolerance`, do not count as overlapping).
 */
export function footprintsOverlap(a: Footprint, b: Footprint, tolerance = 0): boolean {
  const [ca, sa] = yawCosSin(a.yaw);
  const [cb, sb] = yawCosSin(b.yaw);
  const dx = b.cx - a.cx;
  const dy = b.cy - a.cy;
  const axes: Vec2[] = [[ca, sa], [-sa, ca], [cb, sb], [-sb, cb]];
  for (const [ax, ay] of axes) {
    const distance = Math.abs(dx * ax + dy * ay);
    const reach = projectedRadius(a, ca, sa, ax, ay) + projectedRadius(b, cb, sb, ax, ay);
    if (distance >= reach - tolerance) return false;
  }
  return true;
}

/** True when every corner of `inner` lies inside `outer` grown by `tolerance`. */
export function footprintInsideFootprint(inner: Footprint, outer: Footprint, tolerance = 0): boolean {
  const [c, s] = yawCosSin(outer.yaw);
  for (const [x, y] of footprintCorners(inner)) {
    const dx = x - outer.cx;
    const dy = y - outer.cy;
    const u = c * dx + s * dy;
    const v = -s * dx + c * dy;
    if (Math.abs(u) > outer.hx + tolerance || Math.abs(v) > outer.hy + tolerance) return false;
  }
  return true;
}

/** True when the footprint lies inside the box grown by `tolerance`. */
export function footprintInsideBox(f: Footprint, b: Box2, tolerance = 0): boolean {
  const r = footprintBounds(f);
  return r.minX >= b.minX - tolerance && r.maxX <= b.maxX + tolerance && r.minY >= b.minY - tolerance && r.maxY <= b.maxY + tolerance;
}

/** Distance from a point to an oriented rectangle (0 inside or on it). */
export function pointFootprintDistance(x: number, y: number, f: Footprint): number {
  const [c, s] = yawCosSin(f.yaw);
  const dx = x - f.cx;
  const dy = y - f.cy;
  const u = Math.abs(c * dx + s * dy) - f.hx;
  const v = Math.abs(-s * dx + c * dy) - f.hy;
  return Math.hypot(Math.max(u, 0), Math.max(v, 0));
}

/** True when two boxes overlap by more than `tolerance` on both axes. */
export function boxesOverlap(a: Box2, b: Box2, tolerance = 0): boolean {
  return a.minX < b.maxX - tolerance && b.minX < a.maxX - tolerance && a.minY < b.maxY - tolerance && b.minY < a.maxY - tolerance;
}

/** Area of the intersection of two boxes (0 when disjoint). */
export function boxIntersectionArea(a: Box2, b: Box2): number {
  const w = Math.min(a.maxX, b.maxX) - Math.max(a.minX, b.minX);
  const h = Math.min(a.maxY, b.maxY) - Math.max(a.minY, b.minY);
  return w > 0 && h > 0 ? w * h : 0;
}
