/**
 * Episodic runs as reports and the viewer see them: a run of closed-loop episodes (`navigate`),
 * whose scores.json is of kind "navigation" and whose records are one episode a line. What such a
 * run holds and how it reads is the benchmark's (its `episodes` member, core/benchmark.ts); this
 * file is the contract between the two, and the look-up of a run's benchmark.
 */
import type { BenchItem, Benchmark } from "../core/benchmark.js";
import type { DataProblem } from "../core/problems.js";
import { BENCHMARKS } from "../registry.js";
import type { RunFolder } from "./run-folder.js";
import { asRecord } from "./svg.js";

/** scores.json of an episodic run, as far as the reports read it themselves; the benchmark reads the rest. */
export interface EpisodeRunScores {
  kind: "navigation";
  benchmark: string;
  model: string;
  name?: string;
  data?: string;
  created_at?: string;
  complete?: boolean;
  [key: string]: unknown;
}

export const isEpisodeRunScores = (value: unknown): value is EpisodeRunScores => asRecord(value)?.["kind"] === "navigation";

/** An episode record as read: the line's object, with a string episode_id and a steps array. */
export type EpisodeLine = Record<string, unknown> & { episode_id: string; steps: unknown[] };

export interface EpisodeLines {
  records: EpisodeLine[];
  problems: DataProblem[];
  /** The last line when it lacks its newline and the run is in progress (being appended). */
  partialLine: number | null;
}

/** What a run folder of episodes holds (RunFolder.navigation). */
export interface EpisodeFolder {
  /** scores.json (null before the run wrote one). */
  scores: EpisodeRunScores | null;
  /** The header the run wrote when it started (its identity and settings), when readable. */
  header: Record<string, unknown> | null;
  /** Episodes the run asks (scores.json's count, else the header's); null while unknown. */
  asked: number | null;
  /** One record per episode id (a later line for the same id replaces an earlier one, as a resumed run rewrites it). */
  records: EpisodeLine[];
}

export interface EpisodeRunCounts {
  episodes: number;
  done: number;
  error: number;
  notRun: number;
  complete: boolean;
}

/** The runs table's cells of an episodic run, where item runs show prompt, control, options and score. */
export interface EpisodeRunCells {
  prompt: string;
  control: string;
  option: string;
  /** The headline metric's value (a fraction) and name. */
  score: number | null;
  metric: string;
  /** Episodes that ended on a reply that could not be read. */
  unreadable: number;
}

/** One metric of the tidy CSV: `n` the episodes it is over, `nTotal` the episodes asked when known. */
export interface EpisodeMetricRow {
  task: string;
  metric: string;
  value: number;
  n: number | null;
  nTotal: number | null;
}

export interface EpisodeRow {
  /** Run index and the episode's position among the run's records. */
  run: number;
  index: number;
  id: string;
  task: string;
  /** success / failure (scored), error (provider error), not scored (no metrics yet). */
  outcome: string;
  spl: number | null;
  steps: number;
  collisions: number;
  end: string;
  instruction: string;
  /** The top-down picture (a /files/ URL when served, a data: URI in report.html), when there is one. */
  topdown?: string;
}

export interface DecisionView {
  index: number;
  at_step: number | null;
  /** What it asked for, in words: "FORWARD", "go to (1.20, -3.40) within 0.50 m, then stop: frame 7". */
  asked: string;
  reply: string | null;
  /** How the reply was read, in words. */
  reading: string | null;
  error: string | null;
  /** The goal named and whether it is right. */
  goal: string | null;
  cached: boolean;
}

export interface StepView {
  t: number | null;
  action: string;
  collided: boolean;
  position: string;
  heading_deg: number | null;
  decision: number | null;
  image: string | null;
}

export interface EpisodeDetail {
  run: number;
  index: number;
  id: string;
  task: string;
  instruction: string;
  status: string;
  end: string;
  agent: string;
  intervention: string;
  prior: string;
  metrics: string[];
  topdown: string | null;
  start: { position: string; heading_deg: number | null; image: string | null };
  decisions: DecisionView[];
  steps: StepView[];
}

/** A benchmark's episodic runs: their files, how they read, and the words and tables that show them. */
export interface EpisodeRuns {
  /** The header a run writes when it starts, and its episode lines: either marks a folder as such a run. */
  headerFile: string;
  episodesFile: string;
  /** The episode lines of a file; `live`: a last line without its newline is one being written, not a problem. */
  readEpisodeLines(file: string, live: boolean): EpisodeLines;
  /** The run folder (problems as read), with its episodes under `navigation`. */
  readFolder(dir: string, scores: EpisodeRunScores | null): RunFolder;
  counts(run: EpisodeRunScores): EpisodeRunCounts;
  /** "complete", or why not. */
  statusCell(run: EpisodeRunScores): string;
  runLabel(run: EpisodeRunScores): string;
  /** Labels of runs shown together, made distinct. */
  runLabels(runs: EpisodeRunScores[]): string[];
  /** Every identity field in words, for filters and titles. */
  identityText(run: EpisodeRunScores): string;
  /** The report's tables of finished runs shown together (Markdown, with its own heading). */
  runsMarkdown(runs: EpisodeRunScores[]): string;
  runCells(run: EpisodeRunScores, records: readonly EpisodeLine[], finished: boolean): EpisodeRunCells;
  metricRows(run: EpisodeRunScores): EpisodeMetricRow[];
  episodeRows(run: RunFolder, runIndex: number): EpisodeRow[];
  /** Everything the viewer shows of one episode; `fileUrl` turns a path inside the run folder into a URL (null: no such file). */
  episodeDetail(run: RunFolder, runIndex: number, index: number, fileUrl: (relative: string) => string | null): EpisodeDetail | undefined;
  /** The path inside the run folder of an episode's top-down picture. */
  topdownPath(episodeId: string): string;
}

/** The group a run is labelled and coloured in: its benchmark's item runs, or that benchmark's runs of episodes. */
export const runGroupKey = (benchmark: string, episodic: boolean): string => (episodic ? `\u0000navigation ${benchmark}` : benchmark);

const withEpisodes = (): Array<[string, EpisodeRuns]> =>
  Object.entries(BENCHMARKS as Record<string, Benchmark<BenchItem>>).flatMap(([id, b]) => (b.episodes ? [[id, b.episodes] as [string, EpisodeRuns]] : []));

/** The episodic runs of a benchmark; a benchmark without them is an error the caller did not check for. */
export function episodeRunsOf(benchmark: string): EpisodeRuns {
  const found = withEpisodes().find(([id]) => id === benchmark);
  if (!found) throw new Error(`benchmark "${benchmark}" has no episodic runs`);
  return found[1];
}

/** The file names that mark a folder as an episodic run, over every benchmark that has them. */
export function episodeRunMarkers(): string[] {
  return [...new Set(withEpisodes().flatMap(([, e]) => [e.headerFile, e.episodesFile]))];
}

/**
 * The benchmark whose episodic run a folder holds: its scores.json's benchmark, else (before one is
 * written) the benchmark whose header or episode lines the folder has.
 */
export function episodeBenchmarkOf(scores: unknown, has: (file: string) => boolean): string | undefined {
  const all = withEpisodes();
  if (scores !== null && scores !== undefined) {
    if (!isEpisodeRunScores(scores)) return undefined;
    return (all.find(([id]) => id === scores.benchmark) ?? all[0])?.[0];
  }
  return all.find(([, e]) => has(e.headerFile) || has(e.episodesFile))?.[0];
}
