/**
 * ffmpeg / ffprobe plumbing for video frame sampling (see frames.ts for the public API).
 *
 * - Both tools are spawned with child_process.execFile (no shell); exit codes are checked.
 * - The binaries are looked up on PATH as "ffmpeg" / "ffprobe", or taken from the environment
 *   variables SPATIALPROBE_FFMPEG / SPATIALPROBE_FFPROBE, or set with setFfmpegPaths().
 * - A missing binary gives FfmpegNotFoundError ("ffmpeg not found: install Debian's ffmpeg ..."),
 *   deliberately NOT a MediaError: it is a setup problem for the whole run, not one bad file.
 * - toolSpawns counts every spawn, so tests can check that a cache hit runs neither tool.
 */
import { execFile, spawnSync } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

export interface FfmpegPaths {
  ffmpeg: string;
  ffprobe: string;
}

const paths: FfmpegPaths = {
  ffmpeg: process.env.SPATIALPROBE_FFMPEG || "ffmpeg",
  ffprobe: process.env.SPATIALPROBE_FFPROBE || "ffprobe",
};

/** Override the ffmpeg / ffprobe executables (e.g. tests); returns the previous setting. */
export function setFfmpegPaths(update: Partial<FfmpegPaths>): FfmpegPaths {
  const previous = { ...paths };
  if (update.ffmpeg !== undefined) paths.ffmpeg = update.ffmpeg;
  if (update.ffprobe !== undefined) paths.ffprobe = update.ffprobe;
  return previous;
}

export function getFfmpegPaths(): FfmpegPaths {
  return { ...paths };
}

/** How many times each tool was spawned in this process (successful or not). */
export const toolSpawns: { ffmpeg: number; ffprobe: number } = { ffmpeg: 0, ffprobe: 0 };

export class FfmpegNotFoundError extends Error {
  constructor(
    readonly tool: "ffmpeg" | "ffprobe",
    readonly executable: string,
  ) {
    super(
      `${tool} not found: install Debian's ffmpeg (apt-get install ffmpeg; it provides ffmpeg and ffprobe)` +
        ` or point SPATIALPROBE_${tool.toUpperCase()} at the executable (tried "${executable}")`,
    );
    this.name = "FfmpegNotFoundError";
  }
}

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

const MAX_BUFFER = 1024 * 1024 * 1024;

/** Run ffmpeg or ffprobe; resolves with the exit code and output (non-zero codes are the caller's to judge). */
export function runTool(tool: "ffmpeg" | "ffprobe", args: readonly string[]): Promise<ToolResult> {
  const executable = paths[tool];
  toolSpawns[tool] += 1;
  return new Promise((resolve, reject) => {
    execFile(executable, args, { maxBuffer: MAX_BUFFER, encoding: "utf8", windowsHide: true }, (error, stdout, stderr) => {
      if (!error) {
        resolve({ code: 0, stdout, stderr });
        return;
      }
      const err = error as NodeJS.ErrnoException & { code?: string | number | null; signal?: string | null };
      if (err.code === "ENOENT" || err.code === "EACCES") {
        reject(new FfmpegNotFoundError(tool, executable));
        return;
      }
      if (typeof err.code === "number") {
        resolve({ code: err.code, stdout, stderr });
        return;
      }
      if (err.signal) {
        resolve({ code: -1, stdout, stderr: `${stderr}\nkilled by ${err.signal}` });
        return;
      }
      reject(new Error(`${tool}: ${err.message}`));
    });
  });
}

/** "file:" + absolute path, so names with a colon or a leading dash are never read as protocols or options. */
export function inputUrl(file: string): string {
  return `file:${resolve(file)}`;
}

/** The last few lines of a tool's stderr, for error messages. */
export function stderrTail(stderr: string, lines = 4): string {
  const kept = stderr.trim().split(/\r?\n/).filter(Boolean).slice(-lines).join(" | ");
  return kept || "(no output)";
}

/** What frames.ts needs to know about a video's first (non-cover-art) video stream. */
export interface VideoProbe {
  /** Decoded frames (ffprobe decodes the whole stream, as ffmpeg will). */
  frameCount: number;
  /** avg_frame_rate (r_frame_rate if that is 0/0), or null when neither is known. */
  fps: number | null;
  width: number;
  height: number;
  /** Per decoded frame, seconds since the first frame's timestamp (µs precision), null if unknown. */
  timestamps: Array<number | null>;
}

