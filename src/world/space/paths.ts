/**
 * Grid shortest paths and geodesic distances.
 *
 * Moves: to the 8 neighbouring free cells, cost one cell side straight and sqrt(2) sides
 * diagonally; a diagonal move is allowed only when both cells beside it (sharing a side with the
 * start and the end) are free, so no path cuts the corner of an occupied cell. Distances run
 * between cell centres, from the cell holding the start point (grid.ts `worldToCell`).
 *
 * Dijkstra with an indexed binary heap on typed arrays, O(N log N) for N cells; ties in the heap
 * go to the smaller cell index, so results are deterministic. (geometry/dijkstra.ts works on Map
 * graphs; a grid is its own graph here, without building one.)
 */
import type { Vec2 } from "../types.js";
import { cellCenter, checkGrid, worldToCell, type OccupancyGrid } from "./grid.js";
import { lineOfSight } from "./sight.js";

const DI = [1, -1, 0, 0, 1, 1, -1, -1];
const DJ = [0, 0, 1, -1, 1, -1, 1, -1];
const COST = [1, 1, 1, 1, Math.SQRT2, Math.SQRT2, Math.SQRT2, Math.SQRT2];

/** Min-heap of cell indices keyed by `key[cell]`, ties by the smaller index, with decrease-key. */
class CellHeap {
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private n = 0;
  constructor(private readonly key: Float64Array) {
    this.heap = new Int32Array(key.length);
    this.pos = new Int32Array(key.length).fill(-1);
  }
  get size(): number {
    return this.n;
  }
  private less(a: number, b: number): boolean {
    const ka = this.key[a]!, kb = this.key[b]!;
    return ka < kb || (ka === kb && a < b);
  }
  private place(k: number, cell: number): void {
    this.heap[k] = cell;
    this.pos[cell] = k;
  }
  private up(k: number): void {
    const cell = this.heap[k]!;
    while (k > 0) {
      const p = (k - 1) >> 1;
      const parent = this.heap[p]!;
      if (!this.less(cell, parent)) break;
      this.place(k, parent);
      k = p;
    }
    this.place(k, cell);
  }
  private down(k: number): void {
    const cell = this.heap[k]!;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= this.n) break;
      const r = l + 1;
      const c = r < this.n && this.less(this.heap[r]!, this.heap[l]!) ? r : l;
      const child = this.heap[c]!;
      if (!this.less(child, cell)) break;
      this.place(k, child);
      k = c;
    }
    this.place(k, cell);
  }
  /** Insert, or move up after its key decreased. */
  pushOrDecrease(cell: number): void {
    const k = this.pos[cell]!;
    if (k >= 0) {
      this.up(k);
      return;
    }
    this.place(this.n, cell);
    this.up(this.n++);
  }
  pop(): number {
    const top = this.heap[0]!;
    this.pos[top] = -1;
    this.n--;
    if (this.n > 0) {
      this.place(0, this.heap[this.n]!);
      this.down(0);
    }
    return top;
  }
}

interface Search {
  /** Cell-side units; Infinity where not reached. */
  dist: Float64Array;
  /** Predecessor cell, -1 for the source and unreached cells. */
  prev: Int32Array;
}

/** Free cell index holding p, or -1 when p is outside the grid or in an occupied cell. */
function freeCellAt(grid: OccupancyGrid, p: Vec2): number {
  const [i, j] = worldToCell(grid, p);
  if (i < 0 || j < 0 || i >= grid.width || j >= grid.height) return -1;
  const c = j * grid.width + i;
  return grid.occupied[c] ? -1 : c;
}

/** Dijkstra from cell `source`; stops once `target` (if >= 0) is settled. */
function search(grid: OccupancyGrid, source: number, target: number): Search {
  const { width: W, height: H, occupied } = grid;
  const dist = new Float64Array(W * H).fill(Infinity);
  const prev = new Int32Array(W * H).fill(-1);
  const done = new Uint8Array(W * H);
  const free = (i: number, j: number): boolean => i >= 0 && j >= 0 && i < W && j < H && occupied[j * W + i] === 0;
  const heap = new CellHeap(dist);
  dist[source] = 0;
  heap.pushOrDecrease(source);
  while (heap.size > 0) {
    const u = heap.pop();
    done[u] = 1;
    if (u === target) break;
    const ui = u % W, uj = (u - ui) / W;
    const du = dist[u]!;
    for (let k = 0; k < 8; k++) {
      const vi = ui + DI[k]!, vj = uj + DJ[k]!;
      if (!free(vi, vj)) continue;
      if (k >= 4 && !(free(vi, uj) && free(ui, vj))) continue; // no corner cutting
      const v = vj * W + vi;
      if (done[v]) continue;
      const nd = du + COST[k]!;
      if (nd < dist[v]!) {
        dist[v] = nd;
        prev[v] = u;
        heap.pushOrDecrease(v);
      }
    }
  }
  return { dist, prev };
}

