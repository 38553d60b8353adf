/**
 * Logs of the released VCN-Bench evaluation (siqiZ805/VCN-Bench run_eval_mvdualvln.py with
 * src/logger.py) converted to our trajectory format.
 *
 * Layout: one folder per finished episode, `<scene>_ep_<episode_id>/result.json` (scene: the
 * Matterport3D scene folder name; episode_id as the episode file gives it), written once the
 * episode ends; a folder without result.json is an episode the run had not finished. result.json
 * (Python's json.dump, so an unreachable goal's distance is written `Infinity`) holds
 *   step_0 ... step_K   one per model decision: {position: [x, y, z] where the decision was
 *                       made, vlm_output: {pred_frame_idx, view_direct, view_idx, pixel: [u, v],
 *                       stop: "true" | "false"}, goal, hist_rgbs}
 *   final_position      where the agent ended
 *   success_by_distance final geodesic distance < success distance (no STOP needed)
 *   dist_to_goal        that final geodesic distance (NOT the episode's start distance)
 *   nav_dist            the path length it measured (0.1 m voxel steps of the executor)
 *   gt_dist             the episode's dist_to_goal + 1e-6
 *   spl_by_distance     success_by_distance × gt_dist / max(gt_dist, nav_dist)
 *
 * The conversion: kind "waypoints", positions = the step positions then the final position,
 * stop = the last step's stop flag said "true" (its loop breaks on it; other ends are the step
 * limit, an unreadable reply or a failed step), final_distance = dist_to_goal, path_length =
 * nav_dist, goal_frames = each step's pred_frame_idx.
 */
import { existsSync, readdirSync } from "node:fs";
import { DataRoot, followUserPath } from "../../core/dataroot.js";
import path from "node:path";
import { z } from "zod";
import { pyJsonDecode, type PyValue } from "../../core/pycompat/json.js";
import { MAX_DISTANCE_M, nonNegativeMetres, point, positiveMetres, safeId } from "../../core/limits.js";
import { appendAll, DataError, problemList, type DataProblem } from "../../core/problems.js";
import type { NavEpisode, Trajectory } from "./episodes.js";
import { RELEASED_GT_EPSILON } from "./navigation.js";
import { issueList } from "./schema.js";

/** What the released evaluation itself concluded about one episode. */
export interface ReleasedVerdict {
  success_by_distance: boolean;
  spl_by_distance: number;
  gt_dist: number;
  dist_to_goal: number;
  nav_dist: number;
}

export interface ReleasedLog {
  /** The episode folder, `<scene>_ep_<episode_id>`. */
  folder: string;
  scene: string;
  episode_id: string;
  trajectory: Trajectory;
  logged: ReleasedVerdict;
}

export interface ReleasedLogs {
  logs: ReleasedLog[];
  /** Episode folders without result.json (not finished), sorted. */
  unfinished: string[];
}

const FOLDER = /^(.+)_ep_(.+)$/;
const STEP_KEY = /^step_(0|[1-9]\d*)$/;

const position = point(3);
const stepSchema = z.looseObject({
  position,
  vlm_output: z.looseObject({
    pred_frame_idx: safeId(),
    stop: z.union([z.string(), z.boolean()]),
  }),
});
const distanceOrInfinity = z.custom<number>(
  (v) => typeof v === "number" && v >= 0 && (v <= MAX_DISTANCE_M || v === Infinity),
  `expected a distance from 0 to ${MAX_DISTANCE_M} metres (Infinity: unreachable)`,
);
const resultSchema = z.looseObject({
  final_position: position,
  success_by_distance: z.boolean(),
  dist_to_goal: distanceOrInfinity,
  nav_dist: nonNegativeMetres(MAX_DISTANCE_M),
  gt_dist: positiveMetres(MAX_DISTANCE_M),
  spl_by_distance: z.number().min(0).max(1),
});

/** A decoded Python JSON value as plain data: integers as numbers, Infinity kept. */
function plain(value: PyValue): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  return value;
}

/** The released stop flag: the reader lower-cases and strips it and the loop compares it with "true". */
const saidStop = (flag: string | boolean) => flag === true || (typeof flag === "string" && flag.trim().toLowerCase() === "true");

