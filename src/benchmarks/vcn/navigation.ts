/**
 * Navigation metrics over episodes and trajectory logs from any simulator (episodes.ts formats),
 * as VCN-Bench defines them (§5.1, App. C.1; habitat-lab's SPL):
 *
 *   l         the geodesic shortest-path length from the start to the nearest goal view point: the
 *             episode's dist_to_goal, else the caller's shortestPath(episode) (the navigate runner
 *             asks its simulator). An episode with neither is an error: the straight start-goal
 *             distance is never used in its place (around a wall it is shorter than any path).
 *   d         distance from the final position to the nearest view point of any goal (a goal
 *             without view points: its position). "euclidean" (the paper's, default): straight
 *             lines, all three coordinates or the floor plane with ignoreHeight; "geodesic": the
 *             log's final_distance, else the caller's finalDistance(trajectory, episode).
 *   p         the path walked: Σ |x_{t+1} − x_t| over the logged positions; waypoint logs, whose
 *             positions are decisions, use their path_length.
 *   SR        STOP was called and d < successDistance (strictly; 1 m).
 *   SPL       SR × l / max(l, p); max(l, p) = 0 (start on the goal, no motion) gives SR.
 *   soft SPL  max(0, 1 − d / l) × l / max(l, p), no STOP needed; l = 0: 1 if d = 0 else 0.
 *   SSR       STOP was called and d < ssrDistance (3 m; §6.3).
 *   RSR       the final position is in the target room (the log's last `rooms` entry, or
 *             options.roomOf(position)); STOP is not needed unless rsrRequiresStop. Episodes with
 *             no known target room or no room information are left out (rsr_n counts the rest).
 *   steps, collisions  mean actions and collisions per episode, over the logs that give them.
 *
 * metricVariant "released" scores as the released evaluation (siqiZ805/VCN-Bench
 * run_eval_mvdualvln.py) does instead: d is geodesic, success needs no STOP (its loop also ends at
 * its step limit or when a step fails, and the final distance decides), l is dist_to_goal + 1e-6
 * (its logger adds that before dividing) and p is the path length the simulator logged
 * (path_length; Σ displacements when the log has none). SSR follows the same rule at 3 m.
 *
 * An episode without a trajectory counts as a failure on every metric and is counted as missing.
 * Every trajectory is checked against the action space first (episodes.ts trajectoryProblems):
 * one bad log makes the whole report a DataError listing every problem, never a partial score.
 *
 * Beside the navigation tables (§6.3, Fig. 7): navigation given goal identification at the first
 * step, P(N | G) and P(N | ¬G) (from per-episode facts the caller gives, else a goal-identification
 * run joined by episode id), RSR given G over the R2O tasks, goal identification at the first and
 * last steps per task (Rid-SR for R2O tasks beside RSR, Oid-SR for Instance beside SSR), and
 * Pearson correlations of per-episode success and goal identification with the prior video's
 * frames, rooms and area.
 */
import type { ItemResult } from "../../core/benchmark.js";
import { appendAll, DataError, problemList, type DataProblem } from "../../core/problems.js";
import { pearson } from "../../stats/pearson.js";
import { averages, type Averages } from "./aggregate.js";
import { euclidean, trajectoryProblems, type NavEpisode, type Trajectory, type TrajectoryKind, type Vec } from "./episodes.js";

export { euclidean };
import type { EpisodeRecord } from "./navigate/types.js";
import { R2O_TASKS, TASK_CODES, type TaskCode } from "./schema.js";
import type { VcnItem } from "./types.js";

export const METRIC_VARIANTS = ["paper", "released"] as const;
export type MetricVariant = (typeof METRIC_VARIANTS)[number];

