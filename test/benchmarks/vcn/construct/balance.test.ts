import assert from "node:assert/strict";
import { test } from "node:test";
import { CueTally, cueOutcome, rulesAnswering, tallyKeys, tourPixels } from "../../../../src/benchmarks/vcn/construct/balance.js";
import type { Tour } from "../../../../src/benchmarks/vcn/construct/tour-types.js";

// A window of five frames: bedroom r1 (frames 0-1), kitchen (2), bedroom r2 (3-4). Beds are seen in
// frames 1 (bed_1, 9,000 px) and 4 (bed_2, 3,000 px). Tour frame k is source frame 10 + k.
const rooms = [["r1", "bedroom"], ["r1", "bedroom"], ["k", "kitchen"], ["r2", "bedroom"], ["r2", "bedroom"]] as const;
const beds: Record<number, [string, number]> = { 1: ["bed_1", 9000], 4: ["bed_2", 3000] };
const annotations = rooms.map(([room, category], k) => ({
  index: k, room, room_category: category, visible_rooms: [], source_index: 10 + k,
  objects: beds[k] ? [{ id: beds[k]![0], category: "bed" }] : [],
}));
const tour = {
  frames: Array.from({ length: 15 }, (_, i) => ({ index: i, objects: beds[i - 10] ? [{ name: beds[i - 10]![0], pixels: beds[i - 10]![1] }] : [] })),
} as unknown as Tour;
const item = (answers: number[]) => ({ task: "distance" as const, instruction: "Proceed to the bedroom that is farthest from the current position. Locate the bed.", annotations, layout: undefined, answers });

test("cue outcome: 'last frame of the named category' picks frame 4 (r2), 'most pixels of the named object' frame 1 (bed_1 in r1), 'first frame of the named category' frame 0 (r1)", () => {
  const pixels = tourPixels(tour);
  // Target r2: success frames 3, 4 of the four bedroom frames: chance 2/4; only the last-frame rule hits.
  assert.deepEqual(cueOutcome(item([3, 4]), { kind: "room", room: "r2", category: "bedroom" }, pixels), { hits: [1, 0, 0], chance: 0.5 });
  // Target r1: the other two.
  assert.deepEqual(cueOutcome(item([0, 1]), { kind: "room", room: "r1", category: "bedroom" }, pixels), { hits: [0, 1, 1], chance: 0.5 });
});

test("cue tally: per rule, hits minus summed chance; an episode a rule answers waits once that rule would run more than the slack ahead", () => {
  const tally = new CueTally();
  const both = { hits: [1, 1, 0], chance: 0.25 };
  // Empty tally: each rule would run 0.75 ahead, within a slack of 1.
  assert.equal(tally.worsens(["count"], both, 1), false);
  tally.add(["count"], both);
  // Now 0.75 ahead per rule; another such episode would make 1.5.
  assert.equal(tally.worsens(["count"], both, 1), true);
  // One the rules miss never waits, and only the rule that answers counts: 0.75 + 1 - 0.5 = 1.25 on the first.
  assert.equal(tally.worsens(["count"], { hits: [0, 0, 0], chance: 0.1 }, 1), false);
  assert.equal(tally.worsens(["count"], { hits: [1, 0, 0], chance: 0.5 }, 1), true);
  assert.equal(tally.worsens(["count"], { hits: [1, 0, 0], chance: 0.8 }, 1), false);
  // Tasks keep their own tallies.
  assert.equal(tally.worsens(["order"], both, 1), false);
  // Two episodes both rules miss at chance 0.5 bring them to -0.25: the first one again fits (0.5 ahead).
  tally.add(["count"], { hits: [0, 0, 0], chance: 0.5 });
  tally.add(["count"], { hits: [0, 0, 0], chance: 0.5 });
  assert.equal(tally.worsens(["count"], both, 1), false);
  assert.equal(rulesAnswering(both), 2);
  assert.equal(rulesAnswering({ hits: [0, 1, 1], chance: 0.3 }), 2);
});

test("tallies: a type's own, and for place relations (Distance, Orientation, Instance) its subclass and relation's too", () => {
  const plan = (task: string, subclass: string, relation?: string) => ({ task, subclass, ...(relation ? { query: { relation, candidates: [] } } : {}) }) as never;
  assert.deepEqual(tallyKeys(plan("count", "count-rooms", "first")), ["count"]);
  assert.deepEqual(tallyKeys(plan("order", "order-types", "before")), ["order"]);
  assert.deepEqual(tallyKeys(plan("distance", "distance-farthest", "farthest")), ["distance", "distance-farthest|farthest"]);
  assert.deepEqual(tallyKeys(plan("orientation", "orientation-south")), ["orientation", "orientation-south|"]);
  assert.deepEqual(tallyKeys(plan("instance", "instance-object", "nearest")), ["instance", "instance-object|nearest"]);
  const tally = new CueTally();
  const hit = { hits: [1, 0, 0], chance: 0.25 };
  tally.add(["distance", "distance-nearest|nearest"], { hits: [0, 0, 0], chance: 0.5 });
  tally.add(["distance", "distance-farthest|farthest"], hit);
  // The type's lead is 0.75 - 0.5 = 0.25 on the first rule, the relation's 0.75: another hit takes the
  // type to 1.0 (within a slack of 1) but the relation to 1.5.
  assert.equal(tally.worsens(["distance"], hit, 1), false);
  assert.equal(tally.worsens(["distance", "distance-farthest|farthest"], hit, 1), true);
  assert.equal(tally.worsens(["distance", "distance-nearest|nearest"], hit, 1), false);
});
