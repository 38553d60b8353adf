/**
 * A run folder as reports and the viewer read it: scores.json and items.jsonl when the run has
 * finished, live.json and live.jsonl while it is in progress (or after it was interrupted). A
 * run of episodes (`navigate vcn`: scores.json of kind "navigation", episodes.jsonl) is read by its
 * benchmark (episode-runs.ts) into the same shape, with its episodes under `navigation`.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { Benchmark, BenchItem, BenchmarkOptions, ItemResult, ScoresDocument } from "../core/benchmark.js";
import { parseJson } from "../core/jsonl.js";
import { activeWriter, LOCK_FILE } from "../core/lock.js";
import { LIVE_HEADER, LIVE_RESULTS, outputsMismatch, readResultLines, type LiveHeader, type ResultLines } from "../core/outputs.js";
import { DataError, formatProblem, UsageError, type DataProblem } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { episodeBenchmarkOf, episodeRunMarkers, episodeRunsOf, type EpisodeFolder, type EpisodeRunScores } from "./episode-runs.js";

export interface RunFolder {
  /** The run's key everywhere (reports, viewer, comparisons): never its model, which two runs may share. */
  dir: string;
  benchmark: string;
  model: string;
  /** The run's label (`--name`, config `name:`) and control, when it recorded them. */
  name?: string;
  control?: string;
  /** The dataset the run read (absolute). */
  data: string;
  promptSource: string;
  benchmarkOptions: BenchmarkOptions;
  /** "finished": scores.json and items.jsonl are final; "in progress": live files newer than them. */
  state: "finished" | "in progress";
  /** scores.json (null when the run has not finished once). */
  scores: ScoresDocument | null;
  results: ItemResult[];
  /** Total questions when known (the live header's count while in progress). */
  total: number;
  /** Lines that could not be read, outputs that do not belong together: shown, never skipped silently. */
  problems: DataProblem[];
  /**
   * live.jsonl's last line when it lacks its newline: a result being written (`writing`: a live
   * process holds the folder's lock) or cut off by a run that stopped (resuming rewrites it).
   */
  partialLine: { line: number; writing: boolean } | null;
  /** A run of episodes (`navigate vcn`): its scores.json and episode records; `scores` and `results` then stay empty. */
  navigation?: EpisodeFolder;
}

/** A folder, or a scores.json file inside one. */
export function runDirOf(input: string): string {
  if (!existsSync(input)) throw new UsageError(`no run at ${input}`);
  return statSync(input).isDirectory() ? input : path.dirname(input);
}

/**
 * The file a path relative to a run folder names, if it lies inside the folder (after resolving
 * links); "forbidden" for anything that tries to leave it (.., an absolute path, a NUL byte).
 */
export function fileInRunFolder(runDir: string, relative: string): string | "forbidden" | "missing" {
  if (relative.includes("\0") || relative.split(/[\\/]/).some((part) => part === "..") || path.isAbsolute(relative)) return "forbidden";
  const root = realpathSync(runDir);
  const candidate = path.resolve(root, relative);
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return "forbidden";
  if (!existsSync(candidate)) return "missing";
  const real = realpathSync(candidate);
  if (real !== root && !real.startsWith(root + path.sep)) return "forbidden";
  return statSync(real).isFile() ? real : "missing";
}

