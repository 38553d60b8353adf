import assert from "node:assert/strict";
import { test } from "node:test";
import { ProviderError } from "../../src/models/errors.js";
import { backoffDelay, formatSeconds, parseRetryAfter, sleep, withRetries } from "../../src/models/retry.js";

const recorder = () => {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
};

test("backoff doubles from the base up to the cap, with full jitter", () => {
  const policy = { baseMs: 100, capMs: 1000, random: () => 1 };
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, policy)), [100, 200, 400, 800, 1000, 1000]);
  assert.equal(backoffDelay(3, { ...policy, random: () => 0 }), 0);
  assert.equal(backoffDelay(3, { ...policy, random: () => 0.5 }), 200);
});

test("a server hint wins when larger and is never shortened; computed backoff stays under maxDelayMs", () => {
  const policy = { baseMs: 100, capMs: 1000, maxDelayMs: 5000, random: () => 1 };
  assert.equal(backoffDelay(1, policy, 3000), 3000);
  assert.equal(backoffDelay(4, policy, 10), 800);
  assert.equal(backoffDelay(1, policy, 60_000), 60_000);
  assert.equal(backoffDelay(10, { baseMs: 1000, capMs: 1_000_000, maxDelayMs: 5000, random: () => 1 }), 5000);
});

test("seconds in messages", () => {
  assert.equal(formatSeconds(300_000), "300 s");
  assert.equal(formatSeconds(1500), "1.5 s");
  assert.equal(formatSeconds(120_000), "120 s");
  assert.equal(formatSeconds(250), "0.25 s");
});

test("a Retry-After over the limit ends the request at once, as an error naming both waits", async () => {
  const r = recorder();
  let calls = 0;
  const out = await withRetries(
    async () => {
      calls++;
      throw new ProviderError("http", "HTTP 429: slow down", { status: 429, retryAfterMs: 300_000 });
    },
    { sleep: r.sleep },
  );
  assert.equal(calls, 1);
  assert.deepEqual(r.waits, []);
  assert.equal(out.ok, false);
  if (out.ok) return;
  assert.equal(out.attempts, 1);
  assert.equal(out.error.message, "server asked to retry after 300 s, over the 120 s limit (--max-retry-wait); HTTP 429: slow down");
  assert.deepEqual(out.error.toResponseError(), {
    kind: "http",
    status: 429,
    message: "server asked to retry after 300 s, over the 120 s limit (--max-retry-wait); HTTP 429: slow down",
  });
  assert.equal(out.error.retryable, false);
  assert.equal(out.error.retryAfterMs, 300_000);

  // A lower limit, a hint in milliseconds, on a later attempt.
  calls = 0;
  const later = await withRetries(
    async () => {
      calls++;
      if (calls === 1) throw new ProviderError("http", "HTTP 503", { status: 503 });
      throw new ProviderError("http", "HTTP 503", { status: 503, retryAfterMs: 1500 });
    },
    { maxDelayMs: 1000, baseMs: 10, random: () => 1, sleep: r.sleep },
  );
  assert.deepEqual(r.waits, [10]);
  assert.equal(!later.ok && later.error.message, "server asked to retry after 1.5 s, over the 1 s limit (--max-retry-wait); HTTP 503");
  assert.equal(later.attempts, 2);
});

test("a longer limit waits a long Retry-After in full; a hint equal to the limit is waited", async () => {
  const r = recorder();
  let calls = 0;
  const out = await withRetries(
    async () => {
      calls++;
      if (calls === 1) throw new ProviderError("http", "HTTP 429", { status: 429, retryAfterMs: 300_000 });
      if (calls === 2) throw new ProviderError("http", "HTTP 429", { status: 429, retryAfterMs: 600_000 });
      return "ok";
    },
    { maxDelayMs: 600_000, random: () => 0, sleep: r.sleep },
  );
  assert.deepEqual(out, { ok: true, value: "ok", attempts: 3 });
  assert.deepEqual(r.waits, [300_000, 600_000]);
});

