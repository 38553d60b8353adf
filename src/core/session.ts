import path from "node:path";
import { trafficSummary } from "../models/traffic.js";
import type { Benchmark, BenchItem, BenchmarkOptions, ItemResult, ScoresDocument } from "./benchmark.js";
import { readConfigFile, settingsFor, type ModelSettingsConfig } from "./config.js";
import { withFolderLock } from "./lock.js";
import { openLiveLog, writeRunOutputs, type LiveHeader, type LiveLog } from "./outputs.js";
import { itemKey, readPredictionFile } from "./predictions.js";
import { DataError, UsageError } from "./problems.js";
import { createRng } from "../stats/rng.js";
import { Progress } from "./progress.js";
import type { PyDict } from "./pycompat/json.js";
import { jsonModeByTask, scorePredictions } from "./run.js";
import { costBudget, runItemsWithin, runUsage } from "./cost.js";
import type { RunOptions } from "./run.js";
import { createBatchClient } from "../models/batch/client.js";
import { DEFAULT_BATCH_POLL_SECONDS, runBatchPass } from "../models/batch/runner.js";
import { resolveModel } from "../models/factory.js";
import { resolveImageBudgets } from "../models/shape.js";
import type { RequestOptions } from "../benchmarks/requests.js";
import { getBenchmark } from "../registry.js";
import { resultFacts, scoreCoverage } from "../report/run-facts.js";
import { ResponseStore } from "../store/store.js";
import { queuedRun } from "../queue/coordinator.js";

/**
 * The work behind `run` and `score`: load and check the data, get answers (model, built-in or
 * stored predictions), score, aggregate and write the outputs. The CLI only parses flags.
 */

export interface CommonOptions {
  benchmark: string;
  /** Benchmark options from the command line (--coords, --strict). */
  benchmarkOptions?: BenchmarkOptions;
  data: string;
  tasks?: string[];
  limit?: number;
  /** --items: only these item ids (in the data's order). */
  items?: string[];
  /** --sample: a seeded random sample of this many items (in the data's order). */
  sample?: { n: number; seed: number };
  out: string;
  bootstrapResamples: number;
  bootstrapSeed: number;
  quiet?: boolean;
  /** A label for the run (`--name`, or `name:` in the config): shown in every table instead of the model. */
  name?: string;
}

export interface RunCommandOptions extends CommonOptions {
  model: string;
  concurrency?: number;
  promptSource: string;
  control: string;
  templateFile?: string;
  seed: number;
  configFile?: string;
  flags: ModelSettingsConfig;
  retryErrors: boolean;
  storeFile?: string;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** `run --repeats K` (core/repeats.ts): this run is repeat `index` of `of`, one of the runs grouped under `group`. */
  repeat?: { index: number; of: number; group: string };
  /** `run --queue URL` (docs/queue.md): workers answer the items; `work: false` (`--no-work`) leaves it all to them. */
  queue?: { url: string; work: boolean; leaseSeconds?: number };
}

export interface RunSummary {
  scores: ScoresDocument;
  results: ItemResult[];
  outDir: string;
}

interface Loaded {
  benchmark: Benchmark<BenchItem>;
  items: BenchItem[];
  tasks: string[];
  /** With --limit, --items or --sample: the items of the asked tasks before they were chosen. */
  available?: number;
}

/**
 * Load the data; refuse it (DataError with every problem) when anything is wrong. `requests`
 * (run only) adds the checks of everything its requests need (benchmarks/requests.ts), the same
 * ones `validate` makes, so a run refuses what `validate` reports.
 */
