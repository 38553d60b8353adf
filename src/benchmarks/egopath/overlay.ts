import { existsSync } from "node:fs";
import path from "node:path";
import type { ItemResult, OverlayImage, OverlayOptions } from "../../core/benchmark.js";
import { asRecord, noAnswerLine } from "../../core/results.js";
import { cross, finish, MARK, pictureOf, polyline, ring, type Picture } from "../../media/draw.js";
import type { SKRSContext2D } from "@napi-rs/canvas";
import { scoreRouteItem, scoreSetItem, stepLength, type RouteOutcome, type RouteStage, type SetOutcome } from "./score.js";
import { taskInfo } from "./tasks.js";
import type { EgoPathItem, RouteItem, SetItem } from "./types.js";

/**
 * The picture of one EgoPathBench result, drawn over the question's own image at the waypoints'
 * image_xy positions (visible-waypoints file):
 * - a1/b1 (traversability): picked and traversable = green ring, picked but not traversable = red
 *   cross, traversable but not picked = dashed orange ring; ids outside the candidates are listed
 *   in the caption.
 * - a2/b2/c (routes): the reference route grey and dashed underneath, the model's route with arrows
 *   (green while every step is a listed direct pair, red from the first step that is not), the
 *   start waypoint in blue, the route's endpoint green when it is an acceptable goal, else orange.
 * An errored request was never scored: only the reference is drawn (grey).
 * The outcome comes from the result's `detail`; when that is missing or malformed it is worked out
 * again from the answer with the benchmark's own scorer (a wrongly typed answer = no answer).
 */
export async function egopathOverlay(item: EgoPathItem, result: ItemResult, options: OverlayOptions = {}): Promise<OverlayImage> {
  const picture = await loadPicture(item.imagePath, options.maxSide ?? 1024);
  const view: View = { ctx: picture.ctx, sizes: markSizes(picture), at: waypointPositions(item, picture.scale), reference: options.reference !== false };
  const read = readResult(item, result);
  const lines = item.kind === "set" ? drawSetResult(view, item, read) : drawRouteResult(view, item, read);
  return finish(picture, [headline(item), answerLine(item, result), ...lines, ...shownImageNote(item, result)]);
}

// ---------------------------------------------------------------------------------------------
// Reading the result line (never throws; odd values count as no answer)

type Outcome = SetOutcome | RouteOutcome;

interface ReadResult {
  /** The request failed: nothing was scored. */
  errored: boolean;
  outcome: Outcome | null;
  /** The outcome was worked out again because `detail` was missing or malformed. */
  recomputed: boolean;
}

function readResult(item: EgoPathItem, result: ItemResult): ReadResult {
  const record = asRecord(result);
  if (record["status"] === "error") return { errored: true, outcome: null, recomputed: false };
  const detail = asRecord(record["detail"]);
  const recorded = item.kind === "set" ? setDetail(detail) : routeDetail(detail);
  if (recorded) return { errored: false, outcome: recorded, recomputed: false };
  const ids = "parsedIds" in detail ? idList(detail["parsedIds"]) : answeredIds(record["answer"]);
  const outcome = item.kind === "set" ? scoreSetItem(item, ids) : scoreRouteItem(item, ids);
  return { errored: false, outcome, recomputed: true };
}

/** The parsed answer's ids when the answer was read ("ok"), else none. */
function answeredIds(answer: unknown): bigint[] | null {
  const record = asRecord(answer);
  return record["status"] === "ok" ? idList(record["value"]) : null;
}

/** A set outcome as `scoreItem` writes it (bigints as numbers or digit strings), or undefined. */
function setDetail(detail: Record<string, unknown>): SetOutcome | undefined {
  if (detail["kind"] !== "set") return undefined;
  const counts = ["tp", "fp", "fn", "tn", "invalid"].map((key) => detail[key]);
  if (!counts.every(isCount)) return undefined;
  const parsedIds = detail["parsedIds"] === null ? null : idList(detail["parsedIds"]);
  const invalidIds = idList(detail["invalidIds"]);
  if ((parsedIds === null && detail["parsedIds"] !== null) || invalidIds === null) return undefined;
  const [tp, fp, fn, tn, invalid] = counts as number[];
  return { kind: "set", parsedIds, tp: tp!, fp: fp!, fn: fn!, tn: tn!, invalid: invalid!, invalidIds };
}

