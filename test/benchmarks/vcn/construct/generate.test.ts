/**
 * examples/vcn-mini is exactly what the command in its README makes (so a seed regenerates the
 * same bytes), and the generator's options are checked.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { listFiles } from "../../../helpers/files.js";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { generateOptions, generateVcnRelease, taskQuotas, vcnRun } from "../../../../src/benchmarks/vcn/construct/index.js";
import { paperFigures } from "../../../../src/benchmarks/vcn/construct/stats.js";

const EXAMPLE = path.resolve(import.meta.dirname, "../../../../examples/vcn-mini");
const EXAMPLE_COMMAND = "spatialprobe generate vcn --out examples/vcn-mini --seed 12 --count 15 --set houses=2 rooms=7-10 fps=2 media=video area=1 speed=0.8 turn=90";

test("generate options: --set keys are read and checked", () => {
  assert.deepEqual(generateOptions({ houses: "3", rooms: "8-9", tours: "2", size: "256", fps: "4", frames: "300", window: "40-200", media: "video", order: "2", instance: "0" }), {
    houses: 3, rooms: [8, 9], tours: 2, imageSide: 256, fps: 4, tourFrames: 300, minWindow: 40, maxWindow: 200, media: "video", perTask: { order: 2, instance: 0 },
  });
  assert.deepEqual(generateOptions({ rooms: "7", window: "50" }), { rooms: [7, 7], minWindow: 50 });
  assert.deepEqual(generateOptions({ area: "1.4", speed: "0.8", turn: "180" }), { area: 1.4, speed: 0.8, turn: 180 });
  assert.throws(() => generateOptions({ rooms: "9-8" }), /rooms must be a whole number from 9 to 48/);
  assert.throws(() => generateOptions({ area: "4" }), /area must be a number from 0.5 to 3, got "4"/);
  assert.throws(() => generateOptions({ speed: "fast" }), /speed must be a number from 0.2 to 3, got "fast"/);
  assert.throws(() => generateOptions({ turn: "-90" }), /turn must be a number from 30 to 360/);
  assert.throws(() => generateOptions({ media: "gif" }), /media must be both, video or frames/);
  assert.throws(() => generateOptions({ colour: "red" }), /no --set option "colour"/);
});

test("houses: one per 10 episodes, at least one (--count 2 rendered a second house that got no episode), or --set houses", () => {
  const houses = (count: number, extra: Record<string, string> = {}) => vcnRun({ outDir: "/tmp/unused", seed: 1, count, extra }).houseCount;
  assert.deepEqual([houses(1), houses(2), houses(10), houses(11), houses(40), houses(250), houses(1250)], [1, 1, 1, 2, 4, 25, 125]);
  assert.equal(houses(2, { houses: "3" }), 3);
});

test("task quotas: explicit counts first, the rest spread over the other tasks in order", () => {
  assert.deepEqual(taskQuotas(12), { count: 3, order: 3, distance: 2, orientation: 2, instance: 2 });
  assert.deepEqual(taskQuotas(10, { instance: 4 }), { count: 2, order: 2, distance: 1, orientation: 1, instance: 4 });
});

test("the set's statistics stand beside the paper's (§3.4): stats.json and the README, the means recomputed from the files", async () => {
  const stats = JSON.parse(await readFile(path.join(EXAMPLE, "stats.json"), "utf8"));
  assert.deepEqual(stats.paper, { episodes: 1250, per_type: 250, tours: 21, prior_video_frames_mean: 157.9, steps_mean: 122.1 });
  const items = (await readFile(path.join(EXAMPLE, "items.jsonl"), "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l) as { annotations: unknown[] });
  const frames = items.reduce((n, i) => n + i.annotations.length, 0) / items.length;
  assert.equal(stats.prior_video.frames.mean, Math.round(frames * 1e4) / 1e4);
  // Shortest-path steps count turns as well as the 0.25 m moves, which the files do not log apart: the README prints stats.json's mean.
  const steps = stats.steps.mean as number;
  const readme = await readFile(path.join(EXAMPLE, "README.md"), "utf8");
  assert.ok(readme.includes(`prior video frames 157.9 on average (here ${frames.toFixed(1)}), shortest-path steps 122.1 (here ${steps.toFixed(1)})`), `${frames} ${steps}`);
  // The example's houses of 7-10 rooms are far below the paper's figures: both are called outside the 15%.
  const ratio = (here: number, paper: number) => Math.round((here / paper) * 1e4) / 1e4;
  assert.deepEqual(stats.paper_comparison, {
    tolerance: 0.15,
    figures: [
      { figure: "prior video frames", paper: 157.9, here: stats.prior_video.frames.mean, ratio: ratio(frames, 157.9), within: false },
      { figure: "shortest-path steps", paper: 122.1, here: steps, ratio: ratio(steps, 122.1), within: false },
    ],
  });
  assert.ok(readme.includes(`within 15% of the paper's: prior video frames NO (${(frames / 157.9).toFixed(2)}x), shortest-path steps NO (${(steps / 122.1).toFixed(2)}x)`));
});

test("a set's means are within 15% of the paper's or not: the bounds are inclusive, a missing mean is neither", () => {
  const at = (mean: number) => ({ mean, min: mean, max: mean });
  // 134.215 = 0.85 x 157.9 (inside); 103.7 < 0.85 x 122.1 = 103.785 (outside); 140.4 = 1.15 x 122.1 (inside).
  assert.deepEqual(paperFigures(at(134.215), at(103.7)).map((f) => [f.ratio, f.within]), [[0.85, true], [0.8493, false]]);
  assert.deepEqual(paperFigures(at(181.6), at(140.415)).map((f) => [f.ratio, f.within]), [[1.1501, false], [1.15, true]]);
  assert.deepEqual(paperFigures(null, null).map((f) => [f.here, f.ratio, f.within]), [[null, null, null], [null, null, null]]);
});

test("examples/vcn-mini is exactly what its README's command makes", { timeout: 600_000 }, async () => {
  const readme = await readFile(path.join(EXAMPLE, "README.md"), "utf8");
  assert.ok(readme.includes(EXAMPLE_COMMAND), "the README states the command");
  const work = await mkdtemp(path.join(tmpdir(), "vcn-mini-"));
  try {
    const fresh = path.join(work, "vcn-mini");
    await generateVcnRelease({ outDir: fresh, seed: 12, count: 15, extra: { houses: "2", rooms: "7-10", fps: "2", media: "video", area: "1", speed: "0.8", turn: "90" }, command: EXAMPLE_COMMAND });
    const [a, b] = [await listFiles(EXAMPLE), await listFiles(fresh)];
    assert.deepEqual(b, a);
    for (const file of a) {
      const [x, y] = await Promise.all([readFile(path.join(EXAMPLE, file)), readFile(path.join(fresh, file))]);
      if (file.endsWith(".jpg")) {
        // JPEG bytes depend on the image library's build; the pixels must match.
        const [px, py] = await Promise.all([sharp(x).raw().toBuffer(), sharp(y).raw().toBuffer()]);
        assert.ok(px.equals(py), file);
      } else assert.equal(createHash("sha256").update(y).digest("hex"), createHash("sha256").update(x).digest("hex"), file);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