/** What each variant means, in one sentence each (recorded in every report). */
export const METRIC_VARIANT_NOTES: Readonly<Record<MetricVariant, string>> = {
  paper:
    "The paper's rule (§5.1, App. C.1): success is STOP within 1 m (Euclidean, strictly) of a goal view point; SPL divides by the geodesic shortest path l = dist_to_goal and the path walked.",
  released:
    "The released evaluation's rule (run_eval_mvdualvln.py): success is a final geodesic distance below 1 m whether or not STOP was called (the loop also ends at its step limit or a failed step); SPL uses l = dist_to_goal + 1e-6 and the path length the simulator logged.",
};

/** The released evaluation's logger adds this to dist_to_goal before dividing (src/logger.py, gt_dist). */
export const RELEASED_GT_EPSILON = 1e-6;

/** Per-episode facts from the caller for the goal-identification and correlation tables. */
export interface EpisodeFacts {
  episode_id: string;
  /** Goal identification at the first step: right, wrong, or unknown (null / absent). */
  goal_first?: boolean | null;
  /** Goal identification at the last step. */
  goal_last?: boolean | null;
  /** Prior-video attributes (Fig. 7): frames shown, rooms covered, floor area covered (m^2). */
  prior?: EpisodeRecord["prior"];
}

export interface NavOptions {
  /** "paper" (default) or "released"; see the file comment. */
  metricVariant?: MetricVariant;
  successDistance?: number;
  ssrDistance?: number;
  /** How d is measured: "euclidean" (the paper's default) or "geodesic" (the released variant's, its only choice). */
  distance?: "euclidean" | "geodesic";
  ignoreHeight?: boolean;
  rsrRequiresStop?: boolean;
  roomOf?: (position: Vec, episode: NavEpisode) => string | null;
  /** l for episodes without dist_to_goal (metres; geodesic). */
  shortestPath?: (episode: NavEpisode) => number;
  /** The geodesic d for logs without final_distance (metres; Infinity: unreachable). */
  finalDistance?: (trajectory: Trajectory, episode: NavEpisode) => number;
  /** Facts per episode (goal identification at the first and last steps, prior-video attributes). */
  episodeFacts?: readonly EpisodeFacts[];
  /** Names for problems: the episode file and the trajectory source. */
  files?: { episodes?: string; trajectories?: string };
}

export const NAV_DEFAULTS = { metricVariant: "paper" as MetricVariant, successDistance: 1.0, ssrDistance: 3.0, distance: "euclidean" as const, ignoreHeight: false, rsrRequiresStop: false };

export interface EpisodeNav {
  episode_id: string;
  task_type: string | null;
  has_trajectory: boolean;
  /** The log's kind (null: no log). */
  kind: TrajectoryKind | null;
  stop: boolean;
  /** Actions taken: the logged actions, or positions - 1 in an action log; null for waypoint logs without actions. */
  steps: number | null;
  /** Model decisions of a waypoint log (positions - 1); null otherwise. */
  decisions: number | null;
  /** Steps cut short by an obstacle, when the log gives collisions. */
  collisions: number | null;
  path_length: number;
  /** l (with the released variant's 1e-6 added). */
  shortest_path: number;
  /** d (Infinity when the simulator found no path; null without a log). */
  distance_to_goal: number | null;
  success: number;
  spl: number;
  soft_spl: number;
  ssr: number;
  /** null: no target room or no room information. */
  rsr: number | null;
}

export interface NavSummary {
  n: number;
  SR: number | null;
  SPL: number | null;
  soft_SPL: number | null;
  SSR: number | null;
  RSR: number | null;
  rsr_n: number;
  /** Mean final distance to the goal over episodes with a log and a finite distance (navigation error). */
  DTG: number | null;
  missing: number;
  /** Mean actions per episode, over episodes whose action count is known. */
  steps: number | null;
  /** Mean collisions per episode, over episodes whose log gives collisions. */
  collisions: number | null;
}

interface Resolved {
  variant: MetricVariant;
  successDistance: number;
  ssrDistance: number;
  distance: "euclidean" | "geodesic";
  ignoreHeight: boolean;
  rsrRequiresStop: boolean;
  /** Success and SSR need STOP (the paper's rule). */
  needsStop: boolean;
}

