import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ScoresDocument } from "../core/benchmark.js";
import { UsageError, type DataProblem } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { finishedResults, readJsonFile, RunFolderError } from "./run-folder.js";
import { isNavigationScores, navigationRunsMarkdown, type NavigationRunScores } from "../benchmarks/vcn/navigate/report.js";
import { NAV_EPISODES, readEpisodeLines } from "./navigation-folder.js";
import { repeatGroups, repeatsMarkdown, summarizeRepeats } from "./repeats.js";

/** A repeated run's label: its repeats' name without " · repeat k/K". */
const repeatLabel = (run: ScoresDocument) => String(run["name"] ?? run.model).replace(/ · repeat \d+\/\d+$/, "");

/**
 * Read scores.json from run folders or direct paths. A scores.json inside a run folder is read
 * with its items.jsonl: a damaged line, or items that are not its own, is an error naming the file
 * (and line), since the tables would otherwise describe results nobody can inspect.
 */
export function readScores(inputs: string[]): ScoresDocument[] {
  const problems: DataProblem[] = [];
  const runs = inputs.map((input) => {
    const isDir = existsSync(input) && statSync(input).isDirectory();
    const file = isDir ? path.join(input, "scores.json") : input;
    if (!existsSync(file)) throw new UsageError(`no scores.json at ${input}`);
    const scores = readJsonFile<ScoresDocument>(file);
    const dir = path.dirname(path.resolve(file));
    // A navigation run's records are episodes.jsonl (navigation-folder.ts); an item run's, items.jsonl.
    if (path.basename(file) === "scores.json") problems.push(...(isNavigationScores(scores) ? readEpisodeLines(path.join(dir, NAV_EPISODES), false).problems : finishedResults(dir, scores).problems));
    return scores;
  });
  if (problems.length > 0) throw new RunFolderError(problems);
  return runs;
}

/** Markdown: one section per benchmark, runs side by side; navigation runs in a section of their own. */
export function markdownReport(runs: ScoresDocument[]): string {
  const byBenchmark = new Map<string, ScoresDocument[]>();
  for (const run of runs) if (!isNavigationScores(run)) byBenchmark.set(run.benchmark, [...(byBenchmark.get(run.benchmark) ?? []), run]);
  const navigation = runs.filter((run) => isNavigationScores(run)) as unknown as NavigationRunScores[];
  // Repeats of one run (`run --repeats`) also get their mean and SD, under the benchmark's own tables.
  const withRepeats = ([id, group]: [string, ScoresDocument[]]) => [
    getBenchmark(id).markdown(group),
    ...repeatGroups(group).map((repeats) => `\n${repeatsMarkdown(summarizeRepeats(repeats), repeatLabel(repeats[0]!))}\n`),
  ].join("");
  return [...[...byBenchmark].map(withRepeats), ...(navigation.length > 0 ? [navigationRunsMarkdown(navigation)] : [])].join("\n");
}

export function jsonReport(runs: ScoresDocument[]): string {
  return `${JSON.stringify(runs, null, 2)}\n`;
}
