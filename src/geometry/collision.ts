/**
 * Collision checking for a disc robot among polygons, with the semantics of PathEval's released
 * planner (GeneratePaths.cpp + OMPL) and an exact alternative.
 *
 * Release semantics (`mode: "release"`), as GeneratePaths.cpp's state validity checker:
 *   - a state (x, y) is invalid when the disc leaves the border box: `x - r < minX || x + r > maxX
 *     || y - r < minY || y + r > maxY` (touching the border is allowed);
 *   - otherwise it is invalid when any of 20 points `(x + r cos(2 pi i / 20), y + r sin(2 pi i / 20))`,
 *     i = 0..19, lies inside any polygon by the even-odd crossing test (`pointInPolygon`, the same
 *     comparisons and operation order as the C++ code). Each polygon is tested on its own, so
 *     overlapping polygons never cancel out.
 *   Only the circle is sampled: the disc's interior is never tested, so a small obstacle can sit
 *   wholly inside a "valid" disc, and a sharp corner can poke between two sample points.
 *
 * Exact semantics (`mode: "exact"`): the same border rule, and the closed disc may touch but not
 * enter any polygon, i.e. the shapely distance from the centre to every polygon is >= r.
 *
 * Motion validation:
 *   - `createDiscreteMotionValidator` is OMPL's DiscreteMotionValidator::checkMotion(s1, s2): s1 is
 *     assumed valid; s2 is checked first; then, with nd = ceil(|s1 s2| / L) (OMPL's
 *     validSegmentCount with factor 1), the interior states j / nd, j = 1..nd-1, are checked in
 *     OMPL's order (a FIFO of index intervals, checking the middle `floor((a + b) / 2)` of each).
 *     L, the longest valid segment, is `resolution * maximumExtent`, where the resolution is
 *     SpaceInformation::setStateValidityCheckingResolution (0.003 in the release) and the extent is
 *     StateSpace::getMaximumExtent: for a 2-D RealVectorStateSpace, the diagonal of its bounds.
 *     With the [-40, 40]^2 world: extent 113.137, L = 0.3394.
 *     The release itself plans in OMPL's SE2 space with bounds [-100, 100]^2: there the position
 *     component's own L is 0.003 * 282.84 = 0.8485 and the count is the larger of the position and
 *     the yaw counts (yaw L = 0.003 pi); see `RELEASE_SE2_SPACE` in planners.ts.
 *   - `createExactMotionValidator` checks the swept disc analytically (segment-to-edge distances).
 *
 * `ObstacleIndex` buckets polygon bounding boxes and edges in a uniform grid so that a query only
 * looks at the obstacles near it; its answers are identical to scanning every polygon.
 */
import {
  pointInPolygon,
  pointPolygonDistance,
  pointSegmentDistanceSq,
  polygonBounds,
  segmentSegmentDistanceSq,
  type Polygon,
} from "./polygon.js";
import type { Rect } from "./rect.js";

/** The number of points GeneratePaths.cpp tests on the robot's circle. */
export const RELEASE_CIRCLE_POINTS = 20;

/** OMPL's state-validity-checking resolution set by GeneratePaths.cpp. */
export const RELEASE_VALIDITY_RESOLUTION = 0.003;

/** The border box of GeneratePaths.cpp (`SetBoundaries(-40, 40, -40, 40)`). */
export const PATHEVAL_BORDER: Rect = { minX: -40, minY: -40, maxX: 40, maxY: 40 };

/** OMPL RealVectorStateSpace::getMaximumExtent for 2-D bounds: the length of the diagonal. */
export function realVectorMaximumExtent(bounds: Rect): number {
  const w = bounds.maxX - bounds.minX;
  const h = bounds.maxY - bounds.minY;
  return Math.sqrt(w * w + h * h);
}

/**
 * cos and sin of `2 * M_PI * i / 20` as glibc computes them (the release ran on Linux): V8's
 * Math.cos differs from glibc by one ulp at i = 12, so the release's 20 values are kept here.
 */
