/**
 * The EgoTL-Bench overlay: the frames a model saw and how its answer compares with the truth.
 *
 * Picture, top: the frames the model saw, thinned evenly to at most MAX_TILES tiles (the current
 * view, when the item has one, is the last tile), titled with the frame number and time; small
 * frames are enlarged to the tile size. Below: a panel of text rows, a header with the outcome,
 * then
 * - multiple-choice tasks: one row per option ("A. ..."), with two marker squares before it: the
 *   chosen option's (purple when right, red when wrong) and the truth's (green);
 * - direction: the five labels, marked the same way;
 * - distance: the predicted and true metres, the MRA, and a scale with a green tick at the truth
 *   and a purple tick at the prediction.
 * `options.reference === false` leaves out the truth's marks (the caption still names it). The
 * whole picture is scaled down to `options.maxSide` (default 1024) when larger.
 *
 * Frames: the item's media sampled with its spec (sampleFrames, cached on disk), then, when the
 * result's prompt info lists the frame numbers sent (after any --max-images thinning), exactly
 * those; without prompt info, every sampled frame. Result data is read defensively (a field of
 * the wrong type counts as absent); only a missing media file throws, naming the file.
 */
import type { ItemResult, OverlayImage, OverlayOptions } from "../../core/benchmark.js";
import { asRecord } from "../../core/results.js";
import { blankPicture, cellFor, enlargeToCell, finish, label, MARK, maxSideOf, shrinkToSide, tileGrid, type Picture, type Tile } from "../../media/draw.js";
import { sampleFrames, thinEvenly, type SampledFrame } from "../../media/frames.js";
import { mra } from "../../stats/mra.js";
import { samplerSpan, type EgoTLItem } from "./load.js";
import { formatSeconds } from "./prompt.js";
import { DIRECTION_LABELS, LETTERS, TASK_TITLES, type DirectionLabel } from "./schema.js";

/** Most tiles drawn (frames plus the current view). */
export const MAX_TILES = 8;
/** Tiles per grid row. */
export const COLUMNS = 4;

/** The text panel's geometry (pixels). */
export const PANEL = Object.freeze({
  /** Narrowest panel (the picture is at least this wide). */
  width: 800,
  pad: 8,
  /** Height of one text line. */
  line: 20,
  textSize: 13,
  /** Marker squares: side, and the left edges of the chosen and the truth slot. */
  marker: 12,
  chosenX: 8,
  truthX: 26,
  textX: 46,
  /** Wrapped lines per row, at most. */
  maxLines: 3,
  /** Height of the distance scale below the rows. */
  scale: 40,
});

/** What the result says was answered. */
export interface EgoTLReading {
  /** answered: something was read; unreadable: the reply gave nothing; missing: no reply; failed: the model call failed. */
  kind: "answered" | "unreadable" | "missing" | "failed";
  /** Multiple choice: the chosen option's index. */
  option: number | null;
  direction: DirectionLabel | null;
  metres: number | null;
  correct: boolean;
  /** Action recognition without a letter: left out of the paper's accuracy. */
  excluded: boolean;
  mra: number | null;
  reason: string | null;
}

// ---------------------------------------------------------------------------------------------
// Defensive readers of JSON round-tripped data

const intOf = (value: unknown): number | null => (typeof value === "number" && Number.isInteger(value) ? value : null);
const numberOf = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const textOf = (value: unknown): string | null => (typeof value === "string" ? value : null);
const intListOf = (value: unknown): number[] | null => (Array.isArray(value) && value.every((v) => Number.isInteger(v)) ? (value as number[]) : null);

/** The chosen option / label / distance, from the detail where well-formed, else from the answer value. */
function chosenValue(item: EgoTLItem, detail: Record<string, unknown>, value: Record<string, unknown>): Pick<EgoTLReading, "option" | "direction" | "metres"> {
  const none = { option: null, direction: null, metres: null };
  switch (item.truth.kind) {
    case "option": {
      const letter = (LETTERS as readonly unknown[]).indexOf(detail["predicted"]);
      const index = letter >= 0 ? letter : intOf(value["index"]);
      return index !== null && index >= 0 && index < (item.options?.length ?? 0) ? { ...none, option: index } : none;
    }
    case "direction": {
      const labels = DIRECTION_LABELS as readonly unknown[];
      const found = [detail["predicted"], value["label"]].find((v) => labels.includes(v));
      return found !== undefined ? { ...none, direction: found as DirectionLabel } : none;
    }
    case "distance": {
      const metres = numberOf(detail["predicted"]) ?? numberOf(value["metres"]);
      return metres !== null ? { ...none, metres } : none;
    }
  }
}

/** A multiple-choice or direction answer right under the item's truth (when the result does not record it). */
function isRight(item: EgoTLItem, chosen: Pick<EgoTLReading, "option" | "direction">): boolean {
  const t = item.truth;
  return t.kind === "option" ? chosen.option === t.index : t.kind === "direction" && chosen.direction === t.label;
}

