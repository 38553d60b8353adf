import path from "node:path";
import { executeRun, type RunCommandOptions, type RunSummary } from "./session.js";
import { writeFileAtomic, toJson } from "./outputs.js";
import { UsageError } from "./problems.js";
import { getBenchmark } from "../registry.js";
import { repeatsMarkdown, summarizeRepeats, type RepeatsSummary } from "../report/repeats.js";

/**
 * `run --repeats K`: the run made K times, repeat k in `<out>/repeat-<k>/` (a complete run folder:
 * scores.json, items.jsonl, report.md), every reply in one store (`<out>/responses.sqlite`) under
 * keys of its own per repeat, so a killed run resumes each repeat where it stopped. `<out>/repeats.json`
 * and `<out>/report.md` hold the per-repeat values with their mean and SD (report/repeats.ts).
 */
export interface RepeatedRunSummary {
  runs: RunSummary[];
  summary: RepeatsSummary;
}

export const repeatFolder = (out: string, index: number) => path.join(out, `repeat-${index}`);

export async function executeRepeatedRun(options: RunCommandOptions, repeats: number): Promise<RepeatedRunSummary> {
  if (!Number.isInteger(repeats) || repeats < 1) throw new UsageError("--repeats must be a positive integer");
  if (options.model.startsWith("replay:")) throw new UsageError("--repeats asks a model again; stored predictions (replay:) cannot be repeated");
  const group = path.resolve(options.out);
  const label = options.name ?? options.model;
  const runs: RunSummary[] = [];
  for (let index = 1; index <= repeats; index++) {
    runs.push(await executeRun({
      ...options,
      out: repeatFolder(options.out, index),
      storeFile: options.storeFile ?? path.join(options.out, "responses.sqlite"),
      name: `${label} · repeat ${index}/${repeats}`,
      repeat: { index, of: repeats, group },
    }));
  }
  const scores = runs.map((r) => r.scores);
  const summary = summarizeRepeats(scores);
  writeFileAtomic(path.join(options.out, "repeats.json"), toJson({ ...summary, folders: runs.map((_, i) => `repeat-${i + 1}`) }, 2));
  const benchmark = getBenchmark(options.benchmark);
  writeFileAtomic(path.join(options.out, "report.md"), `${benchmark.markdown(scores)}\n\n${repeatsMarkdown(summary, label)}\n`);
  return { runs, summary };
}
