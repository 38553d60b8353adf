/**
 * Video frame sampling against the ideal: one ffmpeg pass that decodes the clip once and writes
 * exactly the wanted frames as PNG (what a hand-written ffmpeg command costs).
 *
 *   node --import tsx bench/frames.ts
 *
 * Environment (optional): FRAMES_BENCH_SECONDS (clip length, default 30), FRAMES_BENCH_SIZE
 * (default 1280x720), FRAMES_BENCH_COUNT (uniform frames, default 16).
 *
 * Steps, one run each (the ratios are measurements, not tests):
 *   1. make a 30 fps H.264 clip with B-frames from ffmpeg's testsrc2 (untimed);
 *   2. ideal: `ffmpeg -i clip -vf select=<the same frames> -fps_mode passthrough f%02d.png`;
 *   3. sampleFrames(uniform N) with an empty cache (cold: exact frame count + extraction);
 *   4. the same call again (warm: served from the frame cache);
 *   5. another spec on the same clip (the probe is cached, only extraction runs).
 * Prints seconds and each ratio to the ideal.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sampleFrames, uniformIndices } from "../src/media/frames.js";

const seconds = Number(process.env["FRAMES_BENCH_SECONDS"] ?? 30);
const size = process.env["FRAMES_BENCH_SIZE"] ?? "1280x720";
const count = Number(process.env["FRAMES_BENCH_COUNT"] ?? 16);
const FPS = 30;

function ffmpeg(args: string[]): void {
  const result = spawnSync("ffmpeg", ["-v", "error", "-y", ...args], { encoding: "utf8" });
  if (result.error || result.status !== 0) {
    console.error(`ffmpeg failed: ${result.error?.message ?? result.stderr}`);
    process.exit(2);
  }
}

async function timed<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [(performance.now() - start) / 1000, value];
}

const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-frames-bench-"));
try {
  const clip = path.join(work, "clip.mp4");
  ffmpeg(["-f", "lavfi", "-i", `testsrc2=size=${size}:rate=${FPS}:duration=${seconds}`, "-c:v", "libx264", "-bf", "2", "-pix_fmt", "yuv420p", clip]);
  const total = seconds * FPS;
  const wanted = uniformIndices(total, count);
  const select = wanted.map((n) => `eq(n\\,${n})`).join("+");
  const idealDir = path.join(work, "ideal");
  mkdirSync(idealDir);
  const [ideal] = await timed(() => ffmpeg(["-i", clip, "-vf", `select=${select}`, "-fps_mode", "passthrough", path.join(idealDir, "f%02d.png")]));

  const cacheDir = path.join(work, "cache");
  const [cold, first] = await timed(() => sampleFrames({ video: clip }, { mode: "uniform", count }, { cacheDir }));
  const [warm, second] = await timed(() => sampleFrames({ video: clip }, { mode: "uniform", count }, { cacheDir }));
  const [otherSpec] = await timed(() => sampleFrames({ video: clip }, { mode: "fps", fps: 1 }, { cacheDir }));
  if (JSON.stringify(first.provenance.indices) !== JSON.stringify(wanted) || JSON.stringify(second.provenance.indices) !== JSON.stringify(wanted)) {
    console.error(`frame indices differ from numpy's linspace picks: ${first.provenance.indices} vs ${wanted}`);
    process.exit(1);
  }
  const row = (label: string, s: number) => `${label.padEnd(40)} ${s.toFixed(3).padStart(8)} s   ${(s / ideal).toFixed(2).padStart(6)} × ideal`;
  console.log(`clip: ${seconds} s, ${size}, ${FPS} fps (${total} frames), uniform ${count}`);
  console.log(row("ideal: one ffmpeg pass, wanted frames", ideal));
  console.log(row("sampleFrames, empty cache", cold));
  console.log(row("sampleFrames, cached", warm));
  console.log(row("sampleFrames, new spec (probe cached)", otherSpec));
} finally {
  rmSync(work, { recursive: true, force: true });
}