/** What was answered and how it scored: the recorded detail where well-formed, else recomputed from the answer. */
export function readChosen(item: EgoTLItem, result: unknown): EgoTLReading {
  const r = asRecord(result);
  const detail = asRecord(r["detail"]);
  const answer = asRecord(r["answer"]);
  const nothing = { option: null, direction: null, metres: null, correct: false, mra: item.truth.kind === "distance" ? 0 : null };
  if (r["status"] === "error") {
    return { ...nothing, kind: "failed", excluded: false, mra: null, reason: `model call failed: ${textOf(asRecord(asRecord(r["response"])["error"])["message"]) ?? "unknown error"}` };
  }
  const chosen = chosenValue(item, detail, answer["status"] === "ok" ? asRecord(answer["value"]) : {});
  if (chosen.option === null && chosen.direction === null && chosen.metres === null) {
    const missing = answer["status"] === "missing" || answer["status"] === "failed" || Object.keys(answer).length === 0;
    const reason = textOf(answer["reason"]) ?? (missing ? "no answer recorded" : "the answer could not be read");
    const excluded = detail["excluded"] === true || (item.task === "action_recognition" && !missing);
    return { ...nothing, kind: missing ? "missing" : "unreadable", excluded, reason };
  }
  const correct = typeof detail["correct"] === "boolean" ? (detail["correct"] as boolean) : isRight(item, chosen);
  const score = item.truth.kind === "distance" ? (numberOf(detail["MRA"]) ?? mra(chosen.metres!, item.truth.metres)) : null;
  return { ...chosen, kind: "answered", correct: item.truth.kind === "distance" ? score === 1 : correct, excluded: false, mra: score, reason: null };
}

// ---------------------------------------------------------------------------------------------
// Frames

export interface SeenFrames {
  frames: SampledFrame[];
  current: SampledFrame | null;
  /** Frames sampled from the media before any --max-images thinning. */
  sampled: number;
  /** Where the frame list came from. */
  from: "prompt info" | "item";
  note: string | null;
}

/** The frames the model saw: the item's media re-sampled (cached), narrowed to the frame numbers the prompt info lists. */
export async function seenFrames(item: EgoTLItem, result: unknown): Promise<SeenFrames> {
  const current = item.currentFrame ? (await sampleFrames({ frames: [item.currentFrame.path] }, { mode: "all" })).frames[0]! : null;
  if (!item.media) return { frames: [], current, sampled: 0, from: "item", note: null };
  const { frames } = await sampleFrames(item.media.source, item.media.spec, { ...(item.media.fps ? { sourceFps: item.media.fps } : {}), ...samplerSpan(item.media.span) });
  const info = asRecord(asRecord(asRecord(result)["prompt"])["frames"]);
  const indices = intListOf(info["indices"]);
  const note = textOf(info["thinning"]);
  if (!indices) return { frames, current, sampled: frames.length, from: "item", note };
  const byIndex = new Map(frames.map((f) => [f.index, f]));
  const picked = indices.map((i) => byIndex.get(i));
  if (picked.some((f) => f === undefined)) return { frames, current, sampled: frames.length, from: "item", note: "the recorded frame numbers are not in the media any more; all sampled frames drawn" };
  return { frames: picked as SampledFrame[], current, sampled: frames.length, from: "prompt info", note };
}

const frameTitle = (f: SampledFrame): string => `frame ${f.index}${f.timestamp !== null ? ` · ${formatSeconds(f.timestamp)} s` : ""}`;

/** At most MAX_TILES tiles: the seen frames thinned evenly, then the current view. */
export function tilesOf(seen: SeenFrames): Tile[] {
  const budget = MAX_TILES - (seen.current ? 1 : 0);
  const tiles: Tile[] = thinEvenly(seen.frames, budget).kept.map((f) => ({ image: f.png, title: frameTitle(f) }));
  if (seen.current) tiles.push({ image: seen.current.png, title: "current view" });
  return tiles;
}

// ---------------------------------------------------------------------------------------------
// The text panel

/** One text row of the panel, with the colours of its chosen and truth markers (none: no marker). */
export interface PanelRow {
  text: string;
  chosen?: string;
  truth?: string;
}

/** Text cut into lines of at most `width` characters (at spaces; longer words split), at most `max` lines ("…" ends a cut). */
export function wrapText(text: string, width: number, max: number): string[] {
  const words = text.replace(/\s+/g, " ").trim().split(" ").flatMap((word) => {
    const pieces: string[] = [];
    for (let i = 0; i < word.length; i += width) pieces.push(word.slice(i, i + width));
    return pieces.length > 0 ? pieces : [""];
  });
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept[max - 1] = `${kept[max - 1]!.slice(0, Math.max(0, width - 1))}…`;
  return kept;
}