export function loadForScoring(options: CommonOptions, model?: string, requests?: RequestOptions): Loaded {
  const base = getBenchmark(options.benchmark);
  const benchmark = base.configure ? base.configure({ ...options.benchmarkOptions, ...(model ? { model } : {}) }) : base;
  const tasks = options.tasks && options.tasks.length > 0 ? benchmark.resolveTasks(options.tasks) : undefined;
  const loaded = benchmark.load(options.data, tasks, { allowOutsideRoot: options.benchmarkOptions?.allowOutsideRoot ?? false, ...(requests ? { requests } : {}) });
  if (loaded.problems.length > 0) throw new DataError(loaded.problems);
  let items = loaded.items;
  const available = items.length;
  if (options.items) items = chosenItems(items, options.items);
  if (options.sample) items = sampledItems(items, options.sample);
  if (options.limit !== undefined) {
    const seen = new Map<string, number>();
    items = items.filter((item) => {
      const k = (seen.get(item.task) ?? 0) + 1;
      seen.set(item.task, k);
      return k <= options.limit!;
    });
  }
  return { benchmark, items, tasks: loaded.tasks, ...(isSubset(options) ? { available } : {}) };
}

const isSubset = (o: Pick<CommonOptions, "limit" | "items" | "sample">) => o.limit !== undefined || o.items !== undefined || o.sample !== undefined;

/** --items: the items with these ids, in the data's order; an id the data lacks is a usage error. */
function chosenItems(items: BenchItem[], ids: readonly string[]): BenchItem[] {
  const wanted = new Set(ids);
  const known = new Set(items.map((item) => String(item.id)));
  const unknown = [...wanted].filter((id) => !known.has(id));
  if (unknown.length > 0) throw new UsageError(`--items: ${unknown.length} id${unknown.length === 1 ? " is" : "s are"} not among the asked tasks' items: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", ..." : ""}`);
  return items.filter((item) => wanted.has(String(item.id)));
}

/** --sample N: N items drawn without replacement by the seed, kept in the data's order (all of them when N is larger). */
function sampledItems(items: BenchItem[], sample: { n: number; seed: number }): BenchItem[] {
  if (sample.n >= items.length) return items;
  const picked = new Set(createRng(sample.seed).shuffle(items.map((_, i) => i)).slice(0, sample.n));
  return items.filter((_, i) => picked.has(i));
}

/** Who a run is, beside its model: its label, the control used, and whether it scored stored predictions. */
interface RunIdentity {
  name?: string;
  control?: string;
  predictions: boolean;
}

/**
 * scores.json: who the run is (name, control), how much of it was scored (report/run-facts.ts:
 * n_total, n_scored, complete, first_error; `score` adds missing_by_task), whether the overall
 * number covers every task it averages (score_complete, score_coverage), then the benchmark's summary.
 */
function scoresDocument(benchmark: Benchmark<BenchItem>, model: string, loaded: Loaded, results: ItemResult[], options: CommonOptions, identity: RunIdentity, extra: Record<string, unknown>): ScoresDocument {
  const summary = benchmark.summarize(loaded.items, results, loaded.tasks, {
    bootstrapResamples: options.bootstrapResamples,
    bootstrapSeed: options.bootstrapSeed,
  });
  // Per task of the items asked (derived items, e.g. PathEval's probes, carry their own task).
  const { missing_by_task, ...facts } = resultFacts(results, loaded.items.length, [...new Set(loaded.items.map((item) => item.task))]);
  const coverage = scoreCoverage(benchmark.id, results);
  return {
    benchmark: benchmark.id,
    model,
    ...(identity.name ? { name: identity.name } : {}),
    ...(identity.control ? { control: identity.control } : {}),
    ...facts,
    // A run of a subset says so (report/run-facts.ts subsetOf), so it never passes for the whole set.
    ...(options.limit !== undefined ? { limit: { per_task: options.limit, n_available: loaded.available ?? loaded.items.length } } : {}),
    ...(options.items || options.sample ? { selection: { ...(options.items ? { items: options.items.length } : {}), ...(options.sample ? { sample: options.sample.n, seed: options.sample.seed } : {}), n_available: loaded.available ?? loaded.items.length } } : {}),
    ...summary,
    score_complete: coverage.without_predictions.length === 0,
    score_coverage: coverage,
    // Stored predictions can leave items unanswered (a model run records errors instead).
    ...(identity.predictions ? { missing_by_task } : {}),
    ...extra,
    data: path.resolve(options.data),
    // Whether dataset paths were confined to the data root (core/dataroot.ts) or allowed outside it.
    allow_outside_root: options.benchmarkOptions?.allowOutsideRoot ?? false,
    created_at: new Date().toISOString(),
  } as unknown as ScoresDocument;
}