/** A JSON file of a run folder; a UsageError that locates the defect (never quoting the file) when it is not JSON. */
export function readJsonFile<T>(file: string): T {
  const parsed = parseJson(readFileSync(file, "utf8"));
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.message}`);
  return parsed.value as T;
}

/** A problem with a run folder's files, for messages: where, what, and who is writing it now. */
export class RunFolderError extends UsageError {
  constructor(readonly problems: DataProblem[]) {
    super(`the run folder has problems; nothing was reported:\n${problems.slice(0, 20).map((p) => `  - ${formatProblem(p)}`).join("\n")}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ""}`);
  }
}

/** Refuse runs whose files are damaged or do not belong together (report, overlay). */
export function assertIntact(runs: RunFolder[]): void {
  const problems = runs.flatMap((run) => run.problems);
  if (problems.length > 0) throw new RunFolderError(problems);
}

/** When a run holds the folder's lock, problems may be a write in progress: say so. */
function withWriter(dir: string, problems: DataProblem[]): DataProblem[] {
  if (problems.length === 0) return problems;
  const writer = activeWriter(dir);
  if (!writer) return problems;
  return [...problems, { file: path.join(dir, LOCK_FILE), message: `a spatialprobe process (pid ${writer.pid} on ${writer.host}) is writing this folder now; try again when it has finished` }];
}

/**
 * The checks behind a finished run's outputs: every items.jsonl line parses, and items.jsonl and
 * scores.json are the ones outputs.json records.
 */
export function finishedResults(dir: string, scores: ScoresDocument): ResultLines {
  const read = readResultLines(path.join(dir, "items.jsonl"), "final");
  return { ...read, problems: withWriter(dir, [...read.problems, ...outputsMismatch(dir, scores as { created_at?: unknown })]) };
}

/** `name` and `control` of a live header or scores.json, when they are strings. */
function identityOf(doc: Record<string, unknown>): { name?: string; control?: string } {
  return {
    ...(typeof doc["name"] === "string" ? { name: doc["name"] } : {}),
    ...(typeof doc["control"] === "string" ? { control: doc["control"] } : {}),
  };
}

const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : -1);

export function readRunFolder(input: string): RunFolder {
  const dir = path.resolve(runDirOf(input));
  const scoresFile = path.join(dir, "scores.json");
  const liveFile = path.join(dir, LIVE_HEADER);
  const hasScores = existsSync(scoresFile);
  const scores = hasScores ? readJsonFile<ScoresDocument>(scoresFile) : null;
  const live = existsSync(liveFile) && mtime(liveFile) >= mtime(scoresFile) ? readJsonFile<LiveHeader>(liveFile) : null;
  const episodic = episodeBenchmarkOf(scores, (file) => existsSync(path.join(dir, file)));
  // Before its scores.json, a folder is a run of episodes when it has their files and no item run's.
  if (episodic !== undefined && (scores || (!existsSync(path.join(dir, LIVE_HEADER)) && !existsSync(path.join(dir, "items.jsonl"))))) {
    const run = episodeRunsOf(episodic).readFolder(dir, scores as EpisodeRunScores | null);
    return { ...run, problems: withWriter(dir, run.problems) };
  }
  if (!scores && !live) throw new UsageError(`${input} holds no scores.json (and no run in progress)`);
  if (live) {
    const read = readResultLines(path.join(dir, LIVE_RESULTS), "live");
    return {
      dir,
      benchmark: live.benchmark,
      model: live.model,
      ...identityOf(live as unknown as Record<string, unknown>),
      data: live.data,
      promptSource: live.prompt_source,
      benchmarkOptions: live.benchmark_options as BenchmarkOptions,
      state: "in progress",
      scores,
      results: read.results,
      total: live.n_total,
      problems: withWriter(dir, read.problems),
      partialLine: read.partialLine === null ? null : { line: read.partialLine, writing: activeWriter(dir) !== undefined },
    };
  }
  const s = scores!;
  const options = (s["run_options"] ?? {}) as { prompt_source?: string; benchmark_options?: BenchmarkOptions };
  const prompt = (s["prompt"] ?? {}) as { source?: unknown; variant?: unknown };
  const benchmark = getBenchmark(s.benchmark);
  const source = options.prompt_source ?? (typeof prompt.source === "string" ? prompt.source : typeof prompt.variant === "string" ? prompt.variant : benchmark.promptSources[0]!);
  const read = finishedResults(dir, s);
  return {
    dir,
    benchmark: s.benchmark,
    model: s.model,
    ...identityOf(s),
    data: typeof s["data"] === "string" ? (s["data"] as string) : "",
    promptSource: source,
    benchmarkOptions: options.benchmark_options ?? {},
    state: "finished",
    scores: s,
    results: read.results,
    total: typeof s["n_total"] === "number" ? (s["n_total"] as number) : read.results.length,
    problems: read.problems,
    partialLine: null,
  };
}

/**
 * The run's items, keyed by id, loaded from its dataset as the run asked them (benchmark options,
 * derived items of its prompt variant). Throws DataError/UsageError when the data is gone or broken.
 */
export function loadRunItems(run: RunFolder): Map<string, BenchItem> {
  if (!run.data || !existsSync(run.data)) throw new UsageError(`the data of ${run.dir} is not at ${run.data || "(not recorded)"}`);
  const base = getBenchmark(run.benchmark);
  const benchmark: Benchmark<BenchItem> = base.configure ? base.configure({ ...run.benchmarkOptions }) : base;
  const loaded = benchmark.load(run.data, undefined, { allowOutsideRoot: run.benchmarkOptions.allowOutsideRoot ?? false });
  if (loaded.problems.length > 0) throw new DataError(loaded.problems);
  const items = benchmark.deriveItems ? benchmark.deriveItems(loaded.items, { source: run.promptSource, control: benchmark.promptControls[0]!, seed: 0 }) : loaded.items;
  return new Map(items.map((item) => [item.id, item]));
}

const isRunFolder = (dir: string) => ["scores.json", LIVE_HEADER, ...episodeRunMarkers()].some((file) => existsSync(path.join(dir, file)));

/**
 * Run folders named directly, or found one level below a folder that holds several (e.g.
 * `runs/demo`): the viewer and the HTML report accept either.
 */
export function expandRunFolders(inputs: string[]): string[] {
  return inputs.flatMap((input) => {
    if (!existsSync(input)) throw new UsageError(`no run at ${input}`);
    if (!statSync(input).isDirectory() || isRunFolder(input)) return [input];
    const children = readdirSync(input, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && isRunFolder(path.join(input, entry.name)))
      .map((entry) => path.join(input, entry.name))
      .sort();
    if (children.length === 0) throw new UsageError(`${input} is not a run folder and holds none`);
    return children;
  });
}
