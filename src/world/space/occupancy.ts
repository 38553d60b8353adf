/**
 * Plan occupancy of a scene from its world meshes, and its PNG form for scene.json.
 *
 * Rule (issue 11, item 4): a cell is occupied when some triangle's part inside the height band
 * zMin <= z <= zMax, projected onto the floor plan, meets the cell's closed square. Each triangle is
 * clipped to the band (Sutherland-Hodgman against the two planes), and its projection, a convex
 * polygon that is a segment for vertical faces, is rasterised exactly by `forEachCoveredSpan`
 * (conservative: touching the square's boundary counts, so a face lying exactly on a cell edge
 * occupies the cells on both sides of it).
 *
 * A band cuts a closed solid (a wardrobe, a wall) through its sides only, whose projection is the
 * outline of its footprint. With `fillEnclosed` (default: every mesh) the cells a mesh's own covered
 * cells enclose (not 4-connected to the outside of the mesh's box) are occupied too, so a solid's
 * whole footprint is occupied, not only its outline; the fill is per mesh, so free space enclosed
 * by several objects together stays free.
 */
import sharp from "sharp";
import { PNG_OPTIONS } from "../../media/png.js";
import { STRUCTURE_CATEGORIES, type Vec2, type WorldMesh } from "../types.js";
import { checkGrid, gridForBounds, type OccupancyGrid } from "./grid.js";
import { forEachCoveredSpan } from "./raster.js";

export type { OccupancyGrid } from "./grid.js";

export interface OccupancyOptions {
  /** Plan box the grid covers from its min corner (usually the scene's `bounds`). */
  bounds: { min: Vec2; max: Vec2 };
  cellSize: number;
  /** Height band, metres above the floor, both ends included. */
  zMin: number;
  zMax: number;
  /** Meshes to leave out; default: floors and ceilings. */
  skip?: (mesh: WorldMesh) => boolean;
  /** Room outlines: when given, cells whose centre lies outside every room are occupied. */
  rooms?: readonly (readonly Vec2[])[];
  /** Occupy what a mesh's own covered cells enclose (see above); default: every mesh. */
  fillEnclosed?: (mesh: WorldMesh) => boolean;
}

/** Default `skip`: the floor and the ceiling are not obstacles. */
export function skipFloorAndCeiling(mesh: WorldMesh): boolean {
  return mesh.category === STRUCTURE_CATEGORIES[0] || mesh.category === STRUCTURE_CATEGORIES[2];
}

const MAX_CLIPPED = 8; // a triangle clipped by two planes has at most 5 vertices

/**
 * Clips the polygon (x, y, z arrays, n vertices) to the half-space sign * (z - level) >= 0, writing
 * into the out arrays; returns the new vertex count.
 */
function clipByHeight(
  xs: Float64Array, ys: Float64Array, zs: Float64Array, n: number,
  level: number, sign: 1 | -1,
  ox: Float64Array, oy: Float64Array, oz: Float64Array,
): number {
  let m = 0;
  for (let k = 0; k < n; k++) {
    const q = k + 1 === n ? 0 : k + 1;
    const dk = sign * (zs[k]! - level);
    const dq = sign * (zs[q]! - level);
    if (dk >= 0) {
      ox[m] = xs[k]!;
      oy[m] = ys[k]!;
      oz[m] = zs[k]!;
      m++;
    }
    if ((dk >= 0) !== (dq >= 0)) {
      // The edge crosses the plane: add the crossing (t in (0, 1]).
      const t = dk / (dk - dq);
      ox[m] = xs[k]! + t * (xs[q]! - xs[k]!);
      oy[m] = ys[k]! + t * (ys[q]! - ys[k]!);
      oz[m] = level;
      m++;
    }
  }
  return m;
}

