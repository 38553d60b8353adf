import assert from "node:assert/strict";
import { test } from "node:test";
import {
  counterfactualOf,
  deriveCounterfactuals,
  fillRelation,
  OPPOSITE,
  RELATIONS,
  resolveQuery,
  scoreGoal,
  type Annotation,
  type Layout,
  type Query,
  type Relation,
  type VcnItem,
} from "../../../src/benchmarks/vcn/index.js";

/**
 * A hand-made house (plan coordinates [east, north]):
 *
 *   L living  [2,6]   O office  [6,6]   D bedroom [10,6]
 *   K kitchen [2,2]   B bedroom [6,2]   C bedroom [10,2]
 *
 * Tour (camera room per frame): 0 K, 1 K, 2 B, 3 B, 4 L, 5 C, 6 C, 7 O, 8 D, 9 D.
 * First entries: K 0, B 2, L 4, C 5, O 7, D 8. Chairs: chair_1 seen at 1, chair_2 at 3, chair_3 at 6.
 * Chairs per room (layout): K 1, B 2, L 3.
 */
const rooms: Array<[string, string, [number, number]]> = [
  ["K", "kitchen", [2, 2]], ["B", "bedroom", [6, 2]], ["C", "bedroom", [10, 2]],
  ["L", "living room", [2, 6]], ["O", "office", [6, 6]], ["D", "bedroom", [10, 6]],
];
const categoryOf = Object.fromEntries(rooms.map(([id, c]) => [id, c]));
const tourRooms = ["K", "K", "B", "B", "L", "C", "C", "O", "D", "D"];
const seenAt: Record<number, Array<[string, string]>> = { 1: [["chair_1", "chair"]], 3: [["chair_2", "chair"]], 6: [["chair_3", "chair"]], 7: [["sofa_1", "sofa"]] };
const annotations: Annotation[] = tourRooms.map((room, index) => ({
  index,
  room,
  room_category: categoryOf[room]!,
  objects: (seenAt[index] ?? []).map(([id, category]) => ({ id, category })),
  visible_rooms: [],
}));
const chair = (id: string, room: string, position: [number, number]) => ({ id, category: "chair", room, position });
const layout: Layout = {
  rooms: rooms.map(([id, category, center]) => ({ id, category, center })),
  objects: [
    chair("chair_1", "K", [1, 1]),
    chair("chair_2", "B", [5, 1]), chair("chair_5", "B", [7, 3]),
    chair("chair_3", "L", [1, 7]), chair("chair_6", "L", [3, 7]), chair("chair_7", "L", [3, 5]),
    { id: "sofa_1", category: "sofa", room: "O", position: [6.5, 6.5] },
  ],
  start: { position: [6, 2.5], facing: [0, 1] },
};
const world = { annotations, layout };

function item(query: Query, kind: "room" | "object" = "room"): VcnItem {
  const resolved = resolveQuery(query, world);
  assert.ok(resolved.ok, `the original query resolves: ${JSON.stringify(resolved)}`);
  const target = resolved.target;
  return {
    id: `q-${query.relation}`,
    rawId: `q-${query.relation}`,
    task: kind === "room" ? "order" : "instance",
    cluster: "h",
    scene: "h",
    instruction: fillRelation(query.template!, query.relation),
    tour: { source: { dir: "/nowhere" }, spec: { mode: "all" }, display: "" },
    annotations,
    target: kind === "room" ? { kind: "room", room: target, category: categoryOf[target]! } : { kind: "object", object: target, category: "chair" },
    views: { front: "", left: "", back: "", right: "" },
    layout,
    query,
    source: { file: "hand", line: 1 },
  };
}

/** The swapped query's target (by hand in each case below), and the re-filled instruction. */
function swap(query: Query, kind: "room" | "object" = "room") {
  const result = counterfactualOf(item(query, kind));
  return result.ok ? { target: result.item.target.kind === "room" ? result.item.target.room : result.item.target.object, instruction: result.item.instruction, item: result.item } : { reason: result.reason };
}

test("the swap table is an involution over every relation", () => {
  for (const r of RELATIONS) assert.equal(OPPOSITE[OPPOSITE[r]], r);
  assert.equal(OPPOSITE.first, "last");
  assert.equal(OPPOSITE.second, "second-to-last");
  assert.equal(OPPOSITE.north, "south");
  assert.equal(OPPOSITE.east, "west");
  assert.equal(OPPOSITE.left, "right");
  assert.equal(OPPOSITE.before, "after");
  assert.equal(OPPOSITE.nearest, "farthest");
  assert.equal(OPPOSITE.most, "fewest");
});

test("ordinal: bedrooms B (entered at 2), C (5), D (8)", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["B", "C", "D"], template: "Go to the {relation} bedroom you entered." });
  assert.deepEqual(swap(q("first")), { ...swap(q("first")), target: "D", instruction: "Go to the last bedroom you entered." });
  assert.equal(swap(q("last")).target, "B");
  // With three candidates the second and the second-to-last are both C: the target does not change.
  const second = swap(q("second"));
  assert.equal(second.target, "C");
  assert.equal(second.instruction, "Go to the second-to-last bedroom you entered.");
  // Four candidates (K, B, C, D): second B, second-to-last C.
  const four = (relation: Relation): Query => ({ relation, candidates: ["K", "B", "C", "D"], template: "Go to the {relation} room." });
  assert.equal(swap(four("second")).target, "C");
  assert.equal(swap(four("second-to-last")).target, "B");
});

