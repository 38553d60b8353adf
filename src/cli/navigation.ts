/**
 * `spatialprobe navigation`: VCN-Bench's navigation metrics from logs made elsewhere (a trajectory
 * log from any simulator, or the released evaluation's result.json folders), written as a run
 * folder of the same shape `navigate vcn` writes, so `report`, `serve` and the HTML page read it:
 *
 *   scores.json     kind "navigation" (navigate/scores.ts NavigationScores) with `source` saying
 *                   where the logs came from; the metric variant is navigation.metric_variant
 *   episodes.jsonl  one record per logged episode, as far as the log tells (navigate/types.ts
 *                   EpisodeRecord's fields; what the log does not give is null or absent)
 *   report.md       the navigation tables (navigate/report.ts), as for a navigate run
 *   navigation.json, navigation.md  the earlier outputs (the metrics report and its Markdown with
 *                   the released code's own logged SR/SPL), kept for compatibility
 *
 * No top-down pictures: the house plans of the logs' scenes are not known here.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { parseJson } from "../core/jsonl.js";
import { withFolderLock } from "../core/lock.js";
import { LIVE_HEADER, LIVE_RESULTS, toJson, writeFileAtomic } from "../core/outputs.js";
import { UsageError } from "../core/problems.js";
import { EPISODES_FILE, loadEpisodes, loadTrajectories, navigationFromFiles, navigationMarkdown, readEpisodeFileJson, readReleasedLogs, RUN_HEADER, writeNavigationOutputs, type NavEpisode, type NavigationReport, type NavigationScores, type NavigationSource, type NavOptions, type Trajectory } from "../benchmarks/vcn/index.js";
import { MAX_DISTANCE_M } from "../core/limits.js";
import { numberIn } from "./main.js";
import { runName } from "./shared.js";

/** The actions of an action log at which the episode ends without STOP (§3.1: 1,000 actions). */
const ACTION_LIMIT = 1000;

/** Default Run label per source (the report's Run and Model columns). */
const DEFAULT_MODEL: Record<NavigationSource["kind"], string> = { trajectories: "trajectory log", "released-logs": "released logs" };

type Loose = Record<string, unknown>;

/**
 * How a logged episode ended, in navigate's words where the log tells: "stop"; "action-limit" (an
 * action log of 1,000 actions without STOP); otherwise "no-stop" (it ended without STOP and the
 * log does not say why: the released loop also ends at its step limit, an unreadable reply or a
 * failed step).
 */
export function logEnd(t: Trajectory): string {
  if (t.stop) return "stop";
  const actions = t.kind === "waypoints" ? null : (t.actions?.length ?? t.positions.length - 1);
  return actions !== null && actions >= ACTION_LIMIT ? "action-limit" : "no-stop";
}

/**
 * One episodes.jsonl line for a logged episode. Action logs: one step per action (position,
 * heading and collision when logged, else null) and, when the actions are logged, one decision per
 * action with its goal frame. Waypoint logs (the released logs): one step per logged move, action
 * "WAYPOINT", to where the next decision was made (the final position last), and one decision per
 * move ("goto" that position) with the frame it named.
 */
export function logRecord(episode: NavEpisode, t: Trajectory, agent: string, instruction: string | null): Loose {
  const moves = t.positions.slice(1);
  const waypoints = t.kind === "waypoints";
  const frame = (k: number) => ({ goal_frame: t.goal_frames?.[k] ?? null });
  const steps = moves.map((position, k) => ({
    t: k + 1,
    action: waypoints ? "WAYPOINT" : (t.actions?.[k] ?? null),
    position,
    heading_deg: t.headings?.[k + 1] ?? null,
    collided: t.collisions?.[k] ?? null,
    decision: waypoints || t.actions ? k : null,
  }));
  const decisions = waypoints
    ? moves.map((position, k) => ({
        index: k,
        at_step: k,
        kind: "goto",
        goto: { targets: [position], radius_m: 0, then: k === moves.length - 1 && t.stop ? "stop" : "decide", why: "the logged position where this decision's move ended" },
        ...frame(k),
      }))
    : (t.actions ?? []).map((action, k) => ({ index: k, at_step: k, kind: "action", action, ...frame(k) }));
  return {
    episode_id: episode.episode_id,
    scene_id: episode.scene_id ?? null,
    task_type: episode.task_type ?? null,
    agent,
    intervention: "none",
    status: "done",
    end: logEnd(t),
    start: { position: t.positions[0], heading_deg: t.headings?.[0] ?? null },
    steps,
    decisions,
    instruction: instruction ?? "",
    prior: null,
    shortest_path_m: episode.dist_to_goal ?? null,
    final_distance_m: t.final_distance ?? null,
  };
}

/** instruction.instruction_text of each episode of the episode file, by episode id. */
function instructionTexts(file: string): Map<string, string> {
  const json = readEpisodeFileJson(file, { followLinks: true }) as { episodes?: unknown };
  const out = new Map<string, string>();
  for (const raw of Array.isArray(json.episodes) ? json.episodes : []) {
    const e = raw as { episode_id?: unknown; instruction?: { instruction_text?: unknown } };
    if (typeof e.instruction?.instruction_text === "string") out.set(String(e.episode_id), e.instruction.instruction_text);
  }
  return out;
}