export type ProbeOutcome = { ok: true; probe: VideoProbe } | { ok: false; reason: string };

function parseRate(rate: unknown): number | null {
  if (typeof rate !== "string") return null;
  const m = /^(\d+)(?:\/(\d+))?$/.exec(rate.trim());
  if (!m) return null;
  const num = Number(m[1]);
  const den = m[2] === undefined ? 1 : Number(m[2]);
  if (!(num > 0) || !(den > 0)) return null;
  return num / den;
}

function parseSeconds(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export const roundMicro = (seconds: number): number => Math.round(seconds * 1e6) / 1e6 + 0;

/**
 * The ffprobe arguments of a probe: stream geometry, rate and declared frame count, and every
 * decoded frame's presentation timestamp (which also gives the exact frame count, like
 * `-count_frames`, in the same decoding pass). Stream specifier "V:0": the first video stream
 * that is not an attached picture (cover art).
 */
function probeArgs(file: string): string[] {
  return [
    "-v", "error",
    "-select_streams", "V:0",
    "-show_entries", "stream=codec_type,width,height,avg_frame_rate,r_frame_rate,nb_frames:frame=best_effort_timestamp_time",
    "-of", "json=c=1",
    "-i", inputUrl(file),
  ];
}

/** A probe read from ffprobe's JSON, with the frame count the container declares (null when it declares none). */
type ProbeReading = { ok: true; probe: VideoProbe; declaredFrames: number | null } | { ok: false; reason: string };

function readProbeJson(stdout: string): ProbeReading {
  let doc: { streams?: Array<Record<string, unknown>>; frames?: Array<Record<string, unknown>> };
  try {
    doc = JSON.parse(stdout) as typeof doc;
  } catch {
    return { ok: false, reason: "ffprobe printed unreadable JSON" };
  }
  const stream = doc.streams?.[0];
  const frames = doc.frames ?? [];
  if (!stream) return { ok: true, probe: { frameCount: 0, fps: null, width: 0, height: 0, timestamps: [] }, declaredFrames: null };
  const fps = parseRate(stream.avg_frame_rate) ?? parseRate(stream.r_frame_rate);
  const raw = frames.map((f) => parseSeconds(f.best_effort_timestamp_time));
  const first = raw.find((t): t is number => t !== null);
  const timestamps = raw.map((t, i) => {
    if (t !== null && first !== undefined) return roundMicro(t - first);
    return fps ? roundMicro(i / fps) : null;
  });
  const declared = Number(stream.nb_frames);
  return {
    ok: true,
    probe: {
      frameCount: frames.length,
      fps,
      width: Number(stream.width) || 0,
      height: Number(stream.height) || 0,
      timestamps,
    },
    declaredFrames: Number.isInteger(declared) && declared > 0 ? declared : null,
  };
}

/** Probe a video (see probeArgs): what the frame sampler plans its picks from. */
export async function probeVideo(file: string): Promise<ProbeOutcome> {
  const result = await runTool("ffprobe", probeArgs(file));
  if (result.code !== 0) return { ok: false, reason: stderrTail(result.stderr) };
  const reading = readProbeJson(result.stdout);
  return reading.ok ? { ok: true, probe: reading.probe } : reading;
}

/** A synchronous probe for data loaders: the same reading, plus the container's declared count and ffprobe's complaints. */
export type CheckedProbe =
  | { ok: true; probe: VideoProbe; declaredFrames: number | null; complaints: string }
  | { ok: false; reason: string };

/**
 * A tool's error lines made fit for a problem message: without the "[demuxer @ 0x...]" prefixes
 * (the addresses change every run) or the input's own path; each distinct line once, the last
 * `lines` of them, in order.
 */
export function toolComplaints(stderr: string, file: string, lines = 3): string {
  const url = `${inputUrl(file)}: `;
  const kept = new Set<string>();
  for (const raw of stderr.split(/\r?\n/)) {
    let line = raw.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, "").trim();
    if (line.startsWith(url)) line = line.slice(url.length);
    line = line.replace(/\.$/, "");
    if (line) {
      kept.delete(line);
      kept.add(line);
    }
  }
  return [...kept].slice(-lines).join("; ");
}

/**
 * Probe a video synchronously (data loaders are synchronous): one ffprobe run, the same arguments
 * and reading as probeVideo. Throws FfmpegNotFoundError when ffprobe is missing.
 */
