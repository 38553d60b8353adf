import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import sharp from "sharp";
import {
  FfmpegNotFoundError,
  MediaError,
  fitWithin,
  fpsIndices,
  frameFolderNames,
  naturalCompare,
  CACHE_FORMAT,
  planFrameIndices,
  sampleFrames,
  setFfmpegPaths,
  thinEvenly,
  toolSpawns,
  uniformIndices,
  type FrameProvenance,
  type SampledFrame,
} from "../../src/media/frames.js";
import { selectExpression } from "../../src/media/ffmpeg.js";

// Frame i of every test clip is a solid colour that encodes i (robust to lossy H.264 in yuv420p).
const colourOf = (i: number) => ({ r: 20 + 40 * (i % 6), g: 20 + 40 * Math.floor(i / 6), b: 128 });

/** Which frame a (decoded) PNG shows: the nearest code colour to its centre pixel, checked for closeness. */
async function frameIdentity(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
  const i = Math.round((r - 20) / 40) + 6 * Math.round((g - 20) / 40);
  const want = colourOf(i);
  assert.ok(
    Math.abs(r - want.r) <= 10 && Math.abs(g - want.g) <= 10 && Math.abs(b - want.b) <= 10,
    `pixel (${r},${g},${b}) is not close to frame ${i}'s colour`,
  );
  return i;
}

const identities = (frames: SampledFrame[]) => Promise.all(frames.map((f) => frameIdentity(f.png)));