const countBy = (values: string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
};

export interface LogRun {
  episodes: readonly NavEpisode[];
  trajectories: readonly Trajectory[];
  report: NavigationReport;
  source: NavigationSource;
  model: string;
  name?: string;
  settings: Record<string, unknown>;
  instructions: ReadonlyMap<string, string>;
}

/**
 * scores.json and episodes.jsonl of logs scored here: an episode of the file with a log is done,
 * one without is not run (a failure in every metric, and the run is incomplete, as for navigate).
 * Mode "waypoint" when every log is a waypoint log, else "action".
 */
export function logRunOutputs(run: LogRun): { scores: NavigationScores; records: Loose[] } {
  const byId = new Map(run.trajectories.map((t) => [t.episode_id, t]));
  const logged = run.episodes.filter((e) => byId.has(e.episode_id));
  const records = logged.map((e) => logRecord(e, byId.get(e.episode_id)!, run.model, run.instructions.get(e.episode_id) ?? null));
  const notRun = run.episodes.length - logged.length;
  const waypoints = run.trajectories.length > 0 && run.trajectories.every((t) => t.kind === "waypoints");
  const scores: NavigationScores = {
    kind: "navigation",
    benchmark: "vcn",
    data: run.source.episodes,
    model: run.model,
    agent: run.model,
    mode: waypoints ? "waypoint" : "action",
    intervention: "none",
    episodes: run.episodes.length,
    settings: run.settings,
    ...(run.name ? { name: run.name } : {}),
    source: run.source,
    complete: notRun === 0,
    counts: { episodes: run.episodes.length, done: logged.length, error: 0, not_run: notRun, skipped: 0 },
    ends: countBy(records.map((r) => String(r["end"]))),
    navigation: run.report,
    created_at: new Date().toISOString(),
  };
  return { scores, records };
}

/**
 * --out must be a folder of its own: never an item run or a navigate run (their scores.json and
 * records would be replaced); an earlier output of this command is replaced.
 */
export function assertOwnFolder(out: string): void {
  if (!existsSync(out)) return;
  for (const name of ["items.jsonl", LIVE_HEADER, LIVE_RESULTS, RUN_HEADER]) {
    if (existsSync(path.join(out, name))) throw new UsageError(`--out ${out} holds another run (${name}); give navigation a folder of its own`);
  }
  const scoresFile = path.join(out, "scores.json");
  if (existsSync(scoresFile)) {
    const parsed = parseJson(readFileSync(scoresFile, "utf8"));
    const doc = parsed.ok && parsed.value && typeof parsed.value === "object" ? (parsed.value as Loose) : undefined;
    const source = doc?.["source"] as Loose | undefined;
    const ours = doc?.["kind"] === "navigation" && (source?.["kind"] === "trajectories" || source?.["kind"] === "released-logs");
    if (!ours) throw new UsageError(`--out ${out} holds a scores.json that \`navigation\` did not write; give it a folder of its own`);
  } else if (existsSync(path.join(out, EPISODES_FILE))) {
    throw new UsageError(`--out ${out} holds ${EPISODES_FILE} of a navigate run; give navigation a folder of its own`);
  }
}

