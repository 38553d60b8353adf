/**
 * Steps per second of the built-in simulator (src/sim/world-sim.ts) with its four views at
 * 384 x 384 (issue 13 target: >= 20 steps/s on one core), on examples/vcn-mini:
 *
 *   node --import tsx bench/sim-steps.ts [--blind-steps 20000]
 *
 * The timed actions are fixed before timing: for episodes vcn_0001-vcn_0003 (house_001), actions
 * that walk to the nearest view point (planActions: a greedy walk on the robot grid over the 12
 * headings). The house is loaded and 8 warm-up steps are taken first; resets are not timed. A view is rendered only for
 * a direction not yet seen from the current position (world-sim.ts reuses the rest), so the
 * output says how many views were rendered and how many reused, and what a step costs when all
 * four are new. Splits: motion (grid checks), render (renderView, main thread), encode (JPEG by
 * sharp, on its thread pool). "one core" divides the steps by the process's CPU time (user +
 * system), so threads beside the main one are charged too; "wall clock" is what a run sees on a
 * machine shared with other work. Then `render: false` (motion only) over --blind-steps actions.
 *
 * Prints the figures and their ratio to the 20 steps/s target; no assertion on time. Exits non-zero
 * when a repeat of the timed run gives other observation bytes (determinism).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { createWorldSimulator } from "../src/sim/world-sim.js";
import { nearestViewPoint } from "../src/sim/routes.js";
import { HouseCache } from "../src/sim/house-cache.js";
import { forwardMove, ROBOT_MOTION } from "../src/sim/motion.js";
import type { EnvEpisode, NavAction, Observation, Vec3 } from "../src/sim/types.js";
import { planOfHabitat, planYawOfHeading, startHeading } from "../src/sim/world-sim.js";
import { shortestPathTree, type OccupancyGrid } from "../src/world/space/index.js";
import type { Vec2 } from "../src/world/types.js";
import { REPO_ROOT, table } from "./lib/common.js";

const TARGET = 20;
const WARMUP = 8;
const DATA = path.join(REPO_ROOT, "examples/vcn-mini");
const EPISODES = ["vcn_0001", "vcn_0002", "vcn_0003"];
const PATTERN: NavAction[] = ["FORWARD", "FORWARD", "TURN_LEFT", "FORWARD", "TURN_RIGHT", "TURN_RIGHT", "FORWARD", "TURN_LEFT"];

interface BenchEpisode extends EnvEpisode {
  goals: Array<{ view_points: Array<{ agent_state: { position: Vec3 } }> }>;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

const sequence = (n: number): NavAction[] => Array.from({ length: n }, (_, k) => PATTERN[k % PATTERN.length]!);

/**
 * Actions that take the robot to the episode's nearest view point (at most 300): from each pose,
 * of the 12 headings the one whose FORWARD (motion.ts on the robot grid) ends geodesically nearest
 * to the goal, reached by the shorter way round, then FORWARD; until within 0.25 m of the goal or
 * no FORWARD gets nearer.
 */
function planActions(grid: OccupancyGrid, e: BenchEpisode): NavAction[] {
  const goals = e.goals.flatMap((g) => g.view_points.map((v) => planOfHabitat(v.agent_state.position)));
  let position = planOfHabitat(e.start_position);
  const goal = nearestViewPoint(shortestPathTree(grid, position), goals)!.point;
  const toGoal = shortestPathTree(grid, goal);
  const yaw0 = planYawOfHeading(startHeading(e.start_rotation));
  let turns = 0;
  const actions: NavAction[] = [];
  while (actions.length < 300 && toGoal.distanceTo(position) > 0.25) {
    let best: { k: number; position: Vec2; d: number } | null = null;
    for (let k = 0; k < 12; k++) {
      const moved = forwardMove(grid, position, yaw0 + (k * Math.PI) / 6, ROBOT_MOTION.forwardM);
      const d = toGoal.distanceTo(moved.position);
      if (best === null || d < best.d) best = { k, position: moved.position, d };
    }
    if (!best || !(best.d < toGoal.distanceTo(position))) break;
    const left = (((best.k - turns) % 12) + 12) % 12;
    for (let t = 0; t < Math.min(left, 12 - left); t++) actions.push(left <= 6 ? "TURN_LEFT" : "TURN_RIGHT");
    actions.push("FORWARD");
    turns = best.k;
    position = best.position;
  }
  return actions;
}

