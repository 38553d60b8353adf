import type { ModelSettingsConfig } from "../core/config.js";
import { UsageError } from "../core/problems.js";
import { RunInterrupted } from "../core/run.js";
import type { RunCommandOptions } from "../core/session.js";
import type { ImageBudgets } from "../models/shape.js";
import { PostgresStore } from "../store/postgres.js";
import { connectQueue } from "./connect.js";
import { enqueueRun, liveWorkers, runStatuses, type RunStatus } from "./queue.js";
import { ensureSchema } from "./schema.js";
import { isGenerateSpec, isNavigationSpec, normalizeSpec, runIdOf, type QueuedSpec, type RunSpec } from "./spec.js";
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
  return `[queue ${runId} ${status.benchmark}${status.kind === "navigation" ? " navigate" : status.kind === "generate" ? " generate" : ""} ${status.model}] ${status.done}/${status.total} done · ${status.inFlight} in flight · ${status.pending} pending · ${status.errors} errors · ${workers} live workers`;
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

/**
 * Enqueue a run of any kind (or attach to it), work on it here unless `options.work` is false, and
 * print progress until every item is done; returns the run id.
 */
export async function enqueueAndWait(spec: QueuedSpec, itemIds: readonly string[], options: QueuedRunOptions): Promise<string> {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const say = (line: string) => {
    if (!options.quiet) write(line);
  };
  const runId = runIdOf(spec, itemIds);
  const connection = await connectQueue(options.url, 2);
  try {
    await ensureSchema(connection.pool);
    const created = await enqueueRun(connection.pool, runId, spec, itemIds);
    say(`${created ? "enqueued" : "attached to"} run ${runId} (${itemIds.length} ${options.unit ?? (isNavigationSpec(spec) ? "episodes" : isGenerateSpec(spec) ? "houses" : "items")}) on ${connection.url.replace(/:[^:@/]*@/, ":***@")}; more workers: spatialprobe worker --queue <url>`);
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
    let status: RunStatus | undefined;
    for (;;) {
      [status] = await runStatuses(connection.pool, runId);
      const line = progressLine(runId, status!, (await liveWorkers(connection.pool)).length);
      if (line !== last) say(line);
      last = line;
      if (status!.done === status!.total) break;
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
    return runId;
  } finally {
    await connection.close();
  }
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

/**
 * executeRun's `--queue` step: refuse what the queue does not carry yet, build the run's spec, run
 * it on the queue, and return the server's store for the local scoring pass.
 */
export async function queuedRunStore(request: QueueRequest): Promise<PostgresStore> {
  const { options } = request;
  if (request.responderKind !== "model") throw new UsageError("--queue is for provider models (openai:, anthropic:, gemini:); built-ins answer locally in no time: run without --queue");
  if (request.hasCostLimit) throw new UsageError("--max-cost (or max_cost in the config) is not supported with --queue yet: run without one of them");
  const spec: RunSpec = {
    version: 1,
    benchmark: options.benchmark,
    benchmarkOptions: { ...options.benchmarkOptions },
    data: options.data,
    ...(options.tasks && options.tasks.length > 0 ? { tasks: options.tasks } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    model: options.model,
    settings: request.settings,
    promptSource: options.promptSource,
    control: options.control,
    ...(options.templateFile ? { templateFile: options.templateFile } : {}),
    seed: options.seed,
    ...(request.maxImages ? { maxImages: request.maxImages } : {}),
    ...(request.imageBudget ? { imageBudget: request.imageBudget } : {}),
    retryErrors: options.retryErrors,
    ...(options.repeat ? { repeat: options.repeat.index } : {}),
  };
  const { store } = await runOnQueue(spec, request.itemIds, {
    url: request.queue.url,
    work: request.queue.work,
    concurrency: request.concurrency,
    ...(request.queue.leaseSeconds ? { leaseSeconds: request.queue.leaseSeconds } : {}),
    ...(options.quiet ? { quiet: true } : {}),
    signal: options.signal ?? new AbortController().signal,
    ...(options.env ? { env: options.env } : {}),
  });
  return store;
}
