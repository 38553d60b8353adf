/**
 * The free floor of one room for a disc agent, on a coarse grid, used while furnishing: a cell is
 * free when the agent's disc centred on it stays inside the room and clear of every blocking
 * object's footprint. Furniture that would split the free floor (some free cell no longer
 * reachable from the doors, moving between 4-neighbours) is refused.
 */
import type { Vec2 } from "../types.js";
import { pointFootprintDistance, type Box2, type Footprint } from "./footprint.js";

/** The agent radius of EgoPathBench's embodied feasibility (issue 11: 0.30 m). */
export const AGENT_RADIUS_M = 0.3;
/** Grid cell of the furnishing check (coarse on purpose: it runs after every placement). */
export const FREE_SPACE_CELL_M = 0.1;

export class RoomFreeSpace {
  readonly nx: number;
  readonly ny: number;
  private readonly free: Uint8Array;
  private readonly doorCells: number[];

  constructor(
    private readonly room: Box2,
    doorPoints: readonly Vec2[],
    private readonly radius = AGENT_RADIUS_M,
    private readonly cell = FREE_SPACE_CELL_M,
  ) {
    this.nx = Math.max(1, Math.floor((room.maxX - room.minX) / cell));
    this.ny = Math.max(1, Math.floor((room.maxY - room.minY) / cell));
    this.free = new Uint8Array(this.nx * this.ny);
    for (let j = 0; j < this.ny; j++)
      for (let i = 0; i < this.nx; i++) {
        const [x, y] = this.centre(i, j);
        const clearance = Math.min(x - room.minX, room.maxX - x, y - room.minY, room.maxY - y);
        this.free[j * this.nx + i] = clearance >= radius ? 1 : 0;
      }
    this.doorCells = [];
    for (const p of doorPoints) {
      const c = this.nearestFree(p);
      if (c >= 0) this.doorCells.push(c);
    }
  }

  /** Centre of cell (i, j); the grid is centred in the room. */
  private centre(i: number, j: number): Vec2 {
    const ox = this.room.minX + (this.room.maxX - this.room.minX - this.nx * this.cell) / 2;
    const oy = this.room.minY + (this.room.maxY - this.room.minY - this.ny * this.cell) / 2;
    return [ox + (i + 0.5) * this.cell, oy + (j + 0.5) * this.cell];
  }

  private nearestFree(p: Vec2): number {
    let best = -1;
    let bestD = Infinity;
    for (let j = 0; j < this.ny; j++)
      for (let i = 0; i < this.nx; i++) {
        const k = j * this.nx + i;
        if (!this.free[k]) continue;
        const [x, y] = this.centre(i, j);
        const d = Math.hypot(x - p[0], y - p[1]);
        if (d < bestD) { bestD = d; best = k; }
      }
    return bestD <= 2 * this.cell ? best : -1;
  }

  /** Number of free cells now. */
  freeCount(): number {
    let n = 0;
    for (const v of this.free) n += v;
    return n;
  }

  /** Cells a footprint would take (free now, within the agent radius of it). */
  private blockedBy(f: Footprint): number[] {
    const out: number[] = [];
    for (let j = 0; j < this.ny; j++)
      for (let i = 0; i < this.nx; i++) {
        const k = j * this.nx + i;
        if (!this.free[k]) continue;
        const [x, y] = this.centre(i, j);
        if (pointFootprintDistance(x, y, f) < this.radius) out.push(k);
      }
    return out;
  }

  /**
   * True when, with `f` added, every free cell is still reachable from the first door cell and
   * no door cell is taken (a room without a door cell only needs its free cells connected).
   */
  staysConnected(f: Footprint): boolean {
    const taken = new Set(this.blockedBy(f));
    if (this.doorCells.some((c) => taken.has(c))) return false;
    const isFree = (k: number) => this.free[k] === 1 && !taken.has(k);
    let total = 0;
    let start = -1;
    for (let k = 0; k < this.free.length; k++) if (isFree(k)) { total++; if (start < 0) start = k; }
    if (total === 0) return this.doorCells.length === 0;
    if (this.doorCells.length > 0) start = this.doorCells[0]!;
    const seen = new Uint8Array(this.free.length);
    const stack = [start];
    seen[start] = 1;
    let reached = 0;
    while (stack.length) {
      const k = stack.pop()!;
      reached++;
      const i = k % this.nx;
      const j = (k - i) / this.nx;
      const visit = (n: number) => {
        if (!seen[n] && isFree(n)) { seen[n] = 1; stack.push(n); }
      };
      if (i > 0) visit(k - 1);
      if (i + 1 < this.nx) visit(k + 1);
      if (j > 0) visit(k - this.nx);
      if (j + 1 < this.ny) visit(k + this.nx);
    }
    return reached === total;
  }

  /** Marks the cells a footprint takes. */
  add(f: Footprint): void {
    for (const k of this.blockedBy(f)) this.free[k] = 0;
  }
}
