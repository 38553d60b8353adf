import type { Command } from "commander";
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
    .option("--quiet", "no progress on stderr");
}

export function defaultOut(benchmark: string, model: string): string {
  return `runs/${benchmark}/${model.replace(/[^A-Za-z0-9._-]+/g, "_")}`;
}
