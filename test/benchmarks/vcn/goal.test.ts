import assert from "node:assert/strict";
import { test } from "node:test";
import {
  chanceLevels,
  classifyFrame,
  planShown,
  readFrameIndex,
  readPrediction,
  readReply,
  scoreAnswer,
  scoreGoal,
  shuffledOrder,
  summarizeGoals,
  toTourIndex,
  type Annotation,
  type GoalTarget,
  type ShownFrames,
  type VcnItem,
} from "../../../src/benchmarks/vcn/index.js";

/**
 * A hand-annotated tour of 8 frames (K kitchen, B and C bedrooms, H hallway, L living room):
 *   0 K  fridge_1              1 K  chair_1, sees B      2 B  bed_1
 *   3 B  chair_2, sees C       4 C  bed_2, chair_3       5 C  -
 *   6 H  -, sees C             7 L  sofa_1, chair_4
 * Target room C: success frames {4, 5}; bedroom frames {2, 3, 4, 5}.
 *   complete = 2/8 = 0.25, category = 2/4 = 0.5.
 * Target object chair_3: success frames {4}; frames with a chair {1, 3, 4, 7}.
 *   complete = 1/8 = 0.125, category = 1/4 = 0.25.
 */
const frame = (index: number, room: string | null, category: string | null, objects: Array<[string, string]>, visible: string[] = []): Annotation => ({
  index,
  room,
  room_category: category,
  objects: objects.map(([id, c]) => ({ id, category: c })),
  visible_rooms: visible,
});

const annotations: Annotation[] = [
  frame(0, "K", "kitchen", [["fridge_1", "fridge"]]),
  frame(1, "K", "kitchen", [["chair_1", "chair"]], ["B"]),
  frame(2, "B", "bedroom", [["bed_1", "bed"]]),
  frame(3, "B", "bedroom", [["chair_2", "chair"]], ["C"]),
  frame(4, "C", "bedroom", [["bed_2", "bed"], ["chair_3", "chair"]]),
  frame(5, "C", "bedroom", []),
  frame(6, "H", "hallway", [], ["C"]),
  frame(7, "L", "living room", [["sofa_1", "sofa"], ["chair_4", "chair"]]),
];

function item(task: VcnItem["task"], target: GoalTarget, id = `hand-${task}`): VcnItem {
  return {
    id,
    rawId: id,
    task,
    cluster: "house",
    scene: "house",
    instruction: "hand-made",
    tour: { source: { dir: "/nowhere" }, spec: { mode: "all" }, display: "/nowhere" },
    annotations,
    target,
    views: { front: "f.png", left: "l.png", back: "b.png", right: "r.png" },
    source: { file: "hand", line: 1 },
  };
}

const roomItem = item("order", { kind: "room", room: "C", category: "bedroom" });
const objectItem = item("instance", { kind: "object", object: "chair_3", category: "chair" });

test("chance levels by hand: complete and category, over the tour and over shown frames", () => {
  assert.deepEqual(chanceLevels(roomItem), { complete: 0.25, category: 0.5, frames: 8, success_frames: 2, category_frames: 4 });
  assert.deepEqual(chanceLevels(objectItem), { complete: 0.125, category: 0.25, frames: 8, success_frames: 1, category_frames: 4 });
  // Shown frames 0, 2, 4, 6: one success (4) of 4 frames; bedrooms shown 2 and 4 -> 1/2.
  assert.deepEqual(chanceLevels(roomItem, [0, 2, 4, 6]), { complete: 0.25, category: 0.5, frames: 4, success_frames: 1, category_frames: 2 });
  // Shown 0, 2, 5, 6: chairs shown none -> category 0; success none.
  assert.deepEqual(chanceLevels(objectItem, [0, 2, 5, 6]), { complete: 0, category: 0, frames: 4, success_frames: 0, category_frames: 0 });
});

test("Rid outcomes and the R2O taxonomy per frame (App. D.1)", () => {
  const expected: Array<[number | null, string | null]> = [
    [4, null], [5, null],
    [3, "position"], // in bedroom B but C is seen through the doorway: position wins over disturbance
    [6, "position"],
    [2, "disturbance"], // in bedroom B, a room of the target's category
    [1, "disturbance"], // in the kitchen, but bedroom B (the distractor) is seen through the door: D.1 files it as disturbance
    [0, "cognition"], [7, "cognition"],
    [8, "out-of-range"], [-1, "out-of-range"], [1e21, "out-of-range"],
    [null, "no-answer"],
  ];
  for (const [f, category] of expected) assert.equal(classifyFrame(roomItem, roomItem.target, f), category, `frame ${f}`);
});