test("ordinal over object sightings (Instance): chair_1 seen at 1, chair_2 at 3, chair_3 at 6", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["chair_1", "chair_2", "chair_3"], template: "Go to the chair you saw {relation}." });
  assert.equal(swap(q("first"), "object").target, "chair_3");
  assert.equal(swap(q("last"), "object").target, "chair_1");
});

test("temporal: around the living room (first entered at 4), before is B (2), after is C (5)", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["K", "B", "C", "O", "D"], anchor: "L", template: "Go to the room entered right {relation} the living room." });
  const before = swap(q("before"));
  assert.equal(before.target, "C");
  assert.equal(before.instruction, "Go to the room entered right after the living room.");
  assert.equal(swap(q("after")).target, "B");
  // Before the kitchen (entered first) there is nothing: no counterfactual for "after the kitchen".
  const afterKitchen: Query = { relation: "after", candidates: ["B", "C"], anchor: "K", template: "Go to the bedroom right {relation} the kitchen." };
  assert.match(swap(afterKitchen).reason!, /names no target/);
});

test("distance: bedrooms from the kitchen [2,2]: B 4 m, C 8 m, D √80 m", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["B", "C", "D"], anchor: "K", template: "Go to the bedroom {relation} the kitchen." });
  const nearest = swap(q("nearest"));
  assert.equal(nearest.target, "D");
  assert.equal(nearest.instruction, "Go to the bedroom farthest from the kitchen.");
  assert.equal(swap(q("farthest")).target, "B");
  // Object anchors: chairs from the sofa [6.5,6.5]: chair_7 [3,5] is nearest (√14.5), chair_1 [1,1] farthest (√60.5).
  const objects = (relation: Relation): Query => ({ relation, candidates: ["chair_1", "chair_2", "chair_3", "chair_7"], anchor: "sofa_1", template: "Go to the chair {relation} the sofa." });
  assert.equal(resolveQuery(objects("nearest"), world).ok && (resolveQuery(objects("nearest"), world) as { target: string }).target, "chair_7");
  assert.equal((resolveQuery(objects("farthest"), world) as { target: string }).target, "chair_1");
});

test("compass from the office [6,6]: south is B, east D, west L; north has none; diagonals (exactly 45°) do not count", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["K", "B", "C", "L", "D"], anchor: "O", template: "Go to the room {relation} of the office." });
  assert.equal(swap(q("east")).target, "L");
  assert.equal(swap(q("west")).target, "D");
  assert.equal(resolveQuery(q("south"), world).ok && (resolveQuery(q("south"), world) as { target: string }).target, "B");
  assert.match(swap(q("south")).reason!, /within 45° of the north direction/);
});

test("egocentric from the start [6,2.5] facing north: left is K (west), right is C (east)", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["K", "C", "L", "O", "D"], template: "Go to the room on your {relation}." });
  const left = swap(q("left"));
  assert.equal(left.target, "C");
  assert.equal(left.instruction, "Go to the room on your right.");
  assert.equal(swap(q("right")).target, "K");
  // Facing east instead: left is north (O), right is south (none in the candidates).
  const east = { annotations, layout: { ...layout, start: { position: [6, 2.5] as [number, number], facing: [1, 0] as [number, number] } } };
  assert.equal((resolveQuery(q("left"), east) as { target: string }).target, "O");
  assert.equal(resolveQuery(q("right"), east).ok, false);
});

test("count: chairs per room K 1, B 2, L 3; most is L, fewest K; ties are ambiguous", () => {
  const q = (relation: Relation): Query => ({ relation, candidates: ["K", "B", "L"], counted_category: "chair", template: "Go to the room with the {relation} chairs." });
  assert.equal(swap(q("most")).target, "K");
  assert.equal(swap(q("fewest")).target, "L");
  const tie: Query = { relation: "most", candidates: ["K", "C"], counted_category: "chair", template: "x {relation}" };
  // K has 1 chair, C has 0: fewest is C; most is K.
  assert.equal((resolveQuery(tie, world) as { target: string }).target, "K");
  assert.match(JSON.stringify(resolveQuery({ ...tie, candidates: ["C", "O"] }, world)), /ambiguous/);
});

test("deriving a set: items without structure are skipped and counted; the scorer checks the recomputed target", () => {
  const withStructure = item({ relation: "first", candidates: ["B", "C", "D"], template: "Go to the {relation} bedroom." });
  const noTemplate = { ...withStructure, id: "no-template", query: { relation: "first" as const, candidates: ["B", "C", "D"] } };
  const noQuery: VcnItem = { ...withStructure, id: "no-query" };
  delete noQuery.query;
  const set = deriveCounterfactuals([withStructure, noTemplate, noQuery]);
  assert.equal(set.items.length, 1);
  assert.deepEqual(set.skipped.map((s) => s.reason), ["no instruction template", "no query structure"]);
  const cf = set.items[0]!;
  assert.equal(cf.id, "q-first~cf");
  assert.deepEqual(cf.derivation && { skipped: cf.derivation.skipped, total: cf.derivation.total, of: cf.derivation.of }, { skipped: 2, total: 3, of: "q-first" });
  // Frame 8 is in D (the new target); frame 2 is in B (the original target).
  const right = scoreGoal(cf, { reply_index: 8, frame: 8, rule: "json" });
  assert.equal(right.success, true);
  assert.deepEqual(right.counterfactual, { original_target: "B", chose_original: false, target_changed: true });
  const stale = scoreGoal(cf, { reply_index: 2, frame: 2, rule: "json" });
  assert.equal(stale.success, false);
  assert.equal(stale.error, "disturbance");
  assert.equal(stale.counterfactual!.chose_original, true);
});
