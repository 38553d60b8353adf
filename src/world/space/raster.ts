/**
 * Exact conservative rasterisation of convex plan shapes on the grid's closed cell squares.
 *
 * A convex shape (a polygon given by its vertices in order, possibly degenerate: a segment or a
 * point) covers cell (i, j) when it meets the closed square [x_i, x_{i+1}] x [y_j, y_{j+1}]. A
 * convex set meets that square exactly when its slice by the closed row strip y_j <= y <= y_{j+1}
 * has an x-extent that meets [x_i, x_{i+1}], so every row gives one span of cells, found from the
 * slice's extremes (vertices inside the strip and edge crossings of its two boundary lines). The
 * cost is the number of candidate rows times the vertex count plus the number of covered cells.
 * Coordinates are doubles; the answer is exact up to the rounding of an edge's crossing abscissa.
 */
import { axisCell, type OccupancyGrid } from "./grid.js";

/** x-extent [lo, hi] of the convex shape's slice by y0 <= y <= y1, or null when the slice is empty. */
export function stripExtent(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number, y0: number, y1: number): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < n; k++) {
    const x = xs[k]!;
    const y = ys[k]!;
    if (y >= y0 && y <= y1) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (n < 2) continue;
    const m = k + 1 === n ? 0 : k + 1;
    const xb = xs[m]!;
    const yb = ys[m]!;
    for (let side = 0; side < 2; side++) {
      const yl = side === 0 ? y0 : y1;
      if ((y < yl && yl < yb) || (y > yl && yl > yb)) {
        let xc = x + ((yl - y) * (xb - x)) / (yb - y);
        // Keep the rounded crossing on its edge.
        if (xc < Math.min(x, xb)) xc = Math.min(x, xb);
        if (xc > Math.max(x, xb)) xc = Math.max(x, xb);
        if (xc < lo) lo = xc;
        if (xc > hi) hi = xc;
      }
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * First and last index k of the closed cells [o + k s, o + (k + 1) s] that meet the interval
 * [lo, hi] (unclamped: may lie outside the grid).
 */
export function closedCellRange(origin: number, cellSize: number, lo: number, hi: number): [number, number] {
  const last = axisCell(origin, cellSize, hi); // largest k with x_k <= hi
  let first = axisCell(origin, cellSize, lo); // largest k with x_k <= lo, so x_{k+1} > lo
  if (origin + first * cellSize === lo) first--; // the cell below also touches lo with its upper edge
  return [first, last];
}

/**
 * Calls `span(j, i0, i1)` for every row j whose closed cells i0..i1 (inclusive, unclamped) the
 * convex shape covers, rows in increasing order. Stops early when `span` returns false. With
 * `onlyGridRows`, rows outside 0..height-1 are not visited (their cells are all outside the grid).
 */
export function forEachCoveredSpan(
  grid: OccupancyGrid,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  n: number,
  span: (j: number, i0: number, i1: number) => boolean | void,
  onlyGridRows = false,
): void {
  if (n < 1) return;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < n; k++) {
    const x = xs[k]!;
    const y = ys[k]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`shape vertex (${x}, ${y}) is not finite`);
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const { origin, cellSize } = grid;
  let [j0, j1] = closedCellRange(origin[1], cellSize, minY, maxY);
  if (onlyGridRows) {
    j0 = Math.max(j0, 0);
    j1 = Math.min(j1, grid.height - 1);
  }
  for (let j = j0; j <= j1; j++) {
    const ext = stripExtent(xs, ys, n, origin[1] + j * cellSize, origin[1] + (j + 1) * cellSize);
    if (ext === null) continue;
    const [i0, i1] = closedCellRange(origin[0], cellSize, ext[0], ext[1]);
    if (span(j, i0, i1) === false) return;
  }
}