const GLIBC_COS_20 = Float64Array.of(
  1, 0.9510565162951535, 0.8090169943749475, 0.5877852522924731, 0.30901699437494745, 6.123233995736766e-17,
  -0.30901699437494734, -0.587785252292473, -0.8090169943749473, -0.9510565162951535, -1, -0.9510565162951538,
  -0.8090169943749476, -0.5877852522924732, -0.30901699437494756, -1.8369701987210297e-16, 0.30901699437494723,
  0.5877852522924729, 0.8090169943749473, 0.9510565162951535,
);
const GLIBC_SIN_20 = Float64Array.of(
  0, 0.3090169943749474, 0.5877852522924731, 0.8090169943749475, 0.9510565162951535, 1, 0.9510565162951536,
  0.8090169943749475, 0.5877852522924732, 0.3090169943749475, 1.2246467991473532e-16, -0.3090169943749469,
  -0.587785252292473, -0.8090169943749473, -0.9510565162951535, -1, -0.9510565162951536, -0.8090169943749476,
  -0.5877852522924734, -0.3090169943749476,
);

/**
 * cos and sin of `2 * M_PI * i / n`, evaluated in the C++ code's order; for n = 20 the values
 * glibc gives, so the circle points are bit-identical to the release's.
 */
export function circleOffsets(n: number): { cos: Float64Array; sin: Float64Array } {
  if (n === RELEASE_CIRCLE_POINTS) return { cos: GLIBC_COS_20.slice(), sin: GLIBC_SIN_20.slice() };
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const angle = (2 * Math.PI * i) / n;
    cos[i] = Math.cos(angle);
    sin[i] = Math.sin(angle);
  }
  return { cos, sin };
}

export type StateValidityFn = (x: number, y: number) => boolean;
/** Motion validity from a state assumed valid (ax, ay) to (bx, by). */
export type MotionValidityFn = (ax: number, ay: number, bx: number, by: number) => boolean;

// ------------------------------------------------------------------ the index

export interface ObstacleIndexOptions {
  /** Grid cell size; default: the obstacles' extent / 64, at least 0.25. */
  cellSize?: number;
}

/**
 * A uniform grid over the obstacles. Each cell lists the polygons whose (slightly inflated)
 * bounding box overlaps it and the edges whose bounding box overlaps it; each polygon also keeps,
 * per grid row, the edges whose y-span meets that row, so the crossing test only reads the edges a
 * horizontal ray at that height can cross. All answers equal a scan over every polygon.
 */
export class ObstacleIndex {
  readonly polygons: readonly Polygon[];
  readonly cellSize: number;
  private readonly ox: number;
  private readonly oy: number;
  private readonly nx: number;
  private readonly ny: number;
  /** Per polygon: inflated bbox (minX, minY, maxX, maxY). */
  private readonly pbox: Float64Array;
  /** CSR: cell -> polygon ids. */
  private readonly cellPolyStart: Int32Array;
  private readonly cellPolys: Int32Array;
  /** Edges: (xi, yi, xj, yj) with i the vertex and j its predecessor, as the crossing test reads them. */
  private readonly edges: Float64Array;
  /** CSR: cell -> edge ids. */
  private readonly cellEdgeStart: Int32Array;
  private readonly cellEdges: Int32Array;
  /** Per polygon: first grid row, and offset into rowStart. */
  private readonly polyRow0: Int32Array;
  private readonly polyRowOffset: Int32Array;
  /** CSR over (polygon, row) pairs -> edge ids. */
  private readonly rowStart: Int32Array;
  private readonly rowEdges: Int32Array;
  private readonly polyStamp: Int32Array;
  private readonly edgeStamp: Int32Array;
  private stamp = 0;

