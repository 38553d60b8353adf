import { parentPort } from "node:worker_threads";
import { runEnvironmentTask, type EnvironmentTask } from "./environment-job.js";

/** Worker side of the planning pool: one environment (plans, labelled pairs' pictures) per message. */
parentPort?.on("message", (task: EnvironmentTask) => {
  runEnvironmentTask(task).then(
    (result) => parentPort!.postMessage({ ok: true, result }),
    (error: unknown) => parentPort!.postMessage({ ok: false, error: (error as Error).message }),
  );
});
