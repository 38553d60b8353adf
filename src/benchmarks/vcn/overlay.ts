/**
 * The VCN-Bench overlay: why a goal-identification answer scored what it did.
 *
 * Picture (top row): the chosen tour frame first (border green on success, red otherwise; a grey
 * placeholder with a cross when no tour frame was chosen: an unreadable reply, a failed call, or
 * an index outside the tour), then the target frames, i.e. the frames that would have succeeded
 * (the item's success frames; at most MAX_TARGETS, picked evenly), with green borders. Second
 * row, unless `options.reference` is false: the four initial views. The whole picture is scaled
 * down to `options.maxSide` (default 1024) when larger.
 *
 * Frames are the item's tour sampled with its frame spec and the default template's pixel budget
 * (sampleFrames, cached on disk), so the pictures show what a model was sent. The result's
 * prompt info adds what only the run knows (shown order, thinning, the tour's hash); without it
 * the picture is drawn from the item alone.
 *
 * Result data is read defensively: a field of the wrong type counts as absent, and the outcome
 * is recomputed from the item where the recorded one is missing. Only a missing media file throws.
 */
import { existsSync } from "node:fs";
import type { ItemResult, OverlayImage, OverlayOptions } from "../../core/benchmark.js";
import { asRecord } from "../../core/results.js";
import { blankPicture, cellFor, cross, enlargeToCell, finish, MARK, maxSideOf, shrinkToSide, stackPictures, tileGrid, type Tile } from "../../media/draw.js";
import { sampleFrames, thinEvenly, type SampledFrame } from "../../media/frames.js";
import { chanceLevels, frameSucceeds, successFrames } from "./chance.js";
import { loadTemplates } from "./prompt.js";
import { TASK_NAMES } from "./schema.js";
import { classifyFrame, ERROR_MEANINGS, type ErrorCategory } from "./taxonomy.js";
import type { GoalTarget, VcnItem } from "./types.js";

/** Most target frames drawn; more are thinned evenly (the caption gives the count). */
export const MAX_TARGETS = 6;
/** Fill of the placeholder tile when no tour frame was chosen. */
const PLACEHOLDER = "#e5e7eb";

/** What the result says about the chosen frame. */
export interface ChosenFrame {
  /** answered: a tour frame; out-of-range: a number that names no tour frame; none: no number (unreadable, missing, failed call). */
  kind: "answered" | "out-of-range" | "none";
  /** The chosen tour index (answered only). */
  frame: number | null;
  /** The number read from the reply (a tour index, or a shown position under shuffled labels). */
  replyIndex: number | null;
  success: boolean;
  error: ErrorCategory | null;
  /** Why there is no answer (unreadable reason, call error). */
  reason: string | null;
  /** The model call failed (an infrastructure error, not scored). */
  failed: boolean;
}

// ---------------------------------------------------------------------------------------------
// Defensive readers of JSON round-tripped data

const intOf = (value: unknown): number | null => (typeof value === "number" && Number.isInteger(value) ? value : null);
const numberOf = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const textOf = (value: unknown): string | null => (typeof value === "string" ? value : null);
const intListOf = (value: unknown): number[] | null => (Array.isArray(value) && value.every((v) => Number.isInteger(v)) ? (value as number[]) : null);
const isCategory = (value: unknown): value is ErrorCategory => typeof value === "string" && Object.hasOwn(ERROR_MEANINGS, value);

