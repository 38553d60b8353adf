import assert from "node:assert/strict";
import path from "node:path";
import { after, test } from "node:test";
import { builtinAgent, chooseGoalFrame, goalPoints, innerViewPoints, oracleReachM, type NavAgent } from "../../../src/benchmarks/vcn/navigate/agents.js";
import { HousePlans } from "../../../src/benchmarks/vcn/navigate/houses.js";
import { runEpisode } from "../../../src/benchmarks/vcn/navigate/loop.js";
import { navigationScores } from "../../../src/benchmarks/vcn/navigate/scores.js";
import { loadNavTasks, type NavTask } from "../../../src/benchmarks/vcn/navigate/tasks.js";
import type { EpisodeRecord } from "../../../src/benchmarks/vcn/navigate/types.js";
import type { RunIdentity } from "../../../src/benchmarks/vcn/navigate/runner.js";
import { HouseCache } from "../../../src/sim/house-cache.js";
import { createWorldSimulator } from "../../../src/sim/world-sim.js";

const DATA = path.resolve(import.meta.dirname, "../../../examples/vcn-mini");
const houses = new HouseCache({ dataRoot: DATA });
after(() => houses.close());
const { tasks } = loadNavTasks(DATA);
const signal = new AbortController().signal;

async function runAll(agent: NavAgent, list: readonly NavTask[], maxActions = 1000): Promise<EpisodeRecord[]> {
  const env = createWorldSimulator({ dataRoot: DATA, houses, maxActions });
  const out: EpisodeRecord[] = [];
  for (const task of list) out.push(await runEpisode(task, env, agent, { intervention: "none", signal }));
  await env.close();
  return out;
}

const identity = (agent: string): RunIdentity => ({ kind: "navigation", benchmark: "vcn", data: DATA, model: agent, agent, mode: "action", intervention: "none", episodes: 15, settings: {} });
const floor = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[2]! - b[2]!);

test("tasks: every episode of the example joins its item, its tour poses and its prior-video attributes", () => {
  assert.equal(tasks.length, 15);
  for (const t of tasks) {
    assert.ok(t.item, t.id);
    assert.equal(t.framePositions?.length, t.item!.annotations.length);
    assert.ok(t.framePositions!.every((p) => p !== null));
    assert.ok(t.successFrames.length > 0);
    assert.equal(t.prior!.frames, t.item!.annotations.length);
    assert.equal(t.prior!.rooms, new Set(t.item!.annotations.map((a) => a.room).filter((r) => r !== null)).size);
    assert.ok(t.prior!.area_m2! > 0);
  }
});

test("oracle reach: half a step over the cosine of half a turn, plus 1 mm", () => {
  // 0.25 / (2 cos 15 deg) + 0.001 = 0.125 / 0.965926 + 0.001 = 0.129410 + 0.001.
  assert.ok(Math.abs(oracleReachM(0.25, 30) - 0.13041) < 1e-5);
  // 90-degree turns: 0.125 / cos 45 deg + 0.001 = 0.176777 + 0.001.
  assert.ok(Math.abs(oracleReachM(0.25, 90) - 0.177777) < 1e-5);
});

test("inner view points: those with view points 0.2 m away along both axes; all when none has", () => {
  // A 5 x 5 lattice every 0.1 m (x, z in 0..0.4): only the centre has all four neighbours at 0.2 m.
  const square = [0, 1, 2, 3, 4].flatMap((i) => [0, 1, 2, 3, 4].map((j) => [i / 10, 0, j / 10] as [number, number, number]));
  assert.deepEqual(innerViewPoints(square), [[0.2, 0, 0.2]]);
  // 5 x 6 (z up to 0.5): (0.2, 0.2) and (0.2, 0.3); a neighbour 0.015 m off the lattice still counts.
  const taller = [...square, ...[0, 1, 2, 3, 4].map((i) => [i / 10, 0, 0.5] as [number, number, number])];
  assert.deepEqual(innerViewPoints(taller), [[0.2, 0, 0.2], [0.2, 0, 0.3]]);
  const nudged = taller.map((p) => (p[0] === 0.4 && p[2] === 0.2 ? ([0.415, 0, 0.2] as [number, number, number]) : p));
  assert.deepEqual(innerViewPoints(nudged), [[0.2, 0, 0.2], [0.2, 0, 0.3]]);
  const far = taller.map((p) => (p[0] === 0.4 && p[2] === 0.2 ? ([0.425, 0, 0.2] as [number, number, number]) : p));
  assert.deepEqual(innerViewPoints(far), [[0.2, 0, 0.3]]);
  // A single row has no inner point: every point is kept.
  const row = [0, 1, 2].map((i) => [i / 10, 0, 0] as [number, number, number]);
  assert.deepEqual(innerViewPoints(row), row);
});

