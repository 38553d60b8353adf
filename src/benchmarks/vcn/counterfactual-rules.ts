/**
 * What a counterfactual instruction (App. D.2: the relation swapped, the target recomputed) must
 * satisfy to be a VCN-Bench instruction at all, checked on the item's own data with the
 * generator's rules (construct/), not a second copy of them:
 *
 * - the relation: ordinals name the mirrored position of the candidate list (k -> n-1-k) in the
 *   generator's words (count.ts ordinalFor: "second-to-last" only with 4 or more candidates), so
 *   "second" of two rooms becomes "first", and "second" of three (its own mirror) has none; every
 *   other relation takes its opposite (relations.ts OPPOSITE). A swap that names the same target
 *   is degenerate too (e.g. nearest/farthest over one candidate).
 * - the new target is not in the start room (meta.initial_room), and
 *   an R2O target is not of an ambiguous type (App. B.2, params.ts excludedRoomTypes);
 * - the instruction type's rule (App. B.4) holds for the new target, rebuilt from the annotations
 *   (the prior video's visits) and the layout: Order (order.ts) and Count's distinct rooms
 *   (count.ts) must give the swapped plan; Distance (distance.ts distanceTarget) needs the window's
 *   rooms of the category as candidates and the 5 m geodesic margin, read from meta.room_distances
 *   when the item records them; with two candidates and none recorded the margin is the original
 *   instruction's (the same pair, the same difference), with more it cannot be checked and the
 *   item is refused; Instance (instance.ts) the 0.5 m margin between the target and the other
 *   candidates (and the 2 m anchor range when the new relation is "nearest");
 * - R2O: the new target room holds an object of the instruction's category seen in the video
 *   ("Locate the ...": meta.object_category), as the generator picks it (episode.ts).
 * The type's rule is the one of the generator's subclass the item records (meta.subclass); an item
 * without it (hand-made sets, the legacy fixture) gets the checks that need no subclass, and so
 * does an item without meta.initial_room or meta.object_category: the checks left out are listed
 * on the derived item (`unchecked`) and counted in the run's scores, never dropped silently.
 */
import { countPlans, ordinalFor } from "./construct/count.js";
import { decisiveExtreme, distanceTarget } from "./construct/distance.js";
import type { RoomCategories, WindowFacts } from "./construct/facts.js";
import { orderPlans } from "./construct/order.js";
import { VCN_PARAMS as P } from "./construct/params.js";
import { roomsOfCategory, usableRoom } from "./construct/plan.js";
import { firstEntryOrder, roomVisits } from "./construct/windows.js";
import { OPPOSITE, RELATION_KIND, type Relation, type World } from "./relations.js";
import type { Query } from "./schema.js";
import type { GoalTarget, VcnItem } from "./types.js";

export type Swap = { ok: true; relation: Relation } | { ok: false; reason: string };

/** Position (0-based) an ordinal names among n candidates, as the resolver reads it. */
function ordinalPosition(relation: Relation, n: number): number {
  return relation === "first" ? 0 : relation === "second" ? 1 : relation === "last" ? n - 1 : n - 2;
}

/** The relation of the counterfactual instruction (see the file comment), or why there is none. */
export function counterRelation(query: Pick<Query, "relation" | "candidates">): Swap {
  if (RELATION_KIND[query.relation] !== "ordinal") return { ok: true, relation: OPPOSITE[query.relation] };
  const n = new Set(query.candidates).size;
  const k = ordinalPosition(query.relation, n);
  const mirror = n - 1 - k;
  if (mirror === k) return { ok: false, reason: `degenerate relation ("${query.relation}" of ${n} candidates is its own mirror)` };
  const relation = mirror >= 0 && mirror < n ? ordinalFor(mirror, n) : null;
  if (!relation) return { ok: false, reason: `degenerate relation (no ordinal names position ${mirror + 1} of ${n} candidates)` };
  return { ok: true, relation };
}

/** The item's meta field as a string, undefined when absent, or why it cannot be read. */
function metaText(item: VcnItem, key: string): { ok: true; value: string | undefined } | { ok: false; reason: string } {
  const value = item.meta?.[key];
  if (value === undefined) return { ok: true, value: undefined };
  if (typeof value === "string" && value !== "") return { ok: true, value };
  return { ok: false, reason: `malformed meta.${key} (${item.source.file} line ${item.source.line}: not a non-empty string)` };
}

/** The room the agent starts in (meta.initial_room), null when not recorded, or why it cannot be read. */
function startRoomOf(item: VcnItem): { ok: true; room: string | null } | { ok: false; reason: string } {
  const recorded = metaText(item, "initial_room");
  return recorded.ok ? { ok: true, room: recorded.value ?? null } : recorded;
}

/** Room categories from the annotations and the layout. */
function roomCategories(world: World): RoomCategories {
  const rooms = new Map<string, { category: string }>();
  for (const a of world.annotations) if (a.room !== null && a.room_category !== null) rooms.set(a.room, { category: a.room_category });
  for (const r of world.layout?.rooms ?? []) if (!rooms.has(r.id)) rooms.set(r.id, { category: r.category });
  return { rooms };
}

