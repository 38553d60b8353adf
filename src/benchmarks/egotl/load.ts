/**
 * Loading EgoTL-Bench items (our JSONL format, schema.ts). `--data` is a JSONL file or a folder:
 * a folder's `test.jsonl` when present, else every `*.jsonl` in it except `train*.jsonl`.
 * Media paths are relative to the JSONL file's folder. Every bad line becomes a DataProblem
 * with the file, the line and the field (`media.frames[2]`); nothing is skipped silently.
 * With `requests` (validate, run) also what a request needs (check.ts): videos are probed.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { BenchItem } from "../../core/benchmark.js";
import { DataRoot, followUserPath, type DataRootOptions } from "../../core/dataroot.js";
import { readJsonObjects } from "../../core/jsonl.js";
import { appendAll, problemCount, problemList, shownValue, type DataProblem } from "../../core/problems.js";
import { FRAME_IMAGE_EXTENSIONS, fpsIndices, frameFolderNames, uniformIndices, type FrameSource, type FrameSpan, type FrameSpec } from "../../media/frames.js";
import type { RequestOptions } from "../requests.js";
import { egotlRequestProblems } from "./check.js";
import { normalizeText } from "./parse.js";
import { EGOTL_TASKS, EgoTLItemSchema, LETTERS, type DirectionLabel, type EgoTLRow, type EgoTLTask, type MediaRow, type SpanRow } from "./schema.js";

/** The frames shown when an item gives no spec: 16 for the memory-bank video, 8 for a clip. */
export const DEFAULT_FRAME_SPECS: Record<EgoTLTask, FrameSpec> = {
  planning: { mode: "uniform", count: 16 },
  scene_action: { mode: "uniform", count: 8 },
  next_action: { mode: "uniform", count: 8 },
  action_recognition: { mode: "uniform", count: 8 },
  direction: { mode: "uniform", count: 8 },
  distance: { mode: "uniform", count: 8 },
};


export type Truth =
  | { kind: "option"; index: number }
  | { kind: "direction"; label: DirectionLabel }
  | { kind: "distance"; metres: number };

export interface EgoTLMedia {
  /** Absolute paths, as sampleFrames takes them. */
  source: FrameSource;
  spec: FrameSpec;
  /** The path as written in the row (stable across machines; shown in prompt info), with the span's frames when there is one. */
  display: string;
  /** The video's path as written in the row, when the source is a video. */
  videoShown?: string;
  /** Capture rate of image frames (timestamps), when the row gives it. */
  fps: number | null;
  /** The clip's frames inside a longer video, when the row gives a span; `spec` then applies to the span as if it were the whole clip (the sampler's span option). */
  span?: SpanRow;
  /** The spec came from --frames / --fps, not from the row or the task default. */
  overridden?: boolean;
}

export interface EgoTLItem extends BenchItem {
  task: EgoTLTask;
  /** Where the row came from (display path and 1-based line). */
  file: string;
  line: number;
  /** The source video: the bootstrap cluster (equal to `cluster`). */
  videoId: string;
  media: EgoTLMedia | null;
  /** Absolute path of the current-view image, and its path as written. */
  currentFrame: { path: string; display: string } | null;
  abstractTask: string | null;
  chainOfThought: string | null;
  /** The four candidates in the order shown (rotated copies carry rotated options). */
  options: string[] | null;
  truth: Truth;
  /** Circular evaluation: the original id and the rotation k (options shifted left by k). */
  rotation?: { base: string; k: number };
}

export interface LoadOptions extends DataRootOptions {
  tasks?: string[];
  /** Check that media files exist (default true; the training file of the frequency baseline skips it). */
  checkMedia?: boolean;
  /** Also check what requests with this prompt need (check.ts): the fields the templates fill, videos that open, frames in range. */
  requests?: RequestOptions;
  /** --frames / --fps: this spec replaces every item's and task's frame spec (a span still applies). */
  frameOverride?: FrameSpec;
}

export interface LoadResult {
  items: EgoTLItem[];
  problems: DataProblem[];
  tasks: EgoTLTask[];
}

/** `media.frames[2]` from a zod path. */
export function fieldPath(parts: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of parts) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out;
}

/** The JSONL files of a data path. */
export function findItemFiles(data: string): string[] {
  if (statSync(data).isFile()) return [data];
  const names = readdirSync(data).filter((f) => f.endsWith(".jsonl")).sort();
  if (names.includes("test.jsonl")) return [path.join(data, "test.jsonl")];
  return names.filter((f) => !/^train/i.test(f)).map((f) => path.join(data, f));
}

