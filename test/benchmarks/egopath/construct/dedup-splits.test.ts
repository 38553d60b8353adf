/**
 * Views de-duplicated by what they show, and house splits that keep the requested ratios at small
 * house counts (issue 27, item 5). Hand-made inputs; every expected value is worked out by hand.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEDUP_CONTENT_JACCARD, jaccard, sameContent } from "../../../../src/benchmarks/egopath/construct/cameras.js";
import { assignSplits, splitCounts, splitWarning } from "../../../../src/benchmarks/egopath/construct/index.js";

test("Jaccard of shown object ids: shared over all, as sets", () => {
  assert.equal(jaccard([1, 2, 3, 4], [2, 3, 4, 5]), 3 / 5);
  assert.equal(jaccard([1, 1, 2], [2, 1]), 1);
  assert.equal(jaccard([1, 2], [3]), 0);
  assert.equal(jaccard([], []), 0);
});

test("a view is a duplicate when a kept view of the same room shows mostly the same objects", () => {
  assert.equal(DEDUP_CONTENT_JACCARD, 0.6);
  const kept = [{ room: "bedroom_1", objectIds: [1, 2, 3, 4, 5] }];
  // 3 shared of 5 in all: 0.6, at the threshold.
  assert.equal(sameContent(kept, { room: "bedroom_1", objectIds: [1, 2, 3] }), true);
  // 3 shared of 6 in all: 0.5.
  assert.equal(sameContent(kept, { room: "bedroom_1", objectIds: [1, 2, 3, 6] }), false);
  // The same objects seen from another room (through a door) are another view.
  assert.equal(sameContent(kept, { room: "hallway_1", objectIds: [1, 2, 3, 4, 5] }), false);
  assert.equal(sameContent([], { room: "bedroom_1", objectIds: [1] }), false);
});

const RATIOS = { train: 0.8, val: 0.1, benchmark: 0.1 };

test("below 10 houses val and benchmark get a house only when n x ratio >= 0.5; from 10 on, at least one", () => {
  const expected: Record<number, [number, number, number]> = {
    // n: [train, val, benchmark]; n x 0.1 = 0.1 .. 0.4 rounds to 0, 0.5 .. 1.4 to 1, 1.5 to 2.
    1: [1, 0, 0], 3: [3, 0, 0], 4: [4, 0, 0], 5: [3, 1, 1], 9: [7, 1, 1], 10: [8, 1, 1], 15: [11, 2, 2], 20: [16, 2, 2],
  };
  for (const [n, [train, val, benchmark]] of Object.entries(expected)) assert.deepEqual(splitCounts(Number(n), RATIOS), { train, val, benchmark }, `${n} houses`);
  // A tiny positive ratio: 12 x 0.02 = 0.24 rounds to 0, but from 10 houses the split still gets one.
  assert.deepEqual(splitCounts(12, { train: 0.96, val: 0.02, benchmark: 0.02 }), { train: 10, val: 1, benchmark: 1 });
  assert.deepEqual(splitCounts(8, { train: 0.96, val: 0.02, benchmark: 0.02 }), { train: 8, val: 0, benchmark: 0 });
  // Train 0: the rest goes to val (or, with val 0 too, to the benchmark).
  assert.deepEqual(splitCounts(5, { train: 0, val: 1, benchmark: 1 }), { train: 0, val: 2, benchmark: 3 });
  assert.deepEqual(splitCounts(4, { train: 0, val: 0, benchmark: 1 }), { train: 0, val: 0, benchmark: 4 });
});

test("assignSplits gives each house one split, by splitCounts, the same for the same seed", () => {
  const ids = Array.from({ length: 20 }, (_, k) => `h${k}`);
  const count = (m: Map<string, string>) => ({ train: [...m.values()].filter((s) => s === "train").length, val: [...m.values()].filter((s) => s === "val").length, benchmark: [...m.values()].filter((s) => s === "benchmark").length });
  assert.deepEqual(count(assignSplits(ids.slice(0, 3), RATIOS, 1)), { train: 3, val: 0, benchmark: 0 });
  assert.deepEqual(count(assignSplits(ids.slice(0, 6), RATIOS, 1)), { train: 4, val: 1, benchmark: 1 });
  assert.deepEqual([...assignSplits(ids, RATIOS, 9)], [...assignSplits(ids, RATIOS, 9)]);
  assert.equal(assignSplits(ids, RATIOS, 9).size, 20);
});

test("the warning says which splits get no house and how many houses are needed", () => {
  assert.equal(
    splitWarning(3, RATIOS),
    "warning: 3 houses are too few for the split ratios 0.8/0.1/0.1 (train/val/benchmark): val gets no house (its share 0.3), benchmark gets no house (its share 0.3); at least 5 houses are needed",
  );
  // Ratios need not sum to 1: 1,1,2 of 1 house. Benchmark, val, train: 2 houses 1/1/0, 3 houses 2/1/0, 4 houses 2/1/1.
  assert.equal(
    splitWarning(1, { train: 1, val: 1, benchmark: 2 }),
    "warning: 1 house is too few for the split ratios 0.25/0.25/0.5 (train/val/benchmark): train gets no house (its share 0.25), val gets no house (its share 0.25); at least 4 houses are needed",
  );
  assert.equal(splitWarning(5, RATIOS), null);
  assert.equal(splitWarning(4, { train: 0, val: 0, benchmark: 1 }), null);
});
