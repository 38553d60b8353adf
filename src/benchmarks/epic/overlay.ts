/**
 * EPIC-Bench overlays: one PNG per result showing why it scored what it did. The ground-truth
 * mask (decoded from the item's RLE) is blended over the scored image with its outline; the
 * model's boxes, or its path, are drawn on top in image pixels (converted from the reply's
 * coordinate system as the scorer converts them); the caption carries the parsed answer, the
 * truth, the sample score and every recorded component.
 *
 * Colours (MARK of src/media/draw.ts):
 * - truth: target / ground / feasible area green, path goal area orange, Exo start region blue,
 *   all blended at FILL_ALPHA with a solid outline;
 * - boxes: purple when the box covers at least one scored ground-truth pixel, red when it covers
 *   none (every box is red on a sample the scorer treats as "no target");
 * - path: purple line through the points the scorer kept; first point blue, later points purple
 *   inside the feasible area (the scorer's own pixel lookup) and red outside, a ring on the last
 *   one; points dropped by the neighbour filter grey; the Ego start (bottom centre) a blue ring.
 */
import { existsSync } from "node:fs";
import { createCanvas, loadImage, type Image, type SKRSContext2D } from "@napi-rs/canvas";
import type { Answer, ItemResult, OverlayImage, OverlayOptions } from "../../core/benchmark.js";
import { readImageFile } from "../../core/file-read.js";
import { asRecord } from "../../core/results.js";
import { labelComponents } from "../../geometry/components.js";
import { pointToRegionDistance } from "../../geometry/distance-transform.js";
import { BitMask, intersectionCount } from "../../geometry/mask.js";
import { decodeRleUnion, drawRleUnion, readRleUnion, runsArea, type RleUnionRuns } from "../../geometry/rle.js";
import { box, dot, finish, label, MARK, polyline, ring } from "../../media/draw.js";
import { boxesToPixels, pointsToPixels } from "./coords.js";
import { filterNearbyPoints, groundTruth, splitRegions, type GroundTruth } from "./score.js";
import { gtFields } from "./taxonomy.js";
import type { EpicItem } from "./types.js";
import { readBinary } from "./values.js";

/** Opacity of the ground-truth fills. */
export const FILL_ALPHA = 0.35;
/** White columns between side-by-side images, in picture pixels. */
const GAP = 8;

type Kind = "path" | "placement" | "counted" | "localization";
type Rgb = readonly [number, number, number];