test("a visible room's category: the layout's first, else a frame taken inside it; unknown rooms are no distractor", () => {
  // Frame 0 (kitchen) sees room D, where the camera never goes: D's category is known from the layout only.
  const seesD = [{ ...annotations[0]!, visible_rooms: ["D"] }, ...annotations.slice(1)];
  const withLayout = { ...roomItem, annotations: seesD, layout: { rooms: [{ id: "D", category: "bedroom" }], objects: [] } };
  assert.equal(classifyFrame(withLayout, roomItem.target, 0), "disturbance");
  assert.equal(classifyFrame({ ...roomItem, annotations: seesD }, roomItem.target, 0), "cognition", "D of unknown category");
  const otherKind = { ...withLayout, layout: { rooms: [{ id: "D", category: "bathroom" }], objects: [] } };
  assert.equal(classifyFrame(otherKind, roomItem.target, 0), "cognition");
  // The layout overrides the frames: B listed as a study makes frame 1 (sees B) a cognition error.
  assert.equal(classifyFrame({ ...roomItem, layout: { rooms: [{ id: "B", category: "study" }], objects: [] } }, roomItem.target, 1), "cognition");
});

test("Oid outcomes and the object taxonomy per frame", () => {
  const expected: Array<[number | null, string | null]> = [
    [4, null],
    [1, "instance"], [3, "instance"], [7, "instance"],
    [0, "perception"], [2, "perception"], [5, "perception"], [6, "perception"],
    [9, "out-of-range"],
  ];
  for (const [f, category] of expected) assert.equal(classifyFrame(objectItem, objectItem.target, f), category, `frame ${f}`);
});

test("reading one frame index: JSON, a frame label, an answer label, the first integer that is no frame count; failures recorded", () => {
  const cases: Array<[string, number | null, string?]> = [
    ['{"frame": 12}', 12, "json"],
    ['Sure. {"frame": "7"} is my answer', 7, "json"],
    ['```json\n{"frame_index": 3}\n```', 3, "json"],
    ['{"frame": 2.0}', 2, "json"],
    ["Frame 12", 12, "frame-label"],
    ["I pick frame: 4 because frame 9 is a hallway", 4, "frame-label"],
    ["frame #15.", 15, "frame-label"],
    ["frames 1-5 are kitchens; the answer is 6", 6, "answer-label"],
    ["The answer is 21", 21, "answer-label"],
    ["There are 24 frames; the answer is 7", 7, "answer-label"],
    ["**Answer:** 9", 9, "answer-label"],
    ["My final answer is: #11.", 11, "answer-label"],
    ["I choose 3, not 4", 3, "answer-label"],
    ["answers 5 and 6 both fit; I chose 6", 6, "answer-label"],
    ["the answer is 3.5 or 2", null], // no label (3.5 is a decimal) and the first number is no integer
    ["Of the 40 frames, 17 shows the bedroom", 17, "first-integer"],
    ["1 frame only: 0", 0, "first-integer"],
    ["24 framework 5", 24, "first-integer"],
    ["12 frames", null],
    ["<think>maybe 3, maybe frame 4</think> Frame 5", 5, "frame-label"],
    ["frame_idx 14 view front pixel 100 200 stop false", 14, "first-integer"],
    ["-2", -2, "first-integer"],
    ['{"frame": 2.5}', null],
    ["3.5", null],
    ["no idea", null],
    ["", null],
  ];
  for (const [text, index, rule] of cases) {
    const reading = readFrameIndex(text);
    if (index === null) assert.equal(reading.ok, false, text);
    else assert.deepEqual(reading, { ok: true, index, rule }, text);
  }
});

test("the answer label and the frame-count rule stay linear on 1 MB replies", () => {
  const MB = 1024 * 1024;
  const cases: Array<[string, number | null]> = [
    ["answer is ".repeat(MB / 10) + "7", 7], // every "answer is" but the last is followed by another label word
    ["**answer** ".repeat(MB / 11), null],
    ["choose ".repeat(MB / 7) + ": 3", 3],
    ["24 frames ".repeat(MB / 10) + "5", 5],
    ["answer " + "1.".repeat(MB / 2), null], // "1.1.1...": no label, and the first number is no integer
    ["answer" + " ".repeat(MB) + "9", 9],
  ];
  for (const [text, index] of cases) {
    const started = performance.now();
    const reading = readFrameIndex(text);
    const ms = performance.now() - started;
    assert.ok(ms < 1000, `${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 20))}...`);
    if (index === null) assert.equal(reading.ok, false);
    else assert.deepEqual(reading.ok && reading.index, index);
  }
});

test("scoring an answer: success, error category, chance, unreadable and missing replies", () => {
  const ok = scoreAnswer(roomItem, readReply(roomItem, '{"frame": 5}'));
  assert.equal(ok.success, true);
  assert.equal(ok.error, null);
  assert.deepEqual(ok.chance, { complete: 0.25, category: 0.5 });
  assert.equal(scoreAnswer(roomItem, readReply(roomItem, "Frame 3")).error, "position");
  const unreadable = readReply(roomItem, "the bedroom");
  assert.equal(unreadable.status, "unparseable");
  assert.equal(scoreAnswer(roomItem, unreadable).error, "no-answer");
  const missing = readPrediction(roomItem, undefined);
  assert.equal(missing.status, "missing");
  assert.equal(scoreAnswer(roomItem, missing).success, false);
  const row = new Map<string, import("../../../src/core/pycompat/json.js").PyValue>([["id", "x"], ["frame", 4n]]);
  assert.equal(scoreAnswer(objectItem, readPrediction(objectItem, row)).success, true);
  const reply = new Map<string, import("../../../src/core/pycompat/json.js").PyValue>([["id", "x"], ["response", "Frame 1"]]);
  assert.equal(scoreAnswer(objectItem, readPrediction(objectItem, reply)).error, "instance");
});

