/**
 * From a plan to an episode: the R2O object category and goals, the start, its heading, the
 * instruction text and the shortest route.
 *
 * - R2O object category (App. B.4 "Locate the ..."): a category of an object seen in the window
 *   that stands in the target room (not a door or window); the goals are every object of that
 *   category in the target room. Instance: the goal is the target object.
 * - Start (§3.3, §3.1): a tour position of the window (every 5th frame) in the initial room, free
 *   at the robot's radius, at least 3 m geodesic from the nearest view point; of up to
 *   P.startTries positions drawn in a seeded order, the initial rooms in turn, the farthest from the
 *   goal (§3.4: the paper's episodes need 122.1 steps on average; a random start gave 47 here).
 *   The start is outside the target room because the initial room never is the target room.
 * - Heading: a seeded multiple of 30 degrees (the turn step); Orientation: a seeded compass
 *   direction, stated in the instruction ("Now facing north.").
 */
import type { Rng } from "../../../stats/rng.js";
import { isFreePoint, shortestPathTree, type OccupancyGrid, type ShortestPathTree } from "../../../world/space/index.js";
import type { Scene, SceneObject, Vec2 } from "../../../world/types.js";
import { fillRelation } from "../relations.js";
import { compassOf } from "./habitat.js";
import type { StartProbe } from "./distance.js";
import type { HouseFacts, WindowFacts } from "./facts.js";
import { nearestViewPoint, roomCentrePoint, shortestRoute, viewPoints, type ShortestRoute } from "./goals.js";
import { VCN_PARAMS as P } from "./params.js";
import type { EpisodePlan } from "./plan.js";
import type { Tour } from "./tour-types.js";

/** One tour of one house, prepared for episode building (trees cached per start frame). */
export class TourSpace {
  readonly anchors: number[];
  private readonly trees = new Map<number, ShortestPathTree>();
  private readonly centres = new Map<string, Vec2 | null>();

  constructor(readonly scene: Scene, readonly house: HouseFacts, readonly grid: OccupancyGrid, readonly tour: Tour) {
    this.anchors = tour.frames.filter((f) => f.index % P.startStrideFrames === 0 && f.room !== null && isFreePoint(grid, this.plan(f.index))).map((f) => f.index);
  }

  plan(frame: number): Vec2 {
    const p = this.tour.frames[frame]!.position;
    return [p[0], p[1]];
  }

  tree(frame: number): ShortestPathTree {
    let t = this.trees.get(frame);
    if (!t) {
      t = shortestPathTree(this.grid, this.plan(frame));
      this.trees.set(frame, t);
    }
    return t;
  }

  centrePoint(room: string): Vec2 | null {
    if (!this.centres.has(room)) this.centres.set(room, roomCentrePoint(this.scene, this.grid, this.house.rooms.get(room)!));
    return this.centres.get(room)!;
  }

  /** Start frames of a window in a room. */
  startsIn(w: WindowFacts, room: string): number[] {
    return this.anchors.filter((k) => k >= w.window.first && k <= w.window.last && this.tour.frames[k]!.room === room);
  }

  /** The Distance rule's start in a window's room: the middle start frame there. */
  probe(w: WindowFacts, room: string): StartProbe | null {
    const starts = this.startsIn(w, room);
    if (starts.length === 0) return null;
    const frame = starts[Math.floor(starts.length / 2)]!;
    return {
      frame,
      position: this.plan(frame),
      roomDistance: (r) => {
        const c = this.centrePoint(r);
        return c ? this.tree(frame).distanceTo(c) : Infinity;
      },
    };
  }
}

export interface GoalObject {
  object: SceneObject;
  viewPoints: Vec2[];
}

export interface Episode {
  plan: EpisodePlan;
  space: TourSpace;
  initialRoom: string;
  startFrame: number;
  start: Vec2;
  heading: number;
  objectCategory: string;
  goals: GoalObject[];
  nearest: { point: Vec2; distance: number };
  route: ShortestRoute;
  instruction: string;
  /** The instruction with {relation} in place of the relation words (query plans). */
  template?: string;
}

/** Seen, non-wall object categories standing in a room, sorted. */
export function seenCategoriesIn(house: HouseFacts, w: WindowFacts, room: string): string[] {
  const out = new Set<string>();
  for (const name of w.seen.keys()) {
    const o = house.objects.get(name);
    if (o && !o.inWall && o.room === room) out.add(o.category);
  }
  return [...out].sort();
}

