/**
 * The bridge end to end (issue 13: "the bridge protocol passes the same tests as the in-process
 * simulator"): the Environment conformance suite on connectBridge(startBridgeServer(built-in
 * simulator)) over examples/vcn-mini, and the bridged simulator giving byte for byte what the
 * in-process one gives.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, test } from "node:test";
import { loadEpisodes, readEpisodeFileJson } from "../../src/benchmarks/vcn/episodes.js";
import { connectBridge } from "../../src/sim/bridge/client.js";
import { startBridgeServer } from "../../src/sim/bridge/server.js";
import { HouseCache } from "../../src/sim/house-cache.js";
import type { EnvEpisode, NavAction, StepResult, Vec3 } from "../../src/sim/types.js";
import { createWorldSimulator } from "../../src/sim/world-sim.js";
import { environmentConformance, type PathCase } from "./conformance.js";

const MINI = path.resolve(import.meta.dirname, "../../examples/vcn-mini");
const EPISODES = path.join(MINI, "episodes.json.gz");
/** The released episodes as the environment takes them, and each one's goal view points. */
const STARTS = (readEpisodeFileJson(EPISODES) as { episodes: EnvEpisode[] }).episodes;
const TARGETS = new Map(loadEpisodes(EPISODES).map((e) => [e.episode_id, e.goals.flatMap((g) => g.view_points) as Vec3[]]));
const episode = (id: string): EnvEpisode => STARTS.find((e) => e.episode_id === id)!;

const shared = new HouseCache({ dataRoot: MINI });
after(() => shared.close());

let inProcess: Promise<PathCase[]> | undefined;
/**
 * Every released episode as a path case whose range is the in-process simulator's own distance
 * (test/sim/world-sim.test.ts checks that distance against the release): through the bridge it
 * must come back exactly.
 */
function pathCases(): Promise<PathCase[]> {
  inProcess ??= (async () => {
    const sim = createWorldSimulator({ dataRoot: MINI, houses: shared, maxActions: 40 });
    const cases: PathCase[] = [];
    for (const start of STARTS) {
      await sim.reset(start, { render: false });
      const targets = TARGETS.get(start.episode_id)!;
      const found = await sim.shortestPath(start.start_position, targets);
      assert.ok(found, `episode ${start.episode_id}: no path in process`);
      cases.push({ episode: start, targets, minM: found.distance, maxM: found.distance });
    }
    await sim.close();
    return cases;
  })();
  return inProcess;
}

/** A bridge server in front of a new built-in simulator, and a client connected to it. */
async function bridged(maxActions: number, depth = false) {
  const server = await startBridgeServer({ environment: createWorldSimulator({ dataRoot: MINI, houses: shared, maxActions, depth }) });
  const env = await connectBridge(server.url, { timeoutMs: 60_000 });
  return { env, server };
}

environmentConformance("bridge client -> bridge server -> built-in world simulator on examples/vcn-mini", async () => {
  const paths = await pathCases();
  const { env, server } = await bridged(40);
  return { env, episode: episode("vcn_0001"), paths, close: () => server.close() };
});

test("the bridged simulator gives byte for byte what the in-process one gives (views with depth), and the session ends with /close", async () => {
  const direct = createWorldSimulator({ dataRoot: MINI, houses: shared, maxActions: 40, depth: true });
  const { env, server } = await bridged(40, true);
  try {
    assert.deepEqual(env.info, direct.info);
    assert.equal(env.info.depth, true);
    const start = episode("vcn_0002");
    const first = await env.reset(start);
    assert.deepEqual(first, await direct.reset(start));
    assert.equal(first.views.filter((v) => v.depthPng && v.depthPng.length > 0).length, 4);
    // Pictures for the first step only (rendering dominates the time); poses and collisions for all.
    const actions: NavAction[] = ["FORWARD", "TURN_RIGHT", "FORWARD", "FORWARD", "TURN_LEFT", "TURN_LEFT", "FORWARD", "STOP"];
    const got: StepResult[] = [];
    for (const [k, action] of actions.entries()) {
      const options = { render: k === 0 };
      const [b, d] = [await env.step(action, options), await direct.step(action, options)];
      assert.deepEqual(b, d, `after ${action}`);
      got.push(b);
    }
    assert.equal(got[0]!.observation.views.length, 4);
    assert.deepEqual([got.at(-1)!.done, got.at(-1)!.end, got.at(-1)!.observation.step], [true, "stop", actions.length]);
    const targets = TARGETS.get("vcn_0002")!;
    assert.deepEqual(await env.shortestPath(start.start_position, targets), await direct.shortestPath(start.start_position, targets));
    await env.close();
    await server.sessionClosed; // resolves once /close has closed the simulator
  } finally {
    await direct.close();
    await server.close();
  }
});

test("issue 25: POST /reset with a start of 1e16 is a 400 invalid_request naming the fields (it once hung the simulator for good), and the session goes on", async () => {
  const { env, server } = await bridged(40);
  try {
    const start = episode("vcn_0001");
    const started = performance.now();
    const reply = await fetch(new URL("/reset", server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ episode: { ...start, start_position: [1e16, 0, 1e16] }, render: false }),
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(await reply.json(), {
      error: { code: "invalid_request", message: "episode.start_position[0]: must be between -10000 and 10000 (metres); episode.start_position[2]: must be between -10000 and 10000 (metres)" },
    });
    const far = await fetch(new URL("/shortest_path", server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: start.start_position, targets: [[0, -1e16, 0]] }),
    });
    assert.equal(far.status, 400);
    assert.equal(((await far.json()) as { error: { message: string } }).error.message, "targets[0][1]: must be between -10000 and 10000 (metres)");
    // The server is not stuck: a good reset is served right after.
    const observation = await env.reset(start, { render: false });
    assert.equal(observation.step, 0);
    assert.ok(performance.now() - started < 10_000);
    await env.close();
  } finally {
    await server.close();
  }
});