export function loadEgoTL(given: string, options: LoadOptions = {}): LoadResult {
  const data = followUserPath(given);
  const problems = problemList();
  if (!existsSync(data)) return { items: [], problems: [{ file: given, message: "data path does not exist" }], tasks: [] };
  const files = findItemFiles(data);
  if (files.length === 0) return { items: [], problems: [{ file: given, message: "no EgoTL JSONL files found (expected test.jsonl or *.jsonl)" }], tasks: [] };
  const root = statSync(data).isFile() ? path.dirname(path.resolve(data)) : path.resolve(data);
  const dataRoot = new DataRoot(root, options);
  const media = options.checkMedia ?? true ? dataRoot : null;
  const items: EgoTLItem[] = [];
  const seen = new Map<string, string>();
  const shownName = (file: string) => path.relative(root, path.resolve(file)) || path.basename(file);
  for (const file of files) {
    const display = shownName(file);
    const first = problems.length;
    const found = dataRoot.resolve(path.resolve(file), "file", { what: "data file" });
    if (!found.ok) {
      problems.push({ file: display, message: found.message });
      continue;
    }
    for (const { line, value } of readJsonObjects(found.path, display, problems)) {
      const item = readRow(value, path.dirname(found.path), display, line, media, problems, options.frameOverride);
      if (!item) continue;
      const previous = seen.get(item.id);
      if (previous) {
        problems.push({ file: display, line, field: "id", message: `duplicate id "${item.id}" (first at ${previous})` });
        continue;
      }
      seen.set(item.id, `${display} line ${line}`);
      items.push(item);
    }
    // JSON errors are found before the rows are checked: list this file's problems in line order.
    const mine = problems.splice(first).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    appendAll(problems, mine);
  }
  const wanted = options.tasks;
  const kept = wanted ? items.filter((i) => wanted.includes(i.task)) : items;
  const tasks = EGOTL_TASKS.filter((t) => (wanted ? wanted.includes(t) : kept.some((i) => i.task === t)));
  if (options.requests && media) {
    appendAll(problems, egotlRequestProblems(kept, options.requests));
    // Every file's problems together, in line order (the sort is stable).
    const fileOrder = new Map(files.map((f, i) => [shownName(f), i]));
    problems.sort((a, b) => (fileOrder.get(a.file) ?? -1) - (fileOrder.get(b.file) ?? -1) || (a.line ?? 0) - (b.line ?? 0));
  }
  return { items: kept, problems, tasks };
}

function zodProblems(error: z.ZodError, file: string, line: number, value: Record<string, unknown>): DataProblem[] {
  return error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    if (issue.code === "invalid_union" && field === "task") {
      const got = value["task"] === undefined ? "missing" : `got ${shownValue(value["task"])}`;
      return { file, line, field, message: `must be one of ${EGOTL_TASKS.join(", ")} (${got})` };
    }
    if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
      return { file, line, field, message: `required (${issue.message.replace(/^Invalid input: /, "").replace(/, received undefined$/, "")})` };
    }
    if (issue.code === "unrecognized_keys") {
      const fields = issue.keys.map((k) => fieldPath([...issue.path, k])).join(", ");
      return { file, line, field: fields, message: `unknown field${issue.keys.length > 1 ? "s" : ""} (put extra data under "meta")` };
    }
    return { file, line, ...(field ? { field } : {}), message: issue.message };
  });
}

