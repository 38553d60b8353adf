import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import {
  episodeMetrics,
  loadEpisodes,
  loadTrajectories,
  navigationMarkdown,
  navigationReport,
  regionOf,
  type NavEpisode,
  type Trajectory,
} from "../../../src/benchmarks/vcn/index.js";
import { DataError } from "../../../src/core/problems.js";

/** Start at the origin; one goal with one view point 4 m east: l = 4 (Euclidean). */
const episode: NavEpisode = { episode_id: "e1", task_type: "count", start_position: [0, 0, 0], goals: [{ position: [5, 0, 0], view_points: [[4, 0, 0]] }], dist_to_goal: 4.5, target_room: "region2" };
const traj = (positions: number[][], stop: boolean, extra: Partial<Trajectory> = {}): Trajectory => ({ episode_id: "e1", positions, stop, ...extra });

test("success boundary: 0.9999 m succeeds, exactly 1.0 m fails (strictly below the success distance)", () => {
  const near = episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 0.9999]], true));
  assert.equal(near.distance_to_goal, 0.9999);
  assert.equal(near.success, 1);
  const at = episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 1]], true));
  assert.equal(at.distance_to_goal, 1);
  assert.equal(at.success, 0);
  assert.equal(at.spl, 0);
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 1]], true), { successDistance: 1.5 }).success, 1);
});

test("SPL with a detour: l = 4, p = 3 + 4 + 3 = 10, SPL = 0.4; soft SPL the same when the goal is reached", () => {
  const m = episodeMetrics(episode, traj([[0, 0, 0], [0, 0, 3], [4, 0, 3], [4, 0, 0]], true));
  assert.equal(m.path_length, 10);
  assert.equal(m.shortest_path, 4);
  assert.equal(m.success, 1);
  assert.equal(m.spl, 0.4);
  assert.equal(m.soft_spl, 0.4);
  assert.equal(m.steps, 3);
  // The straight route: SPL 1.
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [2, 0, 0], [4, 0, 0]], true)).spl, 1);
});

test("no STOP: SR, SPL and SSR are 0 even on the goal; soft SPL does not need STOP", () => {
  const m = episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 0]], false));
  assert.deepEqual([m.success, m.spl, m.ssr, m.soft_spl], [0, 0, 0, 1]);
});

test("SSR: STOP within 3 m (strictly); soft SPL = (1 - d/l) × l / max(l, p)", () => {
  const m = episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 2.5]], true));
  assert.equal(m.success, 0);
  assert.equal(m.ssr, 1);
  const p = Math.hypot(4, 2.5);
  assert.equal(m.soft_spl, (1 - 2.5 / 4) * (4 / p));
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 3]], true)).ssr, 0);
  // Farther than l: soft success is clipped at 0.
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [-3, 0, 0]], true)).soft_spl, 0);
});

test("RSR from the log's rooms or a room function; the nearest view point of any goal counts", () => {
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 2]], true, { rooms: ["region0", "region2"] })).rsr, 1);
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 2]], true, { rooms: ["region0", "region1"] })).rsr, 0);
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 2]], true)).rsr, null, "no room information");
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 2]], false), { roomOf: (p) => (p[0]! > 3 ? "region2" : "region0") }).rsr, 1);
  assert.equal(episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 2]], false, { rooms: ["a", "region2"] }), { rsrRequiresStop: true }).rsr, 0);
  const two: NavEpisode = { ...episode, goals: [...episode.goals, { position: [0, 0, -6], view_points: [] }] };
  assert.equal(episodeMetrics(two, traj([[0, 0, 0], [0, 0, -5.5]], true)).distance_to_goal, 0.5);
});

test("distances: Euclidean in 3D by default, the floor plane with ignoreHeight, or the log's geodesic ones", () => {
  const high: NavEpisode = { ...episode, goals: [{ position: [4, 0, 0], view_points: [[4, 1.5, 0]] }] };
  assert.equal(episodeMetrics(high, traj([[0, 0, 0], [4, 0, 0]], true)).success, 0);
  assert.equal(episodeMetrics(high, traj([[0, 0, 0], [4, 0, 0]], true), { ignoreHeight: true }).success, 1);
  const geo = episodeMetrics(episode, traj([[0, 0, 0], [4, 0, 0]], true, { final_distance: 1.2 }), { distance: "geodesic" });
  assert.equal(geo.shortest_path, 4.5);
  assert.equal(geo.success, 0);
  assert.equal(geo.spl, 0);
  assert.equal(geo.soft_spl, (1 - 1.2 / 4.5) * 1);
  assert.throws(() => episodeMetrics(episode, traj([[0, 0, 0]], true), { distance: "geodesic" }), (e: unknown) => e instanceof DataError && /final_distance/.test(e.message));
  // Stopping on the start (l = 0 = p): SPL is the success.
  const onGoal: NavEpisode = { ...episode, start_position: [4, 0, 0] };
  assert.equal(episodeMetrics(onGoal, traj([[4, 0, 0]], true)).spl, 1);
});

test("the report: missing logs fail and are counted, tables per task, conditional on goal identification", () => {
  const episodes: NavEpisode[] = [
    episode,
    { ...episode, episode_id: "e2", task_type: "instance" },
    { ...episode, episode_id: "e3", task_type: "instance" },
  ];
  const trajectories: Trajectory[] = [
    traj([[0, 0, 0], [4, 0, 0]], true, { rooms: ["r", "region2"] }),
    { ...traj([[0, 0, 0], [0, 0, 3], [4, 0, 3], [4, 0, 0]], true), episode_id: "e2" },
    { ...traj([[0, 0, 0]], true), episode_id: "stray" },
  ];
  const report = navigationReport(episodes, trajectories, [{ episode_id: "e1", correct: true }, { episode_id: "e2", correct: false }]);
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
  assert.deepEqual(report.unmatched_trajectories, ["stray"]);
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

function problemsOf(fn: () => unknown): Array<{ field?: string; line?: number; message: string }> {
  try {
    fn();
  } catch (error) {
    if (error instanceof DataError) return error.problems;
    throw error;
  }
  assert.fail("expected a DataError");
}

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
  assert.equal(episodeMetrics(e, { episode_id: "7", positions: [[1, 0.1, 2], [2.5, 0.1, 2]], stop: true }).spl, 1);
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

test("trajectory logs: every bad line reported with its line and field", () => {
  const lines = [
    JSON.stringify({ episode_id: "a", positions: [[0, 0, 0], [1, 0, 0]], stop: true, rooms: ["r1", "r2"] }),
    JSON.stringify({ episode_id: "b", positions: [[0, 0, 0]], stop: true, rooms: ["r1", "r2"] }),
    "{not json",
    JSON.stringify({ episode_id: "c", positions: [], stop: "yes" }),
    JSON.stringify({ episode_id: "a", positions: [[0, 0, 0]], stop: false }),
  ];
  const problems = problemsOf(() => loadTrajectories(write("traj.jsonl", lines.join("\n"))));
  assert.deepEqual(problems.map((p) => [p.line, p.field]), [[2, "rooms"], [3, undefined], [4, "positions"], [4, "stop"], [5, "episode_id"]]);
  assert.equal(loadTrajectories(write("ok.jsonl", lines[0]!)).length, 1);
});
