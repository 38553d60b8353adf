import { InvalidArgumentError, type Command } from "commander";
import type { BenchmarkOptions, ScoresDocument } from "../core/benchmark.js";
import { incompleteReason } from "../report/run-facts.js";
import { UsageError } from "../core/problems.js";
import { MAX_BOOTSTRAP_RESAMPLES, MAX_FPS, MAX_FRAMES_PER_SPEC } from "../core/limits.js";
import { readRegularText } from "../core/file-read.js";
import { list, numberIn, positiveCount, seed, wholeIn } from "./main.js";

/** Flags shared by `run` and `score`. */
export function addScoringFlags(command: Command): Command {
  return command
    .requiredOption("--data <path>", "dataset root (for EgoPathBench: the folder holding benchmark_evalfix/ and assets/)")
    .option("--tasks <list>", "comma-separated task codes or names (default: every task present)", list)
    .option("--limit <n>", "only the first N questions of each task", positiveCount)
    .option("--items <ids>", "only these item ids: comma-separated, or @FILE with one id per line", itemIds)
    .option("--sample <n>", "a random sample of N items (drawn by --sample-seed, kept in the data's order)", positiveCount)
    .option("--sample-seed <n>", "seed of --sample", seed, 1)
    .option("--out <dir>", "output folder for scores.json, items.jsonl, report.md (run: default runs/<benchmark>/<model>, or runs/<benchmark>/<model>--<name> with --name; score: required)")
    .option("--bootstrap <n>", "bootstrap resamples for confidence intervals (0 = none)", wholeIn(0, MAX_BOOTSTRAP_RESAMPLES), 10000)
    .option("--bootstrap-seed <n>", "seed of the bootstrap", seed, 20260717)
    .option("--coords <mode>", "epic: coordinate system of replies: auto | absolute | 0-1 | 0-1000 (default: the official per-model-family choice for run, auto for score)")
    .option("--strict", "epic: an unreadable reply scores 0 (the official code lets it count as an empty answer)")
    .option("--train <file>", "egotl: training items for the frequency baseline")
    .option("--circular", "egotl: circular evaluation (every rotation of the options must be answered right)")
    .option("--split <name>", "which split of the release to load (egopath: test (default) | val | train)")
    .option("--rules <set>", "epic: where the paper's text and the official code differ, follow: official (default) | paper", rulesSet)
    .option("--frames <n>", "egotl: frames taken from every video (overrides the frame specs)", wholeIn(1, MAX_FRAMES_PER_SPEC))
    .option("--fps <x>", "egotl: frames per second taken from every video (overrides the frame specs)", numberIn(0, MAX_FPS, { above: true }))
    .option("--allow-outside-root", "let the dataset name files outside its root (media kept elsewhere on purpose); recorded in scores.json")
    .option("--name <label>", "a label for the run, shown in every report table, chart and viewer filter (default: the model and what differs from the defaults)", runName)
    .option("--allow-incomplete", "exit 0 even when items ended in errors or have no prediction (default: exit 3 after a one-line reason)")
    .option("--quiet", "no progress on stderr");
}

/** Most ids --items takes (a file of them is read up to this many lines). */
const MAX_ITEM_IDS = 1_000_000;

/** --items: "a,b,c", or "@file" naming one id per line (blank lines skipped). */
function itemIds(text: string): string[] {
  let ids: string[];
  if (text.startsWith("@")) {
    const file = text.slice(1);
    try {
      ids = readRegularText(file, { maxBytes: 64 * 1024 * 1024 }).split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    } catch (error) {
      throw new InvalidArgumentError(`cannot read ${file}: ${(error as Error).message}`);
    }
  } else ids = list(text);
  if (ids.length === 0) throw new InvalidArgumentError("names no item id");
  if (ids.length > MAX_ITEM_IDS) throw new InvalidArgumentError(`names ${ids.length} ids, more than ${MAX_ITEM_IDS}`);
  return ids;
}

/** The --items, --sample and --sample-seed of `run` and `score` as CommonOptions fields. */
export function selectionOptions(opts: { items?: string[]; sample?: number; sampleSeed?: number }): { items?: string[]; sample?: { n: number; seed: number } } {
  return { ...(opts.items ? { items: opts.items } : {}), ...(opts.sample !== undefined ? { sample: { n: opts.sample, seed: opts.sampleSeed ?? 1 } } : {}) };
}

function rulesSet(text: string): "official" | "paper" {
  if (text !== "official" && text !== "paper") throw new InvalidArgumentError("must be official or paper");
  return text;
}

/** A run's label: trimmed, not empty. */
export function runName(text: string): string {
  const name = text.trim();
  if (name === "") throw new InvalidArgumentError("must not be empty");
  return name;
}

/** A model spec or label as one folder name: "openai:gpt-4o" -> "openai_gpt-4o". */
export const folderPart = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, "_");

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

/** The benchmarks that read each of these flags; giving one to another benchmark is a usage error, not silently ignored. */
const FLAG_READERS: Record<"split" | "rules" | "frames" | "fps", string[]> = {
  split: ["egopath"],
  rules: ["epic"],
  frames: ["egotl"],
  fps: ["egotl"],
};

/** Refuse a flag the benchmark does not read (`--rules` on egopath, say). */
export function checkFlagReaders(benchmarkId: string, opts: Record<string, unknown>): void {
  for (const [flag, readers] of Object.entries(FLAG_READERS)) {
    if (opts[flag] !== undefined && !readers.includes(benchmarkId)) throw new UsageError(`--${flag} is read by ${readers.join(", ")} only, not ${benchmarkId}`);
  }
}

/** The benchmark options of `run` and `score` (only set flags are passed). */
export function benchmarkOptions(opts: { coords?: string; strict?: boolean; train?: string; circular?: boolean; allowOutsideRoot?: boolean; split?: string; rules?: "official" | "paper"; frames?: number; fps?: number }): BenchmarkOptions {
  return {
    ...(opts.split ? { split: opts.split } : {}),
    ...(opts.rules ? { rules: opts.rules } : {}),
    ...(opts.frames !== undefined ? { frames: opts.frames } : {}),
    ...(opts.fps !== undefined ? { fps: opts.fps } : {}),
    ...(opts.allowOutsideRoot ? { allowOutsideRoot: true } : {}),
    ...(opts.coords ? { coords: opts.coords } : {}),
    ...(opts.strict ? { strict: true } : {}),
    ...(opts.train ? { train: opts.train } : {}),
    ...(opts.circular ? { circular: true } : {}),
  };
}
