/** Retries, timeouts, bounded failure, key scrubbing, abort and rate limits, end to end against the mock. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Model } from "../../src/core/types.js";
import { createProviderModel, type ProviderOptions } from "../../src/models/provider.js";
import { makeRequest, startMockServer, type Fault, type MockRequest, type MockServer } from "../helpers/mock-server.js";

const KEYS = { OPENAI_API_KEY: "sk-openai-SECRET-1111", ANTHROPIC_API_KEY: "sk-ant-SECRET-2222", GEMINI_API_KEY: "AIza-SECRET-3333" };
const PROVIDERS = ["openai", "anthropic", "gemini"] as const;
const never = new AbortController().signal;

/** Faults chosen per test through the request's first text: "<scenario> ..." */
let script: (req: MockRequest, attempt: number) => Fault | undefined = () => undefined;
let mock: MockServer;
before(async () => {
  mock = await startMockServer({ faults: (req, attempt) => script(req, attempt) });
});
after(() => mock.close());

let counter = 0;
/** A request whose body is unique to this call, so its attempt count starts at 1. */
const fresh = (label: string) => makeRequest([`${label} #${++counter}`]);

function model(provider: (typeof PROVIDERS)[number], options: ProviderOptions = {}): Model & { waits: number[] } {
  const waits: number[] = [];
  const m = createProviderModel(`${provider}:test-model`, {
    baseUrl: provider === "openai" ? `${mock.url}/v1` : mock.url,
    env: KEYS,
    maxAttempts: 4,
    backoffBaseMs: 5,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return Object.assign(m, { waits });
}

/** Fail the first `n` attempts of every request with `fault`. */
const failFirst = (n: number, fault: Fault) => (script = (_req, attempt) => (attempt <= n ? fault : undefined));
const failAlways = (fault: Fault) => (script = () => fault);

test("429 with Retry-After seconds: waits the hinted time, then succeeds", async () => {
  for (const p of PROVIDERS) {
    failFirst(1, { type: "status", status: 429, retryAfter: "2" });
    const m = model(p);
    const res = await m.generate(fresh("ra"), never);
    assert.equal(res.outcome, "ok", p);
    assert.equal(res.attempts, 2, p);
    assert.deepEqual(m.waits, [2000], p);
  }
});

test("429 with an HTTP-date Retry-After", async () => {
  failFirst(1, { type: "status", status: 429, retryAfter: new Date(Date.now() + 3000).toUTCString() });
  const m = model("openai");
  const res = await m.generate(fresh("date"), never);
  assert.equal(res.outcome, "ok");
  assert.equal(m.waits.length, 1);
  assert.ok(m.waits[0]! > 1000 && m.waits[0]! <= 3000, String(m.waits[0]));
});

test("a Retry-After beyond the maximum ends the request as an error; a higher maximum waits it in full", async () => {
  for (const p of PROVIDERS) {
    failFirst(1, { type: "status", status: 503, retryAfter: "3600" });
    const m = model(p, { maxRetryDelayMs: 10_000 });
    const res = await m.generate(fresh("cap"), never);
    assert.equal(res.outcome, "error", p);
    assert.equal(res.attempts, 1, p);
    assert.deepEqual(m.waits, [], p);
    const credential = p === "openai" ? "Bearer [redacted]" : "[redacted]";
    assert.deepEqual(res.error, {
      kind: "http",
      status: 503,
      message: `server asked to retry after 3600 s, over the 10 s limit (--max-retry-wait); HTTP 503: mock error 503 for credential ${credential}`,
    }, p);

    failFirst(1, { type: "status", status: 503, retryAfter: "3600" });
    const patient = model(p, { maxRetryDelayMs: 3_600_000 });
    const ok = await patient.generate(fresh("cap-ok"), never);
    assert.equal(ok.outcome, "ok", p);
    assert.equal(ok.attempts, 2, p);
    assert.deepEqual(patient.waits, [3_600_000], p);
  }
});

test("the default maximum is 120 s: Retry-After 300 is refused, 120 is waited", async () => {
  failFirst(1, { type: "status", status: 429, retryAfter: "300" });
  const refused = await model("gemini").generate(fresh("default-cap"), never);
  assert.match(refused.error!.message, /^server asked to retry after 300 s, over the 120 s limit \(--max-retry-wait\); HTTP 429: /);
  failFirst(1, { type: "status", status: 429, retryAfter: "120" });
  const m = model("gemini");
  assert.equal((await m.generate(fresh("default-cap-ok"), never)).outcome, "ok");
  assert.deepEqual(m.waits, [120_000]);
});

test("transient faults then success, for every provider", async () => {
  const faults: Fault[] = [
    { type: "status", status: 500 },
    { type: "status", status: 503 },
    { type: "reset" },
    { type: "malformed" },
    { type: "empty" },
  ];
  for (const p of PROVIDERS)
    for (const fault of faults) {
      failFirst(2, fault);
      const m = model(p);
      const res = await m.generate(fresh(`t-${p}-${fault.type}`), never);
      assert.equal(res.outcome, "ok", `${p} ${JSON.stringify(fault)}: ${res.error?.message}`);
      assert.equal(res.attempts, 3, `${p} ${fault.type}`);
      assert.equal(res.text, '{"display_ids":[1]}');
      assert.deepEqual(m.waits, [3, 5], `${p} ${fault.type}`); // 0.5 * 5, 0.5 * 10, rounded
    }
});

test("a slow reply past the timeout is abandoned and retried", async () => {
  failFirst(1, { type: "slow", delayMs: 5000 });
  const m = model("openai", { timeoutMs: 200 });
  const started = Date.now();
  const res = await m.generate(fresh("slow"), never);
  assert.equal(res.outcome, "ok");
  assert.equal(res.attempts, 2);
  assert.ok(Date.now() - started < 2000);
});

test("persistent faults end as errors after exactly maxAttempts, with the right kind", async () => {
  const cases: [Fault, string, number | undefined][] = [
    [{ type: "status", status: 500 }, "http", 500],
    [{ type: "status", status: 429 }, "http", 429],
    [{ type: "reset" }, "network", undefined],
    [{ type: "malformed" }, "malformed", undefined],
    [{ type: "empty" }, "malformed", undefined],
    [{ type: "slow", delayMs: 3000 }, "timeout", undefined],
  ];
  for (const [fault, kind, status] of cases) {
    const keys = new Set<string>();
    script = (req) => (keys.add(req.key), fault);
    const before = mock.stats.requests;
    const m = model("openai", { maxAttempts: 3, timeoutMs: 150 });
    const res = await m.generate(fresh(`p-${fault.type}`), never);
    assert.equal(res.outcome, "error", fault.type);
    assert.equal(res.text, "");
    assert.equal(res.attempts, 3, fault.type);
    assert.equal(mock.stats.requests - before, 3, fault.type);
    assert.equal(keys.size, 1, "retries resend the identical body");
    assert.equal(mock.stats.attempts.get([...keys][0]!), 3);
    assert.equal(res.error?.kind, kind, `${fault.type}: ${res.error?.message}`);
    assert.equal(res.error?.status, status, fault.type);
    assert.equal(m.waits.length, 2);
  }
});

test("non-retryable statuses make exactly one attempt", async () => {
  for (const status of [400, 401, 403, 404, 422])
    for (const p of PROVIDERS) {
      failAlways({ type: "status", status });
      const before = mock.stats.requests;
      const m = model(p);
      const res = await m.generate(fresh(`nr-${status}-${p}`), never);
      assert.equal(res.outcome, "error");
      assert.equal(res.attempts, 1);
      assert.equal(mock.stats.requests - before, 1);
      assert.deepEqual([res.error?.kind, res.error?.status], ["http", status]);
      assert.deepEqual(m.waits, []);
    }
});

test("API keys never appear in error messages or response text, only in headers", async () => {
  for (const p of PROVIDERS) {
    failAlways({ type: "status", status: 401 });
    const res = await model(p).generate(fresh(`key-${p}`), never);
    assert.equal(res.outcome, "error");
    // The mock echoes the credential in its error body; the adapter must redact it.
    assert.match(res.error!.message, /\[redacted\]/);
    const dump = JSON.stringify(res);
    for (const key of Object.values(KEYS)) assert.ok(!dump.includes(key), `${p} leaked a key: ${dump}`);
  }
  script = () => undefined;
  for (const p of PROVIDERS) {
    const res = await model(p).generate(fresh(`ok-${p}`), never);
    for (const key of Object.values(KEYS)) assert.ok(!JSON.stringify(res).includes(key));
  }
  assert.ok(mock.stats.credentials.has(`Bearer ${KEYS.OPENAI_API_KEY}`));
  assert.ok(mock.stats.credentials.has(KEYS.ANTHROPIC_API_KEY));
  assert.ok(mock.stats.credentials.has(KEYS.GEMINI_API_KEY));
  for (const url of mock.stats.urls) for (const key of Object.values(KEYS)) assert.ok(!url.includes(key));
});

test("a connection refused is a retryable network error", async () => {
  const dead = await startMockServer();
  const url = dead.url;
  await dead.close();
  const waits: number[] = [];
  const m = createProviderModel("openai:m", { baseUrl: url, env: {}, maxAttempts: 2, sleep: async (ms) => void waits.push(ms), backoffBaseMs: 1 });
  const res = await m.generate(makeRequest(), never);
  assert.equal(res.outcome, "error");
  assert.equal(res.attempts, 2);
  assert.equal(res.error?.kind, "network");
  assert.match(res.error!.message, /ECONNREFUSED/);
});

test("abort during a pending backoff rejects promptly with the reason", async () => {
  failAlways({ type: "status", status: 500 });
  const ac = new AbortController();
  const reason = new Error("run cancelled");
  const m = createProviderModel("openai:m", {
    baseUrl: mock.url,
    env: {},
    backoffBaseMs: 30_000,
    random: () => 1,
    onRetry: () => setTimeout(() => ac.abort(reason), 20),
  });
  const started = Date.now();
  await assert.rejects(m.generate(fresh("abort-backoff"), ac.signal), (e) => e === reason);
  assert.ok(Date.now() - started < 1000);
});

test("abort during an in-flight request rejects promptly", async () => {
  failAlways({ type: "slow", delayMs: 10_000 });
  const ac = new AbortController();
  const m = createProviderModel("anthropic:m", { baseUrl: mock.url, env: KEYS });
  const started = Date.now();
  setTimeout(() => ac.abort(new Error("stop now")), 50);
  await assert.rejects(m.generate(fresh("abort-flight"), ac.signal), /stop now/);
  assert.ok(Date.now() - started < 1000);
  const pre = new AbortController();
  pre.abort(new Error("already"));
  await assert.rejects(m.generate(fresh("abort-pre"), pre.signal), /already/);
});

test("the rpm limiter spaces requests", async () => {
  script = () => undefined;
  const arrivals: number[] = [];
  const timed = await startMockServer({
    reply: () => {
      arrivals.push(performance.now());
      return "{}";
    },
  });
  try {
    const m = createProviderModel("openai:m", { baseUrl: timed.url, env: {}, rpm: 600 }); // one per 100 ms
    await Promise.all(Array.from({ length: 4 }, (_, i) => m.generate(makeRequest([`r${i}`]), never)));
    arrivals.sort((a, b) => a - b);
    // Grants are 100 ms apart; allow for delivery jitter on each arrival.
    assert.ok(arrivals.at(-1)! - arrivals[0]! >= 250, `span ${arrivals.at(-1)! - arrivals[0]!}`);
    for (let i = 1; i < arrivals.length; i++) assert.ok(arrivals[i]! - arrivals[i - 1]! >= 40, `gap ${arrivals[i]! - arrivals[i - 1]!}`);
  } finally {
    await timed.close();
  }
});
