/**
 * Importing the VCN-Bench release into our goal-identification layout (`run vcn --data` reads it).
 *
 * Inputs:
 *   - episodes: the released episode file(s), gzip JSON or JSON `{"episodes": [...]}`, each with
 *     the fields the released evaluation reads: episode_id, scene_id ("mp3d/<scene>/<scene>.glb"),
 *     hkey, start_idx, end_idx, instruction {task_type, instruction_text, instance_id},
 *     object_category. A folder means every *.json / *.json.gz in it.
 *   - tours: the released `video_root`: one frame folder per tour, `<tours>/<scene>/<hkey>/`.
 *   - frame annotations (what each tour frame shows). The release publishes none we could find,
 *     so they come in our format, one file per tour beside its folder (outside it, so the folder
 *     listing the release indexes is untouched): `<annotations>/<scene>/<hkey>.frames.json` =
 *     `{"frames": {"<file name>": {"room": "region3" | null, "room_category": "bedroom" | null,
 *     "objects": [{"id": "<instance id as in instruction.instance_id>", "category": "bed"}],
 *     "visible_rooms": ["region2"]}}}`. Room ids are the "regionN" of the instance ids.
 *   - initial views (the four views at the start). The release renders them in the simulator; the
 *     released evaluation saves them as `<scene>_ep_<episode_id>/snapshot/0-view_<k>.png` in its
 *     output folder: MV-DualVLN's loop renders k = 0..3 as front, left, back, right (its
 *     direct_to_idx), 3D-Mem's as back, right, left, front (its initial_view order 3, 2, 0, 1 is
 *     front, left, back, right). Files named front/left/back/right.(png|jpg|jpeg) in that folder
 *     are read first.
 *
 * Every episode becomes one item or is skipped with a reason that the summary counts (image-goal
 * episodes, task types outside the five, a tour folder, its annotations or the views absent).
 * Malformed episodes and annotation files, and windows outside their folder, are problems (file
 * and field): nothing is written then. The output is checked by loading it back.
 *
 * The release is untrusted like any dataset: each input folder is a root (a link the user names is
 * followed, since that choice is theirs), nothing below it is reached through a link (a link, or
 * a FIFO or device, where a file belongs is a problem), and each file is copied from the one
 * descriptor that was checked (core/file-read.ts), so no file outside the release lands in the set.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DataRoot, followUserPath } from "../../core/dataroot.js";
import { MAX_IMAGE_FILE_BYTES, readRegularFile } from "../../core/file-read.js";
import { parseJson } from "../../core/jsonl.js";
import { boundedArray, frameIndex, MAX_FRAME_INDEX, safeId, wholeNumber } from "../../core/limits.js";
import { DataError, problemList, UsageError, type DataProblem } from "../../core/problems.js";
import { readEpisodeFileJson, regionOf } from "./episodes.js";
import { loadVcn } from "./load.js";
import { pickPriorFrames, releaseListing, type PriorSampling } from "./prior.js";
import { DEFAULT_TOURS_ROOT } from "./prior-load.js";
import { issueList, R2O_TASKS, TASK_CODES, type TaskCode } from "./schema.js";

export const VIEW_LAYOUTS = ["mvdualvln", "3dmem"] as const;
export type ViewLayout = (typeof VIEW_LAYOUTS)[number];
const DIRECTIONS = ["front", "left", "back", "right"] as const;
type Direction = (typeof DIRECTIONS)[number];
/** Which `0-view_<k>.png` is each direction, per released loop (see the header). */
export const VIEW_FILES: Record<ViewLayout, Record<Direction, number>> = {
  mvdualvln: { front: 0, left: 1, back: 2, right: 3 },
  "3dmem": { front: 3, left: 2, back: 0, right: 1 },
};
const VIEW_EXTENSIONS = [".png", ".jpg", ".jpeg"];

export interface ImportOptions {
  episodes: string;
  tours: string;
  out: string;
  /** Root of `<scene>/<hkey>.frames.json`; default: the tours folder. */
  annotations?: string;
  /** The released evaluation's output folder (or any folder of `<scene>_ep_<id>/`). */
  views?: string;
  viewLayout?: ViewLayout;
  videoMaxFrame?: number;
  sampling?: PriorSampling;
  /** Copy tour frames instead of hard-linking them. */
  copy?: boolean;
}

