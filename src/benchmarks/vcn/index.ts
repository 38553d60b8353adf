/**
 * VCN-Bench: goal identification (which frame of a prior tour shows the instructed destination;
 * Rid-SR / Oid-SR, the error taxonomy, exact chance levels, shuffled-frames and counterfactual
 * interventions) and navigation metrics over simulator logs (SR, SPL, soft SPL, SSR, RSR).
 */
import { messagesMentionJson, type Answer, type Benchmark, type ItemResult, type PromptSetup, type SummaryOptions } from "../../core/benchmark.js";
import { UsageError } from "../../core/problems.js";
import type { PyDict } from "../../core/pycompat/json.js";
import { tallyResults } from "../../core/results.js";
import { summarizeGoals, scoreTasks, type ScoredGoal } from "./aggregate.js";
import { navigationEpisodes } from "./navigate/episodes.js";
import { vcnBaselines } from "./baselines.js";
import { vcnAudit } from "./audit.js";
import { deriveCounterfactuals, reasonsText, skipReasons, uncheckedCounts } from "./interventions.js";
import { loadVcn } from "./load.js";
import { readFrameIndex } from "./parse.js";
import { buildMessages, checkTour, loadTemplates, planShown, promptInfo, tourSampler, VARIANTS, type Variant } from "./prompt.js";
import { vcnMarkdown, vcnTerminal } from "./report.js";
import { TASK_CODES, TASK_NAMES, type TaskCode } from "./schema.js";
import { scoreAnswer, shownOf, toTourIndex, type GoalAnswer } from "./score.js";
import { ERROR_MEANINGS } from "./taxonomy.js";
import type { VcnItem } from "./types.js";
import { vcnCharts } from "./charts.js";
import { generateCommand } from "../generate-settings.js";
import { vcnOverlay } from "./overlay.js";

export * from "./schema.js";
export * from "./relations.js";
export * from "./chance.js";
export * from "./taxonomy.js";
export * from "./parse.js";
export * from "./score.js";
export * from "./interventions.js";
export * from "./aggregate.js";
export * from "./episodes.js";
export * from "./navigation.js";
export * from "./released-logs.js";
export { loadVcn, loadLine, itemsFileOf } from "./load.js";
export { compareCodePoints, pickPriorFrames, releaseListing, releaseStride, PRIOR_SAMPLINGS, RELEASE_VIDEO_MAX_FRAME, type PriorPick, type PriorSampling, type PriorWindow } from "./prior.js";
export { importRelease, sceneName, VIEW_FILES, VIEW_LAYOUTS, type ImportOptions, type ImportSummary, type ViewLayout } from "./import-release.js";
export { buildMessages, checkTour, fill, loadTemplates, planShown, promptInfo, shownLabels, tourSampler, VARIANTS, VIEW_IMAGES, DEFAULT_TEMPLATE_FILE, type Variant, type VcnTemplates } from "./prompt.js";
export { vcnBaselines } from "./baselines.js";
export { goalIdFromRun, navigationFromFiles, type NavigationFiles } from "./navigation-files.js";
export { vcnMarkdown, vcnTerminal, navigationMarkdown } from "./report.js";
export type * from "./types.js";
// Closed-loop navigation (navigate/): what the `navigate` command and the demo run and print.
export { BUILTIN_AGENTS } from "./navigate/agents.js";
export { EPISODES_FILE, RUN_HEADER } from "./navigate/files.js";
export { writeNavigationOutputs } from "./navigate/outputs.js";
export { INTERVENTIONS, NAV_MODES, OBSERVATIONS } from "./navigate/prompt.js";
export { navigationRunsMarkdown, navigationTerminal, type NavigationRunScores } from "./navigate/report.js";
export type { NavigationScores, NavigationSource } from "./navigate/scores.js";
export { executeNavigation, type NavigationRunOptions } from "./navigate/session.js";

/**
 * Raw text -> answer; the number is mapped to a tour index with the prompt's labels. The stored
 * prediction (what `run` exports) is the raw text, except under shown-position labels
 * (shuffled-frames), where it is the tour index the reply named (-1: a position not shown), so a
 * replay without the prompt reads it right.
 */
export function readReply(_item: VcnItem, text: string, prompt?: Record<string, unknown>): Answer {
  const reading = readFrameIndex(text);
  if (!reading.ok) return { status: "unparseable", value: null, reason: reading.reason, stored: text };
  const shown = shownOf(prompt);
  const value: GoalAnswer = { reply_index: reading.index, frame: toTourIndex(reading.index, shown), rule: reading.rule };
  return { status: "ok", value, stored: shown?.labels === "shown-position" ? value.frame ?? -1 : text };
}

