import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { EXPORT_FORMATS, exportEgoPath, IMAGE_ROOTS, type ExportFormat, type ImageRoot } from "../benchmarks/egopath/export.js";
import { SPLITS, type Split } from "../benchmarks/egopath/load.js";

/** Questions whose stored answer fails the check were left out (README "Training export"). */
export const EXIT_REFUSED = 1;

function choice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`unknown ${flag} "${value}" (choose ${choices.join(", ")})`);
}

export function registerExport(program: Command): void {
  program
    .command("export <benchmark>")
    .description("write training data: one conversation per question (image, stored prompt, checked answer) for LLaVA, LLaMA-Factory or ms-swift")
    .requiredOption("--data <path>", "dataset root (for EgoPathBench: the folder holding benchmark_evalfix/ and assets/)")
    .requiredOption("--format <name>", `llava (JSON list) | sharegpt (LLaMA-Factory JSON list, plus its entry in dataset_info.json beside the file) | swift (ms-swift JSONL)`)
    .requiredOption("--out <file>", "output file (must not exist)")
    .option("--split <name>", `split to export: ${SPLITS.join(" | ")}`, "benchmark")
    .option("--image-root <mode>", "image paths relative to the output file's folder, or absolute: relative | absolute", "relative")
    .action((benchmarkId: string, opts) => {
      if (benchmarkId !== "egopath") throw new UsageError(`export supports egopath only (got "${benchmarkId}")`);
      const summary = exportEgoPath({
        data: opts.data,
        format: choice<ExportFormat>("--format", opts.format, EXPORT_FORMATS),
        outFile: opts.out,
        split: choice<Split>("--split", opts.split, SPLITS),
        imageRoot: choice<ImageRoot>("--image-root", opts.imageRoot, IMAGE_ROOTS),
      });
      const perTask = Object.entries(summary.counts).map(([task, n]) => `${task} ${n}`).join(", ");
      const n = summary.exported;
      console.log(`wrote ${opts.out}: ${n} conversation${n === 1 ? "" : "s"} (${perTask}), ${summary.format} format`);
      if (summary.datasetInfo) console.log(`dataset "${summary.datasetInfo.name}" described in ${summary.datasetInfo.file}`);
      if (summary.refused.length === 0) return;
      const count = summary.refused.length;
      console.error(`refused ${count} question${count === 1 ? "" : "s"} whose stored answer fails the EgoPathBench scorer (not exported):`);
      for (const q of summary.refused) console.error(`  - ${q.id} (${q.task}): ${q.reason}`);
      process.exitCode = EXIT_REFUSED;
    });
}