export interface ImportSummary {
  episodes: number;
  items: number;
  by_task: Partial<Record<TaskCode, number>>;
  skipped: Record<string, number>;
  skipped_episodes: Array<{ episode_id: string; file: string; reason: string }>;
  tours: number;
  tour_entries: number;
  frames_shown: { min: number; max: number; mean: number } | null;
  linked: number;
  copied: number;
  /** What loading the output back found (empty when it loads clean). */
  load_problems: DataProblem[];
  options: { video_max_frame: number; sampling: PriorSampling; view_layout: ViewLayout };
}

const releasedEpisode = z.looseObject({
  episode_id: z.union([z.string().min(1), safeId()]),
  scene_id: z.string().min(1),
  hkey: z.union([z.string().min(1), safeId()]),
  start_idx: frameIndex(),
  end_idx: wholeNumber(1, MAX_FRAME_INDEX + 1),
  instruction: z.looseObject({
    task_type: z.string().min(1),
    instruction_text: z.string().optional(),
    instance_id: boundedArray(z.string().min(1)).optional(),
  }),
  object_category: z.string().optional(),
});
type ReleasedEpisode = z.infer<typeof releasedEpisode>;

const frameNote = z.strictObject({
  room: z.string().min(1).nullable(),
  room_category: z.string().min(1).nullable(),
  objects: boundedArray(z.strictObject({ id: z.string().min(1), category: z.string().min(1) })).default([]),
  visible_rooms: boundedArray(z.string().min(1)).default([]),
});
const frameNotesFile = z.strictObject({ frames: z.record(z.string(), frameNote) });
type FrameNote = z.infer<typeof frameNote>;

