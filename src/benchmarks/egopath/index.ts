import { readImageFileAsync } from "../../core/file-read.js";
import { messagesMentionJson, type Answer, type Benchmark, type ItemResult, type PromptSetup, type SummaryOptions } from "../../core/benchmark.js";
import { UsageError } from "../../core/problems.js";
import { tallyResults } from "../../core/results.js";
import type { PyDict } from "../../core/pycompat/json.js";
import { pyToPlain } from "../../core/pycompat/json.js";
import { aggregate, scoreTasks, type ScoredQuestion } from "./aggregate.js";
import { egopathBaselines } from "./baselines.js";
import { loadRelease, toIdOrNull, type Split } from "./load.js";
import { normalizeReply, parseStoredOutput, predictionOutput } from "./parse.js";
import {
  buildMessages, loadTemplates, planImageSwap, promptImage, PROMPT_CONTROLS, PROMPT_SOURCES,
  type PromptControl, type PromptPlan, type PromptSource,
} from "./prompt.js";
import { egopathMarkdown, egopathTerminal } from "./report.js";
import { labelFreeChance } from "./route-chance.js";
import { scoreRouteItem, scoreSetItem, type RouteOutcome, type SetOutcome } from "./score.js";
import { resolveTask, taskInfo, TASKS, type TaskCode } from "./tasks.js";
import type { EgoPathItem } from "./types.js";
import { egopathCharts } from "./charts.js";
import { generateCommand } from "../generate-settings.js";
import { egopathOverlay } from "./overlay.js";
import { egopathAudit } from "./audit.js";

export * from "./aggregate.js";
export * from "./load.js";
export * from "./parse.js";
export * from "./prompt.js";
export * from "./score.js";
export * from "./tasks.js";
export * from "./export.js";
export type * from "./types.js";
export { egopathBaselines } from "./baselines.js";

/** Score an item's answer (null ids = no answer, as the evaluator treats it). */
export function scoreItem(item: EgoPathItem, ids: bigint[] | null): SetOutcome | RouteOutcome {
  return item.kind === "set" ? scoreSetItem(item, ids) : scoreRouteItem(item, ids);
}

/** The runner's range check uses the row's all_ids when it is a non-empty list (a1/b1 rows carry it). */
function allowedIds(item: EgoPathItem): bigint[] | undefined {
  const allIds = item.groundTruth["all_ids"];
  if (!Array.isArray(allIds) || allIds.length === 0) return undefined;
  const ids = allIds.map(toIdOrNull);
  return ids.every((id): id is bigint => id !== null) ? ids : undefined;
}

function readReply(item: EgoPathItem, text: string): Answer<bigint[]> {
  const normalized = normalizeReply(text, allowedIds(item));
  if (!normalized.ok) return { status: "unparseable", value: null, reason: normalized.reason, stored: normalized.output };
  // The stored output, read with the evaluator's strict rules as `score` would, gives back exactly
  // these ids (normalizeReply checks that it does), so it is not parsed a second time.
  return { status: "ok", value: normalized.ids, stored: normalized.output };
}

function readPrediction(_item: EgoPathItem, row: PyDict | undefined): Answer<bigint[]> {
  if (!row) return { status: "missing", value: null, reason: "no prediction row for this question" };
  const output = predictionOutput(row);
  if (row.get("success") === false) return { status: "failed", value: null, reason: "prediction recorded as failed (success=false)", stored: pyToPlain(row.get("output") ?? null) };
  const ids = parseStoredOutput(output);
  if (!ids) return { status: "unparseable", value: null, reason: "output is not a list of integer ids", stored: pyToPlain(output ?? null) };
  return { status: "ok", value: ids, stored: pyToPlain(output ?? null) };
}

/** JSON-safe view of an outcome for items.jsonl. */
function outcomeDetail(outcome: SetOutcome | RouteOutcome): Record<string, unknown> {
  return toPlainDeep(outcome) as Record<string, unknown>;
}

/** Bigints inside an outcome become JSON-safe values (numbers when exact). */
function toPlainDeep(value: unknown): unknown {
  if (typeof value === "bigint") return pyToPlain(value);
  if (Array.isArray(value)) return value.map(toPlainDeep);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainDeep(v)]));
  return value;
}

/** `--split` names: test (the benchmark split the paper reports, the default), val, train. */
export const SPLIT_NAMES = { test: "benchmark", val: "val", train: "train" } as const satisfies Record<string, Split>;
export type SplitName = keyof typeof SPLIT_NAMES;

