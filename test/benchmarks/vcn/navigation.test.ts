import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import {
  episodeMetrics,
  loadEpisodes,
  MAX_EPISODE_FILE_BYTES,
  loadTrajectories,
  navigationMarkdown,
  navigationReport,
  regionOf,
  trajectoryProblems,
  type EpisodeFacts,
  type NavEpisode,
  type Trajectory,
} from "../../../src/benchmarks/vcn/index.js";
import { DataError } from "../../../src/core/problems.js";
import { loadNavTasks } from "../../../src/benchmarks/vcn/navigate/tasks.js";

/**
 * Start at the origin; one goal with one view point 4 m east (along +x). The geodesic shortest
 * path is the straight line here: dist_to_goal = 4 = l.
 */
const episode: NavEpisode = { episode_id: "e1", task_type: "count", start_position: [0, 0, 0], goals: [{ position: [5, 0, 0], view_points: [[4, 0, 0]] }], dist_to_goal: 4, target_room: "region2" };
const traj = (positions: number[][], stop: boolean, extra: Partial<Trajectory> = {}): Trajectory => ({ episode_id: "e1", positions, stop, ...extra });

/**
 * Positions of a walk through corners in 0.25 m FORWARD steps (corners a multiple of 0.25 m
 * apart along one axis, so every position is exact in binary and every step exactly 0.25 m).
 */
function walk(...corners: number[][]): number[][] {
  const out = [corners[0]!];
  for (let c = 1; c < corners.length; c++) {
    const from = corners[c - 1]!;
    const to = corners[c]!;
    const steps = Math.round(Math.hypot(...to.map((v, i) => v - from[i]!)) / 0.25);
    for (let k = 1; k <= steps; k++) out.push(from.map((v, i) => v + ((to[i]! - v) * k) / steps));
  }
  return out;
}

function problemsOf(fn: () => unknown): Array<{ field?: string; line?: number; message: string }> {
  try {
    fn();
  } catch (error) {
    if (error instanceof DataError) return error.problems;
    throw error;
  }
  assert.fail("expected a DataError");
}

test("SPL uses the geodesic shortest path: an optimal 10 m path around a wall scores 1.0, not 0.707", () => {
  // A wall blocks the diagonal from (0, 0) to the view point (5, -5): the shortest path goes 5 m east then 5 m north.
  const around: NavEpisode = { episode_id: "w", task_type: "count", start_position: [0, 0, 0], goals: [{ position: [5.5, 0, -5], view_points: [[5, 0, -5]] }], dist_to_goal: 10 };
  const path = walk([0, 0, 0], [5, 0, 0], [5, 0, -5]);
  assert.equal(path.length, 41);
  const m = episodeMetrics(around, { episode_id: "w", positions: path, stop: true });
  assert.equal(m.path_length, 10);
  assert.equal(m.shortest_path, 10);
  assert.equal(m.success, 1);
  assert.equal(m.spl, 1);
  assert.notEqual(m.spl, Math.SQRT2 * 5 / 10, "the straight start-goal distance (7.07 m) is not l");
});

test("an episode without dist_to_goal is an error naming the file and field, unless shortestPath gives l", () => {
  const { dist_to_goal: _, ...noL } = episode;
  const problems = problemsOf(() => episodeMetrics(noL, traj(walk([0, 0, 0], [4, 0, 0]), true), { files: { episodes: "ep.json.gz" } }));
  assert.deepEqual(problems.map((p) => [p.file, p.field]), [["ep.json.gz", "episodes[id=e1].dist_to_goal"]]);
  assert.match(problems[0]!.message, /geodesic shortest path/);
  // The navigate runner's simulator gives l = 5 (a detour): SPL = 5 / max(5, 4) = 1; 8: 8 / 8.
  assert.equal(episodeMetrics(noL, traj(walk([0, 0, 0], [4, 0, 0]), true), { shortestPath: () => 5 }).shortest_path, 5);
  assert.equal(episodeMetrics(noL, traj(walk([0, 0, 0], [4, 0, 0]), true), { shortestPath: () => 8 }).spl, 1);
  assert.match(problemsOf(() => episodeMetrics(noL, undefined, { shortestPath: () => Number.NaN }))[0]!.message, /gave NaN/);
  // The report lists every episode without l at once.
  const report = problemsOf(() => navigationReport([noL, { ...noL, episode_id: "e2" }], []));
  assert.deepEqual(report.map((p) => p.field), ["episodes[id=e1].dist_to_goal", "episodes[id=e2].dist_to_goal"]);
});

