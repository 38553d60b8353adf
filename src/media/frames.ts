/**
 * Video frame sampling for the video benchmarks: pick frames from a video file, an ordered list of
 * image files, or a folder of images; return them as deterministic PNGs with full provenance, and
 * cache the result on disk.
 *
 * Sampling rules (stable; changing them changes what models see, so bump CACHE_FORMAT if you do):
 *
 * - "uniform" {count: N}, clip of T frames: indices = numpy's `np.linspace(0, T - 1, N).astype(int)`,
 *   i.e. index_i = trunc(i * ((T - 1) / (N - 1))) for i < N - 1 and index_{N-1} = T - 1 (computed
 *   in doubles exactly as numpy does, so the picks match Python reference code bit for bit). The
 *   first and last frames are always included; N = 1 gives frame 0. N >= T gives every frame once
 *   (no duplicates). Example: T = 20, N = 4 → 0, 6, 12, 19.
 * - "fps" {fps: f}: sample times t_k = k / f for k = 0, 1, ... while t_k < end of clip (last frame's
 *   timestamp + one frame duration); each t_k takes the frame on screen at t_k, i.e. the last frame
 *   whose timestamp <= t_k (1 µs tolerance). Works from the real per-frame timestamps, so variable
 *   frame rate clips are handled; a frame picked by several t_k is returned once (f above the
 *   clip's rate gives every frame). Example: 10 fps clip of 2 s, f = 2 → 0, 5, 10, 15.
 * - "indices" {indices}: exactly those 0-based frames, in the order given (duplicates kept).
 * - "all": every frame.
 *
 * - span {first, last} (options.span): the spec applies to frames first..last of the source as if
 *   they were the whole clip (uniform over the span's frames, fps from the span's first frame,
 *   indices counted from `first`); the frames returned carry their numbers and timestamps in the
 *   whole source, and the provenance the span's start time (`spanStart`), so a caller can show the
 *   frames as the clip's own. A span reaching past the source's last frame is a MediaError.
 *
 * Video frame numbers are decoded frames in presentation order, counted by ffprobe (which decodes
 * the stream) and selected by ffmpeg's `select` filter on the same count, so `index` is exact (not a
 * seek approximation). `timestamp` is that frame's presentation time in seconds relative to the first
 * frame (µs precision). For image sources `index` is the position in the sorted list and
 * `timestamp` is null unless `options.sourceFps` is given (then index / sourceFps, and "fps" works).
 *
 * Pixels: 8-bit sRGB, alpha flattened over white, EXIF orientation applied for images (ffmpeg
 * applies a video's rotation metadata); optional downscale (lanczos3) so that width*height <=
 * maxPixels, keeping the aspect ratio, never upscaling; PNG encoded with PNG_OPTIONS from png.ts, so
 * the same input gives the same bytes.
 *
 * Cache: `<cacheDir>/v<CACHE_FORMAT>/<key>/` holds the PNGs and manifest.json, key = sha256 of the
 * canonical JSON of {source sha256, spec, maxPixels, sourceFps}. Video probes are cached too (per
 * source sha256), so a new spec on a known video runs ffmpeg once and ffprobe not at all.
 */
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, readdirSync } from "node:fs";
import { FileRefusedError, openRegularFile, readImageFileAsync, type OpenedFile } from "../core/file-read.js";
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import sharp from "sharp";
import { canonicalJson } from "../core/hash.js";
import { MAX_FPS, MAX_FRAMES_PER_SPEC } from "../core/limits.js";
import { extractVideoFrames, probeVideo, roundMicro, type VideoProbe } from "./ffmpeg.js";
import { PNG_OPTIONS } from "./png.js";

export { FfmpegNotFoundError, setFfmpegPaths, toolSpawns } from "./ffmpeg.js";

export type FrameSpec =
  | { mode: "uniform"; count: number }
  | { mode: "fps"; fps: number }
  | { mode: "indices"; indices: number[] }
  | { mode: "all" };

/** Exactly one of: a video file, an ordered list of image files, a folder of images (natural file-name order). */
export interface FrameSource {
  video?: string;
  frames?: string[];
  dir?: string;
}

export interface SampledFrame {
  index: number;
  timestamp: number | null;
  png: Buffer;
  width: number;
  height: number;
}

