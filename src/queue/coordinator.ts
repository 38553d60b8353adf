import type { ModelSettingsConfig } from "../core/config.js";
import type { AskItems } from "../core/cost.js";
import { UsageError } from "../core/problems.js";
import type { BenchItem, ItemResult } from "../core/benchmark.js";
import { RunInterrupted, runItems, type RunOptions } from "../core/run.js";
import type { RunCommandOptions } from "../core/session.js";
import type { ImageBudgets } from "../models/shape.js";
import { PostgresStore } from "../store/postgres.js";
import { connectQueue } from "./connect.js";
import { enqueueRun, liveWorkers, releaseHeld, runStatuses, type RunStatus } from "./queue.js";
import { ensureSchema } from "./schema.js";
import { isGenerateSpec, isNavigationSpec, normalizeSpec, refuseUrlCredentials, runIdOf, type QueuedSpec, type RunSpec } from "./spec.js";
import { runWorker } from "./worker.js";

export interface QueuedRunOptions {
  url: string;
  /** false (`--no-work`): only wait for other workers. */
  work: boolean;
  /** The coordinator's own worker: items at once. */
  concurrency: number;
  leaseSeconds?: number;
  quiet?: boolean;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Progress lines (default: stderr). */
  write?: (line: string) => void;
  /** What the work items are, plural, in the first line (default: episodes, houses or items by the run's kind). */
  unit?: string;
}

/** One progress line of a queued run. */
export function progressLine(runId: string, status: RunStatus, workers: number): string {
  return `[queue ${runId} ${status.benchmark}${status.kind === "navigation" ? " navigate" : status.kind === "generate" ? " generate" : ""} ${status.model}] ${status.done}/${status.total} done · ${status.inFlight} in flight · ${status.pending} pending · ${status.held > 0 ? `${status.held} held (--max-cost) · ` : ""}${status.errors} errors · ${workers} live workers`;
}

/**
 * `run --queue` (docs/queue.md): enqueue the run (or attach to it: the run id is a hash of its
 * spec and items), work on it here unless told not to, print progress until every item is done,
 * then hand back the server's response store, in which the normal local run finds every reply.
 */
export async function runOnQueue(spec: RunSpec, itemIds: readonly string[], options: QueuedRunOptions): Promise<{ runId: string; store: PostgresStore }> {
  const runId = await enqueueAndWait(normalizeSpec(spec), itemIds, options);
  return { runId, store: await PostgresStore.open(options.url) };
}

function sayer(options: QueuedRunOptions): (line: string) => void {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  return (line) => {
    if (!options.quiet) write(line);
  };
}

type Connection = Awaited<ReturnType<typeof connectQueue>>;

/** Enqueue a run (or attach to it) and say which; `held`: its items start held (a --max-cost run). */
async function enqueueAndAnnounce(connection: Connection, runId: string, spec: QueuedSpec, itemIds: readonly string[], options: QueuedRunOptions, held: boolean): Promise<void> {
  await ensureSchema(connection.pool);
  const created = await enqueueRun(connection.pool, runId, spec, itemIds, held);
  sayer(options)(`${created ? "enqueued" : "attached to"} run ${runId} (${itemIds.length} ${options.unit ?? (isNavigationSpec(spec) ? "episodes" : isGenerateSpec(spec) ? "houses" : "items")}) on ${connection.url.replace(/:[^:@/]*@/, ":***@")}; more workers: spatialprobe worker --queue <url>`);
}

/**
 * Work on a run here unless `options.work` is false, and print progress until no item is left that
 * a worker could take (every item done, or the rest held).
 */
