/**
 * The records an episode becomes:
 * - the released episode (episodes.json.gz): Habitat coordinates, the fields the released
 *   evaluation scripts read (one goal entry for all instances: releasedGoals), and `target_room` /
 *   `prior_video` beside them;
 * - the goal-identification item (items.jsonl, schema.ts): the prior video as frames of the tour
 *   video (an indices spec, `source_index` per annotation) or as a list of the tour's frame files
 *   (frames/NNNN.jpg, NNNN the tour frame; navigate/tasks.ts finds their poses by name), the
 *   tour's annotations, the target, the four initial views, the layout and the query;
 * - the shortest-path log (trajectories.jsonl): positions every 0.25 m along the geodesic to the
 *   nearest view point, STOP, the room of every position. It is the shortest path, not an agent.
 * Room ids are written as the release's "region<k>".
 */
import type { Annotation, Layout, Query, RawItem } from "../schema.js";
import type { Scene } from "../../../world/types.js";
import { roomAt } from "../../../world/space/index.js";
import { successFrames } from "../chance.js";
import type { GoalTarget } from "../types.js";
import type { Episode } from "./episode.js";
import { habitatBox, habitatFloor, habitatPoint, headingQuaternion } from "./habitat.js";
import { tourFrameFile } from "./tour.js";
import type { Tour } from "./tour-types.js";
import type { PriorWindow } from "./windows.js";

const r4 = (v: number): number => Math.round(v * 1e4) / 1e4 + 0;

export type RegionOf = (room: string) => string;

export function regionMapper(scene: Pick<Scene, "rooms">): RegionOf {
  const ids = new Map(scene.rooms.map((r, k) => [r.id, `region${k}`]));
  return (room) => {
    const id = ids.get(room);
    if (!id) throw new Error(`unknown room ${room}`);
    return id;
  };
}

/**
 * The annotations of a window's frames, indexed 0..N-1; with `videoFrames`, each with its tour
 * frame as source_index (the frame of tour.mp4). A frame list names each tour frame's file
 * itself, and source_index would be its position in the list (schema.ts), so it is left out.
 */
export function windowAnnotations(scene: Scene, tour: Tour, w: PriorWindow, region: RegionOf, videoFrames = true): Annotation[] {
  const category = new Map(scene.rooms.map((r) => [r.id, r.type]));
  const out: Annotation[] = [];
  for (let k = w.first; k <= w.last; k++) {
    const f = tour.frames[k]!;
    out.push({
      index: k - w.first,
      room: f.room === null ? null : region(f.room),
      room_category: f.room === null ? null : category.get(f.room)!,
      objects: f.objects.map((o) => ({ id: o.name, category: o.category })),
      visible_rooms: f.visibleRooms.filter((r) => r !== f.room).map(region),
      ...(videoFrames ? { source_index: k } : {}),
    });
  }
  return out;
}

/** The scene's rooms (centroids) and objects (plan centres) in the item's layout, and the start. */
export function itemLayout(e: Episode, region: RegionOf): Layout {
  const { house, scene } = e.space;
  return {
    rooms: scene.rooms.map((r) => ({ id: region(r.id), category: r.type, center: [r4(house.rooms.get(r.id)!.centre[0]), r4(house.rooms.get(r.id)!.centre[1])] })),
    objects: scene.objects.map((o) => ({ id: o.name, category: o.category, room: region(o.room), position: [r4(o.position[0]), r4(o.position[1])] })),
    start: { position: [r4(e.start[0]), r4(e.start[1])], facing: [r4(Math.cos(e.heading)), r4(Math.sin(e.heading))] },
  };
}

/** The item's query: the plan's relation with room ids as regions. */
export function itemQuery(e: Episode, region: RegionOf): Query | undefined {
  const q = e.plan.query;
  if (!q) return undefined;
  const isRoom = e.plan.task !== "instance";
  const id = (x: string) => (isRoom && x !== "start" ? region(x) : x);
  return { relation: q.relation, candidates: q.candidates.map(id), ...(q.anchor !== undefined ? { anchor: id(q.anchor) } : {}), template: e.template! };
}

export interface MediaPaths {
  /** The tour's folder, relative to the set root (tours/<tour id>). */
  tourDir: string;
  media: "video" | "frames";
  views: { front: string; left: string; back: string; right: string };
}

/** What succeeds in an episode's frames: its target object, or its target room (with the category that sets the category chance). */
export function goalTarget(e: Episode, region: RegionOf): GoalTarget {
  return e.plan.targetObject !== undefined
    ? { kind: "object", object: e.plan.targetObject, category: e.objectCategory }
    : { kind: "room", room: region(e.plan.targetRoom), category: e.space.house.rooms.get(e.plan.targetRoom)!.category };
}

