/**
 * Simple polygons as flat coordinate arrays, the PathEval environment file format, and the
 * point/segment-vs-polygon predicates the planners and descriptors need.
 *
 * A `Polygon` is a Float64Array `[x0, y0, x1, y1, ...]` of at least three vertices; the closing
 * edge (last vertex -> first vertex) is implicit. Flat arrays keep the hot loops of the collision
 * checker free of object indirection; `polygonPoints` converts back to `Point2` objects.
 */
import type { Point2 } from "./point2.js";
import type { Rect } from "./rect.js";

/** Flat `[x0, y0, x1, y1, ...]`, closed implicitly. */
export type Polygon = Float64Array;

/** A vertex given either as a point object or as an `[x, y]` pair. */
export type VertexLike = Point2 | readonly [number, number];

/** Builds a polygon from vertices (at least three, all finite). */
export function polygon(vertices: readonly VertexLike[]): Polygon {
  if (vertices.length < 3) throw new RangeError(`a polygon needs at least 3 vertices, got ${vertices.length}`);
  const out = new Float64Array(vertices.length * 2);
  vertices.forEach((v, i) => {
    const x = Array.isArray(v) ? (v as readonly [number, number])[0] : (v as Point2).x;
    const y = Array.isArray(v) ? (v as readonly [number, number])[1] : (v as Point2).y;
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`vertex ${i} is not finite: (${x}, ${y})`);
    out[2 * i] = x;
    out[2 * i + 1] = y;
  });
  return out;
}

/** The axis-aligned rectangle [minX, maxX] x [minY, maxY] as a counter-clockwise polygon. */
export function rectanglePolygon(minX: number, minY: number, maxX: number, maxY: number): Polygon {
  return Float64Array.of(minX, minY, maxX, minY, maxX, maxY, minX, maxY);
}

export function polygonVertexCount(p: Polygon): number {
  return p.length >> 1;
}

export function polygonPoints(p: Polygon): Point2[] {
  const out: Point2[] = [];
  for (let i = 0; i < p.length; i += 2) out.push({ x: p[i]!, y: p[i + 1]! });
  return out;
}

export function polygonBounds(p: Polygon): Rect {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    const x = p[i]!;
    const y = p[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** Signed area (shoelace): positive for counter-clockwise vertex order. */
export function polygonSignedArea(p: Polygon): number {
  const n = p.length >> 1;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += p[2 * j]! * p[2 * i + 1]! - p[2 * i]! * p[2 * j + 1]!;
  return s / 2;
}

export function polygonArea(p: Polygon): number {
  return Math.abs(polygonSignedArea(p));
}

/**
 * Even-odd (crossing number) test with a ray towards +x, written with exactly the comparisons and
 * the operation order of PathEval's GeneratePaths.cpp (`isPointInObstacle`), so results agree bit
 * for bit with the released planner. Points exactly on an edge may land on either side, as there.
 */
export function pointInPolygon(p: Polygon, x: number, y: number): boolean {
  const n = p.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = p[2 * i]!;
    const yi = p[2 * i + 1]!;
    const xj = p[2 * j]!;
    const yj = p[2 * j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Squared distance from (px, py) to the closed segment (ax, ay)-(bx, by). */
export function pointSegmentDistanceSq(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const ex = px - (ax + t * dx);
  const ey = py - (ay + t * dy);
  return ex * ex + ey * ey;
}

/** Distance from (px, py) to the closed segment (ax, ay)-(bx, by). */
export function pointSegmentDistanceXY(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  return Math.sqrt(pointSegmentDistanceSq(px, py, ax, ay, bx, by));
}

/** Distance from (x, y) to the polygon's boundary (the nearest edge). */
export function pointPolygonBoundaryDistance(p: Polygon, x: number, y: number): number {
  const n = p.length >> 1;
  let best = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const d = pointSegmentDistanceSq(x, y, p[2 * j]!, p[2 * j + 1]!, p[2 * i]!, p[2 * i + 1]!);
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}

/**
 * Distance from a point to a polygon with shapely's semantics (`Point.distance(Polygon)`): 0 when
 * the point is inside or on the boundary, otherwise the distance to the nearest edge.
 */
export function pointPolygonDistance(p: Polygon, x: number, y: number): number {
  if (pointInPolygon(p, x, y)) return 0;
  return pointPolygonBoundaryDistance(p, x, y);
}

/** The smallest `pointPolygonDistance` over several polygons (Infinity for none). */
export function pointPolygonsDistance(polygons: readonly Polygon[], x: number, y: number): number {
  let best = Infinity;
  for (const p of polygons) {
    const d = pointPolygonDistance(p, x, y);
    if (d < best) best = d;
    if (best === 0) return 0;
  }
  return best;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function within(a: number, b: number, c: number): boolean {
  return Math.min(a, b) <= c && c <= Math.max(a, b);
}

/** True when the closed segments a-b and c-d share a point (touching counts). */
export function segmentsIntersectXY(
  ax: number, ay: number, bx: number, by: number,
  cx: number, cy: number, dx: number, dy: number,
): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay);
  const d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy);
  const d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && within(cx, dx, ax) && within(cy, dy, ay)) ||
    (d2 === 0 && within(cx, dx, bx) && within(cy, dy, by)) ||
    (d3 === 0 && within(ax, bx, cx) && within(ay, by, cy)) ||
    (d4 === 0 && within(ax, bx, dx) && within(ay, by, dy))
  );
}

