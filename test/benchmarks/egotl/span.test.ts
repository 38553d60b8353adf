import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { loadEgoTL } from "../../../src/benchmarks/egotl/load.js";
import { buildPrompt, loadTemplates } from "../../../src/benchmarks/egotl/prompt.js";
import { planSpanIndices, sampleFrames } from "../../../src/media/frames.js";

// A real-size episode video: testsrc at 1280x720, 10 fps, 3 s = frames 0..29 at t = n / 10 s.
const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egotl-span-"));
const cacheDir = path.join(dir, "cache");
const video = path.join(dir, "episode.mp4");
execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=10", "-t", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p", video]);

function write(rows: unknown[]): string {
  const file = path.join(dir, "test.jsonl");
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return file;
}

const span = (first: number, last: number, spec?: unknown) => ({ video: "episode.mp4", span: { first_frame: first, last_frame: last }, ...(spec ? { spec } : {}) });

test("planSpanIndices: the spec over the span's frames, numbered in the whole clip", () => {
  const ts = Array.from({ length: 30 }, (_, n) => n / 10);
  // Span 10..19 = 10 frames; np.linspace(0, 9, 4).astype(int) = 0, 3, 6, 9 -> 10, 13, 16, 19.
  assert.deepEqual(planSpanIndices({ mode: "uniform", count: 4 }, 30, ts, 0.1, { first: 10, last: 19 }), { ok: true, indices: [10, 13, 16, 19] });
  // fps 2 from the span's start: t = 0, 0.5 s (1.0 s is the span's end) -> frames 0, 5 of the span -> 10, 15.
  assert.deepEqual(planSpanIndices({ mode: "fps", fps: 2 }, 30, ts, 0.1, { first: 10, last: 19 }), { ok: true, indices: [10, 15] });
  assert.deepEqual(planSpanIndices({ mode: "all" }, 30, ts, 0.1, { first: 28, last: 29 }), { ok: true, indices: [28, 29] });
  assert.deepEqual(planSpanIndices({ mode: "indices", indices: [0, 10] }, 30, ts, 0.1, { first: 10, last: 19 }), { ok: false, why: "out-of-range", positions: [1] });
  assert.deepEqual(planSpanIndices({ mode: "all" }, 30, ts, 0.1, { first: 25, last: 30 }), { ok: false, why: "outside" });
  assert.deepEqual(planSpanIndices({ mode: "all" }, 30, ts, 0.1, { first: 12, last: 11 }), { ok: false, why: "outside" });
});

test("a span inside a 1280x720 episode video: loaded, checked against the probed video, frames taken only inside it", async () => {
  const file = write([
    { id: "uniform", task: "direction", media: span(10, 19, { mode: "uniform", count: 4 }), answer: "Turn left" }, // 1
    { id: "fps", task: "distance", media: span(10, 19, { mode: "fps", fps: 2 }), answer: 1.5 }, // 2
    { id: "default", task: "distance", media: span(20, 29), answer: 2 }, // 3: default uniform 8
    { id: "beyond", task: "direction", media: span(25, 30), answer: "Turn left" }, // 4
    { id: "backwards", task: "direction", media: span(12, 11), answer: "Turn left" }, // 5
    { id: "index", task: "direction", media: span(10, 19, { mode: "indices", indices: [0, 10] }), answer: "Turn left" }, // 6
  ]);
  const { items, problems } = loadEgoTL(file, { requests: { source: "templates" } });
  assert.deepEqual(problems, [
    { file: "test.jsonl", line: 4, field: "media.span.last_frame", message: "frame 30 is beyond the 30 frames of episode.mp4" },
    { file: "test.jsonl", line: 5, field: "media.span", message: "last_frame 11 is before first_frame 12" },
    { file: "test.jsonl", line: 6, field: "media.spec.indices[1]", message: "frame 10 is beyond the span's 10 frames" },
  ]);
  const byId = new Map(items.map((i) => [i.id, i]));
  const templates = loadTemplates();
  const sampled = async (id: string) => {
    const built = await buildPrompt(byId.get(id)!, templates, { cacheDir });
    assert.ok("messages" in built, JSON.stringify(built));
    return built.info["frames"] as { indices: number[]; timestamps: number[]; span: [number, number]; source: string; total_frames: number };
  };
  const uniform = await sampled("uniform");
  assert.deepEqual(uniform.indices, [10, 13, 16, 19]);
  assert.deepEqual(uniform.timestamps, [1, 1.3, 1.6, 1.9]);
  assert.deepEqual(uniform.span, [10, 19]);
  assert.equal(uniform.source, "episode.mp4 frames 10-19");
  assert.equal(uniform.total_frames, 30);
  assert.deepEqual((await sampled("fps")).indices, [10, 15]);
  // np.linspace(0, 9, 8).astype(int) = 0, 1, 2, 3, 5, 6, 7, 9 (step 9/7) -> 20 .. 29.
  assert.deepEqual((await sampled("default")).indices, [20, 21, 22, 23, 25, 26, 27, 29]);
  // The request shows the span as its own clip: frames 10, 13, 16, 19 at 1.0-1.9 s of the video
  // are labelled from the span's start, as a clip file of frames 10..19 would be.
  const built = await buildPrompt(byId.get("uniform")!, templates, { cacheDir });
  assert.ok("messages" in built);
  const labels = built.messages[1]!.content.flatMap((p) => (p.type === "text" && p.text.startsWith("Frame ") ? [p.text] : []));
  assert.deepEqual(labels, ["Frame 0 (t = 0 s):", "Frame 3 (t = 0.3 s):", "Frame 6 (t = 0.6 s):", "Frame 9 (t = 0.9 s):"]);
});

test("the frames a span gives are the video's own frames at those numbers, at full size", async () => {
  const { frames } = await sampleFrames({ video }, { mode: "indices", indices: [3] }, { cacheDir, span: { first: 10, last: 19 } });
  assert.equal(frames.length, 1);
  assert.equal(frames[0]!.index, 13);
  assert.deepEqual([frames[0]!.width, frames[0]!.height], [1280, 720]);
  const mine = await sharp(frames[0]!.png).raw().toBuffer();
  // ffmpeg's own decode of frame n, as RGB24.
  const direct = (n: number) => execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-flags:v", "+bitexact", "-i", video, "-vf", `select=eq(n\\,${n}),format=rgb24`, "-fps_mode", "passthrough", "-sws_flags", "bicubic+accurate_rnd+full_chroma_int+bitexact", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { maxBuffer: 16 << 20 });
  assert.ok(mine.equals(direct(13)), "frame 13 of the video");
  assert.ok(!mine.equals(direct(3)), "not frame 3 (the index counts from the span's first frame)");
  await assert.rejects(sampleFrames({ video }, { mode: "all" }, { cacheDir, span: { first: 25, last: 30 } }), /span of frames 25\.\.30 does not lie inside/);
});