/**
 * A predictions row: {"id": ..., "response": "<raw reply>"}, {"id": ..., "frame": <tour index>},
 * or a row `run` exported ({"id": ..., "output": "<raw reply>" or <tour index>}).
 */
export function readPrediction(item: VcnItem, row: PyDict | undefined): Answer {
  if (!row) return { status: "missing", value: null, reason: "no prediction row for this item" };
  for (const key of ["response", "frame", "output"]) {
    const value = row.get(key);
    if (typeof value === "string") return readReply(item, value);
    const index = typeof value === "bigint" ? Number(value) : typeof value === "number" && Number.isInteger(value) ? value : null;
    if (index !== null) return { status: "ok", value: { reply_index: index, frame: index, rule: `${key}-field` } satisfies GoalAnswer, stored: index };
  }
  return { status: "unparseable", value: null, reason: "a row needs \"response\" (the raw reply text) or \"frame\" (an integer tour index)" };
}

export function scoreItem(item: VcnItem, answer: Answer, prompt?: Record<string, unknown>): Record<string, unknown> {
  return { ...scoreAnswer(item, answer, prompt) };
}

export const DEFINITIONS: Record<string, string> = {
  "Rid-SR": "Count, Order, Distance, Orientation: the chosen tour frame's camera is in the target room",
  "Oid-SR": "Instance: the target instance is annotated visible in the chosen frame",
  mean_of_types: "the unweighted mean of the per-type success rates (types present)",
  pooled: "all questions of the group counted once each",
  score: "average.mean_of_types: the mean of the per-type rates over all five types present",
  "chance.complete": "exact expectation of a uniform random tour frame (mean of the per-question fractions of success frames)",
  "chance.category": "exact expectation of a uniform random frame among the frames of the target's category (camera in a room of the target room's category; or an object of the target's category visible)",
  "chance.*_shown": "the same expectations over the frames the prompts showed (present when thinning dropped frames)",
  reading: "JSON {\"frame\": n} first, then \"Frame n\", then the first integer; unreadable replies count as failures",
  ...Object.fromEntries(Object.entries(ERROR_MEANINGS).map(([k, v]) => [`error.${k}`, v])),
};

