import { labelComponents, componentMask } from "../../geometry/components.js";
import { pointToRegionDistance, regionToRegionMinDistance } from "../../geometry/distance-transform.js";
import { BitMask, iou } from "../../geometry/mask.js";
import { decodeRleUnion, drawRleUnion, readRleUnion, runsArea } from "../../geometry/rle.js";
import { boxesToPixels, pointsToPixels, resolveCoordMode, type CoordMode } from "./coords.js";
import { gtFields, type LeafTask } from "./taxonomy.js";
import type { EpicItem } from "./types.js";
import { first, isNoValidResponse, isNotRequired, readBinary, readBoxes, readCount, readFlag, readPoints } from "./values.js";

/**
 * Scoring one EPIC-Bench sample from its formatted reply, with the official rules (epic.md;
 * paper Appendix D and Table 7 for the path score), or with the paper's where the two differ
 * (`rules: "paper"`; rules.ts lists each difference). The formatted fields are the official
 * std_format ones: `localization` (boxes, or COCO RLE masks when `formatType` is "mask"),
 * `count`, `path` (points), `binary` (feasibility).
 */
export interface FormattedReply {
  localization: unknown;
  count: unknown;
  path: unknown;
  binary: unknown;
  /**
   * The record's official `format_type`: "mask" when `localization` holds COCO RLE (only standard
   * records read from a predictions file can say so; the official formatter always writes boxes).
   */
  formatType?: "bbox" | "mask";
}

/**
 * Where the paper's text and the official code differ (rules.ts lists every difference): follow
 * the official code (default) or the paper.
 */
export type EpicRules = "official" | "paper";

export interface ScoreOptions {
  coordMode: CoordMode;
  /** Default "official". */
  rules?: EpicRules;
  /** Opt-in: an unreadable reply scores 0 (the official code lets it count as "no boxes"). */
  strict?: boolean;
}

export interface EpicOutcome {
  score: number;
  components: { localization: number; count: number; path: number; binary: number };
  weights: { localization: number; count: number; path: number; binary: number };
  invalid: boolean;
  error: string | null;
  /** Coordinate mode in force after "auto" was resolved. */
  coordMode: string;
  gtCount: number | null;
  predCount: number | null;
  boxes?: number[][];
  /** Set pixels of the reply's mask (format_type "mask"). */
  maskPixels?: number;
  points?: Array<[number, number]>;
  path?: PathDetail;
}

// ------------------------------------------------------------------ ground truth

export interface GroundTruth {
  count: number | null;
  preciseCount: boolean;
  countInDescription: boolean;
  feasibility: boolean | null;
}

export function groundTruth(item: EpicItem): GroundTruth {
  const f = gtFields(item.leaf);
  const flag = (fields: string[] | string | undefined) => {
    for (const field of [fields ?? []].flat()) {
      const v = readFlag(item.text[field] ?? item.masks[field]);
      if (v !== null) return v;
    }
    return false;
  };
  let feasibility: boolean | null = null;
  for (const field of f.feasibilityFields ?? []) {
    const v = item.text[field];
    if (first(v) === null || first(v) === undefined) continue;
    feasibility = readBinary(v);
    if (feasibility !== null) break;
  }
  return {
    count: f.countField ? readCount(item.text[f.countField] ?? null) : null,
    preciseCount: flag(f.preciseCountFields),
    countInDescription: flag(f.countInDescriptionField),
    feasibility,
  };
}

/**
 * Localization/count weights. Official: TL and CR alike, 0.1 when the description states the
 * count, else 0.5 when the count must be precise, else 0.3; VM 0.5/0.5. Paper (Table 3): the 0.1
 * exception is TL's only, so CR is 0.5, or 0.3 when the count need not be precise.
 */
export function weightsFor(leaf: LeafTask, gt: GroundTruth, rules: EpicRules = "official"): { localization: number; count: number } {
  if (leaf.leaf === "VisualMatching") return { localization: 0.5, count: 0.5 };
  const describedCountApplies = rules === "official" || leaf.category === "TargetLocalization";
  const count = gt.countInDescription && describedCountApplies ? 0.1 : gt.preciseCount ? 0.5 : 0.3;
  return { localization: 1.0 - count, count };
}

/**
 * Whether the count must match exactly. Official: when the count must be precise or the
 * description states it. Paper (Sec. 4.2, Counting Score): by the precise-count label alone.
 */
