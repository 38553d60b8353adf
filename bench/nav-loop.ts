/**
 * Agent-loop overhead of closed-loop navigation against a mock provider with a fixed latency:
 *
 *   node --import tsx bench/nav-loop.ts
 *
 * Runs the model agent (openai: wire format) on examples/vcn-mini in the built-in simulator, one
 * episode at a time, the mock (test/helpers/mock-server-main.ts, own process, 200 ms per reply)
 * answering FORWARD four times and then STOP. The simulator's calls are timed apart, so
 *   ideal = requests x latency + simulator time,
 * and the ratio wall / ideal is what the loop itself adds (prompt building, image encoding,
 * the response store, reading replies, logging). Target: <= 1.05. A missed target is printed
 * as "TARGET MISSED"; a broken setup (errors, a wrong request count) exits non-zero.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { writeFileSync } from "node:fs";
import { modelAgent } from "../src/benchmarks/vcn/navigate/model-agent.js";
import { promptResources } from "../src/benchmarks/vcn/navigate/runner.js";
import { runEpisode } from "../src/benchmarks/vcn/navigate/loop.js";
import { loadNavTasks } from "../src/benchmarks/vcn/navigate/tasks.js";
import { DEFAULT_SETTINGS } from "../src/core/types.js";
import { configuredProviderModel } from "../src/models/factory.js";
import { resolveImageBudgets } from "../src/models/shape.js";
import { vcn } from "../src/benchmarks/vcn/index.js";
import { ResponseStore } from "../src/store/store.js";
import { HouseCache } from "../src/sim/house-cache.js";
import { createWorldSimulator } from "../src/sim/world-sim.js";
import type { Environment } from "../src/sim/types.js";
import { makeTempDir, REPO_ROOT, startMockChild } from "./lib/common.js";

const LATENCY_MS = 200;
const EPISODES = 4;
const TARGET = 1.05;
const DATA = path.join(REPO_ROOT, "examples/vcn-mini");

/** The environment with its calls timed. */
function timed(env: Environment, clock: { ms: number }): Environment {
  const time = async <T>(work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      clock.ms += performance.now() - t0;
    }
  };
  return {
    info: env.info,
    reset: (e, o) => time(() => env.reset(e, o)),
    step: (a, o) => time(() => env.step(a, o)),
    shortestPath: (f, t) => time(() => env.shortestPath(f, t)),
    observe: (o) => time(() => env.observe(o)),
    close: () => env.close(),
  };
}

const tmp = makeTempDir("nav-loop-bench-");
const replies: Record<string, string> = {};
for (let k = 0; k <= 4; k++) replies[`after ${k} of at most`] = JSON.stringify({ frame: 0, action: k >= 4 ? "STOP" : "FORWARD" });
writeFileSync(path.join(tmp, "replies.json"), JSON.stringify(replies));
const mock = await startMockChild(["--latency-ms", String(LATENCY_MS), "--reply-file", path.join(tmp, "replies.json")]);
try {
  const { tasks } = loadNavTasks(DATA);
  const houses = new HouseCache({ dataRoot: DATA });
  const env = createWorldSimulator({ dataRoot: DATA, houses });
  // Load the houses before timing (a house loads once per run, whatever the loop does).
  for (const scene of new Set(tasks.slice(0, EPISODES).map((t) => t.env.scene_id))) await env.reset(tasks.find((t) => t.env.scene_id === scene)!.env, { render: true });
  const clock = { ms: 0 };
  const { model } = configuredProviderModel("openai:mock-nav", { base_url: `${mock.url}/v1` }, { ...process.env, OPENAI_API_KEY: "sk-bench" });
  const store = new ResponseStore(path.join(tmp, "responses.sqlite"));
  const { templates, sampleTour } = promptResources();
  const agent = modelAgent({
    model,
    settings: { ...DEFAULT_SETTINGS, jsonOutput: true },
    store,
    retryErrors: false,
    imageBudget: resolveImageBudgets(vcn.imageBudget),
    mode: "action",
    intervention: "none",
    observation: "rgbd-pose",
    historyWindow: 8,
    priorFrames: 50,
    seed: 1,
    templates,
    sampleTour,
  });
  // The prior videos are decoded once per run too.
  for (const t of tasks.slice(0, EPISODES)) await sampleTour(t.item!);
  const signal = new AbortController().signal;
  const t0 = performance.now();
  let requests = 0;
  let errors = 0;
  let providerMs = 0;
  for (const task of tasks.slice(0, EPISODES)) {
    const record = await runEpisode(task, timed(env, clock), agent, { intervention: "none", signal });
    requests += record.decisions.filter((d) => d.request_key !== undefined && !d.cached).length;
    providerMs += record.decisions.reduce((sum, d) => sum + (d.latency_ms ?? 0), 0);
    if (record.status !== "done" || record.end !== "stop") errors++;
  }
  const wall = performance.now() - t0;
  store.close();
  await env.close();
  houses.close();
  if (errors > 0 || requests !== EPISODES * 5) {
    console.error(`setup broken: ${errors} episodes did not stop as scripted, ${requests} requests (expected ${EPISODES * 5})`);
    process.exitCode = 1;
  } else {
    const ideal = requests * LATENCY_MS + clock.ms;
    const ratio = wall / ideal;
    console.log(`navigation agent loop: ${EPISODES} episodes, ${requests} model calls at ${LATENCY_MS} ms, simulator ${clock.ms.toFixed(0)} ms`);
    console.log(`wall ${wall.toFixed(0)} ms / ideal ${ideal.toFixed(0)} ms = ${ratio.toFixed(3)} (target <= ${TARGET})${ratio > TARGET ? "  TARGET MISSED" : ""}`);
    console.log(`loop overhead per decision: ${((wall - ideal) / requests).toFixed(1)} ms (prompt with 50 prior frames + 16 views, store, reading, logging), of which ${((providerMs - requests * LATENCY_MS) / requests).toFixed(1)} ms inside the provider call beyond the mock's latency (request encoding, HTTP, the mock's own parsing)`);
  }
} finally {
  mock.stop();
}
