import { existsSync } from "node:fs";
import type { ItemResult, OverlayImage, OverlayOptions } from "../../core/benchmark.js";
import { readImageFile } from "../../core/file-read.js";
import { asRecord, noAnswerLine } from "../../core/results.js";
import { blankPicture, box, finish, hasFont, label, MARK, pictureOf, type Picture } from "../../media/draw.js";
import { swapHalves } from "../../media/halves.js";
import { labelDetail } from "./label.js";
import { fineGrainedSetOf, trueStances, type Stance } from "./probes.js";
import { leftPath, other, type ShownPair, type Variant, VARIANTS } from "./prompt.js";
import { DESCRIPTORS, scenarioById, type DescriptorName, type Direction } from "./scenarios.js";
import type { PathEvalItem, PathName } from "./types.js";

/**
 * The picture of one PathEval result.
 * - Pair questions (and the fine-grained probe): the pair image as the model saw it (halves swapped
 *   for the flipped variant), each half labelled with the path it really shows; the model's choice
 *   framed purple, the correct path framed green (outermost); below, a descriptor table (rows: the
 *   release's seven descriptors, columns Path 1 / Path 2) with the deciding descriptors tinted and
 *   the better value of each in green.
 * - The attribute-abstraction probe (text only): the image for context and a table of the model's
 *   stance per descriptor against the scenario's (Table 7).
 * The outcome comes from the result's `detail`; a missing or malformed field counts as no answer,
 * except that a missing choice falls back to the parsed answer (record frame, as readReply stores it).
 */
export async function pathevalOverlay(item: PathEvalItem, result: ItemResult, options: OverlayOptions = {}): Promise<OverlayImage> {
  const maxSide = options.maxSide ?? 1024;
  const record = asRecord(result);
  const shown = shownOf(record["prompt"]);
  if (item.probe?.kind === "attribute-abstraction") return abstractionOverlay(item, record, maxSide);
  return pairOverlay(item, record, shown, maxSide, options.reference !== false);
}

// ---------------------------------------------------------------------------------------------
// Reading the result line (never throws)

const isPathName = (value: unknown): value is PathName => value === "Path 1" || value === "Path 2";

/** The shown pair recorded with the result; plain names, not flipped, when nothing usable was recorded. */
function shownOf(prompt: unknown): ShownPair {
  const info = asRecord(prompt);
  const names = info["names"];
  const variant = VARIANTS.includes(info["variant"] as Variant) ? (info["variant"] as Variant) : "plain";
  const named = Array.isArray(names) && names.length === 2 && names.every((n) => typeof n === "string");
  return { variant, names: named ? (names as [string, string]) : ["Path 1", "Path 2"], flipped: info["flipped"] === true };
}

/** The model's choice in the record's frame: detail.choice, else the parsed answer; null = no choice. */
function choiceOf(record: Record<string, unknown>): PathName | null {
  if (record["status"] === "error") return null;
  const detail = asRecord(record["detail"]);
  if ("choice" in detail) return isPathName(detail["choice"]) ? detail["choice"] : null;
  const answer = asRecord(record["answer"]);
  return answer["status"] === "ok" && isPathName(answer["value"]) ? answer["value"] : null;
}

/** The model's parsed answer (and the side and name it was shown under), or why there is none. */
function answerLine(record: Record<string, unknown>, shown: ShownPair, choice: PathName | null): string {
  const none = noAnswerLine(record);
  if (none) return none;
  if (!choice) return "answer: none recorded";
  const side = choice === leftPath(shown) ? "left" : "right";
  const name = shown.names[side === "left" ? 0 : 1];
  return `answer: ${choice} (the ${side} path${name !== choice ? `, shown as "${name}"` : ""})`;
}

// ---------------------------------------------------------------------------------------------
// The picture

async function loadPicture(file: string, maxSide: number, flipped: boolean): Promise<Picture> {
  if (!file || !existsSync(file)) throw new Error(`patheval overlay: image file not found: ${file || "(no image path)"}`);
  try {
    const bytes = readImageFile(file);
    return await pictureOf(flipped ? await swapHalves(bytes) : bytes, maxSide);
  } catch (error) {
    throw new Error(`patheval overlay: cannot read image file ${file}: ${(error as Error).message}`);
  }
}

/** Frame stroke: 1/160 of the picture's longest side, at least 2 px. */
function frameWidth(picture: Picture): number {
  return Math.max(2, Math.round(Math.max(picture.width, picture.height) / 160));
}

