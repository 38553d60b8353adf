/**
 * EgoTL-Bench: six egocentric video tasks (planning, scene-aware action, next action, action
 * recognition, direction recognition, distance estimation), scored by accuracy and MRA as the
 * paper's Table 3. The paper released no QA files: items use our JSONL format (schema.ts), prompts
 * our own wording with the paper's output contracts (templates/egotl.yaml), and replies are read
 * by the rules of the paper's supplementary H.2 made precise (parse.ts).
 */
import type { Answer, Benchmark, BenchmarkOptions, ItemResult, PromptSetup, SummaryOptions } from "../../core/benchmark.js";
import { DataError, UsageError } from "../../core/problems.js";
import { tallyResults } from "../../core/results.js";
import type { PyDict } from "../../core/pycompat/json.js";
import { MRA_THRESHOLDS } from "../../stats/mra.js";
import { summarizeUnits, toUnits, scoreTasks } from "./aggregate.js";
import { egotlBaselines, FREQUENCY_NEEDS_TRAIN, frequencyReply, frequencyTable, type FrequencyTable } from "./baselines.js";
import type { FrameSpec } from "../../media/frames.js";
import { loadEgoTL, type EgoTLItem } from "./load.js";
import { readAnswer } from "./parse.js";
import { buildPrompt, loadTemplates } from "./prompt.js";
import { egotlMarkdown, egotlTerminal } from "./report.js";
import { EGOTL_TASKS, TASK_TITLES, type EgoTLTask } from "./schema.js";
import { scoreDetail } from "./score.js";
import { egotlCharts } from "./charts.js";
import { generateCommand } from "../generate-settings.js";
import { egotlOverlay } from "./overlay.js";
import { egotlAudit } from "./audit.js";

export * from "./schema.js";
export { loadEgoTL, findItemFiles, fieldPath, goldOptionIndex, DEFAULT_FRAME_SPECS, type EgoTLItem, type LoadOptions, type LoadResult, type Truth } from "./load.js";
export { normalizeText, readPlanning, readPlanningReply, hedgedLetters, matchOption, firstLetter, readDirection, firstNumber, findJsonObjects, letterFromValue, readAnswer, DIRECTION_KEYWORDS } from "./parse.js";
export { buildPrompt, loadTemplates, formatOptions, questionText, fill, DEFAULT_TEMPLATE_FILE, type EgoTLTemplates } from "./prompt.js";
export { scoreAnswer, scoreDetail, truthOf, type ItemOutcome } from "./score.js";
export { toUnits, summarizeUnits, summarizeChoice, summarizeDistance, summarizeDirection, errorStats, type Unit, type ChoiceTaskSummary, type DistanceSummary, type DirectionBreakdown, type ErrorStats } from "./aggregate.js";
export { egotlBaselines, frequencyTable, frequencyReply, replyFor, type FrequencyTable } from "./baselines.js";
export { egotlMarkdown, egotlTerminal } from "./report.js";
export { mra, MRA_THRESHOLDS } from "../../stats/mra.js";

/** The only prompt source: our templates (a user's own file through --template). */
export const PROMPT_SOURCES = ["templates"] as const;

/** Circular evaluation: the rotations of each multiple-choice item, ids `<id>#r<k>`, options shifted left by k. */
export function rotateItems(items: EgoTLItem[]): EgoTLItem[] {
  return items.flatMap((item) => {
    if (item.rotation || !item.options || item.truth.kind !== "option") return [item];
    const n = item.options.length;
    const original = item.truth.index;
    return Array.from({ length: n }, (_, k): EgoTLItem => ({
      ...item,
      id: `${item.id}#r${k}`,
      options: item.options!.map((_, j) => item.options![(j + k) % n]!),
      truth: { kind: "option", index: (original - k + n) % n },
      rotation: { base: item.id, k },
    }));
  });
}

interface Settings {
  circular: boolean;
  train: FrequencyTable | null;
  /** --frames N / --fps X: the spec that replaces every frame spec. */
  frameOverride?: FrameSpec;
}

/** The frame spec of --frames N (uniform N) or --fps X; both at once is a usage error. */
export function frameOverrideOf(options: BenchmarkOptions): FrameSpec | undefined {
  if (options.frames !== undefined && options.fps !== undefined) throw new UsageError("give --frames or --fps, not both");
  if (options.frames !== undefined) return { mode: "uniform", count: options.frames };
  if (options.fps !== undefined) return { mode: "fps", fps: options.fps };
  return undefined;
}