/** Where one image sits on the canvas. */
interface Panel {
  image: Image;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Mask pixels -> canvas: canvas x = x0 + mask x · kx (the mask's pixel i spans [i·kx, (i+1)·kx)). */
interface Frame {
  x0: number;
  y0: number;
  kx: number;
  ky: number;
  /** Longest side of the panel; mark sizes follow it. */
  side: number;
}

/** A truth region: blended fill and outline. */
interface Layer {
  mask: BitMask;
  color: string;
}

/** The parts of a result the picture and caption use, every field checked. */
interface Reading {
  /** "answer: …" / "unreadable: …" / "request failed: …" / "no answer: …" */
  answerLine: string;
  requestFailed: boolean;
  unreadable: boolean;
  score: number | null;
  components: Record<string, number | null>;
  weights: Record<string, number | null>;
  error: string | null;
  invalid: boolean;
  coordMode: string;
  boxes: number[][];
  points: number[][];
  predCount: number | null;
  predFeasible: boolean | null;
  path: Record<string, unknown> | null;
  /**
   * A mask-format reply (official format_type "mask"), read as runs once (its stated size may be
   * anything: drawBoxes draws it only at the picture's size); null when nothing decodes.
   */
  maskReply: { union: RleUnionRuns | null; empty: boolean } | undefined;
}

// ------------------------------------------------------------------ entry point

/** The overlay of one EPIC-Bench result (any status); throws only when an image file is missing or unreadable. */
export async function epicOverlay(item: EpicItem, result: ItemResult, options: OverlayOptions = {}): Promise<OverlayImage> {
  const reference = options.reference !== false;
  const kind = kindOf(item);
  const gt = safeGroundTruth(item);
  const reading = readResult(result, kind);
  const { files, marked } = panelFiles(item);
  const images = await Promise.all(files.map(readImage));
  const { panels, width, height, scale } = layoutPanels(images, marked, options.maxSide ?? 1024);

  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = MARK.paper;
  ctx.fillRect(0, 0, width, height);
  for (const p of panels) ctx.drawImage(p.image, p.x, p.y, p.w, p.h);

  const target = panels[marked]!;
  const drawn = kind === "path" ? drawPath(ctx, item, target, reading, reference) : drawBoxes(ctx, item, target, reading, gt, reference);
  const size = Math.max(8, Math.round(Math.max(target.w, target.h) / 40));
  panels.forEach((p, i) => panelLabel(ctx, p, i === marked ? cornerText(kind, reading, gt) : "reference", size));

  const caption = [`task: ${item.task}`, reading.answerLine, drawn.truth, ...scoreLines(kind, reading), ...(drawn.note ? [drawn.note] : [])];
  return finish({ canvas, ctx, width, height, scale }, caption);
}

// ------------------------------------------------------------------ reading the result

function finite(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Lists of at least `width` finite numbers; anything else is dropped. */
function numberRows(value: unknown, width: number): number[][] {
  if (!Array.isArray(value)) return [];
  return value.filter((row): row is number[] => Array.isArray(row) && row.length >= width && row.slice(0, width).every((v) => finite(v) !== null)).map((row) => row.slice(0, width));
}

function numberRecord(value: unknown): Record<string, number | null> {
  return Object.fromEntries(Object.entries(asRecord(value)).map(([k, v]) => [k, finite(v)]));
}

/** Same decision as the scorer (score.ts scoreSample). */
function kindOf(item: EpicItem): Kind {
  if (item.leaf.group === "FeasiblePath") return "path";
  if (item.leaf.leaf === "PlacementRegion") return "placement";
  return gtFields(item.leaf).countField ? "counted" : "localization";
}

function safeGroundTruth(item: EpicItem): GroundTruth {
  try {
    return groundTruth(item);
  } catch {
    return { count: null, preciseCount: false, countInDescription: false, feasibility: null };
  }
}

function readResult(result: ItemResult | null | undefined, kind: Kind): Reading {
  const r = asRecord(result);
  const answer = asRecord(r["answer"]) as Partial<Answer>;
  const failed = r["status"] === "error";
  const detail = failed ? {} : asRecord(r["detail"]);
  const value = asRecord(answer.value);
  const reading: Reading = {
    answerLine: "",
    requestFailed: failed,
    unreadable: !failed && answer.status === "unparseable",
    score: finite(detail["score"]),
    components: numberRecord(detail["components"]),
    weights: numberRecord(detail["weights"]),
    error: text(detail["error"]),
    invalid: detail["invalid"] === true,
    coordMode: text(detail["coordMode"]) ?? "auto",
    boxes: numberRows(detail["boxes"], 4),
    points: numberRows(detail["points"], 2),
    predCount: finite(detail["predCount"]),
    predFeasible: kind === "placement" && !failed ? readBinary(value["binary"]) : null,
    path: Object.keys(asRecord(detail["path"])).length > 0 ? asRecord(detail["path"]) : null,
    maskReply: value["formatType"] === "mask" ? readMaskReply(value["localization"] ?? null) : undefined,
  };
  reading.answerLine = answerLine(r, answer, reading, kind);
  return reading;
}

function answerLine(r: Record<string, unknown>, answer: Partial<Answer>, reading: Reading, kind: Kind): string {
  if (reading.requestFailed) {
    const error = asRecord(asRecord(r["response"])["error"]);
    return `request failed: ${text(error["message"]) ?? text(error["kind"]) ?? "no message recorded"}`;
  }
  if (reading.unreadable) return `unreadable: ${text(answer.reason) ?? "no reason recorded"}`;
  if (answer.status === "missing" || answer.status === "failed") return `no answer: ${text(answer.reason) ?? answer.status}`;
  if (answer.status !== "ok") return "no answer recorded";
  const parts: string[] = [];
  const rows = kind === "path" ? reading.points : reading.boxes;
  const mode = rows.length > 0 ? ` (${reading.coordMode})` : "";
  if (reading.maskReply !== undefined && kind !== "path") parts.push(`mask (format_type mask): ${describeReplyMask(reading.maskReply)}`);
  else parts.push(`${kind === "path" ? `path of ${plural(rows.length, "point")}` : plural(rows.length, "box", "boxes")}${mode}${listed(rows)}`);
  if (kind === "counted") parts.push(`count ${reading.predCount ?? "unreadable"}`);
  if (kind === "placement") parts.push(`feasible: ${yesNo(reading.predFeasible)}`);
  return `answer: ${parts.join("; ")}`;
}

// ------------------------------------------------------------------ formatting

/** Up to 4 decimals, trailing zeros dropped; "n/a" for a missing value. */
function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "n/a" : String(Number(value.toFixed(4)));
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function yesNo(value: boolean | null): string {
  return value === null ? "unreadable" : value ? "yes" : "no";
}

/** The first few rows as "[a, b, c, d]" (points as "(x, y)"), for the caption. */
function listed(rows: number[][], limit = 6): string {
  if (rows.length === 0) return "";
  const shown = rows.slice(0, limit).map((row) => {
    const inner = row.map((v) => String(Number(v.toFixed(2)))).join(", ");
    return row.length === 2 ? `(${inner})` : `[${inner}]`;
  });
  return `: ${shown.join(" ")}${rows.length > limit ? ` … (+${rows.length - limit})` : ""}`;
}

const COMPONENT_NAMES: Record<string, string> = { localization: "IoU", count: "count", binary: "feasibility", path: "path" };

function scoreLines(kind: Kind, reading: Reading): string[] {
  if (reading.requestFailed) return ["score: not scored (the request failed; counted as an error, not as a wrong answer)"];
  if (reading.score === null) return ["score: none recorded"];
  const terms = Object.keys(COMPONENT_NAMES)
    .filter((key) => (reading.weights[key] ?? 0) > 0)
    .map((key) => `${formatNumber(reading.weights[key])} × ${COMPONENT_NAMES[key]} ${formatNumber(reading.components[key])}`);
  const lines = [`score ${formatNumber(reading.score)}${terms.length > 0 ? ` = ${terms.join(" + ")}` : ""}`];
  if (kind === "path" && reading.path) lines.push(pathPartsLine(reading.path));
  if (reading.error) lines.push(`scorer: ${reading.error}${reading.invalid ? " (invalid reply)" : ""}`);
  return lines;
}

function pathPartsLine(path: Record<string, unknown>): string {
  const part = (key: string) => formatNumber(finite(path[key]));
  const kept = finite(path["pointsAfterFilter"]);
  const before = finite(path["pointsBeforeFilter"]);
  const dsg = finite(path["startEndDistance"]);
  return `path parts: start/end ${part("startEnd")}, feasibility ${part("feasibility")}, away from start ${part("awayStart")}, toward goal ${part("towardEnd")}, continuity ${part("continuity")}; points kept ${kept ?? "?"} of ${before ?? "?"}; D_SG ${dsg === null ? "n/a" : `${Number(dsg.toFixed(2))} px`}`;
}

/** The small label in the marked image's corner. */
function cornerText(kind: Kind, reading: Reading, gt: GroundTruth): string {
  const parts = [reading.requestFailed ? "request failed" : reading.unreadable ? "unreadable" : reading.score === null ? "no score" : `score ${Number(reading.score.toFixed(2))}`];
  if (kind === "counted" && !reading.requestFailed) parts.push(`count ${reading.predCount ?? "?"} (truth ${gt.count ?? "?"})`);
  if (kind === "placement" && !reading.requestFailed) parts.push(`feasible ${reading.predFeasible === null ? "?" : yesNo(reading.predFeasible)} (truth ${gt.feasibility === null ? "?" : yesNo(gt.feasibility)})`);
  return parts.join(" · ");
}

// ------------------------------------------------------------------ images and layout

/** The images shown, in the official order, and which one the answer is drawn on (Visual Matching: image b, next to image a's reference overlay). */
function panelFiles(item: EpicItem): { files: string[]; marked: number } {
  const images = Array.isArray(item.images) ? item.images : [];
  if (images.length === 0) throw new Error(`EPIC-Bench overlay: ${item.id} lists no image`);
  if (item.leaf.leaf === "VisualMatching" && images.length >= 3) return { files: [images[1]!, images[2]!], marked: 1 };
  if (item.leaf.leaf === "VisualMatching") return { files: images, marked: images.length - 1 };
  return { files: images.slice(0, 2), marked: 0 };
}

async function readImage(file: string): Promise<Image> {
  if (!existsSync(file)) throw new Error(`EPIC-Bench overlay: image not found: ${file}`);
  try {
    return await loadImage(readImageFile(file));
  } catch (error) {
    throw new Error(`EPIC-Bench overlay: cannot read image ${file}: ${(error as Error).message}`);
  }
}

/**
 * Images side by side, each scaled to the marked image's height, the whole fitted to maxSide
 * (never enlarged). A single image gets exactly pictureOf's size.
 */
function layoutPanels(images: Image[], marked: number, maxSide: number): { panels: Panel[]; width: number; height: number; scale: number } {
  const base = images[marked]!;
  const baseH = Math.max(1, base.height);
  const widths = images.map((im) => (Math.max(1, im.width) * baseH) / Math.max(1, im.height));
  const gaps = GAP * (images.length - 1);
  // Side by side, each panel's rounding may add half a pixel: keep one pixel of slack per extra panel.
  const room = Math.max(1, maxSide - gaps - (images.length - 1));
  const scale = Math.min(1, maxSide / baseH, room / widths.reduce((s, w) => s + w, 0));
  const height = Math.max(1, Math.round(baseH * scale));
  let x = 0;
  const panels = images.map((image, i) => {
    const w = Math.max(1, Math.round(widths[i]! * scale));
    const panel = { image, x, y: 0, w, h: height };
    x += w + GAP;
    return panel;
  });
  return { panels, width: x - GAP, height, scale };
}

/** A small label in a panel's top-left corner, cut off at the panel's edge. */
function panelLabel(ctx: SKRSContext2D, panel: Panel, words: string, size: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(panel.x, panel.y, panel.w, panel.h);
  ctx.clip();
  label(ctx, words, panel.x + 1, panel.y + 1, { size });
  ctx.restore();
}

function frameOf(panel: Panel, maskW: number, maskH: number): Frame {
  return { x0: panel.x, y0: panel.y, kx: panel.w / maskW, ky: panel.h / maskH, side: Math.max(panel.w, panel.h) };
}

/** Stroke width of the marks: 1 px up to ~450 px pictures, 3 px at 1024. */
function lineWidth(frame: Frame): number {
  return Math.max(1, Math.round(frame.side / 300));
}

// ------------------------------------------------------------------ truth layers

function hexRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function decodeField(item: EpicItem, field: string | undefined): BitMask | null {
  if (!field) return null;
  try {
    return decodeRleUnion(item.masks?.[field] ?? [], { strict: false });
  } catch {
    return null;
  }
}

/** Which canvas pixels of the panel fall on a set mask pixel (nearest neighbour). */
function coverage(mask: BitMask, frame: Frame, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const cols = Int32Array.from({ length: w }, (_, cx) => Math.min(mask.width - 1, Math.floor((cx + 0.5) / frame.kx)));
  for (let cy = 0; cy < h; cy++) {
    const my = Math.min(mask.height - 1, Math.floor((cy + 0.5) / frame.ky));
    for (let cx = 0; cx < w; cx++) if (mask.get(cols[cx]!, my)) out[cy * w + cx] = 1;
  }
  return out;
}

/** Covered pixels with an uncovered pixel within `t` (square window, inside the panel). */
function outlineOf(cover: Uint8Array, w: number, h: number, t: number): Uint8Array {
  const rows = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let all = 1;
      for (let d = Math.max(0, x - t); d <= Math.min(w - 1, x + t) && all; d++) all = cover[y * w + d]!;
      rows[y * w + x] = all;
    }
  }
  const edge = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!cover[y * w + x]) continue;
      let all = 1;
      for (let d = Math.max(0, y - t); d <= Math.min(h - 1, y + t) && all; d++) all = rows[d * w + x]!;
      if (!all) edge[y * w + x] = 1;
    }
  }
  return edge;
}

