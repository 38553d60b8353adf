/** Several base URLs for one model, end to end against mock servers on 127.0.0.1. */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { askModel, endpointRequestKeys, requestKey } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Message } from "../../src/core/types.js";
import { configuredProviderModel } from "../../src/models/factory.js";
import { createProviderModel, type ProviderOptions } from "../../src/models/provider.js";
import { trafficSummary } from "../../src/models/traffic.js";
import { ResponseStore } from "../../src/store/store.js";
import { makeRequest, startMockServer, type MockServer } from "../helpers/mock-server.js";

const never = new AbortController().signal;
const servers: MockServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function mock(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer(options);
  servers.push(server);
  return server;
}

/** A port on 127.0.0.1 where nothing listens (bound, then closed): connections are refused. */
async function refusedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function fleet(urls: string[], options: ProviderOptions = {}) {
  return createProviderModel("openai:fleet-model", {
    baseUrl: urls.map((u) => `${u}/v1`),
    env: {},
    backoffBaseMs: 1,
    random: () => 0,
    sleep: async () => undefined,
    ...options,
  });
}

function tempStore(): ResponseStore {
  const dir = mkdtempSync(path.join(tmpdir(), "endpoints-"));
  dirs.push(dir);
  return new ResponseStore(path.join(dir, "responses.sqlite"));
}

const question = (text: string): Message[] => [{ role: "user", content: [{ type: "text", text }] }];

test("requests one at a time spread evenly: 6 over 3 endpoints is 2 each, in turn", async () => {
  const [a, b, c] = [await mock(), await mock(), await mock()];
  const model = fleet([a.url, b.url, c.url]);
  for (let i = 0; i < 6; i++) assert.equal((await model.generate(makeRequest([`spread ${i}`]), never)).outcome, "ok");
  assert.deepEqual([a.stats.requests, b.stats.requests, c.stats.requests], [2, 2, 2]);
  assert.deepEqual(trafficSummary(model)!.endpoints, [
    { url: `${a.url}/v1`, requests: 2, ok: 2, failures: 0, cool_downs: 0 },
    { url: `${b.url}/v1`, requests: 2, ok: 2, failures: 0, cool_downs: 0 },
    { url: `${c.url}/v1`, requests: 2, ok: 2, failures: 0, cool_downs: 0 },
  ]);
});

test("concurrent requests go to the endpoint with the fewest outstanding: a slow one gets fewer", async () => {
  // Four at once over two: two each (ties, round robin). Then, while slow's two are still out,
  // fast's come back and every new request goes to fast.
  const slow = await mock({ latencyMs: 1_500 });
  const fast = await mock();
  const model = fleet([slow.url, fast.url]);
  const first = [0, 1, 2, 3].map((i) => model.generate(makeRequest([`wave ${i}`]), never));
  await Promise.all([first[1], first[3]]); // the fast ones (second and fourth chosen)
  for (let i = 0; i < 4; i++) await model.generate(makeRequest([`after ${i}`]), never);
  await Promise.all(first);
  assert.deepEqual([slow.stats.requests, fast.stats.requests], [2, 6]);
});

test("a refused endpoint is avoided after its first failure; the failed request goes to another at once", async () => {
  const dead = await refusedUrl();
  const live = await mock();
  const waits: number[] = [];
  const model = fleet([dead, live.url], { sleep: async (ms) => void waits.push(ms) });
  const replies = [];
  for (let i = 0; i < 5; i++) replies.push(await model.generate(makeRequest([`dead ${i}`]), never));
  assert.deepEqual(replies.map((r) => [r.outcome, r.attempts]), [["ok", 2], ["ok", 1], ["ok", 1], ["ok", 1], ["ok", 1]]);
  assert.equal(live.stats.requests, 5);
  assert.deepEqual(waits, [], "the retry on the other endpoint starts without a backoff");
  const [deadStats] = trafficSummary(model)!.endpoints;
  assert.deepEqual(deadStats, { url: `${dead}/v1`, requests: 1, ok: 0, failures: 1, cool_downs: 1 });
});