/**
 * The frequency baseline (the paper's "Chance level (frequency)", §5) scored on these items, as a
 * run of the `frequency` model would score: its reply per item, read and scored by the same rules.
 */
export function frequencyChance(items: EgoTLItem[], tasks: EgoTLTask[], table: FrequencyTable): Record<string, unknown> {
  const results: ItemResult[] = items.map((item) => ({ id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer: readAnswer(item, frequencyReply(item, table)) }));
  const { units } = toUnits(items, results);
  const s = summarizeUnits(units, tasks, { resamples: 0, seed: 0 });
  const tasksOut = Object.fromEntries(Object.entries(s.tasks).map(([task, summary]) => {
    const { ci: _ci, ...rest } = summary as unknown as Record<string, unknown>;
    return [task, rest];
  }));
  return { train: table.source, n_train: table.n, "Avg.": s["Avg."], tasks: tasksOut };
}

function readPrediction(item: EgoTLItem, row: PyDict | undefined): Answer {
  if (!row) return { status: "missing", value: null, reason: "no prediction row for this item" };
  // `response` (the project's predictions format); `output` is what `run` exports.
  const text = row.has("response") ? row.get("response") : row.get("output");
  if (typeof text !== "string") return { status: "unparseable", value: null, reason: '"response" (or "output") must be the raw reply text' };
  return readAnswer(item, text);
}

