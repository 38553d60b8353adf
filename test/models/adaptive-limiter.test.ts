/** The adaptive concurrency limiter alone: exact limits after explicit events. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { AdaptiveConcurrency, rateLimitHeadroom, type Slot } from "../../src/models/concurrency.js";

const clock = () => {
  const c = { t: 0, now: () => c.t, sleep: async (ms: number) => void (c.t += ms) };
  return c;
};

async function take(limiter: AdaptiveConcurrency, n: number): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (let i = 0; i < n; i++) slots.push(await limiter.acquire());
  return slots;
}

/** One attempt granted now and ended at once with `status`. */
async function attempt(limiter: AdaptiveConcurrency, status: "ok" | "rate-limited" | "failed", headroom?: number): Promise<void> {
  const slot = await limiter.acquire();
  slot.release({ status, ...(headroom !== undefined && { headroom }) });
}

test("halved on a 429 down to the floor of 1; one halving per burst of attempts sent at the same limit", async () => {
  const limiter = new AdaptiveConcurrency({ cap: 8, clock: clock() });
  assert.equal(limiter.limit, 8);
  const burst = await take(limiter, 8);
  // All eight were sent at limit 8: the first 429 halves, the other seven saw the old limit.
  for (const slot of burst) slot.release({ status: "rate-limited" });
  assert.equal(limiter.limit, 4);
  const limits: number[] = [];
  for (let i = 0; i < 4; i++) {
    await attempt(limiter, "rate-limited");
    limits.push(limiter.limit);
  }
  assert.deepEqual(limits, [2, 1, 1, 1]);
  const s = limiter.summary();
  assert.deepEqual({ ...s, changes: s.changes.map((c) => [c.from, c.to, c.reason]) }, {
    cap: 8,
    min: 1,
    max: 8,
    final: 1,
    n_changes: 3,
    changes: [[8, 4, "429"], [4, 2, "429"], [2, 1, "429"]],
    rate_limited: 12,
  });
});

test("raised by one after 10 successes in a row, never above the cap; a failure restarts the count", async () => {
  const limiter = new AdaptiveConcurrency({ cap: 3, clock: clock() });
  await attempt(limiter, "rate-limited"); // 3 -> 1
  assert.equal(limiter.limit, 1);
  const after: number[] = [];
  for (let i = 1; i <= 9; i++) await attempt(limiter, "ok");
  await attempt(limiter, "failed"); // the 10th is a failure: no raise, count restarts
  after.push(limiter.limit);
  for (let i = 1; i <= 10; i++) await attempt(limiter, "ok");
  after.push(limiter.limit); // 2
  for (let i = 1; i <= 10; i++) await attempt(limiter, "ok");
  after.push(limiter.limit); // 3 = cap
  for (let i = 1; i <= 20; i++) await attempt(limiter, "ok");
  after.push(limiter.limit); // stays 3
  assert.deepEqual(after, [1, 2, 3, 3]);
  const s = limiter.summary();
  assert.deepEqual(s.changes.map((c) => [c.from, c.to, c.reason]), [[3, 1, "429"], [1, 2, "success"], [2, 3, "success"]]);
  assert.deepEqual([s.min, s.max, s.final], [1, 3, 3]);
});

test("the rate-limit headroom lowers the limit to what remains, and holds back raises while it is short", async () => {
  const limiter = new AdaptiveConcurrency({ cap: 8, raiseAfter: 2, clock: clock() });
  await attempt(limiter, "ok", 5);
  assert.equal(limiter.limit, 5);
  await attempt(limiter, "ok", 0);
  assert.equal(limiter.limit, 1);
  // Headroom 1 at limit 1: not lower, but no room to raise either.
  for (let i = 0; i < 4; i++) await attempt(limiter, "ok", 1);
  assert.equal(limiter.limit, 1);
  // Room again: +1 after every 2 successes.
  for (let i = 0; i < 4; i++) await attempt(limiter, "ok", 100);
  assert.equal(limiter.limit, 3);
  assert.deepEqual(limiter.summary().changes.map((c) => [c.from, c.to, c.reason]), [[8, 5, "headers"], [5, 1, "headers"], [1, 2, "success"], [2, 3, "success"]]);
});