/** `navigation`: SR, SPL, soft SPL, SSR and RSR from any simulator's logs (VCN-Bench's metrics). */
export function registerNavigation(program: Command): void {
  program
    .command("navigation")
    .description("navigation metrics (SR, SPL, soft SPL, SSR, RSR, steps, collisions) from episodes and trajectory logs of any simulator, or the released evaluation's result.json logs; writes a run folder `report` reads")
    .requiredOption("--episodes <file>", "episodes: VCN-Bench's released gzip JSON {\"episodes\": [...]} (or plain JSON); every episode needs dist_to_goal (SPL's geodesic shortest path)")
    .option("--trajectories <file>", "JSONL, one episode a line: {\"episode_id\", \"positions\": [[x,y,z],...], \"stop\", \"actions\"?, \"headings\"?, \"collisions\"?, \"rooms\"?, \"final_distance\"?, \"path_length\"?, \"kind\"?: \"actions\" | \"waypoints\"}; checked against the action space")
    .option("--released-logs <dir>", "instead of --trajectories: an output folder of the released evaluation (run_eval_mvdualvln.py), one <scene>_ep_<id>/result.json per episode")
    .requiredOption("--out <dir>", "output run folder (scores.json, episodes.jsonl, report.md, navigation.json, navigation.md); not another run's folder")
    .option("--model <label>", "what made the logs, shown as the run's model (default: \"trajectory log\" or \"released logs\")", runName)
    .option("--name <label>", "a label for the run, shown in every report table", runName)
    .option("--goal-run <dir>", "output folder of `run vcn`: adds navigation given goal identification (joined by episode id)")
    .option("--metric-variant <name>", "paper (default: STOP within 1 m Euclidean of a view point) | released (the released code: final geodesic distance < 1 m, no STOP needed; SPL with dist_to_goal + 1e-6 and the logged path length)", "paper")
    .option("--distance <kind>", "how the final distance is measured: euclidean (the paper variant's default) | geodesic (the log's final_distance; the released variant's only choice)")
    .option("--ignore-height", "euclidean distances on the floor plane (drop the second coordinate, habitat's up axis)")
    .option("--success-distance <m>", "success radius in metres (strict <)", numberIn(0, MAX_DISTANCE_M, { above: true, unit: "metres" }), 1)
    .option("--ssr-distance <m>", "SSR radius in metres (strict <)", numberIn(0, MAX_DISTANCE_M, { above: true, unit: "metres" }), 3)
    .option("--rsr-requires-stop", "RSR also needs STOP")
    .action(async (opts) => {
      if (opts.metricVariant !== "paper" && opts.metricVariant !== "released") throw new UsageError(`--metric-variant must be paper or released, got "${opts.metricVariant}"`);
      if (opts.distance !== undefined && opts.distance !== "euclidean" && opts.distance !== "geodesic") throw new UsageError(`--distance must be euclidean or geodesic, got "${opts.distance}"`);
      if (opts.metricVariant === "released" && opts.distance === "euclidean") throw new UsageError("--metric-variant released measures the final distance geodesically; drop --distance euclidean");
      if ((opts.trajectories === undefined) === (opts.releasedLogs === undefined)) throw new UsageError("give exactly one of --trajectories <file> and --released-logs <dir>");
      const out: string = opts.out;
      assertOwnFolder(out);
      const options: NavOptions = {
        metricVariant: opts.metricVariant,
        ...(opts.distance !== undefined ? { distance: opts.distance } : {}),
        ignoreHeight: Boolean(opts.ignoreHeight),
        successDistance: opts.successDistance,
        ssrDistance: opts.ssrDistance,
        rsrRequiresStop: Boolean(opts.rsrRequiresStop),
      };
      const released = opts.releasedLogs !== undefined;
      const files = released ? { releasedLogs: opts.releasedLogs as string } : { trajectories: opts.trajectories as string };
      const report = navigationFromFiles({ episodes: opts.episodes, ...files, ...(opts.goalRun ? { goalRun: opts.goalRun } : {}) }, options);
      // The inputs read again for the episode records (navigationFromFiles has checked them).
      const episodes = loadEpisodes(opts.episodes);
      const trajectories = released ? readReleasedLogs(opts.releasedLogs).logs.map((l) => l.trajectory) : loadTrajectories(opts.trajectories);
      const source: NavigationSource = {
        kind: released ? "released-logs" : "trajectories",
        episodes: path.resolve(opts.episodes),
        ...(released ? { released_logs: path.resolve(opts.releasedLogs) } : { trajectories: path.resolve(opts.trajectories) }),
        ...(opts.goalRun ? { goal_run: path.resolve(opts.goalRun) } : {}),
        logs: trajectories.length,
        unmatched_logs: report.unmatched_trajectories,
        ...(report.imported ? { unfinished: report.imported.unfinished } : {}),
      };
      const settings = {
        metric_variant: opts.metricVariant,
        ...(opts.distance !== undefined ? { distance: opts.distance } : {}),
        ignore_height: Boolean(opts.ignoreHeight),
        success_distance: opts.successDistance,
        ssr_distance: opts.ssrDistance,
        rsr_requires_stop: Boolean(opts.rsrRequiresStop),
      };
      const { scores, records } = logRunOutputs({
        episodes, trajectories, report, source, settings,
        model: opts.model ?? DEFAULT_MODEL[source.kind],
        ...(opts.name ? { name: opts.name } : {}),
        instructions: instructionTexts(opts.episodes),
      });
      const document = {
        episodes: source.episodes,
        ...(released ? { released_logs: source.released_logs } : { trajectories: source.trajectories }),
        ...(source.goal_run ? { goal_run: source.goal_run } : {}),
        ...report,
        created_at: scores.created_at,
      };
      const markdown = `${navigationMarkdown(report, "# VCN-Bench navigation")}\n`;
      // One writer per output folder, each file replaced atomically; episodes.jsonl before
      // scores.json (a folder whose records are newer than its scores reads as in progress).
      await withFolderLock(out, async () => {
        writeFileAtomic(path.join(out, EPISODES_FILE), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
        await writeNavigationOutputs(out, scores, [], [], null);
        writeFileAtomic(path.join(out, "navigation.json"), `${toJson(document, 2)}\n`);
        writeFileAtomic(path.join(out, "navigation.md"), markdown);
      });
      console.log(markdown.trimEnd());
      console.log(`wrote ${out}/scores.json, ${EPISODES_FILE}, report.md (\`spatialprobe report ${out}\` reads them), navigation.json, navigation.md`);
    });
}