test("success boundary: 0.9999 m succeeds, exactly 1.0 m fails (strictly below the success distance)", () => {
  const near = episodeMetrics(episode, traj([...walk([0, 0, 0], [4, 0, 0]), [4, 0, 0.2], [4, 0, 0.45], [4, 0, 0.7], [4, 0, 0.95], [4, 0, 0.9999]], true));
  assert.equal(near.distance_to_goal, 0.9999);
  assert.equal(near.success, 1);
  const at = episodeMetrics(episode, traj(walk([0, 0, 0], [4, 0, 0], [4, 0, 1]), true));
  assert.equal(at.distance_to_goal, 1);
  assert.equal(at.success, 0);
  assert.equal(at.spl, 0);
  assert.equal(episodeMetrics(episode, traj(walk([0, 0, 0], [4, 0, 0], [4, 0, 1]), true), { successDistance: 1.5 }).success, 1);
});

test("SPL with a detour: l = 4, p = 3 + 4 + 3 = 10, SPL = 0.4; soft SPL the same when the goal is reached", () => {
  const m = episodeMetrics(episode, traj(walk([0, 0, 0], [0, 0, 3], [4, 0, 3], [4, 0, 0]), true));
  assert.equal(m.path_length, 10);
  assert.equal(m.shortest_path, 4);
  assert.equal(m.success, 1);
  assert.equal(m.spl, 0.4);
  assert.equal(m.soft_spl, 0.4);
  assert.equal(m.steps, 40);
  assert.equal(episodeMetrics(episode, traj(walk([0, 0, 0], [4, 0, 0]), true)).spl, 1);
});

test("no STOP: SR, SPL and SSR are 0 even on the goal; soft SPL does not need STOP", () => {
  const m = episodeMetrics(episode, traj(walk([0, 0, 0], [4, 0, 0]), false));
  assert.deepEqual([m.success, m.spl, m.ssr, m.soft_spl], [0, 0, 0, 1]);
});

test("SSR: STOP within 3 m (strictly); soft SPL = (1 - d/l) × l / max(l, p)", () => {
  // 4 m east then 2.5 m south: p = 6.5, d = 2.5: soft SPL = (1 - 2.5 / 4) × 4 / 6.5 = 0.375 × 0.6153... = 0.23076923...
  const m = episodeMetrics(episode, traj(walk([0, 0, 0], [4, 0, 0], [4, 0, 2.5]), true));
  assert.equal(m.success, 0);
  assert.equal(m.ssr, 1);
  assert.ok(Math.abs(m.soft_spl - 3 / 13) < 1e-15, String(m.soft_spl));
  assert.equal(episodeMetrics(episode, traj(walk([0, 0, 0], [4, 0, 0], [4, 0, 3]), true)).ssr, 0);
  // Farther than l: soft success is clipped at 0.
  assert.equal(episodeMetrics(episode, traj(walk([0, 0, 0], [-3, 0, 0]), true)).soft_spl, 0);
});

test("RSR from the log's rooms or a room function; the nearest view point of any goal counts", () => {
  const p = walk([0, 0, 0], [4, 0, 0], [4, 0, 2]);
  const rooms = (last: string) => [...p.slice(1).map(() => "region0"), last];
  assert.equal(episodeMetrics(episode, traj(p, true, { rooms: rooms("region2") })).rsr, 1);
  assert.equal(episodeMetrics(episode, traj(p, true, { rooms: rooms("region1") })).rsr, 0);
  assert.equal(episodeMetrics(episode, traj(p, true)).rsr, null, "no room information");
  assert.equal(episodeMetrics(episode, traj(p, false), { roomOf: (q) => (q[0]! > 3 ? "region2" : "region0") }).rsr, 1);
  assert.equal(episodeMetrics(episode, traj(p, false, { rooms: rooms("region2") }), { rsrRequiresStop: true }).rsr, 0);
  const two: NavEpisode = { ...episode, goals: [...episode.goals, { position: [0, 0, -6], view_points: [] }] };
  assert.equal(episodeMetrics(two, traj(walk([0, 0, 0], [0, 0, -5.5]), true)).distance_to_goal, 0.5);
});