  constructor(polygons: readonly Polygon[], options: ObstacleIndexOptions = {}) {
    this.polygons = polygons;
    const np = polygons.length;
    this.pbox = new Float64Array(4 * np);
    let gx0 = Infinity;
    let gy0 = Infinity;
    let gx1 = -Infinity;
    let gy1 = -Infinity;
    let edgeCount = 0;
    polygons.forEach((p, k) => {
      if (p.length < 6 || p.length % 2 !== 0) throw new RangeError(`polygon ${k} has ${p.length / 2} vertices`);
      const b = polygonBounds(p);
      // Inflate by a relative epsilon: the crossing test's intersection abscissa may round one ulp
      // beyond the edge's end, and the prefilter must never cut off a point the full test accepts.
      const eps = 1e-9 * (1 + Math.max(Math.abs(b.minX), Math.abs(b.maxX), Math.abs(b.minY), Math.abs(b.maxY)));
      this.pbox[4 * k] = b.minX - eps;
      this.pbox[4 * k + 1] = b.minY - eps;
      this.pbox[4 * k + 2] = b.maxX + eps;
      this.pbox[4 * k + 3] = b.maxY + eps;
      gx0 = Math.min(gx0, b.minX - eps);
      gy0 = Math.min(gy0, b.minY - eps);
      gx1 = Math.max(gx1, b.maxX + eps);
      gy1 = Math.max(gy1, b.maxY + eps);
      edgeCount += p.length >> 1;
    });
    if (np === 0) {
      gx0 = gy0 = 0;
      gx1 = gy1 = 1;
    }
    const extent = Math.max(gx1 - gx0, gy1 - gy0);
    const cs = options.cellSize ?? Math.max(extent / 64, 0.25);
    if (!(cs > 0)) throw new RangeError(`cellSize must be positive, got ${cs}`);
    this.cellSize = cs;
    this.ox = gx0;
    this.oy = gy0;
    this.nx = Math.max(1, Math.floor((gx1 - gx0) / cs) + 1);
    this.ny = Math.max(1, Math.floor((gy1 - gy0) / cs) + 1);
    const nCells = this.nx * this.ny;

    // Edges.
    this.edges = new Float64Array(4 * edgeCount);
    let e = 0;
    for (const p of polygons) {
      const n = p.length >> 1;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        this.edges[4 * e] = p[2 * i]!;
        this.edges[4 * e + 1] = p[2 * i + 1]!;
        this.edges[4 * e + 2] = p[2 * j]!;
        this.edges[4 * e + 3] = p[2 * j + 1]!;
        e++;
      }
    }

