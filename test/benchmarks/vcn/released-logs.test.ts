import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadEpisodes, navigationFromFiles, navigationReport } from "../../../src/benchmarks/vcn/index.js";
import { parseReleasedResult, readReleasedLogs, releasedLogProblems } from "../../../src/benchmarks/vcn/released-logs.js";
import { registerNavigation } from "../../../src/cli/navigation.js";
import { DataError, UsageError } from "../../../src/core/problems.js";
import { Command } from "commander";

/**
 * Hand-made logs in the released evaluation's layout (test/fixtures/vcn-nav/released; written with
 * Python's json.dump(indent=2) as its logger does):
 *   17DRP5sb8fy_ep_101  3 decisions, the last says stop; final geodesic 0.42 m; nav_dist 6.1; gt 5.8 + 1e-6
 *   17DRP5sb8fy_ep_102  2 decisions, stops 2.61 m (geodesic) away; nav_dist 4.3; gt 3.9 + 1e-6
 *   2azQ1b91cZZ_ep_7    50 decisions (the released minimum step limit), never stops; final 0.77 m;
 *                       nav_dist 31.4; gt 9.2 + 1e-6 -> a success for the released code
 */
const fixtures = path.resolve(import.meta.dirname, "../../fixtures/vcn-nav/released");
const evalDir = path.join(fixtures, "eval");
const episodesFile = path.join(fixtures, "episodes.json");
const FOLDERS = ["17DRP5sb8fy_ep_101", "17DRP5sb8fy_ep_102", "2azQ1b91cZZ_ep_7"];
const logged = FOLDERS.map((f) => JSON.parse(readFileSync(path.join(evalDir, f, "result.json"), "utf8")) as { success_by_distance: boolean; spl_by_distance: number });

/** The DataError's first problem message matches. */
const firstProblem = (pattern: RegExp) => (error: unknown) => error instanceof DataError && pattern.test(error.problems[0]!.message);

test("conversion: waypoints, step positions then the final one, the last step's stop flag, the logged distances", () => {
  const { logs, unfinished } = readReleasedLogs(evalDir);
  assert.deepEqual(logs.map((l) => [l.folder, l.scene, l.episode_id]), [["17DRP5sb8fy_ep_101", "17DRP5sb8fy", "101"], ["17DRP5sb8fy_ep_102", "17DRP5sb8fy", "102"], ["2azQ1b91cZZ_ep_7", "2azQ1b91cZZ", "7"]]);
  assert.deepEqual(unfinished, []);
  assert.deepEqual(logs[0]!.trajectory, {
    episode_id: "101",
    positions: [[1, 0.07, 2], [2.3, 0.07, 0.9], [3.4, 0.07, 0.1], [3.9, 0.07, -0.2]],
    stop: true,
    final_distance: 0.42,
    path_length: 6.1,
    kind: "waypoints",
    goal_frames: [12, 14, 14],
  });
  assert.equal(logs[1]!.trajectory.stop, true);
  const limit = logs[2]!.trajectory;
  assert.equal(limit.positions.length, 51);
  assert.equal(limit.stop, false, "fifty decisions, none said stop");
  assert.deepEqual(limit.positions[50], [5.9, 0.07, -5.65]);
  assert.deepEqual(logs[2]!.logged, { success_by_distance: true, spl_by_distance: 0.2929936624203821, gt_dist: 9.200000999999999, dist_to_goal: 0.77, nav_dist: 31.4 });
});