/** The options in force; RangeError for a variant or distance that is unknown or contradicts the variant. */
export function resolveNavOptions(options: NavOptions = {}): Resolved {
  const variant = options.metricVariant ?? NAV_DEFAULTS.metricVariant;
  if (!METRIC_VARIANTS.includes(variant)) throw new RangeError(`metric variant must be ${METRIC_VARIANTS.join(" or ")}, got "${String(variant)}"`);
  const distance = options.distance ?? (variant === "released" ? "geodesic" : NAV_DEFAULTS.distance);
  if (distance !== "euclidean" && distance !== "geodesic") throw new RangeError(`distance must be euclidean or geodesic, got "${String(distance)}"`);
  if (variant === "released" && distance !== "geodesic") throw new RangeError("the released metric variant measures the final distance geodesically; distance euclidean contradicts it");
  for (const [name, value] of [["success distance", options.successDistance], ["SSR distance", options.ssrDistance]] as const) {
    if (value !== undefined && !(value > 0 && Number.isFinite(value))) throw new RangeError(`${name} must be a positive number of metres, got ${value}`);
  }
  return {
    variant,
    successDistance: options.successDistance ?? NAV_DEFAULTS.successDistance,
    ssrDistance: options.ssrDistance ?? NAV_DEFAULTS.ssrDistance,
    distance,
    ignoreHeight: options.ignoreHeight ?? NAV_DEFAULTS.ignoreHeight,
    rsrRequiresStop: options.rsrRequiresStop ?? NAV_DEFAULTS.rsrRequiresStop,
    needsStop: variant === "paper",
  };
}

/** Straight-line distance from a position to the nearest view point of any goal. */
export function distanceToGoal(position: Vec, episode: NavEpisode, ignoreHeight = false): number {
  let best = Infinity;
  for (const goal of episode.goals) {
    const points = goal.view_points.length > 0 ? goal.view_points : [goal.position];
    for (const v of points) best = Math.min(best, euclidean(position, v, ignoreHeight));
  }
  return best;
}

/** Σ |x_{t+1} − x_t|. */
export function pathLength(positions: readonly Vec[], ignoreHeight = false): number {
  let total = 0;
  for (let i = 1; i < positions.length; i++) total += euclidean(positions[i - 1]!, positions[i]!, ignoreHeight);
  return total;
}

/** l and the geodesic d of one episode, or the problems that keep it from being scored. */
interface EpisodeInputs {
  l: number | null;
  geodesicD: number | null;
  problems: DataProblem[];
}

function episodeInputs(episode: NavEpisode, trajectory: Trajectory | undefined, r: Resolved, options: NavOptions): EpisodeInputs {
  const problems: DataProblem[] = [];
  const episodesFile = options.files?.episodes ?? "episodes";
  const trajectoriesFile = options.files?.trajectories ?? "trajectories";
  const field = `episodes[id=${episode.episode_id}].dist_to_goal`;
  let l: number | null = null;
  if (episode.dist_to_goal !== undefined) l = episode.dist_to_goal;
  else if (options.shortestPath) {
    const given = options.shortestPath(episode);
    if (typeof given === "number" && given >= 0 && Number.isFinite(given)) l = given;
    else problems.push({ file: episodesFile, field, message: `no dist_to_goal, and the shortestPath function gave ${String(given)} (a finite length >= 0 is needed)` });
  } else {
    problems.push({ file: episodesFile, field, message: "no dist_to_goal: SPL needs the geodesic shortest path from the start (the straight start-goal distance is not used in its place); give it in the episode file or pass shortestPath" });
  }
  let geodesicD: number | null = null;
  if (trajectory && r.distance === "geodesic") {
    if (trajectory.final_distance !== undefined) geodesicD = trajectory.final_distance;
    else if (options.finalDistance) {
      const given = options.finalDistance(trajectory, episode);
      if (typeof given === "number" && given >= 0) geodesicD = given;
      else problems.push({ file: trajectoriesFile, field: "final_distance", message: `episode ${episode.episode_id}: the finalDistance function gave ${String(given)} (a length >= 0 or Infinity is needed)` });
    } else {
      problems.push({ file: trajectoriesFile, field: "final_distance", message: `episode ${episode.episode_id}: geodesic final distances need the log's final_distance (or a finalDistance function)` });
    }
  }
  return { l, geodesicD, problems };
}

