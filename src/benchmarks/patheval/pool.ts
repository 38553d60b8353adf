import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { EnvironmentJob, EnvironmentPlans } from "./plan.js";

/**
 * Plan environments on all cores with worker threads. Results come back in job order whatever
 * the scheduling, and each job is deterministic, so the output does not depend on the pool size.
 */
export async function planAll(jobs: EnvironmentJob[], options: { workers?: number; onDone?: (done: number) => void } = {}): Promise<EnvironmentPlans[]> {
  const size = Math.max(1, Math.min(options.workers ?? os.availableParallelism(), jobs.length));
  const here = import.meta.url;
  const script = new URL(here.endsWith(".ts") ? "./plan-worker.ts" : "./plan-worker.js", here);
  const execArgv = here.endsWith(".ts") ? ["--import", "tsx"] : [];
  const results: EnvironmentPlans[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const runWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(fileURLToPath(script), { execArgv });
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
          reject(new Error(`planning ${jobs[current]!.family} ${jobs[current]!.parameter}/${jobs[current]!.index}: ${message.error}`));
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
