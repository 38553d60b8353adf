/**
 * The plan occupancy grid every space query runs on.
 *
 * Cell (i, j) is the closed square [x_i, x_{i+1}] x [y_j, y_{j+1}] with x_i = origin[0] + i * cellSize
 * and y_j = origin[1] + j * cellSize (computed exactly so, in doubles, everywhere in this folder);
 * i runs along +x, j along +y, and the cell's flag is `occupied[j * width + i]` (row-major, row 0 =
 * lowest y). Anything outside the grid counts as occupied.
 *
 * A world point belongs to the half-open cell [x_i, x_{i+1}) x [y_j, y_{j+1}) (`worldToCell`); the
 * overlap and sight rules use the closed squares, so a point on a shared edge or corner touches
 * every cell around it.
 */
import { MAX_GRID_CELLS } from "../../core/limits.js";
import type { Vec2 } from "../types.js";

export interface OccupancyGrid {
  /** World (x, y) of the corner of cell (0, 0) with the lowest x and y, metres. */
  origin: Vec2;
  /** Side of a square cell, metres. */
  cellSize: number;
  width: number;
  height: number;
  /** 1 = occupied, 0 = free; cell (i, j) at j * width + i. */
  occupied: Uint8Array;
}

export function checkGrid(grid: OccupancyGrid): void {
  const { width, height, cellSize, origin, occupied } = grid;
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`grid size must be non-negative integers, got ${width}x${height}`);
  }
  if (!(cellSize > 0) || !Number.isFinite(cellSize)) throw new RangeError(`cell size must be a positive number, got ${cellSize}`);
  if (!Number.isFinite(origin[0]) || !Number.isFinite(origin[1])) throw new RangeError(`grid origin is not finite: (${origin[0]}, ${origin[1]})`);
  if (occupied.length !== width * height) throw new RangeError(`a ${width}x${height} grid needs ${width * height} cells, got ${occupied.length}`);
}

/** An all-free grid; at most MAX_GRID_CELLS cells (a scene's extent is bounded, core/limits.ts). */
export function emptyGrid(origin: Vec2, cellSize: number, width: number, height: number): OccupancyGrid {
  if (width * height > MAX_GRID_CELLS) throw new RangeError(`a ${width}x${height} grid has more than ${MAX_GRID_CELLS} cells`);
  const grid: OccupancyGrid = { origin: [origin[0], origin[1]], cellSize, width, height, occupied: new Uint8Array(width * height) };
  checkGrid(grid);
  return grid;
}

/**
 * A grid whose cells cover the box `bounds` from its min corner: ceil(extent / cellSize) cells per
 * axis, where an extent within 1e-9 cells of a whole number of cells counts as that number (so
 * 3 m at 0.05 m gives 60 cells, not 61 from 3 / 0.05 = 60.000000000000004).
 */
export function gridForBounds(bounds: { min: Vec2; max: Vec2 }, cellSize: number): OccupancyGrid {
  const cells = (extent: number): number => {
    if (!(extent >= 0)) throw new RangeError(`grid bounds are reversed or not finite (extent ${extent})`);
    const n = extent / cellSize;
    const r = Math.round(n);
    return Math.abs(n - r) <= 1e-9 * Math.max(1, r) ? r : Math.ceil(n);
  };
  return emptyGrid(bounds.min, cellSize, cells(bounds.max[0] - bounds.min[0]), cells(bounds.max[1] - bounds.min[1]));
}

/** x of the cell boundary with index i (left edge of column i). */
export function cellEdgeX(grid: OccupancyGrid, i: number): number {
  return grid.origin[0] + i * grid.cellSize;
}

/** y of the cell boundary with index j (lower edge of row j). */
export function cellEdgeY(grid: OccupancyGrid, j: number): number {
  return grid.origin[1] + j * grid.cellSize;
}

/** The largest index k with origin + k * cellSize <= v (the half-open cell holding v along one axis). */
export function axisCell(origin: number, cellSize: number, v: number): number {
  let k = Math.floor((v - origin) / cellSize);
  // The division can round across a boundary by one cell; settle it against the boundaries as
  // computed everywhere. Two steps at most each way: past 2^53 a step no longer changes k, and an
  // unbounded loop there never ended (a coordinate of 1e16).
  for (let step = 0; step < 2 && origin + k * cellSize > v; step++) k--;
  for (let step = 0; step < 2 && origin + (k + 1) * cellSize <= v; step++) k++;
  return k;
}

/** The cell (i, j) holding world point p (half-open cells); may lie outside the grid. */
export function worldToCell(grid: OccupancyGrid, p: Vec2): [i: number, j: number] {
  if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) throw new RangeError(`point (${p[0]}, ${p[1]}) is not finite`);
  return [axisCell(grid.origin[0], grid.cellSize, p[0]), axisCell(grid.origin[1], grid.cellSize, p[1])];
}

/** World centre of cell (i, j). */
export function cellCenter(grid: OccupancyGrid, i: number, j: number): Vec2 {
  return [grid.origin[0] + (i + 0.5) * grid.cellSize, grid.origin[1] + (j + 0.5) * grid.cellSize];
}

export function inGrid(grid: OccupancyGrid, i: number, j: number): boolean {
  return i >= 0 && i < grid.width && j >= 0 && j < grid.height;
}

/** Row-major index of cell (i, j), or -1 outside the grid. */
export function cellIndex(grid: OccupancyGrid, i: number, j: number): number {
  return inGrid(grid, i, j) ? j * grid.width + i : -1;
}

/** True when cell (i, j) is inside the grid and free. */
export function isFreeCell(grid: OccupancyGrid, i: number, j: number): boolean {
  return inGrid(grid, i, j) && grid.occupied[j * grid.width + i] === 0;
}

/** True when the cell holding world point p is inside the grid and free. */
export function isFreePoint(grid: OccupancyGrid, p: Vec2): boolean {
  const [i, j] = worldToCell(grid, p);
  return isFreeCell(grid, i, j);
}

/** The same grid geometry with its own copy of the flags. */
export function cloneGrid(grid: OccupancyGrid): OccupancyGrid {
  return { origin: [grid.origin[0], grid.origin[1]], cellSize: grid.cellSize, width: grid.width, height: grid.height, occupied: grid.occupied.slice() };
}