export function probeVideoSync(file: string): CheckedProbe {
  const executable = paths.ffprobe;
  toolSpawns.ffprobe += 1;
  const result = spawnSync(executable, probeArgs(file), { encoding: "utf8", maxBuffer: MAX_BUFFER, windowsHide: true });
  const error = result.error as NodeJS.ErrnoException | undefined;
  if (error?.code === "ENOENT" || error?.code === "EACCES") throw new FfmpegNotFoundError("ffprobe", executable);
  if (error) return { ok: false, reason: error.message };
  const stderr = result.stderr ?? "";
  if (result.status !== 0) return { ok: false, reason: toolComplaints(stderr, file) || (result.signal ? `killed by ${result.signal}` : "ffprobe failed") };
  const reading = readProbeJson(result.stdout ?? "");
  return reading.ok ? { ...reading, complaints: toolComplaints(stderr, file) } : reading;
}

/**
 * ffmpeg select expression for a sorted, duplicate-free index list: runs become between(), and
 * the terms are summed as a balanced tree of parentheses, since ffmpeg's expression parser nests
 * a flat `a+b+c+…` one level per term and refuses more than 100 levels (libavutil/eval.c): a
 * 130-frame uniform spec would fail, while the tree needs only log2(terms) levels.
 */
export function selectExpression(sortedIndices: readonly number[]): string {
  return balancedSum(indexRuns(sortedIndices));
}

function balancedSum(terms: readonly string[]): string {
  if (terms.length <= 2) return terms.join("+");
  const half = Math.ceil(terms.length / 2);
  return `(${balancedSum(terms.slice(0, half))})+(${balancedSum(terms.slice(half))})`;
}

/** eq(n,i) for a lone index, between(n,a,b) for a run of consecutive ones. */
function indexRuns(sortedIndices: readonly number[]): string[] {
  const terms: string[] = [];
  let i = 0;
  while (i < sortedIndices.length) {
    const start = sortedIndices[i]!;
    let end = start;
    while (i + 1 < sortedIndices.length && sortedIndices[i + 1] === end + 1) {
      i += 1;
      end += 1;
    }
    terms.push(start === end ? `eq(n,${start})` : `between(n,${start},${end})`);
    i += 1;
  }
  return terms;
}

export type ExtractOutcome = { ok: true; files: string[] } | { ok: false; reason: string };

/**
 * Decode `file` once and write the frames whose decoded-frame number n (0-based, presentation
 * order, the same count ffprobe reports) is in `sortedIndices` — or every frame when it is null —
 * as lossless RGB24 PNGs into `outDir` (which must be empty). Returns the PNG paths in frame order.
 * `-fps_mode passthrough` keeps ffmpeg from duplicating or dropping frames; bit-exact decoder and
 * swscale flags keep the pixels identical across runs (and CPUs, as far as ffmpeg allows).
 */
export async function extractVideoFrames(file: string, sortedIndices: readonly number[] | null, outDir: string): Promise<ExtractOutcome> {
  const filters: string[] = [];
  if (sortedIndices) filters.push(`select='${selectExpression(sortedIndices)}'`);
  filters.push("format=rgb24");
  const graph = filters.join(",");
  const filterArgs: string[] = [];
  if (graph.length > 64 * 1024) {
    // Long index lists would exceed the kernel's per-argument limit: pass the graph as a file.
    const script = join(outDir, "filter.txt");
    await writeFile(script, graph);
    filterArgs.push("-filter_script:v", script);
  } else {
    filterArgs.push("-vf", graph);
  }
  const args = [
    "-hide_banner", "-nostdin", "-v", "error", "-y",
    "-flags:v", "+bitexact",
    "-i", inputUrl(file),
    "-map", "0:V:0", "-an", "-sn", "-dn",
    ...filterArgs,
    "-fps_mode", "passthrough",
    "-sws_flags", "bicubic+accurate_rnd+full_chroma_int+bitexact",
    "-pix_fmt", "rgb24",
    "-c:v", "png",
    "-f", "image2", "-start_number", "0",
    join(outDir, "f%09d.png"),
  ];
  const result = await runTool("ffmpeg", args);
  if (result.code !== 0) return { ok: false, reason: stderrTail(result.stderr) };
  const names = (await readdir(outDir)).filter((n) => /^f\d{9}\.png$/.test(n)).sort();
  return { ok: true, files: names.map((n) => join(outDir, n)) };
}