/** Characters per wrapped line for a panel width (DejaVu Sans averages about 0.55 em). */
const charsPerLine = (width: number): number => Math.max(12, Math.floor((width - PANEL.textX - PANEL.pad) / (PANEL.textSize * 0.58)));

function rowsOf(item: EgoTLItem, reading: EgoTLReading, reference: boolean): PanelRow[] {
  const chosenColour = reading.correct ? MARK.chosen : MARK.wrong;
  const t = item.truth;
  if (t.kind === "option") {
    return (item.options ?? []).map((text, i) => ({
      text: `${LETTERS[i] ?? "?"}. ${text}`,
      ...(reading.option === i ? { chosen: chosenColour } : {}),
      ...(reference && t.index === i ? { truth: MARK.correct } : {}),
    }));
  }
  if (t.kind === "direction") {
    return DIRECTION_LABELS.map((text) => ({ text, ...(reading.direction === text ? { chosen: chosenColour } : {}), ...(reference && t.label === text ? { truth: MARK.correct } : {}) }));
  }
  return [
    { text: `predicted: ${reading.metres !== null ? `${reading.metres} m` : "none"}`, ...(reading.metres !== null ? { chosen: (reading.mra ?? 0) > 0 ? MARK.chosen : MARK.wrong } : {}) },
    ...(reference ? [{ text: `truth: ${t.metres} m`, truth: MARK.correct }] : []),
    { text: `MRA: ${reading.mra ?? 0}` },
  ];
}

function headerOf(item: EgoTLItem, reading: EgoTLReading, reference: boolean): string {
  if (reading.kind !== "answered") return `no answer: ${reading.reason ?? reading.kind}${reading.excluded ? " (excluded)" : ""}`;
  if (item.truth.kind === "distance") return `predicted ${reading.metres} m${reference ? `, truth ${item.truth.metres} m` : ""}, MRA ${reading.mra}`;
  const chosen = reading.option !== null ? LETTERS[reading.option] : reading.direction;
  return `chosen ${chosen}: ${reading.correct ? "right" : "wrong"}`;
}

/** x of a distance on the scale from x0 (0 m) to x1 (top metres). */
const scaleX = (metres: number, top: number, x0: number, x1: number): number => Math.round(x0 + ((x1 - x0) * Math.min(Math.max(metres, 0), top)) / top);

/** The distance scale: a grey axis, the truth as a tall green tick, the prediction as a short purple (red at MRA 0) tick. */
function drawScale(picture: Picture, top: number, truth: number | null, reading: EgoTLReading): void {
  const { ctx } = picture;
  const x0 = PANEL.textX;
  const x1 = picture.width - 3 * PANEL.pad;
  const y = top + PANEL.scale / 2;
  const high = Math.max(truth ?? 0, reading.metres ?? 0) * 1.25 || 1;
  ctx.fillStyle = MARK.reference;
  ctx.fillRect(x0, y - 1, x1 - x0, 2);
  if (truth !== null) {
    ctx.fillStyle = MARK.correct;
    ctx.fillRect(scaleX(truth, high, x0, x1) - 2, y - 12, 4, 24);
  }
  if (reading.metres !== null) {
    ctx.fillStyle = (reading.mra ?? 0) > 0 ? MARK.chosen : MARK.wrong;
    ctx.fillRect(scaleX(reading.metres, high, x0, x1) - 2, y - 6, 4, 12);
  }
}

/** The panel below the frames: header, rows with markers, the distance scale. */
function drawPanel(item: EgoTLItem, reading: EgoTLReading, width: number, reference: boolean): Picture {
  const chars = charsPerLine(width);
  const rows = [{ text: headerOf(item, reading, reference) } as PanelRow, ...rowsOf(item, reading, reference)].map((row) => ({ row, lines: wrapText(row.text, chars, PANEL.maxLines) }));
  const lineCount = rows.reduce((n, r) => n + r.lines.length, 0);
  const withScale = item.truth.kind === "distance";
  const picture = blankPicture(width, 2 * PANEL.pad + lineCount * PANEL.line + (withScale ? PANEL.scale : 0));
  let line = 0;
  for (const { row, lines } of rows) {
    const top = PANEL.pad + line * PANEL.line;
    const inset = (PANEL.line - PANEL.marker) / 2;
    for (const [slot, colour] of [[PANEL.chosenX, row.chosen], [PANEL.truthX, row.truth]] as const) {
      if (!colour) continue;
      picture.ctx.fillStyle = colour;
      picture.ctx.fillRect(slot, top + inset, PANEL.marker, PANEL.marker);
    }
    lines.forEach((text, k) => label(picture.ctx, text, PANEL.textX, top + k * PANEL.line, { size: PANEL.textSize, background: MARK.paper }));
    line += lines.length;
  }
  if (withScale) drawScale(picture, PANEL.pad + line * PANEL.line, reference && item.truth.kind === "distance" ? item.truth.metres : null, reading);
  return picture;
}

