import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { UsageError } from "../../src/core/problems.js";
import { setFfmpegPaths, toolComplaints, toolSpawns } from "../../src/media/ffmpeg.js";
import { imageClip, planFrames, VideoChecker, type Clip } from "../../src/media/video-check.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-video-check-"));
const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", ...args]);

// 2 s at 10 fps: frames 0..19 at 0.0, 0.1, ... 1.9 s. The default MP4 puts its index (moov) at
// the end, so cutting the file loses it; +faststart puts it first, so a cut file still opens.
const clip = path.join(dir, "clip.mp4");
const faststart = path.join(dir, "faststart.mp4");
ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "2", "-pix_fmt", "yuv420p", clip);
ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "2", "-pix_fmt", "yuv420p", "-movflags", "+faststart", faststart);
const cutEnd = path.join(dir, "cut-end.mp4");
writeFileSync(cutEnd, readFileSync(clip).subarray(0, Math.floor(readFileSync(clip).length / 2)));
const cutFast = path.join(dir, "cut-fast.mp4");
writeFileSync(cutFast, readFileSync(faststart).subarray(0, Math.floor(readFileSync(faststart).length / 2)));
const text = path.join(dir, "text.mp4");
writeFileSync(text, "not a video at all\n");
const audio = path.join(dir, "audio.mp4");
ffmpeg("-f", "lavfi", "-i", "sine=duration=0.5", "-c:a", "aac", audio);

const tenFps: Clip = { frames: 20, timestamps: Array.from({ length: 20 }, (_, i) => i / 10), fps: 10 };

test("a real clip: 20 decoded frames, their timestamps and rate; probed once per checker", () => {
  const videos = new VideoChecker();
  const before = toolSpawns.ffprobe;
  const reading = videos.read(clip, "clip.mp4");
  assert.deepEqual(reading, { ok: true, clip: tenFps });
  assert.deepEqual(videos.read(clip, "other/name.mp4"), reading);
  assert.equal(toolSpawns.ffprobe - before, 1);
});

test("files that do not open, or hold no video, or were cut short are named with the reason", () => {
  const videos = new VideoChecker();
  // ffprobe reads the checked open file through /proc, so it goes by the bytes, never the name: the
  // cut MP4 (its ftyp box) gets the MP4 reader, which finds no index; the text file matches no reader.
  assert.deepEqual(videos.read(cutEnd, "cut-end.mp4"), { ok: false, message: "video cut-end.mp4 does not open (ffprobe: moov atom not found; Invalid data found when processing input)" });
  assert.deepEqual(videos.read(text, "text.mp4"), { ok: false, message: "video text.mp4 does not open (ffprobe: Invalid data found when processing input)" });
  assert.deepEqual(videos.read(audio, "audio.mp4"), { ok: false, message: "video audio.mp4 has no video frames" });
  const cut = videos.read(cutFast, "cut-fast.mp4");
  assert.equal(cut.ok, false);
  assert.match(!cut.ok ? cut.message : "", /^video cut-fast\.mp4 is truncated or damaged: its header lists 20 frames, \d+ decode \(ffprobe: .*partial file\)$/);
});

test("a missing ffprobe is a setup problem (UsageError), not a defect of the video", () => {
  const previous = setFfmpegPaths({ ffprobe: path.join(dir, "no-such-ffprobe") });
  try {
    assert.throws(() => new VideoChecker().read(clip, "clip.mp4"), (e: unknown) => e instanceof UsageError && /^ffprobe not found: install Debian's ffmpeg/.test(e.message) && /needed to check the videos/.test(e.message));
  } finally {
    setFfmpegPaths(previous);
  }
});

test("toolComplaints drops the demuxer addresses, the input's path and trailing full stops; keeps the last distinct lines", () => {
  const stderr = [
    "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5600aa] moov atom not found.",
    `file:${path.resolve("/data/x.mp4")}: Invalid data found when processing input`,
    "[h264 @ 0x1] moov atom not found.",
    "",
  ].join("\n");
  assert.equal(toolComplaints(stderr, "/data/x.mp4"), "Invalid data found when processing input; moov atom not found");
  assert.equal(toolComplaints("a\nb\nc\nd\n", "/x", 2), "c; d");
});

test("planFrames follows the sampler's rules (media/frames.ts module comment)", () => {
  // uniform: numpy linspace(0, 19, 4).astype(int) = 0, 6.33 -> 6, 12.67 -> 12, 19.
  assert.deepEqual(planFrames({ mode: "uniform", count: 4 }, tenFps, "c"), { ok: true, indices: [0, 6, 12, 19] });
  // uniform 5: 0, 4.75 -> 4, 9.5 -> 9, 14.25 -> 14, 19; more than the clip has: every frame once.
  assert.deepEqual(planFrames({ mode: "uniform", count: 5 }, tenFps, "c"), { ok: true, indices: [0, 4, 9, 14, 19] });
  assert.equal((planFrames({ mode: "uniform", count: 50 }, tenFps, "c") as { indices: number[] }).indices.length, 20);
  // fps 2 on a 10 fps clip of 2 s: t = 0, 0.5, 1, 1.5 -> frames 0, 5, 10, 15.
  assert.deepEqual(planFrames({ mode: "fps", fps: 2 }, tenFps, "c"), { ok: true, indices: [0, 5, 10, 15] });
  assert.deepEqual(planFrames({ mode: "all" }, imageClip(3, null), "c"), { ok: true, indices: [0, 1, 2] });
  assert.deepEqual(planFrames({ mode: "indices", indices: [19, 0, 19] }, tenFps, "c"), { ok: true, indices: [19, 0, 19] });
  assert.deepEqual(planFrames({ mode: "indices", indices: [3, 20, 25] }, tenFps, "clip.mp4"), {
    ok: false,
    problems: [
      { position: 1, message: "frame 20 is beyond the 20 frames of clip.mp4" },
      { position: 2, message: "frame 25 is beyond the 20 frames of clip.mp4" },
    ],
  });
  assert.deepEqual(planFrames({ mode: "fps", fps: 1 }, imageClip(4, null), "tour"), { ok: false, problems: [{ message: "an fps spec needs frame timestamps, and tour has none" }] });
  // Images with a capture rate have timestamps: 4 frames at 2 fps, sampled at 1 fps -> 0, 2.
  assert.deepEqual(imageClip(4, 2).timestamps, [0, 0.5, 1, 1.5]);
  assert.deepEqual(planFrames({ mode: "fps", fps: 1 }, imageClip(4, 2), "tour"), { ok: true, indices: [0, 2] });
});
