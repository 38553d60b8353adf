import path from "node:path";
import { messagesMentionJson, type Answer, type Benchmark, type BenchmarkOptions, type ItemResult, type PromptSetup, type SummaryOptions } from "../../core/benchmark.js";
import { UsageError } from "../../core/problems.js";
import type { PyDict, PyValue } from "../../core/pycompat/json.js";
import { pyToPlain } from "../../core/pycompat/json.js";
import { tallyResults } from "../../core/results.js";
import { bootstrapGroups, countAccuracyByTargets, countingByTargets, perItemTable, summarizeSamples, scoreTasks, type ScoredSample } from "./aggregate.js";
import { epicBaselines } from "./baselines.js";
import { canonicalCoordMode, coordModeForModel, COORD_MODES, type CoordMode } from "./coords.js";
import { formatReply, NO_VALID_RESPONSE, NOT_REQUIRED, type FormattedReply as Formatted } from "./format.js";
import { loadEpic } from "./load.js";
import { epicMarkdown, epicTerminal } from "./report.js";
import { buildEpicMessages, COUNT_ONLY, COUNT_ONLY_FAMILIES, countOnlyApplies, loadEpicTemplates, PROMPT_SOURCES, type PromptSource } from "./prompt.js";
import { groundTruth, scoreSample, type EpicOutcome, type EpicRules, type FormattedReply } from "./score.js";
import { rulesOption, rulesRecord } from "./rules.js";
import { BY_GROUP_ORDER, CATEGORIES, gtFields, LEAF_TASKS, leafFromPath } from "./taxonomy.js";
import type { EpicItem } from "./types.js";
import { epicCharts } from "./charts.js";
import { generateCommand } from "../generate-settings.js";
import { epicOverlay } from "./overlay.js";
import { epicAudit } from "./audit.js";

export { loadEpic } from "./load.js";
export { formatReply } from "./format.js";
export { scoreSample, localizationScore, countScore, binaryScore, pathScore, filterNearbyPoints, groundTruth } from "./score.js";
export { summarizeSamples, countingByTargets, countAccuracyByTargets } from "./aggregate.js";
export { RULE_DIFFERENCES } from "./rules.js";
export { overlayAblation, jointVsCountOnly, repeatMeans } from "./tables.js";
export { LEAF_TASKS, BY_GROUP_ORDER, CATEGORIES } from "./taxonomy.js";
export { buildEpicMessages, loadEpicTemplates, OVERLAY_VARIANTS } from "./prompt.js";
export type { EpicItem } from "./types.js";

/** --coords values: ours (0-1, 0-1000) and the official names. */
export function coordsOption(text: string): CoordMode {
  const canonical = canonicalCoordMode(text === "0-1" ? "normalized_0_1" : text === "0-1000" ? "normalized_0_1000" : text);
  if (!(COORD_MODES as readonly string[]).includes(canonical)) throw new UsageError(`--coords must be auto, absolute, 0-1 or 0-1000 (got "${text}")`);
  return canonical as CoordMode;
}

/** The official standard-record fields (lists, markers wrapped) for our scorer. */
export function stdFields(f: Formatted): FormattedReply {
  const wrap = (v: unknown) => (v === NO_VALID_RESPONSE || v === NOT_REQUIRED ? [v] : v);
  return {
    localization: wrap(f.localization),
    count: [f.count],
    path: wrap(f.points),
    binary: f.feasibility === NO_VALID_RESPONSE || f.feasibility === NOT_REQUIRED ? [f.feasibility] : [f.feasibility],
  };
}

interface Settings {
  coords: CoordMode;
  /** --coords was given: it overrides a standard record's own coordinate_system (the official --coord-mode). */
  coordsGiven: boolean;
  strict: boolean;
  rules: EpicRules;
}

/** The fields that make a predictions row an official standard (already formatted) record. */
const STANDARD_FIELDS = ["formatted_response_localization", "formatted_response_count", "formatted_response_path", "formatted_response_binary"] as const;

/** A standard record's fields as read by the official scorers (`_first(...)`; an absent field is None). */
interface StandardReply extends FormattedReply {
  coordMode: CoordMode;
}

const isStandardRecord = (row: PyDict) => STANDARD_FIELDS.some((k) => row.has(k));