export function exactCountRequired(gt: GroundTruth, rules: EpicRules = "official"): boolean {
  return gt.preciseCount || (rules === "official" && gt.countInDescription);
}

// ------------------------------------------------------------------ components

interface Component {
  score: number;
  error: string | null;
}

/** The scored ground-truth mask, or why there is none: no RLEs, or a count of 0, is "no target". */
function groundTruthMask(gtRles: unknown, gtCount: number | null): { empty: boolean; mask: BitMask | null } {
  const empty = gtRles === null || gtRles === undefined || (Array.isArray(gtRles) && gtRles.length === 0) || (gtCount !== null && gtCount === 0);
  return { empty, mask: empty ? null : decodeRleUnion(gtRles, { strict: false }) };
}

const GT_DECODE_FAILED = "Failed to decode GT mask or GT mask is missing";

/** IoU of the union of predicted boxes with the union of ground-truth instances. */
export function localizationScore(value: unknown, gtRles: unknown, gtCount: number | null, coordMode: CoordMode): Component & { actual: string; boxes: number[][] } {
  if (isNotRequired(value)) return { score: 0, error: null, actual: coordMode, boxes: [] };
  if (isNoValidResponse(value)) return { score: 0, error: "No Valid Response", actual: coordMode, boxes: [] };
  const gt = groundTruthMask(gtRles, gtCount);
  if (!gt.empty && !gt.mask) return { score: 0, error: GT_DECODE_FAILED, actual: coordMode, boxes: [] };
  const [h, w] = gt.mask ? [gt.mask.height, gt.mask.width] : [1, 1];
  const raw = readBoxes(value);
  const actual = resolveCoordMode(coordMode, raw.flat(), h, w);
  if (raw.length === 0) return { score: gt.empty ? 1 : 0, error: null, actual, boxes: [] };
  if (gt.empty) return { score: 0, error: null, actual, boxes: raw };
  const boxes = boxesToPixels(raw, coordMode, h, w);
  return { score: iou(BitMask.fromBoxes(boxes, w, h), gt.mask), error: null, actual, boxes: raw };
}

/** The coordinate mode a mask reply reports (no coordinates are read). */
const MASK_COORDS = "n/a";

const isEmptyObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

/**
 * The official `format_type: "mask"` rule: the reply's RLE (one object, or a list whose non-object
 * entries are left out) decoded and unioned as the ground truth is (an entry that fails to decode or
 * differs in size from the first decoded one is left out); `[]`, `{}` or an all-zero mask is "no
 * target" (1 on an empty ground truth, else 0); nothing decodable, or a mask of another size than
 * the ground truth's, scores 0 with an error that does not make the reply invalid.
 */
export function maskLocalizationScore(value: unknown, gtRles: unknown, gtCount: number | null, coordMode: CoordMode): Component & { actual: string; pixels: number | null } {
  if (isNotRequired(value)) return { score: 0, error: null, actual: coordMode, pixels: null };
  if (isNoValidResponse(value)) return { score: 0, error: "No Valid Response", actual: coordMode, pixels: null };
  const gt = groundTruthMask(gtRles, gtCount);
  if (!gt.empty && !gt.mask) return { score: 0, error: GT_DECODE_FAILED, actual: coordMode, pixels: null };
  const noTarget = { score: gt.empty ? 1 : 0, error: null, actual: MASK_COORDS, pixels: 0 };
  if ((Array.isArray(value) && value.length === 0) || isEmptyObject(value)) return noTarget;
  // Read as runs first: only a reply of the truth's size is drawn, so its stated size costs nothing.
  const reply = readRleUnion(value, { strict: false });
  if (!reply) return { score: 0, error: "Failed to decode predicted mask response", actual: MASK_COORDS, pixels: null };
  if (reply.instances.every((runs) => runsArea(runs) === 0)) return noTarget;
  if (gt.empty) return { score: 0, error: null, actual: MASK_COORDS, pixels: null };
  if (reply.height !== gt.mask!.height || reply.width !== gt.mask!.width) return { score: 0, error: "Pred mask shape does not match GT mask shape", actual: MASK_COORDS, pixels: null };
  const pred = drawRleUnion(reply);
  return { score: iou(pred, gt.mask), error: null, actual: MASK_COORDS, pixels: pred.count() };
}