test("the released variant reproduces the logged success_by_distance and spl_by_distance means exactly", () => {
  const report = navigationFromFiles({ episodes: episodesFile, releasedLogs: evalDir }, { metricVariant: "released" });
  const loggedSR = logged.reduce((s, l) => s + Number(l.success_by_distance), 0) / logged.length;
  const loggedSPL = logged.reduce((s, l) => s + l.spl_by_distance, 0) / logged.length;
  assert.equal(report.summary.SR, loggedSR);
  assert.equal(report.summary.SPL, loggedSPL);
  assert.deepEqual(report.per_episode.map((e) => e.spl), logged.map((l) => l.spl_by_distance));
  // By hand: 101 and 7 succeed (0.42 and 0.77 m, STOP or not), 102 fails (2.61 m).
  assert.equal(report.summary.SR, 2 / 3);
  assert.deepEqual(report.per_episode.map((e) => e.success), [1, 0, 1]);
  // SPL = (dist_to_goal + 1e-6) / max(dist_to_goal + 1e-6, nav_dist); in float64 9.2 + 1e-6 is 9.200000999999999.
  assert.equal(report.per_episode[0]!.spl, (5.8 + 1e-6) / 6.1);
  assert.equal(report.per_episode[2]!.spl, (9.2 + 1e-6) / 31.4);
  assert.deepEqual(report.per_episode.map((e) => e.decisions), [3, 2, 50]);
  assert.deepEqual(report.imported, { source: "released-logs", dir: evalDir, logs: 3, unfinished: [], logged_SR: loggedSR, logged_SPL: loggedSPL });
  assert.equal(report.metric_variant, "released");
  assert.equal(report.options.distance, "geodesic");
});

test("the paper variant on the same logs: STOP needed, Euclidean distance to the view points, l = dist_to_goal", () => {
  const report = navigationFromFiles({ episodes: episodesFile, releasedLogs: evalDir });
  // 101: STOP, final (3.9, -0.2) is √0.1 = 0.316 m from both view points: success, SPL 5.8 / 6.1.
  // 102: STOP, final (-3.3, 0.2) is √(1.2² + 1²) = 1.562 m away: failure, but within 3 m (SSR).
  // 7: 0.757 m from its view point but no STOP: failure.
  assert.deepEqual(report.per_episode.map((e) => e.success), [1, 0, 0]);
  assert.equal(report.per_episode[0]!.spl, 5.8 / 6.1);
  assert.ok(Math.abs(report.per_episode[0]!.distance_to_goal! - Math.sqrt(0.1)) < 1e-12);
  assert.ok(Math.abs(report.per_episode[1]!.distance_to_goal! - Math.sqrt(1.2 ** 2 + 1)) < 1e-12);
  assert.deepEqual(report.per_episode.map((e) => e.ssr), [1, 1, 0]);
  assert.equal(report.summary.SR, 1 / 3);
  assert.equal(report.summary.SPL, 5.8 / 6.1 / 3);
  assert.equal(report.metric_variant, "paper");
});

test("folders without result.json are unfinished episodes; an unreachable goal (Infinity) fails", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-released-"));
  cpSync(evalDir, dir, { recursive: true });
  mkdirSync(path.join(dir, "2azQ1b91cZZ_ep_8", "snapshot"), { recursive: true });
  const file = path.join(dir, "17DRP5sb8fy_ep_102", "result.json");
  // Python's json.dump writes an unreachable goal's np.inf as Infinity.
  writeFileSync(file, readFileSync(file, "utf8").replace('"dist_to_goal": 2.61', '"dist_to_goal": Infinity'));
  const { logs, unfinished } = readReleasedLogs(dir);
  assert.deepEqual(unfinished, ["2azQ1b91cZZ_ep_8"]);
  assert.equal(logs[1]!.trajectory.final_distance, Infinity);
  const report = navigationReport(loadEpisodes(episodesFile), logs.map((l) => l.trajectory), undefined, { metricVariant: "released" });
  assert.equal(report.per_episode[1]!.success, 0);
  assert.equal(report.per_episode[1]!.ssr, 0);
  assert.equal(report.summary.DTG, (0.42 + 0.77) / 2, "the infinite distance is left out of DTG");
  rmSync(dir, { recursive: true, force: true });
});

