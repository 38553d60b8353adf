import type { Command } from "commander";
import type { BenchmarkOptions } from "../core/benchmark.js";
import { integer, list, positiveInteger } from "./main.js";

/** Flags shared by `run` and `score`. */
export function addScoringFlags(command: Command): Command {
  return command
    .requiredOption("--data <path>", "dataset root (for EgoPathBench: the folder holding benchmark_evalfix/ and assets/)")
    .option("--tasks <list>", "comma-separated task codes or names (default: every task present)", list)
    .option("--limit <n>", "only the first N questions of each task", positiveInteger)
    .option("--out <dir>", "output folder for scores.json, items.jsonl, report.md")
    .option("--bootstrap <n>", "bootstrap resamples for confidence intervals (0 = none)", integer, 10000)
    .option("--bootstrap-seed <n>", "seed of the bootstrap", integer, 20260717)
    .option("--coords <mode>", "epic: coordinate system of replies: auto | absolute | 0-1 | 0-1000 (default: the official per-model-family choice for run, auto for score)")
    .option("--strict", "epic: an unreadable reply scores 0 (the official code lets it count as an empty answer)")
    .option("--train <file>", "egotl: training items for the frequency baseline")
    .option("--circular", "egotl: circular evaluation (every rotation of the options must be answered right)")
    .option("--allow-outside-root", "let the dataset name files outside its root (media kept elsewhere on purpose); recorded in scores.json")
    .option("--quiet", "no progress on stderr");
}

export function defaultOut(benchmark: string, model: string): string {
  return `runs/${benchmark}/${model.replace(/[^A-Za-z0-9._-]+/g, "_")}`;
}

/** The benchmark options of `run` and `score` (only set flags are passed). */
export function benchmarkOptions(opts: { coords?: string; strict?: boolean; train?: string; circular?: boolean; allowOutsideRoot?: boolean }): BenchmarkOptions {
  return {
    ...(opts.allowOutsideRoot ? { allowOutsideRoot: true } : {}),
    ...(opts.coords ? { coords: opts.coords } : {}),
    ...(opts.strict ? { strict: true } : {}),
    ...(opts.train ? { train: opts.train } : {}),
    ...(opts.circular ? { circular: true } : {}),
  };
}
