import type { Command } from "commander";
import { executeScore } from "../core/session.js";
import { UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { addScoringFlags, benchmarkOptions, checkFlagReaders, reportCompleteness, selectionOptions } from "./shared.js";

export function registerScore(program: Command): void {
  const command = program
    .command("score <benchmark>")
    .description("score stored predictions with the official evaluator's rules")
    .requiredOption("--predictions <files...>", "JSONL predictions: file.jsonl (all tasks) or <task>=file.jsonl (one task)")
    .option("--prompt <variant>", "the prompt variant the predictions answered, where it changes the questions (vcn: counterfactual)")
    .option("--restrict-to-predictions", "score only the questions the predictions answer (the official EgoPathBench evaluator's flag); scores.json records how many the data holds");
  addScoringFlags(command).action(async (benchmarkId: string, opts) => {
    const benchmark = getBenchmark(benchmarkId);
    checkFlagReaders(benchmarkId, opts);
    if (!opts.out) throw new UsageError("score needs --out <dir>");
    const { scores } = await executeScore({
      benchmark: benchmarkId,
      benchmarkOptions: benchmarkOptions(opts),
      data: opts.data,
      tasks: opts.tasks,
      limit: opts.limit,
      ...selectionOptions(opts),
      out: opts.out,
      bootstrapResamples: opts.bootstrap,
      bootstrapSeed: opts.bootstrapSeed,
      quiet: opts.quiet,
      ...(opts.name ? { name: opts.name } : {}),
      predictions: opts.predictions,
      ...(opts.restrictToPredictions ? { restrictToPredictions: true } : {}),
      ...(opts.prompt ? { promptSource: opts.prompt } : {}),
    });
    console.log(benchmark.terminal(scores));
    console.log(`wrote ${opts.out}/scores.json, items.jsonl, report.md`);
    reportCompleteness(scores, Boolean(opts.allowIncomplete));
  });
}