export function itemRecord(e: Episode, id: string, paths: MediaPaths, region: RegionOf): RawItem {
  const w = e.plan.window;
  const annotations = windowAnnotations(e.space.scene, e.space.tour, w, region, paths.media === "video");
  const target = e.plan.targetObject !== undefined ? { object: e.plan.targetObject } : { room: region(e.plan.targetRoom) };
  const goal = goalTarget(e, region);
  const indices = Array.from({ length: w.last - w.first + 1 }, (_, k) => w.first + k);
  const tour = paths.media === "video"
    ? { video: `${paths.tourDir}/tour.mp4`, spec: { mode: "indices" as const, indices } }
    : { frames: indices.map((k) => `${paths.tourDir}/${tourFrameFile(k)}`) };
  const query = itemQuery(e, region);
  return {
    id,
    task: e.plan.task,
    scene: e.space.scene.id,
    episode_id: id,
    instruction: e.instruction,
    tour,
    annotations,
    target,
    initial_views: paths.views,
    layout: itemLayout(e, region),
    ...(query ? { query } : {}),
    answers: successFrames({ target: goal, annotations }),
    meta: {
      subclass: e.plan.subclass,
      tag: e.plan.tag,
      tour: e.space.tour.id,
      prior_video: { first: w.first, last: w.last },
      initial_room: region(e.initialRoom),
      start_frame: e.startFrame - w.first,
      object_category: e.objectCategory,
      // Distance: what App. B.4's 5 m margin was checked on (a counterfactual re-checks it, counterfactual-rules.ts).
      ...(e.plan.roomDistances ? { room_distances: Object.fromEntries(e.plan.roomDistances.map(([room, d]) => [region(room), r4(d)])) } : {}),
    },
  };
}

/** "<scene>_region<k>/<object name>", the release's instance id. */
export const instanceId = (e: Episode, name: string, room: string, region: RegionOf): string => `${e.space.scene.id}_${region(room)}/${name}`;

/** One goal instance in the release's terms: its instance id, Habitat centre, view points and box. */
export interface ReleasedInstance {
  instance_id: string;
  position: number[];
  view_points: Array<{ agent_state: { position: number[] } }>;
  bbox: number[][];
}

/**
 * The goals field of a released episode. The released evaluation reads goals[0] alone, while
 * reaching any instance of the category in the target room is success (App. B.4), so the episode
 * has one goal entry: the first instance's centre and box, and the view points of every instance,
 * one instance after the other. `instances` (which the released code does not read) keeps each
 * instance's id, centre, box and its slice [first, end) of those view points.
 */
export function releasedGoals(instances: readonly ReleasedInstance[]): Array<Record<string, unknown>> {
  if (instances.length === 0) throw new Error("an episode needs a goal instance");
  let first = 0;
  const slices = instances.map((g) => {
    const range = [first, first + g.view_points.length];
    first += g.view_points.length;
    return { instance_id: g.instance_id, position: g.position, bbox: g.bbox, view_point_range: range };
  });
  return [{ position: instances[0]!.position, view_points: instances.flatMap((g) => g.view_points), bbox: instances[0]!.bbox, instances: slices }];
}

export function episodeRecord(e: Episode, id: string, region: RegionOf): Record<string, unknown> {
  const instances = e.goals.map((g): ReleasedInstance => ({
    instance_id: instanceId(e, g.object.name, g.object.room, region),
    position: habitatPoint([(g.object.bbox.min[0] + g.object.bbox.max[0]) / 2, (g.object.bbox.min[1] + g.object.bbox.max[1]) / 2, (g.object.bbox.min[2] + g.object.bbox.max[2]) / 2]),
    view_points: g.viewPoints.map((p) => ({ agent_state: { position: habitatFloor(p) } })),
    bbox: habitatBox(g.object.bbox),
  }));
  return {
    episode_id: id,
    scene_id: e.space.scene.id,
    start_position: habitatFloor(e.start),
    start_rotation: headingQuaternion(e.heading),
    instruction: {
      task_type: e.plan.task,
      instruction_text: e.instruction,
      instance_id: instances.map((g) => g.instance_id),
    },
    object_category: e.objectCategory,
    goals: releasedGoals(instances),
    dist_to_goal: r4(e.route.length),
    target_room: region(e.plan.targetRoom),
    prior_video: { tour: e.space.tour.id, first: e.plan.window.first, last: e.plan.window.last },
  };
}

export function trajectoryRecord(e: Episode, id: string, region: RegionOf): Record<string, unknown> {
  const samples = e.route.samples;
  return {
    episode_id: id,
    positions: samples.map(habitatFloor),
    stop: true,
    rooms: samples.map((p) => {
      const room = roomAt(e.space.scene, p);
      return room === null ? null : region(room);
    }),
    final_distance: 0,
  };
}