/** The chosen frame and its outcome: the recorded detail where it is well-formed, else recomputed from the answer. */
export function readChosen(item: VcnItem, result: unknown): ChosenFrame {
  const r = asRecord(result);
  const none = (reason: string, failed = false): ChosenFrame => ({ kind: "none", frame: null, replyIndex: null, success: false, error: "no-answer", reason, failed });
  if (r["status"] === "error") return none(`model call failed: ${textOf(asRecord(asRecord(r["response"])["error"])["message"]) ?? "unknown error"}`, true);
  const detail = asRecord(r["detail"]);
  const answer = asRecord(r["answer"]);
  const value = answer["status"] === "ok" ? asRecord(answer["value"]) : {};
  const replyIndex = intOf(detail["reply_index"]) ?? intOf(value["reply_index"]);
  const frame = intOf(detail["frame"]) ?? (detail["error"] === "out-of-range" ? null : intOf(value["frame"]));
  if (frame === null && replyIndex === null) {
    const status = textOf(answer["status"]);
    const reason = textOf(answer["reason"]) ?? (status === "missing" ? "no prediction" : "no answer recorded");
    return none(status === "unparseable" ? `unreadable reply: ${reason}` : reason);
  }
  const inTour = frame !== null && frame >= 0 && frame < item.annotations.length;
  const computed = inTour ? classifyFrame(item, item.target, frame) : "out-of-range";
  const error = typeof detail["success"] === "boolean" && (detail["error"] === null || isCategory(detail["error"])) ? (detail["error"] as ErrorCategory | null) : computed;
  const success = typeof detail["success"] === "boolean" ? (detail["success"] as boolean) : computed === null;
  return { kind: inTour ? "answered" : "out-of-range", frame: inTour ? frame : null, replyIndex: replyIndex ?? frame, success: inTour && success, error: inTour ? error : "out-of-range", reason: null, failed: false };
}

// ---------------------------------------------------------------------------------------------
// Frames and tiles

let defaultMaxPixels: number | null | undefined;

/** The pixel budget prompts use (the default template's), so the overlay reuses their cached frames. */
function promptMaxPixels(): number | undefined {
  if (defaultMaxPixels === undefined) {
    try {
      defaultMaxPixels = loadTemplates().max_pixels;
    } catch {
      defaultMaxPixels = null;
    }
  }
  return defaultMaxPixels ?? undefined;
}

/** The item's tour, sampled as prompts sample it; throws (naming the file) when media is missing. */
async function loadTour(item: VcnItem): Promise<{ frames: SampledFrame[]; sha256: string }> {
  const maxPixels = promptMaxPixels();
  const { frames, provenance } = await sampleFrames(item.tour.source, item.tour.spec, maxPixels ? { maxPixels } : {});
  return { frames, sha256: provenance.sha256 };
}

/** A grey tile with a cross, the size of a tour frame: no tour frame was chosen. */
async function placeholderTile(width: number, height: number): Promise<Buffer> {
  const picture = blankPicture(width, height);
  picture.ctx.fillStyle = PLACEHOLDER;
  picture.ctx.fillRect(0, 0, width, height);
  cross(picture.ctx, width / 2, height / 2, Math.min(width, height) * 0.3, { color: MARK.wrong, width: 3 });
  return (await finish(picture, [])).png;
}

function chosenTile(chosen: ChosenFrame, frames: SampledFrame[], placeholder: Buffer): Tile {
  const frame = chosen.frame !== null ? frames[chosen.frame] : undefined;
  if (chosen.kind === "answered") {
    return { image: frame?.png ?? placeholder, title: `chosen: frame ${chosen.frame}`, border: chosen.success ? MARK.correct : MARK.wrong };
  }
  const why = chosen.failed ? "call failed" : chosen.reason?.startsWith("unreadable") ? "unreadable" : "no answer";
  const title = chosen.kind === "out-of-range" ? `chosen: ${chosen.replyIndex} (out of range)` : `chosen: none (${why})`;
  return { image: placeholder, title, border: MARK.wrong };
}

/** The success frames drawn: all, or MAX_TARGETS of them spread evenly. */
export function drawnTargets(item: VcnItem): { all: number[]; drawn: number[] } {
  const all = successFrames(item);
  return { all, drawn: thinEvenly(all, MAX_TARGETS).kept };
}

function viewTiles(item: VcnItem): Tile[] {
  return (["front", "left", "back", "right"] as const).map((direction) => {
    const file = item.views[direction];
    if (!existsSync(file)) throw new Error(`missing initial view image: ${file}`);
    return { image: file, title: direction };
  });
}