function digest(observations: readonly Observation[]): string {
  const h = createHash("sha256");
  for (const o of observations) {
    h.update(JSON.stringify({ step: o.step, pose: o.pose, collided: o.collided }));
    for (const v of o.views) h.update(v.data);
  }
  return h.digest("hex");
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const blindSteps = arg("blind-steps", 20000);
  const released = JSON.parse(gunzipSync(readFileSync(path.join(DATA, "episodes.json.gz"))).toString("utf8")).episodes as BenchEpisode[];
  const episodes = EPISODES.map((id) => released.find((e) => e.episode_id === id)!);
  const houses = new HouseCache({ dataRoot: DATA });
  const sim = createWorldSimulator({ dataRoot: DATA, houses, maxActions: blindSteps + 1 });
  const tLoad = performance.now();
  const { grid } = await houses.get(episodes[0]!.scene_id);
  const loadMs = performance.now() - tLoad;
  const plans = episodes.map((e) => ({ episode: e, actions: planActions(grid, e) }));
  const steps = plans.reduce((n, p) => n + p.actions.length, 0);
  const count = (a: NavAction) => plans.reduce((n, p) => n + p.actions.filter((x) => x === a).length, 0);
  console.log(`Built-in simulator bench: ${EPISODES.join(", ")} in ${episodes[0]!.scene_id} (house loaded in ${(loadMs / 1000).toFixed(1)} s), ${sim.info.camera.width}x${sim.info.camera.height} views, hfov ${sim.info.camera.hfov_deg} deg, antialias off`);
  console.log(`node ${process.version}; ${WARMUP} warm-up steps, then ${steps} timed steps walking to the goals (${count("FORWARD")} FORWARD, ${count("TURN_LEFT")} TURN_LEFT, ${count("TURN_RIGHT")} TURN_RIGHT)`);

  await sim.reset(episodes[0]!);
  for (const a of sequence(WARMUP)) await sim.step(a);

  const timedRun = async (): Promise<{ wallMs: number; cpu: number; observations: Observation[]; split: typeof sim.timings }> => {
    const observations: Observation[] = [];
    let wallMs = 0, cpu = 0;
    const split = { motionMs: 0, renderMs: 0, encodeMs: 0, rendered: 0, reused: 0 };
    for (const plan of plans) {
      observations.push(await sim.reset(plan.episode));
      const before = { ...sim.timings };
      const c0 = cpuMs();
      const t0 = performance.now();
      for (const a of plan.actions) observations.push((await sim.step(a)).observation);
      wallMs += performance.now() - t0;
      cpu += cpuMs() - c0;
      for (const k of Object.keys(split) as Array<keyof typeof split>) split[k] += sim.timings[k] - before[k];
    }
    return { wallMs, cpu, observations, split };
  };
  const run = await timedRun();
  const again = await timedRun();
  const same = digest(run.observations) === digest(again.observations);

  const s = run.split;
  const perStep = (ms: number) => (ms / steps).toFixed(1);
  const rate = (ms: number) => (steps / (ms / 1000)).toFixed(2);
  const times = (ms: number) => (steps / (ms / 1000) / TARGET).toFixed(3);
  console.log(table(["4 views per step", "ms/step", "steps/s", "x target"], [
    ["wall clock", perStep(run.wallMs), rate(run.wallMs), times(run.wallMs)],
    ["one core (CPU time)", perStep(run.cpu), rate(run.cpu), times(run.cpu)],
  ]));
  const other = run.wallMs - s.renderMs - s.encodeMs - s.motionMs;
  const share = (ms: number) => `${((100 * ms) / run.wallMs).toFixed(1)} %`;
  console.log(table(["split (wall)", "ms/step", "share"], [
    ["render (renderView)", perStep(s.renderMs), share(s.renderMs)],
    ["encode (JPEG)", perStep(s.encodeMs), share(s.encodeMs)],
    ["motion", (s.motionMs / steps).toFixed(3), share(s.motionMs)],
    ["other", perStep(other), share(other)],
  ]));
  const renderEach = s.renderMs / Math.max(1, s.rendered), encodeEach = s.encodeMs / Math.max(1, s.rendered);
  console.log(`views: ${s.rendered} rendered (${renderEach.toFixed(1)} ms each, ${encodeEach.toFixed(1)} ms to encode), ${s.reused} reused, of ${4 * steps}`);
  const allNew = 4 * (renderEach + encodeEach) + s.motionMs / steps;
  console.log(`a step whose four views are all new: ${allNew.toFixed(1)} ms = ${(1000 / allNew).toFixed(2)} steps/s = ${(1000 / allNew / TARGET).toFixed(3)} x the target (wall clock)`);

  await sim.reset(episodes[0]!, { render: false });
  const blind = sequence(blindSteps);
  const c0 = cpuMs();
  const t0 = performance.now();
  for (const a of blind) await sim.step(a, { render: false });
  const blindMs = performance.now() - t0;
  const blindCpu = cpuMs() - c0;
  console.log(`render: false: ${blindSteps} steps, ${(blindSteps / (blindMs / 1000)).toFixed(0)} steps/s wall, ${(blindSteps / (blindCpu / 1000)).toFixed(0)} steps/s one core = ${(blindSteps / (blindCpu / 1000) / TARGET).toFixed(0)} x the target`);
  console.log(`repeat run gives the same observation bytes: ${same ? "yes" : "NO"}`);
  await sim.close();
  houses.close();
  if (!same) process.exitCode = 1;
}

await main();