// ---------------------------------------------------------------------------------------------
// Caption

const shorten = (text: string, max = 160): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** Option text kept in the caption (planning's candidate plans differ late in the text). */
const OPTION_CHARS = 400;

function truthText(item: EgoTLItem): string {
  const t = item.truth;
  if (t.kind === "option") return `${LETTERS[t.index]} (${shorten(item.options?.[t.index] ?? "", OPTION_CHARS)})`;
  return t.kind === "direction" ? t.label : `${t.metres} m`;
}

function chosenText(item: EgoTLItem, reading: EgoTLReading): string {
  if (reading.kind !== "answered") return `none: ${reading.reason ?? reading.kind}`;
  if (reading.option !== null) return `${LETTERS[reading.option]} (${shorten(item.options?.[reading.option] ?? "", OPTION_CHARS)})`;
  return reading.direction ?? `${reading.metres} m`;
}

function outcomeText(item: EgoTLItem, reading: EgoTLReading): string {
  if (reading.kind === "failed") return "outcome: not scored (the model call failed)";
  if (item.truth.kind === "distance") return `outcome: MRA ${reading.mra ?? 0}${reading.kind === "answered" ? "" : " (no number read)"}`;
  if (reading.kind === "answered") return `outcome: ${reading.correct ? "correct" : "wrong"}`;
  if (reading.excluded) return "outcome: unreadable, excluded from the paper's accuracy (counted wrong in accuracy_counted)";
  return `outcome: ${reading.kind === "missing" ? "no prediction" : "unreadable"}, counted wrong`;
}

function framesText(seen: SeenFrames, drawn: number): string {
  if (seen.frames.length === 0) return seen.current ? "frames: the current view only" : "frames: none";
  const numbers = seen.frames.map((f) => f.index);
  const list = numbers.length > 20 ? `${numbers.slice(0, 20).join(", ")}, …` : numbers.join(", ");
  const source = seen.from === "prompt info" ? `${seen.frames.length} shown to the model (of ${seen.sampled} sampled)` : `${seen.frames.length} sampled from the item (no prompt info)`;
  return `frames: ${source}: ${list}; ${drawn} drawn${seen.note ? `; ${seen.note}` : ""}`;
}

function captionOf(item: EgoTLItem, result: unknown, reading: EgoTLReading, seen: SeenFrames, drawn: number): string[] {
  const rotation = item.rotation ? ` · rotation ${item.rotation.k} of ${item.rotation.base} (options shifted left by ${item.rotation.k})` : "";
  const recordedRotation = intOf(asRecord(asRecord(result)["prompt"])["rotation"]);
  return [
    `${item.id} · ${TASK_TITLES[item.task]}${rotation}`,
    ...(item.abstractTask ? [`abstract task: ${shorten(item.abstractTask)}`] : []),
    ...(item.chainOfThought ? [`chain of thought: ${shorten(item.chainOfThought)}`] : []),
    `chosen: ${chosenText(item, reading)}`,
    `truth: ${truthText(item)}`,
    outcomeText(item, reading),
    framesText(seen, drawn),
    ...(item.currentFrame ? [`current view: ${item.currentFrame.display}`] : []),
    ...(item.rotation && recordedRotation !== null && recordedRotation !== item.rotation.k ? [`note: the result records rotation ${recordedRotation}`] : []),
  ];
}

// ---------------------------------------------------------------------------------------------
// The overlay

/** The frames the model saw above the options (or labels, or distances) with the chosen and the true answer marked. */
export async function egotlOverlay(item: EgoTLItem, result: ItemResult, options: OverlayOptions = {}): Promise<OverlayImage> {
  const maxSide = maxSideOf(options);
  const reference = options.reference !== false;
  const seen = await seenFrames(item, result);
  const reading = readChosen(item, result);
  const tiles = tilesOf(seen);
  const cell = cellFor(COLUMNS, maxSide);
  const grid = tiles.length > 0 ? await tileGrid(await Promise.all(tiles.map(async (t) => ({ ...t, image: await enlargeToCell(t.image, cell) }))), { columns: Math.min(COLUMNS, tiles.length), cell }) : null;
  const panel = drawPanel(item, reading, Math.max(grid?.width ?? 0, PANEL.width), reference);
  const picture = blankPicture(panel.width, (grid?.height ?? 0) + panel.height);
  if (grid) picture.ctx.drawImage(grid.canvas, 0, 0);
  picture.ctx.drawImage(panel.canvas, 0, grid?.height ?? 0);
  return finish(shrinkToSide(picture, maxSide), captionOf(item, result, reading, seen, tiles.length));
}
