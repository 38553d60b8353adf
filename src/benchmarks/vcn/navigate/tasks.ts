/**
 * Navigation tasks from a VCN-Bench-format set (a release or `spatialprobe generate vcn`):
 * episodes.json.gz gives the start pose, goals and shortest distance of every episode;
 * items.jsonl gives, per episode (joined by `episode_id`), the instruction's prior video and its
 * frame annotations (which frames show the goal); generated sets also have the tour poses
 * (tours/<scene>/<tour>/tour.json: where each frame was taken, for the goal-then-plan agents and
 * frame waypoints) and the house plans (houses/<scene>/scene.json: room areas, the simulator).
 * Every file is read inside the data folder (core/dataroot.ts).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DataRoot } from "../../../core/dataroot.js";
import { parseJson } from "../../../core/jsonl.js";
import { boundedArray, coordinate, frameIndex, MAX_SCENE_EXTENT_M, point, quaternionComponent, safeId } from "../../../core/limits.js";
import { imageClip, planFrames } from "../../../media/video-check.js";
import { tourFrameOfFile } from "../construct/tour-types.js";
import { appendAll, DataError, issueList, type DataProblem } from "../../../core/problems.js";
import type { EnvEpisode, Quaternion, Vec3 } from "../../../sim/types.js";
import { successFrames } from "../chance.js";
import { parseEpisodes, readEpisodeFileJson, releasedEpisodeSchema, type NavEpisode } from "../episodes.js";
import { loadVcn } from "../load.js";
import type { VcnItem } from "../types.js";

export interface PriorAttributes {
  /** Frames of the prior video. */
  frames: number;
  /** Distinct rooms the camera is in over the prior video. */
  rooms: number;
  /** Floor area of those rooms, m^2 (null without the house plan). */
  area_m2: number | null;
}

export interface NavTask {
  id: string;
  env: EnvEpisode;
  /** The episode as the metrics read it. */
  episode: NavEpisode;
  instruction: string;
  taskType: string | null;
  /** The goal-identification item of the episode (its prior video and frame annotations), when items.jsonl has one. */
  item: VcnItem | null;
  /** Annotation indices of the prior video's success frames (empty without an item). */
  successFrames: number[];
  /** Habitat floor position of each prior-video frame (annotation index), when the tour poses are known. */
  framePositions: Array<Vec3 | null> | null;
  /** Why framePositions is null (e.g. a release prior: no poses), null when it is known or there is no item. */
  framePositionsMissing: string | null;
  prior: PriorAttributes | null;
}

export interface LoadedTasks {
  tasks: NavTask[];
  episodesFile: string;
  itemsFile: string | null;
}

const EPISODE_FILES = ["episodes.json.gz", "episodes.json"];

const extraSchema = z.looseObject({
  episode_id: z.union([z.string().min(1), safeId()]),
  scene_id: z.string().min(1),
  start_position: point(3),
  start_rotation: z.array(quaternionComponent()).length(4),
  instruction: z.looseObject({ instruction_text: z.string().min(1) }),
});

const tourSchema = z.looseObject({
  frames: boundedArray(z.looseObject({ index: frameIndex(), position: z.array(coordinate()).min(2).max(3) })),
});

/** A room's floor area, m^2: at most the largest scene's (MAX_SCENE_EXTENT_M squared). */
const sceneRoomsSchema = z.looseObject({ rooms: boundedArray(z.looseObject({ id: z.string(), area: z.number().min(0).max(MAX_SCENE_EXTENT_M ** 2) })) });

/**
 * The poses of a generated tour: tours/<scene>/<tour>/tour.json, beside the tour's video and its
 * frame folder. A tour frame's number is its video frame and its file, frames/NNNN.jpg
 * (construct/tour.ts tourFrameFile).
 */
const TOUR_POSES = "tour.json";

/** Where each prior-video frame was taken, or why that is not known. */
interface FramePlaces {
  /** Habitat floor position of each annotation index; null when not known. */
  positions: Array<Vec3 | null> | null;
  /** Why `positions` is null (no tour poses for this kind of tour, say). */
  missing: string | null;
}

const unknownPlaces = (missing: string): FramePlaces => ({ positions: null, missing });

/** The tour frame number an annotation shows in a video or frame folder: source_index, else what the spec says. */
function tourFrameNumber(item: VcnItem, index: number, sourceIndex: number | undefined): number | null {
  if (sourceIndex !== undefined) return sourceIndex;
  const spec = item.tour.spec;
  if (spec.mode === "all") return index;
  if (spec.mode === "indices") return spec.indices[index] ?? null;
  return null;
}