/**
 * An official standard record (what format_response.py writes and epic_eval.evaluate reads): its
 * formatted fields are scored as they stand, boxes or, with `format_type: ["mask"]`, COCO RLE.
 * Only the fields the official scorers take from the reply are read: ground-truth values a record
 * carries under `ground_truth` (which the official scorers would prefer) are ignored, the release's
 * files being the truth.
 */
function readStandardRecord(row: PyDict): Answer {
  const field = (key: string) => (row.has(key) ? pyToPlain(row.get(key)!) : null);
  const [localization, count, pathPoints, binary] = STANDARD_FIELDS.map(field);
  const firstOf = (v: unknown) => (Array.isArray(v) ? (v.length > 0 ? v[0] : null) : v);
  const system = firstOf(field("coordinate_system"));
  const coords = canonicalCoordMode(typeof system === "string" ? system : null);
  const value: StandardReply = {
    localization, count, path: pathPoints, binary,
    formatType: firstOf(field("format_type")) === "mask" ? "mask" : "bbox",
    coordMode: (COORD_MODES as readonly string[]).includes(coords) ? (coords as CoordMode) : "auto",
  };
  const marked = [localization, count, pathPoints, binary].some((v) => firstOf(v) === NO_VALID_RESPONSE);
  const stored = pyToPlain(row as unknown as PyValue);
  return marked ? { status: "unparseable", value, reason: "the standard record marks a field as No Valid Response", stored } : { status: "ok", value, stored };
}

/** The count-only prompt (paper Table 4): its reply has only a count, so the count alone is scored. */
const isCountOnly = (prompt?: Record<string, unknown>) => prompt?.["variant"] === COUNT_ONLY;

function readReply(item: EpicItem, text: string): Answer {
  const formatted = formatReply(item.leaf.leaf, text);
  const fields = stdFields(formatted);
  return formatted.status === "ok"
    ? { status: "ok", value: fields, stored: text }
    : { status: "unparseable", value: fields, reason: formatted.reason ?? "no valid response", stored: text };
}

function scoreWith(settings: Settings) {
  return (item: EpicItem, answer: Answer, prompt?: Record<string, unknown>): EpicOutcome => {
    const fields = (answer.value as (FormattedReply & { coordMode?: CoordMode }) | null) ?? { localization: [NO_VALID_RESPONSE], count: [NO_VALID_RESPONSE], path: [NO_VALID_RESPONSE], binary: [NO_VALID_RESPONSE] };
    const coordMode = !settings.coordsGiven && fields.coordMode ? fields.coordMode : settings.coords;
    const scored = scoreSample(item, fields, { coordMode, rules: settings.rules });
    const outcome: EpicOutcome = isCountOnly(prompt) ? { ...scored, score: scored.components.count, weights: { localization: 0, count: 1, path: 0, binary: 0 } } : scored;
    // --strict: an unreadable reply scores 0 whatever the ground truth.
    if (settings.strict && answer.status !== "ok") return { ...outcome, score: 0, components: { localization: 0, count: 0, path: 0, binary: 0 }, invalid: true };
    return outcome;
  };
}

/** A path of a predictions row relative to the data root, with forward slashes. */
const relativeToRoot = (p: string, dataRoot: string) => (path.isAbsolute(p) ? path.relative(dataRoot, p) : p).split(path.sep).join("/");

/**
 * The sample a predictions row answers: its `id`; a standard record's `ground_truth.gt_json_path[0]`
 * (what the official evaluator opens); else the official formatter's way, from the image paths.
 */
function sampleKey(row: PyDict, dataRoot: string): string | undefined {
  const id = row.get("id");
  if (typeof id === "string") return id;
  const truth = row.get("ground_truth");
  const gtPath = truth instanceof Map ? truth.get("gt_json_path") : undefined;
  const gtFirst = Array.isArray(gtPath) ? gtPath[0] : gtPath;
  if (typeof gtFirst === "string" && gtFirst !== "") return relativeToRoot(gtFirst, dataRoot);
  return sampleKeyFromImages(row, dataRoot);
}

