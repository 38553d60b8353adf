import type { Command } from "commander";
import { runWorker } from "../queue/worker.js";
import { parsePathMapping, type PathMapping } from "../queue/spec.js";
import { UsageError } from "../core/problems.js";
import { MAX_CONCURRENCY, MAX_WAIT_SECONDS } from "../core/limits.js";
import { wholeIn } from "./main.js";

function collectPathMap(text: string, previous: PathMapping[]): PathMapping[] {
  try {
    return [...previous, parsePathMapping(text)];
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `spatialprobe worker --queue URL`: answer the items of queued runs (queue/worker.ts, docs/queue.md). */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description("answer the items of runs enqueued with `run --queue`, run the episodes of `navigate vcn --queue` and make the jobs of `generate --queue` (any number of workers, on any machine with the data at the same path or mapped with --path-map; provider keys from this environment)")
    .requiredOption("--queue <url>", "the queue server, postgres://user:password@host:5432/database (scripts/queue-server.sh prints it)")
    .option("--concurrency <n>", "items answered (or episodes run, each in its own simulator) at once", wholeIn(1, MAX_CONCURRENCY), 8)
    .option("--lease <seconds>", "how long a claim lives without a heartbeat; a killed worker's items return to the queue after it", wholeIn(1, MAX_WAIT_SECONDS), 60)
    .option("--exit-when-idle", "exit once no queued item is left undone (default: keep waiting for new runs)")
    .option("--path-map <from=to...>", "this machine keeps what the coordinator saw under FROM at TO (data, templates, --train, furniture libraries, PathEval's environments= and scenarios=); absolute paths, the first mapping that applies wins", collectPathMap, [])
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
          pathMap: opts.pathMap,
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
