import type { Answer, Benchmark, ItemResult, PromptSetup, SummaryOptions } from "../../core/benchmark.js";
import { UsageError } from "../../core/problems.js";
import { tallyResults, type ResultCounts } from "../../core/results.js";
import type { PyDict } from "../../core/pycompat/json.js";
import { summarizePairs, type ScoredPair } from "./aggregate.js";
import { pathevalBaselines } from "./baselines.js";
import { PAPER_TABLE_10, type GenerateOptions } from "./generate-options.js";
import { DESCRIPTORS } from "./scenarios.js";
import { loadPathEval } from "./load.js";
import { buildMessages, buildProbeMessages, loadTemplates, shownPair, VARIANTS, type ShownPair, type Variant } from "./prompt.js";
import { abstractionItems, fineGrainedItems, parseStances, PROBES, type ProbeName } from "./probes.js";
import { scoreProbe, summarizeAbstraction, summarizeFineGrained, type AbstractionOutcome, type FineGrainedOutcome } from "./probe-score.js";
import { pathevalMarkdown, pathevalTerminal } from "./report.js";
import { readChoice, scoreChoice } from "./score.js";
import type { Dim, PathEvalItem } from "./types.js";
import { pathevalCharts } from "./charts.js";
import { pathevalOverlay } from "./overlay.js";

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
export { PAPER_TABLE_10, type GenerateOptions } from "./generate-options.js";
export { readPlannerPaths } from "./planfile.js";
export { scoreProbe, summarizeAbstraction, summarizeFineGrained } from "./probe-score.js";
export { pathevalBaselines } from "./baselines.js";
export type * from "./types.js";

