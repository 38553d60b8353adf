import assert from "node:assert/strict";
import { test } from "node:test";
import { binomialHalfLowerTail, mcnemarExact } from "../../src/stats/mcnemar.js";

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.max(1, expected), `${actual} vs ${expected}`);

test("binomial(n, 1/2) lower tails, by hand from Pascal's triangle", () => {
  close(binomialHalfLowerTail(1, 6), 7 / 64); // C(6,0)+C(6,1) = 1+6
  close(binomialHalfLowerTail(2, 10), 56 / 1024); // 1+10+45
  close(binomialHalfLowerTail(3, 6), 42 / 64); // 1+6+15+20
  assert.equal(binomialHalfLowerTail(-1, 5), 0);
  assert.equal(binomialHalfLowerTail(5, 5), 1);
});

test("McNemar exact two-sided p: twice the smaller tail of the discordant pairs, capped at 1", () => {
  close(mcnemarExact(1, 5).p, 14 / 64); // 2 * 7/64
  close(mcnemarExact(5, 1).p, 14 / 64); // symmetric in A and B
  close(mcnemarExact(8, 2).p, 112 / 1024); // 2 * 56/1024
  close(mcnemarExact(0, 10).p, 2 / 1024); // 2 * 0.5^10
  close(mcnemarExact(0, 1).p, 1); // 2 * 1/2
  assert.equal(mcnemarExact(3, 3).p, 1); // 2 * 42/64 > 1
  assert.equal(mcnemarExact(0, 0).p, 1); // no discordant pairs: no evidence of a difference
  assert.deepEqual({ ...mcnemarExact(4, 7), p: 0 }, { onlyA: 4, onlyB: 7, p: 0 });
});

test("large counts stay finite: 1100 discordant pairs split evenly give p = 1; 0 of 60 gives 2^-59", () => {
  assert.equal(mcnemarExact(550, 550).p, 1);
  assert.equal(mcnemarExact(0, 6).p, 1 / 32); // exact: 2 * 2^-6
  assert.equal(mcnemarExact(0, 2000).p, 2 ** -1999); // 2 * 2^-2000, a double's subnormal range is not reached
  // Above the exact range, log-space sums: 2 * P(X <= 0 | n = 6000) = 2^-5999 underflows to 0; the even split is 1.
  assert.equal(mcnemarExact(0, 6000).p, 0);
  assert.equal(mcnemarExact(3000, 3000).p, 1);
  // 2 * P(X <= 3000 | n = 6001) = 1 exactly (symmetric tails); the log sum rounds to within 1e-9 of it.
  assert.ok(Math.abs(mcnemarExact(3000, 3001).p - 1) < 1e-9);
  close(mcnemarExact(0, 60).p, 2 ** -59);
  // 2 * P(X <= 1) for n = 40: 2 * (1 + 40) / 2^40
  close(mcnemarExact(1, 39).p, (2 * 41) / 2 ** 40);
});

test("counts that are not non-negative integers are refused", () => {
  assert.throws(() => mcnemarExact(-1, 2), RangeError);
  assert.throws(() => mcnemarExact(1.5, 2), RangeError);
});
