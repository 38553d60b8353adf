import assert from "node:assert/strict";
import { test } from "node:test";
import { pearson } from "../../src/stats/pearson.js";

const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null, `${what}: null`);
  assert.ok(Math.abs(actual - expected) <= 1e-15, `${what}: ${actual} vs ${expected}`);
};

test("by hand: x̄ = 3, ȳ = 4, Σdxdy = 6, Σdx² = 10, Σdy² = 6 -> r = 6 / √60", () => {
  assert.equal(pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]), 6 / Math.sqrt(60));
  // Exactly linear samples: ±1.
  assert.equal(pearson([1, 2, 3], [6, 4, 2]), -1);
  assert.equal(pearson([0, 1, 2, 3], [5, 7, 9, 11]), 1);
  // Far from zero: dx = (−1, 0, 1), dy = (1, −1, 0): Σdxdy = −1, Σdx² = Σdy² = 2 -> −0.5 exactly (two passes keep it).
  assert.equal(pearson([1e9 + 1, 1e9 + 2, 1e9 + 3], [3, 1, 2]), -0.5);
});

test("against Python's statistics.correlation (3.12) on the same samples", () => {
  // python3 -c "import statistics; print(repr(statistics.correlation(x, y)))"
  close(pearson([0, 1, 0, 1, 1, 0], [10, 25, 12, 30, 22, 9]), 0.9509329651839316, "binary success vs frames");
  close(pearson([0, 0, 1, 1, 1], [40, 55, 61, 80, 95]), 0.7918896144452071, "binary vs area");
});

test("undefined cases are null: fewer than 3 values, or a constant sample", () => {
  assert.equal(pearson([], []), null);
  assert.equal(pearson([1, 2], [3, 5]), null);
  assert.equal(pearson([1, 1, 1, 1], [1, 2, 3, 4]), null);
  assert.equal(pearson([1, 2, 3, 4], [0.1, 0.1, 0.1, 0.1]), null, "constant by value, even where a rounded mean would leave tiny residues");
});

test("bad input: unequal lengths and non-finite values are RangeErrors", () => {
  assert.throws(() => pearson([1, 2, 3], [1, 2]), /different lengths \(3 and 2\)/);
  assert.throws(() => pearson([1, Number.NaN, 3], [1, 2, 3]), /x\[1\] is not a finite number/);
  assert.throws(() => pearson([1, 2, 3], [1, 2, Infinity]), /y\[2\] is not a finite number/);
});