/**
 * Blend each layer over the panel, in order: covered pixels become round(under · (1 − α) + colour · α);
 * then each layer's outline is painted solid in its colour.
 */
function paintLayers(ctx: SKRSContext2D, panel: Panel, layers: Layer[]): void {
  if (layers.length === 0) return;
  const image = ctx.getImageData(panel.x, panel.y, panel.w, panel.h);
  const px = image.data;
  const outlines: Array<{ edge: Uint8Array; rgb: Rgb }> = [];
  for (const layer of layers) {
    const frame = frameOf(panel, layer.mask.width, layer.mask.height);
    const cover = coverage(layer.mask, frame, panel.w, panel.h);
    const rgb = hexRgb(layer.color);
    for (let i = 0; i < cover.length; i++) {
      if (!cover[i]) continue;
      for (let c = 0; c < 3; c++) px[i * 4 + c] = Math.round(px[i * 4 + c]! * (1 - FILL_ALPHA) + rgb[c]! * FILL_ALPHA);
    }
    outlines.push({ edge: outlineOf(cover, panel.w, panel.h, Math.max(1, Math.round(frame.side / 400))), rgb });
  }
  for (const { edge, rgb } of outlines) {
    for (let i = 0; i < edge.length; i++) {
      if (!edge[i]) continue;
      px[i * 4] = rgb[0];
      px[i * 4 + 1] = rgb[1];
      px[i * 4 + 2] = rgb[2];
    }
  }
  ctx.putImageData(image, panel.x, panel.y);
}