/** The canvas x-range of a shown half. */
function halfRange(picture: Picture, side: "left" | "right"): [number, number] {
  const middle = picture.width / 2;
  return side === "left" ? [0, middle] : [middle, picture.width];
}

/**
 * Frames around a half: the correct path green along the half's edge (stroke covering [0, w] from
 * it), the chosen path purple inside it (covering [2w, 3w]), so both show when they coincide.
 */
function frameHalf(picture: Picture, side: "left" | "right", color: string, inset: number): void {
  const w = frameWidth(picture);
  const [x0, x1] = halfRange(picture, side);
  const d = inset + w / 2;
  box(picture.ctx, x0 + d, d, x1 - d, picture.height - d, { color, width: w });
}

function labelHalves(picture: Picture, shown: ShownPair, size: number): void {
  const left = leftPath(shown);
  const pad = 3 * frameWidth(picture) + 2;
  for (const [side, path, name] of [["left", left, shown.names[0]], ["right", other(left), shown.names[1]]] as const) {
    const text = name === path ? path : `${path} · shown ${shown.flipped ? `${side} ` : ""}as "${name}"`;
    label(picture.ctx, text, halfRange(picture, side)[0] + pad, pad, { size });
  }
}

async function pairOverlay(item: PathEvalItem, record: Record<string, unknown>, shown: ShownPair, maxSide: number, reference: boolean): Promise<OverlayImage> {
  const picture = await loadPicture(item.imagePath, maxSide, shown.flipped);
  const probe = item.probe?.kind === "fine-grained" ? item.probe : undefined;
  const truth = probe ? probe.smaller : item.truth;
  const choice = choiceOf(record);
  const sideOf = (p: PathName) => (p === leftPath(shown) ? "left" : "right");
  if (reference) frameHalf(picture, sideOf(truth), MARK.correct, 0);
  if (choice) frameHalf(picture, sideOf(choice), MARK.chosen, 2 * frameWidth(picture));
  const size = tableFontSize(picture);
  labelHalves(picture, shown, size);
  const deciding = probe ? { [probe.descriptor]: probe.smaller } as Partial<Record<DescriptorName, PathName>> : decidingWins(item);
  const withTable = descriptorTable(picture, item, deciding, shown);
  const caption = probe
    ? fineGrainedCaption(item, record, shown, choice)
    : pairCaption(item, record, shown, choice, deciding);
  return finish(withTable, caption);
}

// ---------------------------------------------------------------------------------------------
// Tables under the picture (drawn with `label`; left out when no font is installed)

/** Table text: 1/48 of the picture's width, between 9 and 18 px; rows are 10 px taller. */
function tableFontSize(picture: Picture): number {
  return Math.min(18, Math.max(9, Math.round(picture.width / 48)));
}

const TABLE_PAD = 6;
const HIGHLIGHT = "#fef3c7";

interface TableRow {
  cells: Array<{ text: string; color?: string }>;
  highlight: boolean;
}

/**
 * The picture with a table band below it: a header row and the given rows, each `size + 10` px
 * tall, starting TABLE_PAD px under the image; highlighted rows are tinted across the full width.
 * Columns start at TABLE_PAD, 45 % and 72 % of the width.
 */
function withTable(picture: Picture, header: string[], rows: TableRow[]): Picture {
  if (!hasFont()) return picture;
  const size = tableFontSize(picture);
  const rowHeight = size + 10;
  const top = picture.height + TABLE_PAD;
  const out = blankPicture(picture.width, picture.height + 2 * TABLE_PAD + (rows.length + 1) * rowHeight);
  out.ctx.drawImage(picture.canvas, 0, 0);
  const columns = [TABLE_PAD, Math.round(picture.width * 0.45), Math.round(picture.width * 0.72)];
  const all: TableRow[] = [{ cells: header.map((text) => ({ text })), highlight: false }, ...rows];
  all.forEach((row, r) => {
    const y = top + r * rowHeight;
    if (row.highlight) {
      out.ctx.fillStyle = HIGHLIGHT;
      out.ctx.fillRect(0, y, out.width, rowHeight);
    }
    row.cells.forEach((cell, c) => label(out.ctx, cell.text, columns[c] ?? 0, y + 2, { size, color: cell.color ?? MARK.text, background: "rgba(0,0,0,0)" }));
  });
  return { ...out, scale: picture.scale };
}

