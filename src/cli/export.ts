import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { EXPORT_FORMATS, IMAGE_ROOTS, type ExportFormat, type ImageRoot } from "../core/training-export.js";
import { exportEgoPath, SPLITS, type Split } from "../benchmarks/egopath/index.js";
import { exportFromPrompts, PROMPT_EXPORT_BENCHMARKS } from "../benchmarks/prompt-export.js";
import { getBenchmark } from "../registry.js";
import { EXPORT_SETTINGS, exportPathEval, type ExportSetting } from "../benchmarks/patheval/index.js";
import { MAX_FRAMES_PER_SPEC } from "../core/limits.js";
import { list, positiveCount, seed, wholeIn } from "./main.js";

/** Questions whose stored answer fails the check were left out (README "Training export"). */
export const EXIT_REFUSED = 1;

function choice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`unknown ${flag} "${value}" (choose ${choices.join(", ")})`);
}

const EXPORTABLE = ["egopath", "patheval", ...PROMPT_EXPORT_BENCHMARKS];
const PATHEVAL_SPLITS = ["train", "test"] as const;

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
    .option("--split <name>", `egopath: split to export: ${SPLITS.join(" | ")} (default benchmark; test, as run --split names it, is benchmark); patheval: train | test (default train)`)
    .option("--image-root <mode>", "image paths relative to the output file's folder, or absolute: relative | absolute", "relative")
    .option("--prompt <source>", `vcn, egotl, epic: the prompt source the conversations are built with (default: the benchmark's first); patheval: the training setting, ${EXPORT_SETTINGS.join(" | ")} (default plain; paper §5 and Table 13)`)
    .option("--seed <n>", "vcn, egotl, epic: sampling and shuffling seed, as `run --seed`; patheval: random IDs, random tokens and the --limit sample", seed, 0)
    .option("--limit <n>", "patheval: a seeded sample of at most n questions per dimension (Table 13's memorization subsets: 50, 100, 200)", positiveCount)
    .option("--tasks <list>", "patheval: dimensions to export, 2d,3d (default both)", list)
    .option("--template <file>", "patheval: prompt template file (default templates/patheval.yaml)")
    .option("--max-images <n>", "vcn, egotl, epic: most pictures per conversation (video frames are thinned evenly to fit)", wholeIn(1, MAX_FRAMES_PER_SPEC))
    .addHelpText("after", "\nExamples:\n  spatialprobe export egopath --data my-set --split train --format sharegpt --out lf/egopath_train.json\n  spatialprobe export vcn --data examples/vcn-mini --format swift --out swift/vcn.jsonl --max-images 32\n  spatialprobe export patheval --data my-patheval --tasks 2d --prompt with-descriptors --format llava --out llava/patheval_desc.json\n")
    .action(async (benchmarkId: string, opts) => {
      if (!EXPORTABLE.includes(benchmarkId)) throw new UsageError(`export supports ${EXPORTABLE.join(", ")} (got "${benchmarkId}")`);
      const format = choice<ExportFormat>("--format", opts.format, EXPORT_FORMATS);
      const imageRoot = choice<ImageRoot>("--image-root", opts.imageRoot, IMAGE_ROOTS);
      if (benchmarkId === "egopath") {
        const summary = exportEgoPath({ data: opts.data, format, outFile: opts.out, split: choice<Split>("--split", opts.split === "test" ? "benchmark" : (opts.split ?? "benchmark"), SPLITS), imageRoot });
        printSummary(opts.out, summary.exported, summary.counts, summary.format, summary.datasetInfo);
        reportRefused(summary.refused, "whose stored answer fails the EgoPathBench scorer");
        return;
      }
      if (benchmarkId === "patheval") {
        await exportPathEvalCommand(opts, format, imageRoot);
        return;
      }
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

async function exportPathEvalCommand(opts: Record<string, any>, format: ExportFormat, imageRoot: ImageRoot): Promise<void> {
  const tasks = opts.tasks ? getBenchmark("patheval").resolveTasks(opts.tasks) : undefined;
  const summary = await exportPathEval({
    data: opts.data, format, outFile: opts.out, imageRoot, seed: opts.seed,
    split: choice<(typeof PATHEVAL_SPLITS)[number]>("--split", opts.split ?? "train", PATHEVAL_SPLITS),
    setting: choice<ExportSetting>("--prompt", opts.prompt ?? "plain", EXPORT_SETTINGS),
    ...(opts.limit ? { limit: opts.limit } : {}),
    ...(tasks ? { tasks: tasks as Array<"2D" | "3D"> } : {}),
    ...(opts.template ? { templateFile: opts.template } : {}),
  });
  printSummary(opts.out, summary.exported, summary.counts, summary.format, summary.datasetInfo);
  console.log(`${summary.pictures} picture${summary.pictures === 1 ? "" : "s"} in ${summary.mediaDir}${summary.rendered > 0 ? ` (${summary.rendered} drawn from the records' paths: the data had none)` : ""}`);
  reportRefused(summary.refused, "whose target does not read back as the gold answer");
}