/** Tiles with their images enlarged to the cell (small tour frames stay legible next to their titles). */
async function enlargeTiles(tiles: Tile[], cell: number): Promise<Tile[]> {
  return Promise.all(tiles.map(async (tile) => ({ ...tile, image: await enlargeToCell(tile.image, cell) })));
}

// ---------------------------------------------------------------------------------------------
// Caption

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;
const targetText = (target: GoalTarget): string => (target.kind === "room" ? `room ${target.room} (${target.category})` : `object ${target.object} (${target.category})`);
const listText = (values: readonly number[], max = 30): string => (values.length > max ? `${values.slice(0, max).join(", ")}, …` : values.join(", "));

function outcomeLines(item: VcnItem, result: unknown, chosen: ChosenFrame, frames: SampledFrame[]): string[] {
  const reply = textOf(asRecord(result)["reply"]);
  const quoted = reply === null ? "" : ` (reply "${reply.length > 80 ? `${reply.slice(0, 80)}…` : reply}")`;
  const metric = item.target.kind === "room" ? "Rid-SR" : "Oid-SR";
  if (chosen.kind === "none") return [`chosen: none: ${chosen.reason}`, `${metric} success: no (${chosen.failed ? "not scored: the call failed" : "counts as a failure"})`];
  const lines: string[] = [];
  if (chosen.kind === "out-of-range") lines.push(`chosen: ${chosen.replyIndex}, not a frame of the ${item.annotations.length}-frame tour${quoted}`);
  else {
    const frame = frames[chosen.frame!];
    const video = frame && (frame.index !== chosen.frame || frame.timestamp !== null) ? ` = source frame ${frame.index}${frame.timestamp !== null ? ` at ${frame.timestamp} s` : ""}` : "";
    lines.push(`chosen: frame ${chosen.frame}${video}${quoted}`);
  }
  const error = chosen.error ? `; error: ${chosen.error} (${ERROR_MEANINGS[chosen.error]})` : "";
  lines.push(`${metric} success: ${chosen.success ? "yes" : "no"}${error}`);
  return lines;
}

function chanceLine(item: VcnItem, result: unknown): string {
  const recorded = asRecord(asRecord(asRecord(result)["detail"])["chance"]);
  const exact = chanceLevels(item);
  const complete = numberOf(recorded["complete"]) ?? exact.complete;
  const category = numberOf(recorded["category"]) ?? exact.category;
  const shown = asRecord(asRecord(asRecord(result)["detail"])["chance_shown"]);
  const shownText = numberOf(shown["complete"]) !== null ? `; over the frames shown: complete ${percent(numberOf(shown["complete"])!)}, category ${percent(numberOf(shown["category"]) ?? 0)}` : "";
  return `chance: complete ${percent(complete)}, category ${percent(category)}${shownText}`;
}

/** What the prompt info tells: shuffled labels, thinning, a tour that changed since the run. */
function promptLines(item: VcnItem, result: unknown, chosen: ChosenFrame, targets: number[], tourSha: string): string[] {
  const prompt = asRecord(asRecord(result)["prompt"]);
  const shown = intListOf(prompt["shown"]);
  if (!shown) return ["prompt info: not recorded (frames re-sampled from the item)"];
  const lines: string[] = [];
  if (prompt["labels"] === "shown-position") {
    const positionOf = (frame: number) => shown.indexOf(frame);
    if (chosen.replyIndex !== null) lines.push(`shuffled frames: the reply named shown position ${chosen.replyIndex}${chosen.frame !== null ? ` = tour frame ${chosen.frame}` : " (no such position)"}`);
    lines.push(`target frames at shown positions: ${targets.map((t) => `${t}→${positionOf(t) >= 0 ? positionOf(t) : "not shown"}`).join(", ")}`);
    lines.push(`shown position → tour frame: ${shown.slice(0, 40).map((frame, k) => `${k}→${frame}`).join(", ")}${shown.length > 40 ? ", …" : ""}`);
  }
  const dropped = intOf(prompt["dropped"]) ?? 0;
  if (dropped > 0) {
    const hidden = targets.filter((t) => !shown.includes(t));
    lines.push(`the prompt showed ${shown.length} of ${item.annotations.length} tour frames${hidden.length > 0 ? `; target frames not shown: ${listText(hidden)}` : ""}`);
  }
  const sha = textOf(prompt["tour_sha256"]);
  if (sha !== null && sha !== tourSha) lines.push("note: the tour files differ from those of the run (tour hash changed)");
  return lines;
}

