/**
 * Distance instructions (App. B.4): "Proceed to the bathroom that is farthest from the current
 * position among the rooms visited in the video." Candidates are the window's rooms of the
 * category (at least two; the initial room counts when it is of the category, but is never the
 * target). Distances are geodesic, at the robot's radius, from the start position to each room's
 * centre (the free cell of the room nearest its centroid); the target beats every other candidate
 * by at least 5 m. The straight-line distances to the centroids (what the item's query resolver
 * reads) must pick the same room, or the plan is dropped.
 */
import type { Vec2 } from "../../../world/types.js";
import { VCN_PARAMS as P } from "./params.js";
import type { HouseFacts, WindowFacts } from "./facts.js";
import { roomsOfCategory, usableCategories, usableRoom, type EpisodePlan } from "./plan.js";

/** A start the rule measures from: a tour frame's position and its geodesic distance to each room's centre. */
export interface StartProbe {
  frame: number;
  position: Vec2;
  roomDistance(room: string): number;
}

/** The start probe of a window in one room (null: no navigable tour position of the window in that room). */
export type StartProbeFor = (w: WindowFacts, room: string) => StartProbe | null;

/** The candidate that wins by `margin` in the wanted direction, or null. */
export function decisiveExtreme(values: ReadonlyArray<[string, number]>, pick: "min" | "max", margin: number): string | null {
  if (values.length < 2 || values.some(([, v]) => !Number.isFinite(v))) return null;
  const sign = pick === "min" ? 1 : -1;
  const sorted = [...values].sort((a, b) => sign * (a[1] - b[1]));
  return Math.abs(sorted[1]![1] - sorted[0]![1]) >= margin ? sorted[0]![0] : null;
}

/**
 * The room the Distance rule names from one start, or null: the geodesic extreme beats every other
 * candidate by the 5 m margin, is not the start's room, and the straight-line distances (what the
 * item's query resolver reads) pick the same room.
 */
export function distanceTarget(relation: "nearest" | "farthest", initial: string, geodesic: ReadonlyArray<[string, number]>, straight: ReadonlyArray<[string, number]>): string | null {
  const pick = relation === "nearest" ? "min" : "max";
  const target = decisiveExtreme(geodesic, pick, P.distanceMarginM);
  if (!target || target === initial || decisiveExtreme(straight, pick, 0.01) !== target) return null;
  return target;
}

export function distancePlans(house: HouseFacts, w: WindowFacts, probeFor: StartProbeFor): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  for (const initial of w.rooms.filter((r) => usableRoom(house, r))) {
    const probe = probeFor(w, initial);
    if (!probe) continue;
    for (const category of usableCategories(house, w)) {
      const rooms = roomsOfCategory(house, w, category);
      if (rooms.length < 2) continue;
      const geodesic = rooms.map((r): [string, number] => [r, probe.roomDistance(r)]);
      const straight = rooms.map((r): [string, number] => {
        const c = house.rooms.get(r)!.centre;
        return [r, Math.hypot(c[0] - probe.position[0], c[1] - probe.position[1])];
      });
      for (const relation of ["farthest", "nearest"] as const) {
        const target = distanceTarget(relation, initial, geodesic, straight);
        if (!target) continue;
        plans.push({
          task: "distance", subclass: `distance-${relation}`, tag: `distance|${relation}|${category}|${initial}|${target}`,
          window: w.window, initialRooms: [initial], startFrame: probe.frame, roomDistances: geodesic, targetRoom: target,
          body: `Proceed to the ${category} that is {relation} the current position among the rooms visited in the video.`,
          query: { relation, candidates: rooms, anchor: "start" },
        });
      }
    }
  }
  return plans;
}
