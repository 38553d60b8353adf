/**
 * Loading VCN-Bench goal-identification items (schema.ts): `--data` is a folder holding
 * `items.jsonl`, or a JSONL file. Media paths are relative to the JSONL file's folder.
 * Every problem is reported with its file, line and field; a bad line is never skipped silently.
 *
 * Checks beyond the schema: annotations cover tour indices 0..N-1 exactly once; a room id (object
 * id) always has the same category; a frame's visible_rooms do not name its own room; the target
 * matches the task (a room for R2O, an object for Instance) and is reached by at least one tour
 * frame; the query (if any) resolves to the target and its template fills to the instruction;
 * `answers` (if given) equals the success frames; media files and folders exist, and a frame
 * folder or frame list read whole (`all`) has as many frames as there are annotations; a release
 * prior (`tour.prior`, prior-load.ts) lies inside its folder and picks one frame per annotation.
 * With `requests` (validate, run) also what a request needs (check.ts): video tours are probed.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { DataRoot, followUserPath, type DataRootOptions } from "../../core/dataroot.js";
import { readJsonObjects } from "../../core/jsonl.js";
import { problemCount, problemList, type DataProblem } from "../../core/problems.js";
import { frameFolderNames } from "../../media/frames.js";
import { ImageHeaderChecker } from "../../media/image-check.js";
import { VideoChecker } from "../../media/video-check.js";
import type { RequestOptions } from "../requests.js";
import { vcnRequestProblems } from "./check.js";
import { categoryFrames, successFrames } from "./chance.js";
import { fillRelation, RELATION_KIND, roomIds } from "./relations.js";
import { issueList, itemSchema, R2O_TASKS, TASK_CODES, type Annotation, type RawItem, type TaskCode } from "./schema.js";
import { resolvePrior } from "./prior-load.js";
import { checkQuery } from "./score.js";
import type { GoalTarget, TourSource, VcnItem } from "./types.js";

export interface LoadResult {
  items: VcnItem[];
  problems: DataProblem[];
  tasks: TaskCode[];
}

/** Image files a frame folder contributes, as the frame sampler (media/frames.ts) reads them. */

/** The JSONL file of a data path (a folder's items.jsonl, or the file itself). */
export function itemsFileOf(data: string): string | null {
  if (!existsSync(data)) return null;
  if (statSync(data).isFile()) return data;
  const file = path.join(data, "items.jsonl");
  return existsSync(file) ? file : null;
}

/** `requests`: also check what requests need (check.ts): the instruction, and tours that sample to the annotated frames. */
export function loadVcn(given: string, options: DataRootOptions & { tasks?: TaskCode[]; requests?: RequestOptions } = {}): LoadResult {
  const data = followUserPath(given);
  const file = itemsFileOf(data);
  if (!file) {
    const message = existsSync(data) ? "no items.jsonl in this folder (or pass the JSONL file itself)" : "data path does not exist";
    return { items: [], problems: [{ file: given, message }], tasks: [] };
  }
  const problems = problemList();
  const display = path.basename(file);
  const root = new DataRoot(path.dirname(path.resolve(file)), options);
  const items: VcnItem[] = [];
  const seen = new Map<string, number>();
  const requests = options.requests ? { videos: new VideoChecker(), images: new ImageHeaderChecker(), ...(options.tasks ? { tasks: options.tasks } : {}) } : undefined;
  const found = root.resolve(path.resolve(file), "file", { what: "data file" });
  const rows = found.ok ? readJsonObjects(found.path, display, problems) : [];
  if (!found.ok) problems.push({ file: display, message: found.message });
  for (const { line, value } of rows) {
    const item = loadLine(value, { file: display, line, root, ...(requests ? { requests } : {}) }, problems);
    if (!item) continue;
    const earlier = seen.get(item.id);
    if (earlier !== undefined) {
      problems.push({ file: display, line, field: "id", message: `duplicate id ${item.id} (first on line ${earlier})` });
      continue;
    }
    seen.set(item.id, line);
    items.push(item);
  }
  if (items.length === 0 && problems.length === 0) problems.push({ file: display, message: "no items" });
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const wanted = options.tasks;
  const kept = wanted ? items.filter((i) => wanted.includes(i.task)) : items;
  const tasks = TASK_CODES.filter((t) => kept.some((i) => i.task === t));
  return { items: kept, problems, tasks };
}

