/**
 * Orientation instructions (App. B.4): "Now facing north. Go to the easternmost bedroom that was
 * visited in the video."
 *
 * The paper works in Habitat axes (X east, Z south); ours are +x east, +y north (Habitat z = -y),
 * so "extent toward a direction" is the largest of d·p over a room's box for the direction's unit
 * vector d. Over the rooms the window visits (every type, the hallway too):
 * - candidates: rooms whose extent lies in (max - 5 m, max];
 * - extreme rooms: candidates with no room centre further in the direction among the rooms whose
 *   centre lies within the candidate's range across the direction (closed interval);
 * - corner: a room extreme in either perpendicular direction too (north or south for east) — the
 *   paper's "northeast or southeast corner" read with its own extreme rule.
 * A target needs at least two rooms of its category in the window, to be the only room of its
 * category among the extreme rooms, and not to be a corner room.
 */
import type { Vec2 } from "../../../world/types.js";
import { VCN_PARAMS as P } from "./params.js";
import type { HouseFacts, RoomFact, WindowFacts } from "./facts.js";
import { roomsOfCategory, usableCategories, usableRoom, type EpisodePlan } from "./plan.js";

export const DIRECTIONS = ["north", "east", "south", "west"] as const;
export type Direction = (typeof DIRECTIONS)[number];

const UNIT: Record<Direction, Vec2> = { north: [0, 1], east: [1, 0], south: [0, -1], west: [-1, 0] };
const PERPENDICULAR: Record<Direction, [Direction, Direction]> = { north: ["east", "west"], south: ["east", "west"], east: ["north", "south"], west: ["north", "south"] };

const dot = (d: Vec2, p: Vec2) => d[0] * p[0] + d[1] * p[1];

/** Largest d·p over the room's box corners. */
export function extentToward(room: RoomFact, direction: Direction): number {
  const d = UNIT[direction];
  const { minX, minY, maxX, maxY } = room.box;
  return Math.max(...([[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY]] as Vec2[]).map((p) => dot(d, p)));
}

/** The room's box range across the direction (x for north/south, y for east/west). */
function acrossRange(room: RoomFact, direction: Direction): [number, number] {
  return direction === "north" || direction === "south" ? [room.box.minX, room.box.maxX] : [room.box.minY, room.box.maxY];
}

const across = (p: Vec2, direction: Direction): number => (direction === "north" || direction === "south" ? p[0] : p[1]);

/** The extreme rooms toward a direction among `rooms` (band of App. B.4, then no centre further out within the room's range). */
export function extremeRooms(rooms: readonly RoomFact[], direction: Direction, band: number = P.orientationBandM): string[] {
  if (rooms.length === 0) return [];
  const extents = rooms.map((r) => extentToward(r, direction));
  const top = Math.max(...extents);
  const d = UNIT[direction];
  return rooms.filter((room, k) => {
    if (!(extents[k]! > top - band && extents[k]! <= top)) return false;
    const [lo, hi] = acrossRange(room, direction);
    return !rooms.some((other) => other.id !== room.id && across(other.centre, direction) >= lo && across(other.centre, direction) <= hi && dot(d, other.centre) > dot(d, room.centre));
  }).map((r) => r.id);
}

export const superlative = (d: Direction): string => `${d}ernmost`;

export function orientationPlans(house: HouseFacts, w: WindowFacts): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  const rooms = w.rooms.map((r) => house.rooms.get(r)!);
  const extreme = new Map(DIRECTIONS.map((d) => [d, new Set(extremeRooms(rooms, d))]));
  const usable = w.rooms.filter((r) => usableRoom(house, r));
  for (const direction of DIRECTIONS) {
    for (const category of usableCategories(house, w)) {
      const ofCategory = roomsOfCategory(house, w, category);
      if (ofCategory.length < 2) continue;
      const out = ofCategory.filter((r) => extreme.get(direction)!.has(r));
      if (out.length !== 1) continue;
      const target = out[0]!;
      if (PERPENDICULAR[direction].some((p) => extreme.get(p)!.has(target))) continue;
      const initialRooms = usable.filter((r) => r !== target);
      if (initialRooms.length === 0) continue;
      plans.push({
        task: "orientation", subclass: `orientation-${direction}`, tag: `orientation|${direction}|${category}|${target}`,
        window: w.window, initialRooms, targetRoom: target, statesFacing: true,
        body: `Go to the ${superlative(direction)} ${category} that was visited in the video.`,
      });
    }
  }
  return plans;
}
