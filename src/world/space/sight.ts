/**
 * Line of sight on the occupancy grid, for a point and for a disc.
 *
 * - `lineOfSight(a, b)`: every cell whose closed square the segment a-b meets is inside the grid and
 *   free (an exact supercover: a segment through a cell corner meets all four cells there, one
 *   running along a cell edge meets the cells on both sides).
 * - `discLineOfSight(a, b, r)`: a disc of radius r swept from a to b stays clear: the distance from
 *   the segment to every occupied square, and to every square outside the grid, is >= r (touching
 *   at exactly r is allowed). Candidate cells are those within reach of the segment row by row;
 *   each is decided by the exact segment-to-square distance. Radius 0 is the point test.
 * Distances are compared in floating point (squared), so ties are exact for dyadic inputs.
 */
import { pointSegmentDistanceSq } from "../../geometry/polygon.js";
import type { Vec2 } from "../types.js";
import { checkGrid, type OccupancyGrid } from "./grid.js";
import { closedCellRange, forEachCoveredSpan, stripExtent } from "./raster.js";

function blocked(grid: OccupancyGrid, i: number, j: number): boolean {
  return i < 0 || j < 0 || i >= grid.width || j >= grid.height || grid.occupied[j * grid.width + i] !== 0;
}

/** True when every cell the closed segment a-b meets is inside the grid and free. */
export function lineOfSight(grid: OccupancyGrid, a: Vec2, b: Vec2): boolean {
  checkGrid(grid);
  let clear = true;
  forEachCoveredSpan(grid, [a[0], b[0]], [a[1], b[1]], 2, (j, i0, i1) => {
    for (let i = i0; i <= i1; i++) {
      if (blocked(grid, i, j)) {
        clear = false;
        return false;
      }
    }
    return true;
  });
  return clear;
}

function pointBoxDistanceSq(px: number, py: number, x0: number, y0: number, x1: number, y1: number): number {
  const dx = px < x0 ? x0 - px : px > x1 ? px - x1 : 0;
  const dy = py < y0 ? y0 - py : py > y1 ? py - y1 : 0;
  return dx * dx + dy * dy;
}

/** True when the closed segment meets the closed box (Liang-Barsky clipping of t in [0, 1]). */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0, t1 = 1;
  const clip = (p: number, d: number, lo: number, hi: number): boolean => {
    if (d === 0) return p >= lo && p <= hi;
    let ta = (lo - p) / d, tb = (hi - p) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    return t0 <= t1;
  };
  return clip(ax, bx - ax, x0, x1) && clip(ay, by - ay, y0, y1);
}

/**
 * Squared distance between the closed segment a-b and the closed box: 0 when they meet, otherwise
 * the least of the endpoint-to-box and corner-to-segment distances (between disjoint convex sets
 * the minimum is reached at a vertex of one of them).
 */
export function segmentBoxDistanceSq(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): number {
  if (segmentMeetsBox(ax, ay, bx, by, x0, y0, x1, y1)) return 0;
  return Math.min(
    pointBoxDistanceSq(ax, ay, x0, y0, x1, y1),
    pointBoxDistanceSq(bx, by, x0, y0, x1, y1),
    pointSegmentDistanceSq(x0, y0, ax, ay, bx, by),
    pointSegmentDistanceSq(x1, y0, ax, ay, bx, by),
    pointSegmentDistanceSq(x0, y1, ax, ay, bx, by),
    pointSegmentDistanceSq(x1, y1, ax, ay, bx, by),
  );
}

/** True when a disc of `radius` moved along a-b keeps a distance >= radius from every occupied or outside cell square. */
export function discLineOfSight(grid: OccupancyGrid, a: Vec2, b: Vec2, radius: number): boolean {
  if (!(radius >= 0) || !Number.isFinite(radius)) throw new RangeError(`disc radius must be a non-negative number, got ${radius}`);
  if (radius === 0) return lineOfSight(grid, a, b);
  checkGrid(grid);
  const [ax, ay] = a;
  const [bx, by] = b;
  if (![ax, ay, bx, by].every(Number.isFinite)) throw new RangeError("segment end points must be finite");
  const { origin, cellSize: s } = grid;
  const r2 = radius * radius;
  const xs = [ax, bx], ys = [ay, by];
  // A square within `radius` of the segment has a segment point p with p.y within radius of its
  // row strip and p.x within radius of its column; one extra cell each way absorbs rounding.
  const [j0, j1] = closedCellRange(origin[1], s, Math.min(ay, by) - radius, Math.max(ay, by) + radius);
  for (let j = j0 - 1; j <= j1 + 1; j++) {
    const y0 = origin[1] + j * s, y1 = origin[1] + (j + 1) * s;
    const ext = stripExtent(xs, ys, 2, y0 - radius, y1 + radius);
    if (ext === null) continue;
    const [i0, i1] = closedCellRange(origin[0], s, ext[0] - radius, ext[1] + radius);
    for (let i = i0 - 1; i <= i1 + 1; i++) {
      if (!blocked(grid, i, j)) continue;
      const x0 = origin[0] + i * s;
      if (segmentBoxDistanceSq(ax, ay, bx, by, x0, y0, origin[0] + (i + 1) * s, y1) < r2) return false;
    }
  }
  return true;
}
