import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import type { ScoresDocument } from "../core/benchmark.js";
import { MAX_CONCURRENCY } from "../core/limits.js";
import { writeFileAtomic } from "../core/outputs.js";
import { DataError, UsageError } from "../core/problems.js";
import { executeRun } from "../core/session.js";
import { BENCHMARKS, getBenchmark } from "../registry.js";
import { mdText } from "../report/markdown.js";
import { leaderboard, leaderboardMarkdown } from "../report/export/leaderboard.js";
import { markdownReport } from "../report/render.js";
import { incompleteReason, noteRunFolder } from "../report/run-facts.js";
import { blindReferences, findAudits } from "../report/blind-rows.js";
import { list, positiveCount, wholeIn } from "./main.js";
import { addModelFlags, modelSettingsFlags } from "./model-flags.js";
import { BUNDLED_DATA } from "./demo.js";
import { EXIT_INCOMPLETE, folderPart } from "./shared.js";


/** --data's "benchmark=DIR" pairs. */
function dataPairs(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0 || at === value.length - 1) throw new UsageError(`--data ${value}: write benchmark=DIR (e.g. patheval=pe-set)`);
    const id = value.slice(0, at);
    if (!(id in BENCHMARKS)) throw new UsageError(`--data ${value}: no benchmark "${id}" (${Object.keys(BENCHMARKS).join(", ")})`);
    out[id] = value.slice(at + 1);
  }
  return out;
}

/** One cell of the suite: a model on a benchmark, its run folder and how it ended. */
interface Cell {
  benchmark: string;
  model: string;
  out: string;
  scores?: ScoresDocument;
  /** A usage or data error that kept the run from starting (an unknown built-in for that benchmark, say). */
  failed?: string;
}

export function registerSuite(program: Command): void {
  const command = program
    .command("suite")
    .description("run every model on every benchmark listed: one folder of runs (<out>/<benchmark>/<model>), one response store shared by all (re-running resumes), one report.md with the models x benchmarks leaderboard")
    .requiredOption("--models <list>", "comma-separated model specs (openai:<model>, anthropic:<model>, gemini:<model>, built-ins)", list)
    .requiredOption("--benchmarks <list>", `comma-separated benchmarks (${Object.keys(BENCHMARKS).join(", ")})`, list)
    .option("--data <pairs...>", "benchmark=DIR for each benchmark (default: the bundled examples/<benchmark>-mini; patheval needs one)")
    .option("--out <dir>", "the suite's folder", "runs/suite")
    .option("--limit <n>", "only the first N questions of each task", positiveCount)
    .option("--concurrency <n>", "requests in flight per run (default 8)", wholeIn(1, MAX_CONCURRENCY))
    .option("--allow-incomplete", "exit 0 even when a run ended incomplete (default: exit 3)")
    .option("--quiet", "no progress on stderr");
  addModelFlags(command);
  command.action(async (opts) => {
    const models = opts.models as string[];
    const benchmarks = opts.benchmarks as string[];
    if (models.length === 0 || benchmarks.length === 0) throw new InvalidArgumentError("--models and --benchmarks each need at least one entry");
    for (const id of benchmarks) getBenchmark(id); // an unknown benchmark is a usage error before anything runs
    const data: Record<string, string> = { ...BUNDLED_DATA, ...dataPairs((opts.data as string[] | undefined) ?? []) };
    const missing = benchmarks.filter((id) => !data[id]);
    if (missing.length > 0) throw new UsageError(`--data: name the data of ${missing.join(", ")} (${missing.map((id) => `${id}=DIR`).join(" ")}); only ${Object.keys(BUNDLED_DATA).join(", ")} have bundled examples`);
    const out = path.resolve(opts.out as string);
    const cells: Cell[] = [];
    for (const benchmarkId of benchmarks) {
      const benchmark = getBenchmark(benchmarkId);
      for (const model of models) {
        const cell: Cell = { benchmark: benchmarkId, model, out: path.join(out, benchmarkId, folderPart(model)) };
        cells.push(cell);
        try {
          const { scores } = await executeRun({
            benchmark: benchmarkId, data: data[benchmarkId]!, model, out: cell.out,
            ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
            bootstrapResamples: 2000, bootstrapSeed: 20260717, seed: 20260717,
            promptSource: benchmark.promptSources[0]!, control: benchmark.promptControls[0]!,
            ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
            ...(opts.config ? { configFile: opts.config } : {}),
            flags: modelSettingsFlags(opts), retryErrors: false,
            storeFile: path.join(out, "responses.sqlite"), quiet: Boolean(opts.quiet),
          });
          cell.scores = scores;
          noteRunFolder(scores, cell.out);
          console.log(`\n== ${benchmarkId} × ${model}\n${benchmark.terminal(scores)}`);
        } catch (error) {
          if (!(error instanceof UsageError || error instanceof DataError)) throw error;
          cell.failed = error.message;
          console.error(`${benchmarkId} × ${model}: not run: ${error.message}`);
        }
      }
    }
    const runs = cells.flatMap((c) => (c.scores ? [c.scores] : []));
    const references = runs.length > 0 ? await blindReferences(runs, findAudits([out])) : [];
    const failures = cells.filter((c) => c.failed);
    const incomplete = cells.flatMap((c) => {
      const reason = c.scores ? incompleteReason(c.scores, Boolean(opts.allowIncomplete)) : undefined;
      return reason ? [`${path.relative(out, c.out)}: ${reason}`] : [];
    });
    const notes = [...failures.map((c) => `- ${c.benchmark} × ${mdText(c.model)}: not run: ${mdText(c.failed!)}`), ...incomplete.map((line) => `- ${mdText(line)}`)];
    const report = path.join(out, "report.md");
    writeFileAtomic(report, [
      `# spatialprobe suite: ${models.length} model${models.length === 1 ? "" : "s"} × ${benchmarks.length} benchmark${benchmarks.length === 1 ? "" : "s"}`,
      "",
      `Models: ${models.map(mdText).join(", ")}. Data: ${benchmarks.map((id) => `${id} ${mdText(data[id]!)}`).join("; ")}.${opts.limit !== undefined ? ` First ${opts.limit} questions of each task.` : ""}`,
      ...(notes.length > 0 ? ["", ...notes] : []),
      "",
      runs.length > 0 ? leaderboardMarkdown(leaderboard(runs, references)) : "No run finished.",
      "",
      runs.length > 0 ? markdownReport(runs, references) : "",
    ].join("\n"));
    console.log(`\n${cells.length - failures.length} of ${cells.length} runs made; wrote ${report} and one folder per run under ${out}`);
    if (failures.length > 0) process.exitCode = 2;
    else if (incomplete.length > 0 && !opts.allowIncomplete) process.exitCode = EXIT_INCOMPLETE;
  });
}