/** tour.json's frame positions by frame number; null when there is none, or when it is unusable (a problem: refused, unreadable, not a tour). */
function readTourPoses(ref: string, root: DataRoot, problems: DataProblem[], cache: Map<string, Map<number, number[]> | null>): Map<number, number[]> | null {
  if (cache.has(ref)) return cache.get(ref)!;
  let poses: Map<number, number[]> | null = null;
  const read = root.readText(ref);
  if (read.ok) {
    const parsed = parseJson(read.text);
    const tour = parsed.ok ? tourSchema.safeParse(parsed.value) : null;
    if (tour?.success) poses = new Map(tour.data.frames.map((f) => [f.index, f.position]));
    else problems.push({ file: ref, message: "not a tour file (frames with index and position)" });
  } else if (!read.missing) problems.push({ file: ref, message: read.message });
  cache.set(ref, poses);
  return poses;
}

/**
 * The places of an item's prior-video frames from its tour's poses (TOUR_POSES), read inside the
 * data root: for a video or a frame folder, tour.json beside it, and each annotation's frame
 * number (source_index, else the spec's pick); for a frame list, tour.json beside the folder of
 * the listed files (all in one folder), each file matched by name to a tour frame. A tour.json
 * that lacks a frame the item shows is a problem of the set; no tour.json (a release prior, a
 * set without poses) leaves the places unknown, with the reason.
 */
function framePlacesOf(item: VcnItem, root: DataRoot, problems: DataProblem[], cache: Map<string, Map<number, number[]> | null>): FramePlaces {
  if (item.tour.prior) return unknownPlaces("a release prior video (tour.prior): the release gives no frame poses");
  const src = item.tour.source;
  const rel = (file: string) => path.relative(root.dir, file).split(path.sep).join("/");
  let folder: string;
  let frameNumbers: Array<number | null>;
  if (src.video !== undefined || src.dir !== undefined) {
    folder = path.dirname(src.video ?? src.dir!);
    frameNumbers = item.annotations.map((a) => tourFrameNumber(item, a.index, a.source_index));
  } else if (src.frames !== undefined) {
    const folders = [...new Set(src.frames.map((f) => path.dirname(path.dirname(f))))];
    if (folders.length !== 1) return unknownPlaces(`the frame list spans ${folders.length} tour folders; one tour's ${TOUR_POSES} gives the poses`);
    folder = folders[0]!;
    const plan = planFrames(item.tour.spec, imageClip(src.frames.length, null), "the frame list");
    if (!plan.ok) return unknownPlaces("the frame spec does not pick from the frame list");
    frameNumbers = item.annotations.map((a) => {
      const k = tourFrameOfFile(path.relative(folder, src.frames![plan.indices[a.index]!]!).split(path.sep).join("/"));
      return k >= 0 ? k : null;
    });
  } else return unknownPlaces("the item has no tour media");
  const unnumbered = item.annotations.filter((_, k) => frameNumbers[k] === null).map((a) => a.index);
  if (unnumbered.length > 0) {
    const why = src.frames !== undefined ? `is not a tour frame file (frames/NNNN.jpg beside ${TOUR_POSES})` : "has no source_index, and the frame spec does not say which tour frame it is";
    return unknownPlaces(`prior-video frame ${unnumbered[0]} ${why}`);
  }
  const ref = rel(path.join(folder, TOUR_POSES));
  const poses = readTourPoses(ref, root, problems, cache);
  if (poses === null) return unknownPlaces(`no ${ref} (the tour's frame poses)`);
  const absent = item.annotations.filter((_, k) => !poses.has(frameNumbers[k]!)).map((a) => a.index);
  if (absent.length > 0) {
    problems.push({ file: ref, message: `has no pose for prior-video frame${absent.length > 1 ? "s" : ""} ${absent.slice(0, 10).join(", ")}${absent.length > 10 ? ", ..." : ""} of item ${item.id} (${item.source.file} line ${item.source.line})` });
    return unknownPlaces(`${ref} lacks frames of the prior video`);
  }
  // Plan (x, y) -> Habitat floor [x, 0, -y] (construct/habitat.ts).
  return {
    positions: frameNumbers.map((k) => {
      const p = poses.get(k!)!;
      return [p[0]!, 0, -p[1]!] as Vec3;
    }),
    missing: null,
  };
}