export interface FrameProvenance {
  /** The video path, the folder path, or "<first> … <last> (N files)" for a list, as given. */
  source: string;
  /** Video: sha256 of the file. Folder/list: sha256 over each file's base name, size and bytes, in order. */
  sha256: string;
  spec: FrameSpec;
  indices: number[];
  timestamps: Array<number | null>;
  totalFrames: number;
  /** Video: avg_frame_rate; images: options.sourceFps or null. */
  fps: number | null;
  /** Output size of the (first) downscaled frame; null when no frame needed downscaling. */
  resizedTo: [number, number] | null;
  /** The span the spec was applied to, when one was given ([first, last]). */
  span?: [number, number];
  /** With a span: the timestamp of its first frame (null when the source has no timestamps). */
  spanStart?: number | null;
  cached: boolean;
}

export interface FrameSampleOptions {
  /** Downscale (keep aspect, never upscale) so that width * height <= maxPixels. */
  maxPixels?: number;
  /** Default: $SPATIALPROBE_FRAME_CACHE, else $XDG_CACHE_HOME or ~/.cache, else the OS temp dir; + /spatialprobe-frames. */
  cacheDir?: string;
  /** Image sources only: the rate the frames were captured at (gives timestamps and enables "fps"). */
  sourceFps?: number;
  /** Sample only inside these frames of the source (0-based, both included); see the module comment. */
  span?: FrameSpan;
}

/** A clip inside a longer source: its first and last frame numbers (0-based, both included). */
export interface FrameSpan {
  first: number;
  last: number;
}

export class MediaError extends Error {
  /** The file or folder the error is about (when there is one). */
  readonly file: string | undefined;
  /** The offending frame index, for out-of-range errors. */
  readonly index: number | undefined;
  constructor(message: string, details: { file?: string; index?: number } = {}) {
    super(message);
    this.name = "MediaError";
    this.file = details.file;
    this.index = details.index;
  }
}

/** Bump when sampling rules, pixel pipeline or cache layout change: old cache entries are then ignored (2: a span's start time in the manifest). */
export const CACHE_FORMAT = 2;

/** File extensions (lower case) a frame folder contributes; names starting with "." (e.g. macOS "._x.png") are skipped. */
export const FRAME_IMAGE_EXTENSIONS: readonly string[] = [".png", ".jpg", ".jpeg", ".webp"];

/**
 * The frame names of a frame folder, exactly as a { dir } source reads them: every entry but a
 * sub-folder with a FRAME_IMAGE_EXTENSIONS extension, not starting with ".", in natural order. An
 * entry that is not a regular file (a link, a FIFO, a device) is listed too, so the data checks
 * refuse it by name (core/dataroot.ts) and the sampler's read refuses it (core/file-read.ts),
 * rather than the folder silently counting one frame fewer. Synchronous so data loaders can count
 * frames; throws the fs error if the folder cannot be read.
 */
export function frameFolderNames(dir: string): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || !FRAME_IMAGE_EXTENSIONS.includes(extname(entry.name).toLowerCase())) continue;
    if (!entry.isDirectory()) names.push(entry.name);
  }
  return names.sort(naturalCompare);
}

// ---------------------------------------------------------------------------------------------
// Pure helpers (exported for reuse and tests)

/** np.linspace(0, total - 1, count).astype(int), without duplicates when count >= total. */
export function uniformIndices(total: number, count: number): number[] {
  if (total <= 0) return [];
  if (count >= total) return Array.from({ length: total }, (_, i) => i);
  if (count === 1) return [0];
  const step = (total - 1) / (count - 1);
  const out = Array.from({ length: count }, (_, i) => Math.trunc(i * step));
  out[count - 1] = total - 1;
  return out;
}

/**
 * Frames for "fps" sampling: for t_k = k / fps while t_k < endTime, the last frame with
 * timestamp <= t_k (+1 µs), each frame once. `timestamps` must be non-decreasing.
 *
 * Progress is guaranteed whatever `fps` is: every round moves to a strictly later sample time, and
 * after 2n + 2 rounds (or once k + 1 no longer changes k, past 2^53 samples: an fps of 1e300 once
 * made this loop stand still) each round steps to the next frame's own time, which is then a sample
 * time too (samples closer than any two timestamps), so the loop ends within 3n + 2 rounds.
 */