test("distances: Euclidean in 3D by default, the floor plane with ignoreHeight, or the log's geodesic ones", () => {
  const high: NavEpisode = { ...episode, goals: [{ position: [4, 0, 0], view_points: [[4, 1.5, 0]] }] };
  assert.equal(episodeMetrics(high, traj(walk([0, 0, 0], [4, 0, 0]), true)).success, 0);
  assert.equal(episodeMetrics(high, traj(walk([0, 0, 0], [4, 0, 0]), true), { ignoreHeight: true }).success, 1);
  const geo = episodeMetrics({ ...episode, dist_to_goal: 4.5 }, traj(walk([0, 0, 0], [4, 0, 0]), true, { final_distance: 1.2 }), { distance: "geodesic" });
  assert.equal(geo.shortest_path, 4.5);
  assert.equal(geo.success, 0);
  assert.equal(geo.spl, 0);
  assert.equal(geo.soft_spl, (1 - 1.2 / 4.5) * 1);
  assert.throws(() => episodeMetrics(episode, traj([[0, 0, 0]], true), { distance: "geodesic" }), (e: unknown) => e instanceof DataError && /final_distance/.test(e.message));
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0]], true), { distance: "geodesic", finalDistance: () => 0.5 }).success, 1);
  // Stopping on the start (l = 0 = p): SPL is the success.
  const onGoal: NavEpisode = { ...episode, start_position: [4, 0, 0], dist_to_goal: 0 };
  assert.equal(episodeMetrics(onGoal, traj([[4, 0, 0]], true)).spl, 1);
});

test("the released variant: geodesic final distance, no STOP needed, l = dist_to_goal + 1e-6, the logged path length", () => {
  // 4 m walked east, the simulator measured 5 m and a geodesic 0.5 m to the goal; no STOP.
  const t = traj(walk([0, 0, 0], [4, 0, 0]), false, { final_distance: 0.5, path_length: 5 });
  const released = episodeMetrics(episode, t, { metricVariant: "released" });
  assert.equal(released.success, 1);
  assert.equal(released.shortest_path, 4.000001);
  assert.equal(released.path_length, 5);
  assert.equal(released.spl, 4.000001 / 5);
  assert.equal(released.ssr, 1);
  // The paper's rule on the same log: no STOP, no success; p = the 4 m of displacements.
  const paper = episodeMetrics(episode, t);
  assert.deepEqual([paper.success, paper.spl, paper.path_length, paper.shortest_path], [0, 0, 4, 4]);
  // Unreachable (Infinity): a failure; DTG leaves it out.
  const lost = navigationReport([episode], [{ ...t, final_distance: Infinity }], undefined, { metricVariant: "released" });
  assert.deepEqual([lost.summary.SR, lost.summary.soft_SPL, lost.summary.DTG], [0, 0, null]);
  assert.equal(lost.metric_variant, "released");
  assert.match(lost.metric_variant_note, /whether or not STOP was called/);
  assert.throws(() => episodeMetrics(episode, t, { metricVariant: "released", distance: "euclidean" }), /contradicts/);
  assert.throws(() => episodeMetrics(episode, t, { metricVariant: "habitat" as never }), /paper or released/);
});

test("log validation: the one-jump teleport and the 1,500-step log are rejected, naming file and line", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-nav-"));
  const file = path.join(tmp, "bad.jsonl");
  const straight = walk([0, 0, 0], [375, 0, 0]);
  assert.equal(straight.length, 1501);
  writeFileSync(file, [
    JSON.stringify({ episode_id: "ok", positions: walk([0, 0, 0], [1, 0, 0]), stop: true }),
    JSON.stringify({ episode_id: "teleport", positions: [[0, 0, 0], [4, 0, 0]], stop: true }),
    JSON.stringify({ episode_id: "long", positions: straight, stop: true }),
    JSON.stringify({ episode_id: "limit", positions: Array.from({ length: 1002 }, () => [0, 0, 0]), actions: [...Array.from({ length: 1000 }, () => "TURN_LEFT"), "STOP"], stop: true }),
  ].join("\n"));
  const problems = problemsOf(() => loadTrajectories(file));
  assert.deepEqual(problems.map((p) => [p.file, p.line, p.field]), [[file, 2, "positions[1]"], [file, 3, "positions"], [file, 4, "actions"]]);
  assert.match(problems[0]!.message, /positions 0 and 1 are 4 m apart, more than one 0.25 m step \(a teleport\)/);
  assert.match(problems[1]!.message, /1501 positions: at least 1500 actions, more than the limit of 1000/);
  assert.match(problems[2]!.message, /1001 actions, more than the limit of 1000/);
  // Exactly 1,000 actions (STOP included) is allowed.
  assert.deepEqual(trajectoryProblems({ episode_id: "x", positions: walk([0, 0, 0], [249.75, 0, 0]), stop: false }, { file: "f" }), []);
  // In memory the report refuses the teleport too, naming the episode.
  const report = problemsOf(() => navigationReport([episode], [traj([[0, 0, 0], [4, 0, 0]], true)]));
  assert.deepEqual(report.map((p) => [p.file, p.field]), [["trajectories", "positions[1]"]]);
  assert.match(report[0]!.message, /^episode e1: /);
});

