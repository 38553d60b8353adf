/**
 * Training export for the benchmarks whose prompts spatialprobe builds (VCN-Bench, EgoTL-Bench,
 * EPIC-Bench): each question becomes one conversation holding exactly what a model is sent in a
 * run (the prompt source's text, and the pictures and video frames as sampled and resized for
 * it), and, as the target, the reply the `oracle` baseline gives in the task's output format.
 * Each target is read back and scored by the benchmark's own reader and scorer first; a question
 * whose target would not be scored as right is left out and reported, never written.
 *
 * Pictures are written once each (named by their content hash) into a media folder beside the
 * export file, `<name>_media/`, and referenced relative to the export file (or absolutely).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { Answer, Benchmark, BenchItem, BuiltPrompt } from "../core/benchmark.js";
import { writeFileAtomic } from "../core/outputs.js";
import { DataError, UsageError } from "../core/problems.js";
import {
  datasetName, exportLines, imageReference, placeholderIn, prepareOutput, RECORD,
  type Conversation, type ExportFormat, type ImageRoot, type UserPiece,
} from "../core/training-export.js";
import type { Message, Part } from "../core/types.js";

/** Whether a scored target counts as right, per benchmark (the detail is the scorer's ItemResult detail). */
const TARGET_VERDICT: Record<string, (detail: Record<string, unknown>) => string | null> = {
  // Rid-SR / Oid-SR success of the chosen frame.
  vcn: (d) => (d["success"] === true ? null : `the oracle's frame is not a success (${String(d["error"] ?? "no frame")})`),
  // Multiple choice: correct; distance: MRA 1.
  egotl: (d) => (d["correct"] === true || d["MRA"] === 1 ? null : "the oracle's answer does not score as right"),
  // EPIC-Bench scores boxes against masks, so a right answer may score below 1 (IoU of the
  // mask's bounding boxes with the mask); the target must read as a valid response.
  epic: (d) => (d["invalid"] === false ? null : `the oracle's reply reads as no valid response (${String(d["error"] ?? "")})`),
};

export const PROMPT_EXPORT_BENCHMARKS = Object.keys(TARGET_VERDICT);

export interface RefusedItem {
  id: string;
  task: string;
  reason: string;
}

export interface PromptExportRequest {
  data: string;
  format: ExportFormat;
  outFile: string;
  imageRoot?: ImageRoot;
  /** The prompt source (default: the benchmark's first). */
  promptSource?: string;
  /** Sampling and shuffling seed, as `run --seed`. */
  seed?: number;
  /** Most images per conversation (frames are thinned evenly to fit), as a model's limit would. */
  maxImages?: number;
}

export interface PromptExportSummary {
  outFile: string;
  format: ExportFormat;
  exported: number;
  counts: Record<string, number>;
  refused: RefusedItem[];
  mediaDir: string;
  /** Distinct picture files written. */
  pictures: number;
  datasetInfo?: { file: string; name: string };
}

const EXTENSION: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

/** The media folder of an export file: `<dir>/<name>_media`. */
export function mediaDirFor(outFile: string): string {
  return path.join(path.dirname(path.resolve(outFile)), `${datasetName(outFile)}_media`);
}

const textOf = (parts: readonly Part[]): string => parts.map((p) => (p.type === "text" ? p.text : "")).join("");

/** Messages -> system text and user pieces; each picture is handed to `collect`, which returns its index. */
export function conversationPieces(messages: readonly Message[], collect: (part: Extract<Part, { type: "image" }>) => number): { system: string; user: UserPiece[] } | { reason: string } {
  const system = messages.filter((m) => m.role === "system").map((m) => textOf(m.content)).join("\n\n");
  const users = messages.filter((m) => m.role === "user");
  if (messages.some((m) => m.role === "assistant")) return { reason: "the prompt holds assistant turns (a multi-turn prompt); the export writes one question and one answer" };
  if (users.length !== 1) return { reason: `the prompt has ${users.length} user turns, not one` };
  const user: UserPiece[] = [];
  for (const part of users[0]!.content) {
    if (part.type === "text") {
      const placeholder = placeholderIn(part.text);
      if (placeholder) return { reason: `the prompt text contains ${placeholder}, which the trainers read as a media placeholder` };
      const last = user[user.length - 1];
      if (last && "text" in last) last.text += part.text;
      else user.push({ text: part.text });
    } else {
      user.push({ image: collect(part) });
    }
  }
  const placeholder = placeholderIn(system);
  if (placeholder) return { reason: `the system prompt contains ${placeholder}, which the trainers read as a media placeholder` };
  return { system, user };
}