/** p: waypoint logs their path_length; the released variant the logged path_length when there is one; else Σ displacements. */
function pathWalked(trajectory: Trajectory, r: Resolved): number {
  if ((trajectory.kind ?? "actions") === "waypoints" || (r.variant === "released" && trajectory.path_length !== undefined)) return trajectory.path_length!;
  return pathLength(trajectory.positions, r.ignoreHeight);
}

function scoreEpisode(episode: NavEpisode, trajectory: Trajectory | undefined, inputs: EpisodeInputs, r: Resolved, options: NavOptions): EpisodeNav {
  const l = inputs.l! + (r.variant === "released" ? RELEASED_GT_EPSILON : 0);
  const base = { episode_id: episode.episode_id, task_type: episode.task_type ?? null, shortest_path: l };
  if (!trajectory) {
    return { ...base, has_trajectory: false, kind: null, stop: false, steps: null, decisions: null, collisions: null, path_length: 0, distance_to_goal: null, success: 0, spl: 0, soft_spl: 0, ssr: 0, rsr: episode.target_room ? 0 : null };
  }
  const kind = trajectory.kind ?? "actions";
  const positions = trajectory.positions;
  const final = positions[positions.length - 1]!;
  const d = r.distance === "geodesic" ? inputs.geodesicD! : distanceToGoal(final, episode, r.ignoreHeight);
  const p = pathWalked(trajectory, r);
  const ended = r.needsStop ? trajectory.stop : true;
  const success = ended && d < r.successDistance ? 1 : 0;
  const efficiency = Math.max(l, p) > 0 ? l / Math.max(l, p) : 1;
  const softSuccess = l > 0 ? Math.max(0, 1 - d / l) : d === 0 ? 1 : 0;
  const room = options.roomOf ? options.roomOf(final, episode) : trajectory.rooms ? trajectory.rooms[trajectory.rooms.length - 1] ?? null : undefined;
  let rsr: number | null = null;
  if (episode.target_room && room !== undefined) rsr = room === episode.target_room && (!r.rsrRequiresStop || trajectory.stop) ? 1 : 0;
  return {
    ...base,
    has_trajectory: true,
    kind,
    stop: trajectory.stop,
    steps: trajectory.actions ? trajectory.actions.length : kind === "actions" ? positions.length - 1 : null,
    decisions: kind === "waypoints" ? positions.length - 1 : null,
    collisions: trajectory.collisions ? trajectory.collisions.filter(Boolean).length : null,
    path_length: p,
    distance_to_goal: d,
    success,
    spl: success * efficiency,
    soft_spl: softSuccess * efficiency,
    ssr: ended && d < r.ssrDistance ? 1 : 0,
    rsr,
  };
}

/** Metrics of one episode (trajectory undefined: a failure, counted as missing). Throws DataError on bad inputs. */
export function episodeMetrics(episode: NavEpisode, trajectory: Trajectory | undefined, options: NavOptions = {}): EpisodeNav {
  const r = resolveNavOptions(options);
  const inputs = episodeInputs(episode, trajectory, r, options);
  const problems = [...inputs.problems, ...(trajectory ? trajectoryProblems(trajectory, { file: options.files?.trajectories ?? "trajectories" }) : [])];
  if (problems.length > 0) throw new DataError(problems);
  return scoreEpisode(episode, trajectory, inputs, r, options);
}

const mean = (values: number[]): number | null => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null);
const known = <T>(values: Array<T | null>): T[] => values.filter((v): v is T => v !== null);