export function summarize(items: VcnItem[], results: ItemResult[], tasks: string[], options: SummaryOptions) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const { counts, scored } = tallyResults(results);
  const goals: ScoredGoal[] = [];
  for (const result of scored) {
    const item = byId.get(result.id);
    if (!item) continue;
    goals.push({ item, outcome: scoreAnswer(item, result.answer ?? { status: "missing", value: null }, result.prompt) });
  }
  const present = (tasks as TaskCode[]).filter((t) => items.some((i) => i.task === t));
  const summary = summarizeGoals(goals, present, { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
  const derivation = items.find((i) => i.derivation)?.derivation;
  return {
    n: goals.length,
    score: summary.success.average.mean_of_types,
    ...(summary.ci["average.mean_of_types"] ? { score_ci: summary.ci["average.mean_of_types"] } : {}),
    tasks: summary.tasks as unknown as Record<string, Record<string, unknown>>,
    "Rid-SR": summary.success["Rid-SR"],
    "Oid-SR": summary.success["Oid-SR"],
    average: summary.success.average,
    chance: summary.chance,
    errors: summary.errors,
    ci: summary.ci,
    ...(summary.counterfactual || derivation
      ? {
          counterfactual: {
            n: summary.counterfactual?.n ?? 0,
            skipped: derivation?.skipped ?? 0,
            total: derivation?.total ?? items.length,
            skipped_reasons: derivation?.skipped_reasons ?? {},
            skipped_items: derivation?.skipped_items ?? [],
            unchecked: uncheckedCounts(items),
            chose_original_target: summary.counterfactual?.chose_original_target ?? 0,
            chose_original_rate: summary.counterfactual?.chose_original_rate ?? null,
            target_unchanged: summary.counterfactual?.target_unchanged ?? 0,
          },
        }
      : {}),
    counts,
    bootstrap: { resamples: options.bootstrapResamples, seed: options.bootstrapSeed, cluster: "scene (house)", level: 0.95 },
    definitions: DEFINITIONS,
  };
}

function preparePrompts(items: VcnItem[], setup: PromptSetup) {
  const variant = setup.source as Variant;
  if (!VARIANTS.includes(variant)) throw new UsageError(`unknown VCN-Bench prompt "${setup.source}" (choose ${VARIANTS.join(", ")})`);
  if (setup.control !== "none") throw new UsageError("VCN-Bench has no controls; use --prompt for its variants (plain, shuffled-frames, counterfactual)");
  const templates = loadTemplates(setup.templateFile);
  // Fails early (UsageError) when the image limit cannot fit the four views and one frame.
  if (items[0]) planShown(items[0], variant, setup.seed, setup.maxImages);
  const sample = tourSampler(templates);
  const build = async (item: VcnItem) => {
    const shown = planShown(item, variant, setup.seed, setup.maxImages);
    let tour;
    try {
      tour = await sample(item);
    } catch (error) {
      return { error: `cannot read the tour of ${item.id}: ${(error as Error).message}` };
    }
    const mismatch = checkTour(item, tour);
    if (mismatch) return { error: mismatch };
    const messages = buildMessages(item, shown, tour, templates);
    // Both tasks answer one frame index; our template asks for it as a JSON object ({"frame": n}): JSON mode wherever the prompt says "JSON".
    return { messages, info: promptInfo(shown, tour, item), json: messagesMentionJson(messages) };
  };
  const derivation = items.find((i) => i.derivation)?.derivation;
  return {
    build,
    info: {
      variant,
      template: { name: templates.name, sha256: templates.hash },
      seed: setup.seed,
      ...(setup.maxImages ? { max_images: setup.maxImages } : {}),
      ...(variant === "counterfactual" ? { counterfactual: { derived: items.length, skipped: derivation?.skipped ?? 0, total: derivation?.total ?? items.length } } : {}),
    },
  };
}

export const vcn: Benchmark<VcnItem> = {
  id: "vcn",
  title: "VCN-Bench",
  tasks: TASK_CODES.map((code) => ({ code, name: TASK_NAMES[code], title: `${TASK_NAMES[code]} (${code === "instance" ? "Oid-SR" : "Rid-SR"})` })),
  resolveTasks(list) {
    return list.map((text) => {
      const key = text.trim().toLowerCase();
      const code = TASK_CODES.find((c) => c === key || TASK_NAMES[c].toLowerCase() === key);
      if (!code) throw new UsageError(`unknown VCN-Bench task "${text}" (use ${TASK_CODES.join(", ")})`);
      return code;
    });
  },
  load(root, tasks, options) {
    return loadVcn(root, { ...options, ...(tasks ? { tasks: tasks as TaskCode[] } : {}) });
  },
  promptSources: [...VARIANTS],
  promptControls: ["none"],
  deriveItems(items, setup) {
    if (setup.source !== "counterfactual") return items;
    const set = deriveCounterfactuals(items);
    // With none derived no item carries the skip counts: say why here rather than run nothing.
    if (set.items.length === 0 && items.length > 0) throw new UsageError(`--prompt counterfactual: no question has a counterfactual instruction (${set.skipped.length} skipped: ${reasonsText(skipReasons(set.skipped))})`);
    return set.items;
  },
  preparePrompts,
  readReply,
  readPrediction,
  scoreItem,
  summarize,
  scoreName: "Avg. SR, mean of types",
  scoreTasks,
  // Read when asked for: navigate/episodes.ts reaches this module again through the reports (registry.ts).
  get episodes() {
    return navigationEpisodes;
  },
  baselines: vcnBaselines,
  audit: vcnAudit,
  markdown: vcnMarkdown,
  charts: vcnCharts,
  overlay: vcnOverlay,
  terminal: vcnTerminal,
  predictionIdField: "id",
  // VCN-Bench standardizes every input image to 384x384 (paper, Feature Pooling and §C.3): here
  // 384*384 = 147456 pixels, aspect kept (as templates/vcn.yaml max_pixels samples the tour). Tour
  // frames (up to 96 next to the 4 views) go as JPEG q90 so a full tour stays well inside 20 MB.
  imageBudget: { picture: { maxPixels: 147456, format: "keep" }, frame: { maxPixels: 147456, format: "jpeg", jpegQuality: 90 } },
  async generate({ outDir, seed, count, extra, log, assetsDir }) {
    // Loaded on demand: the generator pulls in the world engine.
    const { generateVcnRelease } = await import("./construct/index.js");
    return generateVcnRelease({
      outDir, seed, count, extra, log, ...(assetsDir !== undefined ? { assetsDir } : {}),
      command: generateCommand("vcn", { outDir, seed, count, extra }),
    });
  },
};