/** Write every distinct picture once; returns its path. */
class MediaFolder {
  private readonly written = new Map<string, string>();
  constructor(readonly dir: string) {}
  store(part: Extract<Part, { type: "image" }>): string {
    const bytes = Buffer.from(part.base64, "base64");
    const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
    const known = this.written.get(hash);
    if (known) return known;
    const file = path.join(this.dir, `${hash}.${EXTENSION[part.mediaType] ?? "bin"}`);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(file, bytes);
    this.written.set(hash, file);
    return file;
  }
  get count(): number {
    return this.written.size;
  }
}

/** The oracle's reply as the target, or why the question is left out. */
function checkedTarget(benchmark: Benchmark<BenchItem>, item: BenchItem, seed: number, info: Record<string, unknown>): { ok: true; text: string } | { ok: false; reason: string } {
  const oracle = benchmark.baselines["oracle"];
  if (!oracle) return { ok: false, reason: `${benchmark.id} has no oracle baseline to take the answer from` };
  const text = oracle.reply(item, seed, info);
  const answer: Answer = benchmark.readReply(item, text, info);
  if (answer.status !== "ok") return { ok: false, reason: `the oracle's reply does not parse (${answer.reason ?? answer.status})` };
  const verdict = TARGET_VERDICT[benchmark.id]!(benchmark.scoreItem(item, answer, info));
  return verdict === null ? { ok: true, text } : { ok: false, reason: verdict };
}

/**
 * Load the data (a DataError lists every problem), build every prompt as a run would, check each
 * target, and write the export file, its pictures and (sharegpt) its dataset_info.json entry.
 * Output problems are found before anything is written.
 */
export async function exportFromPrompts(benchmark: Benchmark<BenchItem>, request: PromptExportRequest): Promise<PromptExportSummary> {
  if (!TARGET_VERDICT[benchmark.id]) throw new UsageError(`export from prompts supports ${PROMPT_EXPORT_BENCHMARKS.join(", ")} (got "${benchmark.id}")`);
  const outFile = path.resolve(request.outFile);
  const info = prepareOutput(request.outFile, request.format);
  const mediaDir = mediaDirFor(outFile);
  if (existsSync(mediaDir) && readdirSync(mediaDir).length > 0) throw new UsageError(`${mediaDir} already holds files; export writes a new media folder and overwrites nothing`);
  const source = request.promptSource ?? benchmark.promptSources[0]!;
  if (!benchmark.promptSources.includes(source)) throw new UsageError(`unknown --prompt "${source}" for ${benchmark.id} (choose ${benchmark.promptSources.join(", ")})`);
  const loaded = benchmark.load(request.data);
  if (loaded.problems.length > 0) throw new DataError(loaded.problems);
  const seed = request.seed ?? 0;
  const prepared = benchmark.preparePrompts(loaded.items, { source, control: "none", seed, ...(request.maxImages ? { maxImages: request.maxImages } : {}) });
  const media = new MediaFolder(mediaDir);
  const counts: Record<string, number> = {};
  const refused: RefusedItem[] = [];
  const records: Record<string, unknown>[] = [];
  for (const item of loaded.items) {
    const built: BuiltPrompt = await prepared.build(item);
    if ("error" in built) {
      refused.push({ id: item.id, task: item.task, reason: `no prompt: ${built.error}` });
      continue;
    }
    const target = checkedTarget(benchmark, item, seed, built.info);
    if (!target.ok) {
      refused.push({ id: item.id, task: item.task, reason: target.reason });
      continue;
    }
    const pictures: Array<Extract<Part, { type: "image" }>> = [];
    const pieces = conversationPieces(built.messages, (part) => pictures.push(part) - 1);
    if ("reason" in pieces) {
      refused.push({ id: item.id, task: item.task, reason: pieces.reason });
      continue;
    }
    const images = pictures.map((part) => imageReference(media.store(part), outFile, request.imageRoot ?? "relative"));
    const conversation: Conversation = { id: item.id, images, system: pieces.system, user: pieces.user, answer: target.text };
    records.push(RECORD[request.format](conversation));
    counts[item.task] = (counts[item.task] ?? 0) + 1;
  }
  writeFileAtomic(outFile, exportLines({ format: request.format, records }));
  if (info) writeFileAtomic(info.infoFile, info.infoText);
  return {
    outFile,
    format: request.format,
    exported: records.length,
    counts,
    refused,
    mediaDir,
    pictures: media.count,
    ...(info ? { datasetInfo: { file: info.infoFile, name: datasetName(outFile) } } : {}),
  };
}
