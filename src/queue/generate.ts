/**
 * `generate <benchmark> --queue` (docs/queue.md, "Generated sets"): a generator whose work splits
 * into independent jobs (queue/generators/) is planned here, its jobs are made by workers (or here
 * too), each job's files and record stored on the server with its completion in one transaction,
 * and the coordinator assembles the set as the jobs are done (job by job for a generator that can,
 * once all are done for the others): the same bytes as a local `generate` with the same command.
 */
import path from "node:path";
import type pg from "pg";
import { UsageError } from "../core/problems.js";
import { generateCommand } from "../benchmarks/generate-settings.js";
import { connectQueue } from "./connect.js";
import { enqueueAndStart } from "./coordinator.js";
import { itemFiles, itemRecord, itemRecords, storeItemResult, type ClaimedItem } from "./queue.js";
import type { GenerateSpec } from "./spec.js";
import type { GenerateRequest, GeneratorWorker, QueuedGenerator, StoredJobs, StoredRecord } from "./generators/types.js";

/** The generators whose work splits into independent jobs, each loaded when asked for. */
const GENERATORS: Record<string, () => Promise<QueuedGenerator>> = {
  egopath: async () => (await import("./generators/egopath.js")).egoPathGenerator,
  epic: async () => (await import("./generators/epic.js")).epicGenerator,
  egotl: async () => (await import("./generators/egotl.js")).egoTLGenerator,
  vcn: async () => (await import("./generators/vcn.js")).vcnGenerator,
  patheval: async () => (await import("./generators/patheval.js")).pathEvalGenerator,
};

export const QUEUED_GENERATORS = Object.keys(GENERATORS);

async function generatorFor(benchmark: string, refusal: string): Promise<QueuedGenerator> {
  const load = GENERATORS[benchmark];
  if (!load) throw new UsageError(refusal);
  return load();
}

/** A generator run as a worker holds it. */
export interface GenerateContext {
  kind: "generate";
  worker: GeneratorWorker;
  jobIds: readonly string[];
  close(): void;
}

/** Prepares a queued generator run on this machine. */
export async function rebuildGenerate(spec: GenerateSpec, itemIds: readonly string[]): Promise<GenerateContext> {
  if (spec.version !== 1) throw new UsageError(`queued generator spec version ${String(spec.version)} is not one this spatialprobe reads (1)`);
  const generator = await generatorFor(spec.benchmark, `this spatialprobe cannot run ${spec.benchmark} generator jobs from a queue (it can: ${QUEUED_GENERATORS.join(", ")})`);
  const worker = await generator.open(spec);
  return { kind: "generate", worker, jobIds: itemIds, close: () => worker.close() };
}

/** Makes one claimed job and stores its files and record with its completion. */
export async function runQueuedJob(pool: pg.Pool, context: GenerateContext, claim: ClaimedItem): Promise<void> {
  if (context.jobIds[claim.index] !== claim.itemId) throw new Error(`run ${claim.runId}: job ${claim.index} is ${context.jobIds[claim.index]} here, ${claim.itemId} in the queue`);
  const { record, files } = await context.worker.run(claim.index, claim.itemId);
  await storeItemResult(pool, claim.runId, { index: claim.index, itemId: claim.itemId, record, files }, false);
}

export interface QueuedGenerate {
  url: string;
  work: boolean;
  concurrency?: number;
  leaseSeconds?: number;
  signal?: AbortSignal;
}

/**
 * `generate <benchmark> --queue URL`: plan the jobs and enqueue them (or attach to the run: its id
 * is a hash of the spec and the job ids), make jobs here too unless told not to, and assemble and
 * write the set as a local generate does while the jobs are done. Returns its summary line.
 */
export async function generateOnQueue(benchmark: string, request: GenerateRequest, queue: QueuedGenerate): Promise<string> {
  const generator = await generatorFor(benchmark, `generate --queue supports ${QUEUED_GENERATORS.join(", ")}; the ${benchmark} generator does not split into independent jobs yet (docs/queue.md): run it without --queue`);
  const base: GenerateSpec = {
    version: 1,
    kind: "generate",
    benchmark,
    model: "-",
    seed: request.seed,
    count: request.count,
    extra: request.extra,
    ...(request.assetsDir ? { assetsDir: path.resolve(request.assetsDir) } : {}),
    command: generateCommand(benchmark, { outDir: request.outDir, seed: request.seed, count: request.count, extra: request.extra }),
  };
  // Bad options are refused before anything is enqueued.
  const { jobIds, plan } = await generator.plan(request, base);
  const spec: GenerateSpec = plan === undefined ? base : { ...base, plan };
  // The local worker stops when the assembly fails or the caller's signal fires.
  const stop = new AbortController();
  const callerSignal = queue.signal;
  const forward = () => stop.abort();
  if (callerSignal?.aborted) stop.abort();
  else callerSignal?.addEventListener("abort", forward, { once: true });
  try {
    const { runId, finished } = await enqueueAndStart(spec, jobIds, {
      url: queue.url,
      work: queue.work,
      concurrency: queue.concurrency ?? 1,
      ...(queue.leaseSeconds ? { leaseSeconds: queue.leaseSeconds } : {}),
      signal: stop.signal,
      write: request.log,
      unit: generator.unit,
    });
    // Settled below; a rejection that comes while the assembly waits is not an unhandled one.
    finished.catch(() => {});
    let connection: Awaited<ReturnType<typeof connectQueue>> | undefined;
    try {
      connection = await connectQueue(queue.url, 1);
      const line = await generator.assemble(request, spec, storedJobs(connection.pool, runId, jobIds, finished));
      await finished;
      return line;
    } catch (error) {
      stop.abort();
      await finished.catch(() => {});
      throw error;
    } finally {
      await connection?.close();
    }
  } finally {
    callerSignal?.removeEventListener("abort", forward);
  }
}

/** How often the assembly looks for the next job's record while it is being made, in ms. */
const RECORD_POLL_MS = 1000;

/**
 * The run's stored outputs for the assembly: `inOrder` yields job k once it is done (looking
 * every RECORD_POLL_MS), so the assembly of the first jobs overlaps the making of the later ones;
 * when `finished` rejects (the run stopped) the wait ends with its error.
 */
function storedJobs(pool: pg.Pool, runId: string, jobIds: readonly string[], finished: Promise<void>): StoredJobs {
  let allDone = false;
  const settled = finished.then(() => {
    allDone = true;
  });
  settled.catch(() => {});
  async function recordOf(index: number): Promise<StoredRecord> {
    for (;;) {
      // Read after seeing the run finished: a job done before that is in the table.
      const done = allDone;
      const found = await itemRecord(pool, runId, index);
      if (found) return { index, jobId: found.itemId, record: found.record };
      if (done) throw new Error(`run ${runId}: job ${index} (${jobIds[index]}) has no stored output, though the run is finished`);
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, RECORD_POLL_MS))]);
    }
  }
  async function* inOrder(): AsyncGenerator<StoredRecord> {
    for (let index = 0; index < jobIds.length; index++) yield await recordOf(index);
  }
  return {
    inOrder,
    async all() {
      await finished;
      const stored = await itemRecords(pool, runId);
      return stored.map((r) => ({ index: r.index, jobId: r.itemId, record: r.record }));
    },
    files: (index) => itemFiles(pool, runId, index),
  };
}