/** The Matterport3D scene folder of a release scene_id: "mp3d/17DRP5sb8fy/17DRP5sb8fy.glb" -> "17DRP5sb8fy". */
export function sceneName(sceneId: string): string {
  const base = sceneId.split(/[/\\]/).filter(Boolean).pop() ?? sceneId;
  const dot = base.indexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** One of the five task codes, or why the episode is not a goal-identification question. */
export function taskOf(taskType: string): { ok: true; task: TaskCode } | { ok: false; reason: string } {
  const key = taskType.trim().toLowerCase();
  if (key.includes("image")) return { ok: false, reason: "image-goal episode (not one of the five instruction types)" };
  const task = TASK_CODES.find((t) => t === key);
  return task ? { ok: true, task } : { ok: false, reason: `task_type "${taskType}" is not one of ${TASK_CODES.join(", ")}` };
}

const SEGMENT = /^(?!\.\.?$)[^/\\]+$/;

/** What a refused file in an import suggests. */
const IMPORT_HINT = "import copies no file through a link: put the file itself in its place";

/** The episode files a path names: the file itself, or every *.json / *.json.gz of a folder (sorted). */
export function episodeFiles(given: string): string[] {
  const source = followUserPath(given);
  if (!existsSync(source)) throw new DataError([{ file: given, message: "episodes path does not exist" }]);
  if (statSync(source).isFile()) return [source];
  const files = readdirSync(source).filter((n) => /\.json(\.gz)?$/i.test(n)).sort().map((n) => path.join(source, n));
  if (files.length === 0) throw new DataError([{ file: source, message: "no *.json or *.json.gz episode file in this folder" }]);
  return files;
}

interface Planned {
  file: string;
  episode: ReleasedEpisode;
  id: string;
  scene: string;
  hkey: string;
  task: TaskCode;
  target: { room: string } | { object: string };
  positions: number[];
  /** The tour folder's entries (the release indexes them in this order), which are folders, and its real path. */
  listing: string[];
  folders: ReadonlySet<string>;
  tourDir: string;
  views: Record<Direction, string>;
  notes: Map<string, FrameNote>;
}

/**
 * Reads, checks and writes. Throws DataError (nothing written) when the inputs have problems, and
 * UsageError when a folder given is missing or the output already holds items.
 */
export function importRelease(options: ImportOptions): ImportSummary {
  const maxFrames = options.videoMaxFrame ?? 50;
  const sampling = options.sampling ?? "release";
  const layout = options.viewLayout ?? "mvdualvln";
  for (const [flag, folder] of [["--tours", options.tours], ["--annotations", options.annotations], ["--views", options.views]] as const) {
    if (folder !== undefined && !(existsSync(folder) && statSync(folder).isDirectory())) throw new UsageError(`${flag} ${folder} is not a folder`);
  }
  const release = releaseRoots(options);
  const problems = problemList();
  const skipped: ImportSummary["skipped_episodes"] = [];
  const planned: Planned[] = [];
  const listings = new Map<string, TourFolder | { problem: string } | null>();
  const notesOf = new Map<string, FrameNotes>();
  const seen = new Map<string, string>();
  let total = 0;

  for (const file of episodeFiles(options.episodes)) {
    const json = readEpisodeFileJson(file);
    const list = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>)["episodes"] : undefined;
    if (!Array.isArray(list)) {
      problems.push({ file, field: "episodes", message: "expected an object with an \"episodes\" array" });
      continue;
    }
    list.forEach((raw, i) => {
      total++;
      const where = (field: string, message: string) => problems.push({ file, field: `episodes[${i}]${field ? `.${field}` : ""}`, message });
      const skip = (id: string, reason: string) => skipped.push({ episode_id: id, file, reason });
      const parsed = releasedEpisode.safeParse(raw);
      if (!parsed.success) {
        for (const { field, message } of issueList(parsed.error.issues)) where(field, message);
        return;
      }
      const e = parsed.data;
      const scene = sceneName(e.scene_id);
      const hkey = String(e.hkey);
      const id = `${scene}_ep_${e.episode_id}`;
      if (seen.has(id)) return where("episode_id", `episode ${e.episode_id} of scene ${scene} appears twice (first in ${seen.get(id)})`);
      seen.set(id, file);
      if (!SEGMENT.test(scene)) return where("scene_id", `"${e.scene_id}" does not end in a scene folder name`);
      if (!SEGMENT.test(hkey)) return where("hkey", "must be a single folder name (no / or \\, not . or ..)");
      // The id names the item's views folder: no path separators.
      if (!SEGMENT.test(id)) return where("episode_id", "must not contain / or \\ (it names the episode's views folder)");
      const kind = taskOf(e.instruction.task_type);
      if (!kind.ok) return skip(id, kind.reason);
      if (!e.instruction.instruction_text?.trim()) return where("instruction.instruction_text", "a goal-identification question needs the instruction text");
      const instance = e.instruction.instance_id?.[0];
      if (instance === undefined) return where("instruction.instance_id", "needs the target instance id, e.g. \"17DRP5sb8fy_region3/bed_4\"");
      let target: Planned["target"];
      if (R2O_TASKS.includes(kind.task)) {
        const room = regionOf(instance);
        if (room === null) return where("instruction.instance_id[0]", `"${instance}" names no room (no "regionN" part)`);
        target = { room };
      } else target = { object: instance };

      const tourKey = path.join(scene, hkey);
      if (!listings.has(tourKey)) listings.set(tourKey, readTourFolder(release.tours, tourKey));
      const listing = listings.get(tourKey)!;
      if (listing === null) return skip(id, "no tour folder <tours>/<scene>/<hkey>");
      if ("problem" in listing) return where("hkey", listing.problem);
      const pick = pickPriorFrames({ start_idx: e.start_idx, end_idx: e.end_idx, video_max_frame: maxFrames, sampling }, listing.names.length);
      if (!pick.ok) return where(pick.field, `${pick.message} (tour folder ${scene}/${hkey})`);

      const notesRef = path.join(scene, `${hkey}.frames.json`);
      if (!notesOf.has(tourKey)) notesOf.set(tourKey, readFrameNotes(release.annotations, notesRef, problems));
      const notes = notesOf.get(tourKey)!;
      if (notes === "invalid") return; // its problems are recorded once
      if (notes === null) return skip(id, "no frame annotations <annotations>/<scene>/<hkey>.frames.json");
      const unannotated = pick.positions.filter((p) => !notes.has(listing.names[p]!));
      if (unannotated.length > 0) {
        const names = unannotated.slice(0, 5).map((p) => listing.names[p]).join(", ");
        return problems.push({ file: path.join(release.annotations.dir, notesRef), field: "frames", message: `no entry for ${unannotated.length} frame(s) episode ${e.episode_id} shows: ${names}${unannotated.length > 5 ? ", ..." : ""}` });
      }
      const views = release.views ? findViews(release.views, id, layout) : null;
      if (views !== null && "problem" in views) return problems.push({ file: path.join(release.views!.dir, id), field: "views", message: views.problem });
      if (views === null) return skip(id, options.views ? "no initial views in <views>/<scene>_ep_<id>/" : "no initial views (pass --views)");
      planned.push({ file, episode: e, id, scene, hkey, task: kind.task, target, positions: pick.positions, listing: listing.names, folders: listing.folders, tourDir: listing.dir, views, notes });
    });
  }
  if (problems.length > 0) throw new DataError(problems);
  return writeImport(planned, skipped, total, options, { video_max_frame: maxFrames, sampling, view_layout: layout });
}