    // Cell -> polygons (by inflated bbox).
    const polyCount = new Int32Array(nCells + 1);
    const forPolyCells = (k: number, f: (cell: number) => void) => {
      const [i0, i1] = this.colRange(this.pbox[4 * k]!, this.pbox[4 * k + 2]!);
      const [j0, j1] = this.rowRange(this.pbox[4 * k + 1]!, this.pbox[4 * k + 3]!);
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) f(j * this.nx + i);
    };
    for (let k = 0; k < np; k++) forPolyCells(k, (c) => polyCount[c + 1]!++);
    for (let c = 0; c < nCells; c++) polyCount[c + 1]! += polyCount[c]!;
    this.cellPolyStart = polyCount.slice();
    this.cellPolys = new Int32Array(polyCount[nCells]!);
    const fillP = polyCount.slice(0, nCells);
    for (let k = 0; k < np; k++) forPolyCells(k, (c) => (this.cellPolys[fillP[c]!++] = k));

    // Cell -> edges (by edge bbox).
    const edgeCountPerCell = new Int32Array(nCells + 1);
    const forEdgeCells = (id: number, f: (cell: number) => void) => {
      const ax = this.edges[4 * id]!;
      const ay = this.edges[4 * id + 1]!;
      const bx = this.edges[4 * id + 2]!;
      const by = this.edges[4 * id + 3]!;
      const [i0, i1] = this.colRange(Math.min(ax, bx), Math.max(ax, bx));
      const [j0, j1] = this.rowRange(Math.min(ay, by), Math.max(ay, by));
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) f(j * this.nx + i);
    };
    for (let id = 0; id < edgeCount; id++) forEdgeCells(id, (c) => edgeCountPerCell[c + 1]!++);
    for (let c = 0; c < nCells; c++) edgeCountPerCell[c + 1]! += edgeCountPerCell[c]!;
    this.cellEdgeStart = edgeCountPerCell.slice();
    this.cellEdges = new Int32Array(edgeCountPerCell[nCells]!);
    const fillE = edgeCountPerCell.slice(0, nCells);
    for (let id = 0; id < edgeCount; id++) forEdgeCells(id, (c) => (this.cellEdges[fillE[c]!++] = id));

    // (polygon, row) -> edges whose closed y-span meets the row.
    this.polyRow0 = new Int32Array(np);
    this.polyRowOffset = new Int32Array(np + 1);
    let pairs = 0;
    for (let k = 0; k < np; k++) {
      const [j0, j1] = this.rowRange(this.pbox[4 * k + 1]!, this.pbox[4 * k + 3]!);
      this.polyRow0[k] = j0;
      this.polyRowOffset[k] = pairs;
      pairs += j1 - j0 + 1;
    }
    this.polyRowOffset[np] = pairs;
    const rowCount = new Int32Array(pairs + 1);
    const forEdgeRows = (k: number, id: number, f: (slot: number) => void) => {
      const ay = this.edges[4 * id + 1]!;
      const by = this.edges[4 * id + 3]!;
      const [j0, j1] = this.rowRange(Math.min(ay, by), Math.max(ay, by));
      for (let j = j0; j <= j1; j++) f(this.polyRowOffset[k]! + (j - this.polyRow0[k]!));
    };
    e = 0;
    const polyEdge0 = new Int32Array(np + 1);
    polygons.forEach((p, k) => {
      polyEdge0[k] = e;
      e += p.length >> 1;
    });
    polyEdge0[np] = e;
    for (let k = 0; k < np; k++) for (let id = polyEdge0[k]!; id < polyEdge0[k + 1]!; id++) forEdgeRows(k, id, (s) => rowCount[s + 1]!++);
    for (let s = 0; s < pairs; s++) rowCount[s + 1]! += rowCount[s]!;
    this.rowStart = rowCount.slice();
    this.rowEdges = new Int32Array(rowCount[pairs]!);
    const fillR = rowCount.slice(0, pairs);
    for (let k = 0; k < np; k++) for (let id = polyEdge0[k]!; id < polyEdge0[k + 1]!; id++) forEdgeRows(k, id, (s) => (this.rowEdges[fillR[s]!++] = id));

    this.polyStamp = new Int32Array(np);
    this.edgeStamp = new Int32Array(edgeCount);
  }

  private colRange(x0: number, x1: number): [number, number] {
    const i0 = Math.max(0, Math.floor((x0 - this.ox) / this.cellSize));
    const i1 = Math.min(this.nx - 1, Math.floor((x1 - this.ox) / this.cellSize));
    return [i0, i1];
  }

  private rowRange(y0: number, y1: number): [number, number] {
    const j0 = Math.max(0, Math.floor((y0 - this.oy) / this.cellSize));
    const j1 = Math.min(this.ny - 1, Math.floor((y1 - this.oy) / this.cellSize));
    return [j0, j1];
  }

  private nextStamp(): number {
    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.stamp = 1;
      this.polyStamp.fill(0);
      this.edgeStamp.fill(0);
    }
    return this.stamp;
  }

  /** The even-odd test of polygon k at (x, y), reading only the edges of the row that holds y. */
  private insidePolygon(k: number, x: number, y: number): boolean {
    const b = this.pbox;
    if (x < b[4 * k]! || x > b[4 * k + 2]! || y < b[4 * k + 1]! || y > b[4 * k + 3]!) return false;
    const rows = this.polyRowOffset[k + 1]! - this.polyRowOffset[k]!;
    let r = Math.floor((y - this.oy) / this.cellSize) - this.polyRow0[k]!;
    if (r < 0) r = 0;
    else if (r >= rows) r = rows - 1;
    const slot = this.polyRowOffset[k]! + r;
    const E = this.edges;
    let inside = false;
    for (let s = this.rowStart[slot]!, end = this.rowStart[slot + 1]!; s < end; s++) {
      const id = this.rowEdges[s]! * 4;
      const xi = E[id]!;
      const yi = E[id + 1]!;
      const xj = E[id + 2]!;
      const yj = E[id + 3]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  /** True when (x, y) is inside some polygon by the release's even-odd test. */
  pointInAny(x: number, y: number): boolean {
    const i = Math.floor((x - this.ox) / this.cellSize);
    const j = Math.floor((y - this.oy) / this.cellSize);
    if (i < 0 || j < 0 || i >= this.nx || j >= this.ny) return false;
    const c = j * this.nx + i;
    for (let s = this.cellPolyStart[c]!, end = this.cellPolyStart[c + 1]!; s < end; s++) {
      if (this.insidePolygon(this.cellPolys[s]!, x, y)) return true;
    }
    return false;
  }

  /**
   * The polygons whose inflated bounding box meets [x0, x1] x [y0, y1], written to `out`
   * (returns the count). Valid until the next query.
   */
  polygonsNear(x0: number, y0: number, x1: number, y1: number, out: Int32Array): number {
    const [i0, i1] = this.colRange(x0, x1);
    const [j0, j1] = this.rowRange(y0, y1);
    if (i0 > i1 || j0 > j1) return 0;
    const st = this.nextStamp();
    const b = this.pbox;
    let n = 0;
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const c = j * this.nx + i;
        for (let s = this.cellPolyStart[c]!, end = this.cellPolyStart[c + 1]!; s < end; s++) {
          const k = this.cellPolys[s]!;
          if (this.polyStamp[k] === st) continue;
          this.polyStamp[k] = st;
          if (b[4 * k]! > x1 || b[4 * k + 2]! < x0 || b[4 * k + 1]! > y1 || b[4 * k + 3]! < y0) continue;
          if (n < out.length) out[n] = k;
          n++;
        }
      }
    }
    return n;
  }

  /** Even-odd test of one polygon (by index) through the row buckets. */
  pointInPolygonAt(k: number, x: number, y: number): boolean {
    return this.insidePolygon(k, x, y);
  }

  /**
   * Visits each distinct edge stored in the grid cells overlapping the window [x0, x1] x [y0, y1]
   * once (offset into `edges`), skipping cells whose centre `cellNear` rejects; true as soon as
   * `visit` returns true.
   */
  private someEdgeInWindow(x0: number, y0: number, x1: number, y1: number, visit: (offset: number) => boolean, cellNear?: (cx: number, cy: number) => boolean): boolean {
    const [i0, i1] = this.colRange(x0, x1);
    const [j0, j1] = this.rowRange(y0, y1);
    if (i0 > i1 || j0 > j1) return false;
    const st = this.nextStamp();
    const cs = this.cellSize;
    for (let j = j0; j <= j1; j++) {
      const cy = this.oy + (j + 0.5) * cs;
      for (let i = i0; i <= i1; i++) {
        if (cellNear && !cellNear(this.ox + (i + 0.5) * cs, cy)) continue;
        const c = j * this.nx + i;
        for (let s = this.cellEdgeStart[c]!, end = this.cellEdgeStart[c + 1]!; s < end; s++) {
          const id = this.cellEdges[s]!;
          if (this.edgeStamp[id] === st) continue;
          this.edgeStamp[id] = st;
          if (visit(4 * id)) return true;
        }
      }
    }
    return false;
  }

  /**
   * True when no polygon edge comes closer than `d` to (x, y) (squared distances compared with
   * d^2; touching at exactly d is allowed). Says nothing about containment.
   */
  edgesFartherThan(x: number, y: number, d: number): boolean {
    const d2 = d * d;
    const E = this.edges;
    return !this.someEdgeInWindow(x - d, y - d, x + d, y + d, (o) => pointSegmentDistanceSq(x, y, E[o]!, E[o + 1]!, E[o + 2]!, E[o + 3]!) < d2);
  }

  /**
   * True when no polygon edge comes closer than `d` to the segment a-b (touching at exactly d is
   * allowed). Says nothing about containment.
   */
  edgesFartherThanSegment(ax: number, ay: number, bx: number, by: number, d: number): boolean {
    const d2 = d * d;
    const cs = this.cellSize;
    const reach = d + cs * Math.SQRT1_2; // a cell can hold an edge within d only if its centre is this close
    const reach2 = reach * reach;
    const E = this.edges;
    return !this.someEdgeInWindow(
      Math.min(ax, bx) - d, Math.min(ay, by) - d, Math.max(ax, bx) + d, Math.max(ay, by) + d,
      (o) => segmentSegmentDistanceSq(ax, ay, bx, by, E[o]!, E[o + 1]!, E[o + 2]!, E[o + 3]!) < d2,
      (cx, cy) => pointSegmentDistanceSq(cx, cy, ax, ay, bx, by) <= reach2,
    );
  }

  /**
   * Shapely-style clearance of (x, y): 0 inside a polygon, else the distance to the nearest edge
   * (Infinity with no polygons). `cap` bounds the search: the result is exact when below `cap`,
   * otherwise some value >= cap.
   */
  clearance(x: number, y: number, cap = Infinity): number {
    if (this.pointInAny(x, y)) return 0;
    if (this.edges.length === 0) return Infinity;
    // Grow a square window until it holds an edge closer than the window's half-width.
    let half = this.cellSize;
    const limit = Math.max(this.nx, this.ny) * this.cellSize * 2;
    for (;;) {
      const best = this.nearestEdgeDistanceSq(x, y, half);
      if (best <= half * half) return Math.sqrt(best);
      if (half >= cap) return Math.max(cap, Math.sqrt(best));
      if (half > limit) return Math.sqrt(best);
      half *= 2;
    }
  }

  private nearestEdgeDistanceSq(x: number, y: number, half: number): number {
    let best = Infinity;
    const E = this.edges;
    this.someEdgeInWindow(x - half, y - half, x + half, y + half, (o) => {
      const d = pointSegmentDistanceSq(x, y, E[o]!, E[o + 1]!, E[o + 2]!, E[o + 3]!);
      if (d < best) best = d;
      return false;
    });
    return best;
  }
}