test("on the last attempt a long hint changes nothing: the plain failure is returned", async () => {
  const r = recorder();
  const out = await withRetries(
    async () => {
      throw new ProviderError("http", "HTTP 429", { status: 429, retryAfterMs: 300_000 });
    },
    { maxAttempts: 1, sleep: r.sleep },
  );
  assert.equal(!out.ok && out.error.message, "HTTP 429");
  assert.deepEqual(r.waits, []);
});

test("Retry-After: seconds, HTTP date, retry-after-ms", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  assert.equal(parseRetryAfter({ "Retry-After": "3" }, now), 3000);
  assert.equal(parseRetryAfter({ "retry-after": "1.5" }, now), 1500);
  assert.equal(parseRetryAfter({ "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }, now), 7000);
  assert.equal(parseRetryAfter({ "retry-after": "Tue, 31 Dec 2024 00:00:00 GMT" }, now), 0);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "9", "retry-after-ms": "250" }), now), 250);
  assert.equal(parseRetryAfter({ "retry-after": "soon" }, now), undefined);
  assert.equal(parseRetryAfter(new Headers(), now), undefined);
});

test("retries retryable failures and reports attempts", async () => {
  const r = recorder();
  let calls = 0;
  const out = await withRetries(
    async (attempt) => {
      calls++;
      assert.equal(attempt, calls);
      if (calls < 3) throw new ProviderError("http", "HTTP 503", { status: 503 });
      return "done";
    },
    { baseMs: 10, random: () => 1, sleep: r.sleep },
  );
  assert.deepEqual(out, { ok: true, value: "done", attempts: 3 });
  assert.deepEqual(r.waits, [10, 20]);
});

test("uses the Retry-After hint of the failure", async () => {
  const r = recorder();
  let calls = 0;
  const out = await withRetries(
    async () => {
      if (++calls === 1) throw new ProviderError("http", "HTTP 429", { status: 429, retryAfterMs: 2000 });
      return 1;
    },
    { baseMs: 5, random: () => 0.5, sleep: r.sleep },
  );
  assert.equal(out.attempts, 2);
  assert.deepEqual(r.waits, [2000]);
});

test("stops at maxAttempts and on non-retryable errors", async () => {
  const r = recorder();
  let calls = 0;
  const exhausted = await withRetries(
    async () => {
      calls++;
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET", message: "reset" } });
    },
    { maxAttempts: 4, baseMs: 1, sleep: r.sleep },
  );
  assert.equal(calls, 4);
  assert.equal(exhausted.ok, false);
  assert.equal(exhausted.attempts, 4);
  assert.equal(!exhausted.ok && exhausted.error.kind, "network");
  assert.equal(r.waits.length, 3);

  calls = 0;
  const fatal = await withRetries(
    async () => {
      calls++;
      throw new ProviderError("http", "HTTP 400", { status: 400 });
    },
    { sleep: r.sleep },
  );
  assert.equal(calls, 1);
  assert.deepEqual([fatal.ok, fatal.attempts], [false, 1]);
});

test("abort interrupts a pending backoff at once with the signal's reason", async () => {
  const ac = new AbortController();
  const reason = new Error("user stop");
  const started = Date.now();
  const pending = withRetries(
    async () => {
      throw new ProviderError("http", "HTTP 500", { status: 500 });
    },
    { baseMs: 30_000, random: () => 1, onRetry: () => setTimeout(() => ac.abort(reason), 20) },
    ac.signal,
  );
  await assert.rejects(pending, (e) => e === reason);
  assert.ok(Date.now() - started < 1000);
});

test("an already aborted signal makes no attempt", async () => {
  const ac = new AbortController();
  ac.abort(new Error("gone"));
  let calls = 0;
  await assert.rejects(withRetries(async () => ++calls, {}, ac.signal), /gone/);
  assert.equal(calls, 0);
  await assert.rejects(sleep(10_000, ac.signal), /gone/);
});