/** One result.json (its decoded value) -> a log, or the problems found (file and field). */
export function parseReleasedResult(json: unknown, file: string, folder: string): { log?: ReleasedLog; problems: DataProblem[] } {
  const problems = problemList();
  const name = FOLDER.exec(folder);
  if (!name) return { problems: [{ file, message: `the folder name ${folder} is not <scene>_ep_<episode_id>` }] };
  if (typeof json !== "object" || json === null || Array.isArray(json)) return { problems: [{ file, message: "expected a JSON object" }] };
  const record = json as Record<string, unknown>;
  const top = resultSchema.safeParse(record);
  if (!top.success) for (const { field, message } of issueList(top.error.issues)) problems.push({ file, ...(field ? { field } : {}), message });
  const indices = Object.keys(record).flatMap((k) => {
    const m = STEP_KEY.exec(k);
    return m ? [Number(m[1])] : [];
  }).sort((a, b) => a - b);
  const missing = indices.findIndex((k, i) => k !== i);
  if (missing >= 0) problems.push({ file, field: `step_${missing}`, message: `steps must run step_0 ... step_${indices.length - 1} without gaps; step_${missing} is missing` });
  const steps: Array<z.infer<typeof stepSchema>> = [];
  for (const k of indices) {
    const parsed = stepSchema.safeParse(record[`step_${k}`]);
    if (parsed.success) steps.push(parsed.data);
    else for (const { field, message } of issueList(parsed.error.issues)) problems.push({ file, field: `step_${k}${field ? `.${field}` : ""}`, message });
  }
  if (problems.length > 0 || !top.success) return { problems };
  const r = top.data;
  const trajectory: Trajectory = {
    episode_id: name[2]!,
    positions: [...steps.map((s) => s.position), r.final_position],
    stop: steps.length > 0 && saidStop(steps[steps.length - 1]!.vlm_output.stop),
    final_distance: r.dist_to_goal,
    path_length: r.nav_dist,
    kind: "waypoints",
    goal_frames: steps.map((s) => s.vlm_output.pred_frame_idx),
  };
  const logged: ReleasedVerdict = { success_by_distance: r.success_by_distance, spl_by_distance: r.spl_by_distance, gt_dist: r.gt_dist, dist_to_goal: r.dist_to_goal, nav_dist: r.nav_dist };
  return { log: { folder, scene: name[1]!, episode_id: name[2]!, trajectory, logged }, problems };
}

/** Every finished episode under a released output folder, sorted by folder name. Throws DataError with every problem. */
export function readReleasedLogs(dir: string): ReleasedLogs {
  if (!existsSync(dir)) throw new DataError([{ file: dir, message: "released log folder not found" }]);
  const problems = problemList();
  const logs: ReleasedLog[] = [];
  const unfinished: string[] = [];
  const seen = new Map<string, string>();
  const root = new DataRoot(followUserPath(dir));
  const folders = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && FOLDER.test(d.name)).map((d) => d.name).sort();
  for (const folder of folders) {
    const file = path.join(dir, folder, "result.json");
    const read = root.readText(`${folder}/result.json`, { what: "log" });
    if (!read.ok && read.missing) {
      unfinished.push(folder);
      continue;
    }
    if (!read.ok) {
      problems.push({ file, message: read.message });
      continue;
    }
    const decoded = pyJsonDecode(read.text);
    if (!decoded.ok) {
      problems.push({ file, message: decoded.failure.kind === "syntax" ? `invalid JSON: ${decoded.failure.message}` : "invalid JSON: nested too deeply" });
      continue;
    }
    const { log, problems: found } = parseReleasedResult(plain(decoded.value), file, folder);
    appendAll(problems, found);
    if (!log) continue;
    const first = seen.get(log.episode_id);
    if (first !== undefined) {
      problems.push({ file, message: `a second log for episode ${log.episode_id} (the first is ${first})` });
      continue;
    }
    seen.set(log.episode_id, folder);
    logs.push(log);
  }
  if (folders.length === 0) problems.push({ file: dir, message: "no <scene>_ep_<episode_id> folders: not an output folder of the released evaluation" });
  if (problems.length > 0) throw new DataError(problems);
  return { logs, unfinished };
}

/**
 * Logs that do not belong to the episode file: a folder scene that the episode's scene_id does not
 * contain (the released loop selects episodes by that substring), or a gt_dist other than the
 * episode's dist_to_goal + 1e-6 (by more than 1e-6 m).
 */
export function releasedLogProblems(logs: readonly ReleasedLog[], episodes: readonly NavEpisode[], dir: string): DataProblem[] {
  const byId = new Map(episodes.map((e) => [e.episode_id, e]));
  const problems = problemList();
  for (const log of logs) {
    const episode = byId.get(log.episode_id);
    if (!episode) continue;
    const file = path.join(dir, log.folder, "result.json");
    if (episode.scene_id !== undefined && !episode.scene_id.includes(log.scene)) problems.push({ file, message: `the folder names scene ${log.scene}, but episode ${log.episode_id} is in ${episode.scene_id}` });
    if (episode.dist_to_goal !== undefined && Math.abs(log.logged.gt_dist - (episode.dist_to_goal + RELEASED_GT_EPSILON)) > 1e-6) {
      problems.push({ file, field: "gt_dist", message: `${log.logged.gt_dist}, but episode ${log.episode_id} has dist_to_goal ${episode.dist_to_goal} (+ 1e-6): the logs come from another episode file` });
    }
  }
  return problems;
}
