/**
 * What a data loader checks about a clip before a run samples frames from it (frames.ts): that a
 * video file opens, how many frames it has (decoded frames, counted as the sampler counts them:
 * one ffprobe run per file and load, the sampler's own probe arguments), and which frames a frame
 * spec picks from it, by the sampler's rules (frames.ts module comment). Frame folders and lists
 * are never decoded here: their frame count is their number of files.
 */
import { FileRefusedError, openRegularFile, type OpenedFile } from "../core/file-read.js";
import { UsageError } from "../core/problems.js";
import { FfmpegNotFoundError, probeVideoSync, roundMicro, type CheckedProbe } from "./ffmpeg.js";
import { planFrameIndices, planSpanIndices, type FrameSpan, type FrameSpec } from "./frames.js";

/** A clip as the sampler sees it: its frame count and each frame's timestamp (null when unknown). */
export interface Clip {
  frames: number;
  timestamps: Array<number | null>;
  /** Frames per second (a video's avg_frame_rate; an image list's capture rate), or null. */
  fps: number | null;
}

export type ClipReading = { ok: true; clip: Clip } | { ok: false; message: string };

/** Probes each video once per load (many items share a clip). */
export class VideoChecker {
  private readonly probes = new Map<string, CheckedProbe>();

  /** The clip in the video at absolute path `file`, or why it cannot be sampled; `shown` is the reference as the data wrote it. */
  read(file: string, shown: string): ClipReading {
    let probe = this.probes.get(file);
    if (!probe) {
      // ffprobe reads the file this process opened and checked (core/file-read.ts), never the path again.
      let opened: OpenedFile;
      try {
        opened = openRegularFile(file);
      } catch (error) {
        if (error instanceof FileRefusedError) return { ok: false, message: `video ${shown} ${error.reason}` };
        throw error;
      }
      try {
        probe = probeVideoSync(opened.procPath);
      } catch (error) {
        // A missing ffprobe is a setup problem for every video, not a defect of this one.
        if (error instanceof FfmpegNotFoundError) throw new UsageError(`${error.message}; it is needed to check the videos the data names`);
        throw error;
      } finally {
        opened.close();
      }
      this.probes.set(file, probe);
    }
    return readingOf(probe, shown);
  }
}

function readingOf(outcome: CheckedProbe, shown: string): ClipReading {
  if (!outcome.ok) return { ok: false, message: `video ${shown} does not open (ffprobe: ${outcome.reason})` };
  const { probe, declaredFrames, complaints } = outcome;
  if (probe.frameCount === 0) return { ok: false, message: `video ${shown} has no video frames` };
  // A container that lists more frames than decode, with ffprobe complaining, was cut short.
  if (complaints && declaredFrames !== null && probe.frameCount < declaredFrames) {
    return { ok: false, message: `video ${shown} is truncated or damaged: its header lists ${declaredFrames} frames, ${probe.frameCount} decode (ffprobe: ${complaints})` };
  }
  return { ok: true, clip: { frames: probe.frameCount, timestamps: probe.timestamps, fps: probe.fps } };
}

/** An ordered list of `count` images as the sampler sees it: timestamps index / fps when the capture rate is known. */
export function imageClip(count: number, fps: number | null): Clip {
  return { frames: count, timestamps: Array.from({ length: count }, (_, i) => (fps ? roundMicro(i / fps) : null)), fps };
}

/** Why a spec cannot be sampled from a clip; `position`: the offending entry of an indices spec. */
export interface PlanProblem {
  position?: number;
  message: string;
}

/** The frames a spec picks, or every reason it cannot. */
export type FramePlan = { ok: true; indices: number[] } | { ok: false; problems: PlanProblem[] };

/**
 * The frame numbers `spec` picks from `clip`, by frames.ts's rules (uniform: numpy linspace;
 * fps: the frame on screen at each k / fps; indices: exactly those; all). `shown` names the clip.
 */
export function planFrames(spec: FrameSpec, clip: Clip, shown: string): FramePlan {
  const plan = planFrameIndices(spec, clip.frames, clip.timestamps, clip.fps ? 1 / clip.fps : null);
  if (plan.ok) return plan;
  if (plan.why === "no-timestamps") return { ok: false, problems: [{ message: `an fps spec needs frame timestamps, and ${shown} has none` }] };
  const indices = (spec as { indices: number[] }).indices;
  return { ok: false, problems: plan.positions.map((position) => ({ position, message: `frame ${indices[position]} is beyond the ${clip.frames} frames of ${shown}` })) };
}

/**
 * planFrames inside a span of the clip (frames.ts: the spec applies to the span as if it were the
 * whole clip). A span reaching past the clip's last frame is one problem with `span: true`.
 */
export function planSpanFrames(spec: FrameSpec, clip: Clip, span: FrameSpan, shown: string): FramePlan | { ok: false; span: true; message: string } {
  const plan = planSpanIndices(spec, clip.frames, clip.timestamps, clip.fps ? 1 / clip.fps : null, span);
  if (plan.ok) return plan;
  if (plan.why === "outside") return { ok: false, span: true, message: `frame ${span.last} is beyond the ${clip.frames} frames of ${shown}` };
  if (plan.why === "no-timestamps") return { ok: false, problems: [{ message: `an fps spec needs frame timestamps, and ${shown} has none` }] };
  const indices = (spec as { indices: number[] }).indices;
  const length = span.last - span.first + 1;
  return { ok: false, problems: plan.positions.map((position) => ({ position, message: `frame ${indices[position]} is beyond the span's ${length} frames (${span.first}..${span.last} of ${shown})` })) };
}
