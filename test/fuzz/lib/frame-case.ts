/**
 * One frame-spec fuzz case, inside a worker (the cases are listed in frame-cases.ts): the call
 * made on the worker's small clip (or its image list / folder), with the read guard recording.
 */
import path from "node:path";
import { fpsIndices, planFrameIndices, planSpanIndices, sampleFrames, uniformIndices, type FrameSource, type FrameSpec } from "../../../src/media/frames.js";
import { probeVideo } from "../../../src/media/ffmpeg.js";
import { startRecording, stopRecording } from "./guard.js";
import type { CaseReport, FrameCase } from "./types.js";
import { describeThrown } from "./verdicts.js";

export interface FrameMedia {
  /** A folder holding clip.mp4, and frames/ with three PNGs. */
  dir: string;
  cacheDir: string;
}

interface Clip {
  total: number;
  timestamps: number[];
  frameDuration: number | null;
}

let clip: Clip | undefined;

async function clipOf(media: FrameMedia): Promise<Clip> {
  if (clip) return clip;
  const probed = await probeVideo(path.join(media.dir, "clip.mp4"));
  if (!probed.ok) throw new Error(`the fuzz clip cannot be probed: ${probed.reason}`);
  const { frameCount, timestamps, fps } = probed.probe;
  if (timestamps.some((t) => t === null)) throw new Error("the fuzz clip has frames without timestamps");
  clip = { total: frameCount, timestamps: timestamps as number[], frameDuration: fps ? 1 / fps : null };
  return clip;
}

function sourceOf(kind: string, media: FrameMedia): FrameSource {
  const frames = path.join(media.dir, "frames");
  if (kind === "video") return { video: path.join(media.dir, "clip.mp4") };
  if (kind === "frames") return { frames: ["0.png", "1.png", "2.png"].map((f) => path.join(frames, f)) };
  return { dir: frames };
}

/** A short description of what a call returned. */
function describeResult(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} indices`;
  if (value && typeof value === "object" && "frames" in value) return `${(value as { frames: unknown[] }).frames.length} frames`;
  if (value && typeof value === "object" && "ok" in value) return JSON.stringify(value).slice(0, 120);
  return String(value);
}

async function call(fuzzCase: FrameCase, media: FrameMedia): Promise<unknown> {
  const { total, timestamps, frameDuration } = await clipOf(media);
  const [a, b, c] = fuzzCase.args as [unknown, unknown, unknown];
  switch (fuzzCase.call) {
    case "uniformIndices":
      return uniformIndices(a as number, b as number);
    case "fpsIndices":
      return fpsIndices(timestamps, a as number, timestamps[timestamps.length - 1]! + (frameDuration ?? 0));
    case "planFrameIndices":
      return planFrameIndices(a as FrameSpec, total, timestamps, frameDuration);
    case "planSpanIndices":
      return planSpanIndices(a as FrameSpec, total, timestamps, frameDuration, b as { first: number; last: number });
    case "sampleFrames":
      return sampleFrames(sourceOf(a as string, media), b as FrameSpec, { ...(c as object), cacheDir: media.cacheDir });
    default:
      throw new Error(`unknown frame call ${fuzzCase.call}`);
  }
}

export async function runFrameCase(fuzzCase: FrameCase, media: FrameMedia): Promise<CaseReport> {
  const began = performance.now();
  await clipOf(media);
  const report: CaseReport = { id: fuzzCase.id, ms: 0, stages: {}, problems: [], problemCount: 0, malformed: [], errors: [], itemErrors: [], violations: [], leaks: [], opened: 0 };
  startRecording();
  try {
    const value = await call(fuzzCase, media);
    report.stages["call"] = "result";
    report.note = describeResult(value);
  } catch (error) {
    report.stages["call"] = "error";
    report.errors.push(describeThrown("call", error));
  } finally {
    const seen = stopRecording();
    report.violations = seen.violations.slice(0, 5);
    report.opened = seen.opened;
  }
  report.ms = Math.round(performance.now() - began);
  return report;
}