function makeSummarize(settings: Settings) {
  return (items: EgoTLItem[], results: ItemResult[], tasks: string[], options: SummaryOptions) => {
    const { counts } = tallyResults(results);
    const { units, incomplete } = toUnits(items, results);
    const summary = summarizeUnits(units, tasks as EgoTLTask[], { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
    const circular = items.some((i) => i.rotation !== undefined);
    const warnings = settings.circular && !circular && items.some((i) => i.options)
      ? ["circular evaluation was asked for but the items were not rotated (the caller must apply deriveItems; stored predictions must use <id>#r<k> ids)"]
      : [];
    return {
      n: summary.n,
      score: summary.score,
      score_name: summary.avg_tasks.length > 0 ? "Avg." : "MRA",
      "Avg.": summary["Avg."],
      avg_counted: summary.avg_counted,
      avg_tasks: summary.avg_tasks,
      score_ci: summary.score_ci,
      tasks: summary.tasks as unknown as Record<string, Record<string, unknown>>,
      counts: { ...counts, excluded: summary.excluded, ...(circular ? { circular_incomplete: incomplete } : {}) },
      circular,
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(settings.train ? { train: { file: settings.train.source, n: settings.train.n }, frequency_chance: frequencyChance(items, tasks as EgoTLTask[], settings.train) } : {}),
      ...(settings.frameOverride ? { frame_override: settings.frameOverride } : {}),
      bootstrap: { resamples: options.bootstrapResamples, seed: options.bootstrapSeed, cluster: "source video (video_id)", level: 0.95 },
      definitions: {
        accuracy: "per task, right answers / scored questions; action recognition leaves out replies without a standalone capital A-D (the paper's rule, H.2); other unreadable replies count as wrong",
        accuracy_counted: "right answers / all questions: unreadable action-recognition letters counted as wrong",
        "Avg.": "mean of the multiple-choice accuracies in avg_tasks (the paper's Avg. when all five are present); distance is reported apart",
        MRA: `mean over the ${MRA_THRESHOLDS.length} VSI-Bench thresholds (numpy linspace 0.5..0.95) of |pred - gt| / gt <= 1 - threshold, as the official code computes it; pred = the first number in the reply (VSI-Bench itself reads the first space-separated token); unreadable = 0; gt = 0: 1 when pred == 0 else 0 (the official code divides by zero)`,
        MRA_strict: "the same with the paper's strict comparison (Eq. 4: |pred - gt| / gt < 1 - threshold); they differ where a relative error equals a threshold's tolerance in float64, e.g. 1.1 m against 1.0 m: MRA 0.9, MRA_strict 0.8",
        abs_error: "distance: |pred - gt| in metres over the readable replies (App. H.2.6); mean and median (numpy's)",
        rel_error: "distance: |pred - gt| / gt over the readable replies with gt > 0 (App. H.2.6); mean and median",
        per_direction: "direction: accuracy per true label, and how many replies were read as each label (predicted, predicted_share of all direction questions; no_label_share: unreadable or missing) (App. H.2.5)",
        ...(settings.train ? { frequency_chance: "the frequency baseline (the most frequent training answer per task, §5) on these items, read and scored as a run of the frequency model" } : {}),
        ...(settings.frameOverride ? { frame_override: "every item's and task's frame spec replaced by --frames (uniform N) or --fps (frames per second); a span still applies" } : {}),
        ...(circular ? { circular: "each multiple-choice question asked once per rotation of its options; right only when every rotation is right" } : {}),
      },
    };
  };
}

export function makeEgoTL(settings: Settings): Benchmark<EgoTLItem> {
  return {
    id: "egotl",
    title: "EgoTL-Bench",
    tasks: EGOTL_TASKS.map((t) => ({ code: t, name: t, title: TASK_TITLES[t] })),
    resolveTasks(list) {
      return [...new Set(list.map((text) => {
        const key = text.trim().toLowerCase().replace(/[-\s]+/g, "_");
        const task = EGOTL_TASKS.find((t) => t === key || TASK_TITLES[t].toLowerCase().replace(/[-\s]+/g, "_") === key);
        if (!task) throw new UsageError(`unknown EgoTL-Bench task "${text}" (use ${EGOTL_TASKS.join(", ")})`);
        return task;
      }))];
    },
    load(root, tasks, options) {
      return loadEgoTL(root, { ...options, ...(tasks ? { tasks } : {}), ...(settings.frameOverride ? { frameOverride: settings.frameOverride } : {}) });
    },
    promptSources: [...PROMPT_SOURCES],
    promptControls: ["none"],
    configure(options: BenchmarkOptions) {
      let train: FrequencyTable | null = settings.train;
      if (options.train) {
        const loaded = loadEgoTL(options.train, { checkMedia: false });
        if (loaded.problems.length > 0) throw new DataError(loaded.problems);
        if (loaded.items.length === 0) throw new UsageError(`training file ${options.train} holds no items`);
        train = frequencyTable(loaded.items, options.train);
      }
      const model = options.model?.split(":")[0];
      if (model === "frequency" && !train) throw new UsageError(FREQUENCY_NEEDS_TRAIN);
      const frameOverride = frameOverrideOf(options) ?? settings.frameOverride;
      return makeEgoTL({ circular: options.circular ?? settings.circular, train, ...(frameOverride ? { frameOverride } : {}) });
    },
    deriveItems(items: EgoTLItem[], _setup: PromptSetup) {
      return settings.circular ? rotateItems(items) : items;
    },
    preparePrompts(_items, setup) {
      if (!(PROMPT_SOURCES as readonly string[]).includes(setup.source)) throw new UsageError(`unknown EgoTL-Bench prompt "${setup.source}" (choose ${PROMPT_SOURCES.join(", ")}; pass your own wording with --template)`);
      if (setup.control !== "none") throw new UsageError("EgoTL-Bench has no controls");
      const templates = loadTemplates(setup.templateFile);
      const media = setup.maxImages ? { maxImages: setup.maxImages } : {};
      return {
        build: (item: EgoTLItem) => buildPrompt(item, templates, media),
        info: { source: setup.source, template: { name: templates.name, sha256: templates.hash }, ...(setup.maxImages ? { max_images: setup.maxImages } : {}), circular: settings.circular },
      };
    },
    readReply: (item, text) => readAnswer(item, text),
    readPrediction,
    scoreItem: (item, answer) => scoreDetail(item, answer),
    summarize: makeSummarize(settings),
    scoreName: "Avg.",
    scoreTasks,
    baselines: egotlBaselines(settings.train),
    markdown: egotlMarkdown,
    charts: egotlCharts,
    overlay: egotlOverlay,
    audit: egotlAudit,
    terminal: egotlTerminal,
    predictionIdField: "id",
    // The paper states no input resolution (its §I names the closed models, not their inputs).
    // Longest side 768 as JPEG q85 (768x432 for a 1280x720 clip): a 48-frame distance item stays
    // a few MB, far inside every provider's request limit (models/limits.ts).
    imageBudget: { picture: { maxSide: 768, format: "jpeg", jpegQuality: 85 }, frame: { maxSide: 768, format: "jpeg", jpegQuality: 85 } },
    async generate({ outDir, seed, count, extra, log, assetsDir }) {
      // Loaded on demand: the generator pulls in the world engine.
      const { generateEgoTLRelease, generateOptions, generateSummary } = await import("./construct/index.js");
      const options = generateOptions(extra);
      const result = await generateEgoTLRelease({
        outDir, seed, houses: count, assetsDir, log, ...options,
        command: generateCommand("egotl", { outDir, seed, count, extra }),
      });
      return generateSummary(count, result);
    },
  };
}

export const egotl: Benchmark<EgoTLItem> = makeEgoTL({ circular: false, train: null });
