/**
 * A navigation run's scores: the episodes' records as trajectories for the metrics
 * (navigation.ts), goal identification at the first and last decisions (§6.3), and the run's
 * facts. Episodes that ended in a provider error, or were not run, have no trajectory: they count
 * as failures and as missing, and the run is incomplete.
 */
import type { EnvInfo } from "../../../sim/types.js";
import type { Trajectory } from "../episodes.js";
import { navigationReport, type NavigationReport, type NavOptions } from "../navigation.js";
import type { RunIdentity } from "./runner.js";
import type { NavTask } from "./tasks.js";
import type { EpisodeRecord } from "./types.js";

export function trajectoryOf(record: EpisodeRecord): Trajectory {
  return {
    episode_id: record.episode_id,
    kind: "actions",
    positions: [record.start.position, ...record.steps.map((s) => s.position)],
    stop: record.end === "stop",
    actions: record.steps.map((s) => s.action),
    headings: [record.start.heading_deg, ...record.steps.map((s) => s.heading_deg)],
    collisions: record.steps.map((s) => s.collided),
    goal_frames: record.decisions.map((d) => d.goal_frame ?? null),
  };
}

/**
 * Goal identification at the first and the last step (§6.3, Fig. 7): whether the first and the
 * last decision named a success frame; null where that decision named no frame (or the agent
 * names none at all).
 */
export function goalIdentification(record: EpisodeRecord): { first: boolean | null; last: boolean | null } {
  const verdict = (d: EpisodeRecord["decisions"][number] | undefined) => (d?.goal_correct === true || d?.goal_correct === false ? d.goal_correct : null);
  return { first: verdict(record.decisions[0]), last: verdict(record.decisions[record.decisions.length - 1]) };
}

/** What the metrics need beyond the trajectories: per-episode facts and the environment's distances. */
function metricOptions(records: readonly EpisodeRecord[], tasks: readonly NavTask[], options: NavOptions): NavOptions {
  const byId = new Map(records.map((r) => [r.episode_id, r]));
  const priors = new Map(tasks.map((t) => [t.id, t.prior]));
  return {
    ...options,
    episodeFacts: records.map((r) => {
      const { first, last } = goalIdentification(r);
      const prior = priors.get(r.episode_id) ?? null;
      return { episode_id: r.episode_id, goal_first: first, goal_last: last, ...(prior ? { prior } : {}) };
    }),
    // Where the release gives no dist_to_goal, the environment's shortest path at reset.
    shortestPath: (episode) => byId.get(episode.episode_id)?.shortest_path_m ?? Infinity,
    // The released variant's final geodesic distance: the environment's, at the end (unreachable: infinity).
    finalDistance: (trajectory) => byId.get(trajectory.episode_id)?.final_distance_m ?? Infinity,
  };
}

/**
 * Where the trajectories of a run folder written by `spatialprobe navigation` came from (a
 * `navigate vcn` run has none: it navigated them itself). Paths are absolute.
 */
export interface NavigationSource {
  /** "trajectories": a trajectory log (JSONL, episodes.ts); "released-logs": the released evaluation's result.json folders. */
  kind: "trajectories" | "released-logs";
  episodes: string;
  trajectories?: string;
  released_logs?: string;
  goal_run?: string;
  /** Logs read, and the ids of those whose episode is not in the episode file (not scored). */
  logs: number;
  unmatched_logs: string[];
  /** Released logs: episode folders without result.json (episodes the released run had not finished). */
  unfinished?: string[];
}

export interface NavigationScores extends RunIdentity {
  name?: string;
  /** The environment the run navigated; absent for logs scored by `navigation` (their simulator is not known here). */
  simulator?: EnvInfo;
  /** Logs scored by `navigation`: where they came from (absent for `navigate vcn` runs). */
  source?: NavigationSource;
  complete: boolean;
  counts: { episodes: number; done: number; error: number; not_run: number; skipped: number };
  /** Episodes the intervention could not be applied to (counterfactual), by id with the reason. */
  skipped?: Array<{ id: string; reason: string }>;
  ends: Record<string, number>;
  navigation: NavigationReport;
  usage?: { decisions: number; requests: number; reused: number; input_tokens: number; output_tokens: number };
  created_at: string;
}

function endCounts(records: readonly EpisodeRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) out[r.end] = (out[r.end] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function usageOf(records: readonly EpisodeRecord[]): NavigationScores["usage"] | undefined {
  const asked = records.flatMap((r) => r.decisions).filter((d) => d.request_key !== undefined);
  if (asked.length === 0) return undefined;
  return {
    decisions: asked.length,
    requests: asked.filter((d) => !d.cached).length,
    reused: asked.filter((d) => d.cached).length,
    input_tokens: asked.reduce((s, d) => s + (d.usage?.input_tokens ?? 0), 0),
    output_tokens: asked.reduce((s, d) => s + (d.usage?.output_tokens ?? 0), 0),
  };
}

export function navigationScores(identity: RunIdentity, info: EnvInfo, tasks: readonly NavTask[], records: readonly EpisodeRecord[], extra: { name?: string; skipped?: Array<{ id: string; reason: string }>; options?: NavOptions }): NavigationScores {
  const byId = new Map(records.map((r) => [r.episode_id, r]));
  const done = records.filter((r) => r.status === "done");
  const trajectories = done.map(trajectoryOf);
  const navigation = navigationReport(tasks.map((t) => t.episode), trajectories, undefined, metricOptions(done, tasks, extra.options ?? {}));
  const errors = records.filter((r) => r.status === "error").length;
  const notRun = tasks.filter((t) => !byId.has(t.id)).length;
  const skipped = extra.skipped?.length ?? 0;
  const usage = usageOf(records);
  return {
    ...identity,
    ...(extra.name ? { name: extra.name } : {}),
    simulator: info,
    complete: errors === 0 && notRun === 0,
    counts: { episodes: tasks.length, done: done.length, error: errors, not_run: notRun, skipped },
    ...(extra.skipped && extra.skipped.length > 0 ? { skipped: extra.skipped } : {}),
    ends: endCounts(records),
    navigation,
    ...(usage ? { usage } : {}),
    created_at: new Date().toISOString(),
  };
}
