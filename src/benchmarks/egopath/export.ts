/**
 * Training export (issue 11, item 7): one supervised conversation per question, with the question's
 * image, its prompt exactly as the release stores it (system_prompt and user_prompt, sent verbatim
 * as every stored prompt is), and its ground-truth answer as a JSON array of display ids
 * ("[1, 4, 7]", the form the stored prompts ask for). Every answer is first scored with our own
 * EgoPathBench scorer (score.ts); a question whose stored answer would not earn full marks is left
 * out and reported, never written as a training target.
 *
 * The formats (llava, sharegpt, swift) are written by core/training-export.ts.
 */
import path from "node:path";
import { writeFileAtomic } from "../../core/outputs.js";
import { datasetName, exportLines, imageReference, placeholderIn, prepareOutput, RECORD, type ExportFormat, type ImageRoot } from "../../core/training-export.js";
export { EXPORT_FORMATS, IMAGE_ROOTS, type ExportFormat, type ImageRoot } from "../../core/training-export.js";
import { loadReleaseOrThrow, toIdOrNull, type Split } from "./load.js";
import { scoreRouteItem, scoreSetItem } from "./score.js";
import { TASK_CODES, type TaskCode } from "./tasks.js";
import type { EgoPathItem, RouteItem, SetItem } from "./types.js";

/** A question's answer after the check: the ids to train on, or why the question is left out. */
export type CheckedAnswer = { ok: true; ids: bigint[] } | { ok: false; reason: string };

/** A question left out of the export, and why. */
export interface RefusedQuestion {
  id: string;
  task: TaskCode;
  reason: string;
}

/** The answer as training text: a JSON array with Python's default separators, "[1, 4, 7]". */
export function answerText(ids: readonly bigint[]): string {
  return `[${ids.map(String).join(", ")}]`;
}

const idList = (ids: Iterable<bigint>) => [...ids].map(String).join(", ");

/** The stored answer and the field it came from: ground_truth.answer, else the task's own truth field. */
function storedAnswer(item: EgoPathItem): { ids: bigint[]; field: string } | { reason: string } {
  const gt = item.groundTruth;
  const fallback = item.kind === "set" ? "walkable_ids" : "reference_path_display_ids";
  const field = Array.isArray(gt["answer"]) ? "answer" : fallback;
  const raw = gt[field];
  if (!Array.isArray(raw)) return { reason: `no stored answer (neither ground_truth.answer nor ground_truth.${fallback} is a list)` };
  const ids: bigint[] = [];
  for (const value of raw) {
    const id = toIdOrNull(value);
    if (id === null) return { reason: `ground_truth.${field} holds ${JSON.stringify(value)}, not an integer id` };
    ids.push(id);
  }
  return { ids, field };
}

/** a1/b1: the answer must score with no false positive, no miss and no undisplayed id, i.e. equal walkable_ids as a set. */
function setVerdict(item: SetItem, ids: bigint[], field: string): CheckedAnswer {
  const outcome = scoreSetItem(item, ids);
  if (outcome.fp === 0 && outcome.fn === 0 && outcome.invalid === 0) return { ok: true, ids };
  const answered = new Set(ids);
  const positives = new Set(item.positives);
  const candidates = new Set(item.candidates);
  const parts = [
    [`missing ${idList(item.positives.filter((id) => !answered.has(id)))}`, outcome.fn > 0],
    [`extra ${idList([...answered].filter((id) => candidates.has(id) && !positives.has(id)))}`, outcome.fp > 0],
    [`not displayed ${idList(outcome.invalidIds)}`, outcome.invalid > 0],
  ] as const;
  const detail = parts.filter(([, shown]) => shown).map(([text]) => text).join("; ");
  return { ok: false, reason: `ground_truth.${field} ${answerText(ids)} is not the walkable set: ${detail}` };
}

