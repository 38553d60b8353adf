import type { Point2 } from "./point2.js";
import { segmentSegmentDistance } from "./segment2.js";

/** An axis-aligned rectangle (closed). */
export interface Rect {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** True when p is inside r or on its border. */
export function rectContains(r: Rect, p: Point2): boolean {
  return p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY;
}

/** Distance from p to r; 0 inside or on the border. */
export function pointRectDistance(p: Point2, r: Rect): number {
  const dx = Math.max(r.minX - p.x, 0, p.x - r.maxX);
  const dy = Math.max(r.minY - p.y, 0, p.y - r.maxY);
  return Math.hypot(dx, dy);
}

/** The rectangle grown by `margin` on every side (negative shrinks). */
export function inflateRect(r: Rect, margin: number): Rect {
  return { minX: r.minX - margin, minY: r.minY - margin, maxX: r.maxX + margin, maxY: r.maxY + margin };
}

/** True when the closed rectangles share at least one point. */
export function rectsOverlap(a: Rect, b: Rect): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** The four corners, counter-clockwise from (minX, minY). */
export function rectCorners(r: Rect): [Point2, Point2, Point2, Point2] {
  return [
    { x: r.minX, y: r.minY },
    { x: r.maxX, y: r.minY },
    { x: r.maxX, y: r.maxY },
    { x: r.minX, y: r.maxY },
  ];
}

/** Shortest distance between the closed segment a-b and the closed rectangle r (0 when they meet). */
export function segmentRectDistance(a: Point2, b: Point2, r: Rect): number {
  if (rectContains(r, a) || rectContains(r, b)) return 0;
  const c = rectCorners(r);
  let best = Infinity;
  for (let i = 0; i < 4; i++) {
    best = Math.min(best, segmentSegmentDistance(a, b, c[i]!, c[(i + 1) % 4]!));
    if (best === 0) return 0;
  }
  return best;
}

/**
 * Smallest distance from the segment a-b to any of the rectangles (Infinity for none).
 * A segment keeps clear of rectangles inflated by radius R exactly when this is > R
 * (or >= R, if touching the inflated border is allowed).
 */
export function segmentClearance(a: Point2, b: Point2, rects: readonly Rect[]): number {
  let best = Infinity;
  for (const r of rects) best = Math.min(best, segmentRectDistance(a, b, r));
  return best;
}