/** The official formatter's way to find a sample from a raw reply's image paths. */
function sampleKeyFromImages(row: PyDict, dataRoot: string): string | undefined {
  const images = row.get("images");
  if (!Array.isArray(images)) return undefined;
  const paths = images.map((img) => (typeof img === "string" ? img : img instanceof Map && typeof img.get("path") === "string" ? (img.get("path") as string) : undefined)).filter((p): p is string => p !== undefined);
  const rel = paths.map((p) => relativeToRoot(p, dataRoot));
  const leaf = rel.map((p) => leafFromPath(p.split("/"))).find((l) => l !== undefined);
  const stems = rel.filter((p) => /_image\.[^/.]+$/.test(p));
  if (leaf?.leaf === "VisualMatching") {
    if (stems.length < 2) return undefined;
    const a = stems[0]!;
    const b = stems.length === 2 ? stems[1]! : stems[stems.length - 1]!;
    const base = (p: string) => path.posix.basename(p).replace(/_image\.[^.]+$/, "");
    return `${path.posix.dirname(a)}/${base(a)}__${base(b)}_mask_rle.json`;
  }
  if (stems.length !== 1) return undefined;
  return stems[0]!.replace(/_image\.[^/.]+$/, "_mask_rle.json");
}

function summarizeWith(settings: Settings) {
  return (items: EpicItem[], results: ItemResult[], _tasks: string[], options: SummaryOptions) => {
    const byId = new Map(items.map((i) => [i.id, i]));
    const { counts, scored } = tallyResults(results);
    const score = scoreWith(settings);
    const samples: ScoredSample[] = [];
    for (const result of scored) {
      // The official summary covers the samples that have a reply; missing ones are only counted.
      if (result.answer?.status === "missing") continue;
      const item = byId.get(result.id)!;
      const o = score(item, result.answer!, result.prompt);
      const precise = o.weights.count > 0 && groundTruth(item).preciseCount;
      samples.push({
        id: item.id, leaf: item.leaf, score: o.score, invalid: o.invalid, cluster: item.cluster, gtCount: o.gtCount,
        ...(o.weights.count > 0 ? { countScore: o.components.count, preciseCount: precise, countExact: o.predCount !== null && o.predCount === o.gtCount } : {}),
      });
    }
    const summary = summarizeSamples(samples);
    const intervals = options.bootstrapResamples > 0 && samples.length > 0 ? bootstrapGroups(samples, { resamples: options.bootstrapResamples, seed: options.bootstrapSeed }) : {};
    const tasks: Record<string, Record<string, unknown>> = {};
    for (const [key, bucket] of Object.entries(summary.by_type)) tasks[key] = { ...bucket };
    return {
      n: samples.length,
      score: samples.length > 0 ? summary.overall.average_score : null,
      score_ci: intervals["overall"] ?? null,
      tasks,
      summary: { ...summary, by_group_ci: Object.fromEntries(BY_GROUP_ORDER.filter((g) => intervals[g]).map((g) => [g, intervals[g]])) },
      counting_by_targets: countingByTargets(samples),
      count_accuracy_by_targets: countAccuracyByTargets(samples),
      per_item: perItemTable(samples, results, (id) => {
        const item = byId.get(id);
        if (!item || !gtFields(item.leaf).countField) return { gtCount: null, preciseCount: null };
        const gt = groundTruth(item);
        return { gtCount: gt.count, preciseCount: gt.preciseCount };
      }),
      counts: { ...counts, invalid: summary.overall.num_invalid_response },
      scoring: {
        coordinate_system: settings.coords,
        strict: settings.strict,
        rules: rulesRecord(settings.rules),
        d_sg: "exact minimum distance between start and goal regions (the official code samples 1,000 pixels of larger regions at random)",
        unreadable_replies: settings.strict ? "score 0" : "as the official code: read as an empty answer (an empty-target sample then scores 1)",
      },
    };
  };
}

