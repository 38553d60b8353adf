/**
 * The per-task balancing of `generate egotl` (construct/index.ts): the class cap, the equal share
 * of every class within a stratum (direction by clip length), and distance's half-octave bins.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { distanceBin, equalPerStratum, groupCap } from "../../../../src/benchmarks/egotl/construct/index.js";
import { createRng } from "../../../../src/stats/rng.js";

test("groupCap: the largest per-class count keeping every class within the share, else the smallest class", () => {
  // 27, 19, 19, 8 at share 0.28: a cap of 14 keeps 14 + 14 + 14 + 8 = 50 and 14 <= 0.28 x 50 = 14;
  // a cap of 15 keeps 53 and 15 > 14.84.
  assert.equal(groupCap([27, 19, 19, 8], 0.28), 14);
  // Four equal classes cannot stay within 0.23 each: the classes are kept equal.
  assert.equal(groupCap([5, 5, 9, 5], 0.23), 5);
  assert.equal(groupCap([0, 0], 0.5), 0);
  // An absent class does not count (0 is no class): 6 and 2 at share 0.8 -> 6 <= 0.8 x 8 = 6.4.
  assert.equal(groupCap([6, 0, 2], 0.8), 6);
});

test("equalPerStratum: each stratum keeps the smallest class's count of every class; a stratum lacking a class keeps nothing", () => {
  const cands = [
    ...["x", "x", "x", "y"].map((group, k) => ({ group, stratum: "a", id: `a${k}` })),
    ...["x", "x", "y", "y"].map((group, k) => ({ group, stratum: "b", id: `b${k}` })),
    { group: "x", stratum: "c", id: "c0" },
  ];
  const kept = equalPerStratum(cands, ["x", "y"], createRng(1));
  const count = (stratum: string, group: string) => kept.filter((c) => c.stratum === stratum && c.group === group).length;
  assert.deepEqual([count("a", "x"), count("a", "y"), count("b", "x"), count("b", "y"), count("c", "x")], [1, 1, 2, 2, 0]);
  assert.ok(kept.some((c) => c.id === "a3"), "the only y of stratum a stays");
});

test("distanceBin: half-octave bins from 0.2 m (edges 0.2, 0.28, 0.4, 0.56, 0.8, 1.13, 1.6, 2.26, 3.2, 4.5)", () => {
  assert.deepEqual(
    [0.2, 0.27, 0.28, 0.39, 0.4, 0.79, 0.8, 1.12, 1.13, 2.25, 2.26, 3.19, 3.2, 4.49, 4.5, 9.07].map(distanceBin),
    ["0.2-0.28 m", "0.2-0.28 m", "0.28-0.4 m", "0.28-0.4 m", "0.4-0.56 m", "0.56-0.8 m", "0.8-1.13 m", "0.8-1.13 m", "1.13-1.6 m", "1.6-2.26 m", "2.26-3.2 m", "2.26-3.2 m", "3.2-4.5 m", "3.2-4.5 m", ">= 4.5 m", ">= 4.5 m"],
  );
});
