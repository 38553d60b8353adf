import assert from "node:assert/strict";
import { test } from "node:test";
import { candidateSide, choiceOrder, POSITION_TOLERANCE, successPosition, targetInside, variantOrder, type TaggedPlans } from "../../../../src/benchmarks/vcn/construct/select.js";
import { sharedWithDistractors, type TourSpace } from "../../../../src/benchmarks/vcn/construct/episode.js";
import type { EpisodePlan } from "../../../../src/benchmarks/vcn/construct/plan.js";
import { createRng } from "../../../../src/stats/rng.js";

// A tour whose frames are in rooms k (kitchen), t (the target bedroom), b (another bedroom), h (hallway).
const rooms = "kkttbbkkhhttk".split("");
const space = {
  tour: { frames: rooms.map((room) => ({ room, objects: [] })) },
  house: { rooms: new Map([["k", { category: "kitchen" }], ["t", { category: "bedroom" }], ["b", { category: "bedroom" }], ["h", { category: "hallway" }]]), objects: new Map() },
} as unknown as TourSpace;
const plan = (first: number, last: number) => ({ task: "count", targetRoom: "t", window: { first, last } }) as unknown as EpisodePlan;
const tagged = (tag: string, windows: Array<[number, number]>): TaggedPlans => ({
  tag, task: "count", subclass: "count-rooms", variants: windows.map(([a, b]) => ({ plan: plan(a, b), facts: {} as never, space })),
});

test("where a window's success frames sit: their mean position over the window; whether both end frames miss them", () => {
  // Frames 0..5 = k k t t b b: success at 2 and 3 of 0..5 -> 2.5 / 5.
  assert.equal(successPosition(space, plan(0, 5)), 0.5);
  assert.equal(targetInside(space, plan(0, 5)), true);
  // Frames 0..3 = k k t t ends on the target; 2..5 = t t b b starts on it; 4..9 = b b k k h h has none.
  assert.equal(targetInside(space, plan(0, 3)), false);
  assert.equal(targetInside(space, plan(2, 5)), false);
  assert.equal(successPosition(space, plan(4, 9)), null);
  assert.equal(targetInside(space, plan(4, 9)), false);
  // Frames 1..11 = k t t b b k k h h t t: success at 1, 2, 9, 10 of 0..10, the last frame among them.
  assert.equal(successPosition(space, plan(1, 11)), 0.55);
  assert.equal(targetInside(space, plan(1, 11)), false);
});

test("variants: only windows with the target inside; those within the tolerance of a drawn position first, by category chance; tags without one are left out", () => {
  // Window 1..5 = k t t b b: position 1.5 / 4 = 0.375, category chance 2 / 4. Window 6..12 = k k h h t t k:
  // position 4.5 / 6 = 0.75, chance 2 / 2. Window 0..3 ends on the target.
  const t = tagged("count|second", [[0, 3], [1, 5], [6, 12]]);
  const windows = [{ name: "1-5", at: 0.375, chance: 0.5 }, { name: "6-12", at: 0.75, chance: 1 }];
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const aim = createRng(seed).next();
    const off = (at: number) => (Math.abs(at - aim) <= POSITION_TOLERANCE ? 0 : Math.abs(at - aim));
    const want = [...windows].sort((a, b) => off(a.at) - off(b.at) || a.chance - b.chance).map((w) => w.name);
    const got = variantOrder(t, createRng(seed)).map((v) => `${v.plan.window.first}-${v.plan.window.last}`);
    assert.deepEqual(got, want, `seed ${seed}, aim ${aim}`);
  }
  const onlyAtEnds = tagged("count|first", [[0, 3], [10, 11]]);
  assert.deepEqual(choiceOrder([t, onlyAtEnds], "count", createRng(1)).map((x) => x.tag), ["count|second"]);
});

test("the category to locate does not single out the target room: one also seen in another room of its kind, when there is one", () => {
  // Bedrooms t and b, kitchen k. Seen in the window: a bed in t and b, a dresser in t only, a sink in k.
  const house = {
    rooms: new Map([["t", { category: "bedroom" }], ["b", { category: "bedroom" }], ["k", { category: "kitchen" }]]),
    objects: new Map([["bed_1", { category: "bed", room: "t", inWall: false }], ["bed_2", { category: "bed", room: "b", inWall: false }], ["dresser_1", { category: "dresser", room: "t", inWall: false }], ["sink_1", { category: "sink", room: "k", inWall: false }]]),
  } as never;
  const window = { rooms: ["k", "t", "b"], seen: new Map([["bed_1", [1]], ["bed_2", [5]], ["dresser_1", [2]], ["sink_1", [0]]]) } as never;
  assert.deepEqual(sharedWithDistractors(house, window, "t", ["bed", "dresser"]), ["bed"]);
  // The kitchen has no other kitchen in the window: every category stays.
  assert.deepEqual(sharedWithDistractors(house, window, "k", ["sink"]), ["sink"]);
  // Without the other bedroom in the window, the dresser may be named too.
  const alone = { rooms: ["k", "t"], seen: new Map([["bed_1", [1]], ["dresser_1", [2]]]) } as never;
  assert.deepEqual(sharedWithDistractors(house, alone, "t", ["bed", "dresser"]), ["bed", "dresser"]);
});