/** `media`: the dataset root that media paths must resolve inside, or null to leave media unchecked. */
function readRow(value: Record<string, unknown>, baseDir: string, file: string, line: number, media: DataRoot | null, problems: DataProblem[], frameOverride?: FrameSpec): EgoTLItem | null {
  const parsed = EgoTLItemSchema.safeParse(value);
  if (!parsed.success) {
    appendAll(problems, zodProblems(parsed.error, file, line, value));
    return null;
  }
  const row = parsed.data;
  const before = problemCount(problems);
  const at = (field: string, message: string) => problems.push({ file, line, field, message });
  if (/#r\d+$/.test(row.id)) at("id", 'must not end in "#r<k>" (reserved for the rotated copies of circular evaluation)');
  const check = mediaCheck(media, baseDir, at);
  const clip = row.media ? readMedia(row.media, row.task, check, frameOverride) : null;
  // Scene-aware action shows the current view, a short clip of it (App. H.2.2), or both.
  if (row.task === "scene_action" && !row.media && !row.current_frame) at("current_frame", "scene_action needs current_frame, media (a clip of the current state), or both");
  let currentFrame: EgoTLItem["currentFrame"] = null;
  if (row.current_frame) currentFrame = { path: check.file(row.current_frame, "image", "current_frame"), display: row.current_frame };
  const options = "options" in row ? row.options : null;
  if (options) {
    const normalized = options.map(normalizeText);
    normalized.forEach((n, i) => {
      if (!n) at(`options[${i}]`, "has no letters or digits");
      else if (normalized.indexOf(n) !== i) at(`options[${i}]`, `repeats options[${normalized.indexOf(n)}] after normalisation (case, spaces, punctuation); candidates must differ`);
    });
  }
  const truth = readTruth(row, options, at);
  if (problemCount(problems) > before || !truth) return null;
  const videoId = row.video_id ?? defaultVideoId(row);
  return {
    id: row.id,
    task: row.task,
    cluster: videoId,
    file,
    line,
    videoId,
    media: clip,
    currentFrame,
    abstractTask: row.abstract_task ?? null,
    chainOfThought: row.chain_of_thought ?? null,
    options: options ? [...options] : null,
    truth,
  };
}

function readTruth(row: EgoTLRow, options: string[] | null, at: (field: string, message: string) => void): Truth | null {
  switch (row.task) {
    case "direction":
      return { kind: "direction", label: row.answer };
    case "distance":
      return { kind: "distance", metres: row.answer };
    case "planning":
    case "action_recognition":
    case "scene_action":
    case "next_action": {
      const index = goldOptionIndex(row.answer, options!);
      if (index !== null) return { kind: "option", index };
      at("answer", "must be a letter A-D or the text of one of the four options (compared after normalisation: case, spaces, punctuation)");
      return null;
    }
  }
}

/**
 * The gold option of an answer: a letter A-D names its option; any other text is mapped as App.
 * H.2.4 maps the gold action to a letter, by string normalisation (normalizeText) and exact
 * matching against the options (which the loader has checked differ after normalisation).
 */
export function goldOptionIndex(answer: string, options: readonly string[]): number | null {
  const letterIndex = (LETTERS as readonly string[]).indexOf(answer);
  if (letterIndex >= 0) return letterIndex;
  const wanted = normalizeText(answer);
  const index = wanted ? options.findIndex((o) => normalizeText(o) === wanted) : -1;
  return index >= 0 ? index : null;
}

/** Media references of one row, resolved against the row file's folder and checked (or not). */
interface MediaCheck {
  /** The absolute path of a file reference; a problem on `field` when it is refused. */
  file(ref: string, expect: "image" | "video", field: string): string;
  /** A frame folder's absolute path and frame count (null when unchecked or unusable). */
  folder(ref: string, field: string): { path: string; frames: number | null };
  at: (field: string, message: string) => void;
}

function mediaCheck(root: DataRoot | null, baseDir: string, at: (field: string, message: string) => void): MediaCheck {
  const abs = (ref: string) => path.resolve(baseDir, ref);
  return {
    at,
    file(ref, expect, field) {
      if (!root) return abs(ref);
      const resolved = root.resolve(ref, expect, { from: baseDir, what: "file", shown: abs(ref) });
      if (!resolved.ok) at(field, resolved.message);
      return resolved.ok ? resolved.path : abs(ref);
    },
    folder(ref, field) {
      if (!root) return { path: abs(ref), frames: null };
      const folder = root.frameFolder(ref, frameFolderNames, { from: baseDir, what: "folder", shown: abs(ref) });
      for (const message of folder.problems) at(field, message);
      if (folder.path !== null && folder.names.length === 0) at(field, `no frame images (${FRAME_IMAGE_EXTENSIONS.join(", ")}) in ${abs(ref)}`);
      return { path: folder.path ?? abs(ref), frames: folder.path === null ? null : folder.names.length };
    },
  };
}

function readMedia(media: MediaRow, task: EgoTLTask, check: MediaCheck, override?: FrameSpec): EgoTLMedia | null {
  const { at } = check;
  const given = (["video", "frames", "dir"] as const).filter((k) => media[k] !== undefined);
  if (given.length !== 1) {
    at("media", given.length === 0 ? "needs one of video, frames or dir" : `gives ${given.join(" and ")}; give exactly one of video, frames or dir`);
    return null;
  }
  const spec = (override ?? media.spec ?? DEFAULT_FRAME_SPECS[task]) as FrameSpec;
  const overridden = override ? { overridden: true } : {};
  const written: { videoShown?: string } = {};
  let frameCount: number | null = null;
  let source: FrameSource;
  let display: string;
  if (media.video !== undefined) {
    source = { video: check.file(media.video, "video", "media.video") };
    display = media.video;
    written.videoShown = media.video;
  } else if (media.frames !== undefined) {
    source = { frames: media.frames.map((f, i) => check.file(f, "image", `media.frames[${i}]`)) };
    display = media.frames.length === 1 ? media.frames[0]! : `${media.frames[0]} .. ${media.frames[media.frames.length - 1]} (${media.frames.length} frames)`;
    frameCount = media.frames.length;
  } else {
    const folder = check.folder(media.dir!, "media.dir");
    source = { dir: folder.path };
    display = media.dir!;
    frameCount = folder.frames;
  }
  if (media.fps !== undefined && media.video !== undefined) at("media.fps", "applies to frames and dir only (a video file carries its own rate)");
  const imageFpsMissing = spec.mode === "fps" && media.video === undefined && media.fps === undefined;
  if (imageFpsMissing) at(override ? "media.fps" : "media.spec", override ? "--fps on image frames needs media.fps (the capture rate)" : "an fps spec on image frames needs media.fps (the capture rate)");
  if (media.span) {
    const span = media.span;
    if (span.last_frame < span.first_frame) at("media.span", `last_frame ${span.last_frame} is before first_frame ${span.first_frame}`);
    else if (frameCount !== null && span.last_frame >= frameCount) at("media.span.last_frame", `frame ${span.last_frame} is beyond the ${frameCount} frames`);
    else if (!imageFpsMissing) {
      // A video's timestamps come from its probe (check.ts, the sampler); image frames need media.fps.
      const inSpan = spec.mode === "fps" && media.video !== undefined ? null : spanFrameSpec(spec, span, media.fps ?? null);
      if (inSpan && "problem" in inSpan) at(inSpan.field, inSpan.problem);
      else return { source, spec, display: `${display} frames ${span.first_frame}-${span.last_frame}`, fps: media.fps ?? null, span, ...written, ...overridden };
    }
    return null;
  }
  if (spec.mode === "indices" && frameCount !== null && frameCount > 0) {
    spec.indices.forEach((k, i) => k >= frameCount! && at(`media.spec.indices[${i}]`, `frame ${k} is beyond the ${frameCount} frames`));
  }
  return { source, spec, display, fps: media.fps ?? null, ...written, ...overridden };
}

/** The sampler's span option for an item's span. */
export function samplerSpan(span: SpanRow | undefined): { span: FrameSpan } | Record<string, never> {
  return span ? { span: { first: span.first_frame, last: span.last_frame } } : {};
}

/**
 * A frame spec applied to a span as if the span were the whole clip, written as the frame indices
 * of the longer source it lies in (the sampler's span rule, media/frames.ts, for image frames whose
 * rate is known before sampling): uniform N picks np.linspace over the span's frames, "all" every
 * frame of the span, indices count from the span's first frame, and fps needs the capture rate
 * (media.fps). The loader uses it to check image spans; a video span's fps spec is checked against
 * the video's probed timestamps (check.ts) and sampled by the sampler itself.
 */
export function spanFrameSpec(spec: FrameSpec, span: SpanRow, fps: number | null): { spec: FrameSpec } | { field: string; problem: string } {
  const first = span.first_frame;
  const length = span.last_frame - first + 1;
  const shift = (relative: number[]): { spec: FrameSpec } => ({ spec: { mode: "indices", indices: relative.map((k) => k + first) } });
  switch (spec.mode) {
    case "uniform":
      return shift(uniformIndices(length, spec.count));
    case "all":
      return shift(Array.from({ length }, (_, k) => k));
    case "indices": {
      const beyond = spec.indices.findIndex((k) => k >= length);
      if (beyond >= 0) return { field: `media.spec.indices[${beyond}]`, problem: `frame ${spec.indices[beyond]} is beyond the span's ${length} frames` };
      return shift(spec.indices);
    }
    case "fps": {
      if (fps === null) return { field: "media.spec", problem: "an fps spec on a span needs the capture rate (media.fps, frames and dir only); use a uniform or indices spec on a video span" };
      const timestamps = Array.from({ length }, (_, k) => k / fps);
      return shift(fpsIndices(timestamps, spec.fps, length / fps));
    }
  }
}

/** The source video when the row names none: the video file, the frame folder, or the frames' folder. */
function defaultVideoId(row: EgoTLRow): string {
  const media = row.media;
  if (media?.video) return media.video.replace(/\.[^./\\]+$/, "");
  if (media?.dir) return media.dir.replace(/[/\\]+$/, "");
  if (media?.frames) return path.posix.dirname(media.frames[0]!.split(path.sep).join("/"));
  if (row.current_frame) return path.posix.dirname(row.current_frame.split(path.sep).join("/"));
  return row.id;
}