/** Marks the cells of one mesh into `mark` (1 = covered) and returns the box of rows/columns touched, or null. */
function rasteriseMesh(grid: OccupancyGrid, mesh: WorldMesh, zMin: number, zMax: number, mark: Uint8Array): [number, number, number, number] | null {
  const { width, height } = grid;
  const ax = new Float64Array(MAX_CLIPPED), ay = new Float64Array(MAX_CLIPPED), az = new Float64Array(MAX_CLIPPED);
  const bx = new Float64Array(MAX_CLIPPED), by = new Float64Array(MAX_CLIPPED), bz = new Float64Array(MAX_CLIPPED);
  let i0 = Infinity, j0 = Infinity, i1 = -Infinity, j1 = -Infinity;
  const span = (j: number, lo: number, hi: number): void => {
    if (j < 0 || j >= height) return;
    const a = Math.max(0, lo);
    const b = Math.min(width - 1, hi);
    if (a > b) return;
    mark.fill(1, j * width + a, j * width + b + 1);
    if (a < i0) i0 = a;
    if (b > i1) i1 = b;
    if (j < j0) j0 = j;
    if (j > j1) j1 = j;
  };
  for (const part of mesh.parts) {
    const pos = part.positions;
    const idx = part.indices;
    if (idx.length % 3 !== 0) throw new RangeError(`mesh ${mesh.instanceId}: index count ${idx.length} is not a multiple of 3`);
    for (let t = 0; t < idx.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        const v = idx[t + k]! * 3;
        if (v + 2 >= pos.length) throw new RangeError(`mesh ${mesh.instanceId}: index ${idx[t + k]} is out of range`);
        ax[k] = pos[v]!;
        ay[k] = pos[v + 1]!;
        az[k] = pos[v + 2]!;
      }
      // Quick rejection of triangles wholly above or below the band.
      if ((az[0]! > zMax && az[1]! > zMax && az[2]! > zMax) || (az[0]! < zMin && az[1]! < zMin && az[2]! < zMin)) continue;
      let n = clipByHeight(ax, ay, az, 3, zMin, 1, bx, by, bz);
      if (n === 0) continue;
      n = clipByHeight(bx, by, bz, n, zMax, -1, ax, ay, az);
      if (n === 0) continue;
      forEachCoveredSpan(grid, ax, ay, n, span, true);
    }
  }
  return i1 < 0 ? null : [i0, j0, i1, j1];
}

/**
 * Occupies the cells of the box (inclusive) that `mark` encloses: those not 4-connected through
 * unmarked cells to the border of the box grown by one cell (clipped to the grid).
 */
function fillEnclosedCells(grid: OccupancyGrid, mark: Uint8Array, box: [number, number, number, number], queue: Int32Array, seen: Uint8Array): void {
  const { width, height } = grid;
  const x0 = Math.max(0, box[0] - 1), y0 = Math.max(0, box[1] - 1);
  const x1 = Math.min(width - 1, box[2] + 1), y1 = Math.min(height - 1, box[3] + 1);
  let head = 0, tail = 0;
  const visit = (i: number, j: number): void => {
    const c = j * width + i;
    if (mark[c] || seen[c]) return;
    seen[c] = 1;
    queue[tail++] = c;
  };
  for (let i = x0; i <= x1; i++) {
    visit(i, y0);
    visit(i, y1);
  }
  for (let j = y0; j <= y1; j++) {
    visit(x0, j);
    visit(x1, j);
  }
  while (head < tail) {
    const c = queue[head++]!;
    const i = c % width, j = (c - i) / width;
    if (i > x0) visit(i - 1, j);
    if (i < x1) visit(i + 1, j);
    if (j > y0) visit(i, j - 1);
    if (j < y1) visit(i, j + 1);
  }
  for (let j = y0; j <= y1; j++) {
    for (let c = j * width + x0, e = j * width + x1; c <= e; c++) {
      if (!seen[c]) mark[c] = 1;
      else seen[c] = 0;
    }
  }
}

/**
 * Cells whose centre lies outside every polygon, by the even-odd rule with exactly the comparisons
 * of `pointInPolygon` (geometry/polygon.ts), so a cell is inside a room here exactly when
 * `roomAt` finds a room at its centre. One scanline per row: O(rows x edges + cells).
 */
function markOutsideRooms(grid: OccupancyGrid, rooms: readonly (readonly Vec2[])[], out: Uint8Array): void {
  const { width, height, origin, cellSize } = grid;
  const inside = new Uint8Array(width);
  const crossings: number[] = [];
  for (let j = 0; j < height; j++) {
    inside.fill(0);
    const y = origin[1] + (j + 0.5) * cellSize;
    for (const room of rooms) {
      crossings.length = 0;
      const n = room.length;
      for (let a = 0, b = n - 1; a < n; b = a++) {
        const [xi, yi] = room[a]!;
        const [xj, yj] = room[b]!;
        if (yi > y !== yj > y) crossings.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
      }
      crossings.sort((p, q) => p - q);
      // A centre x is inside when an odd number of crossings lie strictly right of it, i.e. an odd
      // number lie at or left of it: x in [c0, c1) or [c2, c3) ...
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        const lo = crossings[k]!, hi = crossings[k + 1]!;
        for (let i = firstCentreAtOrAfter(grid, lo); i < width; i++) {
          const x = origin[0] + (i + 0.5) * cellSize;
          if (!(x < hi)) break;
          inside[i] = 1;
        }
      }
    }
    for (let i = 0; i < width; i++) if (!inside[i]) out[j * width + i] = 1;
  }
}