/** Exact when exactCountRequired (by the rules in force), else 1 − relative error. */
export function countScore(value: unknown, gt: GroundTruth, rules: EpicRules = "official"): Component & { pred: number | null } {
  if (isNotRequired(value)) return { score: 0, error: null, pred: null };
  if (isNoValidResponse(value)) return { score: 0, error: "No Valid Response", pred: null };
  const pred = readCount(value);
  if (pred === null || gt.count === null) return { score: 0, error: "Missing pred_count or gt_count", pred };
  if (exactCountRequired(gt, rules)) return { score: pred === gt.count ? 1 : 0, error: null, pred };
  if (gt.count <= 0) return { score: pred === 0 ? 1 : 0, error: null, pred };
  const ratio = Math.abs(gt.count - pred) / Math.max(1, gt.count);
  return { score: Math.max(0, 1 - Math.min(1, ratio)), error: null, pred };
}

export function binaryScore(value: unknown, truth: boolean | null): Component {
  if (isNotRequired(value)) return { score: 0, error: null };
  if (isNoValidResponse(value)) return { score: 0, error: "No Valid Response" };
  const pred = readBinary(value);
  if (pred === null || truth === null) return { score: 0, error: "Missing pred_binary or gt_binary" };
  return { score: pred === truth ? 1 : 0, error: null };
}

// ------------------------------------------------------------------ path score

/** Paper Table 7: weights of (start/end, feasibility, away from start, toward end, continuity). */
const WEIGHTS = {
  first: [1.0, 0.0, 0.0, 0.0, 0.0],
  last: [0.3, 0.4, 0.1, 0.1, 0.1],
  middle: [0.0, 0.4, 0.2, 0.2, 0.2],
} as const;
const START_END_K = 3.0;
const NEAR_RATIO = 1.0 / 30.0;
const CONTINUITY_MAX_RATIO = 2.0 / 3.0;
const SEGMENT_SAMPLES = 50;

export interface PathDetail {
  perspective: "FirstPerspective" | "ThirdPerspective";
  pointsBeforeFilter: number;
  pointsAfterFilter: number;
  startEnd: number | null;
  feasibility: number | null;
  awayStart: number | null;
  towardEnd: number | null;
  continuity: number | null;
  /** Per kept point: its score and the five component values. */
  perPoint: Array<{ score: number; startEnd: number; feasibility: number; awayStart: number; towardEnd: number; continuity: number; distToStart: number; distToEnd: number }>;
  startEndDistance: number;
}

