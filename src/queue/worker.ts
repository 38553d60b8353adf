import { randomBytes } from "node:crypto";
import os from "node:os";
import { setMaxListeners } from "node:events";
import { DataError, formatProblem, UsageError } from "../core/problems.js";
import { runItems } from "../core/run.js";
import { PostgresStore } from "../store/postgres.js";
import { connectQueue, errorReason, isTransientQueueError } from "./connect.js";
import { claimItems, completeItem, heldItems, openItems, registerWorker, releaseClaimsExcept, releaseItems, renewLeases, runSpec, unregisterWorker, type ClaimedItem } from "./queue.js";
import { rebuildGenerate, runQueuedJob, type GenerateContext } from "./generate.js";
import { rebuildNavigation, runQueuedEpisode, type NavigationContext } from "./navigation.js";
import { rebuildRun, type RunContext } from "./rebuild.js";
import { ensureSchema } from "./schema.js";
import { isGenerateSpec, isNavigationSpec, mapSpecPaths, type PathMapping } from "./spec.js";

/** A queued run as a worker holds it: a run of questions, a navigation run (episodes) or a generator run (houses). */
type WorkContext = ({ kind: "items" } & RunContext) | NavigationContext | GenerateContext;

export interface WorkerOptions {
  url: string;
  /** Items answered at once (default 8). */
  concurrency: number;
  /** Seconds a claim lives without a heartbeat (default 60); heartbeats come every third of it. */
  leaseSeconds: number;
  /** Stop when no item of any run (or of onlyRun) is left undone, rather than wait for more work. */
  exitWhenIdle: boolean;
  /** Work on this run only (the coordinator of `run --queue` working itself). */
  onlyRun?: string;
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Where log lines go (one per event worth knowing); nothing when undefined. */
  log?: (line: string) => void;
  /** How often to look for work when there is none, in ms (default 500). */
  pollMs?: number;
  /** `--path-map`: where this machine keeps the files the specs name (spec.ts mapSpecPaths). */
  pathMap?: readonly PathMapping[];
}

export interface WorkerSummary {
  workerId: string;
  done: number;
  errors: number;
  refusedRuns: string[];
}

/**
 * --exit-when-idle with held items in the queue: how long nothing claimable must last before the
 * worker leaves. Above the coordinator's 1 s status poll plus its projection, so a budget's next
 * release finds the workers still there; after a --max-cost stop the workers leave this much later.
 */
const HELD_IDLE_MS = 4000;

/** First pause after a transient queue server failure; later ones double. */
export const TRANSIENT_PAUSE_MS = 1_000;
/** Transient failures in a row (about 4 minutes of pauses) after which the worker stops with the last one. */
export const TRANSIENT_FAILURES_IN_A_ROW = 10;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * `spatialprobe worker` (docs/queue.md): claim items of any queued run, rebuild each run from its
 * spec once (cached by run id), answer through askModel with the server's response store, and mark
 * an item done only after its reply is stored. Leases are renewed every third of their length while
 * the worker lives; a stopped worker (signal) gives its claims back, a killed one's claims return
 * when their lease runs out.
 */