test("the oracle agent: SR 1 and RSR 1, ending within 0.1305 m of an inner goal view point, inside the target room; SPL is l / max(l, p) over the path walked; the same run twice gives the same trajectories", async () => {
  const agent = builtinAgent("oracle")!;
  const records = await runAll(agent, tasks);
  const plans = new HousePlans(DATA);
  const scores = navigationScores(identity("oracle"), createWorldSimulator({ dataRoot: DATA, houses }).info, tasks, records, {
    options: { roomOf: (position, episode) => plans.regionAt(episode.scene_id ?? "", position) ?? null },
  });
  assert.equal(scores.navigation.summary.SR, 1);
  assert.equal(scores.navigation.summary.RSR, 1);
  assert.equal(scores.navigation.summary.rsr_n, 15);
  let splSum = 0;
  for (const [k, r] of records.entries()) {
    const task = tasks[k]!;
    assert.equal(r.end, "stop");
    const last = r.steps[r.steps.length - 1]!;
    assert.equal(last.action, "STOP");
    const nearest = Math.min(...innerViewPoints(goalPoints(task)).map((p) => floor(p, last.position)));
    // 0.25 m steps, 30-degree turns: within 0.125 / cos 15 deg + 1 mm = 0.13041 m of an inner view point.
    assert.ok(nearest <= 0.13041, `${r.episode_id}: ${nearest}`);
    assert.equal(plans.regionAt(task.env.scene_id, last.position), task.episode.target_room, r.episode_id);
    // Every FORWARD moves at most 0.25 m; turns do not move. p = the summed moves.
    let previous = r.start.position;
    let walked = 0;
    for (const s of r.steps) {
      const moved = floor(previous, s.position);
      if (s.action === "FORWARD") assert.ok(moved <= 0.25 + 1e-9, `${r.episode_id} t=${s.t}: ${moved}`);
      else assert.ok(moved < 1e-9, `${r.episode_id} t=${s.t} ${s.action} moved ${moved}`);
      walked += moved;
      previous = s.position;
    }
    const l = task.episode.dist_to_goal!;
    splSum += l / Math.max(l, walked);
  }
  assert.ok(Math.abs(scores.navigation.summary.SPL! - splSum / records.length) < 1e-9);
  const again = await runAll(agent, tasks.slice(0, 3));
  assert.deepEqual(again.map((r) => r.steps), records.slice(0, 3).map((r) => r.steps));
});

test("forward-only stops after its first blocked FORWARD; the action limit ends a random walk", async () => {
  const forward = await runAll(builtinAgent("forward-only")!, tasks.slice(0, 3));
  for (const r of forward) {
    assert.equal(r.end, "stop");
    const moves = r.steps.slice(0, -1);
    assert.ok(moves.every((s) => s.action === "FORWARD"));
    assert.equal(moves.filter((s) => s.collided).length, 1, r.episode_id);
    assert.equal(moves[moves.length - 1]!.collided, true);
  }
  const limited = await runAll(builtinAgent("random-walk:5")!, tasks.slice(0, 4), 12);
  for (const r of limited) {
    assert.ok(r.steps.length <= 12);
    if (r.end === "action-limit") assert.equal(r.steps.length, 12);
    else assert.equal(r.steps[r.steps.length - 1]!.action, "STOP");
  }
  assert.ok(limited.some((r) => r.end === "action-limit"));
  // Seeded per episode: the same seed walks the same way.
  const again = await runAll(builtinAgent("random-walk:5")!, tasks.slice(0, 4), 12);
  assert.deepEqual(again.map((r) => r.steps), limited.map((r) => r.steps));
});

test("goal-then-plan: the chosen frame's goal identification is logged, and the robot stops within 0.25 m (plus a step) of the frame's place", async () => {
  for (const rule of ["oracle", "first"] as const) {
    const list = tasks.slice(0, 4);
    const records = await runAll(builtinAgent(`goal-then-plan:${rule}`)!, list);
    records.forEach((r, k) => {
      const task = list[k]!;
      const frame = chooseGoalFrame(task, rule, 0)!;
      assert.equal(r.decisions[0]!.goal_frame, frame);
      assert.equal(r.decisions[0]!.goal_correct, task.successFrames.includes(frame));
      if (rule === "oracle") assert.equal(r.decisions[0]!.goal_correct, true);
      assert.equal(r.end, "stop");
      const final = r.steps[r.steps.length - 1]!.position;
      assert.ok(floor(final, task.framePositions![frame]!) < 0.25 + 0.25, `${r.episode_id}: ${floor(final, task.framePositions![frame]!)}`);
    });
  }
});
