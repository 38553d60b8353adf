/**
 * Does a collision-free path exist for a disc of radius r? A conservative grid search: cells of
 * size h, a cell is free when its centre's clearance (shapely distance to every polygon) is at
 * least r + h/2 and the disc of radius r + h/2 stays inside the border; 4-neighbour moves only.
 * Every point of a move between two free centres is within h/2 of one of them, so the polyline of
 * centres keeps the disc of radius r clear of every polygon: a "yes" is certain (for the exact disc,
 * hence also for the release's 20-point check); a "no" may miss passages narrower than 2(r + h/2).
 */
import { ObstacleIndex, PATHEVAL_BORDER } from "../../../geometry/collision.js";
import type { Vec2 } from "../../../geometry/planners.js";
import type { Polygon } from "../../../geometry/polygon.js";
import type { Rect } from "../../../geometry/rect.js";

export interface PathExistsOptions {
  /** Grid step (default 0.05). */
  cell?: number;
  border?: Rect;
}

/** Clearance of a point from the obstacles and the border, measured as the disc check needs it. */
export function pointClearance(index: ObstacleIndex, x: number, y: number, border: Rect = PATHEVAL_BORDER): number {
  const toBorder = Math.min(x - border.minX, border.maxX - x, y - border.minY, border.maxY - y);
  return Math.min(toBorder, index.clearance(x, y));
}

export function pathExists(obstacles: ObstacleIndex | readonly Polygon[], radius: number, start: Readonly<Vec2>, goal: Readonly<Vec2>, options: PathExistsOptions = {}): boolean {
  const index = obstacles instanceof ObstacleIndex ? obstacles : new ObstacleIndex(obstacles);
  const h = options.cell ?? 0.05;
  const border = options.border ?? PATHEVAL_BORDER;
  const need = radius + h / 2;
  // The start and goal must reach their cells' centres: they are within h / sqrt(2) of them.
  if (pointClearance(index, start[0], start[1], border) < need + h) return false;
  if (pointClearance(index, goal[0], goal[1], border) < need + h) return false;
  const nx = Math.ceil((border.maxX - border.minX) / h);
  const ny = Math.ceil((border.maxY - border.minY) / h);
  const cx = (i: number) => border.minX + (i + 0.5) * h;
  const cy = (j: number) => border.minY + (j + 0.5) * h;
  const cellOf = (p: Readonly<Vec2>) => {
    const i = Math.min(nx - 1, Math.max(0, Math.floor((p[0] - border.minX) / h)));
    const j = Math.min(ny - 1, Math.max(0, Math.floor((p[1] - border.minY) / h)));
    return j * nx + i;
  };
  // 0 unknown, 1 free, 2 blocked, 3 queued.
  const state = new Uint8Array(nx * ny);
  const free = (c: number): boolean => {
    const s = state[c]!;
    if (s !== 0) return s !== 2;
    const i = c % nx;
    const j = (c - i) / nx;
    const x = cx(i);
    const y = cy(j);
    const ok =
      x - need >= border.minX && x + need <= border.maxX && y - need >= border.minY && y + need <= border.maxY &&
      index.edgesFartherThan(x, y, need) && !index.pointInAny(x, y);
    state[c] = ok ? 1 : 2;
    return ok;
  };
  const s0 = cellOf(start);
  const g0 = cellOf(goal);
  if (!free(s0) || !free(g0)) return false;
  const queue = new Int32Array(nx * ny);
  let head = 0;
  let tail = 0;
  queue[tail++] = s0;
  state[s0] = 3;
  while (head < tail) {
    const c = queue[head++]!;
    if (c === g0) return true;
    const i = c % nx;
    const j = (c - i) / nx;
    const next = [i > 0 ? c - 1 : -1, i < nx - 1 ? c + 1 : -1, j > 0 ? c - nx : -1, j < ny - 1 ? c + nx : -1];
    for (const n of next) {
      if (n < 0 || state[n] === 3 || state[n] === 2) continue;
      if (!free(n)) continue;
      state[n] = 3;
      queue[tail++] = n;
    }
  }
  return false;
}
