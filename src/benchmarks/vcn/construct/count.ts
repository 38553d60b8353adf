/**
 * Count instructions (App. B.4), both subclasses.
 *
 * Distinct rooms ("Proceed to the second bedroom that was visited in the video."): at least two
 * rooms of the category in the window, visited in a clear order: in the sequence of visits to
 * rooms of the category (consecutive repeats merged), every room appears once, so a room may be
 * visited repeatedly before the next one is entered but never after it. The ordinal is first,
 * second, last (three or more rooms) or second-to-last (four or more), whichever names the target.
 * The start may be in any usable room of the window other than the target.
 *
 * Entries ("Go to the room visited immediately after the second entry into the current room in the
 * video."): the initial room is visited at least twice and the window does not begin inside it
 * (so every visit starts with an entry the video shows); the target is the room of the visit right
 * after the k-th visit, and must be usable (App. B.2) — a hallway there rejects that k.
 */
import type { RoomCategories, WindowFacts } from "./facts.js";
import { ORDINAL_WORDS, roomsOfCategory, usableCategories, usableRoom, type EpisodePlan } from "./plan.js";
import type { Relation } from "../relations.js";
import { visitPositions } from "./windows.js";

/** Rooms of a category in the order their visits come, or null when one is revisited after another was entered. */
export function clearOrder(w: WindowFacts, rooms: readonly string[]): string[] | null {
  const merged: string[] = [];
  for (const v of w.visits) {
    if (!rooms.includes(v.room)) continue;
    if (merged[merged.length - 1] !== v.room) merged.push(v.room);
  }
  return new Set(merged).size === merged.length ? merged : null;
}

/** The ordinal relation naming position k (0-based) of n, or null (e.g. the third of five). */
export function ordinalFor(k: number, n: number): Relation | null {
  if (k === 0) return "first";
  if (k === 1) return "second";
  if (k === n - 1 && n >= 3) return "last";
  if (k === n - 2 && n >= 4) return "second-to-last";
  return null;
}

export function countPlans(house: RoomCategories, w: WindowFacts): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  const usable = w.rooms.filter((r) => usableRoom(house, r));
  for (const category of usableCategories(house, w)) {
    const rooms = roomsOfCategory(house, w, category);
    if (rooms.length < 2) continue;
    const order = clearOrder(w, rooms);
    if (!order) continue;
    order.forEach((target, k) => {
      const relation = ordinalFor(k, order.length);
      if (!relation) return;
      const initialRooms = usable.filter((r) => r !== target);
      if (initialRooms.length === 0) return;
      plans.push({
        task: "count", subclass: "count-rooms", tag: `count|rooms|${category}|${relation}|${target}`,
        window: w.window, initialRooms, targetRoom: target,
        body: `Proceed to the {relation} ${category} that was visited in the video.`,
        query: { relation, candidates: order },
      });
    });
  }
  const opening = w.visits[0]?.room;
  for (const initial of usable) {
    if (initial === opening) continue;
    const at = visitPositions(w.visits, initial);
    if (at.length < 2) continue;
    at.forEach((position, k) => {
      const next = w.visits[position + 1];
      if (!next || !usableRoom(house, next.room) || k >= ORDINAL_WORDS.length) return;
      plans.push({
        task: "count", subclass: "count-entries", tag: `count|entries|${initial}|${k + 1}|${next.room}`,
        window: w.window, initialRooms: [initial], targetRoom: next.room,
        body: `Go to the room visited immediately after the ${ORDINAL_WORDS[k]} entry into the current room in the video.`,
      });
    });
  }
  return plans;
}