const STAGES: RouteStage[] = ["parse", "invalid_id", "wrong_start", "illegal_edge", "wrong_goal", "success"];

/** A route outcome as `scoreItem` writes it, or undefined. */
function routeDetail(detail: Record<string, unknown>): RouteOutcome | undefined {
  const stage = detail["stage"];
  if (detail["kind"] !== "route" || !STAGES.includes(stage as RouteStage)) return undefined;
  const flags = ["validIds", "validPath", "success", "endpointAcceptable", "firstEdgeLegal", "laterEdgeIllegal"].map((key) => detail[key]);
  if (!flags.every((f) => typeof f === "boolean") || !isFiniteNumber(detail["spl"])) return undefined;
  const parsedIds = detail["parsedIds"] === null ? null : idList(detail["parsedIds"]);
  if (parsedIds === null && detail["parsedIds"] !== null) return undefined;
  const [validIds, validPath, success, endpointAcceptable, firstEdgeLegal, laterEdgeIllegal] = flags as boolean[];
  const outcome: RouteOutcome = {
    kind: "route", parsedIds, stage: stage as RouteStage, validIds: validIds!, validPath: validPath!, success: success!,
    spl: detail["spl"] as number, endpointAcceptable: endpointAcceptable!, firstEdgeLegal: firstEdgeLegal!, laterEdgeIllegal: laterEdgeIllegal!,
    // Older items.jsonl lines lack it; the picture does not use it.
    anyEdgeIllegal: detail["anyEdgeIllegal"] === true,
  };
  if (isFiniteNumber(detail["lengthM"])) outcome.lengthM = detail["lengthM"];
  const step = illegalStepOf(detail["illegalStep"]);
  if (step) outcome.illegalStep = step;
  return outcome;
}

function illegalStepOf(value: unknown): RouteOutcome["illegalStep"] {
  const step = asRecord(value);
  const [from, to] = [idOf(step["from"]), idOf(step["to"])];
  return isCount(step["index"]) && from !== null && to !== null ? { index: step["index"], from, to } : undefined;
}

/** Ids as written to items.jsonl: integers, or digit strings for ids beyond 2^53. */
function idList(value: unknown): bigint[] | null {
  if (!Array.isArray(value)) return null;
  const ids = value.map(idOf);
  return ids.every((id): id is bigint => id !== null) ? ids : null;
}

function idOf(value: unknown): bigint | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
  return null;
}

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

// ---------------------------------------------------------------------------------------------
// Geometry of the marks

type XY = [number, number];

interface Sizes {
  /** Ring radius around a waypoint marker. */
  radius: number;
  /** Stroke of the model's marks. */
  line: number;
  /** Stroke of the reference (thinner, underneath). */
  referenceLine: number;
}

interface View {
  ctx: SKRSContext2D;
  sizes: Sizes;
  /** Canvas position of each displayed waypoint that has image_xy. */
  at: Map<bigint, XY>;
  reference: boolean;
}

async function loadPicture(file: string, maxSide: number): Promise<Picture> {
  if (!file || !existsSync(file)) throw new Error(`egopath overlay: image file not found: ${file || "(no image path)"}`);
  try {
    return await pictureOf(file, maxSide);
  } catch (error) {
    throw new Error(`egopath overlay: cannot read image file ${file}: ${(error as Error).message}`);
  }
}

/**
 * Mark sizes: 15 px ring radius and 3.5 px strokes per source pixel of an image up to 640 px (the
 * bundled views draw 10 px markers), grown in proportion for larger images, then scaled with the
 * picture so thumbnails keep the same proportions.
 */
function markSizes(picture: Picture): Sizes {
  const sourceSide = Math.max(picture.width, picture.height) / picture.scale;
  const unit = Math.max(1, sourceSide / 640) * picture.scale;
  return { radius: 15 * unit, line: Math.max(1, 3.5 * unit), referenceLine: Math.max(1, 3 * unit) };
}