/** What a report or viewer needs to load the same items again (prompt variant, benchmark options). */
function runOptions(options: CommonOptions, promptSource: string): { prompt_source: string; benchmark_options: BenchmarkOptions } {
  return { prompt_source: promptSource, benchmark_options: { ...options.benchmarkOptions } };
}

function rawIdMap(items: BenchItem[]): Map<string, unknown> {
  return new Map(items.map((item) => [item.id, (item as unknown as { rawId?: unknown }).rawId ?? item.id]));
}

/** `score`: stored predictions through the official evaluator's rules. */
export interface ScoreCommandOptions extends CommonOptions {
  predictions: string[];
  promptSource?: string;
  /** Score only the items a prediction row answers (official EgoPathBench `--restrict-to-predictions`). */
  restrictToPredictions?: boolean;
}

export async function executeScore(options: ScoreCommandOptions): Promise<RunSummary> {
  const loaded = loadForScoring(options);
  // One writer per folder (core/lock.ts): a second command on this --out stops here.
  return withFolderLock(options.out, () => scoreLoaded(options, loaded));
}

async function scoreLoaded(options: ScoreCommandOptions, loaded: Loaded): Promise<RunSummary> {
  // Derived items (rotated options, counterfactual copies) are scored as the run asked them.
  if (loaded.benchmark.deriveItems) {
    const source = options.promptSource ?? loaded.benchmark.promptSources[0]!;
    loaded.items = loaded.benchmark.deriveItems(loaded.items, { source, control: loaded.benchmark.promptControls[0]!, seed: 0 });
  }
  const lookup = predictionLookup(loaded.benchmark, options.predictions, path.resolve(options.data));
  const inData = loaded.items.length;
  if (options.restrictToPredictions) loaded.items = loaded.items.filter((item) => lookup(item) !== undefined);
  // The variant the predictions answered, when told (`score --prompt`); scores.json records it as a run's `prompt` does.
  const variant = options.promptSource ? { variant: options.promptSource } : undefined;
  const results = scorePredictions(loaded.benchmark, loaded.items, lookup, variant);
  const label = options.predictions.length === 1 ? `replay:${options.predictions[0]}` : `replay:${options.predictions.join(",")}`;
  const scores = scoresDocument(loaded.benchmark, label, loaded, results, options, { ...(options.name ? { name: options.name } : {}), predictions: true }, {
    predictions: options.predictions.map((p) => path.resolve(p.replace(/^[a-z0-9_]+=/i, ""))),
    // A subset was scored on purpose: say so, and how many questions the data holds.
    ...(options.restrictToPredictions ? { restricted_to_predictions: { n_scored_items: loaded.items.length, n_in_data: inData } } : {}),
    ...(variant ? { prompt: variant } : {}),
    run_options: runOptions(options, options.promptSource ?? loaded.benchmark.promptSources[0]!),
  });
  await writeRunOutputs(options.out, loaded.benchmark, scores, results, { writePredictions: false });
  return { scores, results, outDir: options.out };
}

/**
 * Predictions files: `file.jsonl` applies to every task; `<task>=file.jsonl` to one task only
 * (as the official evaluator takes one file per task).
 */
export function predictionLookup(benchmark: Benchmark<BenchItem>, specs: string[], dataRoot = "."): (item: BenchItem) => PyDict | undefined {
  const general: Array<Map<string, PyDict>> = [];
  const perTask = new Map<string, Map<string, PyDict>>();
  for (const spec of specs) {
    const match = /^([a-z0-9_]+)=(.+)$/i.exec(spec);
    const task = match ? benchmark.resolveTasks([match[1]!])[0]! : undefined;
    const keyOf = benchmark.predictionKey ? (row: PyDict) => benchmark.predictionKey!(row, dataRoot) : undefined;
    const rows = readPredictionFile(match ? match[2]! : spec, benchmark.predictionIdField, keyOf);
    if (task) perTask.set(task, new Map([...(perTask.get(task) ?? new Map()), ...rows]));
    else general.push(rows);
  }
  const merged = new Map<string, PyDict>();
  for (const rows of general) for (const [k, v] of rows) merged.set(k, v);
  return (item) => {
    const key = itemKey(((item as unknown as { rawId?: string | number }).rawId ?? item.id) as string | number);
    const table = perTask.get(item.task) ?? merged;
    return table.get(key);
  };
}