/** Squared distance between the closed segments a-b and c-d (0 when they meet). */
export function segmentSegmentDistanceSq(
  ax: number, ay: number, bx: number, by: number,
  cx: number, cy: number, dx: number, dy: number,
): number {
  if (segmentsIntersectXY(ax, ay, bx, by, cx, cy, dx, dy)) return 0;
  return Math.min(
    pointSegmentDistanceSq(ax, ay, cx, cy, dx, dy),
    pointSegmentDistanceSq(bx, by, cx, cy, dx, dy),
    pointSegmentDistanceSq(cx, cy, ax, ay, bx, by),
    pointSegmentDistanceSq(dx, dy, ax, ay, bx, by),
  );
}

/**
 * True when the closed segment a-b meets the polygon (its boundary or its interior): it crosses or
 * touches an edge, or lies wholly inside.
 */
export function segmentIntersectsPolygon(p: Polygon, ax: number, ay: number, bx: number, by: number): boolean {
  const n = p.length >> 1;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    if (segmentsIntersectXY(ax, ay, bx, by, p[2 * j]!, p[2 * j + 1]!, p[2 * i]!, p[2 * i + 1]!)) return true;
  }
  // No edge is met, so the segment is wholly inside or wholly outside: one endpoint decides.
  return pointInPolygon(p, ax, ay);
}

/** Distance between the closed segment a-b and the polygon (0 when they meet), as shapely measures it. */
export function segmentPolygonDistance(p: Polygon, ax: number, ay: number, bx: number, by: number): number {
  if (segmentIntersectsPolygon(p, ax, ay, bx, by)) return 0;
  const n = p.length >> 1;
  let best = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const d = segmentSegmentDistanceSq(ax, ay, bx, by, p[2 * j]!, p[2 * j + 1]!, p[2 * i]!, p[2 * i + 1]!);
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}

// ------------------------------------------------------------------ environment files

