/**
 * SceneMaze_Dims{N}: a maze of N x N cells over x in [-40, 40], y in [-33, 33], walls 0.5 thick
 * drawn as rectangles, as the release lays them out:
 *   - a wall between two rows of cells is the rectangle [x0, x1] x [y - 0.25, y + 0.25] spanning one
 *     cell's width; a wall between two columns is [x - 0.25, x + 0.25] x [y0, y1] spanning one
 *     cell's height (so neighbouring walls overlap by a quarter of the thickness at joints);
 *   - only interior walls are drawn: the left and right sides of the maze are the world border, and
 *     the strips y < -33 (start) and y > 33 (goal) are open corridors reaching every bottom and top
 *     cell.
 * The passages form a perfect maze (a randomised depth-first search visits every cell once), and
 * then `loopFraction` of the remaining walls are taken out so the maze has a few cycles: the
 * release's files do (e.g. 76 walls in a 10 x 10 maze, whose perfect version keeps 81; 271 in an
 * 18 x 18 one, against 289), hence the default 0.06. Set 0 for a perfect maze.
 */
import { rectanglePolygon, type Polygon } from "../../../geometry/polygon.js";
import type { Rng } from "../../../stats/rng.js";

export interface MazeOptions {
  /** Fraction of the perfect maze's remaining walls removed afterwards (default 0.06). */
  loopFraction?: number;
  /** Wall thickness (default 0.5). */
  thickness?: number;
  /** Half-height of the maze block (default 33: rows span [-33, 33]). */
  halfHeight?: number;
  /** Half-width of the maze block (default 40). */
  halfWidth?: number;
}

export function generateMaze(dims: number, rng: Rng, options: MazeOptions = {}): Polygon[] {
  if (!Number.isInteger(dims) || dims < 2) throw new RangeError(`maze dims must be an integer >= 2, got ${dims}`);
  const N = dims;
  const halfW = options.halfWidth ?? 40;
  const halfH = options.halfHeight ?? 33;
  const half = (options.thickness ?? 0.5) / 2;
  const loopFraction = options.loopFraction ?? 0.06;
  const cw = (2 * halfW) / N;
  const ch = (2 * halfH) / N;

  // Walls: h[r][c] between row r-1 and row r (r = 1..N-1) under column c;
  //        v[r][c] between column c-1 and column c (c = 1..N-1) in row r.
  const h = new Uint8Array(N * N).fill(1);
  const v = new Uint8Array(N * N).fill(1);
  const seen = new Uint8Array(N * N);
  const stack: number[] = [rng.below(N * N)];
  seen[stack[0]!] = 1;
  while (stack.length > 0) {
    const cell = stack[stack.length - 1]!;
    const r = Math.floor(cell / N);
    const c = cell % N;
    const options4: Array<[number, () => void]> = [];
    if (r > 0 && !seen[cell - N]) options4.push([cell - N, () => (h[r * N + c] = 0)]);
    if (r < N - 1 && !seen[cell + N]) options4.push([cell + N, () => (h[(r + 1) * N + c] = 0)]);
    if (c > 0 && !seen[cell - 1]) options4.push([cell - 1, () => (v[r * N + c] = 0)]);
    if (c < N - 1 && !seen[cell + 1]) options4.push([cell + 1, () => (v[r * N + c + 1] = 0)]);
    if (options4.length === 0) {
      stack.pop();
      continue;
    }
    const [next, open] = rng.pick(options4);
    open();
    seen[next] = 1;
    stack.push(next);
  }

  type Wall = { kind: "h" | "v"; r: number; c: number };
  const walls: Wall[] = [];
  for (let r = 1; r < N; r++) for (let c = 0; c < N; c++) if (h[r * N + c]) walls.push({ kind: "h", r, c });
  for (let r = 0; r < N; r++) for (let c = 1; c < N; c++) if (v[r * N + c]) walls.push({ kind: "v", r, c });
  const remove = Math.round(loopFraction * walls.length);
  const kept = rng.shuffle(walls).slice(remove);
  // Back to a stable order (rows, then columns) so the file does not depend on the shuffle's order.
  kept.sort((a, b) => (a.kind === b.kind ? a.r - b.r || a.c - b.c : a.kind === "h" ? -1 : 1));

  return kept.map((w) => {
    if (w.kind === "h") {
      const y = -halfH + w.r * ch;
      return rectanglePolygon(-halfW + w.c * cw, y - half, -halfW + (w.c + 1) * cw, y + half);
    }
    const x = -halfW + w.c * cw;
    return rectanglePolygon(x - half, -halfH + w.r * ch, x + half, -halfH + (w.r + 1) * ch);
  });
}
