/**
 * The structure of an instruction (relation, anchor, candidates) and how its target follows from
 * the annotations and the layout. The loader checks every item's stated target against it; the
 * counterfactual intervention swaps the relation and recomputes the target with it.
 *
 * Rules (all ties are "ambiguous": the relation names no single target):
 * - ordinal (first, second, second-to-last, last): candidates ordered by first appearance in the
 *   tour; a room appears when the camera is inside it, an object when it is annotated visible.
 * - temporal (before, after): the candidate appearing last before / first after the anchor's
 *   first appearance (candidates appearing at the same frame as the anchor do not count).
 * - distance (nearest, farthest): plan distance between layout positions (room centre, object
 *   position, or the start for anchor "start").
 * - compass (north, south, east, west) from the anchor, and egocentric (left, right) from the
 *   start pose: candidates whose bearing lies strictly within 45° of the direction; the nearest.
 * - count (most, fewest): objects of `counted_category` per candidate room (layout.objects[].room).
 */
import type { Annotation, Layout, Query } from "./schema.js";

export const RELATIONS = [
  "first", "second", "second-to-last", "last",
  "before", "after",
  "nearest", "farthest",
  "north", "south", "east", "west",
  "left", "right",
  "most", "fewest",
] as const;
export type Relation = (typeof RELATIONS)[number];
export type RelationKind = "ordinal" | "temporal" | "distance" | "compass" | "egocentric" | "count";

export const RELATION_KIND: Record<Relation, RelationKind> = {
  first: "ordinal", second: "ordinal", "second-to-last": "ordinal", last: "ordinal",
  before: "temporal", after: "temporal",
  nearest: "distance", farthest: "distance",
  north: "compass", south: "compass", east: "compass", west: "compass",
  left: "egocentric", right: "egocentric",
  most: "count", fewest: "count",
};

/** The counterfactual swap: ordinal first↔last, second↔second-to-last; before↔after; nearest↔farthest; N↔S, E↔W, left↔right; most↔fewest. */
export const OPPOSITE: Record<Relation, Relation> = {
  first: "last", last: "first", second: "second-to-last", "second-to-last": "second",
  before: "after", after: "before",
  nearest: "farthest", farthest: "nearest",
  north: "south", south: "north", east: "west", west: "east",
  left: "right", right: "left",
  most: "fewest", fewest: "most",
};

/** The words that fill `{relation}` in a template. */
export const PHRASE: Record<Relation, string> = {
  first: "first", second: "second", "second-to-last": "second-to-last", last: "last",
  before: "before", after: "after",
  nearest: "nearest to", farthest: "farthest from",
  north: "north", south: "south", east: "east", west: "west",
  left: "left", right: "right",
  most: "most", fewest: "fewest",
};

export function fillRelation(template: string, relation: Relation): string {
  return template.split("{relation}").join(PHRASE[relation]);
}

export type Resolution = { ok: true; target: string } | { ok: false; reason: string };

/** What the resolver reads: the tour annotations and the layout. */
export interface World {
  annotations: readonly Annotation[];
  layout?: Layout | undefined;
}

/** Room ids known to the world (camera rooms, rooms seen from outside, layout rooms). */
export function roomIds(world: World): Set<string> {
  const ids = new Set<string>();
  for (const a of world.annotations) {
    if (a.room) ids.add(a.room);
  }
  for (const r of world.layout?.rooms ?? []) ids.add(r.id);
  return ids;
}

/** First tour index at which a room (camera inside) or an object (annotated visible) appears. */
export function firstAppearance(world: World, id: string): number | null {
  const isRoom = roomIds(world).has(id);
  for (const a of world.annotations) {
    if (isRoom ? a.room === id : a.objects.some((o) => o.id === id)) return a.index;
  }
  return null;
}

function positionOf(world: World, id: string): [number, number] | null {
  if (id === "start") return world.layout?.start?.position ?? null;
  const room = world.layout?.rooms.find((r) => r.id === id);
  if (room?.center) return room.center;
  const object = world.layout?.objects.find((o) => o.id === id);
  return object?.position ?? null;
}

const DIRECTIONS: Record<"north" | "south" | "east" | "west", [number, number]> = { north: [0, 1], south: [0, -1], east: [1, 0], west: [-1, 0] };
const EPS = 1e-9;

/** The single candidate with the extreme value (min or max); ambiguous on ties. */
function extreme(values: Array<[string, number]>, pick: "min" | "max", what: string): Resolution {
  if (values.length === 0) return { ok: false, reason: `no candidate ${what}` };
  const sign = pick === "min" ? 1 : -1;
  const sorted = [...values].sort((a, b) => sign * (a[1] - b[1]));
  if (sorted.length > 1 && Math.abs(sorted[0]![1] - sorted[1]![1]) <= EPS) {
    return { ok: false, reason: `ambiguous: ${sorted[0]![0]} and ${sorted[1]![0]} tie ${what}` };
  }
  return { ok: true, target: sorted[0]![0] };
}