// ------------------------------------------------------------------ state validity

export interface DiscCheckerOptions {
  /** Robot radius. */
  radius: number;
  /** "release" (20 circle points, even-odd) or "exact" (analytic disc). Default "release". */
  mode?: "release" | "exact";
  /** The border box the disc must stay inside (default the PathEval world, [-40, 40]^2). */
  border?: Rect;
  /** Points on the circle in release mode (default 20, as released). */
  circlePoints?: number;
}

function borderCheck(border: Rect, r: number): StateValidityFn {
  const { minX, minY, maxX, maxY } = border;
  return (x, y) => !(x - r < minX || x + r > maxX || y - r < minY || y + r > maxY);
}

/**
 * The state validity checker of a disc robot. Release mode reproduces GeneratePaths.cpp's lambda
 * (border rule, then 20 circle points against every polygon, even-odd); exact mode accepts a state
 * when the closed disc stays within the border and does not enter any polygon.
 */
export function createStateValidityChecker(obstacles: ObstacleIndex | readonly Polygon[], options: DiscCheckerOptions): StateValidityFn {
  const index = obstacles instanceof ObstacleIndex ? obstacles : new ObstacleIndex(obstacles);
  const r = options.radius;
  if (!(r >= 0) || !Number.isFinite(r)) throw new RangeError(`radius must be a finite number >= 0, got ${r}`);
  const border = options.border ?? PATHEVAL_BORDER;
  const inBorder = borderCheck(border, r);
  const mode = options.mode ?? "release";

  if (mode === "exact") {
    return (x, y) => inBorder(x, y) && index.edgesFartherThan(x, y, r) && !index.pointInAny(x, y);
  }
  if (mode !== "release") throw new RangeError(`unknown validity mode "${String(mode)}"`);

  const n = options.circlePoints ?? RELEASE_CIRCLE_POINTS;
  const { cos, sin } = circleOffsets(n);
  const px = new Float64Array(n);
  const py = new Float64Array(n);
  let candidates = new Int32Array(64);
  return (x, y) => {
    if (!inBorder(x, y)) return false;
    let count = index.polygonsNear(x - r, y - r, x + r, y + r, candidates);
    if (count === 0) return true;
    if (count > candidates.length) {
      candidates = new Int32Array(count * 2);
      count = index.polygonsNear(x - r, y - r, x + r, y + r, candidates);
    }
    for (let i = 0; i < n; i++) {
      px[i] = x + r * cos[i]!;
      py[i] = y + r * sin[i]!;
    }
    for (let c = 0; c < count; c++) {
      const k = candidates[c]!;
      for (let i = 0; i < n; i++) if (index.pointInPolygonAt(k, px[i]!, py[i]!)) return false;
    }
    return true;
  };
}

