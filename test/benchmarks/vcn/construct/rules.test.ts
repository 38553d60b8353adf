/**
 * The App. B.4 rules on hand-built tours with known answers: rooms laid out by hand, visit
 * sequences written frame by frame, and the expected targets worked out from the paper's rules.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { countPlans, clearOrder } from "../../../../src/benchmarks/vcn/construct/count.js";
import { decisiveExtreme, distancePlans, type StartProbe } from "../../../../src/benchmarks/vcn/construct/distance.js";
import { windowFacts, type HouseFacts, type ObjectFact, type RoomFact } from "../../../../src/benchmarks/vcn/construct/facts.js";
import { instancePlans } from "../../../../src/benchmarks/vcn/construct/instance.js";
import { orderPlans } from "../../../../src/benchmarks/vcn/construct/order.js";
import { extremeRooms, orientationPlans } from "../../../../src/benchmarks/vcn/construct/orientation.js";
import type { TourFrame } from "../../../../src/benchmarks/vcn/construct/tour-types.js";
import { priorWindows, windowStarts, windowVisits } from "../../../../src/benchmarks/vcn/construct/windows.js";

function room(id: string, category: string, minX: number, minY: number, maxX: number, maxY: number): RoomFact {
  return { id, category, box: { minX, minY, maxX, maxY }, centre: [(minX + maxX) / 2, (minY + maxY) / 2], area: (maxX - minX) * (maxY - minY) };
}

function houseOf(rooms: RoomFact[], objects: ObjectFact[] = []): HouseFacts {
  return { rooms: new Map(rooms.map((r) => [r.id, r])), objects: new Map(objects.map((o) => [o.name, o])) };
}

/** Frames from a compact script: "A:3 B:2 -:1 A:1" = 3 frames in A, 2 in B, one with no room, 1 in A. */
function framesOf(script: string, seen: Record<number, string[]> = {}): TourFrame[] {
  const frames: TourFrame[] = [];
  for (const part of script.split(" ")) {
    const m = /^(-|[A-Za-z0-9]+):(\d+)$/.exec(part)!;
    for (let k = 0; k < Number(m[2]); k++) {
      const index = frames.length;
      frames.push({ index, position: [0, 0, 1.4], yaw: 0, pitch: 0, room: m[1] === "-" ? null : m[1]!, visibleRooms: [], objects: (seen[index] ?? []).map((name) => ({ instance: 1, name, category: name.replace(/_\d+$/, ""), distance: 1, unoccluded: 1, pixels: 3000 })) });
    }
  }
  return frames;
}

const whole = (frames: TourFrame[]) => windowFacts(frames, { first: 0, last: frames.length - 1 });

// A row of rooms along x: K kitchen, B1 and B2 bedrooms, T bathroom, L living room, H hallway.
const ROW = [room("K", "kitchen", 0, 0, 4, 4), room("B1", "bedroom", 4, 0, 8, 4), room("T", "bathroom", 8, 0, 12, 4), room("B2", "bedroom", 12, 0, 16, 4), room("L", "living room", 16, 0, 20, 4), room("H", "hallway", 0, 4, 20, 6)];

test("windows start where the region changes and grow in steps of 10 frames (App. B.1)", () => {
  const frames = framesOf("K:12 -:2 B:13 T:5");
  assert.deepEqual(windowStarts(frames), [0, 14, 27]);
  assert.deepEqual(priorWindows(frames, 10, 10), [{ first: 0, last: 9 }, { first: 0, last: 19 }, { first: 0, last: 29 }, { first: 14, last: 23 }]);
  // A frame with no room neither ends nor starts a visit.
  assert.deepEqual(windowVisits(framesOf("K:2 -:1 K:2 B:1"), { first: 0, last: 5 }), [{ room: "K", first: 0, last: 4 }, { room: "B", first: 5, last: 5 }]);
});

