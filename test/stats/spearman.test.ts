import assert from "node:assert/strict";
import { test } from "node:test";
import { averageRanks, spearman } from "../../src/stats/spearman.js";

test("average ranks: ties share the mean of their positions", () => {
  assert.deepEqual(averageRanks([10, 30, 20]), [1, 3, 2]);
  // 5 5 at positions 1,2 -> 1.5; 7 at 3; 9 9 9 at 4,5,6 -> 5
  assert.deepEqual(averageRanks([9, 5, 9, 7, 5, 9]), [5, 1.5, 5, 3, 1.5, 5]);
  assert.deepEqual(averageRanks([]), []);
  assert.throws(() => averageRanks([1, NaN]), RangeError);
});

test("spearman: monotone orderings give ±1, whatever the spacing", () => {
  assert.equal(spearman([1, 2, 3, 4], [10, 100, 1000, 10000]), 1);
  assert.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1);
});

test("spearman without ties equals 1 − 6Σd²/(n(n²−1))", () => {
  // ranks x: 1 2 3 4 5; ranks y: 2 1 4 3 5 -> d² = 1+1+1+1+0 = 4 -> 1 − 24/120 = 0.8
  const rho = spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])!;
  assert.ok(Math.abs(rho - 0.8) < 1e-15, String(rho));
});

test("spearman with ties: Pearson on average ranks", () => {
  // x ranks 1 2 3 4; y = [1, 2, 2, 3] -> ranks 1 2.5 2.5 4.
  // centred x: −1.5 −0.5 0.5 1.5; centred y: −1.5 0 0 1.5
  // Σxy = 2.25 + 0 + 0 + 2.25 = 4.5; Σx² = 5; Σy² = 4.5 -> r = 4.5 / sqrt(22.5) = 0.9486832980505138
  const rho = spearman([1, 2, 3, 4], [1, 2, 2, 3])!;
  assert.ok(Math.abs(rho - 4.5 / Math.sqrt(22.5)) < 1e-15, String(rho));
  assert.ok(Math.abs(rho - 0.9486832980505138) < 1e-12);
});

test("spearman is undefined for fewer than 3 values or a constant sample", () => {
  assert.equal(spearman([1, 2], [2, 1]), null);
  assert.equal(spearman([1, 2, 3], [5, 5, 5]), null);
  assert.throws(() => spearman([1, 2, 3], [1, 2]), RangeError);
});
