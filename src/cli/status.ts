import type { Command } from "commander";
import { connectQueue } from "../queue/connect.js";
import { liveWorkers, runStatuses, type LiveWorker, type RunStatus } from "../queue/queue.js";
import { ensureSchema } from "../queue/schema.js";

/** The table `status` prints: one row per queued run, then the live workers. */
export function statusTable(runs: readonly RunStatus[], workers: readonly LiveWorker[]): string {
  // Held items (a --max-cost run waiting on its projection) get a column when there are any.
  const showHeld = runs.some((r) => r.held > 0);
  const header = ["run", "benchmark", "model", "total", "done", "in flight", "pending", ...(showHeld ? ["held"] : []), "errors", "workers", "rate/min"];
  // A navigation run's items are episodes (`navigate vcn --queue`), a generator run's jobs (`generate --queue`).
  const kindLabel = (r: RunStatus) => (r.kind === "navigation" ? `${r.benchmark} navigate` : r.kind === "generate" ? `${r.benchmark} generate` : r.benchmark);
  const rows = runs.map((r) => [r.runId, kindLabel(r), r.model, r.total, r.done, r.inFlight, r.pending, ...(showHeld ? [r.held] : []), r.errors, r.workers, r.lastMinute].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd();
  const lines = runs.length > 0 ? [line(header), ...rows.map(line)] : ["no runs in the queue"];
  lines.push(`live workers: ${workers.length}${workers.length > 0 ? ` (${workers.map((w) => `${w.host}:${w.pid} x${w.concurrency}`).join(", ")})` : ""}`);
  return lines.join("\n");
}

/** `spatialprobe status --queue URL`: the progress of every queued run, from any machine. */
export function registerStatus(program: Command): void {
  program
    .command("status")
    .description("progress of the runs on a queue (runs of questions, navigation runs whose items are episodes, generator runs whose items are jobs): per run its items done, in flight (claimed, lease live), pending, held (by --max-cost, when any), errors, the workers on it and items done in the last minute; then the live workers")
    .requiredOption("--queue <url>", "the queue server, postgres://user:password@host:5432/database")
    .option("--run <id>", "one run only")
    .option("--json", "print JSON instead of a table")
    .action(async (opts) => {
      const connection = await connectQueue(String(opts.queue), 1);
      try {
        await ensureSchema(connection.pool);
        const runs = await runStatuses(connection.pool, opts.run);
        const workers = await liveWorkers(connection.pool);
        if (opts.json) console.log(JSON.stringify({ runs, workers }, null, 2));
        else console.log(statusTable(runs, workers));
      } finally {
        await connection.close();
      }
    });
}