/**
 * Geodesic distance, metres, from the centre of the cell holding `from` to every cell's centre
 * (row-major like the grid): Infinity for occupied and unreachable cells, and everywhere when
 * `from` lies outside the grid or in an occupied cell.
 */
export function geodesicDistances(grid: OccupancyGrid, from: Vec2): Float64Array {
  checkGrid(grid);
  const source = freeCellAt(grid, from);
  if (source < 0) return new Float64Array(grid.width * grid.height).fill(Infinity);
  const { dist } = search(grid, source, -1);
  for (let c = 0; c < dist.length; c++) dist[c] = dist[c]! * grid.cellSize;
  return dist;
}

/** Geodesic distance, metres, between the centres of the cells holding a and b (Infinity when not joined). */
export function geodesicDistance(grid: OccupancyGrid, a: Vec2, b: Vec2): number {
  checkGrid(grid);
  const s = freeCellAt(grid, a);
  const t = freeCellAt(grid, b);
  if (s < 0 || t < 0) return Infinity;
  return search(grid, s, t).dist[t]! * grid.cellSize;
}

/**
 * A shortest path as the world centres of its cells, from the cell holding `from` to the cell
 * holding `to` (both included; one point when they share a cell), or null when either point is
 * outside the grid or occupied or no path joins them.
 */
export function shortestPath(grid: OccupancyGrid, from: Vec2, to: Vec2): Vec2[] | null {
  checkGrid(grid);
  const s = freeCellAt(grid, from);
  const t = freeCellAt(grid, to);
  if (s < 0 || t < 0) return null;
  const { dist, prev } = search(grid, s, t);
  if (dist[t] === Infinity) return null;
  return traceCells(grid, prev, t);
}

/** One search from a start, answering many distance and path queries. */
export interface ShortestPathTree {
  /** The cell holding the start, or -1 when the start is outside the grid or occupied. */
  readonly sourceCell: number;
  /** Geodesic distance, metres, per cell (as `geodesicDistances`). */
  readonly distances: Float64Array;
  /** Geodesic distance, metres, to the centre of the cell holding p (Infinity when not reached). */
  distanceTo(p: Vec2): number;
  /** Cell centres from the start's cell to the cell holding p (as `shortestPath`), or null. */
  pathTo(p: Vec2): Vec2[] | null;
}

/** The full shortest-path tree from the cell holding `from` (one Dijkstra over the grid). */
export function shortestPathTree(grid: OccupancyGrid, from: Vec2): ShortestPathTree {
  checkGrid(grid);
  const source = freeCellAt(grid, from);
  const cells = grid.width * grid.height;
  const { dist, prev } = source < 0 ? { dist: new Float64Array(cells).fill(Infinity), prev: new Int32Array(cells).fill(-1) } : search(grid, source, -1);
  for (let c = 0; c < cells; c++) dist[c] = dist[c]! * grid.cellSize;
  return {
    sourceCell: source,
    distances: dist,
    distanceTo(p: Vec2): number {
      const c = freeCellAt(grid, p);
      return c < 0 ? Infinity : dist[c]!;
    },
    pathTo(p: Vec2): Vec2[] | null {
      const t = freeCellAt(grid, p);
      return t < 0 || dist[t] === Infinity ? null : traceCells(grid, prev, t);
    },
  };
}

/** Cell centres from the source (prev = -1) to cell t. */
function traceCells(grid: OccupancyGrid, prev: Int32Array, t: number): Vec2[] {
  const cells: number[] = [];
  for (let c = t; c !== -1; c = prev[c]!) cells.push(c);
  cells.reverse();
  const W = grid.width;
  return cells.map((c) => cellCenter(grid, c % W, Math.floor(c / W)));
}

/** Length of a polyline, metres. */
export function pathLength(path: readonly Vec2[]): number {
  let s = 0;
  for (let k = 1; k < path.length; k++) s += Math.hypot(path[k]![0] - path[k - 1]![0], path[k]![1] - path[k - 1]![1]);
  return s;
}

/**
 * String pulling: from each kept point, the path runs straight to the last of the following
 * points that the point still sees (`lineOfSight`, extending one point at a time), which is kept
 * next. Every new segment passes the line-of-sight test, and the others are segments of the input,
 * so a path that was clear (e.g. from `shortestPath` on the same grid) stays clear. Pass the
 * inflated grid to keep an agent's clearance. The first and last points are kept.
 */
export function smoothPath(grid: OccupancyGrid, path: readonly Vec2[]): Vec2[] {
  if (path.length <= 2) return path.map((p) => [p[0], p[1]] as Vec2);
  const out: Vec2[] = [[path[0]![0], path[0]![1]]];
  let anchor = 0;
  for (let k = 2; k < path.length; k++) {
    if (!lineOfSight(grid, path[anchor]!, path[k]!)) {
      anchor = k - 1;
      out.push([path[anchor]![0], path[anchor]![1]]);
    }
  }
  const last = path[path.length - 1]!;
  out.push([last[0], last[1]]);
  return out;
}