export function fpsIndices(timestamps: readonly number[], fps: number, endTime: number): number[] {
  if (!(fps > 0) || !Number.isFinite(fps)) throw new RangeError(`fps must be a positive finite number (got ${fps})`);
  const n = timestamps.length;
  const out: number[] = [];
  if (n === 0) return out;
  const eps = 1e-6;
  const stepwiseAfter = 2 * n + 2;
  let ptr = 0;
  let k = 0;
  let t = 0;
  for (let round = 0; ; round++) {
    if (k > 0 && t >= endTime - eps) break;
    while (ptr + 1 < n && timestamps[ptr + 1]! <= t + eps) ptr += 1;
    if (out[out.length - 1] !== ptr) out.push(ptr);
    if (ptr + 1 >= n) break; // every later t_k shows the last frame too
    // Jump to the first t_k that can reach the next frame (keeps the loop O(frames) for huge fps).
    const next = Math.max(k + 1, Math.ceil((timestamps[ptr + 1]! - eps) * fps));
    const later = next / fps;
    if (round < stepwiseAfter && next > k && later > t) {
      k = next;
      t = later;
    } else {
      k = Math.max(k, 1);
      t = timestamps[ptr + 1]!;
    }
  }
  return out;
}

/** Largest size within maxPixels keeping the aspect ratio (floor of both sides), or null if it already fits. */
export function fitWithin(width: number, height: number, maxPixels: number): [number, number] | null {
  if (width * height <= maxPixels) return null;
  const s = Math.sqrt(maxPixels / (width * height));
  let w = Math.max(1, Math.floor(width * s));
  let h = Math.max(1, Math.floor(height * s));
  if (h === 1) w = Math.max(1, Math.min(w, Math.floor(maxPixels)));
  if (w === 1) h = Math.max(1, Math.min(h, Math.floor(maxPixels)));
  while (w * h > maxPixels && (w > 1 || h > 1)) {
    if ((w > 1 && w / width >= h / height) || h === 1) w -= 1;
    else h -= 1;
  }
  return [w, h];
}

/** Natural file-name order: digit runs compare as numbers (frame_2 < frame_10), the rest by code unit. */
export function naturalCompare(a: string, b: string): number {
  const ta = a.match(/\d+|\D+/g) ?? [];
  const tb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i]!;
    const y = tb[i]!;
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = x.replace(/^0+(?=\d)/, "");
      const ny = y.replace(/^0+(?=\d)/, "");
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      if (x.length !== y.length) return x.length - y.length; // "01" vs "1": fewer zeros first
      continue;
    }
    return x < y ? -1 : 1;
  }
  if (ta.length !== tb.length) return ta.length - tb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Keep at most `max` items spread evenly: positions round(i * (n - 1) / (max - 1)) for i < max
 * (halves round up, exact integer arithmetic), so the first and last items are always kept when
 * max >= 2; max = 1 keeps the first. Example: n = 12, max = 8 → positions 0, 2, 3, 5, 6, 8, 9, 11.
 * `note` is e.g. "12 frames thinned to 8 (provider limit)", or null when nothing was dropped.
 */
export function thinEvenly<T>(items: readonly T[], max: number): { kept: T[]; keptPositions: number[]; note: string | null } {
  const n = items.length;
  if (Number.isNaN(max) || max < 0 || (Number.isFinite(max) && !Number.isInteger(max))) {
    throw new RangeError(`thinEvenly: max must be a non-negative integer (got ${max})`);
  }
  if (n <= max) return { kept: items.slice(), keptPositions: items.map((_, i) => i), note: null };
  let positions: number[];
  if (max === 0) positions = [];
  else if (max === 1) positions = [0];
  else {
    const span = n - 1;
    const div = max - 1;
    positions = Array.from({ length: max }, (_, i) => Math.floor((2 * i * span + div) / (2 * div)));
  }
  return {
    kept: positions.map((p) => items[p]!),
    keptPositions: positions,
    note: `${n} frames thinned to ${positions.length} (provider limit)`,
  };
}

// ---------------------------------------------------------------------------------------------
// Sources

type ResolvedSource =
  | { kind: "video"; file: string; label: string; opened: OpenedFile }
  | { kind: "images"; files: string[]; label: string; where: string };

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw new MediaError(`cannot read ${path}: ${(e as Error).message}`, { file: path });
  }
}

async function requireFile(path: string, what: string): Promise<void> {
  const st = await statOrNull(path);
  if (!st) throw new MediaError(`missing file: ${path}`, { file: path });
  if (st.isDirectory()) throw new MediaError(`${what} ${path} is a folder, not a file`, { file: path });
  if (st.size === 0) throw new MediaError(`empty file (0 bytes): ${path}`, { file: path });
}