/** A --split value -> its name; "benchmark" and "validation" are accepted as the release calls them. */
export function splitName(text: string | undefined): SplitName {
  const value = (text ?? "test").trim().toLowerCase();
  if (value === "test" || value === "benchmark") return "test";
  if (value === "val" || value === "validation") return "val";
  if (value === "train") return "train";
  throw new UsageError(`unknown EgoPathBench split "${text}" (choose test, val or train)`);
}

/** How many route questions each legality contract scored (direct-pairs sidecar vs legacy waypoint graph). */
function routingContracts(items: EgoPathItem[]): Record<string, number> {
  const out: Record<string, number> = { direct_pairs: 0, waypoint_graph: 0 };
  for (const item of items) if (item.kind === "route") out[item.graph] = (out[item.graph] ?? 0) + 1;
  return out;
}

function summarize(items: EgoPathItem[], results: ItemResult[], tasks: string[], options: SummaryOptions) {
  const byId = new Map(items.map((item) => [item.id, item]));
  const { counts, scored: answered } = tallyResults(results);
  const scored: ScoredQuestion[] = answered.map((result) => {
    const item = byId.get(result.id)!;
    return { item, outcome: scoreItem(item, (result.answer!.value as bigint[] | null) ?? null) };
  });
  const agg = aggregate(scored, tasks as TaskCode[], options);
  const taskScores: Record<string, Record<string, unknown>> = {};
  const diagnostics: Record<string, unknown> = {};
  for (const code of tasks as TaskCode[]) {
    const t = agg.tasks[code]!;
    const { diagnostics: d, ...rest } = t;
    const stages = d?.stages;
    taskScores[taskInfo(code).name] = { ...t.metrics, ...(stages ? { stages } : {}), ci: rest.ci, official: rest.official };
    if (d) {
      const { stages: _omit, ...others } = d;
      diagnostics[taskInfo(code).name] = others;
    }
  }
  return {
    n: scored.length,
    routing_contract: routingContracts(items),
    score: agg.score,
    official_rounding: agg.official_rounding,
    score_ci: agg.score_ci,
    score_variants: agg.score_variants,
    tasks: taskScores,
    diagnostics,
    label_free_chance: labelFreeChance(items, tasks as TaskCode[]),
    counts,
    bootstrap: { resamples: options.bootstrapResamples, seed: options.bootstrapSeed, cluster: "scene_id", level: 0.95 },
    definitions: {
      score: "EgoPath Score as a fraction: ((2·BA_a1 − 1) + (2·BA_b1 − 1) + SR_a2 + SR_b2 + SR_c) / 5, from full-precision metrics",
      official_rounding: "the same formula on metrics rounded to 4 decimals, as the paper's table script computes it",
      SPL: "the evaluator's spl_all: sum of optimal/max(optimal, length) over successes, divided by N",
      parsing: "stored predictions are read with the official evaluator's strict rules; raw replies are first normalised as the official runner does",
      split: "test = the benchmark split the paper reports (benchmark_evalfix/benchmark); val and train are read from release/<split>/ or benchmark_evalfix/<split>/",
      score_variants: "the paper's score-sensitivity alternatives: spl_based replaces route SR by SPL (spl_all); family_weighted averages (2·BA − 1) over a1, b1 and SR over a2, b2, c, then weights the two families equally",
      diagnostics: "route diagnostics follow the paper's table script (build_paper_assets.py): endpoint hit, full success and illegal-edge incidence over all questions; counts are kept so report can pool runs",
      label_free_chance: "the exact expected scores of the random-route built-in over the questions asked (no sampling): BA for a1/b1 (each candidate with probability 1/2), SR and VPR for a2/b2/c (the start, then 1-4 displayed ids uniform among those other than the previous one, counted over the legal-step walks), and the EgoPath Score of those expectations",
      routing_contract: "route questions scored on a direct-pairs sidecar (eval-fix rows) or, for rows without one, on the scene's legacy waypoint graph (evaluate_next.py's fallback)",
    },
  };
}

/**
 * JSON mode: the release prompts go out as the official runner sends them, with its output
 * instruction asking for a JSON object ({"display_ids": [...]}, OFFICIAL_OUTPUT_INSTRUCTION; the
 * runner also asks for JSON output). Our templates ask for a bare JSON array (Table S2's contract),
 * which an object-only JSON mode (OpenAI json_object) would contradict, so they go out as plain text.
 */
function asksJsonObject(plan: PromptPlan): boolean {
  return plan.source === "release";
}

