import assert from "node:assert/strict";
import { test } from "node:test";
import { fitBinning, fitForest, predict } from "../../src/audit/forest.js";
import { assignFolds } from "../../src/audit/tst.js";
import { createRng } from "../../src/stats/rng.js";

test("binning: each distinct value its own bin when there are few; quantile cuts otherwise", () => {
  assert.deepEqual([...fitBinning([[1], [3], [3], [7]], 32).cuts[0]!], [1, 3]);
  // 100 distinct values into 4 bins: cuts at the 25th, 50th and 75th values.
  assert.deepEqual([...fitBinning(Array.from({ length: 100 }, (_, i) => [i]), 4).cuts[0]!], [25, 50, 75]);
});

test("a target set by one column's threshold is predicted exactly; that column carries the gain; same seed, same forest", () => {
  const rng = createRng(9);
  const x = Array.from({ length: 300 }, () => [rng.int(0, 9), rng.next(), rng.next()]);
  const y = x.map((row) => (row[0]! >= 5 ? 1 : 0));
  // Every column tried at each split: the first split is the threshold, and both sides are pure.
  const forest = fitForest(x, y, { trees: 20, seed: 4, featureFraction: 1 });
  const probe = [[2, 0.5, 0.5], [8, 0.1, 0.9], [4, 0.9, 0.1], [5, 0.3, 0.3]];
  assert.deepEqual([...predict(forest, probe)], [0, 1, 0, 1]);
  // One column of three tried per split: some trees split on noise first, yet every answer is on its side of 0.5.
  assert.deepEqual([...predict(fitForest(x, y, { trees: 20, seed: 4 }), probe)].map((p) => (p >= 0.5 ? 1 : 0)), [0, 1, 0, 1]);
  assert.ok(forest.gain[0]! > 10 * (forest.gain[1]! + forest.gain[2]!));
  assert.deepEqual([...predict(fitForest(x, y, { trees: 20, seed: 4, featureFraction: 1 }), x.slice(0, 50))], [...predict(forest, x.slice(0, 50))]);
});

test("regression: the mean of the leaves' targets", () => {
  const x = Array.from({ length: 40 }, (_, i) => [i < 20 ? 0 : 1]);
  const y = x.map((row) => (row[0] === 0 ? 2 : 6));
  assert.deepEqual([...predict(fitForest(x, y, { trees: 5, seed: 1 }), [[0], [1]])], [2, 6]);
});

test("folds: every id once, sizes within one, the same for the same seed", () => {
  const ids = Array.from({ length: 23 }, (_, i) => `i${i}`);
  const fold = assignFolds(ids, 5, 7);
  const sizes = [0, 1, 2, 3, 4].map((f) => fold.filter((x) => x === f).length);
  assert.deepEqual(sizes.sort(), [4, 4, 5, 5, 5]);
  assert.deepEqual(assignFolds(ids, 5, 7), fold);
  assert.notDeepEqual(assignFolds(ids, 5, 8), fold);
});