export function summarizeNavigation(list: readonly EpisodeNav[]): NavSummary {
  const rsr = known(list.map((e) => e.rsr));
  return {
    n: list.length,
    SR: mean(list.map((e) => e.success)),
    SPL: mean(list.map((e) => e.spl)),
    soft_SPL: mean(list.map((e) => e.soft_spl)),
    SSR: mean(list.map((e) => e.ssr)),
    RSR: mean(rsr),
    rsr_n: rsr.length,
    DTG: mean(known(list.map((e) => e.distance_to_goal)).filter(Number.isFinite)),
    missing: list.filter((e) => !e.has_trajectory).length,
    steps: mean(known(list.map((e) => e.steps))),
    collisions: mean(known(list.map((e) => e.collisions))),
  };
}

/** Goal identification per navigation episode (join key: episode id). */
export interface GoalIdResult {
  episode_id: string;
  correct: boolean;
}

/** Navigation split by goal identification at the first step: right (G), wrong (¬G), unknown. */
export interface ConditionalTable {
  correct: NavSummary;
  wrong: NavSummary;
  no_result: NavSummary;
}

/** A share of episodes and how many it is over. */
export interface Rate {
  value: number | null;
  n: number;
}

/** One task: goal identification at the first and last steps, and the navigation metric the paper sets beside it (§6.3). */
export interface GoalIdRow {
  metric: "Rid-SR" | "Oid-SR";
  first: Rate;
  last: Rate;
  /** RSR for R2O tasks, SSR for Instance. */
  navigation: { metric: "RSR" | "SSR"; value: number | null; n: number };
}

export interface GoalIdGroup {
  first: Averages;
  last: Averages;
  navigation: { metric: "RSR" | "SSR"; value: Averages };
}

export interface GoalIdentificationTable {
  by_task: Record<string, GoalIdRow>;
  "Rid-SR": GoalIdGroup;
  "Oid-SR": GoalIdGroup;
}

export const PRIOR_ATTRIBUTES = ["frames", "rooms", "area_m2"] as const;
export type PriorAttribute = (typeof PRIOR_ATTRIBUTES)[number];
export const CORRELATED_OUTCOMES = ["success", "goal_first", "goal_last"] as const;
export type CorrelatedOutcome = (typeof CORRELATED_OUTCOMES)[number];

/** Pearson's r (null: fewer than 3 episodes or a constant column) over n episodes. */
export interface Correlation {
  r: number | null;
  n: number;
}

/** Per outcome (success, goal identification at the first / last step), r with each prior-video attribute. */
export type CorrelationRow = Record<CorrelatedOutcome, Record<PriorAttribute, Correlation>>;

/** Released result.json logs scored here: how many, and the means of their own logged success and SPL. */
export interface ImportedLogs {
  source: "released-logs";
  dir: string;
  logs: number;
  /** Folders without result.json (episodes the released run had not finished). */
  unfinished: string[];
  logged_SR: number | null;
  logged_SPL: number | null;
}

export interface NavigationReport {
  /** The metric rule in force, by name, and what it means. */
  metric_variant: MetricVariant;
  metric_variant_note: string;
  summary: NavSummary;
  by_task: Record<string, NavSummary>;
  /** Navigation given goal identification at the first step: P(N | G) = correct.SR, P(N | ¬G) = wrong.SR. */
  conditional?: ConditionalTable;
  /** The same over the R2O tasks only (the paper's RSR given G). */
  conditional_r2o?: ConditionalTable;
  /** Goal identification at the first and last steps per task, beside RSR (R2O) and SSR (Instance). */
  goal_identification?: GoalIdentificationTable;
  /** Pearson correlations with the prior video's attributes, per task type and over "all" episodes. */
  correlations?: Record<string, CorrelationRow>;
  /** Set when the logs were converted from the released evaluation's result.json files. */
  imported?: ImportedLogs;
  per_episode: EpisodeNav[];
  /** Trajectories whose episode id is not among the episodes (not scored). */
  unmatched_trajectories: string[];
  options: {
    success_distance: number;
    ssr_distance: number;
    distance: "euclidean" | "geodesic";
    ignore_height: boolean;
    rsr_requires_stop: boolean;
    room_source: string;
    shortest_path_source: string;
    goal_source: string | null;
  };
  definitions: Record<string, string>;
}

