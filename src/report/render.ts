import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ItemResult, ScoresDocument } from "../core/benchmark.js";
import { noteRunFolder } from "./run-facts.js";
import { appendAll, problemList, UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { finishedResults, readJsonFile, RunFolderError } from "./run-folder.js";
import { episodeRunsOf, isEpisodeRunScores } from "./episode-runs.js";
import { expandReportInputs } from "./export/inputs.js";
import { repeatGroups, repeatsMarkdown, summarizeRepeats } from "./repeats.js";
import { blindMarkdown, type BlindReference } from "./blind-rows.js";
import { reportLabels } from "./export/labels.js";

/** A repeated run's label: its repeats' name without " · repeat k/K". */
const repeatLabel = (run: ScoresDocument) => String(run["name"] ?? run.model).replace(/ · repeat \d+\/\d+$/, "");

/** One run as the score-based formats read it: its scores.json, and its item results when it has a run folder. */
export interface ReportRun {
  file: string;
  scores: ScoresDocument;
  /** items.jsonl's results (null for a navigation run, or a scores.json named outside its run folder). */
  results: ItemResult[] | null;
}

/** A parsed scores.json that does not say which benchmark and model it is cannot be reported. */
function assertScoresShape(file: string, value: unknown): asserts value is ScoresDocument {
  const doc = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (!doc || typeof doc["benchmark"] !== "string" || (typeof doc["model"] !== "string" && !isEpisodeRunScores(doc))) {
    throw new UsageError(`${file}: not a spatialprobe scores.json (expected a JSON object with "benchmark" and "model")`);
  }
  try {
    const benchmark = getBenchmark(doc["benchmark"] as string);
    if (isEpisodeRunScores(doc) && !benchmark.episodes) throw new Error(`${benchmark.title} has no navigation runs`);
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Read scores.json from run folders, folders of runs (at any depth: export/inputs.ts) or direct
 * paths. A scores.json inside a run folder is read with its items.jsonl: a damaged line, or items
 * that are not its own, is an error naming the file (and line), since the tables would otherwise
 * describe results nobody can inspect. Run folders found below a named folder without a
 * scores.json yet are passed to `onUnfinished` (the CLI notes them on stderr).
 */
export function readReportRuns(inputs: string[], onUnfinished: (dirs: string[]) => void = () => {}): ReportRun[] {
  const problems = problemList();
  const expanded = expandReportInputs(inputs, { requireScores: true });
  if (expanded.unfinished.length > 0) onUnfinished(expanded.unfinished);
  const runs = expanded.runs.map((input): ReportRun => {
    const isDir = existsSync(input) && statSync(input).isDirectory();
    const file = isDir ? path.join(input, "scores.json") : input;
    if (!existsSync(file)) throw new UsageError(`no scores.json at ${input}`);
    const scores = readJsonFile<unknown>(file);
    assertScoresShape(file, scores);
    const dir = path.dirname(path.resolve(file));
    noteRunFolder(scores as ScoresDocument, dir);
    if (path.basename(file) !== "scores.json") return { file, scores, results: null };
    // A run of episodes has its records in its benchmark's episode file; an item run, in items.jsonl.
    if (isEpisodeRunScores(scores)) {
      const episodes = episodeRunsOf(scores.benchmark);
      appendAll(problems, episodes.readEpisodeLines(path.join(dir, episodes.episodesFile), false).problems);
      return { file, scores, results: null };
    }
    const read = finishedResults(dir, scores);
    appendAll(problems, read.problems);
    return { file, scores, results: read.results };
  });
  if (problems.length > 0) throw new RunFolderError(problems);
  return runs;
}

export function readScores(inputs: string[], onUnfinished?: (dirs: string[]) => void): ScoresDocument[] {
  return readReportRuns(inputs, onUnfinished).map((run) => run.scores);
}

/**
 * Markdown: one section per benchmark, runs side by side, then (where the data's audit exists or
 * was made: blind-rows.ts) its chance and blind scores per task; navigation runs in a section of their own.
 */
export function markdownReport(runs: ScoresDocument[], references: readonly BlindReference[] = []): string {
  const byBenchmark = new Map<string, ScoresDocument[]>();
  const episodic = new Map<string, ScoresDocument[]>();
  for (const run of runs) {
    const groups = isEpisodeRunScores(run) ? episodic : byBenchmark;
    groups.set(run.benchmark, [...(groups.get(run.benchmark) ?? []), run]);
  }
  // Repeats of one run (`run --repeats`) also get their mean and SD, under the benchmark's own tables.
  const withRepeats = ([id, group]: [string, ScoresDocument[]]) => [
    getBenchmark(id).markdown(group),
    ...repeatGroups(group).map((repeats) => `\n${repeatsMarkdown(summarizeRepeats(repeats), repeatLabel(repeats[0]!))}\n`),
    ...blindSection(id, group, references),
  ].join("");
  const episodeTables = [...episodic].map(([id, group]) => episodeRunsOf(id).runsMarkdown(group.flatMap((run) => (isEpisodeRunScores(run) ? [run] : []))));
  return [...[...byBenchmark].map(withRepeats), ...episodeTables].join("\n");
}

/** A benchmark's chance-and-blind tables, labelled as its runs are in the report. */
export function blindSection(id: string, group: ScoresDocument[], references: readonly BlindReference[]): string[] {
  const own = references.filter((r) => r.benchmark === id);
  if (own.length === 0) return [];
  const labels = reportLabels(group);
  return [`\n${blindMarkdown(own, group, (run) => labels[group.indexOf(run)]!)}`];
}

export function jsonReport(runs: ScoresDocument[]): string {
  return `${JSON.stringify(runs, null, 2)}\n`;
}