export async function runWorker(options: WorkerOptions): Promise<WorkerSummary> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new UsageError("--concurrency must be a positive integer");
  if (!(options.leaseSeconds >= 1)) throw new UsageError("--lease must be at least 1 second");
  const connection = await connectQueue(options.url, Math.min(options.concurrency + 2, 20));
  const { pool } = connection;
  const workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const store = new PostgresStore(pool);
  const contexts = new Map<string, Promise<WorkContext>>();
  const refused = new Set<string>();
  const summary: WorkerSummary = { workerId, done: 0, errors: 0, refusedRuns: [] };
  const log = options.log ?? (() => {});
  const pollMs = options.pollMs ?? 500;
  // Each in-flight request listens to the signal.
  setMaxListeners(0, options.signal);
  let heartbeat: NodeJS.Timeout | undefined;
  let failure: unknown;
  try {
    await ensureSchema(pool);
    await registerWorker(pool, workerId, options.concurrency, options.leaseSeconds);
    heartbeat = setInterval(() => {
      renewLeases(pool, workerId, options.leaseSeconds).catch((error) => log(`worker ${workerId}: heartbeat failed: ${(error as Error).message}`));
    }, (options.leaseSeconds * 1000) / 3);
    let idle = false;
    const contextFor = (runId: string): Promise<WorkContext> => {
      let context = contexts.get(runId);
      if (!context) {
        context = (async (): Promise<WorkContext> => {
          const stored = await runSpec(pool, runId);
          if (!stored) throw new UsageError(`run ${runId} is not in the queue`);
          const found = { ...stored, spec: mapSpecPaths(stored.spec, options.pathMap ?? []) };
          const env = options.env ?? process.env;
          // A navigation run: one simulator per slot, so every slot can run an episode at once.
          if (isNavigationSpec(found.spec)) return rebuildNavigation(found.spec, found.itemIds, options.concurrency, store, env);
          if (isGenerateSpec(found.spec)) return rebuildGenerate(found.spec, found.itemIds);
          return { kind: "items", ...rebuildRun(found.spec, found.itemIds, env) };
        })();
        contexts.set(runId, context);
      }
      return context;
    };
    /** The generator job this worker is making, if any (one at a time; see answer). */
    let makingJob: Promise<void> | undefined;
    // The slots claim in turns, and a turn lasts until its claim's run is known (answer ends it):
    // no slot claims beside a generator job another slot has just taken.
    let lastTurn: Promise<void> = Promise.resolve();
    const takeTurn = async (): Promise<() => void> => {
      const previous = lastTurn;
      let end!: () => void;
      lastTurn = new Promise<void>((resolve) => (end = resolve));
      await previous;
      return end;
    };
    const answer = async (claim: ClaimedItem, endTurn: () => void): Promise<void> => {
      let context: WorkContext;
      try {
        context = await contextFor(claim.runId);
      } catch (error) {
        // Data missing or different here, a key missing from this environment: this worker leaves the run to others.
        if (!(error instanceof UsageError) && !(error instanceof DataError)) throw error;
        if (!refused.has(claim.runId)) {
          refused.add(claim.runId);
          summary.refusedRuns.push(claim.runId);
          const why = error instanceof DataError ? `${error.problems.length} problem(s) in its data here, the first: ${formatProblem(error.problems[0]!)}` : error.message;
          log(`worker ${workerId}: cannot work on run ${claim.runId}: ${why.split("\n")[0]}`);
        }
        await releaseItems(pool, workerId, [claim]);
        return;
      }
      if (context.kind === "generate") {
        // A generator job holds the CPU: two at once in one process take twice as long each, hold
        // twice the memory and starve the heartbeat. The slots claim nothing while it is made (the
        // claim turn ends once makingJob is set).
        makingJob = (async () => {
          // Rendering holds the CPU between heartbeats: renew before the job starts.
          await renewLeases(pool, workerId, options.leaseSeconds);
          await runQueuedJob(pool, context, claim);
          summary.done++;
        })();
        endTurn();
        try {
          await makingJob;
        } finally {
          makingJob = undefined;
        }
        return;
      }
      endTurn();
      if (context.kind === "navigation") {
        // Building the run (house catalogue, tasks) can hold the CPU for a while: renew before the episode starts.
        await renewLeases(pool, workerId, options.leaseSeconds);
        // The episode's record and views are stored with its completion (queue.ts storeItemResult).
        const error = await runQueuedEpisode(pool, context, claim, options.signal);
        summary.done++;
        if (error) summary.errors++;
        return;
      }
      const item = context.items[claim.index];
      if (!item || item.id !== claim.itemId) throw new Error(`run ${claim.runId}: item ${claim.index} is ${item?.id} here, ${claim.itemId} in the queue`);
      const results = await runItems({
        benchmark: context.benchmark,
        items: [item],
        responder: { kind: "model", model: context.model },
        build: context.build,
        settings: context.settings,
        ...(context.jsonOverride !== undefined ? { jsonOverride: context.jsonOverride } : {}),
        ...(context.imageBudget ? { imageBudget: context.imageBudget } : {}),
        store,
        concurrency: options.concurrency,
        retryErrors: context.retryErrors,
        signal: options.signal,
        ...(context.repeat !== undefined ? { repeat: context.repeat } : {}),
      });
      // The reply is stored (askModel awaits the put) before the item is marked done.
      const error = results[0]?.status === "error";
      await completeItem(pool, claim.runId, claim.index, error);
      summary.done++;
      if (error) summary.errors++;
    };
    // A --max-cost coordinator releases a run's held items a moment after its first ones are done
    // (queue/coordinator.ts budgetedQueueRun): with held items about, idle means idle for a while.
    let idleSince: number | undefined;
    const idleLongEnough = async (filter: { onlyRun?: string; excluded?: readonly string[] }): Promise<boolean> => {
      if ((await heldItems(pool, filter)) === 0) return true;
      idleSince ??= Date.now();
      return Date.now() - idleSince >= HELD_IDLE_MS;
    };
    // A transient server failure (deadlock, lost connection) costs a pause, not the worker: what
    // it interrupted is redone (a claim not made is made again; an item it interrupted is handed
    // back to the queue, its stored replies reused by whoever takes it). Pauses double up to 30 s.
    let pauseMs = 0;
    let failuresInARow = 0;
    const outlive = async (error: unknown, doing: string): Promise<void> => {
      if (!isTransientQueueError(error) || options.signal.aborted || ++failuresInARow > TRANSIENT_FAILURES_IN_A_ROW) throw error;
      pauseMs = Math.min(30_000, Math.max(TRANSIENT_PAUSE_MS, pauseMs * 2));
      log(`worker ${workerId}: ${doing}: ${errorReason(error)}; trying again in ${pauseMs / 1000} s`);
      await sleep(pauseMs, options.signal);
    };
    /** `op` until it succeeds, each transient failure costing a pause (outlive). */
    const retried = async <T>(doing: string, op: () => Promise<T>): Promise<T> => {
      for (;;) {
        try {
          return await op();
        } catch (error) {
          await outlive(error, doing);
        }
      }
    };
    // The heartbeat would keep renewing an interrupted claim: it goes back to the queue at once.
    const handBack = (claim: ClaimedItem) => retried(`handing back item ${claim.itemId} of run ${claim.runId}`, () => releaseItems(pool, workerId, [claim]));
    // A claim whose answer a cut lost is still this worker's on the server: it goes back too.
    const held = new Set<ClaimedItem>();
    const handBackStray = async (): Promise<void> => {
      const n = await retried("handing back claims", () => releaseClaimsExcept(pool, workerId, [...held]));
      if (n > 0) log(`worker ${workerId}: handed back ${n} claim(s) whose answer the lost connection took`);
    };
    const slot = async () => {
      while (!options.signal.aborted && !idle && failure === undefined) {
        const filter = { ...(options.onlyRun ? { onlyRun: options.onlyRun } : {}), excluded: [...refused] };
        let claim: ClaimedItem | undefined;
        if (makingJob) {
          await makingJob.catch(() => {});
          continue;
        }
        const endTurn = await takeTurn();
        if (makingJob) {
          endTurn();
          continue;
        }
        try {
          [claim] = await claimItems(pool, workerId, options.leaseSeconds, 1, filter);
          if (claim) held.add(claim);
          if (!claim) {
            endTurn();
            if (options.exitWhenIdle && (await openItems(pool, filter)) === 0 && (await idleLongEnough(filter))) idle = true;
            else await sleep(pollMs, options.signal);
            continue;
          }
          idleSince = undefined;
          await answer(claim, endTurn);
          pauseMs = 0;
          failuresInARow = 0;
        } catch (error) {
          await outlive(error, claim ? `item ${claim.itemId} of run ${claim.runId}` : "claiming work");
          if (claim) await handBack(claim);
          else await handBackStray();
        } finally {
          endTurn();
          if (claim) held.delete(claim);
        }
      }
    };
    await Promise.all(
      Array.from({ length: options.concurrency }, () =>
        slot().catch((error) => {
          failure ??= error;
        }),
      ),
    );
    if (failure !== undefined && !options.signal.aborted) throw failure;
    return summary;
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    // Navigation runs hold simulators and house caches, generator runs furniture models.
    for (const context of contexts.values()) {
      await context.then((c) => (c.kind === "navigation" ? c.prepared.close() : c.kind === "generate" ? c.close() : undefined)).catch(() => {});
    }
    // Claims not finished (a stop, an error) go back to the queue now rather than at lease expiry.
    await releaseItems(pool, workerId).catch(() => {});
    await unregisterWorker(pool, workerId).catch(() => {});
    await connection.close().catch(() => {});
  }
}