/**
 * A built-in's spec for repeat k: its seed moved on by k-1 (`random` -> `random:1` for repeat 2), so
 * repeats of a seeded built-in differ as a sampled model's do; a real model's spec is unchanged (its
 * repeats differ by store key instead, core/run.ts requestKey).
 */
export function repeatedBuiltinSpec(spec: string, benchmark: Benchmark<BenchItem>, repeat: number | undefined): string {
  if (repeat === undefined || repeat <= 1) return spec;
  const [name, seedText] = spec.split(":", 2) as [string, string | undefined];
  if (!benchmark.baselines[name]) return spec;
  const seed = seedText === undefined ? 0 : Number(seedText);
  return Number.isInteger(seed) ? `${name}:${seed + repeat - 1}` : spec;
}

/** `run`: ask a model (or a built-in), store every reply, score, write outputs. */
export async function executeRun(options: RunCommandOptions): Promise<RunSummary> {
  const config = options.configFile ? readConfigFile(options.configFile) : undefined;
  const settings = settingsFor(options.model, config, options.flags);
  // The run's label: --name, else the config's top-level `name:`.
  const name = options.name ?? config?.name;
  // A coordinate system set for this model in the config applies unless --coords says otherwise.
  if (settings.coords && !options.benchmarkOptions?.coords) options = { ...options, benchmarkOptions: { ...options.benchmarkOptions, coords: settings.coords } };
  const requests: RequestOptions = { source: options.promptSource, control: options.control, ...(options.templateFile ? { templateFile: options.templateFile } : {}) };
  const loaded = loadForScoring(options, options.model, options.model.startsWith("replay:") ? undefined : requests);
  const choice = resolveModel(repeatedBuiltinSpec(options.model, loaded.benchmark, options.repeat?.index), loaded.benchmark, settings, options.env);
  if (choice.kind === "replay") {
    return executeScore({ ...options, ...(name ? { name } : {}), predictions: [choice.file] });
  }
  const concurrency = options.concurrency ?? config?.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError("--concurrency must be a positive integer");
  const model = choice.responder.kind === "model" ? choice.responder.model : undefined;
  // --max-cost / config max_cost (core/cost.ts): checked here, before anything is asked.
  const costLimit = costBudget(options.model, settings.max_cost, settings.price, model, choice.settings.maxTokens, settings.batch === true);
  // --batch (models/batch/): the client is made (and checked) before anything is asked.
  const batchClient = settings.batch === true ? createBatchClient(options.model, settings, options.env) : undefined;
  // Unset: a real model's own image-count limit, so video frames are thinned to fit rather than failing.
  const maxImages = settings.max_images ?? model?.limits?.maxImages.count;
  // Image budgets for real models (models/shape.ts): the benchmark's defaults, then the user's flags.
  const imageBudget = model
    ? resolveImageBudgets(loaded.benchmark.imageBudget, { maxPixels: settings.max_pixels, format: settings.image_format, jpegQuality: settings.jpeg_quality })
    : undefined;
  const setup = {
    source: options.promptSource,
    control: options.control,
    ...(options.templateFile ? { templateFile: options.templateFile } : {}),
    seed: options.seed,
    ...(maxImages ? { maxImages } : {}),
  };
  if (loaded.benchmark.deriveItems) loaded.items = loaded.benchmark.deriveItems(loaded.items, setup);
  const { build, info } = loaded.benchmark.preparePrompts(loaded.items, setup);
  // One writer per folder (core/lock.ts): a second run on this --out stops here, before asking anything.
  return withFolderLock(options.out, async () => {
    // --queue (queue/coordinator.ts): the workers answer every item first; the run below then finds each reply in the server's store.
    // Under --max-cost the items are enqueued held and the budget releases them (queued.ask).
    const queued = options.queue
      ? await queuedRun({ queue: options.queue, options, settings, responderKind: choice.responder.kind, hasCostLimit: costLimit !== undefined, ...(maxImages ? { maxImages } : {}), ...(imageBudget ? { imageBudget } : {}), itemIds: loaded.items.map((item) => item.id), concurrency })
      : undefined;
    const store = queued ? queued.store : choice.responder.kind === "model" ? new ResponseStore(options.storeFile ?? path.join(options.out, "responses.sqlite")) : undefined;
    let live: LiveLog | undefined;
    try {
      const header: LiveHeader & { name?: string; control: string } = {
        benchmark: loaded.benchmark.id,
        model: options.model,
        ...(name ? { name } : {}),
        control: options.control,
        data: path.resolve(options.data),
        prompt_source: options.promptSource,
        benchmark_options: { ...options.benchmarkOptions },
        n_total: loaded.items.length,
        started_at: new Date().toISOString(),
      };
      live = openLiveLog(options.out, header);
      const itemOptions: RunOptions<BenchItem> = {
        benchmark: loaded.benchmark,
        items: loaded.items,
        responder: choice.responder,
        build,
        settings: choice.settings,
        jsonOverride: settings.json_output,
        ...(imageBudget ? { imageBudget } : {}),
        ...(store ? { store } : {}),
        concurrency,
        // A queued run's workers already asked errors again when told to; every reply is stored now.
        retryErrors: options.retryErrors && !options.queue,
        signal: options.signal ?? new AbortController().signal,
        progress: new Progress(`${loaded.benchmark.id} ${options.model}`, loaded.items.length, process.stderr, options.quiet),
        onResult: (result) => live?.append(result),
        ...(options.repeat ? { repeat: options.repeat.index } : {}),
      };
      // --batch: every request the store cannot answer goes through the batch API first; the pass below then finds it stored.
      if (batchClient) {
        const log = options.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`);
        await runBatchPass(itemOptions, { client: batchClient, pollMs: (settings.batch_poll ?? DEFAULT_BATCH_POLL_SECONDS) * 1000, ...(log ? { log } : {}), ...(costLimit ? { budget: costLimit } : {}) });
      }
      // Under --batch the batch pass asked the stored errors again already (--retry-errors): the normal pass sends nothing.
      const results = await runItemsWithin(costLimit, batchClient ? { ...itemOptions, retryErrors: false } : itemOptions, queued?.ask);
      const identity = choice.responder.kind === "model" ? choice.responder.model.identity : { provider: "builtin", endpoint: "", model: choice.responder.name };
      const scores = scoresDocument(loaded.benchmark, options.model, loaded, results, options, { ...(name ? { name } : {}), control: options.control, predictions: false }, {
        prompt: info,
        run_options: runOptions(options, options.promptSource),
        // JSON mode is decided per item: json_output below says what was sent, not settings.jsonOutput.
        settings: { ...choice.settings, jsonOutput: undefined },
        settings_sent: choice.responder.kind === "model" ? choice.responder.model.sentSettings?.(choice.settings) : undefined,
        endpoint: identity.endpoint || undefined,
        json_output: model ? { mode: settings.json_output === undefined ? "per-task" : settings.json_output ? "forced-on" : "forced-off", tasks: jsonModeByTask(results) } : undefined,
        usage: model ? runUsage(results, loaded.items.length, settings.price, batchClient !== undefined) : undefined,
        // Requests per endpoint and the concurrency the adaptive limiter settled on (models/traffic.ts).
        traffic: model ? trafficSummary(model) : undefined,
        ...(options.repeat ? { repeat: options.repeat } : {}),
        // The budgets per kind; the provider's own limits (models/limits.ts) follow from the model spec.
        image_budget: imageBudget,
      });
      await writeRunOutputs(options.out, loaded.benchmark, scores, results, { rawIds: rawIdMap(loaded.items), writePredictions: true });
      live.remove();
      return { scores, results, outDir: options.out };
    } finally {
      live?.close();
      await store?.close();
    }
  });
}