test("log validation: every rule on hand-made logs (lengths, actions, turns, STOP, waypoints)", () => {
  const check = (t: Partial<Trajectory> & { positions: number[][] }) => trajectoryProblems({ episode_id: "x", stop: false, ...t }, { file: "f", line: 7 }).map((p) => `${p.field}: ${p.message}`);
  const square = [[0, 0, 0], [0, 0, -0.25], [0, 0, -0.25], [0, 0, -0.25]];
  // A valid action log: FORWARD, TURN_LEFT (0 -> 30), STOP; one collision.
  assert.deepEqual(check({ positions: square, actions: ["FORWARD", "TURN_LEFT", "STOP"], headings: [0, 0, 30, 30], collisions: [true, false, false], stop: true }), []);
  assert.deepEqual(check({ positions: square, actions: ["FORWARD", "TURN_LEFT"] }), ["actions: 2 actions for 3 steps (one per step: positions - 1)"]);
  assert.deepEqual(check({ positions: square, headings: [0, 0] }), ["headings: 2 headings for 4 positions (one per position)"]);
  assert.deepEqual(check({ positions: square, collisions: [false] }), ["collisions: 1 collisions for 3 steps (one per step: positions - 1)"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0.3, 0, 0]], actions: ["FORWARD"] }), ["positions[1]: FORWARD at step 1 moved 0.3 m, more than 0.25 m"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0.1, 0, 0]], actions: ["TURN_RIGHT"] }), ["positions[1]: TURN_RIGHT at step 1 moved the agent 0.1 m; only FORWARD moves"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0, 0, 0.2]], actions: ["STOP"], stop: true }), ["positions[1]: STOP at step 1 moved the agent 0.2 m; only FORWARD moves"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0, 0, 0]], actions: ["TURN_RIGHT"], headings: [0, 30] }), ["headings[1]: TURN_RIGHT at step 1 turned 30 degrees, expected -30"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0, 0, 0], [0, 0, 0]], headings: [170, -160, -115] }), ["headings[2]: the heading changed by 45 degrees between positions 1 and 2, not a multiple of 30 degrees"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0, 0, 0], [0, 0, 0]], actions: ["STOP", "TURN_LEFT"] }), ["actions[0]: STOP at step 1 of 2: STOP ends the episode, so only the last action can be STOP"]);
  assert.deepEqual(check({ positions: [[0, 0, 0], [0, 0, 0]], actions: ["TURN_LEFT"], stop: true }), ["stop: stop is true but the last action is not STOP"]);
  // A 0.17 m height change on a stair step is not counted in the step (Habitat snaps the height).
  assert.deepEqual(check({ positions: [[0, 0, 0], [0.25, 0.17, 0]], actions: ["FORWARD"] }), []);
  // Waypoint logs: any distance between decisions, but path_length is required.
  assert.deepEqual(check({ positions: [[0, 0, 0], [3, 0, 0]], kind: "waypoints", path_length: 3.4 }), []);
  assert.deepEqual(check({ positions: [[0, 0, 0], [3, 0, 0]], kind: "waypoints" }), ["path_length: a waypoint log needs path_length: its positions are decisions, not the path walked between them"]);
});