/** The release's input folders, each a root that nothing below is reached through a link. */
interface ReleaseRoots {
  tours: DataRoot;
  annotations: DataRoot;
  views: DataRoot | undefined;
}

function releaseRoots(options: ImportOptions): ReleaseRoots {
  const root = (folder: string) => new DataRoot(followUserPath(folder), { hint: IMPORT_HINT });
  const tours = root(options.tours);
  return { tours, annotations: options.annotations ? root(options.annotations) : tours, views: options.views ? root(options.views) : undefined };
}

/** A tour folder's entries in the release's order, the sub-folders among them, and its real path. */
interface TourFolder {
  dir: string;
  names: string[];
  folders: Set<string>;
}

/**
 * A tour folder `<scene>/<hkey>` of the tours root: null when absent; a problem when it, or an
 * entry in it, is a link or anything but a file or a folder (the import would copy it).
 */
function readTourFolder(tours: DataRoot, key: string): TourFolder | { problem: string } | null {
  const dir = tours.resolve(key, "dir", { what: "tour folder" });
  if (!dir.ok) return dir.missing ? null : { problem: dir.message };
  const names = releaseListing(dir.path);
  const folders = new Set<string>();
  for (const name of names) {
    const entry = lstatSync(path.join(dir.path, name));
    if (entry.isDirectory()) folders.add(name);
    else if (entry.isSymbolicLink()) return { problem: `tour folder ${key}: ${name} is a symbolic link; refused (${IMPORT_HINT})` };
    else if (!entry.isFile()) return { problem: `tour folder ${key}: ${name} is not a regular file; refused` };
  }
  return { dir: dir.path, names, folders };
}

/** A tour's frame annotations by file name; null: no such file; "invalid": its problems were recorded. */
type FrameNotes = Map<string, FrameNote> | null | "invalid";

function readFrameNotes(root: DataRoot, ref: string, problems: DataProblem[]): FrameNotes {
  const file = path.join(root.dir, ref);
  const read = root.readText(ref, { what: "annotation file" });
  if (!read.ok && read.missing) return null;
  if (!read.ok) {
    problems.push({ file, message: read.message });
    return "invalid";
  }
  const parsed = parseJson(read.text);
  if (!parsed.ok) {
    problems.push({ file, message: parsed.message });
    return "invalid";
  }
  const checked = frameNotesFile.safeParse(parsed.value);
  if (!checked.success) {
    for (const { field, message } of issueList(checked.error.issues)) problems.push({ file, ...(field ? { field } : {}), message });
    return "invalid";
  }
  return new Map(Object.entries(checked.data.frames));
}

/**
 * The four views of one episode folder `<views>/<id>/` (real paths): named files first, else the
 * released snapshot files; null when one is absent, a problem when one is refused (a link, say).
 */
function findViews(views: DataRoot, id: string, layout: ViewLayout): Record<Direction, string> | { problem: string } | null {
  const found = {} as Record<Direction, string>;
  for (const d of DIRECTIONS) {
    const candidates = [...VIEW_EXTENSIONS.map((x) => `${id}/${d}${x}`), `${id}/snapshot/0-view_${VIEW_FILES[layout][d]}.png`];
    let file: string | undefined;
    for (const ref of candidates) {
      const checked = views.resolve(ref, "image", { what: "view" });
      if (!checked.ok && !checked.missing) return { problem: checked.message };
      if (checked.ok) {
        file = checked.path;
        break;
      }
    }
    if (!file) return null;
    found[d] = file;
  }
  return found;
}

/**
 * Put the checked file `from` (a real path) at `to`: a hard link, or a copy of the bytes read
 * through one checked descriptor. A hard link is kept only when it is a regular file (link(2)
 * would link a link swapped in after the check, and the loader would then refuse it).
 */