function preparePromptsWith(settings: Settings) {
  return (_items: EpicItem[], setup: PromptSetup) => {
    const variant = setup.source as PromptSource;
    if (!(PROMPT_SOURCES as readonly string[]).includes(variant)) throw new UsageError(`unknown EPIC-Bench prompt "${setup.source}" (choose ${PROMPT_SOURCES.join(", ")})`);
    if (setup.control !== "none") throw new UsageError("EPIC-Bench has no controls; use --prompt for the overlay variants");
    const templates = loadEpicTemplates(setup.templateFile);
    const lacking = COUNT_ONLY_FAMILIES.filter((f) => !templates.countOnly[f]);
    if (variant === COUNT_ONLY && lacking.length > 0) throw new UsageError(`the count-only prompt needs count_only entries in ${templates.file}: it lacks ${lacking.map((f) => `count_only.${f}`).join(", ")}`);
    const coordMode = settings.coords === "normalized_0_1" ? "0-1" : settings.coords === "normalized_0_1000" ? "0-1000" : "absolute";
    const build = async (item: EpicItem) => {
      if (variant === COUNT_ONLY && !countOnlyApplies(item.leaf)) return { error: `the count-only prompt (paper Table 4) asks Target Localization and Contact Relationship samples only; run it with --tasks TargetLocalization,ContactRelationship (${item.task})` };
      try {
        const messages = await buildEpicMessages(item, { templates, variant, coordMode });
        // Every sub-task's reply is a JSON object (the paper's response formats, Fig. 17): JSON mode wherever the prompt says "JSON".
        return { messages, info: { variant, coords: coordMode } as Record<string, unknown>, json: messagesMentionJson(messages) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    return { build, info: { variant, asked_coordinates: coordMode, template: { name: templates.name, sha256: templates.hash } } };
  };
}

function resolveTasks(list: string[]): string[] {
  return [...new Set(list.flatMap((text) => {
    const t = text.trim();
    const hits = LEAF_TASKS.filter((l) => l.byType === t || l.leaf === t || l.byGroup === t || l.group === t || l.category === t);
    if (hits.length === 0) throw new UsageError(`unknown EPIC-Bench task "${text}" (use a task type, group or category, e.g. GroundDetection, FeasiblePath, TargetLocalization)`);
    return hits.map((l) => l.byType);
  }))];
}

function makeEpic(settings: Settings): Benchmark<EpicItem> {
  return {
    id: "epic",
    title: "EPIC-Bench",
    tasks: LEAF_TASKS.map((l) => ({ code: l.leaf, name: l.byType, title: l.leaf })),
    resolveTasks,
    load: (root, tasks, options) => loadEpic(root, { ...options, ...(tasks ? { tasks } : {}) }),
    promptSources: [...PROMPT_SOURCES],
    promptControls: ["none"],
    preparePrompts: preparePromptsWith(settings),
    readReply: (item, text) => readReply(item, text),
    readPrediction(item, row) {
      if (!row) return { status: "missing", value: null, reason: "no reply for this sample" };
      if (isStandardRecord(row)) return readStandardRecord(row);
      const response = row.get("response");
      return typeof response === "string" ? readReply(item, response) : { status: "unparseable", value: null, reason: "\"response\" must be the raw reply text" };
    },
    scoreItem: (item, answer, prompt) => pyToPlain(scoreWith(settings)(item, answer, prompt) as unknown as PyValue) as Record<string, unknown>,
    summarize: summarizeWith(settings),
    scoreName: "Overall",
    scoreTasks,
    baselines: epicBaselines,
    markdown: epicMarkdown,
    charts: epicCharts,
    overlay: epicOverlay,
    audit: epicAudit,
    terminal: epicTerminal,
    predictionIdField: "id",
    predictionTextField: "response",
    // Answers are points and boxes, and in "absolute" mode (and "auto" when it resolves there) the
    // official evaluator reads them as pixels of the image as stored (coords.ts scaleFactors and
    // resolveCoordMode take its h and w). A resized picture would put the model's pixels in another
    // frame, so pictures keep their size: only re-encoded when over a byte limit, and a picture over
    // a provider's side limit is a limit error, never a silently rescaled score.
    imageBudget: { picture: { format: "keep", keepSize: true }, frame: { format: "keep", keepSize: true } },
    predictionKey: sampleKey,
    async generate({ outDir, seed, count, extra, log, assetsDir }) {
      // Loaded on demand: the generator pulls in the world engine.
      const { epicSummary, generateEpicRelease, generateOptions } = await import("./construct/index.js");
      const options = generateOptions(extra);
      const result = await generateEpicRelease({
        outDir, seed, houses: count, assetsDir, log, ...options,
        command: generateCommand("epic", { outDir, seed, count, extra }),
      });
      return epicSummary(count, result, log);
    },
    configure(options: BenchmarkOptions) {
      const coords = options.coords ? coordsOption(options.coords) : options.model ? coordModeForModel(options.model) : "auto";
      return makeEpic({ coords, coordsGiven: options.coords !== undefined, strict: options.strict ?? false, rules: rulesOption(options.rules) });
    },
  };
}

export const epic = makeEpic({ coords: "auto", coordsGiven: false, strict: false, rules: "official" });