/** a2/b2/c: the answer must be a success under the route rules (legal steps from start_id to an acceptable goal). */
function routeVerdict(item: RouteItem, ids: bigint[], field: string): CheckedAnswer {
  const outcome = scoreRouteItem(item, ids);
  if (outcome.stage === "success") return { ok: true, ids };
  const stage = outcome.stage;
  const why: Record<typeof stage, () => string> = {
    parse: () => "it is empty",
    invalid_id: () => {
      const displayed = new Set(item.displayed);
      return `ids not displayed: ${idList(new Set(ids.filter((id) => !displayed.has(id))))}`;
    },
    wrong_start: () => `a route needs at least 2 ids and must start at start_id ${item.startId}`,
    illegal_edge: () => `step ${outcome.illegalStep!.from} -> ${outcome.illegalStep!.to} is not a listed direct pair`,
    wrong_goal: () => `it ends at ${ids[ids.length - 1]}, not at an acceptable goal (${idList(item.acceptableGoals)})`,
  };
  return { ok: false, reason: `ground_truth.${field} ${answerText(ids)} fails the route check (${stage}): ${why[stage]()}` };
}

/** The stored answer of one question, scored with our scorer; also refuses prompts holding a media placeholder. */
export function checkAnswer(item: EgoPathItem): CheckedAnswer {
  for (const [field, text] of [["system_prompt", item.systemPrompt], ["user_prompt", item.userPrompt]] as const) {
    const placeholder = placeholderIn(text);
    if (placeholder) return { ok: false, reason: `${field} contains ${placeholder}, which the trainers read as a media placeholder` };
  }
  const stored = storedAnswer(item);
  if ("reason" in stored) return { ok: false, reason: stored.reason };
  return item.kind === "set" ? setVerdict(item, stored.ids, stored.field) : routeVerdict(item, stored.ids, stored.field);
}

export interface ExportOptions {
  format: ExportFormat;
  /** The output file (its folder anchors relative image paths). */
  outFile: string;
  imageRoot?: ImageRoot;
}

export interface ExportPlan {
  format: ExportFormat;
  /** Records in question order (tasks a1, b1, a2, b2, c, then file order). */
  records: Record<string, unknown>[];
  counts: Record<TaskCode, number>;
  refused: RefusedQuestion[];
}

/** Records for the items that pass the check, in task order then file order; no I/O. */
export function planExport(items: readonly EgoPathItem[], options: ExportOptions): ExportPlan {
  const counts = Object.fromEntries(TASK_CODES.map((t) => [t, 0])) as Record<TaskCode, number>;
  const refused: RefusedQuestion[] = [];
  const records: Record<string, unknown>[] = [];
  const ordered = TASK_CODES.flatMap((task) => items.filter((item) => item.task === task));
  for (const item of ordered) {
    const checked = checkAnswer(item);
    if (!checked.ok) {
      refused.push({ id: item.id, task: item.task, reason: checked.reason });
      continue;
    }
    counts[item.task]++;
    records.push(RECORD[options.format]({
      id: item.id,
      images: [imageReference(item.imagePath, options.outFile, options.imageRoot ?? "relative")],
      system: item.systemPrompt,
      user: [{ image: 0 }, { text: item.userPrompt }],
      answer: answerText(checked.ids),
    }));
  }
  return { format: options.format, records, counts, refused };
}

export interface ExportRequest extends ExportOptions {
  /** The release root (the folder holding benchmark_evalfix/ and assets/). */
  data: string;
  split?: Split;
}

export interface ExportSummary {
  outFile: string;
  format: ExportFormat;
  exported: number;
  counts: Record<TaskCode, number>;
  refused: RefusedQuestion[];
  /** The dataset_info.json written or extended (sharegpt), and the entry's name. */
  datasetInfo?: { file: string; name: string };
}

/**
 * Load a split (a DataError lists every problem of the data), check every answer, and write the
 * export file (plus, for sharegpt, its dataset_info.json entry next to it). Output problems are
 * found before anything is written; refused questions are reported in the summary.
 */
export function exportEgoPath(request: ExportRequest): ExportSummary {
  const outFile = path.resolve(request.outFile);
  const info = prepareOutput(request.outFile, request.format);
  const { items } = loadReleaseOrThrow(request.data, { split: request.split ?? "benchmark" });
  const plan = planExport(items, { ...request, outFile });
  writeFileAtomic(outFile, exportLines(plan));
  if (info) writeFileAtomic(info.infoFile, info.infoText);
  return {
    outFile,
    format: request.format,
    exported: plan.records.length,
    counts: plan.counts,
    refused: plan.refused,
    ...(info ? { datasetInfo: { file: info.infoFile, name: datasetName(outFile) } } : {}),
  };
}
