/**
 * The outline of a model seen from directly above: its mesh's triangles rasterised onto a grid
 * over the footprint box, then tested for each shape: round (a disc or an oval), rectangular
 * (square when its sides are within 15% of each other), L-shaped. Geometry's descriptions name
 * these shapes (paper §3.2.1: "geometric shapes or structural forms").
 *
 * Each test has a clear zone and a dead band: a model that is nearly round or nearly rectangular
 * is neither in nor out of that shape, and a description that would have to decide about it is
 * not written.
 */

/** Cells per side of the footprint grid. */
const GRID = 48;

export type OutlineShape = "round" | "square" | "rectangular" | "L-shaped";

/**
 * Whether the outline is each shape: true, false, or null in the dead band between (a
 * description that would have to decide about it is not written). Square is a rectangular
 * outline whose sides are within 15% of each other (over 30% apart: not square).
 */
export type Outline = Record<OutlineShape, boolean | null>;

/** Triangles in the horizontal plane: (u, v) pairs, three per triangle. */
export type FlatTriangles = ArrayLike<number>;

/**
 * The filled cells of a GRID x GRID raster of the triangles over their bounding box: a cell is
 * filled when its centre lies in a triangle, or a triangle's corner lies in it (thin slivers).
 */
export function rasterOutline(tri: FlatTriangles): { cells: Uint8Array; width: number; depth: number } {
  let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
  for (let i = 0; i + 1 < tri.length; i += 2) {
    minU = Math.min(minU, tri[i]!); maxU = Math.max(maxU, tri[i]!);
    minV = Math.min(minV, tri[i + 1]!); maxV = Math.max(maxV, tri[i + 1]!);
  }
  const cells = new Uint8Array(GRID * GRID);
  const width = maxU - minU, depth = maxV - minV;
  if (!(width > 0 && depth > 0)) return { cells, width: 0, depth: 0 };
  const gx = (u: number) => ((u - minU) / width) * GRID, gy = (v: number) => ((v - minV) / depth) * GRID;
  const clampCell = (x: number) => Math.min(GRID - 1, Math.max(0, Math.floor(x)));
  for (let t = 0; t + 5 < tri.length; t += 6) {
    const ax = gx(tri[t]!), ay = gy(tri[t + 1]!), bx = gx(tri[t + 2]!), by = gy(tri[t + 3]!), cx = gx(tri[t + 4]!), cy = gy(tri[t + 5]!);
    for (const [x, y] of [[ax, ay], [bx, by], [cx, cy]] as const) cells[clampCell(y) * GRID + clampCell(x)] = 1;
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (area === 0) continue;
    const x0 = clampCell(Math.min(ax, bx, cx)), x1 = clampCell(Math.max(ax, bx, cx));
    const y0 = clampCell(Math.min(ay, by, cy)), y1 = clampCell(Math.max(ay, by, cy));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5, py = y + 0.5;
        const w0 = (bx - px) * (cy - py) - (cx - px) * (by - py);
        const w1 = (cx - px) * (ay - py) - (ax - px) * (cy - py);
        const w2 = (ax - px) * (by - py) - (bx - px) * (ay - py);
        if ((w0 >= 0 && w1 >= 0 && w2 >= 0) || (w0 <= 0 && w1 <= 0 && w2 <= 0)) cells[y * GRID + x] = 1;
      }
    }
  }
  return { cells, width, depth };
}

/** Share of the inscribed ellipse's cells filled, over the union (IoU of the outline with the ellipse). */
function ellipseIou(cells: Uint8Array): number {
  let inter = 0, union = 0;
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const dx = (x + 0.5) / GRID - 0.5, dy = (y + 0.5) / GRID - 0.5;
      const inEllipse = dx * dx + dy * dy <= 0.25;
      const filled = cells[y * GRID + x] === 1;
      if (inEllipse && filled) inter++;
      if (inEllipse || filled) union++;
    }
  }
  return union === 0 ? 0 : inter / union;
}

/** The largest empty rectangle set in any corner of the grid, as a share of the grid. */
function emptyCornerShare(cells: Uint8Array): number {
  let best = 0;
  for (const [flipX, flipY] of [[false, false], [true, false], [false, true], [true, true]] as const) {
    const at = (x: number, y: number) => cells[(flipY ? GRID - 1 - y : y) * GRID + (flipX ? GRID - 1 - x : x)]!;
    let run = GRID;
    for (let x = 0; x < GRID; x++) {
      let h = 0;
      while (h < GRID && at(x, h) === 0) h++;
      run = Math.min(run, h);
      if (run === 0) break;
      best = Math.max(best, (x + 1) * run);
    }
  }
  return best / (GRID * GRID);
}

/** Yes at or above `yes`, no below `no`, undecided between. */
const band = (value: number, no: number, yes: number): boolean | null => (value >= yes ? true : value < no ? false : null);

/**
 * The outline of a rasterised footprint. Round: IoU with the inscribed ellipse >= 0.9 (dead band
 * 0.8-0.9). Rectangular: at least 92% of the box filled (dead band 85-92%). L-shaped: an empty
 * corner rectangle of 20-60% of the box with the rest at least 92% filled (15% and 85% for "no").
 */
export function classifyOutline(raster: { cells: Uint8Array; width: number; depth: number }): Outline {
  const { cells, width, depth } = raster;
  if (!(width > 0 && depth > 0)) return { round: null, square: null, rectangular: null, "L-shaped": null };
  const aspect = Math.max(width, depth) / Math.min(width, depth);
  let filled = 0;
  for (const c of cells) filled += c;
  const fill = filled / cells.length;
  const corner = emptyCornerShare(cells);
  const restFill = corner < 1 ? filled / (cells.length * (1 - corner)) : 0;
  const rectangular = band(fill, 0.85, 0.92);
  const lShaped = corner > 0.6 ? false : band(Math.min(corner / 0.2, restFill / 0.92), Math.min(0.15 / 0.2, 0.85 / 0.92), 1);
  const square = rectangular === false ? false : rectangular === true && aspect <= 1.15 ? true : aspect > 1.3 ? false : null;
  return { round: band(ellipseIou(cells), 0.8, 0.9), square, rectangular, "L-shaped": lShaped };
}

/** A mesh's triangles seen from above: model x and z (the models are y-up; mesh.ts). */
export function topViewTriangles(parts: ReadonlyArray<{ positions: ArrayLike<number>; indices: ArrayLike<number> }>): Float64Array {
  const total = parts.reduce((n, p) => n + p.indices.length - (p.indices.length % 3), 0);
  const out = new Float64Array(total * 2);
  let k = 0;
  for (const p of parts) {
    for (let t = 0; t + 2 < p.indices.length; t += 3) {
      for (let c = 0; c < 3; c++) {
        const i = p.indices[t + c]! * 3;
        out[k++] = p.positions[i]!;
        out[k++] = p.positions[i + 2]!;
      }
    }
  }
  return out;
}