function listLabel(files: readonly string[]): string {
  if (files.length === 1) return files[0]!;
  return `${files[0]} … ${files[files.length - 1]} (${files.length} files)`;
}

async function resolveSource(source: FrameSource): Promise<ResolvedSource> {
  const given = (["video", "frames", "dir"] as const).filter((k) => source[k] !== undefined);
  if (given.length !== 1) {
    throw new TypeError(`FrameSource needs exactly one of video, frames, dir (got ${given.length ? given.join(", ") : "none"})`);
  }
  if (source.video !== undefined) {
    await requireFile(source.video, "video");
    return { kind: "video", file: source.video, label: source.video, opened: openVideo(source.video) };
  }
  if (source.frames !== undefined) {
    if (source.frames.length === 0) throw new MediaError("empty frame list (0 frames)", {});
    for (const f of source.frames) await requireFile(f, "frame");
    return { kind: "images", files: source.frames.slice(), label: listLabel(source.frames), where: listLabel(source.frames) };
  }
  const dir = source.dir!;
  const st = await statOrNull(dir);
  if (!st) throw new MediaError(`missing folder: ${dir}`, { file: dir });
  if (!st.isDirectory()) throw new MediaError(`not a folder: ${dir}`, { file: dir });
  let names: string[];
  try {
    names = frameFolderNames(dir);
  } catch (e) {
    throw new MediaError(`cannot read folder ${dir}: ${(e as Error).message}`, { file: dir });
  }
  if (names.length === 0) throw new MediaError(`empty folder (0 frames: no .png/.jpg/.jpeg/.webp files): ${dir}`, { file: dir });
  return { kind: "images", files: names.map((n) => join(dir, n)), label: dir, where: dir };
}

/**
 * A video opened once, without following links (core/file-read.ts): its bytes are hashed from this
 * descriptor, and ffprobe and ffmpeg read this same open file through its /proc path, so the file
 * swapped after a check is never the one decoded.
 */
function openVideo(file: string): OpenedFile {
  try {
    return openRegularFile(file);
  } catch (e) {
    throw new MediaError(e instanceof FileRefusedError ? `unreadable video: ${file} ${e.reason}` : `unreadable file: ${file}: ${(e as Error).message}`, { file });
  }
}

async function hashOpened(video: OpenedFile): Promise<string> {
  const h = createHash("sha256");
  try {
    for await (const chunk of createReadStream("", { fd: video.fd, autoClose: false, start: 0 })) h.update(chunk as Buffer);
  } catch (e) {
    throw new MediaError(`unreadable file: ${video.path}: ${(e as Error).message}`, { file: video.path });
  }
  return h.digest("hex");
}

async function readImage(file: string): Promise<Buffer> {
  try {
    return await readImageFileAsync(file);
  } catch (e) {
    throw new MediaError(e instanceof FileRefusedError ? `unreadable file: ${file} ${e.reason}` : `unreadable file: ${file}: ${(e as Error).message}`, { file });
  }
}

/**
 * Each image of a list read once: the sha256 over, per file in order, base name, NUL, byte length,
 * NUL, bytes; and the bytes of the files `wanted` (the picks), kept for decoding.
 */
async function readImageList(files: readonly string[], wanted: ReadonlySet<number>): Promise<{ sha: string; bytes: Map<number, Buffer> }> {
  const h = createHash("sha256");
  const bytes = new Map<number, Buffer>();
  for (const [i, f] of files.entries()) {
    const data = await readImage(f);
    h.update(`${basename(f)}\0${data.length}\0`);
    h.update(data);
    if (wanted.has(i)) bytes.set(i, data);
  }
  return { sha: h.digest("hex"), bytes };
}

// ---------------------------------------------------------------------------------------------
// Spec and options

function normalizeSpec(spec: FrameSpec): FrameSpec {
  switch (spec?.mode) {
    case "uniform":
      if (!Number.isInteger(spec.count) || spec.count < 1) throw new RangeError(`uniform frame count must be a positive integer (got ${spec.count})`);
      return { mode: "uniform", count: spec.count };
    case "fps":
      if (typeof spec.fps !== "number" || !(spec.fps > 0 && spec.fps <= MAX_FPS)) throw new RangeError(`fps must be above 0 and at most ${MAX_FPS} (got ${spec.fps})`);
      return { mode: "fps", fps: spec.fps };
    case "indices":
      if (!Array.isArray(spec.indices)) throw new RangeError("indices must be an array of frame numbers");
      // Each pick is a decoded PNG: a list this long is a mistake, not a clip (core/limits.ts).
      if (spec.indices.length > MAX_FRAMES_PER_SPEC) throw new RangeError(`indices must list at most ${MAX_FRAMES_PER_SPEC} frames (got ${spec.indices.length})`);
      for (const i of spec.indices) if (!Number.isInteger(i)) throw new RangeError(`frame indices must be integers (got ${i})`);
      return { mode: "indices", indices: spec.indices.slice() };
    case "all":
      return { mode: "all" };
    default:
      throw new RangeError(`unknown frame spec mode: ${JSON.stringify((spec as { mode?: unknown })?.mode)}`);
  }
}

