/**
 * Goal-identification questions for one synthetic house, every one with its structure (relation,
 * anchor, candidates, template) so the target follows from the annotations and the layout, and a
 * counterfactual can be recomputed. Relations are chosen so that the swapped relation also names
 * a target where the house allows it.
 */
import type { Rng } from "../../../stats/rng.js";
import { OPPOSITE, fillRelation, resolveQuery, type Relation } from "../relations.js";
import type { Annotation, Layout, Query, TaskCode } from "../schema.js";
import { round, type House, type P2 } from "./house.js";
import type { Pose } from "./tour.js";

export interface PlannedItem {
  key: string;
  task: TaskCode;
  instruction: string;
  target: { room: string } | { object: string };
  query?: Query;
  start: Pose;
  /** The swapped relation names a target too (a counterfactual exists). */
  swappable: boolean;
}

const plural = (c: string) => (c === "bench" ? "benches" : `${c}s`);
const article = (c: string) => (/^[aeiou]/.test(c) ? "an" : "a");
const FACINGS: P2[] = [[1, 0], [0, 1], [-1, 0], [0, -1]];

export function layoutOf(house: House, start?: Pose): Layout {
  return {
    rooms: house.rooms.map((r) => ({ id: r.id, category: r.category, center: r.center })),
    objects: house.objects.map((o) => ({ id: o.id, category: o.category, room: o.room, position: o.position })),
    ...(start ? { start: { position: start.position, facing: [round(Math.cos(start.heading), 6), round(Math.sin(start.heading), 6)] as P2 } } : {}),
  };
}

/** A random start pose: inside a room, away from walls and objects, facing along an axis. */
export function randomStart(house: House, rng: Rng): Pose {
  for (;;) {
    const room = rng.pick(house.rooms);
    const p: P2 = [round(rng.float(room.x0 + 0.7, room.x1 - 0.7), 2), round(rng.float(room.y0 + 0.7, room.y1 - 0.7), 2)];
    if (house.objects.some((o) => Math.hypot(o.position[0] - p[0], o.position[1] - p[1]) < 0.7)) continue;
    const facing = rng.pick(FACINGS);
    return { position: p, heading: Math.atan2(facing[1], facing[0]) };
  }
}

interface Choice {
  query: Query;
  target: string;
  /** The swapped relation names a target too. */
  swappable: boolean;
}

/** Try the relations (in the order given); prefer one whose opposite also resolves, then an unused target. */
function choose(base: Omit<Query, "relation">, relations: Relation[], annotations: Annotation[], layout: Layout, reached: (id: string) => boolean, used: Set<string>): Choice | null {
  let found: Choice | null = null;
  let score = -1;
  for (const relation of relations) {
    const query = { ...base, relation };
    const here = resolveQuery(query, { annotations, layout });
    if (!here.ok || !reached(here.target)) continue;
    const there = resolveQuery({ ...query, relation: OPPOSITE[relation] }, { annotations, layout });
    const choice = { query, target: here.target, swappable: there.ok && reached(there.target) };
    const value = (choice.swappable ? 2 : 0) + (used.has(here.target) ? 0 : 1);
    if (value > score) {
      found = choice;
      score = value;
    }
  }
  return found;
}

function finish(key: string, task: TaskCode, choice: Choice | null, kind: "room" | "object", start: Pose): PlannedItem | null {
  if (!choice) return null;
  return {
    key,
    task,
    instruction: fillRelation(choice.query.template!, choice.query.relation),
    target: kind === "room" ? { room: choice.target } : { object: choice.target },
    query: choice.query,
    start,
    swappable: choice.swappable,
  };
}

/**
 * The best of some plans: one whose relation can be swapped and whose target no earlier question
 * of the house has, else the first swappable one, else the first unused target, else the first.
 */
function best(plans: Iterable<() => PlannedItem | null>, used: Set<string>): PlannedItem | null {
  let found: PlannedItem | null = null;
  let score = -1;
  for (const plan of plans) {
    const item = plan();
    if (!item) continue;
    const target = "room" in item.target ? item.target.room : item.target.object;
    const value = (item.swappable ? 2 : 0) + (used.has(target) ? 0 : 1);
    if (value > score) {
      found = item;
      score = value;
    }
    if (score === 3) break;
  }
  if (found) used.add("room" in found.target ? found.target.room : found.target.object);
  return found;
}

