import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { EnvironmentJob, EnvironmentPlans } from "./plan.js";

const jobName = (job: EnvironmentJob) => job.environment?.fileName ?? `${job.family} ${job.parameter}/${job.index}`;

/**
 * Plan environments on all cores with worker threads. Results come back in job order whatever
 * the scheduling, and each job is deterministic, so the output does not depend on the pool size.
 */
export async function planAll(jobs: EnvironmentJob[], options: { workers?: number; onDone?: (done: number) => void } = {}): Promise<EnvironmentPlans[]> {
  const size = Math.max(1, Math.min(options.workers ?? os.availableParallelism(), jobs.length));
  const here = import.meta.url;
  const fromSource = here.endsWith(".ts");
  const script = new URL(fromSource ? "./plan-worker.ts" : "./plan-worker.js", here);
  // Run from TypeScript sources (tests, bench under tsx): the worker registers tsx before loading the script.
  const spawn = () =>
    fromSource
      ? new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });`, { eval: true })
      : new Worker(fileURLToPath(script));
  const results: EnvironmentPlans[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const runWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = spawn();
      let current = -1;
      const feed = () => {
        if (next >= jobs.length) {
          void worker.terminate().then(() => resolve());
          return;
        }
        current = next++;
        worker.postMessage(jobs[current]);
      };
      worker.on("message", (message: { ok: boolean; result?: EnvironmentPlans; error?: string }) => {
        if (!message.ok) {
          void worker.terminate();
          reject(new Error(`planning ${jobName(jobs[current]!)}: ${message.error}`));
          return;
        }
        results[current] = message.result!;
        options.onDone?.(++done);
        feed();
      });
      worker.on("error", reject);
      feed();
    });
  await Promise.all(Array.from({ length: size }, runWorker));
  return results;
}