test("Order, rooms of different types: bathroom before the once-visited kitchen, living room only after it", () => {
  const house = houseOf(ROW);
  const w = whole(framesOf("T:3 H:1 T:2 K:4 L:3"));
  const typed = orderPlans(house, w).filter((p) => p.subclass === "order-types" && p.initialRooms[0] === "K");
  assert.deepEqual(typed.map((p) => [p.query!.relation, p.targetRoom, p.body]), [
    ["before", "T", "Go to the room that was visited {relation} arriving at the current room in the video: bathroom, living room."],
    ["after", "L", "Go to the room that was visited {relation} arriving at the current room in the video: bathroom, living room."],
  ]);
  // The bathroom revisited after the kitchen: no "before" target any more (rule 4), and no "after" (the bathroom is on both sides).
  const revisit = orderPlans(house, whole(framesOf("T:3 K:4 T:2 L:3"))).filter((p) => p.subclass === "order-types" && p.initialRooms[0] === "K");
  assert.deepEqual(revisit.map((p) => p.targetRoom), []);
});

test("Order, same type: the one bedroom after the initial room, or none when two follow it", () => {
  const house = houseOf(ROW);
  const ok = orderPlans(house, whole(framesOf("B1:2 K:3 B2:2"))).filter((p) => p.subclass === "order-same-type");
  assert.deepEqual(ok.map((p) => [p.initialRooms[0], p.query!.relation, p.targetRoom]), [["K", "before", "B1"], ["K", "after", "B2"]]);
  // B1 comes back after the kitchen: two bedrooms after K, and B1 is on both sides -> no plan anchored on K.
  const ambiguous = orderPlans(house, whole(framesOf("B1:1 K:3 B2:1 B1:1"))).filter((p) => p.subclass === "order-same-type" && p.initialRooms[0] === "K");
  assert.deepEqual(ambiguous, []);
  // The kitchen visited twice: it cannot be the anchor (rule: the initial room is visited once).
  assert.deepEqual(orderPlans(house, whole(framesOf("B1:1 K:3 B2:1 K:1"))).filter((p) => p.initialRooms[0] === "K"), []);
});

test("Count, distinct rooms: 'second bedroom' is unambiguous for B1 B1 B2, rejected for B1 B2 B1", () => {
  const house = houseOf(ROW);
  const w = whole(framesOf("B1:1 K:1 B1:1 T:2 B2:1 L:1"));
  assert.deepEqual(clearOrder(w, ["B1", "B2"]), ["B1", "B2"]);
  const plans = countPlans(house, w).filter((p) => p.subclass === "count-rooms");
  assert.deepEqual(plans.map((p) => [p.query!.relation, p.targetRoom, p.initialRooms]), [["first", "B1", ["K", "T", "B2", "L"]], ["second", "B2", ["B1", "K", "T", "L"]]]);
  const revisited = whole(framesOf("B1:1 K:1 B2:1 T:2 B1:1"));
  assert.equal(clearOrder(revisited, ["B1", "B2"]), null);
  assert.deepEqual(countPlans(house, revisited).filter((p) => p.subclass === "count-rooms"), []);
});

test("Count, entries: the room after the k-th entry into the initial room; a hallway there is rejected", () => {
  const house = houseOf(ROW);
  const plans = countPlans(house, whole(framesOf("L:2 K:2 T:2 K:1 B1:1 K:1 H:1"))).filter((p) => p.subclass === "count-entries");
  assert.deepEqual(plans.map((p) => [p.initialRooms[0], p.targetRoom, p.body]), [
    ["K", "T", "Go to the room visited immediately after the first entry into the current room in the video."],
    ["K", "B1", "Go to the room visited immediately after the second entry into the current room in the video."],
  ]);
  // The window opens inside K: its first visit is no entry the video shows, so K is not used.
  assert.deepEqual(countPlans(house, whole(framesOf("K:2 T:2 K:1 B1:1"))).filter((p) => p.subclass === "count-entries"), []);
});