let work: string;
let clip: string; // 30 frames, 10 fps, 64x48, H.264 with B-frames in MP4
let vfrClip: string; // 20 frames: t = 0.0..0.9 then 1.5..2.4 (a 0.6 s hole)
let framesDir: string; // frame_1.png .. frame_12.png (+ noise), frame_k shows colour k
let cacheCounter = 0;
const freshCache = () => join(work, `cache-${cacheCounter++}`);

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", ...args]);
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), "spatialprobe-frames-test-"));
  const pngs = join(work, "pngs");
  await mkdir(pngs);
  for (let i = 0; i < 30; i++) {
    await sharp({ create: { width: 64, height: 48, channels: 3, background: colourOf(i) } })
      .png()
      .toFile(join(pngs, `f${String(i).padStart(3, "0")}.png`));
  }
  clip = join(work, "colours.mp4");
  ffmpeg(["-framerate", "10", "-i", join(pngs, "f%03d.png"), "-c:v", "libx264", "-bf", "2", "-g", "8", "-pix_fmt", "yuv420p", clip]);
  vfrClip = join(work, "vfr.mp4");
  ffmpeg([
    "-framerate", "10", "-i", join(pngs, "f%03d.png"), "-frames:v", "20",
    "-vf", "setpts='N+5*gte(N,10)'", "-fps_mode", "passthrough", "-c:v", "libx264", "-pix_fmt", "yuv420p", vfrClip,
  ]);
  framesDir = join(work, "folder");
  await mkdir(framesDir);
  for (let k = 1; k <= 12; k++) await copyFile(join(pngs, `f${String(k).padStart(3, "0")}.png`), join(framesDir, `frame_${k}.png`));
  await writeFile(join(framesDir, "notes.txt"), "not an image");
  await writeFile(join(framesDir, "._frame_3.png"), "macOS AppleDouble junk");
  await mkdir(join(framesDir, "sub.png"));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("video sampling", () => {
  test("uniform: np.linspace(0, T-1, N).astype(int), right timestamps and pixels", async () => {
    const { frames, provenance } = await sampleFrames({ video: clip }, { mode: "uniform", count: 4 }, { cacheDir: freshCache() });
    assert.deepEqual(provenance.indices, [0, 9, 19, 29]);
    assert.deepEqual(frames.map((f) => f.index), [0, 9, 19, 29]);
    assert.deepEqual(provenance.timestamps, [0, 0.9, 1.9, 2.9]);
    assert.deepEqual(frames.map((f) => f.timestamp), [0, 0.9, 1.9, 2.9]);
    assert.deepEqual(await identities(frames), [0, 9, 19, 29]);
    for (const f of frames) {
      assert.equal(f.width, 64);
      assert.equal(f.height, 48);
      assert.deepEqual([...f.png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
    const one = await sampleFrames({ video: clip }, { mode: "uniform", count: 1 }, { cacheDir: freshCache() });
    assert.deepEqual(one.provenance.indices, [0]);
    const many = await sampleFrames({ video: clip }, { mode: "uniform", count: 50 }, { cacheDir: freshCache() });
    assert.deepEqual(many.provenance.indices, Array.from({ length: 30 }, (_, i) => i));
  });

  test("more than 100 separate frames: ffmpeg's select expression stays within its parser's nesting limit", async () => {
    // Runs become between(), terms are summed as a balanced tree: ((1..3 + 7) + (9 + 11)).
    assert.equal(selectExpression([1, 2, 3, 7, 9, 11]), "(between(n,1,3)+eq(n,7))+(eq(n,9)+eq(n,11))");
    const long = join(work, "long.mp4");
    ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x36:rate=100:duration=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", long]);
    const indices = Array.from({ length: 134 }, (_, i) => 3 * i); // 0, 3, ..., 399: 134 terms, no runs
    const { frames, provenance } = await sampleFrames({ video: long }, { mode: "indices", indices }, { cacheDir: freshCache() });
    assert.deepEqual(provenance.indices, indices);
    assert.deepEqual(frames.map((f) => f.index), indices);
  });

  test("fps: the frame on screen at k/fps, from t = 0", async () => {
    const two = await sampleFrames({ video: clip }, { mode: "fps", fps: 2 }, { cacheDir: freshCache() });
    assert.deepEqual(two.provenance.indices, [0, 5, 10, 15, 20, 25]);
    assert.deepEqual(two.provenance.timestamps, [0, 0.5, 1, 1.5, 2, 2.5]);
    assert.deepEqual(await identities(two.frames), [0, 5, 10, 15, 20, 25]);
    // t = 0, 1/3, 2/3, 1, ... → floor(10 t): 0, 3, 6, 10, 13, 16, 20, 23, 26
    const three = await sampleFrames({ video: clip }, { mode: "fps", fps: 3 }, { cacheDir: freshCache() });
    assert.deepEqual(three.provenance.indices, [0, 3, 6, 10, 13, 16, 20, 23, 26]);
    assert.deepEqual(await identities(three.frames), [0, 3, 6, 10, 13, 16, 20, 23, 26]);
    // Faster than the clip: every frame once.
    const fast = await sampleFrames({ video: clip }, { mode: "fps", fps: 25 }, { cacheDir: freshCache() });
    assert.deepEqual(fast.provenance.indices, Array.from({ length: 30 }, (_, i) => i));
  });

  test("fps on a variable-frame-rate clip follows the real timestamps", async () => {
    const { frames, provenance } = await sampleFrames({ video: vfrClip }, { mode: "fps", fps: 2 }, { cacheDir: freshCache() });
    // t = 0, 0.5, 1.0 (frame 9 at 0.9 still on screen), 1.5, 2.0, 2.5 (< 2.4 + 1/8)
    assert.deepEqual(provenance.indices, [0, 5, 9, 10, 15, 19]);
    assert.deepEqual(provenance.timestamps, [0, 0.5, 0.9, 1.5, 2, 2.4]);
    assert.deepEqual(await identities(frames), [0, 5, 9, 10, 15, 19]);
    assert.equal(provenance.totalFrames, 20);
    assert.equal(provenance.fps, 8);
  });

  test("indices: exactly those frames, in the caller's order, duplicates kept", async () => {
    const { frames, provenance } = await sampleFrames({ video: clip }, { mode: "indices", indices: [7, 2, 2, 29, 0] }, { cacheDir: freshCache() });
    assert.deepEqual(provenance.indices, [7, 2, 2, 29, 0]);
    assert.deepEqual(provenance.timestamps, [0.7, 0.2, 0.2, 2.9, 0]);
    assert.deepEqual(await identities(frames), [7, 2, 2, 29, 0]);
  });

  test("all: every frame, each the right one", async () => {
    const { frames, provenance } = await sampleFrames({ video: clip }, { mode: "all" }, { cacheDir: freshCache() });
    const all = Array.from({ length: 30 }, (_, i) => i);
    assert.deepEqual(provenance.indices, all);
    assert.deepEqual(await identities(frames), all);
    assert.deepEqual(provenance.timestamps, all.map((i) => i / 10));
  });

  test("provenance is complete", async () => {
    const { provenance } = await sampleFrames({ video: clip }, { mode: "uniform", count: 3 }, { cacheDir: freshCache() });
    const sha = execFileSync("sha256sum", [clip], { encoding: "utf8" }).split(" ")[0];
    const expected: FrameProvenance = {
      source: clip,
      sha256: sha!,
      spec: { mode: "uniform", count: 3 },
      indices: [0, 14, 29],
      timestamps: [0, 1.4, 2.9],
      totalFrames: 30,
      fps: 10,
      resizedTo: null,
      cached: false,
    };
    assert.deepEqual(provenance, expected);
  });

  test("maxPixels: keeps aspect, never upscales, records resizedTo; pixels still right", async () => {
    const { frames, provenance } = await sampleFrames({ video: clip }, { mode: "indices", indices: [4, 17] }, { maxPixels: 800, cacheDir: freshCache() });
    assert.deepEqual(provenance.resizedTo, [32, 24]);
    for (const f of frames) {
      assert.equal(f.width, 32);
      assert.equal(f.height, 24);
      const meta = await sharp(f.png).metadata();
      assert.equal(meta.width, 32);
      assert.equal(meta.height, 24);
    }
    assert.deepEqual(await identities(frames), [4, 17]);
    const big = await sampleFrames({ video: clip }, { mode: "indices", indices: [4] }, { maxPixels: 64 * 48, cacheDir: freshCache() });
    assert.equal(big.provenance.resizedTo, null);
    assert.equal(big.frames[0]!.width, 64);
  });

  test("deterministic PNG bytes across independent runs", async () => {
    const a = await sampleFrames({ video: clip }, { mode: "uniform", count: 5 }, { cacheDir: freshCache() });
    const b = await sampleFrames({ video: clip }, { mode: "uniform", count: 5 }, { cacheDir: freshCache() });
    assert.equal(a.provenance.cached, false);
    assert.equal(b.provenance.cached, false);
    assert.deepEqual(a.frames.map((f) => f.png.toString("base64")), b.frames.map((f) => f.png.toString("base64")));
  });

  test("cache: the second call reads the disk cache and spawns neither ffmpeg nor ffprobe", async () => {
    const cacheDir = freshCache();
    const spec = { mode: "uniform", count: 6 } as const;
    const before = { ...toolSpawns };
    const first = await sampleFrames({ video: clip }, spec, { cacheDir, maxPixels: 1000 });
    assert.equal(first.provenance.cached, false);
    assert.equal(toolSpawns.ffprobe - before.ffprobe, 1);
    assert.equal(toolSpawns.ffmpeg - before.ffmpeg, 1);

    const mid = { ...toolSpawns };
    const second = await sampleFrames({ video: clip }, spec, { cacheDir, maxPixels: 1000 });
    assert.deepEqual(toolSpawns, mid, "a cache hit runs no tool");
    assert.equal(second.provenance.cached, true);
    assert.deepEqual({ ...second.provenance, cached: false }, first.provenance);
    assert.deepEqual(second.frames, first.frames);

    // A copy of the video under another name hits the same (content-addressed) entry, with its own source.
    const copy = join(work, "copy-of-colours.mp4");
    await copyFile(clip, copy);
    const third = await sampleFrames({ video: copy }, spec, { cacheDir, maxPixels: 1000 });
    assert.deepEqual(toolSpawns, mid);
    assert.equal(third.provenance.cached, true);
    assert.equal(third.provenance.source, copy);

    // Another spec or maxPixels is another entry; the probe is cached, so only ffmpeg runs.
    const fourth = await sampleFrames({ video: clip }, spec, { cacheDir, maxPixels: 2000 });
    assert.equal(fourth.provenance.cached, false);
    assert.equal(toolSpawns.ffprobe, mid.ffprobe);
    assert.equal(toolSpawns.ffmpeg, mid.ffmpeg + 1);

    // A damaged entry is recomputed, not trusted.
    const root = join(cacheDir, `v${CACHE_FORMAT}`);
    const entries = (await readdir(root)).filter((n) => n !== "probe");
    for (const e of entries) {
      const png = (await readdir(join(root, e))).find((n) => n.endsWith(".png"))!;
      await writeFile(join(root, e, png), "garbage");
    }
    const fifth = await sampleFrames({ video: clip }, spec, { cacheDir, maxPixels: 1000 });
    assert.equal(fifth.provenance.cached, false);
    assert.deepEqual(fifth.frames, first.frames);
  });

  test("cache: calls side by side for one entry run ffmpeg once; the others get the same frames, marked cached, with their own source", async () => {
    const cacheDir = freshCache();
    const spec = { mode: "uniform", count: 4 } as const;
    const copy = join(work, "side-by-side-copy.mp4");
    await copyFile(clip, copy);
    const before = { ...toolSpawns };
    const [a, b, c] = await Promise.all([
      sampleFrames({ video: clip }, spec, { cacheDir }),
      sampleFrames({ video: clip }, spec, { cacheDir }),
      sampleFrames({ video: copy }, spec, { cacheDir }),
    ]);
    assert.equal(toolSpawns.ffmpeg - before.ffmpeg, 1);
    assert.equal(toolSpawns.ffprobe - before.ffprobe, 1);
    // Whichever call got there first made the entry; the other two waited for it.
    assert.deepEqual([a, b, c].map((r) => r.provenance.cached).sort(), [false, true, true]);
    assert.deepEqual([a, b, c].map((r) => r.provenance.source), [clip, clip, copy]);
    const plain = (r: typeof a) => ({ ...r.provenance, source: clip, cached: false });
    assert.deepEqual(plain(b), plain(a));
    assert.deepEqual(plain(c), plain(a));
    assert.deepEqual(b.frames, a.frames);
    assert.deepEqual(c.frames, a.frames);
    assert.notEqual(b.frames[0]!.png, a.frames[0]!.png, "each caller owns its buffers");
    assert.notEqual(c.frames[0]!.png, a.frames[0]!.png, "each caller owns its buffers");
    assert.deepEqual(await identities(a.frames), [0, 9, 19, 29]);
    // A failed making is not shared: each call samples on its own and names its own file.
    const bad = join(work, "side-by-side-bad.mp4");
    await writeFile(bad, "not a video");
    const failures = await Promise.allSettled([sampleFrames({ video: bad }, spec, { cacheDir }), sampleFrames({ video: bad }, spec, { cacheDir })]);
    for (const f of failures) {
      assert.equal(f.status, "rejected");
      assert.ok((f as PromiseRejectedResult).reason instanceof MediaError);
      assert.match(String((f as PromiseRejectedResult).reason.message), /side-by-side-bad\.mp4/);
    }
  });
});

describe("image sources", () => {
  test("folder: natural file-name order, non-images / dotfiles / sub-folders ignored, timestamps null", async () => {
    const { frames, provenance } = await sampleFrames({ dir: framesDir }, { mode: "all" }, { cacheDir: freshCache() });
    // frame_1 .. frame_12 in natural order (a plain sort would put frame_10 after frame_1).
    assert.deepEqual(await identities(frames), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    assert.deepEqual(provenance.indices, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    assert.deepEqual(provenance.timestamps, new Array(12).fill(null));
    assert.equal(provenance.totalFrames, 12);
    assert.equal(provenance.fps, null);
    assert.equal(provenance.source, framesDir);
    assert.match(provenance.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(frameFolderNames(framesDir), Array.from({ length: 12 }, (_, i) => `frame_${i + 1}.png`));

    const uni = await sampleFrames({ dir: framesDir }, { mode: "uniform", count: 3 }, { cacheDir: freshCache() });
    // linspace(0, 11, 3) = 0, 5.5, 11 → 0, 5, 11 → files frame_1, frame_6, frame_12
    assert.deepEqual(uni.provenance.indices, [0, 5, 11]);
    assert.deepEqual(await identities(uni.frames), [1, 6, 12]);
  });

  test("list: given order, JPEG accepted, folder and list hashes follow names and contents", async () => {
    const jpg = join(work, "seven.jpg");
    await sharp({ create: { width: 64, height: 48, channels: 3, background: colourOf(7) } }).jpeg({ quality: 95 }).toFile(jpg);
    const list = [join(framesDir, "frame_10.png"), jpg, join(framesDir, "frame_2.png")];
    const { frames, provenance } = await sampleFrames({ frames: list }, { mode: "indices", indices: [2, 0, 1] }, { cacheDir: freshCache() });
    assert.deepEqual(await identities(frames), [2, 10, 7]);
    assert.deepEqual(provenance.indices, [2, 0, 1]);
    assert.match(provenance.source, /frame_10\.png … .*frame_2\.png \(3 files\)/);

    const asList = await sampleFrames(
      { frames: Array.from({ length: 12 }, (_, i) => join(framesDir, `frame_${i + 1}.png`)) },
      { mode: "all" },
      { cacheDir: freshCache() },
    );
    const asDir = await sampleFrames({ dir: framesDir }, { mode: "all" }, { cacheDir: freshCache() });
    assert.equal(asList.provenance.sha256, asDir.provenance.sha256);
    const reordered = await sampleFrames({ frames: [list[2]!, list[0]!, list[1]!] }, { mode: "all" }, { cacheDir: freshCache() });
    assert.notEqual(reordered.provenance.sha256, provenance.sha256);
  });

  test("sourceFps gives image frames timestamps and enables fps sampling", async () => {
    const { frames, provenance } = await sampleFrames({ dir: framesDir }, { mode: "fps", fps: 2 }, { sourceFps: 5, cacheDir: freshCache() });
    // 12 frames at 5 fps: t = 0, 0.5, 1.0, 1.5, 2.0 (< 11/5 + 1/5 = 2.4) → positions 0, 2.5→2, 5, 7.5→7, 10
    assert.deepEqual(provenance.indices, [0, 2, 5, 7, 10]);
    assert.deepEqual(provenance.timestamps, [0, 0.4, 1, 1.4, 2]);
    assert.equal(provenance.fps, 5);
    assert.deepEqual(await identities(frames), [1, 3, 6, 8, 11]);
    await assert.rejects(sampleFrames({ dir: framesDir }, { mode: "fps", fps: 2 }, { cacheDir: freshCache() }), (e: unknown) => {
      assert.ok(e instanceof MediaError);
      assert.ok(e.message.includes(framesDir), e.message);
      return true;
    });
  });

  test("maxPixels on images; a cache hit for folders too", async () => {
    const big = join(work, "big.png");
    await sharp({ create: { width: 400, height: 100, channels: 4, background: { ...colourOf(3), alpha: 1 } } }).png().toFile(big);
    const cacheDir = freshCache();
    const first = await sampleFrames({ frames: [big] }, { mode: "all" }, { maxPixels: 10000, cacheDir });
    assert.deepEqual(first.provenance.resizedTo, [200, 50]);
    assert.equal(first.frames[0]!.width, 200);
    assert.equal(first.frames[0]!.height, 50);
    assert.equal((await sharp(first.frames[0]!.png).metadata()).channels, 3);
    assert.deepEqual(await identities(first.frames), [3]);
    const second = await sampleFrames({ frames: [big] }, { mode: "all" }, { maxPixels: 10000, cacheDir });
    assert.equal(second.provenance.cached, true);
    assert.deepEqual(second.frames, first.frames);
  });
});

describe("errors name the file", () => {
  const rejectsNaming = async (promise: Promise<unknown>, ...needles: string[]) =>
    assert.rejects(promise, (e: unknown) => {
      assert.ok(e instanceof MediaError, `expected MediaError, got ${String(e)}`);
      for (const n of needles) assert.ok(e.message.includes(n), `"${e.message}" should mention ${n}`);
      return true;
    });

  test("missing video / folder / list entry", async () => {
    const missing = join(work, "nope.mp4");
    await rejectsNaming(sampleFrames({ video: missing }, { mode: "all" }, { cacheDir: freshCache() }), missing, "missing");
    const missingDir = join(work, "no-such-folder");
    await rejectsNaming(sampleFrames({ dir: missingDir }, { mode: "all" }, { cacheDir: freshCache() }), missingDir, "missing");
    const missingFrame = join(framesDir, "frame_99.png");
    await rejectsNaming(
      sampleFrames({ frames: [join(framesDir, "frame_1.png"), missingFrame] }, { mode: "all" }, { cacheDir: freshCache() }),
      missingFrame,
    );
  });

  test("a file ffprobe cannot read", async () => {
    const bad = join(work, "not-a-video.mp4");
    await writeFile(bad, "hello, I am text\n");
    await rejectsNaming(sampleFrames({ video: bad }, { mode: "all" }, { cacheDir: freshCache() }), bad, "unreadable");
    const empty = join(work, "empty.mp4");
    await writeFile(empty, "");
    await rejectsNaming(sampleFrames({ video: empty }, { mode: "all" }, { cacheDir: freshCache() }), empty, "empty");
  });

  test("a video with 0 frames, and a file with no video stream", async () => {
    const zero = join(work, "zero.avi");
    ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-frames:v", "0", zero]);
    await rejectsNaming(sampleFrames({ video: zero }, { mode: "uniform", count: 4 }, { cacheDir: freshCache() }), zero, "0 frames");
    const audio = join(work, "audio-only.m4a");
    ffmpeg(["-f", "lavfi", "-i", "sine=duration=0.5", audio]);
    await rejectsNaming(sampleFrames({ video: audio }, { mode: "all" }, { cacheDir: freshCache() }), audio, "0 frames");
  });

  test("empty folder, folder without images", async () => {
    const emptyDir = join(work, "empty-folder");
    await mkdir(emptyDir);
    await rejectsNaming(sampleFrames({ dir: emptyDir }, { mode: "all" }, { cacheDir: freshCache() }), emptyDir, "0 frames");
    const textDir = join(work, "text-folder");
    await mkdir(textDir);
    await writeFile(join(textDir, "readme.txt"), "x");
    await rejectsNaming(sampleFrames({ dir: textDir }, { mode: "all" }, { cacheDir: freshCache() }), textDir, "0 frames");
    await rejectsNaming(sampleFrames({ frames: [] }, { mode: "all" }, { cacheDir: freshCache() }), "0 frames");
  });

  test("an unreadable image names that image", async () => {
    const dir = join(work, "corrupt-folder");
    await mkdir(dir);
    await copyFile(join(framesDir, "frame_1.png"), join(dir, "a_1.png"));
    await writeFile(join(dir, "a_2.png"), "not a png");
    await rejectsNaming(sampleFrames({ dir }, { mode: "all" }, { cacheDir: freshCache() }), join(dir, "a_2.png"), "unreadable");
  });

  test("index beyond the last frame (or negative) names the file and the index", async () => {
    await rejectsNaming(sampleFrames({ video: clip }, { mode: "indices", indices: [3, 30] }, { cacheDir: freshCache() }), clip, "30", "0..29");
    await rejectsNaming(sampleFrames({ video: clip }, { mode: "indices", indices: [-1] }, { cacheDir: freshCache() }), clip, "-1");
    await rejectsNaming(sampleFrames({ dir: framesDir }, { mode: "indices", indices: [12] }, { cacheDir: freshCache() }), framesDir, "12", "0..11");
    await assert.rejects(sampleFrames({ video: clip }, { mode: "indices", indices: [30] }, { cacheDir: freshCache() }), (e: unknown) => {
      assert.ok(e instanceof MediaError);
      assert.equal(e.file, clip);
      assert.equal(e.index, 30);
      return true;
    });
  });

  test("bad specs and sources are programming errors, not MediaErrors", async () => {
    await assert.rejects(sampleFrames({ video: clip }, { mode: "uniform", count: 0 }), RangeError);
    await assert.rejects(sampleFrames({ video: clip }, { mode: "fps", fps: 0 }), RangeError);
    await assert.rejects(sampleFrames({ video: clip }, { mode: "indices", indices: [1.5] }), RangeError);
    await assert.rejects(sampleFrames({ video: clip }, { mode: "all" }, { maxPixels: 0 }), RangeError);
    await assert.rejects(sampleFrames({ video: clip, dir: framesDir }, { mode: "all" }), TypeError);
    await assert.rejects(sampleFrames({}, { mode: "all" }), TypeError);
  });

  test("ffmpeg / ffprobe not installed: a clear error, not a MediaError", async () => {
    const cacheDir = freshCache();
    const previous = setFfmpegPaths({ ffprobe: join(work, "no-ffprobe-here") });
    try {
      await assert.rejects(sampleFrames({ video: clip }, { mode: "all" }, { cacheDir }), (e: unknown) => {
        assert.ok(e instanceof FfmpegNotFoundError && !(e instanceof MediaError));
        assert.match(e.message, /^ffprobe not found: install Debian's ffmpeg/);
        return true;
      });
    } finally {
      setFfmpegPaths(previous);
    }
    await sampleFrames({ video: clip }, { mode: "indices", indices: [1] }, { cacheDir }); // caches the probe
    setFfmpegPaths({ ffmpeg: join(work, "no-ffmpeg-here") });
    try {
      await assert.rejects(sampleFrames({ video: clip }, { mode: "indices", indices: [2] }, { cacheDir }), (e: unknown) => {
        assert.ok(e instanceof FfmpegNotFoundError);
        assert.match(e.message, /^ffmpeg not found: install Debian's ffmpeg/);
        return true;
      });
    } finally {
      setFfmpegPaths(previous);
    }
  });
});

describe("pure helpers", () => {
  test("thinEvenly: positions round(i (n-1) / (max-1)), first and last kept", () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);
    const cases: Array<[number, number, number[]]> = [
      [12, 8, [0, 2, 3, 5, 6, 8, 9, 11]], // 11/7 = 1.571: 0, 1.57, 3.14, 4.71, 6.29, 7.86, 9.43, 11
      [10, 3, [0, 5, 9]], // 0, 4.5 (half up), 9
      [9, 4, [0, 3, 5, 8]], // 8/3: 0, 2.67, 5.33, 8
      [10, 4, [0, 3, 6, 9]],
      [100, 4, [0, 33, 66, 99]],
      [7, 2, [0, 6]],
      [7, 1, [0]],
    ];
    for (const [n, max, positions] of cases) {
      const r = thinEvenly(items(n), max);
      assert.deepEqual(r.keptPositions, positions, `n=${n} max=${max}`);
      assert.deepEqual(r.kept, positions.map((p) => `f${p}`));
      assert.equal(r.note, `${n} frames thinned to ${max} (provider limit)`);
    }
    assert.deepEqual(thinEvenly(items(5), 5), { kept: items(5), keptPositions: [0, 1, 2, 3, 4], note: null });
    assert.deepEqual(thinEvenly(items(3), 8), { kept: items(3), keptPositions: [0, 1, 2], note: null });
    assert.deepEqual(thinEvenly([], 4), { kept: [], keptPositions: [], note: null });
    assert.deepEqual(thinEvenly(items(3), Infinity).keptPositions, [0, 1, 2]);
    assert.deepEqual(thinEvenly(items(3), 0), { kept: [], keptPositions: [], note: "3 frames thinned to 0 (provider limit)" });
    assert.throws(() => thinEvenly(items(3), 1.5), RangeError);
    assert.throws(() => thinEvenly(items(3), -1), RangeError);
  });

  test("uniformIndices matches numpy linspace(...).astype(int)", () => {
    assert.deepEqual(uniformIndices(20, 4), [0, 6, 12, 19]);
    assert.deepEqual(uniformIndices(30, 4), [0, 9, 19, 29]);
    assert.deepEqual(uniformIndices(10, 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(uniformIndices(5, 9), [0, 1, 2, 3, 4]);
    assert.deepEqual(uniformIndices(1, 3), [0]);
    // np.linspace(0, 99, 8).astype(int)
    assert.deepEqual(uniformIndices(100, 8), [0, 14, 28, 42, 56, 70, 84, 99]);
  });

  test("fpsIndices: last frame at or before each k / fps", () => {
    assert.deepEqual(fpsIndices([0, 0.1, 0.2, 0.3, 0.4], 5, 0.5), [0, 2, 4]);
    assert.deepEqual(fpsIndices([0, 1, 2], 0.5, 3), [0, 2]);
    assert.deepEqual(fpsIndices([0], 30, 0.04), [0]);
    assert.deepEqual(fpsIndices([0, 0.1, 0.2], 1e9, 0.3), [0, 1, 2]);
  });

  test("fitWithin and naturalCompare", () => {
    assert.equal(fitWithin(64, 48, 3072), null);
    assert.deepEqual(fitWithin(64, 48, 800), [32, 24]);
    assert.deepEqual(fitWithin(1920, 1080, 640 * 360), [640, 360]);
    assert.deepEqual(fitWithin(10000, 1, 100), [100, 1]);
    for (const [w, h, m] of [[1921, 1081, 50000], [333, 777, 1234], [4000, 3000, 12345]] as const) {
      const [a, b] = fitWithin(w, h, m)!;
      assert.ok(a * b <= m && a <= w && b <= h);
      assert.ok(Math.abs(a / b - w / h) / (w / h) < 0.05);
    }
    const names = ["frame_10.png", "frame_2.png", "frame_1.png", "frame_02.png", "a.png", "frame_1b.png"];
    assert.deepEqual([...names].sort(naturalCompare), ["a.png", "frame_1.png", "frame_1b.png", "frame_2.png", "frame_02.png", "frame_10.png"]);
  });
});

/** The fps rule by its definition: for k = 0, 1, ... while k / fps < end (k = 0 always), the last frame at or before k / fps (+1 µs). */
function fpsByDefinition(timestamps: readonly number[], fps: number, end: number): number[] {
  const out: number[] = [];
  for (let k = 0; k === 0 || k / fps < end - 1e-6; k++) {
    let frame = 0;
    while (frame + 1 < timestamps.length && timestamps[frame + 1]! <= k / fps + 1e-6) frame++;
    if (out[out.length - 1] !== frame) out.push(frame);
  }
  return out;
}

test("issue 25: fpsIndices always ends: an fps of 1e300 (which once left k + 1 == k for good) takes every frame at once", () => {
  const ts = Array.from({ length: 30 }, (_, i) => Math.round((i / 10) * 1e6) / 1e6);
  const started = performance.now();
  assert.deepEqual(fpsIndices(ts, 1e300, 3), Array.from({ length: 30 }, (_, i) => i));
  assert.deepEqual(fpsIndices(ts, 1e20, 3), Array.from({ length: 30 }, (_, i) => i));
  assert.deepEqual(fpsIndices([0, 1e6, 2e6], 1e300, 3e6), [0, 1, 2], "timestamps far from 0, where k / fps has few bits to spare");
  assert.deepEqual(planFrameIndices({ mode: "fps", fps: 1e300 }, 30, ts, 0.1), { ok: true, indices: Array.from({ length: 30 }, (_, i) => i) });
  assert.ok(performance.now() - started < 1000);
  for (const bad of [0, -1, Infinity, Number.NaN]) assert.throws(() => fpsIndices(ts, bad, 3), /fps must be a positive finite number/);
});

test("issue 25: fpsIndices still follows its definition for ordinary rates (random clips and rates against the rule itself)", () => {
  let seed = 25;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(random() * 40);
    const rate = [5, 10, 24, 29.97, 30, 60][trial % 6]!;
    const ts = Array.from({ length: n }, (_, i) => Math.round((i / rate) * 1e6) / 1e6);
    const fps = Math.round(random() * 1000) / 10 + 0.1;
    const end = ts[n - 1]! + 1 / rate;
    assert.deepEqual(fpsIndices(ts, fps, end), fpsByDefinition(ts, fps, end), `n ${n}, clip ${rate} fps, sampled at ${fps}`);
  }
});

test("issue 25: the sampler refuses an fps above 1000 before reading anything", async () => {
  await assert.rejects(sampleFrames({ video: "/nonexistent.mp4" }, { mode: "fps", fps: 1e300 }), { name: "RangeError", message: "fps must be above 0 and at most 1000 (got 1e+300)" });
  await assert.rejects(sampleFrames({ dir: "/nonexistent" }, { mode: "all" }, { sourceFps: 5000 }), { name: "RangeError", message: "sourceFps must be above 0 and at most 1000 (got 5000)" });
});
