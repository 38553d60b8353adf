/**
 * Tests every Environment (src/sim/types.ts) must pass, registered with node:test:
 *
 *   environmentConformance("world simulator", async () => ({ env, episode, paths }));
 *
 * The factory is the only way the tests get an environment, so the same suite runs on the
 * built-in simulator and on the bridge client in front of it. Each test makes its own
 * environment and closes it. What the factory must give:
 * - `env`: an environment with a small action limit (info.max_actions in [20, 100]) and 384 x 384
 *   views;
 * - `episode`: an episode whose start lies on free floor (so reset keeps it exactly), in a house
 *   with a wall within max_actions FORWARDs in some direction;
 * - `paths` (optional): released episodes with their targets and the range the geodesic distance
 *   from the start must fall in.
 *
 * Expected values come from the contract alone: FORWARD is forward_step_m along forwardOf(heading)
 * unless cut short, and then it stays on that line (no sliding); turns are turn_step_deg exactly;
 * STOP and the action limit end the episode; a position is on free floor when a geodesic path from
 * it starts at it.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import sharp from "sharp";
import {
  EnvironmentError,
  forwardOf,
  headingOf,
  VIEW_NAMES,
  wrapAngle,
  type EnvEpisode,
  type Environment,
  type NavAction,
  type Observation,
  type Vec3,
} from "../../src/sim/types.js";

/** A start, its targets, and the range its geodesic distance to the nearest target must fall in. */
export interface PathCase {
  episode: EnvEpisode;
  targets: Vec3[];
  minM: number;
  maxM: number;
}

export interface ConformanceSetup {
  env: Environment;
  episode: EnvEpisode;
  paths?: PathCase[];
  close?: () => Promise<void>;
}

const EXACT = 1e-9;
const DEG = Math.PI / 180;

/** Plan distance (x, z) between two positions. */
const planDistance = (a: Vec3, b: Vec3): number => Math.hypot(a[0] - b[0], a[2] - b[2]);

async function withEnv(make: () => Promise<ConformanceSetup>, body: (s: ConformanceSetup) => Promise<void>): Promise<void> {
  const setup = await make();
  try {
    await body(setup);
  } finally {
    await setup.env.close();
    await setup.close?.();
  }
}

async function assertViews(env: Environment, o: Observation): Promise<void> {
  const { width, height } = env.info.camera;
  assert.deepEqual(o.views.map((v) => v.name), [...VIEW_NAMES]);
  for (const v of o.views) {
    assert.equal(v.mediaType, "image/jpeg");
    assert.equal(v.width, width);
    assert.equal(v.height, height);
    const meta = await sharp(v.data).metadata();
    assert.equal(meta.format, "jpeg", `${v.name} view is not JPEG`);
    assert.equal(meta.width, width);
    assert.equal(meta.height, height);
    const { info } = await sharp(v.data).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.width * info.height, width * height, `${v.name} view does not decode`);
    assert.equal(v.depthPng !== undefined, env.info.depth, `${v.name}: depth given ${v.depthPng !== undefined}, info.depth ${env.info.depth}`);
    if (v.depthPng) {
      const d = await sharp(v.depthPng).metadata();
      assert.equal(d.format, "png");
      assert.equal(d.width, width);
      assert.equal(d.height, height);
    }
  }
}

/** True when `p` is on free floor: a geodesic path from it starts at it (the environment did not move it). */
async function onFreeFloor(env: Environment, p: Vec3, anchor: Vec3): Promise<boolean> {
  const path = await env.shortestPath(p, [anchor]);
  return path !== null && planDistance(path.points[0]!, p) <= EXACT;
}

/** Steps `action` n times with rendering off; returns the observations. */
async function repeat(env: Environment, action: NavAction, n: number): Promise<Observation[]> {
  const out: Observation[] = [];
  for (let k = 0; k < n; k++) out.push((await env.step(action, { render: false })).observation);
  return out;
}

