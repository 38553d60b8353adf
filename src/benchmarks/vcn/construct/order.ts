/**
 * Order instructions (App. B.4), both subclasses. The anchor is the initial room I, which the
 * prior video visits exactly once.
 *
 * Types ("Go to the room that was visited before arriving at the current room in the video:
 * bathroom, living room."): two listed rooms of different, window-unique categories; for
 * "before" the target is visited (possibly several times) before I and never after it, and the
 * other listed room only after I; "after" mirrors it.
 *
 * Same type ("Go to the bedroom that was visited after reaching the current room in the video."):
 * at least two rooms of the category in the window; for "after" the target is the only room of
 * the category visited after I and is not visited before I (so its first appearance follows I's,
 * as the relation's resolver reads it); the other rooms of the category are visited only before
 * I. "before" mirrors it. The category differs from I's.
 */
import type { RoomCategories, WindowFacts } from "./facts.js";
import { roomsOfCategory, usableRoom, type EpisodePlan } from "./plan.js";
import { visitPositions } from "./windows.js";

type Side = { before: boolean; after: boolean };

/** Whether a room is visited before and/or after the single visit at position `anchor`. */
function sideOf(w: WindowFacts, room: string, anchor: number): Side {
  const at = visitPositions(w.visits, room);
  return { before: at.some((k) => k < anchor), after: at.some((k) => k > anchor) };
}

/** Initial rooms the Order rules can anchor on: usable, visited exactly once in the window. */
function onceVisited(house: RoomCategories, w: WindowFacts): Array<{ room: string; at: number }> {
  return w.rooms.filter((r) => usableRoom(house, r)).flatMap((room) => {
    const at = visitPositions(w.visits, room);
    return at.length === 1 ? [{ room, at: at[0]! }] : [];
  });
}

export function orderPlans(house: RoomCategories, w: WindowFacts): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  const cat = (r: string) => house.rooms.get(r)!.category;
  for (const { room: initial, at } of onceVisited(house, w)) {
    // Subclass 1: rooms of different types, each the only room of its category in the window.
    const unique = w.rooms.filter((r) => r !== initial && usableRoom(house, r) && roomsOfCategory(house, w, cat(r)).length === 1);
    const beforeOnly = unique.filter((r) => { const s = sideOf(w, r, at); return s.before && !s.after; });
    const afterOnly = unique.filter((r) => { const s = sideOf(w, r, at); return s.after && !s.before; });
    for (const relation of ["before", "after"] as const) {
      const targets = relation === "before" ? beforeOnly : afterOnly;
      const others = relation === "before" ? afterOnly : beforeOnly;
      for (const target of targets) {
        for (const other of others) {
          const listed = [target, other].sort((a, b) => (cat(a) < cat(b) ? -1 : 1));
          plans.push({
            task: "order", subclass: "order-types", tag: `order|types|${relation}|${initial}|${target}|${other}`,
            window: w.window, initialRooms: [initial], targetRoom: target,
            body: `Go to the room that was visited {relation} arriving at the current room in the video: ${listed.map(cat).join(", ")}.`,
            query: { relation, candidates: listed, anchor: initial },
          });
        }
      }
    }
    // Subclass 2: several rooms of one category (not I's), told apart by their order against I.
    const categories = [...new Set(w.rooms.filter((r) => usableRoom(house, r)).map(cat))].filter((c) => c !== cat(initial)).sort();
    for (const category of categories) {
      const rooms = roomsOfCategory(house, w, category);
      if (rooms.length < 2) continue;
      const sides = new Map(rooms.map((r) => [r, sideOf(w, r, at)]));
      for (const relation of ["before", "after"] as const) {
        const on = (s: Side) => (relation === "before" ? s.before : s.after);
        const off = (s: Side) => (relation === "before" ? s.after : s.before);
        const onSide = rooms.filter((r) => on(sides.get(r)!));
        if (onSide.length !== 1) continue;
        const target = onSide[0]!;
        if (off(sides.get(target)!)) continue;
        plans.push({
          task: "order", subclass: "order-same-type", tag: `order|same|${relation}|${initial}|${target}`,
          window: w.window, initialRooms: [initial], targetRoom: target,
          body: `Go to the ${category} that was visited {relation} reaching the current room in the video.`,
          query: { relation, candidates: rooms, anchor: initial },
        });
      }
    }
  }
  return plans;
}
