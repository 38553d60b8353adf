/** A point (or vector) in the plane. */
export interface Point2 {
  readonly x: number;
  readonly y: number;
}

export function point2(x: number, y: number): Point2 {
  return { x, y };
}

/** Euclidean distance between two points. */
export function distance2(a: Point2, b: Point2): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
