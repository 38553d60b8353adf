import type { Command } from "commander";
import { runWorker } from "../queue/worker.js";
import { positiveInteger } from "./main.js";

/** `spatialprobe worker --queue URL`: answer the items of queued runs (queue/worker.ts, docs/queue.md). */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description("answer the items of runs enqueued with `run --queue` and run the episodes of `navigate vcn --queue` (any number of workers, on any machine with the data at the same path; provider keys from this environment)")
    .requiredOption("--queue <url>", "the queue server, postgres://user:password@host:5432/database (scripts/queue-server.sh prints it)")
    .option("--concurrency <n>", "items answered (or episodes run, each in its own simulator) at once", positiveInteger, 8)
    .option("--lease <seconds>", "how long a claim lives without a heartbeat; a killed worker's items return to the queue after it", positiveInteger, 60)
    .option("--exit-when-idle", "exit once no queued item is left undone (default: keep waiting for new runs)")
    .option("--quiet", "no log lines")
    .action(async (opts) => {
      const controller = new AbortController();
      const onSignal = () => controller.abort(new Error("interrupted"));
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      const log = opts.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`);
      try {
        const summary = await runWorker({
          url: String(opts.queue),
          concurrency: opts.concurrency,
          leaseSeconds: opts.lease,
          exitWhenIdle: Boolean(opts.exitWhenIdle),
          signal: controller.signal,
          ...(log ? { log } : {}),
        });
        log?.(`worker ${summary.workerId}: ${summary.done} items answered (${summary.errors} errors)${controller.signal.aborted ? "; stopped, its unfinished claims are back in the queue" : ""}`);
        if (controller.signal.aborted) process.exitCode = 130;
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
