import { InvalidArgumentError, type Command } from "commander";
import type { BenchmarkOptions, ScoresDocument } from "../core/benchmark.js";
import { incompleteReason } from "../report/run-facts.js";
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
    .option("--name <label>", "a label for the run, shown in every report table, chart and viewer filter (default: the model and what differs from the defaults)", runName)
    .option("--allow-incomplete", "exit 0 even when items ended in errors or have no prediction (default: exit 3 after a one-line reason)")
    .option("--quiet", "no progress on stderr");
}

/** A run's label: trimmed, not empty. */
export function runName(text: string): string {
  const name = text.trim();
  if (name === "") throw new InvalidArgumentError("must not be empty");
  return name;
}

const folderPart = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "_");

/** runs/<benchmark>/<model>, or runs/<benchmark>/<model>--<name> for a named run (two named runs never share a folder). */
export function defaultOut(benchmark: string, model: string, name?: string): string {
  return `runs/${benchmark}/${folderPart(model)}${name ? `--${folderPart(name)}` : ""}`;
}

/** Exit status 3 for an incomplete run (README "Exit status"), after its one-line reason on stderr; --allow-incomplete keeps 0. */
export function reportCompleteness(scores: ScoresDocument, allowIncomplete: boolean): void {
  const reason = incompleteReason(scores, allowIncomplete);
  if (!reason) return;
  console.error(reason);
  if (!allowIncomplete) process.exitCode = EXIT_INCOMPLETE;
}

/** Some items ended in an error or have no prediction. */
export const EXIT_INCOMPLETE = 3;

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