function describeMask(mask: BitMask | null): string {
  if (!mask || mask.isEmpty()) return "empty";
  const parts = labelComponents(mask, 4).components.length;
  return `${plural(parts, "part")}, ${mask.count().toLocaleString("en-US")} px`;
}

// ------------------------------------------------------------------ boxes

function drawBoxes(ctx: SKRSContext2D, item: EpicItem, panel: Panel, reading: Reading, gt: GroundTruth, reference: boolean): { truth: string; note?: string } {
  const kind = kindOf(item);
  const f = gtFields(item.leaf);
  const rawMasks = item.masks?.[f.localizationMask ?? ""];
  const mask = decodeField(item, f.localizationMask);
  // The scorer's "no target": no instance, or a true count of 0 (then every box scores 0).
  const noTarget = !Array.isArray(rawMasks) || rawMasks.length === 0 || gt.count === 0 || !mask;
  const [W, H] = mask ? [mask.width, mask.height] : [item.width || panel.image.width, item.height || panel.image.height];
  if (reference && mask && !mask.isEmpty()) paintLayers(ctx, panel, [{ mask, color: MARK.correct }]);

  // With no target the scorer resolved "auto" against a 1×1 image; resolve it again against the real size.
  const mode = noTarget && reading.coordMode === "normalized_0_1000" ? "auto" : reading.coordMode;
  const pixels = safe(() => boxesToPixels(reading.boxes, mode, H, W), []);
  const frame = frameOf(panel, W, H);
  const lw = lineWidth(frame);
  let hits = 0;
  for (const b of pixels) {
    const hit = !noTarget && mask !== null && intersectionCount(BitMask.fromBoxes([b], W, H), mask) > 0;
    if (hit) hits++;
    drawBox(ctx, frame, b, hit ? MARK.chosen : MARK.wrong, lw);
  }

  const truth = [!mask || mask.isEmpty() ? "truth: no target (empty mask)" : `truth: target mask ${describeMask(mask)}`];
  if (kind === "counted") truth.push(`count ${gt.count ?? "unknown"}${gt.count === 0 && mask && !mask.isEmpty() ? " (scored as no target)" : ""}${gt.preciseCount || gt.countInDescription ? " (exact count required)" : ""}`);
  if (kind === "placement") truth.push(`feasible: ${gt.feasibility === null ? "unknown" : yesNo(gt.feasibility)}`);
  const replied = reading.maskReply !== undefined ? drawReplyMask(ctx, panel, reading.maskReply.union, noTarget ? null : mask, W, H) : undefined;
  if (replied !== undefined) return { truth: truth.join(", "), ...(replied ? { note: replied } : {}) };
  const dropped = reading.boxes.length - pixels.length;
  const emptied = dropped > 0 ? `${plural(dropped, "box", "boxes")} empty after scaling and clipping (not drawn)` : "";
  const note = pixels.length > 0
    ? `boxes on the target mask: ${hits} of ${pixels.length} (purple overlaps it, red misses)${emptied ? `; ${emptied}` : ""}`
    : emptied || undefined;
  return { truth: truth.join(", "), ...(note ? { note } : {}) };
}