/** Questions for one house: count, two order, distance, orientation, instance (+ one plain instance question when `plain`). */
export function planItems(house: House, annotations: Annotation[], rng: Rng, options: { houseIndex: number; plain: boolean }): PlannedItem[] | null {
  const visible = new Set(annotations.flatMap((a) => a.objects.map((o) => o.id)));
  const roomsVisited = new Set(annotations.map((a) => a.room).filter((r): r is string => r !== null));
  const reachedRoom = (id: string) => roomsVisited.has(id);
  const reachedObject = (id: string) => visible.has(id);
  const layout = layoutOf(house);
  const categoryCount = (c: string) => house.rooms.filter((r) => r.category === c).length;
  const objectCount = (c: string) => house.objects.filter((o) => o.category === c).length;
  const items: PlannedItem[] = [];
  const used = new Set<string>();
  const start = () => randomStart(house, rng);
  const shuffled = <T>(xs: T[]) => rng.shuffle(xs);

  // Count: rooms holding a category of object; the one with the most / fewest.
  const count = best(shuffled([...new Set(house.objects.map((o) => o.category))]).map((c) => () => {
    const rooms = house.rooms.filter((r) => house.objects.some((o) => o.room === r.id && o.category === c)).map((r) => r.id);
    if (rooms.length < 2) return null;
    const template = `Among the rooms that have ${article(c)} ${c}, go to the one with the {relation} ${plural(c)}.`;
    return finish("count", "count", choose({ candidates: rooms, counted_category: c, template }, shuffled<Relation>(["most", "fewest"]), annotations, layout, reachedRoom, used), "room", start());
  }), used);
  if (!count) return null;
  items.push(count);

  // Order (ordinal): the first / second / second-to-last / last room of a repeated category.
  const repeated = shuffled([...new Set(house.rooms.map((r) => r.category))].filter((c) => categoryCount(c) >= 2));
  const category = repeated[0];
  if (!category) return null;
  const sameCategory = house.rooms.filter((r) => r.category === category).map((r) => r.id);
  const ordinalPairs: Relation[][] = sameCategory.length >= 3 ? [["first", "last"], ["second", "second-to-last"]] : [["first", "last"]];
  const ordinal = best(shuffled(ordinalPairs).map((pair) => () =>
    finish(
      "order-ordinal",
      "order",
      choose({ candidates: sameCategory, template: `Go to the {relation} ${category} you walked into during the tour.` }, shuffled(pair), annotations, layout, reachedRoom, used),
      "room",
      start(),
    )), used);
  if (!ordinal) return null;
  items.push(ordinal);

  // Order (temporal): the room entered right before / after a unique room was first entered.
  const unique = shuffled(house.rooms.filter((r) => categoryCount(r.category) === 1));
  const temporal = best(unique.map((anchor) => () => {
    const candidates = house.rooms.filter((r) => r.id !== anchor.id).map((r) => r.id);
    return finish(
      "order-temporal",
      "order",
      choose({ candidates, anchor: anchor.id, template: `Go to the room you entered right {relation} you first entered the ${anchor.category}.` }, shuffled<Relation>(["before", "after"]), annotations, layout, reachedRoom, used),
      "room",
      start(),
    );
  }), used);
  if (!temporal) return null;
  items.push(temporal);

  // Distance: the room of the repeated category nearest to / farthest from a one-of-a-kind object.
  const distance = best(shuffled(house.objects.filter((o) => objectCount(o.category) === 1 && !sameCategory.includes(o.room))).map((anchor) => () =>
    finish(
      "distance",
      "distance",
      choose({ candidates: sameCategory, anchor: anchor.id, template: `Go to the ${category} {relation} the ${anchor.category}.` }, shuffled<Relation>(["nearest", "farthest"]), annotations, layout, reachedRoom, used),
      "room",
      start(),
    )), used);
  if (!distance) return null;
  items.push(distance);

  // Orientation: compass from a one-of-a-kind room (even houses), or left / right from the start (odd houses).
  const orientation = options.houseIndex % 2 === 0
    ? best(unique.map((anchor) => () => {
        const candidates = house.rooms.filter((r) => r.id !== anchor.id).map((r) => r.id);
        return finish(
          "orientation",
          "orientation",
          choose({ candidates, anchor: anchor.id, template: `Go to the room directly {relation} of the ${anchor.category}.` }, shuffled<Relation>(["north", "south", "east", "west"]), annotations, layout, reachedRoom, used),
          "room",
          start(),
        );
      }), used)
    : best(Array.from({ length: 50 }, () => () => {
        const pose = start();
        const here = house.rooms.find((r) => pose.position[0] >= r.x0 && pose.position[0] < r.x1 && pose.position[1] >= r.y0 && pose.position[1] < r.y1)!;
        const candidates = house.rooms.filter((r) => r.id !== here.id).map((r) => r.id);
        const choice = choose({ candidates, template: "Go to the room to your {relation}, seen from where you are standing now." }, shuffled<Relation>(["left", "right"]), annotations, layoutOf(house, pose), reachedRoom, used);
        return finish("orientation", "orientation", choice, "room", pose);
      }), used);
  if (!orientation) return null;
  items.push(orientation);

  // Instance: an object of a repeated category, by first sighting (even houses) or by distance to a one-of-a-kind object (odd houses).
  const repeatedObjects = shuffled([...new Set(house.objects.map((o) => o.category))].filter((c) => objectCount(c) >= 2));
  const instance = best(repeatedObjects.flatMap((c) => {
    const instances = house.objects.filter((o) => o.category === c).map((o) => o.id);
    const seen = instances.filter(reachedObject);
    if (options.houseIndex % 2 === 0) {
      return seen.length < 2 ? [] : [() => finish("instance", "instance", choose({ candidates: seen, template: `Go to the ${c} you saw {relation} during the tour.` }, shuffled<Relation>(["first", "last"]), annotations, layout, reachedObject, used), "object", start())];
    }
    return shuffled(house.objects.filter((o) => objectCount(o.category) === 1)).map((anchor) => () =>
      finish("instance", "instance", choose({ candidates: instances, anchor: anchor.id, template: `Go to the ${c} {relation} the ${anchor.category}.` }, shuffled<Relation>(["nearest", "farthest"]), annotations, layout, reachedObject, used), "object", start()));
  }), used);
  if (!instance) return null;
  items.push(instance);

  // A plain instance question without structure (skipped by the counterfactual intervention).
  if (options.plain) {
    const single = shuffled(house.objects.filter((o) => objectCount(o.category) === 1 && reachedObject(o.id)))[0];
    if (!single) return null;
    items.push({ key: "instance-plain", task: "instance", instruction: `Go to the ${single.category}.`, target: { object: single.id }, start: start(), swappable: false });
  }
  return items;
}