interface LineContext {
  file: string;
  line: number;
  /** The dataset root: the JSONL file's folder, which media paths are relative to. */
  root: DataRoot;
  /** Check what requests need too (check.ts), for the items of these tasks (all when absent). */
  requests?: { videos: VideoChecker; images: ImageHeaderChecker; tasks?: readonly TaskCode[] };
}

/** One line -> an item, or its problems. */
export function loadLine(value: Record<string, unknown>, ctx: LineContext, problems: DataProblem[]): VcnItem | null {
  const where = { file: ctx.file, line: ctx.line };
  const before = problemCount(problems);
  const add = (field: string | undefined, message: string) => problems.push({ ...where, ...(field ? { field } : {}), message });
  const parsed = itemSchema.safeParse(value);
  if (!parsed.success) {
    for (const { field, message } of issueList(parsed.error.issues)) add(field || undefined, message);
    return null;
  }
  const raw: RawItem = parsed.data;

  // Annotations: tour indices 0..N-1, each once.
  const annotations = [...raw.annotations].sort((a, b) => a.index - b.index);
  const indices = new Set<number>();
  raw.annotations.forEach((a, i) => {
    if (indices.has(a.index)) add(`annotations[${i}].index`, `tour index ${a.index} is annotated twice`);
    indices.add(a.index);
  });
  const n = raw.annotations.length;
  const gaps = [...Array(n).keys()].filter((k) => !indices.has(k));
  if (gaps.length > 0) add("annotations", `tour indices must be 0..${n - 1}; missing ${gaps.slice(0, 10).join(", ")}${gaps.length > 10 ? ", ..." : ""}`);

  // Consistent categories for room and object ids; no frame sees its own room "from outside".
  const roomCategory = new Map<string, string>();
  const objectCategory = new Map<string, string>();
  raw.annotations.forEach((a, i) => {
    if ((a.room === null) !== (a.room_category === null)) add(`annotations[${i}].room_category`, "room and room_category must both be null or both be set");
    if (a.room !== null && a.room_category !== null) {
      const known = roomCategory.get(a.room);
      if (known !== undefined && known !== a.room_category) add(`annotations[${i}].room_category`, `room ${a.room} is "${known}" elsewhere, "${a.room_category}" here`);
      else roomCategory.set(a.room, a.room_category);
    }
    if (a.room !== null && a.visible_rooms.includes(a.room)) add(`annotations[${i}].visible_rooms`, `lists the camera's own room ${a.room}`);
    const ids = new Set<string>();
    a.objects.forEach((o, j) => {
      if (ids.has(o.id)) add(`annotations[${i}].objects[${j}].id`, `object ${o.id} is listed twice in this frame`);
      ids.add(o.id);
      const known = objectCategory.get(o.id);
      if (known !== undefined && known !== o.category) add(`annotations[${i}].objects[${j}].category`, `object ${o.id} is "${known}" elsewhere, "${o.category}" here`);
      else objectCategory.set(o.id, o.category);
    });
  });
  const layout = raw.layout;
  layout?.rooms.forEach((r, i) => {
    const known = roomCategory.get(r.id);
    if (known !== undefined && known !== r.category) add(`layout.rooms[${i}].category`, `room ${r.id} is "${known}" in the annotations`);
    else roomCategory.set(r.id, r.category);
  });
  layout?.objects.forEach((o, i) => {
    const known = objectCategory.get(o.id);
    if (known !== undefined && known !== o.category) add(`layout.objects[${i}].category`, `object ${o.id} is "${known}" in the annotations`);
    else objectCategory.set(o.id, o.category);
  });

  // Target: a room for R2O tasks, an object for Instance, reached by at least one frame.
  let target: GoalTarget | null = null;
  const r2o = R2O_TASKS.includes(raw.task);
  if (r2o) {
    if (raw.target.object !== undefined) add("target.object", `a ${raw.task} question targets a room; give target.room only`);
    if (raw.target.room === undefined) add("target.room", `a ${raw.task} question needs target.room`);
    else if (!roomCategory.has(raw.target.room)) add("target.room", `room ${raw.target.room} is not in the annotations or the layout`);
    else target = { kind: "room", room: raw.target.room, category: roomCategory.get(raw.target.room)! };
  } else {
    if (raw.target.room !== undefined) add("target.room", "an instance question targets an object; give target.object only");
    if (raw.target.object === undefined) add("target.object", "an instance question needs target.object");
    else if (!objectCategory.has(raw.target.object)) add("target.object", `object ${raw.target.object} is not in the annotations or the layout`);
    else target = { kind: "object", object: raw.target.object, category: objectCategory.get(raw.target.object)! };
  }

  // Tour source.
  const beforeTour = problemCount(problems);
  let folderFrames: number | null = null;
  const sources = (["video", "frames", "dir", "prior"] as const).filter((k) => raw.tour[k] !== undefined);
  if (sources.length !== 1) add("tour", `give exactly one of video, frames, dir, prior (found ${sources.length === 0 ? "none" : sources.join(", ")})`);
  // Every media path resolves inside the dataset root and is the media it claims (core/dataroot.ts).
  const media = (ref: string, expect: "image" | "video", what: string, field: string): string => {
    const resolved = ctx.root.resolve(ref, expect, { what });
    if (resolved.ok) return resolved.path;
    add(field, resolved.message);
    return path.resolve(ctx.root.dir, ref);
  };
  const source: TourSource = {};
  if (raw.tour.video !== undefined) {
    if (!raw.tour.spec) add("tour.spec", "a video tour needs a frame spec (e.g. {\"mode\":\"uniform\",\"count\":50})");
    source.video = media(raw.tour.video, "video", "video", "tour.video");
  }
  const spec = raw.tour.spec ?? { mode: "all" as const };
  if (raw.tour.frames !== undefined) {
    source.frames = raw.tour.frames.map((f, i) => media(f, "image", "frame", `tour.frames[${i}]`));
    const sampled = spec.mode === "all" ? raw.tour.frames.length : spec.mode === "uniform" ? Math.min(spec.count, raw.tour.frames.length) : n;
    if (sampled !== n) add("tour.frames", `the spec takes ${sampled} of the ${raw.tour.frames.length} frames but ${n} tour frames are annotated`);
  }
  if (raw.tour.dir !== undefined) {
    const folder = ctx.root.frameFolder(raw.tour.dir, frameFolderNames);
    source.dir = folder.path ?? path.resolve(ctx.root.dir, raw.tour.dir);
    for (const message of folder.problems) add("tour.dir", message);
    const count = folder.names.length;
    if (folder.path !== null) {
      folderFrames = count;
      const sampled = spec.mode === "all" ? count : spec.mode === "uniform" ? Math.min(spec.count, count) : n;
      if (sampled !== n) add("tour.dir", `the spec takes ${sampled} of the ${count} frames in ${raw.tour.dir} but ${n} tour frames are annotated`);
    }
  }
  if (spec.mode === "indices" && spec.indices.length !== n) add("tour.spec.indices", `${spec.indices.length} indices but ${n} annotated tour frames`);
  // A release prior becomes the list of its picked frames; its source_index values are folder
  // positions, checked here, so the sampler's list positions are not compared with them again.
  let requestRaw = raw;
  let itemAnnotations = annotations;
  let display = raw.tour.video ?? raw.tour.dir ?? raw.tour.frames?.[0] ?? "";
  let priorPositions: number[] | undefined;
  if (raw.tour.prior !== undefined) {
    if (raw.tour.spec !== undefined) add("tour.spec", "a prior tour picks its frames as the release does; give no spec");
    const prior = resolvePrior(raw.tour.prior, raw.scene, raw.annotations, ctx.root, add);
    if (prior) {
      source.frames = prior.frames;
      display = prior.folder;
      priorPositions = prior.positions;
      const stripped = raw.annotations.map(({ source_index: _, ...a }) => a);
      requestRaw = { ...raw, annotations: stripped };
      itemAnnotations = [...stripped].sort((a, b) => a.index - b.index);
    }
  }
  const checks = ctx.requests && (!ctx.requests.tasks || ctx.requests.tasks.includes(raw.task)) ? ctx.requests : undefined;
  if (checks) {
    vcnRequestProblems(requestRaw, source, folderFrames, problemCount(problems) === beforeTour, checks.videos, add, checks.images);
  }

  const views = {} as VcnItem["views"];
  for (const direction of ["front", "left", "back", "right"] as const) {
    const beforeView = problemCount(problems);
    views[direction] = media(raw.initial_views[direction], "image", "image", `initial_views.${direction}`);
    // A view that resolved: its header must give a size sharp can decode (media/image-check.ts).
    const picture = checks && problemCount(problems) === beforeView ? checks.images.problem(views[direction], raw.initial_views[direction]) : null;
    if (picture) add(`initial_views.${direction}`, picture);
  }

  // Query structure: candidates of the right kind, the template, and the target it resolves to.
  if (raw.query && target) {
    const q = raw.query;
    const rooms = roomIds({ annotations, layout });
    const isRoom = (id: string) => rooms.has(id) || roomCategory.has(id);
    q.candidates.forEach((c, i) => {
      if (r2o && !isRoom(c)) add(`query.candidates[${i}]`, `${c} is not a room of this tour or layout`);
      if (!r2o && !objectCategory.has(c)) add(`query.candidates[${i}]`, `${c} is not an object of this tour or layout`);
    });
    if (RELATION_KIND[q.relation] === "count" && !r2o) add("query.relation", `"${q.relation}" counts objects per room; it needs an R2O task`);
    if (q.template !== undefined) {
      if (!q.template.includes("{relation}")) add("query.template", "must contain {relation}");
      else if (fillRelation(q.template, q.relation) !== raw.instruction) add("query.template", `fills to "${fillRelation(q.template, q.relation)}", not the instruction`);
    }
    if (problemCount(problems) === before) {
      const mismatch = checkQuery({ query: q, annotations, layout, target });
      if (mismatch) add("query", mismatch);
    }
  }

  if (target && gaps.length === 0) {
    const success = successFrames({ target, annotations });
    if (success.length === 0) add(r2o ? "target.room" : "target.object", r2o ? `the camera is never in room ${raw.target.room} during the tour` : `object ${raw.target.object} is never visible in the tour`);
    if (raw.answers !== undefined) {
      const expected = [...new Set(raw.answers)].sort((a, b) => a - b);
      if (expected.join(",") !== success.join(",")) add("answers", `[${expected.join(", ")}] differs from the success frames of the annotations [${success.join(", ")}]`);
    }
    if (categoryFrames({ target, annotations }).length === 0) add("annotations", "no frame of the target's category");
  }

  if (problemCount(problems) > before || !target) return null;
  const id = String(raw.id);
  return {
    id,
    rawId: raw.id,
    task: raw.task,
    cluster: raw.scene,
    scene: raw.scene,
    ...(raw.episode_id !== undefined ? { episodeId: String(raw.episode_id) } : {}),
    instruction: raw.instruction,
    tour: { source, spec, display, ...(priorPositions ? { prior: { positions: priorPositions } } : {}) },
    annotations: itemAnnotations,
    target,
    views,
    ...(layout ? { layout } : {}),
    ...(raw.query ? { query: raw.query } : {}),
    ...(raw.meta ? { meta: raw.meta } : {}),
    source: { file: ctx.file, line: ctx.line },
  };
}

export type { Annotation };
