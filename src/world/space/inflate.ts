/**
 * Inflation by an agent radius, and the connected pieces of free space.
 *
 * Inflation rule: a free cell becomes occupied when the distance from its centre to the nearest
 * occupied cell's closed square (not that cell's centre) is below `radius`, or when its centre is
 * nearer than `radius` to the grid's outer edge (outside the grid counts as occupied). So a disc of
 * that radius centred on a cell that stays free touches no occupied square except on its rim.
 *
 * The nearest point of a cell square to another cell's centre has coordinates that are whole
 * multiples of half a cell (per axis it is the centre's coordinate clamped to the square's), so on
 * the lattice of half-cell points the exact Euclidean distance transform (geometry/
 * distance-transform.ts) of "points lying in an occupied closed square" gives, at the cell centres,
 * exactly the distance to the occupied region, as an integer squared distance in half-cells.
 */
import { labelComponents, type Connectivity, type Labeling } from "../../geometry/components.js";
import { squaredDistanceToMask } from "../../geometry/distance-transform.js";
import { BitMask } from "../../geometry/mask.js";
import { checkGrid, cloneGrid, type OccupancyGrid } from "./grid.js";

/**
 * (2 r / cell)^2, the squared radius in half-cells; within 1e-9 of a whole number it is taken as
 * that number, so a radius that is a decimal multiple of the cell size (0.45 m on 0.05 m: 9 cells)
 * decides ties by the strict rule, not by the rounding of 0.45 / 0.05.
 */
export function radiusInHalfCellsSquared(radius: number, cellSize: number): number {
  const q = ((2 * radius) / cellSize) ** 2;
  const r = Math.round(q);
  return Math.abs(q - r) <= 1e-9 * Math.max(1, q) ? r : q;
}

/**
 * Squared distance, in half-cells, from every cell centre to the nearest occupied closed square
 * (Infinity when nothing is occupied); row-major like the grid.
 */
export function squaredHalfCellDistanceToOccupied(grid: OccupancyGrid): Float64Array {
  checkGrid(grid);
  const { width: W, height: H, occupied } = grid;
  const LW = 2 * W + 1;
  const lattice = new BitMask(LW, 2 * H + 1);
  for (let j = 0; j < H; j++) {
    for (let i = 0; i < W; i++) if (occupied[j * W + i]) lattice.fillBox(2 * i, 2 * j, 2 * i + 3, 2 * j + 3);
  }
  const d2 = squaredDistanceToMask(lattice);
  const out = new Float64Array(W * H);
  for (let j = 0; j < H; j++) {
    const row = (2 * j + 1) * LW;
    for (let i = 0; i < W; i++) out[j * W + i] = d2[row + 2 * i + 1]!;
  }
  return out;
}

/** A copy of the grid inflated by `radius` metres (rule above); radius 0 returns an equal copy. */
export function inflate(grid: OccupancyGrid, radius: number): OccupancyGrid {
  if (!(radius >= 0) || !Number.isFinite(radius)) throw new RangeError(`inflation radius must be a non-negative number, got ${radius}`);
  const out = cloneGrid(grid);
  if (radius === 0) return out;
  const { width: W, height: H } = grid;
  const q = radiusInHalfCellsSquared(radius, grid.cellSize);
  const d2 = squaredHalfCellDistanceToOccupied(grid);
  const occ = out.occupied;
  for (let j = 0; j < H; j++) {
    const ey = Math.min(2 * j + 1, 2 * H - 2 * j - 1);
    for (let i = 0; i < W; i++) {
      const c = j * W + i;
      if (occ[c]) continue;
      const e = Math.min(ey, 2 * i + 1, 2 * W - 2 * i - 1);
      if (d2[c]! < q || e * e < q) occ[c] = 1;
    }
  }
  return out;
}

/** The free cells as a mask (x = column i, y = row j). */
export function freeMask(grid: OccupancyGrid): BitMask {
  checkGrid(grid);
  const { width, height, occupied } = grid;
  const m = new BitMask(width, height);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) if (!occupied[j * width + i]) m.set(i, j);
  }
  return m;
}

/**
 * Connected pieces of free space, labelled 1..count in raster order of their first cell
 * (geometry/components.ts); `components[k].pixelCount` is the size of label k + 1.
 *
 * The default connectivity is 4: the path rules (8 moves, a diagonal only when both cells beside it
 * are free) join two free cells exactly when a chain of side-sharing free cells joins them, so these
 * are the pieces a path can cross. Pass 8 for plain 8-connectivity (cells touching at a corner join).
 */
export function freeComponents(grid: OccupancyGrid, connectivity: Connectivity = 4): Labeling {
  return labelComponents(freeMask(grid), connectivity);
}

export interface LargestFreeComponent {
  label: number;
  /** Number of cells. */
  size: number;
  /** The grid with every cell outside this component occupied. */
  grid: OccupancyGrid;
}

/** The largest free component (ties: the lowest label), or null when no cell is free. */
export function largestFreeComponent(grid: OccupancyGrid, connectivity: Connectivity = 4): LargestFreeComponent | null {
  const lab = freeComponents(grid, connectivity);
  let best = null as null | { label: number; size: number };
  for (const c of lab.components) if (best === null || c.pixelCount > best.size) best = { label: c.label, size: c.pixelCount };
  if (best === null) return null;
  const out = cloneGrid(grid);
  const labels = lab.labels;
  for (let c = 0; c < labels.length; c++) out.occupied[c] = labels[c] === best.label ? 0 : 1;
  return { label: best.label, size: best.size, grid: out };
}