/** A mask reply read once for the caption and the picture. */
function readMaskReply(value: unknown): NonNullable<Reading["maskReply"]> {
  return { union: safe(() => readRleUnion(value, { strict: false }), null), empty: Array.isArray(value) && value.length === 0 };
}

/** What a mask reply holds, as the scorer reads it. */
function describeReplyMask(reply: NonNullable<Reading["maskReply"]>): string {
  const union = reply.union;
  if (!union) return reply.empty ? "empty (no target)" : "nothing decodable";
  const px = union.instances.reduce((s, runs) => s + runsArea(runs), 0);
  return `${plural(union.instances.length, "RLE")} of size ${union.height} x ${union.width}, ${px.toLocaleString("en-US")} px set`;
}

/**
 * A mask reply over the scored picture: purple where it has a pixel on the target mask, red where
 * it has none; drawn only at the picture's own size (the scorer gives any other size 0).
 */
function drawReplyMask(ctx: SKRSContext2D, panel: Panel, union: RleUnionRuns | null, target: BitMask | null, W: number, H: number): string | null {
  if (!union) return null;
  if (union.height !== H || union.width !== W) return `mask reply of size ${union.height} x ${union.width}, not the picture's ${H} x ${W} (not drawn; scored 0)`;
  const reply = drawRleUnion(union);
  if (reply.isEmpty()) return null;
  const shared = target ? intersectionCount(reply, target) : 0;
  paintLayers(ctx, panel, [{ mask: reply, color: shared > 0 ? MARK.chosen : MARK.wrong }]);
  return `mask reply on the target mask: ${shared.toLocaleString("en-US")} of ${reply.count().toLocaleString("en-US")} px (purple overlaps it, red misses)`;
}

