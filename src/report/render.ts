import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { ScoresDocument } from "../core/benchmark.js";
import { UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";

/** Read scores.json from run folders or direct paths. */
export function readScores(inputs: string[]): ScoresDocument[] {
  return inputs.map((input) => {
    const file = existsSync(input) && statSync(input).isDirectory() ? path.join(input, "scores.json") : input;
    if (!existsSync(file)) throw new UsageError(`no scores.json at ${input}`);
    try {
      return JSON.parse(readFileSync(file, "utf8")) as ScoresDocument;
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
  });
}

/** Markdown: one section per benchmark, runs side by side. */
export function markdownReport(runs: ScoresDocument[]): string {
  const byBenchmark = new Map<string, ScoresDocument[]>();
  for (const run of runs) byBenchmark.set(run.benchmark, [...(byBenchmark.get(run.benchmark) ?? []), run]);
  return [...byBenchmark].map(([id, group]) => getBenchmark(id).markdown(group)).join("\n");
}

export function jsonReport(runs: ScoresDocument[]): string {
  return `${JSON.stringify(runs, null, 2)}\n`;
}
