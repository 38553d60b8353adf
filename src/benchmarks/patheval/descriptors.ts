import { pointInPolygon, type Polygon } from "../../geometry/polygon.js";
import { DESCRIPTORS, type Descriptors } from "./scenarios.js";

export type Point = readonly [number, number];

/**
 * The seven path descriptors as the release computes them (helpers.calculate_metrics), on the
 * path's vertices:
 * - clearance of a vertex = distance to the nearest obstacle polygon, 0 inside or on one (GEOS
 *   semantics, as shapely); minimum, maximum and mean over the vertices;
 * - length = sum of segment lengths;
 * - turn angle at each interior vertex = angle between the two segment directions in degrees
 *   (0 straight on, 180 a U-turn); smoothness = their sum, sharp turns = how many exceed 90
 *   (strictly), maximum angle = the largest.
 * Degenerate cases, defined here instead of the release's NaN/tuple: repeated consecutive points
 * are merged before angles are taken (a zero-length segment has no direction); with fewer than 3
 * distinct points there are no turns (0, 0, 0); an empty path has every descriptor 0.
 * `denseStep` (optional, the paper's wording) also samples clearance along every segment at that
 * spacing.
 */
export function descriptors(points: ReadonlyArray<Point>, polygons: ReadonlyArray<Polygon>, options: { denseStep?: number } = {}): Descriptors {
  const clearance = clearanceStats(clearanceSamples(points, options.denseStep), polygons);
  return {
    "Minimum clearance": clearance.min,
    "Maximum clearance": clearance.max,
    "Average clearance": clearance.mean,
    "Path length": pathLength(points),
    ...turnStats(points),
  };
}

/** sqrt(dx*dx + dy*dy), the order numpy.linalg.norm uses for a 2-vector. */
function norm(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

export function pathLength(points: ReadonlyArray<Point>): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += norm(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]);
  return total;
}

/** Turn angles in degrees at the interior vertices, repeated points merged. */
export function turnAngles(points: ReadonlyArray<Point>): number[] {
  const distinct = points.filter((p, i) => i === 0 || p[0] !== points[i - 1]![0] || p[1] !== points[i - 1]![1]);
  const angles: number[] = [];
  for (let i = 2; i < distinct.length; i++) {
    const [a, b, c] = [distinct[i - 2]!, distinct[i - 1]!, distinct[i]!];
    let v1x = b[0] - a[0], v1y = b[1] - a[1];
    let v2x = c[0] - b[0], v2y = c[1] - b[1];
    const n1 = norm(v1x, v1y), n2 = norm(v2x, v2y);
    v1x /= n1; v1y /= n1; v2x /= n2; v2y /= n2;
    const cosine = Math.min(1, Math.max(-1, v1x * v2x + v1y * v2y));
    angles.push(Math.acos(cosine) * (180 / Math.PI));
  }
  return angles;
}

function turnStats(points: ReadonlyArray<Point>): Pick<Descriptors, "Smoothness" | "Sharp turns" | "Maximum angle"> {
  let smoothness = 0, sharp = 0, max = 0;
  for (const angle of turnAngles(points)) {
    smoothness += angle;
    if (angle > 90) sharp++;
    max = Math.max(max, angle);
  }
  return { "Smoothness": smoothness, "Sharp turns": sharp, "Maximum angle": max };
}

function clearanceSamples(points: ReadonlyArray<Point>, step?: number): ReadonlyArray<Point> {
  if (!step || step <= 0 || points.length < 2) return points;
  const out: Point[] = [points[0]!];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    const n = Math.max(1, Math.ceil(norm(b[0] - a[0], b[1] - a[1]) / step));
    for (let k = 1; k <= n; k++) out.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n]);
  }
  return out;
}

function clearanceStats(points: ReadonlyArray<Point>, polygons: ReadonlyArray<Polygon>): { min: number; max: number; mean: number } {
  if (points.length === 0) return { min: 0, max: 0, mean: 0 };
  // Start values as the release's (100000 and 0): with no polygons every clearance is 100000.
  let min = 100000, max = 0, total = 0;
  for (const p of points) {
    let nearest = 100000;
    for (const polygon of polygons) nearest = Math.min(nearest, pointPolygonDistance(p, polygon));
    min = Math.min(min, nearest);
    max = Math.max(max, nearest);
    total += nearest;
  }
  return { min, max, mean: total / points.length };
}

/**
 * GEOS's point-to-segment distance (Distance::pointToSegment), term for term, so clearances match
 * shapely bit for bit (the shared geometry module's projection formula can differ in the last digit).
 */
export function geosPointSegmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  if (ax === bx && ay === by) return norm(px - ax, py - ay);
  const len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
  const r = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2;
  if (r <= 0) return norm(px - ax, py - ay);
  if (r >= 1) return norm(px - bx, py - by);
  const s = ((ay - py) * (bx - ax) - (ax - px) * (by - ay)) / len2;
  return Math.abs(s) * Math.sqrt(len2);
}

/** Distance from a point to a polygon as shapely gives it: 0 inside or on it, else the nearest edge. */
export function pointPolygonDistance(p: Point, ring: Polygon): number {
  if (ring.length < 2) return Infinity;
  if (pointInPolygon(ring, p[0], p[1])) return 0;
  const n = ring.length >> 1;
  let best = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    best = Math.min(best, geosPointSegmentDistance(p[0], p[1], ring[2 * j]!, ring[2 * j + 1]!, ring[2 * i]!, ring[2 * i + 1]!));
  }
  return best;
}

export { DESCRIPTORS };