/** The definitions printed with a report, for a variant. */
export function navDefinitions(variant: MetricVariant): Record<string, string> {
  const stop = variant === "paper" ? "STOP called and " : "";
  const d = variant === "paper" ? "the distance" : "the geodesic distance";
  return {
    SR: `${stop}${d} from the final position to the nearest goal view point strictly below the success distance`,
    SPL: variant === "paper"
      ? "SR × l / max(l, p); l the geodesic shortest path from the start (dist_to_goal), p the path walked (summed displacements; waypoint logs: their path_length)"
      : "SR × l / max(l, p); l = dist_to_goal + 1e-6, p the path length the simulator logged (summed displacements when none)",
    soft_SPL: "max(0, 1 − d_T / l) × l / max(l, p), no STOP needed",
    SSR: `${stop}${d} strictly below the SSR distance (3 m)`,
    RSR: "the final position lies in the target room (episodes with a known target room and room information)",
    DTG: "mean final distance to the nearest goal view point (finite distances)",
    steps: "mean actions per episode (logs that give them)",
    collisions: "mean collisions per episode (logs that give them)",
    conditional: "navigation split by goal identification at the first step (G): P(N | G) is the SR of the identified row, P(N | ¬G) of the missed row",
    goal_identification: "share of episodes whose named prior-video frame is a success frame at the first and last steps: Rid-SR for R2O tasks (beside RSR), Oid-SR for Instance (beside SSR)",
    correlations: "Pearson's r over episodes of per-episode success or goal identification (0/1) with the prior video's frames, rooms and area; null with fewer than 3 episodes or a constant column",
  };
}

export const NAV_DEFINITIONS: Record<string, string> = navDefinitions("paper");

/** The facts by episode id; DataError for duplicates and impossible prior attributes. */
function factsById(facts: readonly EpisodeFacts[]): Map<string, EpisodeFacts> {
  const problems = problemList();
  const out = new Map<string, EpisodeFacts>();
  for (const f of facts) {
    if (out.has(f.episode_id)) problems.push({ file: "episode facts", field: "episode_id", message: `two fact records for episode ${f.episode_id}` });
    out.set(f.episode_id, f);
    const prior = f.prior;
    if (!prior) continue;
    for (const key of PRIOR_ATTRIBUTES) {
      const v = prior[key];
      if (v === null && key === "area_m2") continue;
      if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) problems.push({ file: "episode facts", field: `${f.episode_id}.prior.${key}`, message: `must be a finite number >= 0, got ${String(v)}` });
    }
  }
  if (problems.length > 0) throw new DataError(problems);
  return out;
}

const isTask = (t: string | null): t is TaskCode => t !== null && (TASK_CODES as readonly string[]).includes(t);
const isR2O = (t: string | null) => t !== null && (R2O_TASKS as readonly string[]).includes(t);

function conditionalTable(list: readonly EpisodeNav[], goalFirst: Map<string, boolean>): ConditionalTable {
  return {
    correct: summarizeNavigation(list.filter((e) => goalFirst.get(e.episode_id) === true)),
    wrong: summarizeNavigation(list.filter((e) => goalFirst.get(e.episode_id) === false)),
    no_result: summarizeNavigation(list.filter((e) => !goalFirst.has(e.episode_id))),
  };
}

const rateOf = (values: boolean[]): Rate => ({ value: mean(values.map(Number)), n: values.length });

/** Per-task 0/1 lists of a per-episode value (episodes of the five task types with a known value). */
function byTaskValues(list: readonly EpisodeNav[], value: (e: EpisodeNav) => number | null): Map<TaskCode, number[]> {
  const out = new Map<TaskCode, number[]>();
  for (const e of list) {
    const v = value(e);
    if (v === null || !isTask(e.task_type)) continue;
    out.set(e.task_type, [...(out.get(e.task_type) ?? []), v]);
  }
  return out;
}

