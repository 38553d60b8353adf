import { existsSync } from "node:fs";
import type { Answer, Benchmark, ItemResult, PromptSetup, SummaryOptions } from "../../core/benchmark.js";
import { DataError, UsageError } from "../../core/problems.js";
import type { DataRootOptions } from "../../core/dataroot.js";
import { tallyResults, type ResultCounts } from "../../core/results.js";
import type { PyDict } from "../../core/pycompat/json.js";
import { meanDifferences, summarizePairs, scoreTasks, type ScoredPair } from "./aggregate.js";
import { pathevalBaselines } from "./baselines.js";
import { pathevalAudit } from "./audit.js";
import { PAPER_TABLE_10, parseGenerateSet, summaryNotes, type GenerateOptions } from "./generate-options.js";
import { readScenarioFile } from "./user-files.js";
import { DESCRIPTORS } from "./scenarios.js";
import { findDataFiles, loadPathEval, pathEvalRoot } from "./load.js";
import { buildMessages, buildProbeMessages, distinctPromptItems, loadTemplates, shownPair, VARIANTS, type ShownPair, type Variant } from "./prompt.js";
import { abstractionFormatOf, abstractionItems, fineGrainedItems, fineGrainedSetOf, parseChosenDescriptors, parseStances, PROBES, type ProbeName } from "./probes.js";
import { scoreProbe, summarizeAbstraction, summarizeFineGrained, summarizeSegments, type AbstractionOutcome, type FineGrainedEntry, type FineGrainedOutcome } from "./probe-score.js";
import { fineGrainedFiles, fineGrainedSummaryLines, loadFineGrainedSet } from "./finegrained-load.js";
import { loadSegmentSet, segmentFiles } from "./segments-load.js";
import { pathevalMarkdown, pathevalTerminal } from "./report.js";
import { readChoice, scoreChoice } from "./score.js";
import type { Dim, PathEvalItem } from "./types.js";
import { pathevalCharts } from "./charts.js";
import { pathevalOverlay } from "./overlay.js";
import type { GenerateSummary } from "./generate.js";

export * from "./descriptors.js";
export * from "./label.js";
export * from "./pairs.js";
export * from "./parse.js";
export * from "./scenarios.js";
export { loadPathEval, scenarioIdOf, findDataFiles } from "./load.js";
export { buildMessages, formatDescriptors, randomNames, shownPair, loadTemplates, VARIANTS } from "./prompt.js";
export { scoreChoice, readChoice, toRecordFrame } from "./score.js";
export { summarizePairs } from "./aggregate.js";
export * from "./probes.js";
export { parseEnvironment, formatEnvironment } from "../../geometry/polygon.js";
export { generatePathEval, type GenerateSummary } from "./generate.js";
// [patheval-data] generation options, user files, probing set and its results, training export.
export { parseGenerateSet, parseThresholds, PRESETS } from "./generate-options.js";
export { readUserEnvironments, readScenarioFile, parseScenarioFile } from "./user-files.js";
export { drawProbingPairs } from "./probing-set.js";
export { readProbeResults, probeResultsMarkdown, MAX_RESULT_LINE, PAPER_TABLE_4, PAPER_TABLE_13 } from "./probe-results.js";
export { exportPathEval, EXPORT_SETTINGS } from "./export.js";
export type { ExportSetting } from "./export-settings.js";
export { PAPER_TABLE_10, type GenerateOptions } from "./generate-options.js";
export { readPlannerPaths } from "./planfile.js";
export { scoreProbe, summarizeAbstraction, summarizeFineGrained } from "./probe-score.js";
export { pathevalBaselines } from "./baselines.js";
export type * from "./types.js";

const DIMS: Dim[] = ["2D", "3D"];

/** The data folder each loaded test record came from, so deriveItems finds the generated sets beside it (score replays). */
const loadedFrom = new WeakMap<PathEvalItem, { root: string; options: DataRootOptions }>();

/** descriptors-only: the records each asked item stands for (items with the same prompt text are asked once). */
const askedFor = new WeakMap<PathEvalItem, PathEvalItem[]>();

