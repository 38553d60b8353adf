/**
 * What an EPIC-Bench picture shows without any reasoning, for the audit's cue features: each
 * picture shrunk to a 64 x 48 grid of cells (sharp), then per cell its luminance, saturation and
 * edge strength (luminance differences to the right and below neighbours), and, for the tasks
 * shown an overlay image (FP, VM, AR, CR, PR), which cells the overlay tints: the cells where the
 * overlay differs from its scene picture. The tint is drawn from the reference mask (the release's
 * "mask overlay", paper Table 5); reading where it is takes no reasoning, only a glance at the
 * picture the model is given. Nothing here reads a ground-truth mask.
 */
import sharp from "sharp";
import { readImageFileAsync } from "../../core/file-read.js";
import type { FractionBox } from "./audit-menu.js";

export const GRID_W = 64;
export const GRID_H = 48;
/** A cell is tinted when the overlay differs from the scene by more than this (mean over RGB, 0..1): the release blends 50 % of a mark colour. */
export const TINT_THRESHOLD = 0.08;

export interface Grid {
  /** Luminance 0..1 per cell (row-major, GRID_W x GRID_H). */
  lum: Float64Array;
  /** Saturation (max - min of RGB) 0..1 per cell. */
  sat: Float64Array;
  /** Edge strength per cell: |L(x+1) - L(x)| + |L(y+1) - L(y)|. */
  edge: Float64Array;
  rgb: Float64Array;
}

async function readGridRgb(file: string): Promise<Float64Array> {
  const bytes = await readImageFileAsync(file);
  const { data } = await sharp(bytes).removeAlpha().toColourspace("srgb").resize(GRID_W, GRID_H, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  const out = new Float64Array(GRID_W * GRID_H * 3);
  for (let i = 0; i < out.length; i++) out[i] = data[i]! / 255;
  return out;
}

export function gridOf(rgb: Float64Array): Grid {
  const n = GRID_W * GRID_H;
  const lum = new Float64Array(n), sat = new Float64Array(n), edge = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!];
    lum[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    sat[i] = Math.max(r, g, b) - Math.min(r, g, b);
  }
  for (let y = 0; y < GRID_H; y++) {
    for (let x = 0; x < GRID_W; x++) {
      const i = y * GRID_W + x;
      edge[i] = (x + 1 < GRID_W ? Math.abs(lum[i + 1]! - lum[i]!) : 0) + (y + 1 < GRID_H ? Math.abs(lum[i + GRID_W]! - lum[i]!) : 0);
    }
  }
  return { lum, sat, edge, rgb };
}

/** Cells where `overlay` differs from `scene` by more than TINT_THRESHOLD. */
export function tintOf(scene: Float64Array, overlay: Float64Array): Uint8Array {
  const out = new Uint8Array(GRID_W * GRID_H);
  for (let i = 0; i < out.length; i++) {
    const d = (Math.abs(scene[3 * i]! - overlay[3 * i]!) + Math.abs(scene[3 * i + 1]! - overlay[3 * i + 1]!) + Math.abs(scene[3 * i + 2]! - overlay[3 * i + 2]!)) / 3;
    out[i] = d > TINT_THRESHOLD ? 1 : 0;
  }
  return out;
}

/** Cells of a fraction box: [x0, y0, x1, y1) in grid cells (a box always covers at least one cell). */
function cellsOf(box: readonly [number, number, number, number]): [number, number, number, number] {
  const x0 = Math.min(GRID_W - 1, Math.max(0, Math.floor(box[0] * GRID_W)));
  const y0 = Math.min(GRID_H - 1, Math.max(0, Math.floor(box[1] * GRID_H)));
  const x1 = Math.max(x0 + 1, Math.min(GRID_W, Math.ceil(box[2] * GRID_W)));
  const y1 = Math.max(y0 + 1, Math.min(GRID_H, Math.ceil(box[3] * GRID_H)));
  return [x0, y0, x1, y1];
}

function meanIn(values: ArrayLike<number>, box: readonly [number, number, number, number]): number {
  const [x0, y0, x1, y1] = cellsOf(box);
  let s = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) s += values[y * GRID_W + x]!;
  return s / ((x1 - x0) * (y1 - y0));
}

/** The tint's extent: bounding box and centroid in fractions, its share of the cells, and the centroids of its two halves along the longer side. */
export interface Tint {
  share: number;
  box: [number, number, number, number] | null;
  cx: number;
  cy: number;
  /** Centroids of the tinted cells on either side of the box's middle, along its longer side (two marked areas: FP third-person views). */
  a: [number, number] | null;
  b: [number, number] | null;
}

export function tintExtent(tint: Uint8Array): Tint {
  let n = 0, sx = 0, sy = 0, x0 = GRID_W, y0 = GRID_H, x1 = -1, y1 = -1;
  for (let y = 0; y < GRID_H; y++) {
    for (let x = 0; x < GRID_W; x++) {
      if (!tint[y * GRID_W + x]) continue;
      n++; sx += x + 0.5; sy += y + 0.5;
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1);
    }
  }
  if (n === 0) return { share: 0, box: null, cx: -1, cy: -1, a: null, b: null };
  const wide = x1 - x0 >= y1 - y0;
  const middle = wide ? (x0 + x1) / 2 : (y0 + y1) / 2;
  const side = [{ n: 0, sx: 0, sy: 0 }, { n: 0, sx: 0, sy: 0 }];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!tint[y * GRID_W + x]) continue;
      const s = side[(wide ? x + 0.5 : y + 0.5) < middle ? 0 : 1]!;
      s.n++; s.sx += x + 0.5; s.sy += y + 0.5;
    }
  }
  const centre = (s: { n: number; sx: number; sy: number }): [number, number] | null => (s.n > 0 ? [s.sx / s.n / GRID_W, s.sy / s.n / GRID_H] : null);
  return { share: n / (GRID_W * GRID_H), box: [x0 / GRID_W, y0 / GRID_H, x1 / GRID_W, y1 / GRID_H], cx: sx / n / GRID_W, cy: sy / n / GRID_H, a: centre(side[0]!), b: centre(side[1]!) };
}