function goalIdentificationTable(list: readonly EpisodeNav[], first: Map<string, boolean>, last: Map<string, boolean>): GoalIdentificationTable {
  const by_task: Record<string, GoalIdRow> = {};
  for (const task of TASK_CODES) {
    const rows = list.filter((e) => e.task_type === task);
    if (rows.length === 0) continue;
    const r2o = isR2O(task);
    const beside = known(rows.map((e) => (r2o ? e.rsr : e.ssr)));
    by_task[task] = {
      metric: r2o ? "Rid-SR" : "Oid-SR",
      first: rateOf(known(rows.map((e) => first.get(e.episode_id) ?? null))),
      last: rateOf(known(rows.map((e) => last.get(e.episode_id) ?? null))),
      navigation: { metric: r2o ? "RSR" : "SSR", value: mean(beside), n: beside.length },
    };
  }
  const firstByTask = byTaskValues(list, (e) => (first.has(e.episode_id) ? Number(first.get(e.episode_id)) : null));
  const lastByTask = byTaskValues(list, (e) => (last.has(e.episode_id) ? Number(last.get(e.episode_id)) : null));
  return {
    by_task,
    "Rid-SR": { first: averages(firstByTask, R2O_TASKS), last: averages(lastByTask, R2O_TASKS), navigation: { metric: "RSR", value: averages(byTaskValues(list, (e) => e.rsr), R2O_TASKS) } },
    "Oid-SR": { first: averages(firstByTask, ["instance"]), last: averages(lastByTask, ["instance"]), navigation: { metric: "SSR", value: averages(byTaskValues(list, (e) => e.ssr), ["instance"]) } },
  };
}

function correlationRow(list: readonly EpisodeNav[], facts: Map<string, EpisodeFacts>, first: Map<string, boolean>, last: Map<string, boolean>): CorrelationRow {
  const outcomeOf: Record<CorrelatedOutcome, (e: EpisodeNav) => number | null> = {
    success: (e) => e.success,
    goal_first: (e) => (first.has(e.episode_id) ? Number(first.get(e.episode_id)) : null),
    goal_last: (e) => (last.has(e.episode_id) ? Number(last.get(e.episode_id)) : null),
  };
  const row = {} as CorrelationRow;
  for (const outcome of CORRELATED_OUTCOMES) {
    row[outcome] = {} as Record<PriorAttribute, Correlation>;
    for (const attribute of PRIOR_ATTRIBUTES) {
      const xs: number[] = [];
      const ys: number[] = [];
      for (const e of list) {
        const y = outcomeOf[outcome](e);
        const x = facts.get(e.episode_id)?.prior?.[attribute];
        if (y === null || typeof x !== "number") continue;
        xs.push(x);
        ys.push(y);
      }
      row[outcome][attribute] = { r: pearson(xs, ys), n: xs.length };
    }
  }
  return row;
}

/**
 * Every metric and table for a set of episodes and their logs. Goal identification at the first
 * step comes from options.episodeFacts (goal_first) and, for episodes the facts leave unknown, from
 * goalIdResults (a goal-identification run joined by episode id). Throws DataError listing every
 * problem of the inputs (episodes without l, logs that break the action space, missing geodesic
 * distances, duplicate logs or facts).
 */