function counterfactualLines(item: VcnItem, result: unknown, chosen: ChosenFrame): string[] {
  const d = item.derivation;
  if (!d) return [];
  const recorded = asRecord(asRecord(asRecord(result)["detail"])["counterfactual"]);
  const annotation = chosen.frame !== null ? item.annotations[chosen.frame] : undefined;
  const original: GoalTarget = item.target.kind === "room" ? { kind: "room", room: d.original.target, category: "" } : { kind: "object", object: d.original.target, category: "" };
  const choseOriginal = typeof recorded["chose_original"] === "boolean" ? recorded["chose_original"] : annotation ? frameSucceeds(original, annotation) : false;
  return [
    `counterfactual of ${d.of}: relation "${d.original.relation}" swapped to "${item.query?.relation ?? "?"}"; original instruction: ${d.original.instruction}`,
    `original target: ${d.original.target}; chose a frame of the original target: ${choseOriginal ? "yes" : "no"}`,
  ];
}

function captionOf(item: VcnItem, result: unknown, chosen: ChosenFrame, frames: SampledFrame[], targets: { all: number[]; drawn: number[] }, tourSha: string): string[] {
  const shownTargets = targets.drawn.length < targets.all.length ? ` (showing ${targets.drawn.length}: ${targets.drawn.join(", ")})` : "";
  return [
    `${item.id} · ${TASK_NAMES[item.task]} (${item.target.kind === "room" ? "Rid-SR" : "Oid-SR"})`,
    `instruction: ${item.instruction}`,
    ...outcomeLines(item, result, chosen, frames),
    `target: ${targetText(item.target)}; ${targets.all.length} target frame${targets.all.length === 1 ? "" : "s"}: ${listText(targets.all)}${shownTargets}`,
    chanceLine(item, result),
    ...promptLines(item, result, chosen, targets.all, tourSha),
    ...counterfactualLines(item, result, chosen),
  ];
}

// ---------------------------------------------------------------------------------------------
// The overlay

/** The chosen frame next to the target frames (and the initial views): one picture and its caption. */
export async function vcnOverlay(item: VcnItem, result: ItemResult, options: OverlayOptions = {}): Promise<OverlayImage> {
  const maxSide = maxSideOf(options);
  const tour = await loadTour(item);
  const chosen = readChosen(item, result);
  const targets = drawnTargets(item);
  const first = tour.frames[0];
  const placeholder = await placeholderTile(first?.width ?? 64, first?.height ?? 48);
  const topTiles: Tile[] = [
    chosenTile(chosen, tour.frames, placeholder),
    ...targets.drawn.map((t): Tile => ({ image: tour.frames[t]?.png ?? placeholder, title: `target: frame ${t}`, border: MARK.correct })),
  ];
  const cell = cellFor(Math.max(4, topTiles.length), maxSide);
  const rows = [await tileGrid(await enlargeTiles(topTiles, cell), { columns: topTiles.length, cell })];
  if (options.reference !== false) rows.push(await tileGrid(await enlargeTiles(viewTiles(item), cell), { columns: 4, cell }));
  const picture = shrinkToSide(stackPictures(rows), maxSide);
  return finish(picture, captionOf(item, result, chosen, tour.frames, targets, tour.sha256));
}