function directional(world: World, query: Query, from: [number, number], direction: [number, number]): Resolution {
  const norm = Math.hypot(direction[0], direction[1]);
  if (norm === 0) return { ok: false, reason: "the start's facing direction is zero" };
  const d: [number, number] = [direction[0] / norm, direction[1] / norm];
  const inside: Array<[string, number]> = [];
  for (const c of query.candidates) {
    if (c === query.anchor) continue;
    const p = positionOf(world, c);
    if (!p) return { ok: false, reason: `no layout position for candidate ${c}` };
    const v: [number, number] = [p[0] - from[0], p[1] - from[1]];
    const length = Math.hypot(v[0], v[1]);
    if (length <= EPS) continue;
    const cos = (v[0] * d[0] + v[1] * d[1]) / length;
    if (cos > Math.SQRT1_2 + EPS) inside.push([c, length]);
  }
  return extreme(inside, "min", `within 45° of the ${query.relation} direction`);
}

/** The target the query names in this world, or why it names none. */
export function resolveQuery(query: Query, world: World): Resolution {
  const relation = query.relation;
  const kind = RELATION_KIND[relation];
  const candidates = [...new Set(query.candidates)];
  if (candidates.length !== query.candidates.length) return { ok: false, reason: "candidates repeat an id" };
  switch (kind) {
    case "ordinal": {
      const seen: Array<[string, number]> = [];
      for (const c of candidates) {
        const first = firstAppearance(world, c);
        if (first === null) return { ok: false, reason: `candidate ${c} never appears in the tour` };
        seen.push([c, first]);
      }
      seen.sort((a, b) => a[1] - b[1]);
      for (let i = 1; i < seen.length; i++) {
        if (seen[i]![1] === seen[i - 1]![1]) return { ok: false, reason: `ambiguous: ${seen[i - 1]![0]} and ${seen[i]![0]} first appear in the same frame` };
      }
      const position = relation === "first" ? 0 : relation === "last" ? seen.length - 1 : relation === "second" ? 1 : seen.length - 2;
      if (position < 0 || position >= seen.length || (relation !== "first" && relation !== "last" && seen.length < 2)) {
        return { ok: false, reason: `"${relation}" needs at least 2 candidates` };
      }
      return { ok: true, target: seen[position]![0] };
    }
    case "temporal": {
      if (!query.anchor) return { ok: false, reason: `"${relation}" needs an anchor` };
      const anchorFirst = firstAppearance(world, query.anchor);
      if (anchorFirst === null) return { ok: false, reason: `anchor ${query.anchor} never appears in the tour` };
      const values: Array<[string, number]> = [];
      for (const c of candidates) {
        if (c === query.anchor) continue;
        const first = firstAppearance(world, c);
        if (first === null) return { ok: false, reason: `candidate ${c} never appears in the tour` };
        if (relation === "before" ? first < anchorFirst : first > anchorFirst) values.push([c, first]);
      }
      return extreme(values, relation === "before" ? "max" : "min", `${relation} the anchor`);
    }
    case "distance": {
      if (!query.anchor) return { ok: false, reason: `"${relation}" needs an anchor` };
      const from = positionOf(world, query.anchor);
      if (!from) return { ok: false, reason: `no layout position for anchor ${query.anchor}` };
      const values: Array<[string, number]> = [];
      for (const c of candidates) {
        if (c === query.anchor) continue;
        const p = positionOf(world, c);
        if (!p) return { ok: false, reason: `no layout position for candidate ${c}` };
        values.push([c, Math.hypot(p[0] - from[0], p[1] - from[1])]);
      }
      return extreme(values, relation === "nearest" ? "min" : "max", "in distance to the anchor");
    }
    case "compass": {
      if (!query.anchor) return { ok: false, reason: `"${relation}" needs an anchor` };
      const from = positionOf(world, query.anchor);
      if (!from) return { ok: false, reason: `no layout position for anchor ${query.anchor}` };
      return directional(world, query, from, DIRECTIONS[relation as keyof typeof DIRECTIONS]);
    }
    case "egocentric": {
      const start = world.layout?.start;
      if (!start) return { ok: false, reason: `"${relation}" needs layout.start (position and facing)` };
      if (query.anchor !== undefined && query.anchor !== "start") return { ok: false, reason: `"${relation}" is measured from the start; anchor must be "start" or absent` };
      const [fx, fy] = start.facing;
      // Plan coordinates [east, north]: left of the facing direction is a quarter turn counter-clockwise.
      return directional(world, query, start.position, relation === "left" ? [-fy, fx] : [fy, -fx]);
    }
    case "count": {
      if (!query.counted_category) return { ok: false, reason: `"${relation}" needs counted_category` };
      const objects = world.layout?.objects ?? [];
      if (objects.length === 0 || objects.some((o) => o.room === undefined)) return { ok: false, reason: `"${relation}" needs layout.objects with their rooms` };
      const values: Array<[string, number]> = candidates.map((c) => [c, objects.filter((o) => o.room === c && o.category === query.counted_category).length]);
      return extreme(values, relation === "most" ? "max" : "min", `in ${query.counted_category} count`);
    }
  }
}
