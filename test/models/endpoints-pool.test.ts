/** The endpoint pool alone, driven by explicit events and a fake clock: choice order, cool-downs, waits. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ProviderError } from "../../src/models/errors.js";
import { EndpointPool, coolDownMs, isEndpointFailure, type Endpoint } from "../../src/models/endpoints.js";
import { endpointList } from "../../src/models/provider.js";
import type { Clock } from "../../src/models/ratelimit.js";

function fakeClock(start = 1_000): Clock & { t: number } {
  const clock = { t: start, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms) };
  return clock;
}

const three = [
  { url: "http://a/v1/chat/completions", shown: "http://a/v1" },
  { url: "http://b/v1/chat/completions", shown: "http://b/v1" },
  { url: "http://c/v1/chat/completions", shown: "http://c/v1" },
];

function pick(pool: EndpointPool): Endpoint {
  const choice = pool.choose();
  assert.ok("endpoint" in choice, `expected an endpoint, got a wait of ${JSON.stringify(choice)}`);
  return choice.endpoint;
}

test("ties go round robin: with nothing outstanding, a b c a b c", () => {
  const pool = new EndpointPool(three, { clock: fakeClock() });
  const order: string[] = [];
  for (let i = 0; i < 6; i++) {
    const e = pick(pool);
    pool.begin(e);
    pool.end(e, "ok");
    order.push(e.shown);
  }
  assert.deepEqual(order, ["http://a/v1", "http://b/v1", "http://c/v1", "http://a/v1", "http://b/v1", "http://c/v1"]);
  assert.deepEqual(pool.stats().map((s) => [s.requests, s.ok]), [[2, 2], [2, 2], [2, 2]]);
});

test("the endpoint with the fewest outstanding requests is chosen", () => {
  const pool = new EndpointPool(three, { clock: fakeClock() });
  // a, b, c each get one (ties, round robin); a finishes; the next two go to a (0 outstanding), then b (tie 1-1-1 after a, from the cursor).
  const a = pick(pool);
  pool.begin(a);
  const b = pick(pool);
  pool.begin(b);
  const c = pick(pool);
  pool.begin(c);
  pool.end(a, "ok");
  const fourth = pick(pool);
  assert.equal(fourth.shown, "http://a/v1"); // a has 0, b and c have 1
  pool.begin(fourth);
  // Now 1-1-1: the cursor is after a, so b.
  assert.equal(pick(pool).shown, "http://b/v1");
});

test("a failed endpoint is out for 2 s, then 4 s, 8 s ... up to the cap; a success resets the count", () => {
  const clock = fakeClock(0);
  const pool = new EndpointPool(three.slice(0, 2), { clock, coolDownBaseMs: 2_000, coolDownCapMs: 10_000 });
  const a = pick(pool);
  assert.equal(a.shown, "http://a/v1");
  pool.begin(a);
  pool.end(a, "endpoint-failure");
  // a is out until t = 2000: every choice is b.
  assert.deepEqual([pick(pool).shown, pick(pool).shown], ["http://b/v1", "http://b/v1"]);
  clock.t = 1_999;
  assert.equal(pick(pool).shown, "http://b/v1");
  clock.t = 2_000;
  assert.equal(pick(pool).shown, "http://a/v1"); // back in service, tried again
  pool.begin(a);
  pool.end(a, "endpoint-failure"); // second failure in a row: 4 s
  clock.t = 5_999;
  assert.equal(pick(pool).shown, "http://b/v1");
  clock.t = 6_000;
  assert.equal(pick(pool).shown, "http://a/v1");
  pool.begin(a);
  pool.end(a, "endpoint-failure"); // third: 8 s, until 14 000
  pool.begin(a);
  pool.end(a, "endpoint-failure"); // fourth: 16 s capped to 10 s, from t = 6000: until 16 000
  clock.t = 15_999;
  assert.equal(pick(pool).shown, "http://b/v1");
  clock.t = 16_000;
  const back = pick(pool);
  assert.equal(back.shown, "http://a/v1");
  pool.begin(back);
  pool.end(back, "ok"); // resets: the next failure is 2 s again
  pool.begin(back);
  pool.end(back, "endpoint-failure");
  clock.t = 17_999;
  assert.equal(pick(pool).shown, "http://b/v1");
  clock.t = 18_000;
  assert.equal(pick(pool).shown, "http://a/v1");
  assert.deepEqual(pool.stats()[0], { url: "http://a/v1", requests: 6, ok: 1, failures: 5, cool_downs: 5 });
});

test("all out: the wait until the first one is back", () => {
  const clock = fakeClock(0);
  const pool = new EndpointPool(three.slice(0, 2), { clock, coolDownBaseMs: 1_000 });
  const a = pick(pool);
  pool.begin(a);
  pool.end(a, "endpoint-failure"); // out until 1000
  clock.t = 300;
  const b = pick(pool);
  pool.begin(b);
  pool.end(b, "endpoint-failure"); // out until 1300
  assert.equal(pool.hasHealthy(), false);
  assert.deepEqual(pool.choose(), { waitMs: 700 });
  clock.t = 1_000;
  assert.equal(pool.hasHealthy(), true);
  assert.equal(pick(pool).shown, "http://a/v1");
});

test("one endpoint is never taken out (the retry policy alone waits)", () => {
  const pool = new EndpointPool(three.slice(0, 1), { clock: fakeClock() });
  const a = pick(pool);
  pool.begin(a);
  pool.end(a, "endpoint-failure");
  assert.equal(pick(pool).shown, "http://a/v1");
  assert.deepEqual(pool.stats()[0], { url: "http://a/v1", requests: 1, ok: 0, failures: 1, cool_downs: 0 });
});

test("answers that are not endpoint failures (4xx, 429, malformed) keep the endpoint in and reset its count", () => {
  const pool = new EndpointPool(three.slice(0, 2), { clock: fakeClock() });
  const a = pick(pool);
  pool.begin(a);
  pool.end(a, "answered");
  assert.equal(pool.hasHealthy(), true);
  assert.deepEqual(pool.stats()[0], { url: "http://a/v1", requests: 1, ok: 0, failures: 0, cool_downs: 0 });
});

test("cool-down lengths and which failures count against an endpoint", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((n) => coolDownMs(n)), [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  assert.equal(isEndpointFailure(new ProviderError("network", "ECONNREFUSED")), true);
  assert.equal(isEndpointFailure(new ProviderError("timeout", "no reply")), true);
  assert.equal(isEndpointFailure(new ProviderError("http", "HTTP 500", { status: 500 })), true);
  assert.equal(isEndpointFailure(new ProviderError("http", "HTTP 503", { status: 503 })), true);
  assert.equal(isEndpointFailure(new ProviderError("http", "HTTP 429", { status: 429 })), false);
  assert.equal(isEndpointFailure(new ProviderError("http", "HTTP 400", { status: 400 })), false);
  assert.equal(isEndpointFailure(new ProviderError("malformed", "not JSON")), false);
});

test("base URL lists: option list or comma string, else the env var, else the default; trimmed, deduplicated", () => {
  const fallback = "https://api.openai.com/v1";
  assert.deepEqual(endpointList(undefined, undefined, fallback), [fallback]);
  assert.deepEqual(endpointList("http://a:8000/v1/", undefined, fallback), ["http://a:8000/v1"]);
  assert.deepEqual(endpointList("http://a/v1, http://b/v1", "http://env/v1", fallback), ["http://a/v1", "http://b/v1"]);
  assert.deepEqual(endpointList(["http://a/v1", "http://b/v1,http://c/v1", "http://a/v1/"], undefined, fallback), ["http://a/v1", "http://b/v1", "http://c/v1"]);
  assert.deepEqual(endpointList(undefined, "http://e1/v1,http://e2/v1", fallback), ["http://e1/v1", "http://e2/v1"]);
  assert.deepEqual(endpointList("", " ", fallback), [fallback]);
});
