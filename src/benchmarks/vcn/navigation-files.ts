/**
 * Navigation metrics from files: a released episode file, a trajectory log (or the released
 * evaluation's result.json folders, released-logs.ts), and optionally a finished
 * goal-identification run (its folder) for the paper's conditional tables.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseJson } from "../../core/jsonl.js";
import { outputsMismatch, readResultLines } from "../../core/outputs.js";
import { DataError, UsageError, type DataProblem } from "../../core/problems.js";
import { loadEpisodes, loadTrajectories } from "./episodes.js";
import { loadVcn } from "./load.js";
import { goalIdResults, navigationReport, type GoalIdResult, type NavigationReport, type NavOptions } from "./navigation.js";
import { readReleasedLogs, releasedLogProblems } from "./released-logs.js";

/**
 * Goal identification per episode from a run folder written by `run vcn` or `score vcn`:
 * scores.json names the data it was scored on, items.jsonl holds one result per question.
 */
export function goalIdFromRun(runDir: string): GoalIdResult[] {
  const scoresFile = path.join(runDir, "scores.json");
  const itemsFile = path.join(runDir, "items.jsonl");
  for (const file of [scoresFile, itemsFile]) {
    if (!existsSync(file)) throw new UsageError(`--goal-run ${runDir}: ${path.basename(file)} not found (give the output folder of \`spatialprobe run vcn\`)`);
  }
  const parsed = parseJson(readFileSync(scoresFile, "utf8"));
  if (!parsed.ok) throw new UsageError(`--goal-run ${runDir}: scores.json: ${parsed.message}`);
  const scores = parsed.value as { benchmark?: unknown; data?: unknown; allow_outside_root?: unknown };
  if (scores.benchmark !== "vcn") throw new UsageError(`--goal-run ${runDir}: scores.json is from benchmark "${String(scores.benchmark)}", not vcn`);
  if (typeof scores.data !== "string") throw new UsageError(`--goal-run ${runDir}: scores.json does not name its data folder`);
  const { items, problems } = loadVcn(scores.data, { allowOutsideRoot: scores.allow_outside_root === true });
  if (problems.length > 0) throw new DataError(problems);
  // A damaged line, or items.jsonl not the one scores.json was written with, is an error (file, line).
  const read = readResultLines(itemsFile, "final");
  const readProblems: DataProblem[] = [...read.problems, ...outputsMismatch(runDir, scores as { created_at?: unknown })];
  if (readProblems.length > 0) throw new DataError(readProblems);
  return goalIdResults(items, read.results);
}

export interface NavigationFiles {
  episodes: string;
  /** A trajectory log (JSONL, episodes.ts); exactly one of trajectories and releasedLogs. */
  trajectories?: string;
  /** An output folder of the released evaluation (one `<scene>_ep_<id>/result.json` per episode). */
  releasedLogs?: string;
  goalRun?: string;
}

export function navigationFromFiles(files: NavigationFiles, options: NavOptions = {}): NavigationReport {
  if ((files.trajectories === undefined) === (files.releasedLogs === undefined)) throw new UsageError("give exactly one of --trajectories (a trajectory log) and --released-logs (the released evaluation's output folder)");
  const episodes = loadEpisodes(files.episodes);
  const goal = files.goalRun ? goalIdFromRun(files.goalRun) : undefined;
  if (files.trajectories !== undefined) {
    const trajectories = loadTrajectories(files.trajectories);
    return navigationReport(episodes, trajectories, goal, { files: { episodes: files.episodes, trajectories: files.trajectories }, ...options });
  }
  const dir = files.releasedLogs!;
  const { logs, unfinished } = readReleasedLogs(dir);
  const problems = releasedLogProblems(logs, episodes, dir);
  if (problems.length > 0) throw new DataError(problems);
  const report = navigationReport(episodes, logs.map((l) => l.trajectory), goal, { files: { episodes: files.episodes, trajectories: dir }, ...options });
  // The released code's own verdicts, averaged in the same (folder) order, beside ours.
  const n = logs.length;
  report.imported = {
    source: "released-logs",
    dir,
    logs: n,
    unfinished,
    logged_SR: n > 0 ? logs.reduce((s, l) => s + Number(l.logged.success_by_distance), 0) / n : null,
    logged_SPL: n > 0 ? logs.reduce((s, l) => s + l.logged.spl_by_distance, 0) / n : null,
  };
  return report;
}