/** The pictures of one item read as grids: the scene the answer is given in, and the overlay's tint (if the task has an overlay). */
export interface ItemPictures {
  scene: Grid;
  tint: Uint8Array | null;
}

/**
 * `files`: the item's images in the official order (image[, overlay][, image b]). The answer is
 * given in the last scene picture (Visual Matching: image b); the tint is the overlay against the
 * first picture, which it was drawn on.
 */
export async function readPictures(files: readonly string[], hasOverlay: boolean): Promise<ItemPictures> {
  const grids = await Promise.all(files.map(readGridRgb));
  const sceneRgb = grids.length === 3 ? grids[2]! : grids[0]!;
  return { scene: gridOf(sceneRgb), tint: hasOverlay && grids.length >= 2 ? tintOf(grids[0]!, grids[1]!) : null };
}

/** Item-level cues: luminance and edges of the image halves, mean colour, and the tint's extent (-1 where there is none). */
export function itemCues(p: ItemPictures): Record<string, number> {
  const halves: Record<string, [number, number, number, number]> = { top: [0, 0, 1, 0.5], bottom: [0, 0.5, 1, 1], left: [0, 0, 0.5, 1], right: [0.5, 0, 1, 1] };
  const out: Record<string, number> = {};
  for (const [name, box] of Object.entries(halves)) {
    out[`lum_${name}`] = meanIn(p.scene.lum, box);
    out[`edge_${name}`] = meanIn(p.scene.edge, box);
  }
  out["sat_mean"] = meanIn(p.scene.sat, [0, 0, 1, 1]);
  for (const [k, name] of ["r", "g", "b"].entries()) {
    let s = 0;
    for (let i = 0; i < GRID_W * GRID_H; i++) s += p.scene.rgb[3 * i + k]!;
    out[`${name}_mean`] = s / (GRID_W * GRID_H);
  }
  const t = p.tint ? tintExtent(p.tint) : null;
  out["tint_share"] = t ? t.share : -1;
  out["tint_cx"] = t?.box ? t.cx : -1;
  out["tint_cy"] = t?.box ? t.cy : -1;
  out["tint_x0"] = t?.box ? t.box[0] : -1;
  out["tint_y0"] = t?.box ? t.box[1] : -1;
  out["tint_x1"] = t?.box ? t.box[2] : -1;
  out["tint_y1"] = t?.box ? t.box[3] : -1;
  out["tint_ax"] = t?.a ? t.a[0] : -1;
  out["tint_ay"] = t?.a ? t.a[1] : -1;
  out["tint_bx"] = t?.b ? t.b[0] : -1;
  out["tint_by"] = t?.b ? t.b[1] : -1;
  return out;
}

/** Cues of a box candidate: what its region looks like and how much of the tint it holds. */
export function boxCues(p: ItemPictures, box: FractionBox): Record<string, number> {
  if (!box) return { lum: -1, sat: -1, edge: -1, tint_inside: -1, tint_held: -1 };
  const out: Record<string, number> = { lum: meanIn(p.scene.lum, box), sat: meanIn(p.scene.sat, box), edge: meanIn(p.scene.edge, box) };
  if (!p.tint) return { ...out, tint_inside: -1, tint_held: -1 };
  const total = p.tint.reduce((s, v) => s + v, 0);
  const inside = meanIn(p.tint, box);
  const [x0, y0, x1, y1] = cellsOf(box);
  return { ...out, tint_inside: inside, tint_held: total > 0 ? (inside * (x1 - x0) * (y1 - y0)) / total : 0 };
}

/** Cues of a route: edges and luminance along it (20 samples) and how near its ends come to the tint. */
export function routeCues(p: ItemPictures, points: ReadonlyArray<readonly [number, number]>): Record<string, number> {
  const samples: Array<[number, number]> = [];
  for (let i = 1; i < points.length; i++) {
    for (let k = 0; k < 10; k++) {
      const t = k / 10;
      samples.push([points[i - 1]![0] * (1 - t) + points[i]![0] * t, points[i - 1]![1] * (1 - t) + points[i]![1] * t]);
    }
  }
  samples.push([points[points.length - 1]![0], points[points.length - 1]![1]]);
  const cell = ([x, y]: [number, number]) => Math.min(GRID_H - 1, Math.max(0, Math.floor(y * GRID_H))) * GRID_W + Math.min(GRID_W - 1, Math.max(0, Math.floor(x * GRID_W)));
  const mean = (values: ArrayLike<number>) => samples.reduce((s, q) => s + values[cell(q)]!, 0) / samples.length;
  const out: Record<string, number> = { edge_along: mean(p.scene.edge), lum_along: mean(p.scene.lum) };
  const t = p.tint ? tintExtent(p.tint) : null;
  const end = points[points.length - 1]!, start = points[0]!;
  out["tint_along"] = p.tint ? mean(p.tint) : -1;
  out["end_to_tint"] = t?.box ? Math.hypot(end[0] - t.cx, end[1] - t.cy) : -1;
  out["start_to_tint"] = t?.box ? Math.hypot(start[0] - t.cx, start[1] - t.cy) : -1;
  return out;
}