/** The prior video's facts as the generator's rules read them, rebuilt from the annotations (one per frame of the video). */
export function windowOfAnnotations(world: World): WindowFacts {
  const visits = roomVisits(world.annotations.map((a) => a.room));
  const seen = new Map<string, number[]>();
  for (const a of world.annotations) {
    for (const o of a.objects) {
      const frames = seen.get(o.id);
      if (frames) frames.push(a.index);
      else seen.set(o.id, [a.index]);
    }
  }
  return { window: { first: 0, last: world.annotations.length - 1 }, visits, rooms: firstEntryOrder(visits), seen };
}

const sameMembers = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** Order (App. B.4): the generator's Order rule, run on the item's video, gives the swapped instruction. */
function orderRule(world: World, query: Query, target: string, start: string | null): string | null {
  const plans = orderPlans(roomCategories(world), windowOfAnnotations(world));
  const match = plans.some((p) => p.query?.relation === query.relation && p.targetRoom === target && p.query.anchor === query.anchor && (start === null || p.initialRooms.includes(start)) && sameMembers(p.query.candidates, query.candidates));
  return match ? null : `the new target fails the Order rule (App. B.4: "${query.relation}" ${target} against the visits to ${query.anchor})`;
}

/** Count, distinct rooms (App. B.4): the generator's rule gives the swapped ordinal over the same rooms in the same order. */
function countRule(world: World, query: Query, target: string, start: string | null): string | null {
  const plans = countPlans(roomCategories(world), windowOfAnnotations(world));
  const match = plans.some((p) => p.subclass === "count-rooms" && p.query?.relation === query.relation && p.targetRoom === target && (start === null || p.initialRooms.includes(start)) && p.query.candidates.join(",") === query.candidates.join(","));
  return match ? null : `the new target fails the Count rule (App. B.4: "${query.relation}" of ${query.candidates.join(", ")} in a clear visit order)`;
}

/** The geodesic distances the item records from the start to the candidate rooms' centres (meta.room_distances), or why they cannot be read. */
function recordedDistances(item: VcnItem, candidates: readonly string[]): { ok: true; values: Array<[string, number]> | null } | { ok: false; reason: string } {
  const raw = item.meta?.["room_distances"];
  if (raw === undefined) return { ok: true, values: null };
  const where = `${item.source.file} line ${item.source.line}`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, reason: `malformed meta.room_distances (${where}: not an object)` };
  const values: Array<[string, number]> = [];
  for (const c of candidates) {
    const d = (raw as Record<string, unknown>)[c];
    if (typeof d !== "number" || !(d >= 0)) return { ok: false, reason: `malformed meta.room_distances (${where}: no distance for ${c})` };
    values.push([c, d]);
  }
  return { ok: true, values };
}

/** Distance (App. B.4): the window's rooms of the category, the 5 m geodesic margin, the straight-line pick agreeing. */
function distanceRule(item: VcnItem, query: Query, target: string, start: string | null): string | null {
  if (start === null) return `the new target fails the Distance rule (the start room is not recorded: meta.initial_room)`;
  const world: World = { annotations: item.annotations, layout: item.layout };
  const house = roomCategories(world);
  const category = house.rooms.get(target)?.category;
  const window = windowOfAnnotations(world);
  if (!category || !sameMembers(roomsOfCategory(house, window, category), query.candidates)) return `the new target fails the Distance rule (App. B.4: the candidates are not the video's rooms of the category)`;
  const from = item.layout?.start?.position;
  const straight: Array<[string, number]> = [];
  for (const c of query.candidates) {
    const centre = item.layout?.rooms.find((r) => r.id === c)?.center;
    if (!from || !centre) return `the new target fails the Distance rule (no layout position for the start or ${c})`;
    straight.push([c, Math.hypot(centre[0] - from[0], centre[1] - from[1])]);
  }
  const relation = query.relation as "nearest" | "farthest";
  const recorded = recordedDistances(item, query.candidates);
  if (!recorded.ok) return recorded.reason;
  if (recorded.values) {
    return distanceTarget(relation, start, recorded.values, straight) === target ? null : `the new target fails the Distance rule (App. B.4: not ${relation} by the 5 m geodesic margin)`;
  }
  if (query.candidates.length > 2) return `the Distance margin cannot be checked (${query.candidates.length} candidates and no geodesic distances recorded in meta.room_distances)`;
  // Two candidates: the swapped instruction compares the same pair, so the original's 5 m margin holds for it.
  return decisiveExtreme(straight, relation === "nearest" ? "min" : "max", 0.01) === target ? null : `the new target fails the Distance rule (App. B.4: the straight-line distances do not pick it)`;
}