function waypointPositions(item: EgoPathItem, scale: number): Map<bigint, XY> {
  const at = new Map<bigint, XY>();
  for (const w of item.waypoints) {
    if (w.imageXY) at.set(BigInt(w.displayId), [w.imageXY[0] * scale, w.imageXY[1] * scale]);
  }
  return at;
}

/** A dashed stroke whose dashes grow with the line width (butt caps, so the gaps stay open). */
function dashed(ctx: SKRSContext2D, color: string, width: number, trace: () => void): void {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineCap = "butt";
  ctx.lineJoin = "round";
  ctx.setLineDash([3 * width, 2 * width]);
  ctx.beginPath();
  trace();
  ctx.stroke();
  ctx.restore();
}

function dashedRing(ctx: SKRSContext2D, [x, y]: XY, radius: number, color: string, width: number): void {
  dashed(ctx, color, width, () => ctx.arc(x, y, radius, 0, Math.PI * 2));
}

function dashedPolyline(ctx: SKRSContext2D, points: XY[], color: string, width: number): void {
  if (points.length < 2) return;
  dashed(ctx, color, width, () => {
    ctx.moveTo(points[0]![0], points[0]![1]);
    for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
  });
}

// ---------------------------------------------------------------------------------------------
// a1 / b1: traversable subsets

function drawSetResult(view: View, item: SetItem, read: ReadResult): string[] {
  const positives = new Set(item.positives);
  const truth = `truth: traversable ${idText(item.positives)} of candidates ${idText(item.candidates)}`;
  if (read.errored || !read.outcome || read.outcome.kind !== "set") {
    if (view.reference) for (const id of positives) drawAt(view, id, (xy) => dashedRing(view.ctx, xy, view.sizes.radius, MARK.reference, view.sizes.referenceLine));
    return [truth, "outcome: not scored (the request failed)"];
  }
  const outcome = read.outcome;
  const candidates = new Set(item.candidates);
  const picked = new Set((outcome.parsedIds ?? []).filter((id) => candidates.has(id)));
  const unplaced: bigint[] = [];
  for (const id of new Set([...item.candidates, ...item.positives])) {
    const mark = setMark(picked.has(id), positives.has(id));
    if (mark && !drawAt(view, id, (xy) => drawSetMark(view, xy, mark))) unplaced.push(id);
  }
  const { tp, fp, fn, tn } = outcome;
  const lines = [
    truth,
    `outcome: picked traversable (TP) ${tp} · picked blocked (FP) ${fp} · missed (FN) ${fn} · skipped blocked (TN) ${tn}${read.recomputed ? " (recomputed: detail missing or malformed)" : ""}`,
    `scores (counts pooled into the task's balanced accuracy): recall ${ratio(tp, tp + fn)} · TNR ${ratio(tn, tn + fp)}`,
  ];
  if (outcome.invalidIds.length > 0) lines.push(`invalid ids (not candidates, ignored by the scorer): ${outcome.invalidIds.join(", ")}`);
  if (unplaced.length > 0) lines.push(`not drawn (no image position): ${unplaced.join(", ")}`);
  return lines;
}

type SetMark = "correct" | "wrong" | "missed";

function setMark(picked: boolean, traversable: boolean): SetMark | undefined {
  if (picked) return traversable ? "correct" : "wrong";
  return traversable ? "missed" : undefined;
}

function drawSetMark(view: View, xy: XY, mark: SetMark): void {
  const { ctx, sizes } = view;
  if (mark === "correct") ring(ctx, xy[0], xy[1], sizes.radius, { color: MARK.correct, width: sizes.line });
  else if (mark === "wrong") cross(ctx, xy[0], xy[1], sizes.radius * 0.75, { color: MARK.wrong, width: sizes.line });
  else dashedRing(ctx, xy, sizes.radius, MARK.missed, sizes.line);
}