/** Floor area of each release region ("regionN" is the plan's room "room_N", construct/release.ts regionMapper) of a house plan; null without a readable plan. */
function regionAreas(scene: string, root: DataRoot): Map<string, number> | null {
  const read = root.readText(path.join("houses", scene, "scene.json"));
  if (!read.ok) return null;
  const parsed = parseJson(read.text);
  const plan = parsed.ok ? sceneRoomsSchema.safeParse(parsed.value) : null;
  return plan?.success ? new Map(plan.data.rooms.map((r) => [r.id.replace(/^room_/, "region"), r.area])) : null;
}

/** Prior-video attributes (§6.3, Fig. 7): frames, rooms covered, their floor area from the house plan. */
function priorOf(item: VcnItem, areaOf: Map<string, number> | null): PriorAttributes {
  const rooms = [...new Set(item.annotations.map((a) => a.room).filter((r): r is string => r !== null))];
  const known = areaOf ? rooms.map((r) => areaOf.get(r)) : [undefined];
  const area = known.every((a) => a !== undefined) ? Math.round(known.reduce((s, a) => s + a!, 0) * 100) / 100 : null;
  return { frames: item.annotations.length, rooms: rooms.length, area_m2: area };
}

/** Every navigation task of a set; throws DataError listing every problem. */
export function loadNavTasks(data: string, options: { allowOutsideRoot?: boolean } = {}): LoadedTasks {
  const dir = path.resolve(data);
  const found = EPISODE_FILES.map((f) => path.join(dir, f)).find((f) => existsSync(f));
  if (!found) throw new DataError([{ file: dir, message: `no ${EPISODE_FILES.join(" or ")} in the data folder` }]);
  const root = new DataRoot(dir, options);
  const episodesFile = path.basename(found);
  const checked = root.resolve(episodesFile, "file", { what: "episode file" });
  if (!checked.ok) throw new DataError([{ file: episodesFile, message: checked.message }]);
  const json = readEpisodeFileJson(checked.path);
  const { episodes, problems } = parseEpisodes(json, episodesFile);
  const raw = (json as { episodes?: unknown[] }).episodes ?? [];
  const extras = new Map<string, z.infer<typeof extraSchema>>();
  raw.forEach((e, k) => {
    const checked = extraSchema.safeParse(e);
    if (!checked.success) {
      // An episode the metrics cannot read either has its problems listed already (parseEpisodes).
      if (!releasedEpisodeSchema.safeParse(e).success) return;
      const { field, message } = issueList(checked.error.issues)[0]!;
      problems.push({ file: episodesFile, field: `episodes[${k}]${field.startsWith("[") ? field : `.${field}`}`, message: `navigation needs it: ${message}` });
      return;
    }
    extras.set(String(checked.data.episode_id), checked.data);
  });
  const itemsPresent = existsSync(path.join(dir, "items.jsonl"));
  const items = new Map<string, VcnItem>();
  if (itemsPresent) {
    const loaded = loadVcn(dir, options);
    appendAll(problems, loaded.problems);
    for (const item of loaded.items) if (item.episodeId !== undefined) items.set(item.episodeId, item);
  }
  if (problems.length > 0) throw new DataError(problems);
  // Each house plan is read once, whatever the number of its episodes.
  const areas = new Map<string, Map<string, number> | null>();
  const areasOf = (scene: string) => {
    if (!areas.has(scene)) areas.set(scene, regionAreas(scene, root));
    return areas.get(scene)!;
  };
  const poseFiles = new Map<string, Map<number, number[]> | null>();
  const tasks = episodes.map((episode): NavTask => {
    const extra = extras.get(episode.episode_id)!;
    const item = items.get(episode.episode_id) ?? null;
    const places = item ? framePlacesOf(item, root, problems, poseFiles) : null;
    return {
      id: episode.episode_id,
      env: {
        episode_id: episode.episode_id,
        scene_id: extra.scene_id,
        start_position: extra.start_position as Vec3,
        start_rotation: extra.start_rotation as Quaternion,
      },
      episode,
      instruction: item?.instruction ?? extra.instruction.instruction_text,
      taskType: episode.task_type ?? null,
      item,
      successFrames: item ? successFrames(item) : [],
      framePositions: places?.positions ?? null,
      framePositionsMissing: places?.missing ?? null,
      prior: item ? priorOf(item, areasOf(item.scene)) : null,
    };
  });
  if (problems.length > 0) throw new DataError(problems);
  return { tasks, episodesFile, itemsFile: itemsPresent ? "items.jsonl" : null };
}