/** Smallest i >= 0 whose centre x is >= v. */
function firstCentreAtOrAfter(grid: OccupancyGrid, v: number): number {
  const { origin, cellSize } = grid;
  let i = Math.max(0, Math.ceil((v - origin[0]) / cellSize - 0.5));
  while (i > 0 && origin[0] + (i - 1 + 0.5) * cellSize >= v) i--;
  while (origin[0] + (i + 0.5) * cellSize < v) i++;
  return i;
}

/** The occupancy grid of `meshes` (see the module comment for the rule). */
export function occupancyFromMeshes(meshes: readonly WorldMesh[], options: OccupancyOptions): OccupancyGrid {
  const { zMin, zMax } = options;
  if (!Number.isFinite(zMin) || !Number.isFinite(zMax) || zMin > zMax) throw new RangeError(`height band [${zMin}, ${zMax}] is empty or not finite`);
  const grid = gridForBounds(options.bounds, options.cellSize);
  const skip = options.skip ?? skipFloorAndCeiling;
  const fill = options.fillEnclosed ?? ((): boolean => true);
  const cells = grid.width * grid.height;
  const mark = new Uint8Array(cells);
  const seen = new Uint8Array(cells);
  const queue = new Int32Array(cells);
  const occ = grid.occupied;
  for (const mesh of meshes) {
    if (skip(mesh)) continue;
    const box = rasteriseMesh(grid, mesh, zMin, zMax, mark);
    if (box === null) continue;
    if (fill(mesh)) fillEnclosedCells(grid, mark, box, queue, seen);
    for (let j = box[1] - (box[1] > 0 ? 1 : 0), je = Math.min(grid.height - 1, box[3] + 1); j <= je; j++) {
      const a = j * grid.width + Math.max(0, box[0] - 1);
      const b = j * grid.width + Math.min(grid.width - 1, box[2] + 1);
      for (let c = a; c <= b; c++) {
        if (mark[c]) {
          occ[c] = 1;
          mark[c] = 0;
        }
      }
    }
  }
  if (options.rooms) markOutsideRooms(grid, options.rooms, occ);
  return grid;
}

// ------------------------------------------------------------------ PNG form

/** The PNG's layout, in words, for scene.json readers. */
export const OCCUPANCY_PNG_ORIENTATION =
  "8-bit grey; 255 = occupied, 0 = free; image column c is grid column i = c (x grows to the right); " +
  "image row r is grid row j = height - 1 - r (row 0 is the highest y, so the image is the plan seen from above with +y up); " +
  "cell (i, j) spans x in [origin_x + i*cell_size, origin_x + (i+1)*cell_size], y likewise from origin_y";

/** What scene.json records beside the occupancy PNG. */
export interface OccupancyMeta {
  origin: Vec2;
  cell_size: number;
  width: number;
  height: number;
  orientation: string;
}

export function occupancyMeta(grid: OccupancyGrid): OccupancyMeta {
  return { origin: [grid.origin[0], grid.origin[1]], cell_size: grid.cellSize, width: grid.width, height: grid.height, orientation: OCCUPANCY_PNG_ORIENTATION };
}

/** The grid as an 8-bit grey PNG (see OCCUPANCY_PNG_ORIENTATION); same grid, same bytes. */
export async function occupancyToPng(grid: OccupancyGrid): Promise<Buffer> {
  checkGrid(grid);
  const { width, height, occupied } = grid;
  if (width === 0 || height === 0) throw new RangeError("cannot write an empty grid as PNG");
  const pixels = Buffer.alloc(width * height);
  for (let r = 0; r < height; r++) {
    const j = height - 1 - r;
    for (let i = 0; i < width; i++) pixels[r * width + i] = occupied[j * width + i] ? 255 : 0;
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } }).toColourspace("b-w").png(PNG_OPTIONS).toBuffer();
}

/** Reads an occupancy PNG back (any non-zero channel = occupied) with the geometry from scene.json. */
export async function readOccupancyPng(png: Buffer, meta: Pick<OccupancyMeta, "origin" | "cell_size" | "width" | "height">): Promise<OccupancyGrid> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== meta.width || info.height !== meta.height) {
    throw new RangeError(`occupancy PNG is ${info.width}x${info.height}, scene.json says ${meta.width}x${meta.height}`);
  }
  const { width, height } = info;
  const ch = info.channels;
  const occupied = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    const j = height - 1 - r;
    for (let i = 0; i < width; i++) {
      const p = (r * width + i) * ch;
      let v = 0;
      for (let c = 0; c < ch; c++) v |= data[p + c]!;
      occupied[j * width + i] = v ? 1 : 0;
    }
  }
  const grid: OccupancyGrid = { origin: [meta.origin[0], meta.origin[1]], cellSize: meta.cell_size, width, height, occupied };
  checkGrid(grid);
  return grid;
}