/** Draws at a waypoint's position; false when it has none. */
function drawAt(view: View, id: bigint, draw: (xy: XY) => void): boolean {
  const xy = view.at.get(id);
  if (xy) draw(xy);
  return xy !== undefined;
}

// ---------------------------------------------------------------------------------------------
// a2 / b2 / c: routes

function drawRouteResult(view: View, item: RouteItem, read: ReadResult): string[] {
  if (view.reference) drawReferenceRoute(view, item);
  const outcome = read.outcome?.kind === "route" ? read.outcome : null;
  const route = read.errored || !outcome ? [] : outcome.parsedIds ?? [];
  const firstBad = firstIllegalStep(item, route, outcome);
  const unplaced = drawRouteSteps(view, route, firstBad);
  drawAt(view, item.startId, ([x, y]) => ring(view.ctx, x, y, view.sizes.radius, { color: MARK.start, width: view.sizes.line }));
  drawRouteEnd(view, item, route);
  const lines = [routeTruth(item)];
  if (read.errored || !outcome) lines.push("outcome: not scored (the request failed)");
  else lines.push(routeOutcomeLine(item, outcome, read.recomputed), routeScoresLine(item, outcome));
  if (unplaced.length > 0) lines.push(`not drawn (no image position): ${[...new Set(unplaced)].join(", ")}`);
  return lines;
}

function drawReferenceRoute(view: View, item: RouteItem): void {
  const points = item.referenceRoute.map((id) => view.at.get(id)).filter((xy): xy is XY => xy !== undefined);
  dashedPolyline(view.ctx, points, MARK.reference, view.sizes.referenceLine);
  for (const goal of item.acceptableGoals) drawAt(view, goal, (xy) => dashedRing(view.ctx, xy, view.sizes.radius, MARK.reference, view.sizes.referenceLine));
}

/**
 * The index of the first step that is not a listed direct pair: the scorer's offending step when
 * it recorded one (stage illegal_edge), otherwise looked up in the item's sidecar adjacency (routes
 * that failed earlier, e.g. at an undisplayed id or a wrong start, are not checked that far by the
 * scorer). Infinity when every step is legal.
 */
function firstIllegalStep(item: RouteItem, route: bigint[], outcome: RouteOutcome | null): number {
  const recorded = outcome?.stage === "illegal_edge" ? outcome.illegalStep?.index : undefined;
  if (recorded !== undefined && recorded < route.length - 1) return recorded;
  for (let i = 0; i + 1 < route.length; i++) if (stepLength(item, route[i]!, route[i + 1]!) === undefined) return i;
  return Infinity;
}

/** The route's steps, each an arrow from ring edge to ring edge; returns the ids without a position. */
function drawRouteSteps(view: View, route: bigint[], firstBad: number): bigint[] {
  const unplaced = route.filter((id) => !view.at.has(id));
  for (let i = 0; i + 1 < route.length; i++) {
    const [a, b] = [view.at.get(route[i]!), view.at.get(route[i + 1]!)];
    if (!a || !b) continue;
    const color = i < firstBad ? MARK.correct : MARK.wrong;
    const segment = trimmed(a, b, view.sizes.radius);
    if (segment) polyline(view.ctx, segment, { color, width: view.sizes.line, arrows: true });
    else cross(view.ctx, a[0], a[1], view.sizes.radius * 0.5, { color, width: view.sizes.line }); // a step that stays in place
  }
  return unplaced;
}

/**
 * The segment a→b shortened at both ends by the ring radius (so arrows stop at the rings and the
 * marker numbers stay readable), by at most a third of its length; undefined for a zero-length step.
 */
function trimmed(a: XY, b: XY, radius: number): XY[] | undefined {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (length === 0) return undefined;
  const inset = Math.min(radius, length / 3);
  const [ux, uy] = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
  return [[a[0] + ux * inset, a[1] + uy * inset], [b[0] - ux * inset, b[1] - uy * inset]];
}

