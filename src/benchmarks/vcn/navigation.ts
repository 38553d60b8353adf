/**
 * Navigation metrics over episodes and trajectory logs from any simulator (episodes.ts formats),
 * as habitat-lab and VCN-Bench define them:
 *
 *   d(x)      distance from x to the goal: the smallest distance to any view point of any goal
 *             (a goal without view points: its position).
 *   SR        STOP was called and d(final) < successDistance (strictly; default 1 m).
 *   SPL       SR × l / max(l, p); l = shortest-path distance from the start to the goal,
 *             p = Σ |x_{t+1} − x_t| over the logged positions. max(l, p) = 0 (start on the goal,
 *             no motion) gives SR.
 *   soft SPL  max(0, 1 − d(final) / l) × l / max(l, p), no STOP needed; l = 0 gives
 *             1 if d(final) = 0 else 0 for the first factor.
 *   SSR       STOP was called and d(final) < ssrDistance (default 3 m).
 *   RSR       the final position is inside the target room (the log's last `rooms` entry, or
 *             options.roomOf(position)); STOP is not needed unless rsrRequiresStop. Episodes with
 *             no known target room or no room information are left out of RSR (rsr_n says how many count).
 *
 * Distances: "euclidean" (default, the paper's definition): straight-line distances between
 * positions (all three coordinates, or the floor plane with ignoreHeight, which drops the
 * second of three coordinates, habitat's up axis). "geodesic": the simulator's distances as
 * given: l = episode.dist_to_goal and d(final) = trajectory.final_distance (both required).
 * The path length p is always the sum of straight-line displacements.
 *
 * An episode without a trajectory counts as a failure on every metric and is counted as missing.
 *
 * Against the released VCN-Bench evaluation code: it measures the final distance geodesically
 * (habitat's path finder; unreachable: infinity, or 10 m in one version) — use the geodesic option
 * with the log's final_distance for that; it adds 1e-6 to dist_to_goal before dividing (we treat
 * max(l, p) = 0 explicitly instead; other values differ by under 1e-6 relative); and its path
 * length p sums steps on a 0.1 m voxel grid, which only the simulator log can reproduce.
 */
import type { ItemResult } from "../../core/benchmark.js";
import { DataError, type DataProblem } from "../../core/problems.js";
import type { NavEpisode, Trajectory, Vec } from "./episodes.js";
import type { VcnItem } from "./types.js";

export interface NavOptions {
  successDistance?: number;
  ssrDistance?: number;
  distance?: "euclidean" | "geodesic";
  ignoreHeight?: boolean;
  rsrRequiresStop?: boolean;
  roomOf?: (position: Vec, episode: NavEpisode) => string | null;
}

export const NAV_DEFAULTS = { successDistance: 1.0, ssrDistance: 3.0, distance: "euclidean" as const, ignoreHeight: false, rsrRequiresStop: false };

export interface EpisodeNav {
  episode_id: string;
  task_type: string | null;
  has_trajectory: boolean;
  stop: boolean;
  steps: number;
  path_length: number;
  shortest_path: number | null;
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
  /** Mean final distance to the goal over episodes with a trajectory (navigation error). */
  DTG: number | null;
  missing: number;
}

function point(v: Vec, ignoreHeight: boolean): Vec {
  return ignoreHeight && v.length === 3 ? [v[0]!, v[2]!] : v;
}

export function euclidean(a: Vec, b: Vec, ignoreHeight = false): number {
  const p = point(a, ignoreHeight);
  const q = point(b, ignoreHeight);
  if (p.length !== q.length) throw new RangeError(`cannot compare a ${p.length}D and a ${q.length}D position`);
  return Math.hypot(...p.map((x, i) => x - q[i]!));
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

/** Metrics of one episode (trajectory undefined: a failure, counted as missing). */
export function episodeMetrics(episode: NavEpisode, trajectory: Trajectory | undefined, options: NavOptions = {}): EpisodeNav {
  const o = { ...NAV_DEFAULTS, ...options };
  const base = { episode_id: episode.episode_id, task_type: episode.task_type ?? null };
  if (!trajectory) {
    return { ...base, has_trajectory: false, stop: false, steps: 0, path_length: 0, shortest_path: null, distance_to_goal: null, success: 0, spl: 0, soft_spl: 0, ssr: 0, rsr: episode.target_room ? 0 : null };
  }
  const positions = trajectory.positions;
  const final = positions[positions.length - 1]!;
  let l: number;
  let d: number;
  if (o.distance === "geodesic") {
    const missing: DataProblem[] = [];
    if (episode.dist_to_goal === undefined) missing.push({ file: "episodes", field: `${episode.episode_id}.dist_to_goal`, message: "the geodesic option needs dist_to_goal" });
    if (trajectory.final_distance === undefined) missing.push({ file: "trajectories", field: `${episode.episode_id}.final_distance`, message: "the geodesic option needs final_distance" });
    if (missing.length > 0) throw new DataError(missing);
    l = episode.dist_to_goal!;
    d = trajectory.final_distance!;
  } else {
    l = distanceToGoal(episode.start_position, episode, o.ignoreHeight);
    d = distanceToGoal(final, episode, o.ignoreHeight);
  }
  const p = pathLength(positions, o.ignoreHeight);
  const success = trajectory.stop && d < o.successDistance ? 1 : 0;
  const efficiency = Math.max(l, p) > 0 ? l / Math.max(l, p) : 1;
  const softSuccess = l > 0 ? Math.max(0, 1 - d / l) : d === 0 ? 1 : 0;
  const room = o.roomOf ? o.roomOf(final, episode) : trajectory.rooms ? trajectory.rooms[trajectory.rooms.length - 1] ?? null : undefined;
  let rsr: number | null = null;
  if (episode.target_room && room !== undefined) rsr = room === episode.target_room && (!o.rsrRequiresStop || trajectory.stop) ? 1 : 0;
  return {
    ...base,
    has_trajectory: true,
    stop: trajectory.stop,
    steps: positions.length - 1,
    path_length: p,
    shortest_path: l,
    distance_to_goal: d,
    success,
    spl: success * efficiency,
    soft_spl: softSuccess * efficiency,
    ssr: trajectory.stop && d < o.ssrDistance ? 1 : 0,
    rsr,
  };
}

const mean = (values: number[]): number | null => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null);