export function environmentConformance(name: string, make: () => Promise<ConformanceSetup>): void {
  describe(`Environment conformance: ${name}`, () => {
    test("info describes VCN-Bench's agent: 0.25 m, 30 degrees, four 384 x 384 views, a small test action limit", () =>
      withEnv(make, async ({ env }) => {
        assert.equal(env.info.forward_step_m, 0.25);
        assert.equal(env.info.turn_step_deg, 30);
        assert.deepEqual(env.info.views, [...VIEW_NAMES]);
        assert.equal(env.info.camera.width, 384);
        assert.equal(env.info.camera.height, 384);
        assert.ok(env.info.max_actions >= 20 && env.info.max_actions <= 100, `the factory must set max_actions in [20, 100], got ${env.info.max_actions}`);
      }));

    test("observe gives the last observation again without acting: the same step, pose and collided flag, and the views that rendering that step gives", () =>
      withEnv(make, async ({ env, episode }) => {
        await env.reset(episode, { render: false });
        const stepped = (await env.step("FORWARD", { render: true })).observation;
        const blindStep = (await env.step("TURN_LEFT", { render: false })).observation;
        const again = await env.observe({ render: true });
        assert.equal(again.step, 2);
        assert.deepEqual(again.pose, blindStep.pose);
        assert.equal(again.collided, blindStep.collided);
        await assertViews(env, again);
        // Turning back to the FORWARD's heading: observe shows the pictures that step showed, byte for byte.
        await env.step("TURN_RIGHT", { render: false });
        const back = await env.observe();
        assert.equal(back.step, 3);
        assert.deepEqual(back.views.map((v) => v.data.toString("base64")), stepped.views.map((v) => v.data.toString("base64")));
        assert.deepEqual((await env.observe({ render: false })).views, []);
      }));

    test("reset gives step 0 at the start pose with four decodable views, and no views when render is off", () =>
      withEnv(make, async ({ env, episode }) => {
        const o = await env.reset(episode);
        assert.equal(o.step, 0);
        assert.equal(o.collided, false);
        assert.ok(planDistance(o.pose.position, episode.start_position) <= EXACT, `start ${episode.start_position} reported as ${o.pose.position}`);
        assert.equal(o.pose.position[1], episode.start_position[1]);
        const h0 = headingOf(episode.start_rotation);
        assert.ok(Math.abs(wrapAngle(o.pose.heading - h0)) <= EXACT, `heading ${o.pose.heading}, start ${h0}`);
        assert.ok(Math.abs(wrapAngle(headingOf(o.pose.rotation) - o.pose.heading)) <= EXACT, "rotation and heading disagree");
        await assertViews(env, o);
        const blind = await env.reset(episode, { render: false });
        assert.equal(blind.step, 0);
        assert.deepEqual(blind.views, []);
        assert.deepEqual(blind.pose, o.pose);
        const stepped = await env.step("TURN_LEFT");
        await assertViews(env, stepped.observation);
        assert.deepEqual((await env.step("TURN_LEFT", { render: false })).observation.views, []);
      }));

    test("FORWARD moves exactly forward_step_m along forwardOf(heading), or stops short on that line with collided", () =>
      withEnv(make, async ({ env, episode }) => {
        let free = 0;
        for (let k = 0; k < 12; k++) {
          const start = await env.reset(episode, { render: false });
          const before = (await repeat(env, "TURN_LEFT", k)).at(-1) ?? start;
          const { observation: o } = await env.step("FORWARD", { render: false });
          assert.equal(o.step, k + 1);
          assert.equal(o.pose.heading, before.pose.heading, "FORWARD changed the heading");
          assert.equal(o.pose.position[1], before.pose.position[1]);
          const [fx, fz] = forwardOf(before.pose.heading);
          const dx = o.pose.position[0] - before.pose.position[0], dz = o.pose.position[2] - before.pose.position[2];
          const along = dx * fx + dz * fz;
          const across = -dx * fz + dz * fx;
          assert.ok(Math.abs(across) <= EXACT, `FORWARD moved ${across} m sideways (sliding)`);
          if (o.collided) {
            assert.ok(along >= -EXACT && along < 0.25 - EXACT, `a cut-short FORWARD moved ${along} m`);
          } else {
            assert.ok(Math.abs(along - 0.25) <= EXACT, `a free FORWARD moved ${along} m`);
            free++;
          }
        }
        assert.ok(free > 0, "no free FORWARD in 12 headings from the start");
      }));

    test("12 TURN_LEFTs turn by exactly 30 degrees each and come back to the start heading; TURN_RIGHT turns back", () =>
      withEnv(make, async ({ env, episode }) => {
        const o0 = await env.reset(episode, { render: false });
        let prev = o0;
        for (const o of await repeat(env, "TURN_LEFT", 12)) {
          assert.ok(Math.abs(wrapAngle(o.pose.heading - prev.pose.heading) - 30 * DEG) <= EXACT, `turned ${wrapAngle(o.pose.heading - prev.pose.heading) / DEG} degrees`);
          assert.deepEqual(o.pose.position, o0.pose.position);
          assert.equal(o.collided, false);
          prev = o;
        }
        assert.ok(Math.abs(wrapAngle(prev.pose.heading - o0.pose.heading)) <= EXACT, "12 left turns did not come back to the start heading");
        const [right] = await repeat(env, "TURN_RIGHT", 1);
        assert.ok(Math.abs(wrapAngle(right!.pose.heading - o0.pose.heading) + 30 * DEG) <= EXACT, "TURN_RIGHT is not -30 degrees");
        assert.equal(right!.step, 13);
      }));

    test("walking into a wall ends with collided, the robot stays on free floor and does not slide", () =>
      withEnv(make, async ({ env, episode }) => {
        await env.reset(episode, { render: false });
        const limit = env.info.max_actions;
        let last: Observation | null = null;
        for (let k = 0; k < limit - 2; k++) {
          const r = await env.step("FORWARD", { render: false });
          assert.equal(r.done, false);
          assert.ok(await onFreeFloor(env, r.observation.pose.position, episode.start_position), `FORWARD ${k + 1} left the free floor at ${r.observation.pose.position}`);
          if (r.observation.collided) {
            last = r.observation;
            break;
          }
        }
        assert.ok(last !== null, `no wall within ${limit - 2} FORWARDs of the start`);
        const again = await env.step("FORWARD", { render: false });
        assert.equal(again.observation.collided, true, "a second FORWARD into the same wall was not stopped");
        assert.deepEqual(again.observation.pose.position, last.pose.position, "a FORWARD into the wall moved the robot");
      }));

    test("STOP ends the episode with end stop; a further step throws EnvironmentError", () =>
      withEnv(make, async ({ env, episode }) => {
        await env.reset(episode, { render: false });
        await repeat(env, "TURN_RIGHT", 2);
        const r = await env.step("STOP", { render: false });
        assert.equal(r.done, true);
        assert.equal(r.end, "stop");
        assert.equal(r.observation.step, 3);
        await assert.rejects(env.step("FORWARD", { render: false }), EnvironmentError);
        const o = await env.reset(episode, { render: false });
        assert.equal(o.step, 0, "reset after the end does not start again");
      }));

    test("misuse throws EnvironmentError: a step before reset, an unknown action", () =>
      withEnv(make, async ({ env, episode }) => {
        await assert.rejects(env.step("FORWARD", { render: false }), EnvironmentError);
        await env.reset(episode, { render: false });
        await assert.rejects(env.step("JUMP" as NavAction, { render: false }), EnvironmentError);
      }));

    test("the action limit ends the episode with action-limit after max_actions actions; STOP as the last action is a stop", () =>
      withEnv(make, async ({ env, episode }) => {
        const n = env.info.max_actions;
        await env.reset(episode, { render: false });
        for (let k = 1; k < n; k++) {
          const r = await env.step(k % 2 ? "TURN_LEFT" : "TURN_RIGHT", { render: false });
          assert.equal(r.done, false, `ended after ${k} of ${n} actions`);
        }
        const last = await env.step("TURN_LEFT", { render: false });
        assert.equal(last.done, true);
        assert.equal(last.end, "action-limit");
        assert.equal(last.observation.step, n);
        await assert.rejects(env.step("STOP", { render: false }), EnvironmentError);
        await env.reset(episode, { render: false });
        await repeat(env, "TURN_LEFT", n - 1);
        const stop = await env.step("STOP", { render: false });
        assert.equal(stop.end, "stop");
      }));

    test("the same actions give byte-identical observations, in the same environment and in a new one", async () => {
      const actions: NavAction[] = ["FORWARD", "TURN_LEFT"];
      const run = async (env: Environment, episode: EnvEpisode): Promise<Observation[]> => {
        const out = [await env.reset(episode)];
        for (const a of actions) out.push((await env.step(a)).observation);
        return out;
      };
      let first: Observation[] = [];
      await withEnv(make, async ({ env, episode }) => {
        first = await run(env, episode);
        assert.deepEqual(await run(env, episode), first);
      });
      await withEnv(make, async ({ env, episode }) => assert.deepEqual(await run(env, episode), first));
    });

    test("shortestPath: from the position to the nearest target, its length as distance, in the expected range", () =>
      withEnv(make, async ({ env, episode, paths }) => {
        await env.reset(episode, { render: false });
        const self = await env.shortestPath(episode.start_position, [episode.start_position]);
        assert.ok(self !== null);
        assert.ok(self.distance <= EXACT && self.target === 0, "the path from a point to itself is not empty");
        for (const c of paths ?? []) {
          await env.reset(c.episode, { render: false });
          const p = await env.shortestPath(c.episode.start_position, c.targets);
          assert.ok(p !== null, `episode ${c.episode.episode_id}: no path`);
          let length = 0;
          for (let k = 1; k < p.points.length; k++) length += planDistance(p.points[k]!, p.points[k - 1]!);
          assert.ok(Math.abs(length - p.distance) <= 1e-6, `episode ${c.episode.episode_id}: distance ${p.distance}, points ${length}`);
          assert.ok(planDistance(p.points[0]!, c.episode.start_position) <= EXACT, "the path does not start at the start");
          assert.ok(planDistance(p.points[p.points.length - 1]!, c.targets[p.target]!) <= EXACT, "the path does not end at its target");
          assert.ok(p.distance >= c.minM && p.distance <= c.maxM, `episode ${c.episode.episode_id}: distance ${p.distance.toFixed(4)} not in [${c.minM.toFixed(4)}, ${c.maxM.toFixed(4)}]`);
        }
      }));
  });
}