/** Instance with an object anchor (instance.ts): the target beats the other candidates by 0.5 m; "nearest" also within 2 m of the anchor. */
function instanceRule(item: VcnItem, query: Query, target: string): string | null {
  const positionOf = (id: string) => item.layout?.objects.find((o) => o.id === id)?.position;
  const anchor = query.anchor !== undefined ? positionOf(query.anchor) : undefined;
  if (!anchor) return `the new target fails the Instance rule (no layout position for the anchor)`;
  const values: Array<[string, number]> = [];
  for (const c of query.candidates) {
    const p = positionOf(c);
    if (!p) return `the new target fails the Instance rule (no layout position for ${c})`;
    values.push([c, Math.hypot(p[0] - anchor[0], p[1] - anchor[1])]);
  }
  const relation = query.relation as "nearest" | "farthest";
  if (decisiveExtreme(values, relation === "nearest" ? "min" : "max", P.instanceAnchorMarginM) !== target) return `the new target fails the Instance rule (App. B.4: not ${relation} by the ${P.instanceAnchorMarginM} m margin)`;
  const d = values.find(([c]) => c === target)![1];
  if (relation === "nearest" && d > P.instanceAnchorMaxM) return `the new target fails the Instance rule (farther than ${P.instanceAnchorMaxM} m from the anchor)`;
  return null;
}

/** The generator's subclasses with a query, and the rule each is held to. */
const SUBCLASS_RULES: Record<string, (item: VcnItem, query: Query, target: string, start: string | null) => string | null> = {
  "order-types": (item, q, t, s) => orderRule({ annotations: item.annotations, layout: item.layout }, q, t, s),
  "order-same-type": (item, q, t, s) => orderRule({ annotations: item.annotations, layout: item.layout }, q, t, s),
  "count-rooms": (item, q, t, s) => countRule({ annotations: item.annotations, layout: item.layout }, q, t, s),
  "distance-nearest": distanceRule,
  "distance-farthest": distanceRule,
  "instance-object": (item, q, t) => instanceRule(item, q, t),
};

/** The instruction type's rule for the new target (meta.subclass), or a note that it was not applied. */
function typeRule(item: VcnItem, query: Query, target: string, start: string | null): { problem: string | null; unchecked?: string } {
  const subclass = metaText(item, "subclass");
  if (!subclass.ok) return { problem: subclass.reason };
  if (subclass.value === undefined) return { problem: null, unchecked: "the instruction type's rule (meta.subclass not recorded)" };
  const rule = SUBCLASS_RULES[subclass.value];
  if (!rule) return { problem: null, unchecked: `the instruction type's rule (no generator rule for subclass ${subclass.value})` };
  return { problem: rule(item, query, target, start) };
}

/** R2O: an object of the instruction's category (meta.object_category), seen in the video, stands in the new target room. */
function locateRule(item: VcnItem, room: string): string | null {
  const category = metaText(item, "object_category");
  if (!category.ok) return category.reason;
  if (category.value === undefined) return null; // counted as unchecked by the caller
  const seen = new Set(item.annotations.flatMap((a) => a.objects.filter((o) => o.category === category.value).map((o) => o.id)));
  const inRoom = (item.layout?.objects ?? []).some((o) => seen.has(o.id) && o.room === room);
  return inRoom ? null : `the new target room shows no object of the instruction's category (no ${category.value} of ${room} seen in the video)`;
}

export interface CounterfactualCheck {
  /** Why the new target cannot be a counterfactual instruction's target; null when it can. */
  problem: string | null;
  /** Checks the item's data did not allow (see the file comment). */
  unchecked: string[];
}

/** The checks of the file comment on the swapped query's target. */
export function checkCounterfactual(item: VcnItem, swapped: Query, target: GoalTarget): CounterfactualCheck {
  const unchecked: string[] = [];
  const refuse = (problem: string): CounterfactualCheck => ({ problem, unchecked });
  const start = startRoomOf(item);
  if (!start.ok) return refuse(start.reason);
  if (start.room === null) unchecked.push("the start room (meta.initial_room not recorded)");
  const id = target.kind === "room" ? target.room : target.object;
  const room = target.kind === "room" ? target.room : item.layout?.objects.find((o) => o.id === target.object)?.room;
  if (room === undefined) return refuse(`the new target's room is not recorded (layout.objects: ${id})`);
  if (room === start.room) return refuse(`the new target is in the start room (${room})`);
  if (target.kind === "room" && !usableRoom(roomCategories({ annotations: item.annotations, layout: item.layout }), room)) {
    return refuse(`the new target room is of an ambiguous type (${target.category}; App. B.2)`);
  }
  const rule = typeRule(item, swapped, id, start.room);
  if (rule.problem) return refuse(rule.problem);
  if (rule.unchecked) unchecked.push(rule.unchecked);
  if (target.kind === "room") {
    if (item.meta?.["object_category"] === undefined) unchecked.push("the object category in the new room (meta.object_category not recorded)");
    const locate = locateRule(item, room);
    if (locate) return refuse(locate);
  }
  return { problem: null, unchecked };
}