const DIMS: Dim[] = ["2D", "3D"];

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
  const probeOutcomes: Array<{ outcome: AbstractionOutcome | FineGrainedOutcome; cluster: string }> = [];
  const { counts, scored } = tallyResults(results);
  for (const result of scored) {
    const item = byId.get(result.id)!;
    const answer = result.answer!;
    const text = typeof answer.stored === "string" ? answer.stored : null;
    if (item.probe) probeOutcomes.push({ outcome: scoreProbe(item, text, shownOf(result.prompt)), cluster: item.cluster });
    else pairs.push({ item, outcome: scoreChoice(item, text, shownOf(result.prompt)) });
  }
  if (probeOutcomes.length > 0 || items.some((i) => i.probe)) return summarizeProbe(probeOutcomes, counts, options);
  const summary = summarizePairs(pairs, tasks as Dim[], { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
  return {
    n: pairs.length,
    score: summary.accuracy,
    score_ci: summary.accuracy_ci,
    tasks: summary.byDim as unknown as Record<string, Record<string, unknown>>,
    per_scenario: summary.perScenario,
    per_descriptor: summary.perDescriptor,
    counts,
    bootstrap: { resamples: options.bootstrapResamples, seed: options.bootstrapSeed, cluster: "environment (the record when unknown)", level: 0.95 },
    definitions: {
      score: "accuracy over all answered pairs; an unreadable reply counts as wrong",
      official_accuracy: "the same replies read with the release's rule (text after 'Answer: ' up to 'Explanation:', spaces, '*', '.' and newlines removed, equal to 'Path1'/'Path2')",
      per_descriptor: "accuracy on the pairs whose label that descriptor decides (it differs by at least its threshold in the scenario's direction)",
    },
  };
}

/** Probe runs: the abstraction or fine-grained tables instead of pair accuracy. */
function summarizeProbe(list: Array<{ outcome: AbstractionOutcome | FineGrainedOutcome; cluster: string }>, counts: ResultCounts, options: SummaryOptions) {
  const abstraction = list.filter((x) => x.outcome.kind === "attribute-abstraction").map((x) => x.outcome as AbstractionOutcome);
  const fine = list.filter((x) => x.outcome.kind === "fine-grained");
  const tasks: Record<string, Record<string, unknown>> = {};
  let score: number | null = null;
  if (abstraction.length > 0) {
    const summary = summarizeAbstraction(abstraction);
    tasks["attribute-abstraction"] = summary;
    score = summary.accuracy;
  }
  if (fine.length > 0) {
    const summary = summarizeFineGrained(fine.map((x) => x.outcome as FineGrainedOutcome), fine.map((x) => x.cluster), { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
    tasks["fine-grained"] = summary;
    score = summary.accuracy;
  }
  return {
    n: list.length,
    score,
    tasks,
    counts,
    probe: abstraction.length > 0 ? "attribute-abstraction" : "fine-grained",
    definitions: {
      "attribute-abstraction": "per scenario and descriptor, the stated direction (smaller / larger / irrelevant) against the scenario's (Table 7); relevance_accuracy ignores the direction",
      "fine-grained": "which path has the smaller value of one descriptor; ε subsets hold the pairs whose difference is at least 1x, 2x, 4x the labelling threshold",
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
    return loadPathEval(root, { ...options, ...(tasks ? { tasks: tasks as Dim[] } : {}) });
  },
  promptSources: [...VARIANTS, ...PROBES],
  promptControls: ["none"],
  deriveItems(items, setup) {
    if (setup.source === "attribute-abstraction") return abstractionItems(items.filter((i) => i.task === items[0]?.task));
    if (setup.source === "fine-grained") return fineGrainedItems(items);
    return items;
  },
  preparePrompts,
  readReply,
  readPrediction,
  scoreItem,
  summarize,
  baselines: pathevalBaselines,
  markdown: pathevalMarkdown,
  charts: pathevalCharts,
  overlay: pathevalOverlay,
  terminal: pathevalTerminal,
  predictionIdField: "id",
  // Answers name a path ("Path 1" / "Path 2"), not a place in the picture: resizing is safe; one
  // picture per request, sent as read unless a provider limit or a user flag asks for less.
  imageBudget: { picture: { format: "keep" }, frame: { format: "keep" } },
  async generate({ outDir, seed, count, extra, log }) {
    const options = generateOptions(extra);
    // Loaded on demand: generation pulls in the planners and the image libraries.
    const { generatePathEval } = await import("./generate.js");
    const summary = await generatePathEval({ outDir, seed, environments: count, ...options, log });
    const lines = [
      `${summary.environments} environments, ${summary.validPaths} paths reaching the goal, ${summary.pairs} pairs, ${summary.test} test and ${summary.train} training questions`,
      `label balance (test): Path 1 ${summary.labelBalance.test["Path 1"]}, Path 2 ${summary.labelBalance.test["Path 2"]}`,
      "average descriptor differences of the test pairs (paper Table 10 in brackets):",
      ...DESCRIPTORS.map((d) => `  ${d.padEnd(18)} ${summary.meanDifference[d].toFixed(3).padStart(9)}  (${PAPER_TABLE_10[d]})`),
      `planning ${summary.seconds.planning.toFixed(1)} s, pictures ${summary.seconds.rendering.toFixed(1)} s`,
    ];
    return lines.join("\n");
  },
};

/** `--set` options of `generate patheval`. */
function generateOptions(extra: Record<string, string>): Omit<GenerateOptions, "outDir" | "seed" | "environments"> {
  const known = ["runs", "pairs", "labelled-pairs", "planner", "test-per-scenario", "dims", "train-images", "max-iterations", "time-limit-ms", "workers", "simplify"];
  const unknown = Object.keys(extra).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new UsageError(`unknown patheval option ${unknown.join(", ")} (known: ${known.join(", ")})`);
  const int = (key: string) => {
    const v = Number(extra[key]);
    if (!Number.isInteger(v) || v < 1) throw new UsageError(`${key} must be a positive integer`);
    return v;
  };
  const out: Omit<GenerateOptions, "outDir" | "seed" | "environments"> = {};
  if (extra["runs"]) out.runsPerEnvironment = int("runs");
  if (extra["pairs"]) out.pairsPerEnvironment = int("pairs");
  if (extra["time-limit-ms"]) out.timeLimitMs = int("time-limit-ms");
  if (extra["max-iterations"]) out.maxIterations = int("max-iterations");
  if (extra["workers"]) out.workers = int("workers");
  if (extra["planner"]) {
    if (extra["planner"] !== "rrt-connect" && extra["planner"] !== "rrt") throw new UsageError("planner must be rrt-connect or rrt");
    out.planner = extra["planner"];
  }
  if (extra["test-per-scenario"]) out.testPerScenario = extra["test-per-scenario"] === "release" ? "release" : int("test-per-scenario");
  if (extra["dims"]) out.dims = patheval.resolveTasks(extra["dims"].split(",")) as Dim[];
  if (extra["train-images"]) out.trainImages = extra["train-images"] === "true";
  if (extra["simplify"]) out.simplify = extra["simplify"] !== "false";
  if (extra["labelled-pairs"]) {
    if (extra["labelled-pairs"] !== "all" && extra["labelled-pairs"] !== "last") throw new UsageError("labelled-pairs must be all or last");
    out.labelledPairs = extra["labelled-pairs"];
  }
  return out;
}