test("acquire waits while the limit is reached; grants go in call order as slots free up", async () => {
  const limiter = new AdaptiveConcurrency({ cap: 2, clock: clock() });
  const [a, b] = await take(limiter, 2);
  const order: string[] = [];
  const c = limiter.acquire().then((slot) => (order.push("c"), slot));
  const d = limiter.acquire().then((slot) => (order.push("d"), slot));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, []);
  a!.release({ status: "rate-limited" }); // limit 2 -> 1, one in flight (b): nobody starts
  await new Promise((r) => setImmediate(r));
  assert.deepEqual([order, limiter.limit, limiter.active], [[], 1, 1]);
  b!.release({ status: "ok" });
  (await c).release({ status: "ok" });
  await d;
  assert.deepEqual(order, ["c", "d"]);
});

test("an abort while waiting rejects with the reason and gives up the place", async () => {
  const limiter = new AdaptiveConcurrency({ cap: 1, clock: clock() });
  const [held] = await take(limiter, 1);
  const controller = new AbortController();
  const waiting = limiter.acquire(controller.signal);
  controller.abort(new Error("stop"));
  await assert.rejects(waiting, /stop/);
  held!.release({ status: "ok" });
  assert.equal(limiter.active, 0);
  await attempt(limiter, "ok");
});

test("setCap: a fresh limiter starts at the cap; a lowered one keeps its limit unless over the new cap", async () => {
  const unbounded = new AdaptiveConcurrency({ clock: clock() });
  assert.equal(unbounded.limit, Infinity);
  unbounded.setCap(6);
  assert.equal(unbounded.limit, 6);
  assert.deepEqual([unbounded.summary().min, unbounded.summary().max, unbounded.summary().n_changes], [6, 6, 0]);
  await attempt(unbounded, "rate-limited"); // 6 -> 3
  unbounded.setCap(8);
  assert.equal(unbounded.limit, 3);
  unbounded.setCap(2);
  assert.equal(unbounded.limit, 2);
  assert.throws(() => unbounded.setCap(0), /at least 1/);
});

test("without a cap, a 429 halves the most attempts seen at once", async () => {
  const limiter = new AdaptiveConcurrency({ clock: clock() });
  const slots = await take(limiter, 6);
  slots[0]!.release({ status: "rate-limited" });
  assert.equal(limiter.limit, 3);
  for (const s of slots.slice(1)) s.release({ status: "ok" });
  assert.deepEqual(limiter.summary().changes.map((c) => [c.from, c.to, c.reason]), [[6, 3, "429"]]);
});

test("headroom from OpenAI and Anthropic rate-limit headers", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(rateLimitHeadroom(h({})), undefined);
  assert.equal(rateLimitHeadroom(h({ "x-ratelimit-remaining-requests": "7" })), 7);
  // 9000 tokens left at 1000 + 500 per request: 6 more.
  assert.equal(rateLimitHeadroom(h({ "x-ratelimit-remaining-requests": "59", "x-ratelimit-remaining-tokens": "9000" }), { inputTokens: 1000, outputTokens: 500 }), 6);
  // Tokens without usage to divide by are not counted.
  assert.equal(rateLimitHeadroom(h({ "x-ratelimit-remaining-tokens": "9000" })), undefined);
  // Anthropic: requests 40, input 20 000 / 4 000 = 5, output 900 / 100 = 9: 5.
  assert.equal(
    rateLimitHeadroom(
      h({ "anthropic-ratelimit-requests-remaining": "40", "anthropic-ratelimit-input-tokens-remaining": "20000", "anthropic-ratelimit-output-tokens-remaining": "900" }),
      { inputTokens: 4000, outputTokens: 100 },
    ),
    5,
  );
  assert.equal(rateLimitHeadroom(h({ "anthropic-ratelimit-tokens-remaining": "3000" }), { inputTokens: 1000, outputTokens: 1000 }), 1);
  // Unreadable values are ignored.
  assert.equal(rateLimitHeadroom(h({ "x-ratelimit-remaining-requests": "-3", "anthropic-ratelimit-requests-remaining": "1e3" })), undefined);
});
