/**
 * The constant-shaped replies a blind model may give an EPIC-Bench sample (the audit's candidate
 * menu, audit.ts), their reply text in each task's output contract, and the credit each earns.
 *
 * EPIC answers are boxes, counts, feasibility and paths scored against masks (paper Sec. 4.2), so
 * the answer space is unbounded. A blind model can still pick among shapes that do not depend on
 * the picture: no target, the whole image, a half, a third, a quadrant, the centre box; a count of
 * 1 or 2; feasible or not; a handful of fixed routes. Each shape is given as fractions of the image
 * and put in absolute pixels of the scored image (values above 1 and at most max(W, H), so the
 * scorer's "auto" coordinate mode reads them as pixels, coords.ts resolveCoordMode).
 *
 * Box credits are computed once per sample from a summed-area table of the ground-truth mask (one
 * decode, then O(1) per box) with the scorer's own arithmetic (score.ts localizationScore,
 * countScore, binaryScore, weightsFor, scoreSample's weighted sum); path credits come from the
 * scorer itself (score.ts scoreSample). The audit test checks every label against scoreItem.
 */
import { decodeRleUnion } from "../../geometry/rle.js";
import { popcount32, type BitMask } from "../../geometry/mask.js";
import { boxesToPixels } from "./coords.js";
import { binaryScore, countScore, groundTruth, scoreSample, weightsFor, type GroundTruth } from "./score.js";
import { gtFields, scoringOf, type LeafTask } from "./taxonomy.js";
import type { EpicItem } from "./types.js";

/** A box in fractions of the image: [left, top, right, bottom]; null = no box (no target). */
export type FractionBox = readonly [number, number, number, number] | null;

export interface ShapeSpec {
  name: string;
  box: FractionBox;
}

/** The shapes of the menu, in menu order (index = candidate feature `shape`). */
export const SHAPES: readonly ShapeSpec[] = [
  { name: "empty", box: null },
  { name: "whole image", box: [0, 0, 1, 1] },
  { name: "top half", box: [0, 0, 1, 0.5] },
  { name: "bottom half", box: [0, 0.5, 1, 1] },
  { name: "left half", box: [0, 0, 0.5, 1] },
  { name: "right half", box: [0.5, 0, 1, 1] },
  { name: "top third", box: [0, 0, 1, 1 / 3] },
  { name: "middle band", box: [0, 1 / 3, 1, 2 / 3] },
  { name: "bottom third", box: [0, 2 / 3, 1, 1] },
  { name: "left third", box: [0, 0, 1 / 3, 1] },
  { name: "middle column", box: [1 / 3, 0, 2 / 3, 1] },
  { name: "right third", box: [2 / 3, 0, 1, 1] },
  { name: "top left quadrant", box: [0, 0, 0.5, 0.5] },
  { name: "top right quadrant", box: [0.5, 0, 1, 0.5] },
  { name: "bottom left quadrant", box: [0, 0.5, 0.5, 1] },
  { name: "bottom right quadrant", box: [0.5, 0.5, 1, 1] },
  { name: "centre box", box: [0.25, 0.25, 0.75, 0.75] },
];
export const HALF_SHAPES = ["top half", "bottom half", "left half", "right half"] as const;

/** A route in fractions of the image (x of W - 1, y of H - 1), at least three points (format.ts MIN_PATH_POINTS). */
export interface RouteSpec {
  name: string;
  points: ReadonlyArray<readonly [number, number]>;
}

/** Fixed routes; the first is the `full-image` baseline's straight path up the middle. */
export const ROUTES: readonly RouteSpec[] = [
  { name: "straight up the middle", points: [[0.5, 1], [0.5, 0.5], [0.5, 0]] },
  { name: "up to the centre", points: [[0.5, 1], [0.5, 0.75], [0.5, 0.5]] },
  { name: "up and to the left", points: [[0.5, 1], [0.35, 0.75], [0.2, 0.5]] },
  { name: "up and to the right", points: [[0.5, 1], [0.65, 0.75], [0.8, 0.5]] },
  { name: "far left", points: [[0.5, 1], [0.3, 0.8], [0.1, 0.6]] },
  { name: "far right", points: [[0.5, 1], [0.7, 0.8], [0.9, 0.6]] },
  { name: "across the lower part left to right", points: [[0.1, 0.75], [0.5, 0.75], [0.9, 0.75]] },
  { name: "across the middle left to right", points: [[0.1, 0.5], [0.5, 0.5], [0.9, 0.5]] },
  { name: "bottom left to top right", points: [[0.1, 0.9], [0.5, 0.6], [0.9, 0.3]] },
  { name: "bottom right to top left", points: [[0.9, 0.9], [0.5, 0.6], [0.1, 0.3]] },
];

/** One menu entry: a shape (boxes tasks) or a route (path tasks), with the count and feasibility it states. */
export interface MenuEntry {
  name: string;
  shape?: number;
  route?: number;
  count?: number;
  feasible?: boolean;
}