async function workUntilNoneOpen(connection: Connection, runId: string, options: QueuedRunOptions): Promise<void> {
  const say = sayer(options);
  const local = new AbortController();
  const stopLocal = () => local.abort();
  options.signal.addEventListener("abort", stopLocal, { once: true });
  const working = options.work
    ? runWorker({ url: options.url, concurrency: options.concurrency, leaseSeconds: options.leaseSeconds ?? 60, exitWhenIdle: true, onlyRun: runId, signal: local.signal, ...(options.env ? { env: options.env } : {}), log: say })
    : undefined;
  // A failing local worker (a missing key, say) ends the wait with its error.
  let workerError: unknown;
  working?.catch((error) => {
    workerError = error;
  });
  let last = "";
  for (;;) {
    const [status] = await runStatuses(connection.pool, runId);
    const line = progressLine(runId, status!, (await liveWorkers(connection.pool)).length);
    if (line !== last) say(line);
    last = line;
    if (status!.pending + status!.inFlight === 0) break;
    if (workerError !== undefined) throw workerError;
    if (options.signal.aborted) {
      // The local worker gives its claims back before the run stops.
      await working?.catch(() => {});
      throw new RunInterrupted(status!.done);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  options.signal.removeEventListener("abort", stopLocal);
  await working;
}

/**
 * Enqueue a run of any kind (or attach to it), work on it here unless `options.work` is false, and
 * print progress until every item is done; returns the run id. Items a --max-cost run left held
 * are released: without a limit the whole run goes.
 */
export async function enqueueAndWait(spec: QueuedSpec, itemIds: readonly string[], options: QueuedRunOptions): Promise<string> {
  const { runId, finished } = await enqueueAndStart(spec, itemIds, options);
  await finished;
  return runId;
}

/**
 * enqueueAndWait in two steps: the run is enqueued (or attached to) when this returns, and
 * `finished` settles when every item is done (or rejects as enqueueAndWait would throw), so the
 * caller can read items as they are done in the meantime.
 */
export async function enqueueAndStart(spec: QueuedSpec, itemIds: readonly string[], options: QueuedRunOptions): Promise<{ runId: string; finished: Promise<void> }> {
  refuseUrlCredentials(spec);
  const runId = runIdOf(spec, itemIds);
  const connection = await connectQueue(options.url, 2);
  try {
    await enqueueAndAnnounce(connection, runId, spec, itemIds, options, false);
    await releaseHeld(connection.pool, runId, itemIds.map((_, i) => i));
  } catch (error) {
    await connection.close();
    throw error;
  }
  const finished = workUntilNoneOpen(connection, runId, options).finally(() => connection.close());
  return { runId, finished };
}

/**
 * A --max-cost run on the queue: its items are enqueued held, and `ask` (given to core/cost.ts
 * runWithinBudget in place of runItems) releases the items the budget is ready to ask, waits until
 * the workers have answered them, and reads their replies from the server's store. The budget asks
 * the first items, projects from their replies, and releases the rest only when the projection is
 * within the limit; otherwise the rest stay held (`status` shows them) until the same command, with
 * a higher limit, attaches to the run (the limit is not part of the run's spec).
 */
async function budgetedQueueRun(spec: RunSpec, itemIds: readonly string[], options: QueuedRunOptions): Promise<AskItems> {
  refuseUrlCredentials(spec);
  const runId = runIdOf(spec, itemIds);
  const connection = await connectQueue(options.url, 2);
  try {
    await enqueueAndAnnounce(connection, runId, spec, itemIds, options, true);
  } finally {
    await connection.close();
  }
  const indexOf = new Map(itemIds.map((id, i) => [id, i]));
  return async <I extends BenchItem>(run: RunOptions<I>): Promise<ItemResult[]> => {
    const asking = await connectQueue(options.url, 2);
    try {
      await releaseHeld(asking.pool, runId, run.items.map((item) => indexOf.get(item.id)!));
      await workUntilNoneOpen(asking, runId, options);
    } finally {
      await asking.close();
    }
    return runItems(run);
  };
}

/** What executeRun knows of a run when it hands it to the queue (core/session.ts). */
export interface QueueRequest {
  queue: { url: string; work: boolean; leaseSeconds?: number };
  options: RunCommandOptions;
  /** The model's settings, config and flags merged (config.ts settingsFor). */
  settings: ModelSettingsConfig;
  responderKind: "model" | "baseline";
  hasCostLimit: boolean;
  maxImages?: number;
  imageBudget?: ImageBudgets;
  itemIds: readonly string[];
  concurrency: number;
}

/** A queued run as executeRun uses it: the server's store, and under --max-cost the budget's way to ask. */
export interface QueuedRun {
  store: PostgresStore;
  /** Under --max-cost: runItems for core/cost.ts runWithinBudget, asking through the queue. */
  ask?: AskItems;
}

/**
 * executeRun's `--queue` step: refuse what the queue does not carry, build the run's spec, and
 * either run it on the queue (every item answered before this returns) or, under --max-cost,
 * enqueue it held for the budget to release (budgetedQueueRun). The local scoring pass then reads
 * every reply from the server's store.
 */
export async function queuedRun(request: QueueRequest): Promise<QueuedRun> {
  const { options } = request;
  if (request.responderKind !== "model") throw new UsageError("--queue is for provider models (openai:, anthropic:, gemini:); built-ins answer locally in no time: run without --queue");
  // The limit is the coordinator's business, not the workers': a new limit attaches to the same run.
  const { max_cost: _limit, ...settings } = request.settings;
  const spec: RunSpec = normalizeSpec({
    version: 1,
    benchmark: options.benchmark,
    benchmarkOptions: { ...options.benchmarkOptions },
    data: options.data,
    ...(options.tasks && options.tasks.length > 0 ? { tasks: options.tasks } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.items ? { items: options.items } : {}),
    ...(options.sample ? { sample: options.sample } : {}),
    model: options.model,
    settings,
    promptSource: options.promptSource,
    control: options.control,
    ...(options.templateFile ? { templateFile: options.templateFile } : {}),
    seed: options.seed,
    ...(request.maxImages ? { maxImages: request.maxImages } : {}),
    ...(request.imageBudget ? { imageBudget: request.imageBudget } : {}),
    retryErrors: options.retryErrors,
    ...(options.repeat ? { repeat: options.repeat.index } : {}),
  });
  const queueOptions: QueuedRunOptions = {
    url: request.queue.url,
    work: request.queue.work,
    concurrency: request.concurrency,
    ...(request.queue.leaseSeconds ? { leaseSeconds: request.queue.leaseSeconds } : {}),
    ...(options.quiet ? { quiet: true } : {}),
    signal: options.signal ?? new AbortController().signal,
    ...(options.env ? { env: options.env } : {}),
  };
  if (request.hasCostLimit) {
    const ask = await budgetedQueueRun(spec, request.itemIds, queueOptions);
    return { store: await PostgresStore.open(request.queue.url), ask };
  }
  const { store } = await runOnQueue(spec, request.itemIds, queueOptions);
  return { store };
}
