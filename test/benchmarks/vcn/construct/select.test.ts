import assert from "node:assert/strict";
import { test } from "node:test";
import { choiceOrder, endsPastTarget, successPosition, variantOrder, type TaggedPlans } from "../../../../src/benchmarks/vcn/construct/select.js";
import type { TourSpace } from "../../../../src/benchmarks/vcn/construct/episode.js";
import type { EpisodePlan } from "../../../../src/benchmarks/vcn/construct/plan.js";
import { createRng } from "../../../../src/stats/rng.js";

// A tour whose frames are in rooms k (kitchen), t (the target bedroom), b (another bedroom), h (hallway).
const rooms = "kkttbbkkhhtt".split("");
const space = {
  tour: { frames: rooms.map((room) => ({ room, objects: [] })) },
  house: { rooms: new Map([["k", { category: "kitchen" }], ["t", { category: "bedroom" }], ["b", { category: "bedroom" }], ["h", { category: "hallway" }]]), objects: new Map() },
} as unknown as TourSpace;
const plan = (first: number, last: number) => ({ task: "count", targetRoom: "t", window: { first, last } }) as unknown as EpisodePlan;
const tagged = (tag: string, windows: Array<[number, number]>): TaggedPlans => ({
  tag, task: "count", subclass: "count-rooms", variants: windows.map(([a, b]) => ({ plan: plan(a, b), facts: {} as never, space })),
});

test("where a window's success frames sit: their mean position over the window; whether it goes on past the last one", () => {
  // Frames 0..5 = k k t t b b: success at 2 and 3 of 0..5 -> (2.5) / 5.
  assert.equal(successPosition(space, plan(0, 5)), 0.5);
  assert.equal(endsPastTarget(space, plan(0, 5)), true);
  // Frames 0..3 = k k t t ends on the target; frames 4..9 = b b k k h h has none.
  assert.equal(endsPastTarget(space, plan(0, 3)), false);
  assert.equal(successPosition(space, plan(4, 9)), null);
  assert.equal(endsPastTarget(space, plan(4, 9)), false);
  // Frames 2..11 = t t b b k k h h t t: success at 0, 1, 8, 9 of 0..9, the last frame among them.
  assert.equal(successPosition(space, plan(2, 11)), 0.5);
  assert.equal(endsPastTarget(space, plan(2, 11)), false);
});

test("variants: only windows that go on past the target, the one nearest a drawn position first; tags without one are left out", () => {
  // Success positions: window 1..5 (k t t b b) 1.5/4 = 0.375; 2..9 (t t b b k k h h) 0.5/7 = 0.0714; 0..3 ends on the target.
  const t = tagged("count|second", [[0, 3], [1, 5], [2, 9]]);
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const aim = createRng(seed).next();
    const want = Math.abs(0.375 - aim) < Math.abs(1 / 14 - aim) ? ["1-5", "2-9"] : ["2-9", "1-5"];
    const got = variantOrder(t, createRng(seed)).map((v) => `${v.plan.window.first}-${v.plan.window.last}`);
    assert.deepEqual(got, want, `seed ${seed}, aim ${aim}`);
  }
  const onlyEnding = tagged("count|first", [[0, 3], [8, 11]]);
  assert.deepEqual(choiceOrder([t, onlyEnding], "count", createRng(1)).map((x) => x.tag), ["count|second"]);
});