export type ReplyKind = "counted" | "boxes" | "placement" | "path";

export function replyKind(leaf: LeafTask): ReplyKind {
  const s = scoringOf(leaf);
  return s === "path" ? "path" : s === "localization+count" ? "counted" : s === "localization+feasibility" ? "placement" : "boxes";
}

/**
 * The menu of a task kind: counted tasks pair "empty" with count 0 and every box with count 1 or 2;
 * placement pairs every shape with feasible true and false; path tasks take the routes.
 */
export function menuOf(kind: ReplyKind): MenuEntry[] {
  if (kind === "path") return ROUTES.map((r, route) => ({ name: `path ${r.name}`, route }));
  const out: MenuEntry[] = [];
  SHAPES.forEach((s, shape) => {
    if (kind === "boxes") out.push({ name: s.name, shape });
    else if (kind === "counted") {
      if (s.box === null) out.push({ name: "empty, count 0", shape, count: 0 });
      else for (const count of [1, 2]) out.push({ name: `${s.name}, count ${count}`, shape, count });
    } else {
      const order = s.box === null ? [false, true] : [true, false];
      for (const feasible of order) out.push({ name: `${s.name}, ${feasible ? "feasible" : "not feasible"}`, shape, feasible });
    }
  });
  return out;
}

/** A fraction box in pixels of a W x H image (rounded), or null. */
export function pixelBox(box: FractionBox, width: number, height: number): [number, number, number, number] | null {
  if (!box) return null;
  return [Math.round(box[0] * width), Math.round(box[1] * height), Math.round(box[2] * width), Math.round(box[3] * height)];
}

/** Route points in pixels: x of W - 1, y of H - 1 (so the bottom row is H - 1), rounded. */
export function pixelRoute(points: RouteSpec["points"], width: number, height: number): number[][] {
  return points.map(([x, y]) => [Math.round(x * (width - 1)), Math.round(y * (height - 1))]);
}

/** A reply in the task's JSON contract (templates/epic.yaml; the keys baselines.ts writes). */
export function replyJson(leaf: LeafTask, answer: { boxes?: number[][]; count?: number; feasible?: boolean; points?: number[][] }): string {
  const kind = replyKind(leaf);
  if (kind === "path") return JSON.stringify({ points: answer.points ?? [] });
  const out: Record<string, unknown> = {};
  if (kind === "counted") out[leaf.category === "TargetLocalization" ? "number_of_objects" : "number_of_instances"] = answer.count ?? 0;
  out["bounding_boxes"] = answer.boxes ?? [];
  if (kind === "placement") out["placement_feasibility"] = answer.feasible ?? false;
  return JSON.stringify(out);
}

/** The reply of one menu entry for an item of W x H pixels. */
export function entryReply(leaf: LeafTask, entry: MenuEntry, width: number, height: number): string {
  if (entry.route !== undefined) return replyJson(leaf, { points: pixelRoute(ROUTES[entry.route]!.points, width, height) });
  const box = pixelBox(SHAPES[entry.shape!]!.box, width, height);
  return replyJson(leaf, { boxes: box ? [box] : [], ...(entry.count !== undefined ? { count: entry.count } : {}), ...(entry.feasible !== undefined ? { feasible: entry.feasible } : {}) });
}

// ------------------------------------------------------------------ credits

/** The ground truth an item's box replies are scored on, decoded once. */
export interface BoxTruth {
  gt: GroundTruth;
  /** The scorer's "no target": no instances, or a stated count of 0. */
  empty: boolean;
  mask: BitMask | null;
  /** Pixel columns and rows where menu boxes start or end (the pixel boxes of SHAPES). */
  xs: number[];
  ys: number[];
  /** Mask pixels in [0, xs[i]) x [0, ys[j]), at j * xs.length + i. */
  corner: Float64Array | null;
  area: number;
  /** Centroid of the mask in fractions of the image (NaN when empty). */
  cx: number;
  cy: number;
}

/** Bit positions of a 32-bit word whose bit j is set: the masks that sum set bits' positions in five popcounts. */
const POSITION_BITS = [0xaaaaaaaa, 0xcccccccc, 0xf0f0f0f0, 0xff00ff00, 0xffff0000];

/** Set bits of row `y` in columns [0, x). */
function rowCountBefore(mask: BitMask, y: number, x: number): number {
  const base = y * mask.stride;
  let n = 0;
  for (let k = 0; k < x >>> 5; k++) n += popcount32(mask.words[base + k]!);
  if (x & 31) n += popcount32(mask.words[base + (x >>> 5)]! & ((1 << (x & 31)) - 1));
  return n;
}