/** scores.json's account of a deduplicated run, or undefined when the items were not deduplicated. */
function dedupeFacts(items: PathEvalItem[]) {
  if (!items.some((i) => askedFor.has(i))) return undefined;
  const records = items.flatMap((i) => askedFor.get(i) ?? [i]);
  const byTask = (list: PathEvalItem[]) => Object.fromEntries(DIMS.map((d) => [d, list.filter((i) => i.task === d).length]).filter(([, n]) => n !== 0));
  return {
    rule: "descriptors-only shows no picture: records whose prompt text and truth are the same (e.g. the 2D and 3D record of one pair and scenario) are asked once, under the first one's id and dimension; accuracy is over the distinct prompts",
    n_records: records.length,
    n_distinct: items.length,
    records_by_task: byTask(records),
    distinct_by_task: byTask(items),
  };
}

/**
 * `--prompt fine-grained`: the generated set (App. C.2) when one was loaded or lies beside the
 * records, else the test-set variant (one question per test pair and descriptor).
 */
function fineGrainedQuestions(items: PathEvalItem[]): PathEvalItem[] {
  if (items.length > 0 && items.every((i) => i.probe?.kind === "fine-grained")) return items;
  const origin = items[0] ? loadedFrom.get(items[0]) : undefined;
  const dims = [...new Set(items.map((i) => i.task))];
  if (origin && fineGrainedFiles(origin.root, dims).length > 0) {
    const generated = loadFineGrainedSet(origin.root, { ...origin.options, tasks: dims });
    if (generated.problems.length > 0) throw new DataError(generated.problems);
    return generated.items;
  }
  return fineGrainedItems(items);
}

/** `--prompt segments`: the segment study's questions (loaded as such), else an error saying how to make them. */
function segmentQuestions(items: PathEvalItem[]): PathEvalItem[] {
  const isSegment = (i: PathEvalItem) => i.probe?.kind === "fine-grained" && fineGrainedSetOf(i.probe) === "segments";
  if (items.length > 0 && items.every(isSegment)) return items;
  const origin = items[0] ? loadedFrom.get(items[0]) : undefined;
  if (origin && segmentFiles(origin.root).length > 0) {
    const loaded = loadSegmentSet(origin.root, { ...origin.options, tasks: [...new Set(items.map((i) => i.task))] });
    if (loaded.problems.length > 0) throw new DataError(loaded.problems);
    return loaded.items;
  }
  throw new UsageError("--prompt segments needs the segment study's set: make it with `generate patheval --out <dir> --set study=segments`, then --data <dir>");
}

/** The shown pair recorded with a result (plain names, not flipped, when nothing was recorded: replay). */
function shownOf(prompt: Record<string, unknown> | undefined): ShownPair {
  const names = prompt?.["names"];
  return {
    variant: (prompt?.["variant"] as Variant | undefined) ?? "plain",
    names: Array.isArray(names) && names.length === 2 ? (names as [string, string]) : ["Path 1", "Path 2"],
    flipped: prompt?.["flipped"] === true,
  };
}

function readReply(item: PathEvalItem, text: string, prompt?: Record<string, unknown>): Answer {
  if (item.probe?.kind === "attribute-abstraction" && abstractionFormatOf(item.probe) === "list") {
    const chosen = parseChosenDescriptors(text);
    return chosen.length > 0
      ? { status: "ok", value: chosen, stored: text }
      : { status: "unparseable", value: null, reason: "no descriptor named in the answer", stored: text };
  }
  if (item.probe?.kind === "attribute-abstraction") {
    const stances = parseStances(text);
    return Object.values(stances).some((v) => v !== null)
      ? { status: "ok", value: stances, stored: text }
      : { status: "unparseable", value: null, reason: "no \"<descriptor>: smaller | larger | irrelevant\" line found", stored: text };
  }
  const choice = readChoice(text, shownOf(prompt), "robust");
  return choice
    ? { status: "ok", value: choice, stored: text }
    : { status: "unparseable", value: null, reason: "no single path named after \"Answer\"", stored: text };
}

function readPrediction(item: PathEvalItem, row: PyDict | undefined): Answer {
  if (!row) return { status: "missing", value: null, reason: "no prediction row for this item" };
  const response = row.get("response");
  if (typeof response !== "string") return { status: "unparseable", value: null, reason: "\"response\" must be the raw reply text" };
  return readReply(item, response);
}

function scoreItem(item: PathEvalItem, answer: Answer, prompt?: Record<string, unknown>): Record<string, unknown> {
  const text = typeof answer.stored === "string" ? answer.stored : null;
  return item.probe ? { ...scoreProbe(item, text, shownOf(prompt)) } : { ...scoreChoice(item, text, shownOf(prompt)) };
}

