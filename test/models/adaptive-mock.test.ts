/** Adaptive concurrency end to end: runItems' workers (--concurrency) as the cap, the mock's 429s and headers moving the limit. */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Benchmark, BenchItem, BuiltPrompt } from "../../src/core/benchmark.js";
import { runItems } from "../../src/core/run.js";
import { DEFAULT_SETTINGS } from "../../src/core/types.js";
import { configuredProviderModel } from "../../src/models/factory.js";
import { createProviderModel } from "../../src/models/provider.js";
import { modelTraffic, trafficSummary } from "../../src/models/traffic.js";
import { startMockServer, type MockServer, type MockServerOptions } from "../helpers/mock-server.js";

const servers: MockServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Just enough of a benchmark for runItems: the reply is the answer, every item scores. */
const bench = { id: "fake", readReply: (_item: BenchItem, reply: string) => reply, scoreItem: () => ({ correct: true }) } as unknown as Benchmark<BenchItem>;
const items = (n: number): BenchItem[] => Array.from({ length: n }, (_, i) => ({ id: `item ${i}`, task: "t", cluster: "c" }) as unknown as BenchItem);
const build = (item: BenchItem): BuiltPrompt => ({ messages: [{ role: "user", content: [{ type: "text", text: item.id }] }], info: {} });

async function run(n: number, concurrency: number, mockOptions: MockServerOptions) {
  const mock = await startMockServer(mockOptions);
  servers.push(mock);
  const model = createProviderModel("openai:adaptive-model", { baseUrl: `${mock.url}/v1`, env: {}, random: () => 0, sleep: async () => undefined });
  const results = await runItems({ benchmark: bench, items: items(n), responder: { kind: "model", model }, build, settings: DEFAULT_SETTINGS, concurrency, retryErrors: false, signal: new AbortController().signal });
  const summary = trafficSummary(model)!.concurrency!;
  return { mock, results, summary, changes: summary.changes.map((c) => [c.from, c.to, c.reason]) };
}

test("a 429 on every first attempt: halved once per burst, 4 -> 2 -> 1, within the 4 workers", async () => {
  const { mock, results, summary, changes } = await run(8, 4, { faults: (_req, attempt) => (attempt === 1 ? { type: "status", status: 429 } : undefined) });
  assert.deepEqual(results.map((r) => [r.status, r.response?.attempts]), Array.from({ length: 8 }, () => ["scored", 2]));
  // Items 0-3 go out together at 4: the first 429 halves to 2, the other three were sent at 4 and
  // lower nothing more. Items 4-7 start after those finished, at 2: their first 429 halves to 1.
  assert.deepEqual(changes, [[4, 2, "429"], [2, 1, "429"]]);
  assert.deepEqual([summary.cap, summary.min, summary.max, summary.final, summary.rate_limited], [4, 1, 4, 1, 8]);
  assert.equal(mock.stats.requests, 16);
  assert.ok(mock.stats.maxInFlight <= 4, String(mock.stats.maxInFlight));
});

test("after one 429, sustained success raises the limit by one per 10 successes, back to the cap", async () => {
  // Only item 0's first attempt is refused, at once; every other answer takes 30 ms, so all 30
  // successes come after the 429: 4 -> 2, +1 at the 10th, +1 at the 20th, the 30th is at the cap.
  const { results, summary, changes } = await run(30, 4, {
    faults: (req, attempt) => (req.texts[0] === "item 0" && attempt === 1 ? { type: "status", status: 429 } : { type: "slow", delayMs: 30 }),
  });
  assert.equal(results.filter((r) => r.status === "scored").length, 30);
  assert.deepEqual(changes, [[4, 2, "429"], [2, 3, "success"], [3, 4, "success"]]);
  assert.deepEqual([summary.min, summary.max, summary.final, summary.rate_limited], [2, 4, 4, 1]);
});

test("x-ratelimit-remaining-requests: 1 on every reply lowers the limit to 1 and keeps it there", async () => {
  const { results, summary, changes } = await run(12, 4, { replyHeaders: () => ({ "x-ratelimit-remaining-requests": "1" }) });
  assert.equal(results.length, 12);
  assert.deepEqual(changes, [[4, 1, "headers"]]);
  assert.deepEqual([summary.min, summary.max, summary.final, summary.rate_limited], [1, 4, 1, 0]);
});

test("--no-adaptive-concurrency (adaptiveConcurrency: false): no limiter, the workers alone decide", async () => {
  const mock = await startMockServer({ faults: (_req, attempt) => (attempt === 1 ? { type: "status", status: 429 } : undefined) });
  servers.push(mock);
  const model = createProviderModel("openai:fixed", { baseUrl: `${mock.url}/v1`, env: {}, adaptiveConcurrency: false, sleep: async () => undefined });
  await runItems({ benchmark: bench, items: items(4), responder: { kind: "model", model }, build, settings: DEFAULT_SETTINGS, concurrency: 4, retryErrors: false, signal: new AbortController().signal });
  assert.equal(trafficSummary(model)!.concurrency, undefined);
});

test("models made by the factory share one limiter per provider, key, endpoints and model (a run's repeats keep what was learned)", async () => {
  const settings = { base_url: "http://127.0.0.1:9/v1" };
  const a = configuredProviderModel("openai:shared-model", settings, { OPENAI_API_KEY: "sk-share-1" }).model;
  const b = configuredProviderModel("openai:shared-model", settings, { OPENAI_API_KEY: "sk-share-1" }).model;
  const otherKey = configuredProviderModel("openai:shared-model", settings, { OPENAI_API_KEY: "sk-share-2" }).model;
  const otherModel = configuredProviderModel("openai:shared-model-2", settings, { OPENAI_API_KEY: "sk-share-1" }).model;
  const limiterA = modelTraffic(a)!.concurrency!;
  assert.equal(modelTraffic(b)!.concurrency, limiterA);
  assert.notEqual(modelTraffic(otherKey)!.concurrency, limiterA);
  assert.notEqual(modelTraffic(otherModel)!.concurrency, limiterA);
  limiterA.setCap(8);
  (await limiterA.acquire()).release({ status: "rate-limited" });
  assert.equal(trafficSummary(b)!.concurrency!.final, 4);
  // The config's adaptive_concurrency: false gives no limiter at all.
  assert.equal(modelTraffic(configuredProviderModel("openai:shared-model", { ...settings, adaptive_concurrency: false }, { OPENAI_API_KEY: "sk-share-1" }).model)!.concurrency, undefined);
});