function placeFile(from: string, to: string, copy: boolean, counts: { linked: number; copied: number }): void {
  if (existsSync(to)) return;
  if (!copy) {
    try {
      linkSync(from, to);
      if (lstatSync(to).isFile()) {
        counts.linked++;
        return;
      }
      rmSync(to);
    } catch {
      /* another file system, or links not allowed: copy */
    }
  }
  writeFileSync(to, readRegularFile(from, { maxBytes: MAX_IMAGE_FILE_BYTES }), { flag: "wx" });
  counts.copied++;
}

function writeImport(planned: Planned[], skipped: ImportSummary["skipped_episodes"], total: number, options: ImportOptions, settings: ImportSummary["options"]): ImportSummary {
  const out = path.resolve(options.out);
  if (existsSync(path.join(out, "items.jsonl"))) throw new UsageError(`${path.join(out, "items.jsonl")} already exists; import into a new folder`);
  mkdirSync(out, { recursive: true });
  const counts = { linked: 0, copied: 0 };
  // Whole tour folders, every entry (sub-folders as empty folders), so the listing the release
  // indexes is the same in the output.
  const tours = new Map<string, Planned>();
  for (const p of planned) tours.set(path.join(p.scene, p.hkey), p);
  let entries = 0;
  for (const [key, tour] of tours) {
    const to = path.join(out, DEFAULT_TOURS_ROOT, key);
    mkdirSync(to, { recursive: true });
    for (const name of tour.listing) {
      if (tour.folders.has(name)) mkdirSync(path.join(to, name), { recursive: true });
      else placeFile(path.join(tour.tourDir, name), path.join(to, name), Boolean(options.copy), counts);
      entries++;
    }
  }
  const lines: string[] = [];
  const byTask: ImportSummary["by_task"] = {};
  for (const p of planned) {
    const viewDir = path.join(out, "views", p.id);
    mkdirSync(viewDir, { recursive: true });
    const views = {} as Record<Direction, string>;
    for (const d of DIRECTIONS) {
      const name = `${d}${path.extname(p.views[d]).toLowerCase()}`;
      placeFile(p.views[d], path.join(viewDir, name), true, counts);
      views[d] = `views/${p.id}/${name}`;
    }
    const e = p.episode;
    const item = {
      id: p.id,
      task: p.task,
      scene: p.scene,
      episode_id: e.episode_id,
      instruction: e.instruction.instruction_text!,
      tour: { prior: { hkey: p.hkey, start_idx: e.start_idx, end_idx: e.end_idx, ...(settings.video_max_frame !== 50 ? { video_max_frame: settings.video_max_frame } : {}), ...(settings.sampling !== "release" ? { sampling: settings.sampling } : {}) } },
      annotations: p.positions.map((position, index) => ({ index, ...p.notes.get(p.listing[position]!)!, source_index: position })),
      target: p.target,
      initial_views: views,
      meta: { release: { file: path.basename(p.file), scene_id: e.scene_id, task_type: e.instruction.task_type, instance_id: e.instruction.instance_id, ...(e.object_category !== undefined ? { object_category: e.object_category } : {}) } },
    };
    byTask[p.task] = (byTask[p.task] ?? 0) + 1;
    lines.push(JSON.stringify(item));
  }
  writeFileSync(path.join(out, "items.jsonl"), lines.length > 0 ? `${lines.join("\n")}\n` : "");
  const shown = planned.map((p) => p.positions.length);
  const reasons: Record<string, number> = {};
  for (const s of skipped) reasons[s.reason] = (reasons[s.reason] ?? 0) + 1;
  const loaded = planned.length > 0 ? loadVcn(out) : { problems: [] };
  const summary: ImportSummary = {
    episodes: total,
    items: planned.length,
    by_task: byTask,
    skipped: reasons,
    skipped_episodes: skipped,
    tours: tours.size,
    tour_entries: entries,
    // reduce, not Math.min(...shown): a spread of one argument per episode overflows the stack on a large release.
    frames_shown: shown.length > 0 ? { min: shown.reduce((a, b) => Math.min(a, b)), max: shown.reduce((a, b) => Math.max(a, b)), mean: shown.reduce((a, b) => a + b, 0) / shown.length } : null,
    linked: counts.linked,
    copied: counts.copied,
    load_problems: loaded.problems,
    options: settings,
  };
  writeFileSync(path.join(out, "import-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
