import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { EnvironmentOutput, EnvironmentTask } from "./environment-job.js";

const jobName = (job: EnvironmentTask) => job.environment?.fileName ?? `${job.family} ${job.parameter}/${job.index}`;

/** A thread's reply: pictures come back as Uint8Arrays (structured clone), made Buffers again here. */
type Reply = { ok: true; result: { plans: EnvironmentOutput["plans"]; pictures: Map<string, Uint8Array> } } | { ok: false; error: string };

export interface EnvironmentPool {
  /** Make one environment on a free thread (a new one while fewer than the pool's size run). */
  run(task: EnvironmentTask): Promise<EnvironmentOutput>;
  close(): Promise<void>;
}

function spawn(): Worker {
  const here = import.meta.url;
  const fromSource = here.endsWith(".ts");
  const script = new URL(fromSource ? "./plan-worker.ts" : "./plan-worker.js", here);
  // Run from TypeScript sources (tests, bench under tsx): the worker registers tsx before loading the script.
  return fromSource
    ? new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });`, { eval: true })
    : new Worker(fileURLToPath(script));
}

/**
 * Worker threads that make environments (environment-job.ts), so the planning and the pictures use
 * the cores and leave the caller's event loop free (a queue worker's lease heartbeat keeps beating).
 */
export function environmentPool(size = os.availableParallelism()): EnvironmentPool {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const waiting: Array<() => void> = [];
  let closed = false;
  const acquire = async (): Promise<Worker> => {
    for (;;) {
      if (closed) throw new Error("the planning pool is closed");
      const free = idle.pop();
      if (free) return free;
      if (all.size < size) {
        const worker = spawn();
        all.add(worker);
        return worker;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const release = (worker: Worker, broken: boolean) => {
    if (broken) {
      all.delete(worker);
      void worker.terminate();
    } else idle.push(worker);
    waiting.shift()?.();
  };
  return {
    async run(task) {
      const worker = await acquire();
      return new Promise<EnvironmentOutput>((resolve, reject) => {
        const done = (broken: boolean) => {
          worker.off("message", onMessage);
          worker.off("error", onError);
          release(worker, broken);
        };
        const onMessage = (message: Reply) => {
          done(false);
          if (!message.ok) return reject(new Error(`planning ${jobName(task)}: ${message.error}`));
          const pictures = new Map([...message.result.pictures].map(([name, data]) => [name, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
          resolve({ plans: message.result.plans, pictures });
        };
        const onError = (error: Error) => {
          done(true);
          reject(new Error(`planning ${jobName(task)}: ${error.message}`));
        };
        worker.on("message", onMessage);
        worker.on("error", onError);
        worker.postMessage(task);
      });
    },
    async close() {
      closed = true;
      for (const wake of waiting.splice(0)) wake();
      await Promise.all([...all].map((worker) => worker.terminate()));
      all.clear();
      idle.length = 0;
    },
  };
}

/**
 * Make every environment on a pool of threads. Results come back in task order whatever the
 * scheduling, and each task is deterministic, so the output does not depend on the pool size.
 */
export async function makeEnvironments(tasks: EnvironmentTask[], options: { workers?: number; onDone?: (done: number) => void } = {}): Promise<EnvironmentOutput[]> {
  const pool = environmentPool(Math.max(1, Math.min(options.workers ?? os.availableParallelism(), tasks.length)));
  let done = 0;
  try {
    return await Promise.all(tasks.map(async (task) => {
      const output = await pool.run(task);
      options.onDone?.(++done);
      return output;
    }));
  } finally {
    await pool.close();
  }
}