/** A pixel box (columns [x1, x2), rows [y1, y2)) drawn with its stroke on the box's own edge pixels. */
function drawBox(ctx: SKRSContext2D, frame: Frame, b: readonly number[], color: string, lw: number): void {
  const x1 = frame.x0 + b[0]! * frame.kx;
  const y1 = frame.y0 + b[1]! * frame.ky;
  const x2 = frame.x0 + b[2]! * frame.kx;
  const y2 = frame.y0 + b[3]! * frame.ky;
  if (x2 - x1 <= 2 * lw || y2 - y1 <= 2 * lw) {
    ctx.fillStyle = color;
    ctx.fillRect(x1, y1, Math.max(1, x2 - x1), Math.max(1, y2 - y1));
    return;
  }
  box(ctx, x1 + lw / 2, y1 + lw / 2, x2 - lw / 2, y2 - lw / 2, { color, width: lw });
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

// ------------------------------------------------------------------ paths

function drawPath(ctx: SKRSContext2D, item: EpicItem, panel: Panel, reading: Reading, reference: boolean): { truth: string; note?: string } {
  const f = gtFields(item.leaf);
  const feasible = decodeField(item, f.pathMask);
  const target = decodeField(item, f.targetAreaMask);
  const [W, H] = feasible ? [feasible.width, feasible.height] : [item.width || panel.image.width, item.height || panel.image.height];
  const all = safe(() => pointsToPixels(reading.points, reading.coordMode, H, W), []);
  const kept = safe(() => filterNearbyPoints(all, H, W), all);
  const regions = startAndGoal(item, target, kept[0]);
  const frame = frameOf(panel, W, H);
  const lw = lineWidth(frame);
  const at = (p: readonly number[]): [number, number] => [frame.x0 + (p[0]! + 0.5) * frame.kx, frame.y0 + (p[1]! + 0.5) * frame.ky];

  if (reference) {
    const layers: Layer[] = [];
    if (feasible && !feasible.isEmpty()) layers.push({ mask: feasible, color: MARK.correct });
    if (regions.goal && !regions.goal.isEmpty()) layers.push({ mask: regions.goal, color: MARK.missed });
    if (regions.start && !regions.start.isEmpty()) layers.push({ mask: regions.start, color: MARK.start });
    paintLayers(ctx, panel, layers);
    if (regions.bottomStart) ring(ctx, ...at([W / 2, H - 1]), 2 * lw + 1 + 2 * lw, { color: MARK.start, width: lw });
  }

  const radius = 2 * lw + 1;
  const keptSet = new Set(kept);
  for (const p of all) if (!keptSet.has(p)) dot(ctx, ...at(p), Math.max(1, radius - lw), MARK.reference);
  polyline(ctx, kept.map(at), { color: MARK.chosen, width: lw });
  let inside = 0;
  kept.forEach((p, i) => {
    const onArea = feasible !== null && safe(() => feasible.containsPoint(p[0], p[1]), false);
    if (onArea) inside++;
    const [x, y] = at(p);
    dot(ctx, x, y, radius + lw, MARK.paper);
    dot(ctx, x, y, radius, i === 0 ? MARK.start : onArea ? MARK.chosen : MARK.wrong);
    if (i === kept.length - 1 && i > 0) ring(ctx, x, y, radius + 2 * lw, { color: MARK.chosen, width: lw });
  });

  const start = regions.start
    ? `start region ${describeMask(regions.start)}`
    : regions.bottomStart ? `start at the bottom centre (${Number((W / 2).toFixed(2))}, ${H - 1})` : "start: the region nearer the first point";
  const truth = `truth: feasible area ${describeMask(feasible)}; goal area ${describeMask(regions.goal)}; ${start}`;
  const note = kept.length > 0
    ? `path points in the feasible area: ${inside} of ${kept.length} kept (blue start, purple inside, red outside)${all.length > kept.length ? `; ${all.length - kept.length} dropped as too close (grey)` : ""}`
    : undefined;
  return { truth, ...(note ? { note } : {}) };
}

/**
 * Start and goal as the scorer takes them: Exo views split the target area into two regions and
 * the one nearer the first kept point is the start; otherwise the whole target area is the goal
 * and the start is the bottom centre.
 */
function startAndGoal(item: EpicItem, target: BitMask | null, first: readonly number[] | undefined): { start: BitMask | null; goal: BitMask | null; bottomStart: boolean } {
  if (!target || item.leaf.leaf !== "FeasiblePath_Exo") return { start: null, goal: target, bottomStart: true };
  const [one, two] = safe(() => splitRegions(target), [target, null] as [BitMask, BitMask | null]);
  if (!two) return { start: null, goal: one, bottomStart: true };
  if (!first) return { start: null, goal: target, bottomStart: false };
  const d1 = safe(() => pointToRegionDistance(one, first[0]!, first[1]!), Infinity);
  const d2 = safe(() => pointToRegionDistance(two, first[0]!, first[1]!), Infinity);
  return d1 <= d2 ? { start: one, goal: two, bottomStart: false } : { start: two, goal: one, bottomStart: false };
}