test("the category to locate is the one seen in the most rooms of the target's kind", () => {
  // Bedrooms t, b, c. Beds seen in all three, lamps in t and b, a dresser in t only.
  const where: Array<[string, string, string]> = [["bed_1", "bed", "t"], ["bed_2", "bed", "b"], ["bed_3", "bed", "c"], ["lamp_1", "lamp", "t"], ["lamp_2", "lamp", "b"], ["dresser_1", "dresser", "t"]];
  const house = {
    rooms: new Map([["t", { category: "bedroom" }], ["b", { category: "bedroom" }], ["c", { category: "bedroom" }]]),
    objects: new Map(where.map(([name, category, room]) => [name, { category, room, inWall: false }])),
  } as never;
  const all = { rooms: ["t", "b", "c"], seen: new Map(where.map(([name], k) => [name, [k]])) } as never;
  assert.deepEqual(sharedWithDistractors(house, all, "t", ["bed", "dresser", "lamp"]), ["bed"]);
  // Without bed_3 seen, bed and lamp are both in two of the three rooms.
  const noBed3 = { rooms: ["t", "b", "c"], seen: new Map(where.filter(([name]) => name !== "bed_3").map(([name], k) => [name, [k]])) } as never;
  assert.deepEqual(sharedWithDistractors(house, noBed3, "t", ["bed", "dresser", "lamp"]), ["bed", "lamp"]);
});

test("Instance tags are ranked by how many instances of the category the window shows, not by the target's share of the sightings", () => {
  // A tour in one room. Tag A (frames 0..6): chair_1 in frame 1 only, chair_2 in frames 2-5: category
  // chance 1/5, two instances. Tag B (frames 7..13): chair_3, chair_4, chair_5 in two frames each (one
  // shared): chance 2/5, three instances. Ranking by category chance put A first; by instances, B.
  const seen: string[][] = [[], ["chair_1"], ["chair_2"], ["chair_2"], ["chair_2"], ["chair_2"], [], [], ["chair_3"], ["chair_3", "chair_4"], ["chair_4"], ["chair_5"], ["chair_5"], []];
  const chairs = new Map(["chair_1", "chair_2", "chair_3", "chair_4", "chair_5"].map((name) => [name, { name, category: "chair", room: "k" }]));
  const room = {
    tour: { frames: seen.map((names) => ({ room: "k", objects: names.map((name) => ({ name, category: "chair" })) })) },
    house: { rooms: new Map([["k", { category: "kitchen" }]]), objects: chairs },
  } as unknown as TourSpace;
  const instance = (tag: string, target: string, first: number, last: number): TaggedPlans => ({
    tag, task: "instance", subclass: "instance-room",
    variants: [{ plan: { task: "instance", targetRoom: "k", targetObject: target, window: { first, last } } as unknown as EpisodePlan, facts: {} as never, space: room }],
  });
  for (const seed of [1, 2, 3, 4]) {
    assert.deepEqual(choiceOrder([instance("A", "chair_1", 0, 6), instance("B", "chair_3", 7, 13)], "instance", createRng(seed)).map((x) => x.tag), ["B", "A"], `seed ${seed}`);
  }
});

// Distance plans on the same tour, target t; `candidates` in visit order.
const distance = (first: number, last: number, candidates: string[]) =>
  ({ task: "distance", targetRoom: "t", window: { first, last }, query: { relation: "farthest", candidates, anchor: "start" } }) as unknown as EpisodePlan;
const distanceTag = (tag: string, variants: Array<[number, number, string[]]>): TaggedPlans => ({
  tag, task: "distance", subclass: "distance-farthest", variants: variants.map(([a, b, c]) => ({ plan: distance(a, b, c), facts: {} as never, space })),
});

test("a Distance target's side: in the first half of its candidates in visit order, or not", () => {
  assert.equal(candidateSide(distance(1, 5, ["t", "b"])), "early");
  assert.equal(candidateSide(distance(1, 5, ["b", "t"])), "late");
  // Of three, the second is in the first half (1 < 1.5); of four, the third is not (2 < 2 fails).
  assert.equal(candidateSide(distance(1, 5, ["b", "t", "x"])), "early");
  assert.equal(candidateSide(distance(1, 5, ["b", "x", "t", "y"])), "late");
  assert.equal(candidateSide(plan(1, 5)), "");
});

test("Distance tags take turns by side, and a tag's windows on its side come first", () => {
  // Three early tags and one late one (window 1..5 = k t t b b and 6..12 = k k h h t t k hold t inside).
  const tags = [distanceTag("E1", [[1, 5, ["t", "b"]]]), distanceTag("E2", [[1, 5, ["t", "b"]]]), distanceTag("E3", [[1, 5, ["t", "b"]]]), distanceTag("L1", [[6, 12, ["b", "t"]]])];
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const order = choiceOrder(tags, "distance", createRng(seed)).map((x) => x.tag);
    assert.equal(order.length, 4);
    assert.equal(order.slice(0, 2).filter((tag) => tag === "L1").length, 1, `seed ${seed}: ${order.join(" ")}`);
  }
  // A tag whose first window has the target early and whose second has it late: the early window first, whatever the drawn position.
  const mixed = distanceTag("M", [[1, 5, ["t", "b"]], [6, 12, ["b", "t"]]]);
  const lateFirst = distanceTag("N", [[6, 12, ["b", "t"]], [1, 5, ["t", "b"]]]);
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    assert.deepEqual(variantOrder(mixed, createRng(seed)).map((v) => v.plan.window.first), [1, 6], `seed ${seed}`);
    assert.deepEqual(variantOrder(lateFirst, createRng(seed)).map((v) => v.plan.window.first), [6, 1], `seed ${seed}`);
  }
});