// ------------------------------------------------------------------ motion validity

/**
 * OMPL's DiscreteMotionValidator::checkMotion(s1, s2) in the plane (see the file comment):
 * `longestValidSegment` is `resolution * maximumExtent` (0.003 * 113.137 = 0.3394 for [-40, 40]^2).
 */
export function createDiscreteMotionValidator(isStateValid: StateValidityFn, longestValidSegment: number): MotionValidityFn {
  if (!(longestValidSegment > 0)) throw new RangeError(`longestValidSegment must be positive, got ${longestValidSegment}`);
  let queue = new Int32Array(256);
  return (ax, ay, bx, by) => {
    if (!isStateValid(bx, by)) return false;
    const dx = bx - ax;
    const dy = by - ay;
    const nd = Math.ceil(Math.sqrt(dx * dx + dy * dy) / longestValidSegment);
    if (nd < 2) return true;
    if (queue.length < 2 * nd) queue = new Int32Array(4 * nd);
    // FIFO of [first, last] index intervals; each interval is popped once, so 2 * nd slots suffice.
    let head = 0;
    let tail = 0;
    queue[tail++] = 1;
    queue[tail++] = nd - 1;
    while (head < tail) {
      const a = queue[head]!;
      const b = queue[head + 1]!;
      const mid = (a + b) >> 1;
      const t = mid / nd;
      if (!isStateValid(ax + dx * t, ay + dy * t)) return false;
      head += 2;
      if (a < mid) {
        queue[tail++] = a;
        queue[tail++] = mid - 1;
      }
      if (b > mid) {
        queue[tail++] = mid + 1;
        queue[tail++] = b;
      }
    }
    return true;
  };
}

