import { parentPort } from "node:worker_threads";
import { planEnvironment, type EnvironmentJob } from "./plan.js";

/** Worker side of the planning pool: one environment per message. */
parentPort?.on("message", (job: EnvironmentJob) => {
  try {
    parentPort!.postMessage({ ok: true, result: planEnvironment(job) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, error: (error as Error).message });
  }
});