/** The endpoint: green when it is an acceptable goal, else orange (outside the start ring when they coincide). */
function drawRouteEnd(view: View, item: RouteItem, route: bigint[]): void {
  const last = route[route.length - 1];
  if (last === undefined) return;
  const color = item.acceptableGoals.includes(last) ? MARK.correct : MARK.missed;
  const radius = last === item.startId ? view.sizes.radius + 1.5 * view.sizes.line : view.sizes.radius;
  drawAt(view, last, ([x, y]) => ring(view.ctx, x, y, radius, { color, width: view.sizes.line }));
}

function routeTruth(item: RouteItem): string {
  const reference = item.referenceRoute.length > 0 ? ` · reference ${routeText(item.referenceRoute)}` : "";
  return `truth: start ${item.startId} · acceptable goals ${item.acceptableGoals.join(", ") || "none"}${reference} (optimal ${metres(item.optimalLengthM)})`;
}

function routeOutcomeLine(item: RouteItem, outcome: RouteOutcome, recomputed: boolean): string {
  const route = outcome.parsedIds ?? [];
  const displayed = new Set(item.displayed);
  const why: Record<RouteStage, () => string> = {
    parse: () => "no route to score (empty or unreadable answer)",
    invalid_id: () => `ids not displayed in the image: ${[...new Set(route.filter((id) => !displayed.has(id)))].join(", ")}`,
    wrong_start: () => (route.length < 2 ? "a route needs at least 2 ids" : `starts at ${route[0]}, not at ${item.startId}`),
    illegal_edge: () => {
      const step = outcome.illegalStep;
      return step ? `step ${step.index + 1} (${step.from} → ${step.to}) is not a direct pair` : "a step is not a direct pair";
    },
    wrong_goal: () => `every step legal, but it ends at ${route[route.length - 1]}, not an acceptable goal`,
    success: () => `reaches acceptable goal ${route[route.length - 1]}`,
  };
  return `outcome: ${outcome.stage} – ${why[outcome.stage]()}${recomputed ? " (recomputed: detail missing or malformed)" : ""}`;
}

function routeScoresLine(item: RouteItem, outcome: RouteOutcome): string {
  const length = outcome.lengthM !== undefined ? ` · length ${metres(outcome.lengthM)} of optimal ${metres(item.optimalLengthM)}` : "";
  return `scores: valid path (VPR) ${yesNo(outcome.validPath)} · success (SR) ${yesNo(outcome.success)} · SPL ${outcome.spl.toFixed(3)}${length}`;
}

// ---------------------------------------------------------------------------------------------
// Caption pieces

function headline(item: EgoPathItem): string {
  return `task ${item.task} (${taskInfo(item.task).title}) · question ${item.id}`;
}

/** The model's parsed answer, or why there is none. */
function answerLine(item: EgoPathItem, result: ItemResult): string {
  const none = noAnswerLine(result);
  if (none) return none;
  const answer = asRecord(asRecord(result)["answer"]);
  if (answer["status"] !== "ok") return "answer: none recorded";
  const ids = idList(answer["value"]);
  return ids ? `answer: ${item.kind === "route" ? routeText(ids) || "(empty route)" : idText(ids)}` : "answer: (recorded value is not a list of ids)";
}

/** Controls that showed no image or another question's image (prompt info `image`). */
function shownImageNote(item: EgoPathItem, result: ItemResult): string[] {
  const prompt = asRecord(asRecord(result)["prompt"]);
  if (!("image" in prompt)) return [];
  const shown = prompt["image"];
  if (shown === null) return ["control: text only (the model saw no image)"];
  if (typeof shown === "string" && path.resolve(shown) !== path.resolve(item.imagePath)) {
    return [`control: the model saw another question's image (${shown.split(/[\\/]/).slice(-3).join("/")}); marks are this question's waypoints`];
  }
  return [];
}

const idText = (ids: readonly bigint[]) => `[${ids.join(", ")}]`;
const routeText = (ids: readonly bigint[]) => ids.join(" → ");
const metres = (m: number) => `${m.toFixed(2)} m`;
const yesNo = (flag: boolean) => (flag ? "yes" : "no");
const ratio = (k: number, n: number) => (n > 0 ? `${k}/${n} = ${(k / n).toFixed(3)}` : "n/a");