/**
 * Exact motion validity for a disc: the end state is inside the border and no polygon edge comes
 * closer than r to the segment. With a valid start (outside every polygon, at least r from every
 * edge) this means the whole swept disc stays free; the border box is convex, so its rule holds
 * along the segment when it holds at both ends.
 */
export function createExactMotionValidator(obstacles: ObstacleIndex | readonly Polygon[], options: Omit<DiscCheckerOptions, "mode" | "circlePoints">): MotionValidityFn {
  const index = obstacles instanceof ObstacleIndex ? obstacles : new ObstacleIndex(obstacles);
  const r = options.radius;
  const inBorder = borderCheck(options.border ?? PATHEVAL_BORDER, r);
  return (ax, ay, bx, by) => inBorder(bx, by) && index.edgesFartherThanSegment(ax, ay, bx, by, r) && !index.pointInAny(bx, by);
}

// ------------------------------------------------------------------ plain references (no index)

/**
 * GeneratePaths.cpp's state validity written as plainly as the C++ (every polygon scanned), for
 * tests that cross-check the indexed checker.
 */
export function releaseStateValidReference(polygons: readonly Polygon[], x: number, y: number, radius: number, border: Rect = PATHEVAL_BORDER): boolean {
  if (x - radius < border.minX || x + radius > border.maxX || y - radius < border.minY || y + radius > border.maxY) return false;
  const { cos, sin } = circleOffsets(RELEASE_CIRCLE_POINTS);
  for (let i = 0; i < RELEASE_CIRCLE_POINTS; i++) {
    const cx = x + radius * cos[i]!;
    const cy = y + radius * sin[i]!;
    for (const p of polygons) if (pointInPolygon(p, cx, cy)) return false;
  }
  return true;
}

/** Shapely-style clearance of a point from every polygon, scanning them all (Infinity for none). */
export function discClearance(polygons: readonly Polygon[], x: number, y: number): number {
  let best = Infinity;
  for (const p of polygons) {
    const d = pointPolygonDistance(p, x, y);
    if (d < best) best = d;
  }
  return best;
}

/**
 * The analytic check, scanning every polygon: the closed disc of radius r at (x, y) is inside the
 * border box (if given) and its clearance from every polygon is >= r - tolerance.
 */
export function isDiscFree(polygons: readonly Polygon[], x: number, y: number, radius: number, border: Rect | null = PATHEVAL_BORDER, tolerance = 0): boolean {
  if (border && (x - radius < border.minX - tolerance || x + radius > border.maxX + tolerance || y - radius < border.minY - tolerance || y + radius > border.maxY + tolerance)) return false;
  return discClearance(polygons, x, y) >= radius - tolerance;
}