test("shuffled frames: a seeded permutation of the shown frames; the reply is a shown position mapped back", () => {
  const plan = planShown(roomItem, "shuffled-frames", 7);
  assert.equal(plan.labels, "shown-position");
  assert.deepEqual([...plan.shown].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(plan.shown, shuffledOrder(roomItem.id, 7, [0, 1, 2, 3, 4, 5, 6, 7]), "same seed, same order");
  assert.notDeepEqual(plan.shown, [0, 1, 2, 3, 4, 5, 6, 7]);
  const position = plan.shown.indexOf(4);
  const info = { ...plan } as unknown as Record<string, unknown>;
  const answer = readReply(roomItem, `{"frame": ${position}}`, info);
  assert.deepEqual(answer.value, { reply_index: position, frame: 4, rule: "json" });
  assert.equal(scoreAnswer(roomItem, answer, info).success, true);
  // The same number read as a tour index (no prompt info) is generally another frame.
  assert.equal(toTourIndex(position, null), position);
  // A position past the shown frames is out of range.
  const beyond = readReply(roomItem, "Frame 8", info);
  assert.equal((beyond.value as { frame: number | null }).frame, null);
  assert.equal(scoreAnswer(roomItem, beyond, info).error, "out-of-range");
  // Explicit permutation, mapped by hand.
  const shown: ShownFrames = { variant: "shuffled-frames", labels: "shown-position", shown: [5, 2, 7], tour_frames: 8, dropped: 5, note: null };
  assert.deepEqual([0, 1, 2, 3].map((k) => toTourIndex(k, shown)), [5, 2, 7, null]);
  const outcome = scoreGoal(roomItem, { reply_index: 1, frame: 2, rule: "json" }, shown);
  assert.equal(outcome.error, "disturbance");
  // Chance over the three shown frames: success {5} of 3; bedrooms {5, 2} -> 1/2.
  assert.deepEqual(outcome.chance_shown, { complete: 1 / 3, category: 0.5 });
});

test("thinning to the image limit keeps the tour-index labels and says how many were dropped", () => {
  const plan = planShown(roomItem, "plain", 0, 4 + 3);
  assert.deepEqual(plan.shown, [0, 4, 7]);
  assert.equal(plan.labels, "tour-index");
  assert.equal(plan.dropped, 5);
  assert.match(plan.note!, /8 frames thinned to 3/);
  assert.throws(() => planShown(roomItem, "plain", 0, 4), /no room for tour frames/);
});

test("aggregation: per-type SR, Rid/Oid averages as mean of types and pooled, chance averaged alike", () => {
  const countItem = item("count", { kind: "room", room: "C", category: "bedroom" }, "c1");
  const orderA = item("order", { kind: "room", room: "C", category: "bedroom" }, "o1");
  const orderB = item("order", { kind: "room", room: "K", category: "kitchen" }, "o2");
  const inst = item("instance", { kind: "object", object: "chair_3", category: "chair" }, "i1");
  const outcome = (it: VcnItem, f: number | null) => ({ item: it, outcome: scoreGoal(it, f === null ? null : { reply_index: f, frame: f, rule: "json" }) });
  const scored = [outcome(countItem, 4), outcome(orderA, 2), outcome(orderB, 0), outcome(inst, 1)];
  const s = summarizeGoals(scored, ["count", "order", "instance"], { resamples: 0, seed: 1 });
  assert.equal(s.tasks["count"]!.SR, 1);
  assert.equal(s.tasks["order"]!.SR, 0.5);
  assert.equal(s.tasks["instance"]!.SR, 0);
  assert.deepEqual(s.success["Rid-SR"], { mean_of_types: 0.75, pooled: 2 / 3, n: 3 });
  assert.deepEqual(s.success["Oid-SR"], { mean_of_types: 0, pooled: 0, n: 1 });
  assert.deepEqual(s.success.average, { mean_of_types: 0.5, pooled: 0.5, n: 4 });
  // Chance (complete): C 0.25, K 2/8 = 0.25, chair_3 0.125. Category: C 0.5, K 2/2 = 1, chair_3 0.25.
  assert.deepEqual(s.chance.complete["Rid-SR"], { mean_of_types: 0.25, pooled: 0.25, n: 3 });
  assert.deepEqual(s.chance.category["Rid-SR"], { mean_of_types: (0.5 + 0.75) / 2, pooled: 2 / 3, n: 3 });
  assert.equal(s.chance.category.average.mean_of_types, (0.5 + 0.75 + 0.25) / 3);
  assert.deepEqual(s.tasks["order"]!.errors, { position: 0, disturbance: 1, cognition: 0, "out-of-range": 0, "no-answer": 0 });
  assert.deepEqual(s.errors.object, { instance: 1, perception: 0, "out-of-range": 0, "no-answer": 0 });
});