test("steps and collisions per episode and as means; waypoint logs count decisions and use path_length", () => {
  const actions = episodeMetrics(episode, traj([[0, 0, 0], [0.25, 0, 0], [0.25, 0, 0], [0.25, 0, 0]], true, { actions: ["FORWARD", "TURN_LEFT", "STOP"], collisions: [false, false, false] }));
  assert.deepEqual([actions.steps, actions.decisions, actions.collisions, actions.kind], [3, null, 0, "actions"]);
  const bumped = episodeMetrics(episode, traj([[0, 0, 0], [0.1, 0, 0], [0.1, 0, 0]], false, { actions: ["FORWARD", "FORWARD"], collisions: [true, true] }));
  assert.equal(bumped.collisions, 2);
  const waypoints = episodeMetrics(episode, traj([[0, 0, 0], [2, 0, 0], [4, 0, 0]], true, { kind: "waypoints", path_length: 5 }));
  assert.deepEqual([waypoints.steps, waypoints.decisions, waypoints.path_length, waypoints.spl], [null, 2, 5, 4 / 5]);
  const report = navigationReport([episode, { ...episode, episode_id: "e2" }, { ...episode, episode_id: "e3" }], [
    { ...traj([[0, 0, 0], [0.25, 0, 0], [0.25, 0, 0], [0.25, 0, 0]], true, { actions: ["FORWARD", "TURN_LEFT", "STOP"], collisions: [false, false, false] }) },
    { ...traj([[0, 0, 0], [0.1, 0, 0], [0.1, 0, 0]], false, { actions: ["FORWARD", "FORWARD"], collisions: [true, true] }), episode_id: "e2" },
    { ...traj([[0, 0, 0], [2, 0, 0], [4, 0, 0]], true, { kind: "waypoints", path_length: 5 }), episode_id: "e3" },
  ]);
  assert.equal(report.summary.steps, (3 + 2) / 2, "the waypoint log's actions are unknown");
  assert.equal(report.summary.collisions, (0 + 2) / 2);
});

/**
 * Six episodes for the §6.3 tables (l = 4 each; success: walk 4 m and STOP; e2, e3, e5 STOP at the
 * start, d = 4; e6 STOPs after 2 m, d = 2, SSR 1). Count episodes know their target room.
 *   id  task      N  room       G first  G last  frames rooms area
 *   e1  count     1  region2    yes      yes     40     3     30
 *   e2  count     0  region0    yes      no      60     4     45
 *   e3  count     0  region0    no       no      80     5     50
 *   e4  instance  1  -          yes      yes     30     2     20
 *   e5  instance  0  -          no       yes     50     3     null
 *   e6  instance  0  -          no       no      70     6     55
 */
function sixEpisodes(): { episodes: NavEpisode[]; trajectories: Trajectory[]; facts: EpisodeFacts[] } {
  const rows: Array<[string, string, "walk" | "stay" | "half", string | null, boolean, boolean, number, number, number | null]> = [
    ["e1", "count", "walk", "region2", true, true, 40, 3, 30],
    ["e2", "count", "stay", "region0", true, false, 60, 4, 45],
    ["e3", "count", "stay", "region0", false, false, 80, 5, 50],
    ["e4", "instance", "walk", null, true, true, 30, 2, 20],
    ["e5", "instance", "stay", null, false, true, 50, 3, null],
    ["e6", "instance", "half", null, false, false, 70, 6, 55],
  ];
  const episodes = rows.map(([id, task, , room]) => ({ ...episode, episode_id: id, task_type: task, target_room: room ? "region2" : null }));
  const trajectories = rows.map(([id, , how, room]) => {
    const positions = how === "walk" ? walk([0, 0, 0], [4, 0, 0]) : how === "half" ? walk([0, 0, 0], [2, 0, 0]) : [[0, 0, 0]];
    return { episode_id: id, positions, stop: true, ...(room ? { rooms: positions.map((_, i) => (i === positions.length - 1 ? room : "region0")) } : {}) };
  });
  const facts = rows.map(([id, , , , first, last, frames, rooms, area]) => ({ episode_id: id, goal_first: first, goal_last: last, prior: { frames, rooms, area_m2: area } }));
  return { episodes, trajectories, facts };
}

test("§6.3 tables: P(N | G), RSR given G on R2O tasks, goal identification at the first and last steps", () => {
  const { episodes, trajectories, facts } = sixEpisodes();
  const report = navigationReport(episodes, trajectories, undefined, { episodeFacts: facts });
  assert.equal(report.options.goal_source, "episode facts");
  // G = {e1, e2, e4}: N on e1 and e4 -> 2/3; not G = {e3, e5, e6}: none.
  assert.equal(report.conditional!.correct.SR, 2 / 3);
  assert.equal(report.conditional!.wrong.SR, 0);
  assert.equal(report.conditional!.no_result.n, 0);
  // R2O (count) only: G = {e1, e2}: RSR (1 + 0) / 2; not G = {e3}: 0.
  assert.deepEqual([report.conditional_r2o!.correct.n, report.conditional_r2o!.correct.RSR, report.conditional_r2o!.wrong.RSR], [2, 0.5, 0]);
  const gid = report.goal_identification!;
  assert.deepEqual(gid.by_task["count"], { metric: "Rid-SR", first: { value: 2 / 3, n: 3 }, last: { value: 1 / 3, n: 3 }, navigation: { metric: "RSR", value: 1 / 3, n: 3 } });
  assert.deepEqual(gid.by_task["instance"], { metric: "Oid-SR", first: { value: 1 / 3, n: 3 }, last: { value: 2 / 3, n: 3 }, navigation: { metric: "SSR", value: 2 / 3, n: 3 } });
  assert.deepEqual(gid["Rid-SR"].first, { mean_of_types: 2 / 3, pooled: 2 / 3, n: 3 });
  assert.deepEqual(gid["Rid-SR"].navigation, { metric: "RSR", value: { mean_of_types: 1 / 3, pooled: 1 / 3, n: 3 } });
  assert.deepEqual(gid["Oid-SR"].last, { mean_of_types: 2 / 3, pooled: 2 / 3, n: 3 });
});