function summarize(items: PathEvalItem[], results: ItemResult[], tasks: string[], options: SummaryOptions) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const pairs: ScoredPair[] = [];
  const probeOutcomes: Array<{ outcome: AbstractionOutcome | FineGrainedOutcome; cluster: string; task: string }> = [];
  const { counts, scored } = tallyResults(results);
  for (const result of scored) {
    const item = byId.get(result.id)!;
    const answer = result.answer!;
    const text = typeof answer.stored === "string" ? answer.stored : null;
    if (item.probe) probeOutcomes.push({ outcome: scoreProbe(item, text, shownOf(result.prompt)), cluster: item.cluster, task: item.task });
    else pairs.push({ item, outcome: scoreChoice(item, text, shownOf(result.prompt)) });
  }
  if (probeOutcomes.length > 0 || items.some((i) => i.probe)) return summarizeProbe(probeOutcomes, counts, options);
  const dedupe = dedupeFacts(items);
  // A deduplicated run keeps only the dimensions its distinct prompts were asked under.
  const dims = dedupe ? (tasks as Dim[]).filter((d) => items.some((i) => i.task === d)) : (tasks as Dim[]);
  const summary = summarizePairs(pairs, dims, { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
  return {
    n: pairs.length,
    score: summary.accuracy,
    score_ci: summary.accuracy_ci,
    tasks: summary.byDim as unknown as Record<string, Record<string, unknown>>,
    per_scenario: summary.perScenario,
    per_descriptor: summary.perDescriptor,
    // Paper Table 10: mean |difference| per descriptor of the pairs asked.
    mean_difference: meanDifferences(items, dims),
    counts,
    bootstrap: { resamples: options.bootstrapResamples, seed: options.bootstrapSeed, cluster: "environment (the record when unknown)", level: 0.95 },
    ...(dedupe ? { distinct_prompts: dedupe } : {}),
    definitions: {
      score: "accuracy over all answered pairs; an unreadable reply counts as wrong",
      official_accuracy: "the same replies read with the release's rule (text after 'Answer: ' up to 'Explanation:', spaces, '*', '.' and newlines removed, equal to 'Path1'/'Path2')",
      per_descriptor: "accuracy on the pairs whose label that descriptor decides (it differs by at least its threshold in the scenario's direction)",
      mean_difference: "per dimension, the mean over the records asked of |Path 1 - Path 2| for each descriptor (paper Table 10's quantity, there over its 1,050 test pairs)",
    },
  };
}

/** Probe runs: the abstraction or fine-grained tables instead of pair accuracy. */
function summarizeProbe(list: Array<{ outcome: AbstractionOutcome | FineGrainedOutcome; cluster: string; task: string }>, counts: ResultCounts, options: SummaryOptions) {
  const abstraction = list.filter((x) => x.outcome.kind === "attribute-abstraction").map((x) => x.outcome as AbstractionOutcome);
  const fine = list.filter((x) => x.outcome.kind === "fine-grained" && x.outcome.set !== "segments");
  const segments = list.filter((x) => x.outcome.kind === "fine-grained" && x.outcome.set === "segments");
  const tasks: Record<string, Record<string, unknown>> = {};
  let score: number | null = null;
  if (abstraction.length > 0) {
    const summary = summarizeAbstraction(abstraction);
    tasks["attribute-abstraction"] = summary;
    // The paper's list format has no direction to score: its run's number is Table 12's measure.
    score = summary.format === "list" ? summary.table_12.at_least_one_relevant : summary.accuracy;
  }
  if (fine.length > 0) {
    const summary = summarizeFineGrained(fine as FineGrainedEntry[], { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
    tasks["fine-grained"] = summary;
    score = summary.accuracy;
  }
  if (segments.length > 0) {
    const summary = summarizeSegments(segments as FineGrainedEntry[]);
    tasks["segments"] = summary;
    score = summary.accuracy;
  }
  return {
    n: list.length,
    score,
    tasks,
    counts,
    probe: abstraction.length > 0 ? (abstraction.some((o) => o.format === "list") ? "attribute-abstraction-list" : "attribute-abstraction") : segments.length > 0 ? "segments" : "fine-grained",
    definitions: {
      "attribute-abstraction": "per scenario and descriptor, the stated direction (smaller / larger / irrelevant) against the scenario's (Table 7); relevance_accuracy ignores the direction; table_12.at_least_one_relevant: share of scenarios where at least one descriptor the scenario needs was chosen (stated smaller or larger; with --prompt attribute-abstraction-list, named in the paper's list format, and this is the run's score) (paper App. D.1, Table 12; one number per run, average it over repeated runs)",
      segments: "which of two segments is closer to the obstacle (paper §4.2, Fig. 2d), per segment type and dimension; a line's or curve's clearance is its nearer endpoint's",
      "fine-grained": "which path has the smaller value of one descriptor, per descriptor and ε of Table 8 (|difference| > ε) and per dimension (Table 3's layout); mean_over_epsilon / mean_over_descriptors are unweighted means of the cell accuracies; mean_difference is Table 9's quantity for the questions asked; `set` says whether the generated set (App. C.2) or the test-set variant was asked",
    },
  };
}

/** Every PathEval reply is plain text ("Answer: ... Explanation: ...", probes one line per descriptor; paper Sec. 4, App. C): no JSON mode. */
const PLAIN_TEXT_CONTRACT = false;

function preparePrompts(_items: PathEvalItem[], setup: PromptSetup) {
  if (PROBES.includes(setup.source as ProbeName)) {
    const templates = loadTemplates(setup.templateFile);
    const build = async (item: PathEvalItem) => {
      const shown = shownPair(item, "plain", setup.seed);
      return { messages: await buildProbeMessages(item, shown, templates), info: { ...shown, probe: setup.source } as Record<string, unknown>, json: PLAIN_TEXT_CONTRACT };
    };
    return { build, info: { probe: setup.source, template: { name: templates.name, sha256: templates.hash } } };
  }
  const variant = setup.source as Variant;
  if (!VARIANTS.includes(variant)) throw new UsageError(`unknown PathEval prompt "${setup.source}" (choose ${[...VARIANTS, ...PROBES].join(", ")})`);
  if (setup.control !== "none") throw new UsageError("PathEval has no controls; use --prompt for its variants");
  const templates = loadTemplates(setup.templateFile);
  const build = async (item: PathEvalItem) => {
    const shown = shownPair(item, variant, setup.seed);
    return { messages: await buildMessages(item, shown, templates), info: { ...shown } as Record<string, unknown>, json: PLAIN_TEXT_CONTRACT };
  };
  return { build, info: { variant, template: { name: templates.name, sha256: templates.hash }, seed: setup.seed } };
}

export const patheval: Benchmark<PathEvalItem> = {
  id: "patheval",
  title: "PathEval",
  tasks: DIMS.map((d) => ({ code: d.toLowerCase(), name: d, title: `${d} pictures` })),
  resolveTasks(list) {
    return list.map((text) => {
      const dim = DIMS.find((d) => d.toLowerCase() === text.trim().toLowerCase());
      if (!dim) throw new UsageError(`unknown PathEval task "${text}" (use 2d, 3d)`);
      return dim;
    });
  },
  load(root, tasks, options) {
    // [patheval-analysis] `run --prompt fine-grained` asks the generated set when the data folder holds one.
    if (options?.requests?.source === "fine-grained" && fineGrainedFiles(pathEvalRoot(root), tasks as Dim[] | undefined).length > 0) {
      return loadFineGrainedSet(pathEvalRoot(root), { ...options, ...(tasks ? { tasks: tasks as Dim[] } : {}) });
    }
    // The segment study's folder holds no test records: it is read whenever it is all there is, or asked for.
    if (existsSync(root) && segmentFiles(pathEvalRoot(root)).length > 0 && (options?.requests?.source === "segments" || findDataFiles(root).length === 0)) {
      return loadSegmentSet(pathEvalRoot(root), { ...options, ...(tasks ? { tasks: tasks as Dim[] } : {}) });
    }
    const loaded = loadPathEval(root, { ...options, ...(tasks ? { tasks: tasks as Dim[] } : {}) });
    const origin = { root: existsSync(root) ? pathEvalRoot(root) : root, options: { allowOutsideRoot: options?.allowOutsideRoot ?? false } };
    for (const item of loaded.items) loadedFrom.set(item, origin);
    return loaded;
  },
  promptSources: [...VARIANTS, ...PROBES],
  promptControls: ["none"],
  deriveItems(items, setup) {
    if (setup.source === "attribute-abstraction") return abstractionItems(items.filter((i) => i.task === items[0]?.task));
    if (setup.source === "attribute-abstraction-list") return abstractionItems(items.filter((i) => i.task === items[0]?.task), "list");
    if (setup.source === "fine-grained") return fineGrainedQuestions(items);
    if (setup.source === "fine-grained-test-set") return fineGrainedItems(items);
    if (setup.source === "segments") return segmentQuestions(items);
    if (setup.source === "descriptors-only") {
      const distinct = distinctPromptItems(items, loadTemplates(setup.templateFile));
      for (const [item, records] of distinct.copies) askedFor.set(item, records);
      return distinct.items;
    }
    return items;
  },
  preparePrompts,
  readReply,
  readPrediction,
  scoreItem,
  summarize,
  scoreName: "accuracy",
  scoreTasks,
  baselines: pathevalBaselines,
  audit: pathevalAudit,
  markdown: pathevalMarkdown,
  charts: pathevalCharts,
  overlay: pathevalOverlay,
  terminal: pathevalTerminal,
  predictionIdField: "id",
  predictionTextField: "response",
  // Answers name a path ("Path 1" / "Path 2"), not a place in the picture: resizing is safe; one
  // picture per request, sent as read unless a provider limit or a user flag asks for less.
  imageBudget: { picture: { format: "keep" }, frame: { format: "keep" } },
  async generate({ outDir, seed, count, extra, log }) {
    // [patheval-analysis] `--set study=segments`: only the segment-complexity study of Fig. 2 (segments.ts).
    if (extra["study"] !== undefined) return generateStudy(outDir, seed, extra, log);
    const options = generateOptions(extra);
    // Loaded on demand: generation pulls in the planners and the image libraries.
    const { generatePathEval } = await import("./generate.js");
    const summary = await generatePathEval({ outDir, seed, environments: count, ...options, log });
    return generateSummaryText(summary, outDir);
  },
};

/** What `generate patheval` prints when the set is written (also after a queued run's assembly). */
export function generateSummaryText(summary: GenerateSummary, outDir: string): string {
  const lines = [
    `${summary.environments} environments, ${summary.validPaths} paths reaching the goal, ${summary.pairs} pairs, ${summary.test} test and ${summary.train} training questions`,
    `label balance (test): Path 1 ${summary.labelBalance.test["Path 1"]}, Path 2 ${summary.labelBalance.test["Path 2"]}`,
    ...summaryNotes(summary),
    "average descriptor differences of the test pairs (paper Table 10 in brackets):",
    ...DESCRIPTORS.map((d) => `  ${d.padEnd(18)} ${summary.meanDifference[d].toFixed(3).padStart(9)}  (${PAPER_TABLE_10[d]})`),
    ...fineGrainedSummaryLines(outDir),
    `planning ${summary.seconds.planning.toFixed(1)} s, pictures ${summary.seconds.rendering.toFixed(1)} s`,
  ];
  return lines.join("\n");
}

/** `generate patheval --set study=segments [dims=2d,3d]`: the segment study alone, in its own folder. */
async function generateStudy(outDir: string, seed: number, extra: Record<string, string>, log?: (line: string) => void): Promise<string> {
  if (extra["study"] !== "segments") throw new UsageError(`unknown study "${extra["study"]}" (known: segments)`);
  const unknown = Object.keys(extra).filter((k) => k !== "study" && k !== "dims");
  if (unknown.length > 0) throw new UsageError(`study=segments takes only dims=..., not ${unknown.join(", ")}`);
  const { existsSync: exists, readdirSync } = await import("node:fs");
  if (exists(outDir) && readdirSync(outDir).length > 0) throw new UsageError(`${outDir} is not empty: choose a new folder`);
  const dims = extra["dims"] ? (patheval.resolveTasks(extra["dims"].split(",")) as Dim[]) : DIMS;
  const { writeSegmentSet } = await import("./segments.js");
  const { pairs, meanDifference } = await writeSegmentSet(outDir, { seed, dims, ...(log ? { log } : {}) });
  return [
    `segment study (paper §4.2, Fig. 2): ${pairs} pairs (points, lines, curves) in ${dims.join(" and ")}, in segments/`,
    `average clearance difference: point ${meanDifference.point?.toFixed(2)} (paper 14.76), line ${meanDifference.line?.toFixed(2)} (14.42), curve ${meanDifference.curve?.toFixed(2)} (14.28)`,
    `ask it with: run patheval --data ${outDir} --prompt segments`,
  ].join("\n");
}

/** `--set` options of `generate patheval` (generate-options.ts; the scenario file is read and checked here). */
export function generateOptions(extra: Record<string, string>): Omit<GenerateOptions, "outDir" | "seed" | "environments"> {
  return parseGenerateSet(extra, readScenarioFile);
}