export function defaultCacheDir(): string {
  if (process.env.SPATIALPROBE_FRAME_CACHE) return process.env.SPATIALPROBE_FRAME_CACHE;
  let base = process.env.XDG_CACHE_HOME;
  if (!base) {
    try {
      const home = homedir();
      if (home) base = join(home, ".cache");
    } catch {
      /* no home directory */
    }
  }
  return join(base || tmpdir(), "spatialprobe-frames");
}

/** The frames a spec picks from a clip, or why it cannot: index positions out of range, or no timestamps for "fps". */
export type IndexPlan =
  | { ok: true; indices: number[] }
  | { ok: false; why: "out-of-range"; positions: number[] }
  | { ok: false; why: "no-timestamps" };

/**
 * The frame numbers a spec picks from a clip of `total` frames (timestamps needed for "fps";
 * `frameDuration` 1 / fps when known, else the mean step between timestamps), without throwing:
 * the sampler and the data checks (video-check.ts) word the failures their own way.
 */
export function planFrameIndices(spec: FrameSpec, total: number, timestamps: Array<number | null>, frameDuration: number | null): IndexPlan {
  switch (spec.mode) {
    case "uniform":
      return { ok: true, indices: uniformIndices(total, spec.count) };
    case "all":
      return { ok: true, indices: Array.from({ length: total }, (_, i) => i) };
    case "indices": {
      const positions = spec.indices.flatMap((i, position) => (i < 0 || i >= total ? [position] : []));
      return positions.length > 0 ? { ok: false, why: "out-of-range", positions } : { ok: true, indices: spec.indices.slice() };
    }
    case "fps": {
      if (total === 0 || timestamps.some((t) => t === null)) return { ok: false, why: "no-timestamps" };
      const ts = timestamps as number[];
      const last = ts[ts.length - 1]!;
      const step = frameDuration ?? (ts.length > 1 ? (last - ts[0]!) / (ts.length - 1) : 0);
      return { ok: true, indices: fpsIndices(ts, spec.fps, last + step) };
    }
  }
}

/**
 * planFrameIndices applied to frames span.first..span.last of a clip of `total` frames, as if
 * they were the whole clip; the picks are numbered in the whole clip. Timestamps are taken
 * relative to the span's first frame (so fps sampling starts there). `outside`: the span does not
 * lie inside the clip.
 */
export function planSpanIndices(spec: FrameSpec, total: number, timestamps: Array<number | null>, frameDuration: number | null, span: FrameSpan): IndexPlan | { ok: false; why: "outside" } {
  if (!(Number.isInteger(span.first) && Number.isInteger(span.last) && span.first >= 0 && span.first <= span.last && span.last < total)) return { ok: false, why: "outside" };
  const start = timestamps[span.first] ?? null;
  const inside = timestamps.slice(span.first, span.last + 1).map((t) => (t === null || start === null ? null : roundMicro(t - start)));
  const plan = planFrameIndices(spec, span.last - span.first + 1, inside, frameDuration);
  return plan.ok ? { ok: true, indices: plan.indices.map((i) => i + span.first) } : plan;
}

/** planFrameIndices for the sampler: a spec that cannot be sampled is a MediaError naming the source. */
function planIndices(spec: FrameSpec, total: number, timestamps: Array<number | null>, frameDuration: number | null, where: string, span?: FrameSpan): number[] {
  const plan = span ? planSpanIndices(spec, total, timestamps, frameDuration, span) : planFrameIndices(spec, total, timestamps, frameDuration);
  if (plan.ok) return plan.indices;
  if (plan.why === "outside") throw new MediaError(`span of frames ${span!.first}..${span!.last} does not lie inside ${where} (${total} frames: 0..${total - 1})`, { file: where, index: span!.last });
  if (plan.why === "no-timestamps") {
    throw new MediaError(`fps sampling needs frame timestamps, and ${where} has none (for image sources pass options.sourceFps)`, { file: where });
  }
  const i = (spec as { indices: number[] }).indices[plan.positions[0]!]!;
  if (span) throw new MediaError(`frame index ${i} is out of range for the span ${span.first}..${span.last} of ${where} (${span.last - span.first + 1} frames: 0..${span.last - span.first})`, { file: where, index: i });
  throw new MediaError(`frame index ${i} is out of range for ${where} (${total} frames: 0..${total - 1})`, { file: where, index: i });
}

