/**
 * Instance instructions (App. B.4; the paper uses VLLN's descriptions, we write our own): an
 * object named by its attributes (colour, and the model's name when it ends in the category, else
 * the category: "white modern armchair") and one relation that makes it unique among the objects
 * seen in the prior video:
 * - to a nearby object: "Find the white chair nearest to the brown sofa." The anchor is seen in
 *   the window, not of the target's category, named uniquely among the seen objects by its
 *   category alone or by its attribute phrase, within 2 m (plan centres) of the target; among the
 *   seen objects with the target's phrase, the target is the nearest to the anchor by at least
 *   0.5 m (the query resolver reads plan centres the same way);
 * - otherwise to its room: "Find the white chair in the kitchen." The room is visited in the window
 *   and no other seen object with the phrase stands in a room of that category.
 * Targets: not set in a wall, their category seen at least twice in the window (distractors).
 */
import { VCN_PARAMS as P } from "./params.js";
import type { HouseFacts, ObjectFact, WindowFacts } from "./facts.js";
import type { EpisodePlan } from "./plan.js";

const planDistance = (a: ObjectFact, b: ObjectFact) => Math.hypot(a.position[0] - b.position[0], a.position[1] - b.position[1]);

/** How a seen object can be named uniquely among the seen ones ("sofa", "brown sofa"), or null. */
export function uniqueName(object: ObjectFact, seen: readonly ObjectFact[]): string | null {
  if (seen.filter((o) => o.category === object.category).length === 1) return object.category;
  if (seen.filter((o) => o.category === object.category && o.phrase === object.phrase).length === 1) return object.phrase;
  return null;
}

export function instancePlans(house: HouseFacts, w: WindowFacts): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  const seen = [...w.seen.keys()].sort().map((n) => house.objects.get(n)!).filter((o) => o !== undefined);
  const visited = new Set(w.rooms);
  for (const target of seen) {
    if (target.inWall || seen.filter((o) => o.category === target.category).length < 2) continue;
    const initialRooms = w.rooms.filter((r) => r !== target.room);
    if (initialRooms.length === 0) continue;
    const alike = seen.filter((o) => o.category === target.category && o.phrase === target.phrase);
    const base = { task: "instance" as const, window: w.window, initialRooms, targetRoom: target.room, targetObject: target.name };
    const anchors = seen
      .filter((a) => !a.inWall && a.category !== target.category && planDistance(a, target) <= P.instanceAnchorMaxM)
      .map((a) => ({ a, name: uniqueName(a, seen), d: planDistance(a, target) }))
      .filter((x) => x.name !== null)
      .sort((x, y) => x.d - y.d || (x.a.name < y.a.name ? -1 : 1));
    const anchor = anchors.find(({ a, d }) => alike.every((o) => o === target || planDistance(o, a) >= d + P.instanceAnchorMarginM));
    if (anchor) {
      plans.push({
        ...base, subclass: "instance-object", tag: `instance|${target.name}|near|${anchor.a.name}`,
        body: `Find the ${target.phrase} {relation} the ${anchor.name}.`,
        query: { relation: "nearest", candidates: alike.map((o) => o.name), anchor: anchor.a.name },
      });
      continue;
    }
    const roomCategory = house.rooms.get(target.room)!.category;
    if (!visited.has(target.room)) continue;
    if (alike.some((o) => o !== target && house.rooms.get(o.room)!.category === roomCategory)) continue;
    plans.push({ ...base, subclass: "instance-room", tag: `instance|${target.name}|in|${roomCategory}`, body: `Find the ${target.phrase} in the ${roomCategory}.` });
  }
  return plans;
}