export function summarizeNavigation(list: readonly EpisodeNav[]): NavSummary {
  const rsr = list.filter((e) => e.rsr !== null).map((e) => e.rsr!);
  return {
    n: list.length,
    SR: mean(list.map((e) => e.success)),
    SPL: mean(list.map((e) => e.spl)),
    soft_SPL: mean(list.map((e) => e.soft_spl)),
    SSR: mean(list.map((e) => e.ssr)),
    RSR: mean(rsr),
    rsr_n: rsr.length,
    DTG: mean(list.filter((e) => e.distance_to_goal !== null).map((e) => e.distance_to_goal!)),
    missing: list.filter((e) => !e.has_trajectory).length,
  };
}

/** Goal identification per navigation episode (join key: episode id). */
export interface GoalIdResult {
  episode_id: string;
  correct: boolean;
}

export interface NavigationReport {
  summary: NavSummary;
  by_task: Record<string, NavSummary>;
  /** Navigation given goal identification: right, wrong, and episodes with no goal-identification result. */
  conditional?: { correct: NavSummary; wrong: NavSummary; no_result: NavSummary };
  per_episode: EpisodeNav[];
  /** Trajectories whose episode id is not among the episodes (not scored). */
  unmatched_trajectories: string[];
  options: { success_distance: number; ssr_distance: number; distance: "euclidean" | "geodesic"; ignore_height: boolean; rsr_requires_stop: boolean; room_source: string };
  definitions: Record<string, string>;
}

export const NAV_DEFINITIONS: Record<string, string> = {
  SR: "STOP called and distance to the nearest goal view point strictly below the success distance",
  SPL: "SR × l / max(l, p); l the start's shortest distance to the goal, p the summed step displacements",
  soft_SPL: "max(0, 1 − d_T / l) × l / max(l, p), no STOP needed",
  SSR: "STOP called and distance strictly below the SSR distance (3 m)",
  RSR: "the final position lies in the target room (episodes with a known target room and room information)",
  DTG: "mean final distance to the nearest goal view point",
  conditional: "episodes joined with goal-identification results by episode id",
};

/** Every metric and table for a set of episodes and their logs; goal identification optional. */
export function navigationReport(episodes: readonly NavEpisode[], trajectories: readonly Trajectory[], goalIdResults?: readonly GoalIdResult[], options: NavOptions = {}): NavigationReport {
  const o = { ...NAV_DEFAULTS, ...options };
  const byId = new Map<string, Trajectory>();
  const duplicates: DataProblem[] = [];
  for (const t of trajectories) {
    if (byId.has(t.episode_id)) duplicates.push({ file: "trajectories", field: "episode_id", message: `two trajectories for episode ${t.episode_id}` });
    byId.set(t.episode_id, t);
  }
  if (duplicates.length > 0) throw new DataError(duplicates);
  const known = new Set(episodes.map((e) => e.episode_id));
  const perEpisode = episodes.map((e) => episodeMetrics(e, byId.get(e.episode_id), options));
  const tasks = [...new Set(perEpisode.map((e) => e.task_type ?? "unknown"))].sort();
  const report: NavigationReport = {
    summary: summarizeNavigation(perEpisode),
    by_task: Object.fromEntries(tasks.map((t) => [t, summarizeNavigation(perEpisode.filter((e) => (e.task_type ?? "unknown") === t))])),
    per_episode: perEpisode,
    unmatched_trajectories: trajectories.map((t) => t.episode_id).filter((id) => !known.has(id)),
    options: {
      success_distance: o.successDistance,
      ssr_distance: o.ssrDistance,
      distance: o.distance,
      ignore_height: o.ignoreHeight,
      rsr_requires_stop: o.rsrRequiresStop,
      room_source: options.roomOf ? "roomOf option" : "trajectory rooms",
    },
    definitions: NAV_DEFINITIONS,
  };
  if (goalIdResults) {
    const goal = new Map(goalIdResults.map((g) => [g.episode_id, g.correct]));
    report.conditional = {
      correct: summarizeNavigation(perEpisode.filter((e) => goal.get(e.episode_id) === true)),
      wrong: summarizeNavigation(perEpisode.filter((e) => goal.get(e.episode_id) === false)),
      no_result: summarizeNavigation(perEpisode.filter((e) => !goal.has(e.episode_id))),
    };
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