// ---------------------------------------------------------------------------------------------
// Pixels

interface EncodedFrame {
  png: Buffer;
  width: number;
  height: number;
  resized: boolean;
}

async function toOutputPng(input: Buffer, maxPixels: number | undefined, file: string): Promise<EncodedFrame> {
  let decoded: { data: Buffer; info: sharp.OutputInfo };
  try {
    decoded = await sharp(input)
      .rotate()
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .removeAlpha()
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch (e) {
    throw new MediaError(`unreadable image: ${file}: ${(e as Error).message}`, { file });
  }
  const { width, height, channels } = decoded.info;
  let img = sharp(decoded.data, { raw: { width, height, channels } });
  const fit = maxPixels === undefined ? null : fitWithin(width, height, maxPixels);
  if (fit) img = img.resize(fit[0], fit[1], { fit: "fill", kernel: "lanczos3" });
  const { data, info } = await img.png(PNG_OPTIONS).toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height, resized: fit !== null };
}

// ---------------------------------------------------------------------------------------------
// Cache

interface ManifestFrame {
  index: number;
  timestamp: number | null;
  width: number;
  height: number;
  file: string;
  sha256: string;
}

interface Manifest {
  format: number;
  key: string;
  provenance: Omit<FrameProvenance, "source" | "cached">;
  frames: ManifestFrame[];
}

const bufferSha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

async function readCache(entryDir: string, key: string): Promise<{ frames: SampledFrame[]; provenance: Manifest["provenance"] } | null> {
  try {
    const manifest = JSON.parse(await readFile(join(entryDir, "manifest.json"), "utf8")) as Manifest;
    if (manifest.format !== CACHE_FORMAT || manifest.key !== key || !Array.isArray(manifest.frames)) return null;
    const frames: SampledFrame[] = [];
    for (const f of manifest.frames) {
      const png = await readFile(join(entryDir, basename(f.file)));
      if (bufferSha(png) !== f.sha256) return null;
      frames.push({ index: f.index, timestamp: f.timestamp, png, width: f.width, height: f.height });
    }
    return { frames, provenance: manifest.provenance };
  } catch {
    return null;
  }
}