export function navigationReport(episodes: readonly NavEpisode[], trajectories: readonly Trajectory[], goalIdResults?: readonly GoalIdResult[], options: NavOptions = {}): NavigationReport {
  const r = resolveNavOptions(options);
  const trajectoriesFile = options.files?.trajectories ?? "trajectories";
  const byId = new Map<string, Trajectory>();
  const problems = problemList();
  for (const t of trajectories) {
    if (byId.has(t.episode_id)) problems.push({ file: trajectoriesFile, field: "episode_id", message: `two trajectories for episode ${t.episode_id}` });
    byId.set(t.episode_id, t);
    appendAll(problems, trajectoryProblems(t, { file: trajectoriesFile }));
  }
  const inputs = episodes.map((e) => episodeInputs(e, byId.get(e.episode_id), r, options));
  for (const i of inputs) appendAll(problems, i.problems);
  if (problems.length > 0) throw new DataError(problems);
  const facts = factsById(options.episodeFacts ?? []);
  const ids = new Set(episodes.map((e) => e.episode_id));
  const perEpisode = episodes.map((e, k) => scoreEpisode(e, byId.get(e.episode_id), inputs[k]!, r, options));
  const tasks = [...new Set(perEpisode.map((e) => e.task_type ?? "unknown"))].sort();

  const first = new Map<string, boolean>();
  const last = new Map<string, boolean>();
  for (const g of goalIdResults ?? []) if (ids.has(g.episode_id)) first.set(g.episode_id, g.correct);
  for (const f of facts.values()) {
    if (!ids.has(f.episode_id)) continue;
    if (typeof f.goal_first === "boolean") first.set(f.episode_id, f.goal_first);
    if (typeof f.goal_last === "boolean") last.set(f.episode_id, f.goal_last);
  }
  const factsGiveFirst = [...facts.values()].some((f) => typeof f.goal_first === "boolean");
  const goalSource = factsGiveFirst && goalIdResults ? "episode facts, else the goal-identification run" : factsGiveFirst ? "episode facts" : goalIdResults ? "goal-identification run" : null;

  const report: NavigationReport = {
    metric_variant: r.variant,
    metric_variant_note: METRIC_VARIANT_NOTES[r.variant],
    summary: summarizeNavigation(perEpisode),
    by_task: Object.fromEntries(tasks.map((t) => [t, summarizeNavigation(perEpisode.filter((e) => (e.task_type ?? "unknown") === t))])),
    per_episode: perEpisode,
    unmatched_trajectories: trajectories.map((t) => t.episode_id).filter((id) => !ids.has(id)),
    options: {
      success_distance: r.successDistance,
      ssr_distance: r.ssrDistance,
      distance: r.distance,
      ignore_height: r.ignoreHeight,
      rsr_requires_stop: r.rsrRequiresStop,
      room_source: options.roomOf ? "roomOf option" : "trajectory rooms",
      shortest_path_source: options.shortestPath ? "dist_to_goal, else the shortestPath option" : "dist_to_goal",
      goal_source: goalSource,
    },
    definitions: navDefinitions(r.variant),
  };
  if (goalSource !== null) {
    report.conditional = conditionalTable(perEpisode, first);
    report.conditional_r2o = conditionalTable(perEpisode.filter((e) => isR2O(e.task_type)), first);
  }
  if (first.size > 0 || last.size > 0) report.goal_identification = goalIdentificationTable(perEpisode, first, last);
  if ([...facts.values()].some((f) => f.prior && ids.has(f.episode_id))) {
    report.correlations = { all: correlationRow(perEpisode, facts, first, last) };
    for (const t of tasks) report.correlations[t] = correlationRow(perEpisode.filter((e) => (e.task_type ?? "unknown") === t), facts, first, last);
  }
  return report;
}

/**
 * Goal-identification results keyed by navigation episode: items with an episode id and their
 * scored results (success as scored; errors are left out; with several items per episode the
 * later one wins).
 */
export function goalIdResults(items: readonly VcnItem[], results: readonly ItemResult[]): GoalIdResult[] {
  const episodeOf = new Map(items.filter((i) => i.episodeId !== undefined).map((i) => [i.id, i.episodeId!]));
  const out = new Map<string, boolean>();
  for (const r of results) {
    const episode = episodeOf.get(r.id);
    if (episode === undefined || r.status !== "scored") continue;
    out.set(episode, r.detail?.["success"] === true);
  }
  return [...out].map(([episode_id, correct]) => ({ episode_id, correct }));
}