/**
 * The categories to locate that single out the target room least: those seen in the most rooms of
 * its kind in the window (design principle iii: distractors); all of them when no other room of
 * the kind shows any. Otherwise the object points at the room without the relation: "the frame
 * with the most pixels of the named object" (issue 28: 60-64 on Distance against a category chance
 * of 46 when any category was named), and, when only one of several distractor rooms shows it,
 * "a frame of the named room kind that shows the named object" (seed 29, 500 episodes: a cue
 * forest read that at 29-39 on Count against 19.6).
 */
export function sharedWithDistractors(house: HouseFacts, w: WindowFacts, target: string, categories: readonly string[]): string[] {
  const kind = house.rooms.get(target)!.category;
  const seenBy = w.rooms.filter((r) => house.rooms.get(r)!.category === kind).map((r) => new Set(seenCategoriesIn(house, w, r)));
  const roomsShowing = (category: string) => seenBy.filter((seen) => seen.has(category)).length;
  const most = Math.max(0, ...categories.map(roomsShowing));
  return categories.filter((c) => roomsShowing(c) === most);
}

/** The lists' first elements, then their second ones, and so on (so the first tries of a start span every initial room). */
export function roundRobin<T>(lists: ReadonlyArray<readonly T[]>): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let k = 0; k < longest; k++) for (const list of lists) if (k < list.length) out.push(list[k]!);
  return out;
}

export interface StartTry {
  room: string;
  frame: number;
}

/**
 * Of the first P.startTries tries, the one whose nearest goal view point is farthest (the first of
 * equals), among those at least P.minGoalDistanceM from it; null when none is.
 */
export function farthestStart(tries: readonly StartTry[], nearestOf: (frame: number) => { point: Vec2; distance: number } | null): (StartTry & { nearest: { point: Vec2; distance: number } }) | null {
  let chosen: (StartTry & { nearest: { point: Vec2; distance: number } }) | null = null;
  for (const t of tries.slice(0, P.startTries)) {
    const nearest = nearestOf(t.frame);
    if (nearest && nearest.distance >= P.minGoalDistanceM && (chosen === null || nearest.distance > chosen.nearest.distance)) chosen = { ...t, nearest };
  }
  return chosen;
}

/** The episode of a plan, or why it has none. */
export function buildEpisode(space: TourSpace, w: WindowFacts, plan: EpisodePlan, rng: Rng): Episode | string {
  const { scene, house } = space;
  let category: string;
  let objects: SceneObject[];
  if (plan.targetObject !== undefined) {
    const target = scene.objects.find((o) => o.name === plan.targetObject)!;
    category = target.category;
    objects = [target];
  } else {
    const categories = seenCategoriesIn(house, w, plan.targetRoom);
    if (categories.length === 0) return "no object seen in the target room";
    category = rng.pick(sharedWithDistractors(house, w, plan.targetRoom, categories));
    objects = scene.objects.filter((o) => !o.inWall && o.room === plan.targetRoom && o.category === category);
  }
  const goals = objects.map((object) => ({ object, viewPoints: viewPoints(scene, space.grid, object) })).filter((g) => g.viewPoints.length > 0);
  if (goals.length === 0) return "no navigable view point";
  const allPoints = goals.flatMap((g) => g.viewPoints);
  const tries: StartTry[] = plan.startFrame !== undefined
    ? [{ room: plan.initialRooms[0]!, frame: plan.startFrame }]
    : roundRobin(rng.shuffle(plan.initialRooms).map((room) => rng.shuffle(space.startsIn(w, room)).map((frame) => ({ room, frame }))));
  const chosen = farthestStart(tries, (frame) => nearestViewPoint(space.tree(frame), allPoints));
  if (!chosen) return tries.length === 0 ? "no start position in the initial rooms" : "every start is closer than 3 m to the goal or cut off";
  const heading = plan.statesFacing ? (rng.int(0, 3) * Math.PI) / 2 : (rng.int(0, 11) * Math.PI) / 6;
  const start = space.plan(chosen.frame);
  const route = shortestRoute(space.grid, space.tree(chosen.frame), start, heading, chosen.nearest.point);
  if (!route) return "no path to the nearest view point";
  const prefix = plan.statesFacing ? `Now facing ${compassOf(heading)}. ` : "";
  const locate = plan.task === "instance" ? "" : ` Locate the ${category}.`;
  const template = plan.query ? `${prefix}${plan.body}${locate}` : undefined;
  const instruction = plan.query ? fillRelation(template!, plan.query.relation) : `${prefix}${plan.body}${locate}`;
  return {
    plan, space, initialRoom: chosen.room, startFrame: chosen.frame, start, heading, objectCategory: category, goals,
    nearest: chosen.nearest, route, instruction, ...(template !== undefined ? { template } : {}),
  };
}