const dist = (a: readonly number[], b: readonly number[]) => ((a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2) ** 0.5;

/** Keep a point only when it is at least diag/30 from the last kept one. */
export function filterNearbyPoints(points: Array<[number, number]>, height: number, width: number): Array<[number, number]> {
  if (points.length <= 1) return points;
  const minDist = (height ** 2 + width ** 2) ** 0.5 * NEAR_RATIO;
  const out = [points[0]!];
  for (let i = 1; i < points.length; i++) if (dist(out[out.length - 1]!, points[i]!) >= minDist) out.push(points[i]!);
  return out;
}

/** Fraction of 50 samples along the segment whose rounded pixel is in the mask. */
function segmentInMask(p1: readonly number[], p2: readonly number[], mask: BitMask): number {
  let inside = 0;
  for (let i = 0; i < SEGMENT_SAMPLES; i++) {
    const t = (i + 0.5) / SEGMENT_SAMPLES;
    const x = p1[0]! * (1 - t) + p2[0]! * t;
    const y = p1[1]! * (1 - t) + p2[1]! * t;
    if (mask.containsPoint(x, y)) inside++;
  }
  return inside / SEGMENT_SAMPLES;
}

/**
 * Paper Eq. 3: Length(l ∩ M) / Length(l), exactly, with pixel (c, r) covering the unit square
 * centred on (c, r) (the cell the official rounding looks up). The segment is cut where it crosses
 * a cell border; each piece counts when the cell at its middle is in the mask. A zero-length
 * segment counts as its point's cell. Only the borders of the mask's own cells cut (x from -0.5 to
 * width - 0.5): a piece beyond them lies outside the mask and counts 0 however it is cut, and a
 * reply point of 1e9 once made this loop cut a billion times (issue 25).
 */
export function segmentInMaskExact(p1: readonly number[], p2: readonly number[], mask: BitMask): number {
  const [x1, y1, x2, y2] = [p1[0]!, p1[1]!, p2[0]!, p2[1]!];
  const dx = x2 - x1, dy = y2 - y1;
  if (dx === 0 && dy === 0) return mask.containsPoint(x1, y1) ? 1 : 0;
  const cuts = [0, 1];
  const crossings = (from: number, delta: number, cells: number) => {
    if (delta === 0) return;
    const lo = Math.min(from, from + delta), hi = Math.max(from, from + delta);
    const last = Math.min(hi, cells - 0.5 + 1e-9);
    for (let b = Math.max(Math.ceil(lo - 0.5) + 0.5, -0.5); b < last; b++) if (b > lo) cuts.push((b - from) / delta);
  };
  crossings(x1, dx, mask.width);
  crossings(y1, dy, mask.height);
  cuts.sort((a, b) => a - b);
  let inside = 0;
  for (let i = 1; i < cuts.length; i++) {
    const [a, b] = [cuts[i - 1]!, cuts[i]!];
    if (b <= a) continue;
    const t = (a + b) / 2;
    const x = x1 + dx * t, y = y1 + dy * t;
    if (mask.get(Math.floor(x + 0.5), Math.floor(y + 0.5))) inside += b - a;
  }
  return inside;
}

/** Centroid (x, y) of a mask's pixels; the image centre for an empty mask. */
function centroid(mask: BitMask): [number, number] {
  let n = 0, sx = 0, sy = 0;
  mask.forEachPixel((x, y) => { n++; sx += x; sy += y; });
  return n === 0 ? [mask.width / 2, mask.height / 2] : [sx / n, sy / n];
}

/**
 * Third-person views: split the target area's 4-connected components into two regions seeded by
 * the two components whose centroids are farthest apart; the region nearer the first point is the
 * start. With fewer than two components there is one region (the goal) and the start is the
 * bottom centre, as in first-person views.
 */
export function splitRegions(mask: BitMask): [BitMask, BitMask | null] {
  const labeling = labelComponents(mask, 4);
  const comps = labeling.components.filter((c) => c.pixelCount > 0);
  if (comps.length < 2) return [mask, null];
  const c = comps.map((k) => [k.sumX / k.pixelCount, k.sumY / k.pixelCount] as const);
  let seeds = [0, 1];
  let best = -1;
  for (let i = 0; i < c.length; i++) {
    for (let j = i + 1; j < c.length; j++) {
      const d = (c[i]![0] - c[j]![0]) ** 2 + (c[i]![1] - c[j]![1]) ** 2;
      if (d > best) { best = d; seeds = [i, j]; }
    }
  }
  const [s1, s2] = [c[seeds[0]!]!, c[seeds[1]!]!];
  const one: number[] = [], two: number[] = [];
  comps.forEach((k, i) => {
    const d1 = (c[i]![0] - s1[0]) ** 2 + (c[i]![1] - s1[1]) ** 2;
    const d2 = (c[i]![0] - s2[0]) ** 2 + (c[i]![1] - s2[1]) ** 2;
    (d1 <= d2 ? one : two).push(k.label);
  });
  if (one.length === 0 || two.length === 0) return [mask, null];
  return [componentMask(labeling, one), componentMask(labeling, two)];
}

/**
 * Third-person start and goal candidates. Official: the clusters of splitRegions, or none when the
 * target area is one connected piece (two areas that touch), so the start falls back to the
 * bottom centre as in first-person views. Paper (Sec. 3.2.2: a path "between two specified target
 * regions"): when the pieces do not split and the release holds exactly two area instances, those
 * two instances are the regions.
 */
export function exoRegions(target: BitMask, instances: unknown, rules: EpicRules = "official"): [BitMask, BitMask | null] {
  const split = splitRegions(target);
  if (split[1] || rules === "official" || !Array.isArray(instances)) return split;
  const masks = instances.map((rle) => decodeRleUnion([rle], { strict: false })).filter((m): m is BitMask => m !== null && m.bounds() !== null);
  return masks.length === 2 ? [masks[0]!, masks[1]!] : split;
}

/** Paper App. D: "at least three consecutive points" for a valid path (the official code scores two). */
export const PAPER_MIN_PATH_POINTS = 3;

export function pathScore(value: unknown, item: EpicItem, coordMode: CoordMode, rules: EpicRules = "official"): Component & { actual: string; points: Array<[number, number]>; detail?: PathDetail } {
  const f = gtFields(item.leaf);
  const perspective = item.leaf.leaf === "FeasiblePath_Exo" ? "ThirdPerspective" : "FirstPerspective";
  if (isNotRequired(value)) return { score: 0, error: null, actual: coordMode, points: [] };
  if (isNoValidResponse(value)) return { score: 0, error: "No Valid Response", actual: coordMode, points: [] };
  const feasible = decodeRleUnion(item.masks[f.pathMask!], { strict: false });
  if (!feasible) return { score: 0, error: "Failed to decode feasible area mask (masklet_path) or mask is missing", actual: coordMode, points: [] };
  const { height: H, width: W } = feasible;
  const raw = readPoints(value);
  const actual = resolveCoordMode(coordMode, raw.flat(), H, W);
  if (raw.length === 0) return { score: 0, error: "No path points parsed", actual, points: [] };
  const absolute = pointsToPixels(raw, coordMode, H, W);
  const points = filterNearbyPoints(absolute, H, W);
  const base: PathDetail = {
    perspective, pointsBeforeFilter: absolute.length, pointsAfterFilter: points.length,
    startEnd: null, feasibility: null, awayStart: null, towardEnd: null, continuity: null, perPoint: [], startEndDistance: NaN,
  };
  if (points.length < 2) return { score: 0, error: null, actual, points: raw, detail: base };
  if (rules === "paper" && absolute.length < PAPER_MIN_PATH_POINTS) return { score: 0, error: null, actual, points: raw, detail: base };

  const target = decodeRleUnion(item.masks[f.targetAreaMask!] ?? [], { strict: false });
  const fallbackStart: [number, number] = [W / 2, H - 1];
  let startMask: BitMask | null = null;
  let endMask: BitMask | null = target;
  if (target && perspective === "ThirdPerspective") {
    const [r1, r2] = exoRegions(target, item.masks[f.targetAreaMask!], rules);
    if (r2) {
      const d1 = pointToRegionDistance(r1, points[0]![0], points[0]![1]);
      const d2 = pointToRegionDistance(r2, points[0]![0], points[0]![1]);
      [startMask, endMask] = d1 <= d2 ? [r1, r2] : [r2, r1];
    } else endMask = r1;
  }

  const diag = (H ** 2 + W ** 2) ** 0.5;
  // D_SG: exact minimum distance between start and goal (the official code samples 1,000 pixels
  // of regions larger than that at random; here every pixel counts).
  let dSG = startMask && endMask ? regionToRegionMinDistance(startMask, endMask) : endMask ? pointToRegionDistance(endMask, fallbackStart[0], fallbackStart[1]) : Infinity;
  if (dSG === Infinity || dSG <= 0) {
    const sp = startMask ? centroid(startMask) : fallbackStart;
    const ep = endMask ? centroid(endMask) : [W / 2, H / 2];
    dSG = dist(sp, ep);
  }
  const minSegment = diag * NEAR_RATIO;
  const maxSegment = dSG > 0 ? dSG * CONTINUITY_MAX_RATIO : diag;
  const n = points.length;
  const toStart = points.map(([x, y]) => (startMask ? pointToRegionDistance(startMask, x, y) : dist([x, y], fallbackStart)));
  const toEnd = points.map(([x, y]) => (endMask ? pointToRegionDistance(endMask, x, y) : Infinity));

  const seFirst = Math.max(0, 1 - START_END_K * (diag > 0 ? toStart[0]! / diag : 0));
  const seLast = Math.max(0, 1 - START_END_K * (diag > 0 ? toEnd[n - 1]! / diag : 0));
  // Official: 50 samples along the segment; paper (Eq. 3): the exact length ratio.
  const traversable = rules === "paper" ? segmentInMaskExact : segmentInMask;
  const feas = points.map((p, i) => (i === 0 ? 0 : traversable(points[i - 1]!, p, feasible)));
  const away = points.map((_, i) => (i > 0 && toStart[i]! > toStart[i - 1]! ? 1 : 0));
  const toward = points.map((_, i) => (i > 0 && toEnd[i]! < toEnd[i - 1]! ? 1 : 0));
  const stepOk = (i: number) => {
    const d = dist(points[i - 1]!, points[i]!);
    return minSegment <= d && d <= maxSegment ? 1 : 0;
  };
  const continuity = points.map((_, i) => (i > 0 && i < n - 1 ? stepOk(i) : 0));

  // Official: the end point's continuity counts only when there are 3 or more points; paper
  // (Table 7): the end point always carries its continuity weight.
  const lastHasContinuity = n >= 3 || rules === "paper";
  const perPoint = points.map((_, i) => {
    const isLast = i === n - 1;
    const [wSe, wFea, wAway, wToward, wCont] = i === 0 ? WEIGHTS.first : isLast ? WEIGHTS.last : WEIGHTS.middle;
    const se = i === 0 ? seFirst : isLast ? seLast : 0;
    const cont = i > 0 && !isLast ? continuity[i]! : isLast && lastHasContinuity ? stepOk(i) : 0;
    let total = 0, wSum = 0;
    if (i === 0 || isLast) { total += wSe * se; wSum += wSe; }
    if (i > 0) { total += wFea * feas[i]! + wAway * away[i]! + wToward * toward[i]!; wSum += wFea + wAway + wToward; }
    if ((i > 0 && !isLast) || (isLast && lastHasContinuity)) { total += wCont * cont; wSum += wCont; }
    return { score: wSum > 0 ? total / wSum : 0, startEnd: se, feasibility: i > 0 ? feas[i]! : 0, awayStart: away[i]!, towardEnd: toward[i]!, continuity: cont, distToStart: toStart[i]!, distToEnd: toEnd[i]! };
  });
  const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / Math.max(1, xs.length);
  const detail: PathDetail = {
    ...base,
    startEnd: (seFirst + seLast) / 2,
    feasibility: mean(feas.slice(1)),
    awayStart: mean(away.slice(1)),
    towardEnd: mean(toward.slice(1)),
    continuity: n >= 3 ? mean(continuity.slice(1, n - 1)) : null,
    perPoint,
    startEndDistance: dSG,
  };
  return { score: perPoint.reduce((s, p) => s + p.score, 0) / n, error: null, actual, points: raw, detail };
}

// ------------------------------------------------------------------ one sample

const INVALID_MARKERS = ["No Valid Response", "No path points parsed", "Missing"];

/** Score a sample's formatted reply; `null` reply = unreadable (strict mode scores it 0). */
export function scoreSample(item: EpicItem, reply: FormattedReply, options: ScoreOptions): EpicOutcome {
  const gt = groundTruth(item);
  const f = gtFields(item.leaf);
  const components = { localization: 0, count: 0, path: 0, binary: 0 };
  const weights = { localization: 0, count: 0, path: 0, binary: 0 };
  const errors: string[] = [];
  const out: Partial<EpicOutcome> = {};
  let actual = options.coordMode as string;
  const kind = item.leaf.group === "FeasiblePath" ? "path" : item.leaf.leaf === "PlacementRegion" ? "placement" : f.countField ? "counted" : "localization";
  if (kind === "path") {
    const p = pathScore(reply.path, item, options.coordMode, options.rules);
    components.path = p.score;
    weights.path = 1;
    actual = p.actual;
    if (p.error) errors.push(p.error);
    out.points = p.points;
    if (p.detail) out.path = p.detail;
  } else {
    const gtRles = item.masks[f.localizationMask!];
    const loc = reply.formatType === "mask" ? maskLocalizationScore(reply.localization, gtRles, gt.count, options.coordMode) : localizationScore(reply.localization, gtRles, gt.count, options.coordMode);
    components.localization = loc.score;
    actual = loc.actual;
    if ("boxes" in loc) out.boxes = loc.boxes;
    else if (loc.pixels !== null) out.maskPixels = loc.pixels;
    if (loc.error) errors.push(loc.error);
    if (kind === "counted") {
      const c = countScore(reply.count, gt, options.rules);
      components.count = c.score;
      out.predCount = c.pred;
      Object.assign(weights, weightsFor(item.leaf, gt, options.rules));
      if (c.error) errors.push(c.error);
    } else if (kind === "placement") {
      const b = binaryScore(reply.binary, gt.feasibility);
      components.binary = b.score;
      weights.localization = 0.5;
      weights.binary = 0.5;
      if (b.error) errors.push(b.error);
    } else weights.localization = 1;
  }
  const score = weights.localization * components.localization + weights.count * components.count + weights.path * components.path + weights.binary * components.binary;
  const error = errors.length > 0 ? errors.join("; ") : null;
  return {
    score, components, weights, error,
    invalid: error !== null && INVALID_MARKERS.some((m) => error.includes(m)),
    coordMode: actual, gtCount: gt.count, predCount: out.predCount ?? null,
    ...(out.boxes ? { boxes: out.boxes } : {}), ...(out.maskPixels !== undefined ? { maskPixels: out.maskPixels } : {}), ...(out.points ? { points: out.points } : {}), ...(out.path ? { path: out.path } : {}),
  };
}