export function boxTruth(item: EpicItem): BoxTruth {
  const gt = groundTruth(item);
  const rles = item.masks[gtFields(item.leaf).localizationMask!];
  // score.ts localizationScore: no RLEs, or a count of 0, is "no target".
  const empty = rles === undefined || rles === null || (Array.isArray(rles) && rles.length === 0) || (gt.count !== null && gt.count === 0);
  const mask = empty ? null : decodeRleUnion(rles, { strict: false });
  if (!mask) return { gt, empty, mask: null, xs: [], ys: [], corner: null, area: 0, cx: NaN, cy: NaN };
  const { width: W, height: H, stride, words } = mask;
  // The mask's own size (the scorer's frame) gives the menu boxes' pixel edges.
  const edges = (k: 0 | 1, size: number) => [...new Set(SHAPES.flatMap((s) => (s.box ? [Math.round(s.box[k] * size), Math.round(s.box[k + 2]! * size)] : [])))].sort((a, b) => a - b);
  const xs = edges(0, W), ys = edges(1, H);
  const corner = new Float64Array(xs.length * ys.length);
  const running = new Float64Array(xs.length);
  let area = 0, sx = 0, sy = 0, j = 0;
  for (let y = 0; y <= H; y++) {
    while (j < ys.length && ys[j] === y) corner.set(running, j++ * xs.length);
    if (y === H) break;
    let row = 0;
    for (let k = 0; k < stride; k++) {
      const v = words[y * stride + k]!;
      if (v === 0) continue;
      const n = popcount32(v);
      row += n;
      sx += 32 * k * n;
      POSITION_BITS.forEach((m, bit) => (sx += (1 << bit) * popcount32(v & m)));
    }
    area += row;
    sy += y * row;
    xs.forEach((x, i) => (running[i] = running[i]! + rowCountBefore(mask, y, x)));
  }
  return { gt, empty, mask, xs, ys, corner, area, cx: area > 0 ? (sx / area + 0.5) / W : NaN, cy: area > 0 ? (sy / area + 0.5) / H : NaN };
}

/** Mask pixels inside the pixel box [x1, y1, x2, y2): from the corner table when its edges are menu edges, else counted. */
function pixelsInside(t: BoxTruth, b: readonly number[]): number {
  const [x1, y1, x2, y2] = b as [number, number, number, number];
  const [i1, i2, j1, j2] = [t.xs.indexOf(x1), t.xs.indexOf(x2), t.ys.indexOf(y1), t.ys.indexOf(y2)];
  if (i1 >= 0 && i2 >= 0 && j1 >= 0 && j2 >= 0) {
    const at = (i: number, j: number) => t.corner![j * t.xs.length + i]!;
    return at(i2, j2) - at(i2, j1) - at(i1, j2) + at(i1, j1);
  }
  let n = 0;
  for (let y = y1; y < y2; y++) n += rowCountBefore(t.mask!, y, x2) - rowCountBefore(t.mask!, y, x1);
  return n;
}

/** score.ts localizationScore for a list of at most one raw box, from the summed-area table. */
function localization(t: BoxTruth, raw: number[][]): number {
  if (raw.length === 0) return t.empty ? 1 : 0;
  if (t.empty || !t.mask) return 0;
  const { width: w, height: h } = t.mask;
  const boxes = boxesToPixels(raw, "auto", h, w);
  if (boxes.length === 0) return t.area === 0 ? 1 : 0; // nothing drawn: IoU of two empty masks is 1
  const b = boxes[0]!;
  const inter = pixelsInside(t, b);
  const union = (b[2] - b[0]) * (b[3] - b[1]) + t.area - inter;
  return union === 0 ? 1 : inter / union;
}

/**
 * The credit of each menu entry for an item: the score scoreItem gives the entry's reply with the
 * default scoring (official rules, "auto" coordinates, the joint mask-overlay prompt).
 */
export function menuCredits(item: EpicItem, menu: readonly MenuEntry[], truth?: BoxTruth): number[] {
  const kind = replyKind(item.leaf);
  if (kind === "path") {
    return menu.map((entry) => {
      const points = pixelRoute(ROUTES[entry.route!]!.points, item.width, item.height);
      return scoreSample(item, { localization: ["Not Required"], count: ["Not Required"], path: points, binary: ["Not Required"] }, { coordMode: "auto", rules: "official" }).score;
    });
  }
  const t = truth ?? boxTruth(item);
  return menu.map((entry) => {
    const box = pixelBox(SHAPES[entry.shape!]!.box, item.width, item.height);
    const loc = localization(t, box ? [box] : []);
    // score.ts scoreSample's weighted sum, term by term.
    if (kind === "counted") {
      const wt = weightsFor(item.leaf, t.gt, "official");
      return wt.localization * loc + wt.count * countScore(entry.count, t.gt, "official").score + 0 * 0 + 0 * 0;
    }
    if (kind === "placement") return 0.5 * loc + 0 * 0 + 0 * 0 + 0.5 * binaryScore(entry.feasible, t.gt.feasibility).score;
    return 1 * loc + 0 * 0 + 0 * 0 + 0 * 0;
  });
}