/** A malformed environment file: the message names the source, the line and what was wrong. */
export class EnvironmentParseError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${source}:${line}: ${detail}`);
    this.name = "EnvironmentParseError";
  }
}

interface Token {
  text: string;
  line: number;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((content, i) => {
    for (const t of content.split(/[ \t\f\v]+/)) if (t !== "") tokens.push({ text: t, line: i + 1 });
  });
  return tokens;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^\+?\d+$/;

/**
 * Parses a PathEval environment file: line 1 the number of polygons, then every polygon as
 * `k x1 y1 ... xk yk` (the release puts them all on line 2; any whitespace, CRLF line ends and
 * trailing blanks are accepted). Throws `EnvironmentParseError` naming `source`, the line and the
 * problem for a wrong count, a non-number, a polygon with fewer than 3 vertices, missing or
 * trailing values.
 */
export function parseEnvironment(text: string, source = "<environment>"): Polygon[] {
  const tokens = tokenize(text);
  let pos = 0;
  const lastLine = Math.max(1, text.split(/\r\n|\r|\n/).length);
  const fail = (line: number, detail: string): never => {
    throw new EnvironmentParseError(source, line, detail);
  };
  const nextInt = (what: string): number => {
    const t = tokens[pos++];
    if (t === undefined) return fail(lastLine, `unexpected end of file: expected ${what}`);
    if (!INTEGER.test(t.text)) return fail(t.line, `expected ${what} (a non-negative integer), found "${t.text}"`);
    return Number(t.text);
  };
  const nextNumber = (what: string): number => {
    const t = tokens[pos++];
    if (t === undefined) return fail(lastLine, `unexpected end of file: expected ${what}`);
    const v = NUMBER.test(t.text) ? Number(t.text) : NaN;
    if (!Number.isFinite(v)) return fail(t.line, `expected ${what} (a number), found "${t.text}"`);
    return v;
  };

  if (tokens.length === 0) fail(1, "empty file: expected the number of polygons on line 1");
  const count = nextInt("the number of polygons");
  const polygons: Polygon[] = [];
  for (let i = 0; i < count; i++) {
    const kTok = tokens[pos];
    if (kTok === undefined) fail(lastLine, `the file declares ${count} polygons but has only ${i}`);
    const k = nextInt(`the vertex count of polygon ${i + 1}`);
    if (k < 3) fail(kTok!.line, `polygon ${i + 1} has ${k} vertices; at least 3 are needed`);
    // The vertices are collected as they are read, not into an array of the declared size: a count
    // of 10^15 would allocate before the file runs out (the loop ends with the tokens).
    const coordinates: number[] = [];
    for (let v = 0; v < k; v++) {
      if (tokens[pos] === undefined) fail(lastLine, `polygon ${i + 1} declares ${k} vertices but the file ends after ${v}`);
      coordinates.push(nextNumber(`x of vertex ${v + 1} of polygon ${i + 1}`));
      coordinates.push(nextNumber(`y of vertex ${v + 1} of polygon ${i + 1}`));
    }
    polygons.push(Float64Array.from(coordinates));
  }
  const extra = tokens[pos];
  if (extra !== undefined) {
    fail(extra.line, `the file declares ${count} polygons but more values follow ("${extra.text}")`);
  }
  return polygons;
}

export interface FormatEnvironmentOptions {
  /**
   * Digits after the decimal point (the release writes 6, as C's `%f`). `"exact"` writes the
   * shortest text that reads back to the same double, so parse(format(p)) equals p bit for bit.
   */
  digits?: number | "exact";
}

function formatNumber(v: number, digits: number | "exact"): string {
  if (digits === "exact") return Object.is(v, -0) ? "0" : String(v);
  const s = v.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Writes polygons in the release's environment format (count on line 1, all polygons on line 2). */
export function formatEnvironment(polygons: readonly Polygon[], options: FormatEnvironmentOptions = {}): string {
  const digits = options.digits ?? 6;
  const parts: string[] = [];
  for (const p of polygons) {
    const k = p.length >> 1;
    if (k < 3 || p.length % 2 !== 0) throw new RangeError(`cannot format a polygon with ${p.length / 2} vertices`);
    parts.push(String(k));
    for (let i = 0; i < p.length; i++) {
      if (!Number.isFinite(p[i]!)) throw new RangeError(`cannot format a non-finite coordinate (${p[i]})`);
      parts.push(formatNumber(p[i]!, digits));
    }
  }
  return `${polygons.length}\n${parts.join(" ")}\n`;
}
