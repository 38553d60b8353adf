import assert from "node:assert/strict";
import { test } from "node:test";
import { clusterBootstrap, quantile } from "../../src/stats/bootstrap.js";

test("quantile interpolates linearly like numpy's default", () => {
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantile([1, 2, 3, 4], 0.025), 1.075);
  assert.equal(quantile([5], 0.975), 5);
});

test("cluster bootstrap: identical clusters give a zero-width interval; the seed fixes the draws", () => {
  const same = [new Float64Array([1, 2]), new Float64Array([1, 2]), new Float64Array([1, 2])];
  const ratio = (s: Float64Array) => ({ r: s[0]! / s[1]! });
  assert.deepEqual(clusterBootstrap(same, ratio, { resamples: 500, seed: 1 }), { r: [0.5, 0.5] });
  const mixed = [new Float64Array([0, 1]), new Float64Array([1, 1]), new Float64Array([1, 1]), new Float64Array([0, 1])];
  const a = clusterBootstrap(mixed, ratio, { resamples: 2000, seed: 9 });
  const b = clusterBootstrap(mixed, ratio, { resamples: 2000, seed: 9 });
  assert.deepEqual(a, b);
  assert.deepEqual(a["r"], [0, 1]); // 4 clusters: all-zero and all-one resamples both occur (p = 1/256 each)
});
