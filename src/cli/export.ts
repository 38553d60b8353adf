import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { EXPORT_FORMATS, IMAGE_ROOTS, type ExportFormat, type ImageRoot } from "../core/training-export.js";
import { exportEgoPath } from "../benchmarks/egopath/export.js";
import { SPLITS, type Split } from "../benchmarks/egopath/load.js";
import { exportFromPrompts, PROMPT_EXPORT_BENCHMARKS } from "../benchmarks/prompt-export.js";
import { getBenchmark } from "../registry.js";

/** Questions whose stored answer fails the check were left out (README "Training export"). */
export const EXIT_REFUSED = 1;

function choice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`unknown ${flag} "${value}" (choose ${choices.join(", ")})`);
}

const EXPORTABLE = ["egopath", ...PROMPT_EXPORT_BENCHMARKS];

function reportRefused(refused: ReadonlyArray<{ id: string; task: string; reason: string }>, what: string): void {
  if (refused.length === 0) return;
  console.error(`refused ${refused.length} question${refused.length === 1 ? "" : "s"} ${what} (not exported):`);
  for (const q of refused) console.error(`  - ${q.id} (${q.task}): ${q.reason}`);
  process.exitCode = EXIT_REFUSED;
}

export function registerExport(program: Command): void {
  program
    .command("export <benchmark>")
    .description(`write training data, one conversation per question, for LLaVA, LLaMA-Factory or ms-swift (${EXPORTABLE.join(", ")})`)
    .requiredOption("--data <path>", "dataset root (for EgoPathBench: the folder holding benchmark_evalfix/ and assets/)")
    .requiredOption("--format <name>", `llava (JSON list) | sharegpt (LLaMA-Factory JSON list, plus its entry in dataset_info.json beside the file) | swift (ms-swift JSONL)`)
    .requiredOption("--out <file>", "output file (must not exist)")
    .option("--split <name>", `egopath: split to export: ${SPLITS.join(" | ")}`, "benchmark")
    .option("--image-root <mode>", "image paths relative to the output file's folder, or absolute: relative | absolute", "relative")
    .option("--prompt <source>", "vcn, egotl, epic: the prompt source the conversations are built with (default: the benchmark's first)")
    .option("--seed <n>", "vcn, egotl, epic: sampling and shuffling seed, as `run --seed`", (v) => Number.parseInt(v, 10), 0)
    .option("--max-images <n>", "vcn, egotl, epic: most pictures per conversation (video frames are thinned evenly to fit)", (v) => Number.parseInt(v, 10))
    .addHelpText("after", "\nExamples:\n  spatialprobe export egopath --data my-set --split train --format sharegpt --out lf/egopath_train.json\n  spatialprobe export vcn --data examples/vcn-mini --format swift --out swift/vcn.jsonl --max-images 32\n")
    .action(async (benchmarkId: string, opts) => {
      if (!EXPORTABLE.includes(benchmarkId)) throw new UsageError(`export supports ${EXPORTABLE.join(", ")} (got "${benchmarkId}")`);
      const format = choice<ExportFormat>("--format", opts.format, EXPORT_FORMATS);
      const imageRoot = choice<ImageRoot>("--image-root", opts.imageRoot, IMAGE_ROOTS);
      if (benchmarkId === "egopath") {
        const summary = exportEgoPath({ data: opts.data, format, outFile: opts.out, split: choice<Split>("--split", opts.split, SPLITS), imageRoot });
        printSummary(opts.out, summary.exported, summary.counts, summary.format, summary.datasetInfo);
        reportRefused(summary.refused, "whose stored answer fails the EgoPathBench scorer");
        return;
      }
      if (!Number.isInteger(opts.seed)) throw new UsageError("--seed must be an integer");
      if (opts.maxImages !== undefined && !(Number.isInteger(opts.maxImages) && opts.maxImages >= 1)) throw new UsageError("--max-images must be a positive integer");
      const summary = await exportFromPrompts(getBenchmark(benchmarkId), {
        data: opts.data, format, outFile: opts.out, imageRoot, seed: opts.seed,
        ...(opts.prompt ? { promptSource: opts.prompt } : {}),
        ...(opts.maxImages ? { maxImages: opts.maxImages } : {}),
      });
      printSummary(opts.out, summary.exported, summary.counts, summary.format, summary.datasetInfo);
      console.log(`${summary.pictures} picture${summary.pictures === 1 ? "" : "s"} in ${summary.mediaDir}`);
      reportRefused(summary.refused, "whose target the benchmark's scorer does not count as right, or whose prompt cannot be exported");
    });
}

function printSummary(out: string, n: number, counts: Record<string, number>, format: string, datasetInfo?: { file: string; name: string }): void {
  const perTask = Object.entries(counts).map(([task, k]) => `${task} ${k}`).join(", ");
  console.log(`wrote ${out}: ${n} conversation${n === 1 ? "" : "s"} (${perTask}), ${format} format`);
  if (datasetInfo) console.log(`dataset "${datasetInfo.name}" described in ${datasetInfo.file}`);
}