test("an endpoint answering 500 is taken out too", async () => {
  const broken = await mock({ faults: () => ({ type: "status", status: 500 }) });
  const live = await mock();
  const model = fleet([broken.url, live.url]);
  for (let i = 0; i < 4; i++) assert.equal((await model.generate(makeRequest([`five hundred ${i}`]), never)).outcome, "ok");
  assert.deepEqual([broken.stats.requests, live.stats.requests], [1, 4]);
});

test("all endpoints out: the request waits for the first back within --max-retry-wait, else it is an error", async () => {
  const [x, y] = [await refusedUrl(), await refusedUrl()];
  // Fake time: cool-downs and the wait for an endpoint run on it.
  const clock = { t: 0, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms) };
  const slept: number[] = [];
  const tracked = { ...clock, sleep: async (ms: number) => void (slept.push(ms), (clock.t += ms)) };
  const model = fleet([x, y], { clock: tracked, maxAttempts: 3, endpointCoolDownBaseMs: 5_000 });
  const res = await model.generate(makeRequest(["all out"]), never);
  // Attempt 1 on x (out until 5000), at once attempt 2 on y (out until 5000); the backoff is faked
  // as 0; attempt 3 waits the 5000 ms for x, which refuses again: the last attempt, an error.
  assert.equal(res.outcome, "error");
  assert.equal(res.attempts, 3);
  assert.deepEqual(slept, [5_000]);
  assert.match(res.error!.message, new RegExp(`^${x.replace(/[.]/g, "\\.")}/v1: `));
  assert.deepEqual(trafficSummary(model)!.endpoints.map((e) => e.requests), [2, 1]);

  // A cool-down longer than the retry wait limit ends the request without waiting.
  const impatient = fleet([x, y], { clock, maxAttempts: 5, endpointCoolDownBaseMs: 200_000, endpointCoolDownCapMs: 200_000, maxRetryDelayMs: 1_000 });
  const refused = await impatient.generate(makeRequest(["all out, long"]), never);
  assert.equal(refused.outcome, "error");
  assert.equal(refused.attempts, 3);
  assert.equal(refused.error!.message, "all 2 endpoints are out after failures; the first is back in 200 s, over the 1 s limit (--max-retry-wait)");
});

test("replies are shared across URLs: a second run against another URL asks nothing", async () => {
  const [one, two] = [await mock(), await mock()];
  const store = tempStore();
  const ask = (urls: string[], text: string) =>
    askModel(fleet(urls), DEFAULT_SETTINGS, question(text), "item-1", { store, retryErrors: false, signal: never });
  const first = await ask([one.url], "shared?");
  assert.equal(first.kind, "answered");
  assert.equal(first.kind === "answered" && first.cached, false);
  const second = await ask([two.url], "shared?");
  assert.equal(second.kind === "answered" && second.cached, true);
  const both = await ask([two.url, one.url], "shared?");
  assert.equal(both.kind === "answered" && both.cached, true);
  assert.deepEqual([one.stats.requests, two.stats.requests], [1, 0]);
  store.close();
});