test("Distance: the farthest bedroom must beat the other by 5 m of geodesic distance", () => {
  const house = houseOf(ROW);
  const w = whole(framesOf("K:3 B1:1 T:1 B2:1 L:1"));
  const probe = (distances: Record<string, number>): StartProbe => ({ frame: 1, position: [2, 2], roomDistance: (r) => distances[r] ?? Infinity });
  // Straight-line centres from (2, 2): B1 (6, 2) at 4 m, B2 (14, 2) at 12 m.
  const far = distancePlans(house, w, (_w, r) => (r === "K" ? probe({ B1: 4.2, B2: 12.5 }) : null));
  assert.deepEqual(far.map((p) => [p.query!.relation, p.targetRoom]), [["farthest", "B2"], ["nearest", "B1"]]);
  const close = distancePlans(house, w, (_w, r) => (r === "K" ? probe({ B1: 8, B2: 12.9 }) : null));
  assert.deepEqual(close, []);
  assert.equal(decisiveExtreme([["a", 1], ["b", 6]], "max", 5), "b");
  assert.equal(decisiveExtreme([["a", 1], ["b", 5.99]], "max", 5), null);
});

test("Orientation: extreme rooms by the 5 m band and the centre rule; corner rooms are excluded", () => {
  // Two rows: south row S1 (bedroom) S2 (kitchen) S3 (bedroom); north row N1 (living) N2 (bedroom) N3 (bathroom).
  const rooms = [room("S1", "bedroom", 0, 0, 4, 4), room("S2", "kitchen", 4, 0, 8, 4), room("S3", "bathroom", 8, 0, 12, 4), room("N1", "living room", 0, 4, 4, 8), room("N2", "bedroom", 4, 4, 8, 8), room("N3", "office", 8, 4, 12, 8)];
  assert.deepEqual(extremeRooms(rooms, "south"), ["S1", "S2", "S3"]);
  assert.deepEqual(extremeRooms(rooms, "east"), ["S3", "N3"]);
  const house = houseOf(rooms);
  const plans = orientationPlans(house, whole(framesOf("S1:1 S2:1 S3:1 N3:1 N2:1 N1:1")));
  // Bedrooms S1 and N2: northernmost is N2 only (not a corner: not east- or westernmost); southernmost is S1 only, but S1 is the south-west corner.
  assert.deepEqual(plans.map((p) => [p.subclass, p.targetRoom, p.body]), [["orientation-north", "N2", "Go to the northernmost bedroom that was visited in the video."]]);
  // The band: a room whose extent falls 5 m or more short of the extreme is no candidate.
  assert.deepEqual(extremeRooms([room("A", "bedroom", 0, 0, 2, 2), room("B", "bedroom", 10, 0, 17, 2)], "east"), ["B"]);
});

test("Instance: a seen object named by colour and its nearest unique anchor, or by its room", () => {
  const obj = (name: string, category: string, roomId: string, x: number, y: number, colour = "white"): ObjectFact => ({ name, category, room: roomId, position: [x, y], colour, phrase: `${colour} ${category}`, inWall: false });
  const objects = [obj("chair_1", "chair", "K", 1, 1), obj("chair_2", "chair", "K", 3.5, 3), obj("sofa_1", "sofa", "K", 1.5, 1, "brown"), obj("chair_3", "chair", "T", 9, 1, "red")];
  const house = houseOf(ROW, objects);
  const frames = framesOf("K:4 T:2", { 0: ["chair_1", "sofa_1"], 1: ["chair_2"], 4: ["chair_3"] });
  const plans = instancePlans(house, whole(frames));
  assert.deepEqual(plans.map((p) => [p.targetObject, p.subclass, p.body, p.query?.candidates ?? null]), [
    ["chair_1", "instance-object", "Find the white chair {relation} the sofa.", ["chair_1", "chair_2"]],
    ["chair_3", "instance-room", "Find the red chair in the bathroom.", null],
  ]);
});