test("bad logs: every problem with its file and field; logs from another episode file are refused", () => {
  const file = "x/s_ep_1/result.json";
  const base = JSON.parse(readFileSync(path.join(evalDir, FOLDERS[0]!, "result.json"), "utf8")) as Record<string, unknown>;
  const { step_1: _, ...gap } = base;
  assert.deepEqual(parseReleasedResult(gap, file, "s_ep_1").problems.map((p) => [p.field, p.message]), [["step_1", "steps must run step_0 ... step_1 without gaps; step_1 is missing"]]);
  const broken = { ...base, nav_dist: -1, step_0: { position: [1, 2], vlm_output: { pred_frame_idx: 1.5, stop: "false" } } };
  assert.deepEqual(parseReleasedResult(broken, file, "s_ep_1").problems.map((p) => p.field), ["nav_dist", "step_0.position", "step_0.vlm_output.pred_frame_idx"]);
  assert.match(parseReleasedResult(base, file, "s-1").problems[0]!.message, /not <scene>_ep_<episode_id>/);
  // A gt_dist or scene that does not match the episode file.
  const { logs } = readReleasedLogs(evalDir);
  const episodes = loadEpisodes(episodesFile).map((e) => (e.episode_id === "101" ? { ...e, dist_to_goal: 5.9 } : e.episode_id === "7" ? { ...e, scene_id: "mp3d/other/other.glb" } : e));
  const problems = releasedLogProblems(logs, episodes, evalDir);
  assert.deepEqual(problems.map((p) => [path.basename(path.dirname(p.file)), p.field]), [["17DRP5sb8fy_ep_101", "gt_dist"], ["2azQ1b91cZZ_ep_7", undefined]]);
  assert.match(problems[1]!.message, /the folder names scene 2azQ1b91cZZ, but episode 7 is in mp3d\/other\/other.glb/);
  // Not an output folder at all, and broken JSON.
  const empty = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-released-"));
  assert.throws(() => readReleasedLogs(empty), firstProblem(/not an output folder of the released evaluation/));
  mkdirSync(path.join(empty, "s_ep_1"));
  writeFileSync(path.join(empty, "s_ep_1", "result.json"), '{"step_0": ');
  assert.throws(() => readReleasedLogs(empty), firstProblem(/^invalid JSON/));
  assert.throws(() => readReleasedLogs(path.join(empty, "nope")), firstProblem(/not found/));
  rmSync(empty, { recursive: true, force: true });
});

/** `spatialprobe navigation <args>` in this process (the command's own code, no build needed); console output muted. */
async function navigationCli(args: string[]): Promise<{ error: unknown }> {
  const program = new Command().exitOverride();
  registerNavigation(program);
  const log = console.log;
  console.log = () => {};
  try {
    await program.parseAsync(["node", "spatialprobe", "navigation", ...args]);
    return { error: undefined };
  } catch (error) {
    return { error };
  } finally {
    console.log = log;
  }
}

test("spatialprobe navigation --released-logs DIR --metric-variant released", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-released-cli-"));
  const ok = await navigationCli(["--episodes", episodesFile, "--released-logs", evalDir, "--metric-variant", "released", "--out", out]);
  assert.equal(ok.error, undefined);
  const doc = JSON.parse(readFileSync(path.join(out, "navigation.json"), "utf8")) as { released_logs: string; metric_variant: string; metric_variant_note: string; summary: { SR: number; SPL: number } };
  assert.equal(doc.released_logs, evalDir);
  assert.equal(doc.metric_variant, "released");
  assert.match(doc.metric_variant_note, /run_eval_mvdualvln\.py/);
  assert.equal(doc.summary.SR, 2 / 3);
  assert.equal(doc.summary.SPL, logged.reduce((s, l) => s + l.spl_by_distance, 0) / 3);
  const both = await navigationCli(["--episodes", episodesFile, "--released-logs", evalDir, "--trajectories", "t.jsonl", "--out", out]);
  assert.ok(both.error instanceof UsageError);
  assert.match(String(both.error), /exactly one of --trajectories <file> and --released-logs <dir>/);
  const contradiction = await navigationCli(["--episodes", episodesFile, "--released-logs", evalDir, "--metric-variant", "released", "--distance", "euclidean", "--out", out]);
  assert.match(String(contradiction.error), /measures the final distance geodesically/);
  const unknown = await navigationCli(["--episodes", episodesFile, "--released-logs", evalDir, "--metric-variant", "habitat", "--out", out]);
  assert.match(String(unknown.error), /--metric-variant must be paper or released, got "habitat"/);
  rmSync(out, { recursive: true, force: true });
});