test("the store key leaves the endpoint out; replies stored under the old key (with the endpoint) still resume", async () => {
  const model = createProviderModel("openai:fleet-model", { baseUrl: "http://127.0.0.1:9/v1", env: {} });
  const messages = question("Which way is north?");
  // sha256 of the canonical JSON (sorted keys, no spaces), computed with Python's hashlib and json:
  // {"identity":{"endpoint":"http://127.0.0.1:9/v1","model":"fleet-model","provider":"openai"},"messages":[...],"settings":{...}}
  // is the key the code gave before the endpoint left it (recorded before the change).
  const OLD_KEY = "c534f89aad0d9378b8c70030d44bfcd70f0bdb11d96d240bfff09e02b9e14903";
  // The same without "endpoint".
  const NEW_KEY = "7afc0484c189b6f1e81fd44b614466b596921d06c0028ab4007321552add629d";
  assert.deepEqual(endpointRequestKeys(model, DEFAULT_SETTINGS, messages), [OLD_KEY]);
  assert.equal(requestKey(model, DEFAULT_SETTINGS, messages), NEW_KEY);

  // A store written before the change: its replies table with the old row, and no recorded key scheme.
  const file = path.join(mkdtempSync(path.join(tmpdir(), "spatialprobe-legacy-store-")), "responses.sqlite");
  const legacy = new Database(file);
  legacy.exec("CREATE TABLE responses (key TEXT PRIMARY KEY, item_id TEXT NOT NULL, model TEXT NOT NULL, outcome TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)");
  legacy.prepare("INSERT INTO responses VALUES (?, ?, ?, ?, ?, ?)").run(OLD_KEY, "item-1", "openai:fleet-model", "ok", JSON.stringify({ outcome: "ok", text: "stored before", latencyMs: 12, attempts: 1 }), "2026-11-30T00:00:00Z");
  legacy.close();
  const store = new ResponseStore(file);
  assert.equal(store.mayHoldEndpointKeys, true);
  // Port 9 refuses: a request would fail. The old row answers instead.
  const asked = await askModel(model, DEFAULT_SETTINGS, messages, "item-1", { store, retryErrors: false, signal: never });
  assert.equal(asked.kind, "answered");
  if (asked.kind === "answered") {
    assert.equal(asked.cached, true);
    assert.equal(asked.response.text, "stored before");
  }
  // A list holding that URL finds it too.
  const listed = createProviderModel("openai:fleet-model", { baseUrl: ["http://127.0.0.1:8/v1", "http://127.0.0.1:9/v1"], env: {} });
  assert.deepEqual(endpointRequestKeys(listed, DEFAULT_SETTINGS, messages)[1], OLD_KEY);
  const viaList = await askModel(listed, DEFAULT_SETTINGS, messages, "item-1", { store, retryErrors: false, signal: never });
  assert.equal(viaList.kind === "answered" && viaList.cached, true);
  store.close();
});

test("config base_url lists reach the model; a single URL keeps the identity it had", () => {
  const { model } = configuredProviderModel("openai:m", { base_url: ["http://10.0.0.1:8000/v1", "http://10.0.0.2:8000/v1"] }, {});
  assert.deepEqual(model.identity, { provider: "openai", endpoint: "http://10.0.0.1:8000/v1,http://10.0.0.2:8000/v1", model: "m" });
  assert.deepEqual(trafficSummary(model)!.endpoints.map((e) => e.url), ["http://10.0.0.1:8000/v1", "http://10.0.0.2:8000/v1"]);
  const single = configuredProviderModel("openai:m", { base_url: "http://10.0.0.1:8000/v1/" }, {}).model;
  assert.deepEqual(single.identity, { provider: "openai", endpoint: "http://10.0.0.1:8000/v1", model: "m" });
});

test("a store first opened empty records that it holds endpoint-free keys only; one opened with replies already in it does not", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "spatialprobe-key-scheme-"));
  const fresh = new ResponseStore(path.join(dir, "fresh.sqlite"));
  assert.equal(fresh.mayHoldEndpointKeys, false);
  fresh.put("k", "item-1", "openai:m", { outcome: "ok", text: "x", latencyMs: 1, attempts: 1 });
  fresh.close();
  // Reopened with a reply in it, it keeps its recorded scheme.
  const reopened = new ResponseStore(path.join(dir, "fresh.sqlite"));
  assert.equal(reopened.mayHoldEndpointKeys, false);
  reopened.close();
  const old = new Database(path.join(dir, "old.sqlite"));
  old.exec("CREATE TABLE responses (key TEXT PRIMARY KEY, item_id TEXT NOT NULL, model TEXT NOT NULL, outcome TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)");
  old.prepare("INSERT INTO responses VALUES ('k', 'item-1', 'openai:m', 'ok', '{}', '2026-11-30T00:00:00Z')").run();
  old.close();
  for (let open = 0; open < 2; open++) {
    const store = new ResponseStore(path.join(dir, "old.sqlite"));
    assert.equal(store.mayHoldEndpointKeys, true);
    store.close();
  }
});
