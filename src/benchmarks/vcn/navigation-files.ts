/**
 * Navigation metrics from files: a released episode file, a trajectory log, and optionally a
 * finished goal-identification run (its folder) for the paper's conditional tables.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ItemResult } from "../../core/benchmark.js";
import { readJsonObjects } from "../../core/jsonl.js";
import { DataError, UsageError, type DataProblem } from "../../core/problems.js";
import { loadEpisodes, loadTrajectories } from "./episodes.js";
import { loadVcn } from "./load.js";
import { goalIdResults, navigationReport, type GoalIdResult, type NavigationReport, type NavOptions } from "./navigation.js";

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
  const scores = JSON.parse(readFileSync(scoresFile, "utf8")) as { benchmark?: unknown; data?: unknown };
  if (scores.benchmark !== "vcn") throw new UsageError(`--goal-run ${runDir}: scores.json is from benchmark "${String(scores.benchmark)}", not vcn`);
  if (typeof scores.data !== "string") throw new UsageError(`--goal-run ${runDir}: scores.json does not name its data folder`);
  const { items, problems } = loadVcn(scores.data);
  if (problems.length > 0) throw new DataError(problems);
  const readProblems: DataProblem[] = [];
  const results = readJsonObjects(itemsFile, itemsFile, readProblems).map(({ value }) => value as unknown as ItemResult);
  if (readProblems.length > 0) throw new DataError(readProblems);
  return goalIdResults(items, results);
}

export interface NavigationFiles {
  episodes: string;
  trajectories: string;
  goalRun?: string;
}

export function navigationFromFiles(files: NavigationFiles, options: NavOptions = {}): NavigationReport {
  const episodes = loadEpisodes(files.episodes);
  const trajectories = loadTrajectories(files.trajectories);
  const goal = files.goalRun ? goalIdFromRun(files.goalRun) : undefined;
  return navigationReport(episodes, trajectories, goal, options);
}