test("§6.3 correlations with the prior video's frames, rooms and area (values from Python's statistics.correlation)", () => {
  const { episodes, trajectories, facts } = sixEpisodes();
  const c = navigationReport(episodes, trajectories, undefined, { episodeFacts: facts }).correlations!;
  const near = (actual: number | null, expected: number) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} vs ${expected}`);
  assert.deepEqual(Object.keys(c), ["all", "count", "instance"]);
  near(c["all"]!.success.frames.r, -0.828078671210825);
  near(c["all"]!.success.rooms.r, -0.7016464154456235);
  near(c["all"]!.success.area_m2.r, -0.9393364366277241);
  assert.equal(c["all"]!.success.area_m2.n, 5, "e5 has no area");
  near(c["all"]!.goal_first.frames.r, -0.6831300510639732);
  near(c["all"]!.goal_last.area_m2.r, -0.9393364366277241);
  // By hand, count: frames 40, 60, 80 (dx -20, 0, 20), success 1, 0, 0 (dy 2/3, -1/3, -1/3):
  // Σdxdy = -20, Σdx² = 800, Σdy² = 2/3 -> r = -20 / √(1600 / 3) = -√3 / 2.
  near(c["count"]!.success.frames.r, -Math.sqrt(3) / 2);
  assert.deepEqual(c["instance"]!.success.area_m2, { r: null, n: 2 });
  // Count, goal at the last step 1, 0, 0 against rooms 3, 4, 5: the same shape, -√3 / 2.
  near(c["count"]!.goal_last.rooms.r, -Math.sqrt(3) / 2);
  // Without facts there is no correlation table.
  assert.equal(navigationReport(episodes, trajectories).correlations, undefined);
  // Bad facts are a DataError.
  assert.match(problemsOf(() => navigationReport(episodes, trajectories, undefined, { episodeFacts: [facts[0]!, facts[0]!] }))[0]!.message, /two fact records for episode e1/);
  assert.deepEqual(problemsOf(() => navigationReport(episodes, trajectories, undefined, { episodeFacts: [{ episode_id: "e1", prior: { frames: -1, rooms: 2, area_m2: null } }] })).map((p) => p.field), ["e1.prior.frames"]);
});

test("the report: missing logs fail and are counted, tables per task, conditional on goal identification", () => {
  const episodes: NavEpisode[] = [
    episode,
    { ...episode, episode_id: "e2", task_type: "instance" },
    { ...episode, episode_id: "e3", task_type: "instance" },
  ];
  const straight = walk([0, 0, 0], [4, 0, 0]);
  const trajectories: Trajectory[] = [
    traj(straight, true, { rooms: straight.map((_, i) => (i === straight.length - 1 ? "region2" : "r")) }),
    { ...traj(walk([0, 0, 0], [0, 0, 3], [4, 0, 3], [4, 0, 0]), true), episode_id: "e2" },
    { ...traj([[0, 0, 0]], true), episode_id: "stray" },
  ];
  const report = navigationReport(episodes, trajectories, [{ episode_id: "e1", correct: true }, { episode_id: "e2", correct: false }]);
  assert.equal(report.metric_variant, "paper");
  assert.equal(report.summary.n, 3);
  assert.equal(report.summary.missing, 1);
  assert.equal(report.summary.SR, 2 / 3);
  assert.equal(report.summary.SPL, (1 + 0.4 + 0) / 3);
  assert.equal(report.summary.RSR, 0.5, "e1 in the room, e3 missing; e2 has no room information");
  assert.equal(report.summary.rsr_n, 2);
  assert.deepEqual(Object.keys(report.by_task), ["count", "instance"]);
  assert.equal(report.by_task["instance"]!.SPL, 0.2);
  assert.equal(report.conditional!.correct.SPL, 1);
  assert.equal(report.conditional!.wrong.SPL, 0.4);
  assert.equal(report.conditional!.no_result.n, 1);
  assert.equal(report.options.goal_source, "goal-identification run");
  assert.deepEqual(report.goal_identification!.by_task["count"]!.first, { value: 1, n: 1 });
  assert.deepEqual(report.unmatched_trajectories, ["stray"]);
  // Facts override the run where they know G; the run fills in the rest.
  const mixed = navigationReport(episodes, trajectories, [{ episode_id: "e1", correct: true }, { episode_id: "e2", correct: false }], { episodeFacts: [{ episode_id: "e2", goal_first: true }] });
  assert.equal(mixed.conditional!.correct.n, 2);
  assert.equal(mixed.options.goal_source, "episode facts, else the goal-identification run");
  const md = navigationMarkdown(report);
  assert.match(md, /\| goal identified \| 1 \| 100\.0 \| 100\.0 \|/);
  assert.match(md, /1 trajectories name no known episode/);
  assert.throws(() => navigationReport(episodes, [trajectories[0]!, trajectories[0]!]), /two trajectories for episode e1/);
});

const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-nav-"));
const write = (name: string, data: string | Buffer) => {
  const file = path.join(tmp, name);
  writeFileSync(file, data);
  return file;
};
const released = {
  episodes: [
    {
      episode_id: 7,
      scene_id: "mp3d/abc",
      start_position: [1, 0.1, 2],
      start_rotation: [0, 0.7071, 0, 0.7071],
      instruction: { task_type: "instance", instruction_text: "Go to the sink.", instance_id: ["1mp3d_0070_region1/washbasin_10"] },
      object_category: "washbasin",
      goals: [{ position: [3, 0.1, 2], view_points: [{ agent_state: { position: [2.5, 0.1, 2], rotation: [0, 0, 0, 1] } }], bbox: [[0, 0, 0], [1, 1, 1]] }],
      dist_to_goal: 1.5,
    },
  ],
};

test("released episodes: gzip JSON read, view points normalised, target room from the instance id", () => {
  const episodes = loadEpisodes(write("ok.json.gz", gzipSync(JSON.stringify(released))));
  assert.equal(episodes.length, 1);
  const e = episodes[0]!;
  assert.equal(e.episode_id, "7");
  assert.deepEqual(e.goals[0]!.view_points, [[2.5, 0.1, 2]]);
  assert.equal(e.target_room, "region1");
  assert.equal(e.task_type, "instance");
  assert.equal(regionOf("1mp3d_0070_region12/chair_1"), "region12");
  assert.equal(regionOf(undefined), null);
  // Plain JSON under another name is read as well.
  assert.equal(loadEpisodes(write("plain.json", JSON.stringify(released))).length, 1);
  assert.equal(episodeMetrics(e, { episode_id: "7", positions: walk([1, 0.1, 2], [2.5, 0.1, 2]), stop: true }).spl, 1);
});

test("episode loader errors are clear: missing file, not gzip, broken gzip, bad JSON, bad fields", () => {
  assert.match(problemsOf(() => loadEpisodes(path.join(tmp, "nope.json.gz")))[0]!.message, /not found/);
  assert.match(problemsOf(() => loadEpisodes(write("fake.json.gz", JSON.stringify(released))))[0]!.message, /not gzip-compressed/);
  const gz = gzipSync(JSON.stringify(released));
  assert.match(problemsOf(() => loadEpisodes(write("cut.json.gz", gz.subarray(0, gz.length - 10))))[0]!.message, /not a readable gzip file/);
  assert.match(problemsOf(() => loadEpisodes(write("badjson.json.gz", gzipSync("{episodes: ["))))[0]!.message, /invalid JSON/);
  assert.deepEqual(problemsOf(() => loadEpisodes(write("list.json.gz", gzipSync("[]")))).map((p) => p.field), ["episodes"]);
  const bad = { episodes: [released.episodes[0], { ...released.episodes[0], episode_id: 8, goals: [] }, { ...released.episodes[0], episode_id: 9, start_position: "here" }, released.episodes[0]] };
  const problems = problemsOf(() => loadEpisodes(write("bad.json.gz", gzipSync(JSON.stringify(bad)))));
  assert.deepEqual(problems.map((p) => p.field), ["episodes[1].goals", "episodes[2].start_position", "episodes[3].episode_id"]);
  assert.match(problems[2]!.message, /duplicate episode_id 7/);
});

test("an episode file is inflated within its limit: a gzip bomb stops there, with a clear message", () => {
  // 257 MiB of spaces deflate to a few hundred KB; inflating stops at MAX_EPISODE_FILE_BYTES (256 MiB).
  const bomb = write("bomb.json.gz", gzipSync(Buffer.alloc(MAX_EPISODE_FILE_BYTES + 1024 * 1024, 0x20), { level: 9 }));
  assert.deepEqual(problemsOf(() => loadEpisodes(bomb)).map((p) => p.message), [`inflates past ${MAX_EPISODE_FILE_BYTES} bytes, the limit for an episode file; refused`]);
  assert.equal(MAX_EPISODE_FILE_BYTES, 256 * 1024 * 1024);
});

test("trajectory logs: every bad line reported with its line and field; the new optional fields read", () => {
  const lines = [
    JSON.stringify({ episode_id: "a", positions: [[0, 0, 0], [0.25, 0, 0]], stop: true, rooms: ["r1", "r2"] }),
    JSON.stringify({ episode_id: "b", positions: [[0, 0, 0]], stop: true, rooms: ["r1", "r2"] }),
    "{not json",
    JSON.stringify({ episode_id: "c", positions: [], stop: "yes" }),
    JSON.stringify({ episode_id: "a", positions: [[0, 0, 0]], stop: false }),
    JSON.stringify({ episode_id: "d", positions: [[0, 0, 0], [0, 0, 0]], stop: false, actions: ["JUMP"], kind: "teleports" }),
  ];
  const problems = problemsOf(() => loadTrajectories(write("traj.jsonl", lines.join("\n"))));
  assert.deepEqual(problems.map((p) => [p.line, p.field]), [[2, "rooms"], [3, undefined], [4, "positions"], [4, "stop"], [5, "episode_id"], [6, "actions[0]"], [6, "kind"]]);
  assert.equal(loadTrajectories(write("ok.jsonl", lines[0]!)).length, 1);
  const full = { episode_id: "f", positions: [[0, 0, 0], [0, 0, 0], [0, 0, -0.25], [0, 0, -0.25]], stop: true, actions: ["TURN_LEFT", "FORWARD", "STOP"], headings: [0, 30, 30, 30], collisions: [false, false, false], path_length: 0.25, kind: "actions", goal_frames: [3, null, 3], final_distance: 0.4 };
  assert.deepEqual(loadTrajectories(write("full.jsonl", JSON.stringify(full))), [full]);
});

test("issue 25: an episode file with a start of 1e16 (which once hung `navigate vcn` in the simulator) is refused by file and field, as navigation reads it too", () => {
  const episode = { ...released.episodes[0]!, start_position: [1e16, 0, 1e16], episode_id: 2 ** 53 + 2 };
  const file = write("far.json", JSON.stringify({ episodes: [episode, { ...released.episodes[0]!, dist_to_goal: -1, episode_id: "e2" }] }));
  const expected = [
    { file, field: "episodes[0].episode_id", message: "must be a whole number within ±(2^53 - 1) (a safe integer)" },
    { file, field: "episodes[0].start_position[0]", message: "must be between -10000 and 10000 (metres)" },
    { file, field: "episodes[0].start_position[2]", message: "must be between -10000 and 10000 (metres)" },
    { file, field: "episodes[1].dist_to_goal", message: "must be between 0 and 100000 (metres)" },
  ];
  assert.deepEqual(problemsOf(() => loadEpisodes(file)), expected);
  // `navigate vcn` reads the same file: the same problems, each once, before any simulator starts.
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-nav-bounds-"));
  writeFileSync(path.join(dir, "episodes.json"), JSON.stringify({ episodes: [episode] }));
  assert.deepEqual(problemsOf(() => loadNavTasks(dir)), expected.slice(0, 3).map((p) => ({ ...p, file: "episodes.json" })));
});

test("issue 25: trajectory logs: headings, distances and goal frames out of range are problems on their line", () => {
  const file = write("bounded.jsonl", [
    JSON.stringify({ episode_id: "7", positions: [[1, 0, 2]], stop: false, headings: [1e9] }),
    JSON.stringify({ episode_id: "8", positions: [[1, 0, 2]], stop: false, path_length: -2, goal_frames: [2 ** 53 + 2] }),
  ].join("\n"));
  assert.deepEqual(problemsOf(() => loadTrajectories(file)), [
    { file, line: 1, field: "headings[0]", message: "must be between -36000 and 36000 (degrees)" },
    { file, line: 2, field: "path_length", message: "must be between 0 and 100000 (metres)" },
    { file, line: 2, field: "goal_frames[0]", message: "must be a whole number from 0 to 10000000" },
  ]);
});