/** Write into a private temp folder, then rename into place (a concurrent writer of the same key may win). */
async function writeEntry(entryDir: string, files: Array<{ name: string; data: Buffer | string }>): Promise<void> {
  const parent = dirname(entryDir);
  try {
    await mkdir(parent, { recursive: true });
    const tmp = `${entryDir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    await mkdir(tmp);
    try {
      for (const f of files) await writeFile(join(tmp, f.name), f.data);
      await rm(entryDir, { recursive: true, force: true });
      await rename(tmp, entryDir);
    } catch {
      await rm(tmp, { recursive: true, force: true });
    }
  } catch {
    // The cache is an optimisation: an unwritable cache folder must not fail sampling.
  }
}

async function writeCache(entryDir: string, key: string, provenance: Manifest["provenance"], frames: SampledFrame[]): Promise<void> {
  const files: Array<{ name: string; data: Buffer | string }> = [];
  const manifestFrames: ManifestFrame[] = frames.map((f, i) => {
    const name = `${String(i).padStart(6, "0")}.png`;
    files.push({ name, data: f.png });
    return { index: f.index, timestamp: f.timestamp, width: f.width, height: f.height, file: name, sha256: bufferSha(f.png) };
  });
  const manifest: Manifest = { format: CACHE_FORMAT, key, provenance, frames: manifestFrames };
  files.push({ name: "manifest.json", data: `${JSON.stringify(manifest, null, 1)}\n` });
  await writeEntry(entryDir, files);
}

/** The probe of the video open at `input` (its /proc path), cached by content; `file` names it in messages. */
async function cachedProbe(cacheRoot: string, sha: string, input: string, file: string): Promise<VideoProbe> {
  const path = join(cacheRoot, `v${CACHE_FORMAT}`, "probe", `${sha}.json`);
  try {
    const probe = JSON.parse(await readFile(path, "utf8")) as VideoProbe;
    if (Number.isInteger(probe.frameCount) && Array.isArray(probe.timestamps) && probe.timestamps.length === probe.frameCount) return probe;
  } catch {
    /* not cached */
  }
  const outcome = await probeVideo(input);
  if (!outcome.ok) throw new MediaError(`unreadable video: ${file}: ffprobe failed: ${outcome.reason}`, { file });
  if (outcome.probe.frameCount > 0) {
    try {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
      await writeFile(tmp, JSON.stringify(outcome.probe));
      await rename(tmp, path);
    } catch {
      /* cache is optional */
    }
  }
  return outcome.probe;
}

// ---------------------------------------------------------------------------------------------
// The entry point

/** Sample frames from a video, a list of images or a folder of images (see the module comment for the rules). */
export async function sampleFrames(
  source: FrameSource,
  spec: FrameSpec,
  options: FrameSampleOptions = {},
): Promise<{ frames: SampledFrame[]; provenance: FrameProvenance }> {
  const normSpec = normalizeSpec(spec);
  const { maxPixels, sourceFps } = options;
  const span = options.span ? { first: options.span.first, last: options.span.last } : undefined;
  if (maxPixels !== undefined && !(typeof maxPixels === "number" && maxPixels >= 1 && Number.isFinite(maxPixels))) {
    throw new RangeError(`maxPixels must be a number >= 1 (got ${maxPixels})`);
  }
  if (sourceFps !== undefined && !(typeof sourceFps === "number" && sourceFps > 0 && sourceFps <= MAX_FPS)) {
    throw new RangeError(`sourceFps must be above 0 and at most ${MAX_FPS} (got ${sourceFps})`);
  }
  const src = await resolveSource(source);
  try {
    return await sampleResolved(src, normSpec, { ...options, ...(span ? { span } : {}) });
  } finally {
    if (src.kind === "video") src.opened.close();
  }
}

async function sampleResolved(
  src: ResolvedSource,
  normSpec: FrameSpec,
  options: FrameSampleOptions,
): Promise<{ frames: SampledFrame[]; provenance: FrameProvenance }> {
  const { maxPixels, sourceFps, span } = options;
  const cacheRoot = options.cacheDir ?? defaultCacheDir();
  // An image list's picks need only its length, so each file is read once: hashed, and kept when picked.
  const imageTimestamps = src.kind === "images" ? src.files.map((_, i) => (sourceFps ? roundMicro(i / sourceFps) : null)) : [];
  const imagePicks = src.kind === "images" ? planIndices(normSpec, src.files.length, imageTimestamps, sourceFps ? 1 / sourceFps : null, src.where, span) : [];
  const images = src.kind === "images" ? await readImageList(src.files, new Set(imagePicks)) : null;
  const sha = src.kind === "video" ? await hashOpened(src.opened) : images!.sha;

  const key = createHash("sha256")
    .update(
      canonicalJson({
        format: CACHE_FORMAT,
        source: sha,
        spec: normSpec,
        maxPixels: maxPixels ?? null,
        sourceFps: src.kind === "images" ? (sourceFps ?? null) : null,
        // Only when given, so entries without a span keep their keys.
        ...(span ? { span: [span.first, span.last] } : {}),
      }),
    )
    .digest("hex");
  const entryDir = join(cacheRoot, `v${CACHE_FORMAT}`, key);
  const hit = await readCache(entryDir, key);
  if (hit) return { frames: hit.frames, provenance: { ...hit.provenance, source: src.label, cached: true } };

  // Another call of this process is making this entry (items sharing a clip and a spec, prompts
  // built side by side): wait for it instead of decoding the video again. When it fails, this call
  // makes the entry on its own, so an error names this call's source.
  const running = MAKING.get(entryDir);
  const made = running ? await running : null;
  if (made) return { frames: made.frames.map((f) => ({ ...f, png: Buffer.from(f.png) })), provenance: { ...made.provenance, source: src.label, cached: true } };
  const job = makeEntry({ src, normSpec, maxPixels, sourceFps, span, cacheRoot, sha, images, imageTimestamps, imagePicks, key, entryDir });
  if (!running) {
    MAKING.set(entryDir, job.then((m) => m, () => null));
    const done = () => MAKING.delete(entryDir);
    job.then(done, done);
  }
  const { frames, provenance } = await job;
  return { frames, provenance: { source: src.label, ...provenance, cached: false } };
}

/** A cache entry's frames and provenance, as makeEntry makes them. */
type Made = { frames: SampledFrame[]; provenance: Manifest["provenance"] };

/** Entries being made by this process, by entry folder (null: the making failed). */
const MAKING = new Map<string, Promise<Made | null>>();

/** The frames of a cache entry that is not there: extracted (video) or read (images), encoded, and written to the cache. */
async function makeEntry(input: {
  src: ResolvedSource;
  normSpec: FrameSpec;
  maxPixels: number | undefined;
  sourceFps: number | undefined;
  span: FrameSpan | undefined;
  cacheRoot: string;
  sha: string;
  images: Awaited<ReturnType<typeof readImageList>> | null;
  imageTimestamps: Array<number | null>;
  imagePicks: number[];
  key: string;
  entryDir: string;
}): Promise<Made> {
  const { src, normSpec, maxPixels, sourceFps, span, cacheRoot, sha, images, imageTimestamps, imagePicks, key, entryDir } = input;
  let frames: SampledFrame[];
  let totalFrames: number;
  let fps: number | null;
  let resizedTo: [number, number] | null = null;
  let sourceTimestamps: Array<number | null>;
  const noteResize = (f: EncodedFrame) => {
    if (f.resized && !resizedTo) resizedTo = [f.width, f.height];
  };

  if (src.kind === "video") {
    const video = src.opened;
    const probe = await cachedProbe(cacheRoot, sha, video.procPath, src.file);
    if (probe.frameCount === 0) throw new MediaError(`video has no frames (0 frames): ${src.file}`, { file: src.file });
    totalFrames = probe.frameCount;
    fps = probe.fps;
    sourceTimestamps = probe.timestamps;
    const indices = planIndices(normSpec, totalFrames, probe.timestamps, fps ? 1 / fps : null, src.file, span);
    const unique = [...new Set(indices)].sort((a, b) => a - b);
    const work = await mkdtemp(join(tmpdir(), "spatialprobe-ffmpeg-"));
    try {
      const outcome = await extractVideoFrames(video.procPath, normSpec.mode === "all" && !span ? null : unique, work);
      if (!outcome.ok) throw new MediaError(`unreadable video: ${src.file}: ffmpeg failed: ${outcome.reason}`, { file: src.file });
      if (outcome.files.length !== unique.length) {
        const missing = unique[Math.min(outcome.files.length, unique.length - 1)];
        throw new MediaError(
          `ffmpeg returned ${outcome.files.length} of ${unique.length} requested frames from ${src.file} (first missing: index ${missing}; ffprobe counted ${totalFrames})`,
          { file: src.file, ...(missing !== undefined ? { index: missing } : {}) },
        );
      }
      const byIndex = new Map<number, EncodedFrame>();
      for (let i = 0; i < unique.length; i++) {
        const encoded = await toOutputPng(await readFile(outcome.files[i]!), maxPixels, `${src.file} frame ${unique[i]}`);
        noteResize(encoded);
        byIndex.set(unique[i]!, encoded);
      }
      frames = indices.map((index) => {
        const e = byIndex.get(index)!;
        return { index, timestamp: probe.timestamps[index] ?? null, png: e.png, width: e.width, height: e.height };
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  } else {
    totalFrames = src.files.length;
    fps = sourceFps ?? null;
    const timestamps = imageTimestamps;
    sourceTimestamps = timestamps;
    const indices = imagePicks;
    const byIndex = new Map<number, EncodedFrame>();
    for (const index of new Set(indices)) {
      const encoded = await toOutputPng(images!.bytes.get(index)!, maxPixels, src.files[index]!);
      noteResize(encoded);
      byIndex.set(index, encoded);
    }
    frames = indices.map((index) => {
      const e = byIndex.get(index)!;
      return { index, timestamp: timestamps[index] ?? null, png: e.png, width: e.width, height: e.height };
    });
  }

  const provenance: Manifest["provenance"] = {
    sha256: sha,
    spec: normSpec,
    indices: frames.map((f) => f.index),
    timestamps: frames.map((f) => f.timestamp),
    totalFrames,
    fps,
    resizedTo,
    ...(span ? { span: [span.first, span.last] as [number, number], spanStart: sourceTimestamps[span.first] ?? null } : {}),
  };
  await writeCache(entryDir, key, provenance, frames);
  return { frames, provenance };
}
