import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { extractVideoFrames, FfmpegNotFoundError, probeVideo, setFfmpegPaths } from "../../src/media/ffmpeg.js";
import { encodeMp4, encodeMp4FromFiles } from "../../src/media/video-encode.js";

const W = 64;
const H = 48;

/** Frame k: left half red-ish rising with k, right half a fixed blue, so decoding can be checked. */
function frame(k: number): Uint8Array {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      if (x < W / 2) data.set([40 + 20 * k, 60, 60], i);
      else data.set([30, 60, 200], i);
    }
  }
  return data;
}

async function meanOfRegion(png: string, x0: number, x1: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(readFileSync(png)).raw().toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  let n = 0;
  // Stay 4 px away from the colour edge: yuv420p halves the chroma resolution.
  for (let y = 4; y < info.height - 4; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * info.width + x) * info.channels;
      sum[0] += data[i]!;
      sum[1] += data[i + 1]!;
      sum[2] += data[i + 2]!;
      n += 1;
    }
  }
  return [sum[0] / n, sum[1] / n, sum[2] / n];
}

test("encodeMp4 writes an H.264 mp4 of the given frames, size and rate that decodes back to the colours", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-mp4-"));
  const out = path.join(dir, "clip.mp4");
  await encodeMp4(Array.from({ length: 10 }, (_, k) => frame(k)), out, { width: W, height: H, fps: 10, crf: 12 });
  const probe = await probeVideo(out);
  assert.ok(probe.ok);
  assert.equal(probe.probe.frameCount, 10);
  assert.equal(probe.probe.width, W);
  assert.equal(probe.probe.height, H);
  assert.equal(probe.probe.fps, 10);
  assert.deepEqual(probe.probe.timestamps.slice(0, 3), [0, 0.1, 0.2]);
  const frames = path.join(dir, "frames");
  mkdirSync(frames);
  const extracted = await extractVideoFrames(out, [0, 9], frames);
  assert.ok(extracted.ok);
  const expected: Array<[number, [number, number, number]]> = [[0, [40, 60, 60]], [1, [220, 60, 60]]];
  for (const [i, colour] of expected) {
    const left = await meanOfRegion(extracted.files[i]!, 4, W / 2 - 4);
    const right = await meanOfRegion(extracted.files[i]!, W / 2 + 4, W - 4);
    for (let c = 0; c < 3; c++) {
      assert.ok(Math.abs(left[c]! - colour[c]!) <= 4, `frame ${i} left channel ${c}: ${left[c]} vs ${colour[c]}`);
      assert.ok(Math.abs(right[c]! - [30, 60, 200][c]!) <= 4, `frame ${i} right channel ${c}: ${right[c]}`);
    }
  }
  // No temporary file is left beside the video.
  assert.deepEqual(readdirSync(dir).sort(), ["clip.mp4", "frames"]);
});

test("the same frames give the same bytes, from raw frames or from image files", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-mp4-"));
  const frames = Array.from({ length: 6 }, (_, k) => frame(k));
  await encodeMp4(frames, path.join(dir, "a.mp4"), { width: W, height: H, fps: 5 });
  await encodeMp4(frames, path.join(dir, "b.mp4"), { width: W, height: H, fps: 5 });
  const files: string[] = [];
  for (const [k, f] of frames.entries()) {
    const file = path.join(dir, `f${k}.png`);
    writeFileSync(file, await sharp(Buffer.from(f), { raw: { width: W, height: H, channels: 3 } }).png().toBuffer());
    files.push(file);
  }
  await encodeMp4FromFiles(files, path.join(dir, "c.mp4"), { fps: 5 });
  const a = readFileSync(path.join(dir, "a.mp4"));
  assert.ok(a.equals(readFileSync(path.join(dir, "b.mp4"))));
  assert.ok(a.equals(readFileSync(path.join(dir, "c.mp4"))));
});

test("bad frames and odd sizes are refused, and no file is left behind", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-mp4-"));
  const out = path.join(dir, "bad.mp4");
  await assert.rejects(encodeMp4([frame(0)], out, { width: 63, height: 48, fps: 10 }), /even integer sides/);
  await assert.rejects(encodeMp4([frame(0), new Uint8Array(10)], out, { width: W, height: H, fps: 10 }), /frame 1 has 10 bytes, expected 9216/);
  await assert.rejects(encodeMp4([], out, { width: W, height: H, fps: 10 }), /no frames/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(readdirSync(dir), []);
});

test("a missing ffmpeg is a setup error that says how to install it", async () => {
  const previous = setFfmpegPaths({ ffmpeg: "/nonexistent/ffmpeg" });
  try {
    const dir = mkdtempSync(path.join(tmpdir(), "sp-mp4-"));
    await assert.rejects(encodeMp4([frame(0), frame(1)], path.join(dir, "x.mp4"), { width: W, height: H, fps: 10 }), (error: unknown) => {
      assert.ok(error instanceof FfmpegNotFoundError);
      assert.match((error as Error).message, /apt-get install ffmpeg/);
      return true;
    });
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    setFfmpegPaths(previous);
  }
});
