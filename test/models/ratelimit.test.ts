import assert from "node:assert/strict";
import { test } from "node:test";
import { RateLimiter, type Clock } from "../../src/models/ratelimit.js";

/** A clock that only moves when told; sleeping records the wait and advances time. */
function fakeClock(advanceOnSleep: boolean) {
  const state = { t: 0, waits: [] as number[] };
  const clock: Clock = {
    now: () => state.t,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      state.waits.push(ms);
      if (advanceOnSleep) state.t += ms;
    },
  };
  return { state, clock };
}

test("sequential acquires are spaced 60000/rpm apart", async () => {
  const { state, clock } = fakeClock(true);
  const limiter = new RateLimiter(60, { clock });
  const grants: number[] = [];
  for (let i = 0; i < 5; i++) {
    await limiter.acquire();
    grants.push(state.t);
  }
  assert.deepEqual(grants, [0, 1000, 2000, 3000, 4000]);
});

test("concurrent acquires are queued in order", async () => {
  const { state, clock } = fakeClock(false);
  const limiter = new RateLimiter(120, { clock });
  await Promise.all(Array.from({ length: 5 }, () => limiter.acquire()));
  assert.deepEqual(state.waits, [500, 1000, 1500, 2000]);
});

test("burst allows that many back to back, then spaces; idle time does not stockpile more", async () => {
  const { state, clock } = fakeClock(false);
  const limiter = new RateLimiter(60, { clock, burst: 3 });
  await Promise.all(Array.from({ length: 5 }, () => limiter.acquire()));
  assert.deepEqual(state.waits, [1000, 2000]);
  state.t = 100_000;
  state.waits.length = 0;
  await Promise.all(Array.from({ length: 4 }, () => limiter.acquire()));
  assert.deepEqual(state.waits, [1000]);
});

test("an aborted wait gives its slot back", async () => {
  const state = { t: 0, waits: [] as number[], cancel: false };
  const clock: Clock = {
    now: () => state.t,
    sleep: async (ms) => {
      if (state.cancel) throw new Error("cancelled");
      state.waits.push(ms);
    },
  };
  const limiter = new RateLimiter(60, { clock });
  await limiter.acquire();
  const ac = new AbortController();
  ac.abort(new Error("stop"));
  await assert.rejects(limiter.acquire(ac.signal), /stop/);
  state.cancel = true;
  await assert.rejects(limiter.acquire(), /cancelled/);
  state.cancel = false;
  // The refunded slot (1000 ms) is the next one handed out, not 2000 ms.
  await limiter.acquire();
  assert.deepEqual(state.waits, [1000]);
});

test("rejects a non-positive rpm", () => {
  assert.throws(() => new RateLimiter(0), RangeError);
});
