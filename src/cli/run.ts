import type { Command } from "commander";
import { executeRun } from "../core/session.js";
import { executeRepeatedRun } from "../core/repeats.js";
import { CostLimitReached } from "../core/cost.js";
import { BENCHMARKS, getBenchmark } from "../registry.js";
import { MAX_CONCURRENCY, MAX_REPEATS } from "../core/limits.js";
import { seed, wholeIn } from "./main.js";
import { readConfigFile } from "../core/config.js";
import { addModelFlags, modelSettingsFlags, positiveSeconds, positiveUsd } from "./model-flags.js";
import { usageLine } from "../report/run-facts.js";
import { addScoringFlags, benchmarkOptions, checkFlagReaders, defaultOut, reportCompleteness, selectionOptions } from "./shared.js";

export function registerRun(program: Command): void {
  const command = program
    .command("run <benchmark>")
    .description("run a model on a benchmark and score it (replies are stored: re-running resumes)")
    .requiredOption("--model <spec>", "openai:<model> | anthropic:<model> | gemini:<model> | replay:<file> | a built-in (oracle, random[:seed], ...)");
  addScoringFlags(command)
    .option("--concurrency <n>", "requests in flight (default 8)", wholeIn(1, MAX_CONCURRENCY))
    .option("--prompt <variant>", promptHelp())
    .option("--template <file>", "template file for --prompt templates (default: templates/<benchmark>.yaml)")
    .option("--control <name>", "egopath input-dependence control: none (default) | text-only | mismatched-overlay")
    .option("--seed <n>", "seed for controls that draw at random", seed, 20260717);
  addModelFlags(command);
  command
    .option("--max-cost <usd>", "stop before a run whose projected cost exceeds this many US dollars (exit status 4; needs price: for the model in the config)", positiveUsd)
    .option("--batch", "send the requests through the provider's batch API (openai:, anthropic:, gemini:; half the price, results within 24 h): submitted, polled, kept in the store, resumed by the same command after a stop")
    .option("--batch-poll <seconds>", "seconds between polls of open batches under --batch (default 30)", positiveSeconds)
    .option("--retry-errors", "ask again for items whose stored reply is an error")
    .option("--store <file>", "response store (default: <out>/responses.sqlite)")
    .option("--queue <url>", "enqueue the run on a PostgreSQL queue (postgres://...; scripts/queue-server.sh) for `spatialprobe worker` processes on any machine, wait until every item is answered, then score as usual (replies are stored on the server); the same command attaches to the same run")
    .option("--no-work", "with --queue: leave the answering to the workers instead of working here too")
    .option("--repeats <k>", "ask every question K times (repeat k in <out>/repeat-<k>/, its own store keys; built-ins move their seed on by k-1); <out>/repeats.json and report.md give each repeat's scores, their mean and SD", wholeIn(1, MAX_REPEATS))
    .action(async (benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      checkFlagReaders(benchmarkId, opts);
      // --name, else the config's `name:` (executeRun reads it the same way); it also names the default folder.
      const name: string | undefined = opts.name ?? (opts.config ? readConfigFile(opts.config).name : undefined);
      const out = opts.out ?? defaultOut(benchmarkId, opts.model, name);
      const controller = new AbortController();
      const onSignal = () => controller.abort(new Error("interrupted"));
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const runOptions = {
          benchmark: benchmarkId,
          benchmarkOptions: benchmarkOptions(opts),
          data: opts.data,
          tasks: opts.tasks,
          limit: opts.limit,
          ...selectionOptions(opts),
          out,
          bootstrapResamples: opts.bootstrap,
          bootstrapSeed: opts.bootstrapSeed,
          quiet: opts.quiet,
          ...(name ? { name } : {}),
          model: opts.model,
          concurrency: opts.concurrency,
          promptSource: opts.prompt ?? benchmark.promptSources[0]!,
          control: opts.control ?? benchmark.promptControls[0]!,
          templateFile: opts.template,
          seed: opts.seed,
          configFile: opts.config,
          flags: { ...modelSettingsFlags(opts), max_cost: opts.maxCost, ...(opts.batch ? { batch: true } : {}), batch_poll: opts.batchPoll },
          retryErrors: Boolean(opts.retryErrors),
          storeFile: opts.store,
          ...(opts.queue !== undefined ? { queue: { url: String(opts.queue), work: opts.work !== false } } : {}),
          signal: controller.signal,
        };
        if (opts.repeats !== undefined) {
          const { runs, summary } = await executeRepeatedRun(runOptions, opts.repeats);
          const overall = summary.metrics.find((m) => m.metric === "score");
          const cell = (v: number | null | undefined) => (typeof v === "number" ? v.toFixed(4) : "–");
          console.log(`${benchmark.title}: ${summary.repeats} repeats, overall score ${overall?.values.map(cell).join(", ")}; mean ${cell(overall?.mean)}, SD ${cell(overall?.sd)}`);
          console.log(`wrote ${out}/repeat-1 ... repeat-${opts.repeats}/ (each a run folder), ${out}/repeats.json, ${out}/report.md`);
          for (const run of runs) reportCompleteness(run.scores, Boolean(opts.allowIncomplete));
          return;
        }
        const { scores, results } = await executeRun(runOptions);
        console.log(benchmark.terminal(scores));
        if (scores.counts.errors > 0) {
          // A prompt that cannot be built, or a request that cannot fit the provider's limits, fails again if asked again.
          const retryable = results.filter((r) => r.status === "error" && !["prompt", "limit"].includes(r.response?.error?.kind ?? "")).length;
          const hint = retryable > 0 ? `; run again with --retry-errors to ask ${retryable === scores.counts.errors ? "them" : `the ${retryable} that may succeed`} again` : " (their prompts or requests cannot be made: see items.jsonl)";
          console.log(`${scores.counts.errors} requests ended in errors and are not scored${hint}.`);
        }
        const truncated = results.filter((r) => r.response?.truncated).length;
        if (truncated > 0) {
          console.log(`${truncated} ${truncated === 1 ? "reply was" : "replies were"} longer than the reply cap (--max-reply-bytes) and cut to it; items.jsonl marks them with response.truncated.`);
        }
        const usage = usageLine(scores);
        if (usage) console.log(usage);
        const cost = (scores as { usage?: { cost?: { batch?: boolean } } }).usage?.cost;
        if (cost?.batch) console.log("cost at the batch price (50% of the listed input and output price)");
        console.log(`wrote ${out}/scores.json, items.jsonl, report.md, predictions.jsonl`);
        reportCompleteness(scores, Boolean(opts.allowIncomplete));
      } catch (error) {
        if (!(error instanceof CostLimitReached)) throw error;
        console.error(error.message);
        process.exitCode = 4;
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}

/** Every benchmark's prompt variants, the default first, as `list` shows them. */
function promptHelp(): string {
  return Object.values(BENCHMARKS).map((b) => `${b.id}: ${b.promptSources.map((p, i) => (i === 0 ? `${p} (default)` : p)).join(" | ")}`).join("; ");
}