/** Descriptor values as the prompts show them: sharp turns as a count, the rest with 2 decimals. */
function formatValue(name: DescriptorName, value: number): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  return name === "Sharp turns" ? String(value) : value.toFixed(2);
}

function descriptorTable(picture: Picture, item: PathEvalItem, deciding: Partial<Record<DescriptorName, PathName>>, shown: ShownPair): Picture {
  const position = (p: PathName) => (p === leftPath(shown) ? "left" : "right");
  const header = ["descriptor", `Path 1 (${position("Path 1")})`, `Path 2 (${position("Path 2")})`];
  const rows = DESCRIPTORS.map((name): TableRow => {
    const winner = deciding[name];
    const cell = (p: PathName) => ({ text: formatValue(name, item.metrics[p][name]), ...(winner === p ? { color: MARK.correct } : {}) });
    return { cells: [{ text: name }, cell("Path 1"), cell("Path 2")], highlight: winner !== undefined };
  });
  return withTable(picture, header, rows);
}

/**
 * The descriptors that decide the pair's label for its scenario (paper §3.2: relevant to the
 * scenario and differing by at least the threshold), each with the path that is better on it.
 */
function decidingWins(item: PathEvalItem): Partial<Record<DescriptorName, PathName>> {
  if (item.scenarioId === undefined) return {};
  const { wins } = labelDetail(item.metrics["Path 1"], item.metrics["Path 2"], scenarioById(item.scenarioId).directions);
  const out: Partial<Record<DescriptorName, PathName>> = {};
  for (const p of ["Path 1", "Path 2"] as const) for (const name of wins[p]) out[name as DescriptorName] = p;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Captions

function scenarioText(item: PathEvalItem): string {
  return item.scenarioId === undefined ? "scenario not recognised" : `scenario ${item.scenarioId} (${scenarioById(item.scenarioId).agent})`;
}

function promptText(shown: ShownPair): string {
  if (shown.flipped) return "prompt flipped: Path 2 shown on the left";
  if (shown.variant === "random-ids") return `prompt random-ids: shown as "${shown.names[0]}" (left) and "${shown.names[1]}" (right)`;
  if (shown.variant === "descriptors-only") return "prompt descriptors-only: the model saw no image";
  return `prompt ${shown.variant}`;
}

function outcomeLine(record: Record<string, unknown>, choice: PathName | null, truth: PathName): string {
  if (record["status"] === "error") return "outcome: not scored (the request failed)";
  const correct = choice === truth;
  const official = asRecord(record["detail"])["officialCorrect"];
  const officialText = typeof official === "boolean" ? ` · official reading: ${official ? "correct" : "wrong"}` : "";
  return `outcome: ${choice ? (correct ? "correct" : "wrong") : "wrong (no choice)"} · score ${correct ? 1 : 0}${officialText}`;
}

function pairCaption(item: PathEvalItem, record: Record<string, unknown>, shown: ShownPair, choice: PathName | null, deciding: Partial<Record<DescriptorName, PathName>>): string[] {
  const decidingText = (Object.entries(deciding) as Array<[DescriptorName, PathName]>).map(
    ([name, p]) => `${name}: ${p} better (Path 1 ${formatValue(name, item.metrics["Path 1"][name])}, Path 2 ${formatValue(name, item.metrics["Path 2"][name])})`,
  );
  return [
    `${item.task} question ${item.id} · ${scenarioText(item)} · ${promptText(shown)}`,
    answerLine(record, shown, choice),
    `truth: ${item.truth}`,
    outcomeLine(record, choice, item.truth),
    item.scenarioId === undefined ? "deciding descriptors: unknown (scenario not recognised)" : `deciding: ${decidingText.join("; ") || "none"}`,
  ];
}

/**
 * The question line: the segment study asks which segment is nearer the obstacle (Fig. 2); the
 * generated set's pairs were sampled for one ε each (Table 8), the test-set variant's fall in nested subsets.
 */
function fineGrainedQuestion(item: PathEvalItem, probe: Extract<PathEvalItem["probe"], { kind: "fine-grained" }>): string {
  const set = fineGrainedSetOf(probe);
  const difference = formatValue(probe.descriptor, probe.difference);
  if (set === "segments") {
    const segment = (probe as { segment?: string }).segment ?? "segment";
    return `segment study · ${item.id} · which ${segment} is closer to the obstacle? (clearance difference ${difference})`;
  }
  const where = probe.level === "below" ? "below ε1" : set === "generated" ? `sampled for ${probe.level}` : `${probe.level} subset`;
  return `fine-grained probe${set === "test-set" ? " (test-set variant)" : ""} · ${item.id} · which path has the smaller ${probe.descriptor}? · ${where} (difference ${difference})`;
}

function fineGrainedCaption(item: PathEvalItem, record: Record<string, unknown>, shown: ShownPair, choice: PathName | null): string[] {
  const probe = item.probe as Extract<PathEvalItem["probe"], { kind: "fine-grained" }>;
  const [a, b] = [item.metrics["Path 1"][probe.descriptor], item.metrics["Path 2"][probe.descriptor]];
  return [
    fineGrainedQuestion(item, probe),
    answerLine(record, shown, choice),
    `truth: ${probe.smaller} (${probe.descriptor} ${formatValue(probe.descriptor, a)} vs ${formatValue(probe.descriptor, b)})`,
    outcomeLine(record, choice, probe.smaller),
  ];
}

// ---------------------------------------------------------------------------------------------
// Attribute abstraction (text-only probe)

const STANCE_WORD: Record<string, string> = { "-1": "smaller", "0": "irrelevant", "1": "larger" };
const stanceWord = (s: Stance) => (s === null ? "unread" : STANCE_WORD[String(s)]!);

/** The stated stance per descriptor: detail.stances, else the parsed answer; anything else is unread. */
function stancesOf(record: Record<string, unknown>): Record<DescriptorName, Stance> {
  const detail = asRecord(record["detail"]);
  const answer = asRecord(record["answer"]);
  const source = record["status"] === "error" ? {} : "stances" in detail ? asRecord(detail["stances"]) : answer["status"] === "ok" ? asRecord(answer["value"]) : {};
  const out = {} as Record<DescriptorName, Stance>;
  for (const name of DESCRIPTORS) {
    const value = source[name];
    out[name] = value === -1 || value === 0 || value === 1 ? value : null;
  }
  return out;
}

async function abstractionOverlay(item: PathEvalItem, record: Record<string, unknown>, maxSide: number): Promise<OverlayImage> {
  const picture = await loadPicture(item.imagePath, maxSide, false);
  const scenarioId = (item.probe as Extract<PathEvalItem["probe"], { kind: "attribute-abstraction" }>).scenarioId;
  const truth = trueStances(scenarioId);
  const stances = stancesOf(record);
  const errored = record["status"] === "error";
  const rows = DESCRIPTORS.map((name): TableRow => {
    const color = errored ? MARK.reference : stances[name] === truth[name] ? MARK.correct : MARK.wrong;
    return { cells: [{ text: name }, { text: errored ? "–" : stanceWord(stances[name]), color }, { text: stanceWord(truth[name]) }], highlight: truth[name] !== 0 };
  });
  const table = withTable(picture, ["descriptor", "model", "scenario (Table 7)"], rows);
  return finish(table, abstractionCaption(item, record, scenarioId, stances, truth));
}

function stanceSummary(stances: Record<DescriptorName, Stance>): string {
  const groups = new Map<string, string[]>();
  for (const name of DESCRIPTORS) groups.set(stanceWord(stances[name]), [...(groups.get(stanceWord(stances[name])) ?? []), name]);
  return ["larger", "smaller", "irrelevant", "unread"].filter((w) => groups.has(w)).map((w) => `${w}: ${groups.get(w)!.join(", ")}`).join(" · ");
}

function abstractionCaption(item: PathEvalItem, record: Record<string, unknown>, scenarioId: number, stances: Record<DescriptorName, Stance>, truth: Record<DescriptorName, Direction>): string[] {
  const head = `attribute-abstraction probe · ${item.id} · scenario ${scenarioId} (${scenarioById(scenarioId).agent}) · text only (the picture is context, not shown to the model)`;
  const answerText = noAnswerLine(record) ?? `answer: ${stanceSummary(stances)}`;
  const direction = DESCRIPTORS.filter((d) => stances[d] === truth[d]).length;
  const relevance = DESCRIPTORS.filter((d) => stances[d] !== null && (stances[d] !== 0) === (truth[d] !== 0)).length;
  const outcome = record["status"] === "error"
    ? "outcome: not scored (the request failed)"
    : `outcome: ${direction}/${DESCRIPTORS.length} directions right · ${relevance}/${DESCRIPTORS.length} relevance right`;
  return [head, answerText, `truth (Table 7): ${stanceSummary(truth)}`, outcome];
}