function preparePrompts(items: EgoPathItem[], setup: PromptSetup) {
  if (!PROMPT_SOURCES.includes(setup.source as PromptSource)) throw new UsageError(`unknown prompt source "${setup.source}" (choose ${PROMPT_SOURCES.join(", ")})`);
  if (!PROMPT_CONTROLS.includes(setup.control as PromptControl)) throw new UsageError(`unknown control "${setup.control}" (choose ${PROMPT_CONTROLS.join(", ")})`);
  const plan: PromptPlan = { source: setup.source as PromptSource, control: setup.control as PromptControl };
  const info: Record<string, unknown> = { source: plan.source, control: plan.control };
  if (plan.source === "templates") {
    plan.templates = loadTemplates(setup.templateFile);
    info["template"] = { name: plan.templates.name, sha256: plan.templates.hash };
  }
  let unpaired = new Set<string>();
  if (plan.control === "mismatched-overlay") {
    const { swap, unpaired: missing } = planImageSwap(items, setup.seed);
    plan.imageSwap = swap;
    unpaired = new Set(missing);
    info["mismatch_seed"] = setup.seed;
    info["unpaired"] = missing.length;
  }
  const build = (item: EgoPathItem) => {
    if (unpaired.has(item.id)) return { error: "no other question has the same number of candidates (mismatched-overlay control)" };
    return withImage(item);
  };
  // The picture is read without blocking the event loop: a run's other requests go on meanwhile.
  const withImage = async (item: EgoPathItem) => {
    const image = promptImage(item, plan);
    const bytes = image ? await readImageFileAsync(image) : undefined;
    const messages = buildMessages(item, plan, () => bytes!);
    const shown = plan.control === "text-only" ? null : plan.control === "mismatched-overlay" ? plan.imageSwap!.get(item.id) : item.imagePath;
    return { messages, info: { image: shown ?? null }, json: asksJsonObject(plan) && messagesMentionJson(messages) };
  };
  return { build, info };
}

/** The benchmark reading one split; `configure` picks it from `--split`. */
function egopathFor(name: SplitName): Benchmark<EgoPathItem> {
  return {
    ...egopath,
    load(root, tasks, options) {
      return loadRelease(root, { ...options, split: SPLIT_NAMES[name], ...(tasks ? { tasks: tasks as TaskCode[] } : {}) });
    },
    summarize: (items, results, tasks, options) => ({ split: name, ...summarize(items, results, tasks, options) }),
  };
}

export const egopath: Benchmark<EgoPathItem> = {
  id: "egopath",
  title: "EgoPathBench",
  tasks: TASKS.map((t) => ({ code: t.code, name: t.name, title: t.title })),
  resolveTasks(list) {
    return list.map((text) => {
      const code = resolveTask(text);
      if (!code) throw new UsageError(`unknown EgoPathBench task "${text}" (use ${TASKS.map((t) => `${t.code}/${t.name}`).join(", ")})`);
      return code;
    });
  },
  load(root, tasks, options) {
    return loadRelease(root, { ...options, ...(tasks ? { tasks: tasks as TaskCode[] } : {}) });
  },
  configure: (options) => egopathFor(splitName(options.split)),
  promptSources: PROMPT_SOURCES,
  promptControls: PROMPT_CONTROLS,
  preparePrompts,
  readReply,
  readPrediction,
  scoreItem: (item, answer) => outcomeDetail(scoreItem(item, (answer.value as bigint[] | null) ?? null)),
  summarize: (items, results, tasks, options) => ({ split: "test", ...summarize(items, results, tasks, options) }),
  scoreName: "EgoPath Score",
  scoreTasks,
  baselines: egopathBaselines,
  markdown: egopathMarkdown,
  audit: egopathAudit,
  charts: egopathCharts,
  overlay: egopathOverlay,
  terminal: egopathTerminal,
  predictionIdField: "question_id",
  // Answers are ids of markers drawn on the picture, so resizing cannot change what a reply means;
  // pictures still go out as read (one per request, well inside every limit) unless a provider
  // limit or a user flag asks for less.
  imageBudget: { picture: { format: "keep" }, frame: { format: "keep" } },
  async generate({ outDir, seed, count, extra, log, assetsDir }) {
    // Loaded on demand: the generator pulls in the world engine.
    const { generateEgoPathRelease, generateOptions, generateSummary } = await import("./construct/index.js");
    const options = generateOptions(extra);
    const result = await generateEgoPathRelease({
      outDir, seed, scenes: count, assetsDir, log, ...options,
      command: generateCommand("egopath", { outDir, seed, count, extra }),
    });
    return generateSummary(count, result);
  },
};

