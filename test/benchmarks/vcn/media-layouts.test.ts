/**
 * Issue 28 item 2: every `generate vcn --set media=...` layout is usable. One small set per layout
 * (seed 31, 2 episodes, one house, 64 x 64 frames at 1 fps: a few seconds each), generated once;
 * each is validated with the request checks, answered by the goal-identification oracle (which
 * must score 100%), and navigated by the oracle (SR 1, RSR 1) and goal-then-plan:oracle, whose
 * frame places must be the tour poses of the frames the item shows.
 */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { generateVcnRelease } from "../../../src/benchmarks/vcn/construct/index.js";
import { vcn } from "../../../src/benchmarks/vcn/index.js";
import { builtinAgent, chooseGoalFrame, goalPoints, innerViewPoints } from "../../../src/benchmarks/vcn/navigate/agents.js";
import { HousePlans } from "../../../src/benchmarks/vcn/navigate/houses.js";
import { runEpisode } from "../../../src/benchmarks/vcn/navigate/loop.js";
import { navigationScores } from "../../../src/benchmarks/vcn/navigate/scores.js";
import { refuseWithoutFramePositions } from "../../../src/benchmarks/vcn/navigate/session.js";
import { loadNavTasks, type NavTask } from "../../../src/benchmarks/vcn/navigate/tasks.js";
import type { EpisodeRecord } from "../../../src/benchmarks/vcn/navigate/types.js";
import type { ItemResult } from "../../../src/core/benchmark.js";
import { DataError, UsageError } from "../../../src/core/problems.js";
import { runItems } from "../../../src/core/run.js";
import { DEFAULT_SETTINGS } from "../../../src/core/types.js";
import { HouseCache } from "../../../src/sim/house-cache.js";
import { createWorldSimulator } from "../../../src/sim/world-sim.js";

type Json = Record<string, any>;
const LAYOUTS = ["video", "frames", "both"] as const;
type Layout = (typeof LAYOUTS)[number];
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-media-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(tmp, "frame-cache");
const setOf = (media: Layout) => path.join(tmp, media);
const signal = new AbortController().signal;

before(async () => {
  for (const media of LAYOUTS) {
    await generateVcnRelease({ outDir: setOf(media), seed: 31, count: 2, extra: { media, houses: "1", rooms: "7-10", size: "64", fps: "1" } });
  }
}, { timeout: 600_000 });
after(() => rmSync(tmp, { recursive: true, force: true }));

const itemsOf = (dir: string): Json[] => readFileSync(path.join(dir, "items.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const episodesOf = (dir: string): Json[] => JSON.parse(gunzipSync(readFileSync(path.join(dir, "episodes.json.gz"))).toString("utf8")).episodes;
const tourOf = (dir: string, item: Json): Json => JSON.parse(readFileSync(path.join(dir, "tours", item.meta.tour, "tour.json"), "utf8"));
/** The window's tour frames, first..last, from the item's meta. */
const windowFrames = (item: Json): number[] => Array.from({ length: item.meta.prior_video.last - item.meta.prior_video.first + 1 }, (_, k) => item.meta.prior_video.first + k);
const floor = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[2]! - b[2]!);

test("the layouts write what they say: tour.mp4 and an indices spec with source_index = tour frame (video, both), frame files listed by name without source_index (frames)", () => {
  for (const media of LAYOUTS) {
    const dir = setOf(media);
    const items = itemsOf(dir);
    assert.equal(items.length, 2, media);
    for (const item of items) {
      const frames = windowFrames(item);
      assert.equal(item.annotations.length, frames.length);
      if (media === "frames") {
        assert.deepEqual(Object.keys(item.tour), ["frames"]);
        assert.deepEqual(item.tour.frames, frames.map((k) => `tours/${item.meta.tour}/frames/${String(k).padStart(4, "0")}.jpg`));
        assert.ok(item.annotations.every((a: Json) => a.source_index === undefined));
      } else {
        assert.deepEqual(item.tour, { video: `tours/${item.meta.tour}/tour.mp4`, spec: { mode: "indices", indices: frames } });
        assert.deepEqual(item.annotations.map((a: Json) => a.source_index), frames);
      }
    }
  }
});

test("every layout validates with the request checks (main refused every annotation of a frame list: its source_index was the tour frame, not the list position)", () => {
  for (const media of LAYOUTS) {
    const loaded = vcn.load(setOf(media), undefined, { requests: { source: vcn.promptSources[0]!, control: "none" } });
    assert.deepEqual(loaded.problems, [], media);
    assert.equal(loaded.items.length, 2);
  }
});

test("goal identification: the oracle scores 100% on every layout; the shown frames are the window's (video frames, or list positions of the frame files)", async () => {
  for (const media of LAYOUTS) {
    const loaded = vcn.load(setOf(media));
    assert.deepEqual(loaded.problems, []);
    const setup = { source: "plain", control: "none", seed: 5 };
    const items = vcn.deriveItems!(loaded.items, setup);
    const { build } = vcn.preparePrompts(items, setup);
    const oracle = vcn.baselines["oracle"]!;
    const results: ItemResult[] = await runItems({
      benchmark: vcn, items, build, settings: DEFAULT_SETTINGS, concurrency: 2, retryErrors: false, signal,
      responder: { kind: "baseline", name: "oracle", reply: (item, prompt) => oracle.reply(item, 1, prompt) },
    });
    const summary = vcn.summarize(items, results, loaded.tasks, { bootstrapResamples: 0, bootstrapSeed: 1 }) as Json;
    assert.equal(summary.score, 1, media);
    const written = new Map(itemsOf(setOf(media)).map((i) => [i.id, i]));
    for (const r of results) {
      assert.equal(r.status, "scored");
      const frames = windowFrames(written.get(r.id)!);
      const expected = media === "frames" ? frames.map((_, k) => k) : frames;
      assert.deepEqual(r.prompt!["source_indices"], expected, `${media} ${r.id}`);
    }
  }
});

async function navigate(dir: string, spec: string, tasks: readonly NavTask[], houses: HouseCache): Promise<EpisodeRecord[]> {
  const env = createWorldSimulator({ dataRoot: dir, houses });
  const out: EpisodeRecord[] = [];
  for (const task of tasks) out.push(await runEpisode(task, env, builtinAgent(spec)!, { intervention: "none", signal }));
  await env.close();
  return out;
}

test("navigation on every layout: frame places are the tour poses of the frames shown; the oracle reaches SR 1 and RSR 1, goal-then-plan:oracle walks to its success frame's place", async () => {
  for (const media of LAYOUTS) {
    const dir = setOf(media);
    const { tasks } = loadNavTasks(dir);
    const written = new Map(itemsOf(dir).map((i) => [i.id, i]));
    for (const t of tasks) {
      const item = written.get(t.id)!;
      const poses = tourOf(dir, item).frames as Json[];
      // Plan (x, y) -> Habitat [x, 0, -y], frame by frame of the window.
      assert.deepEqual(t.framePositions, windowFrames(item).map((k) => [poses[k]!.position[0], 0, -poses[k]!.position[1]]), `${media} ${t.id}`);
      assert.equal(t.framePositionsMissing, null);
    }
    const houses = new HouseCache({ dataRoot: dir });
    try {
      const plans = new HousePlans(dir);
      const records = await navigate(dir, "oracle", tasks, houses);
      const scores = navigationScores(
        { kind: "navigation", benchmark: "vcn", data: dir, model: "oracle", agent: "oracle", mode: "action", intervention: "none", episodes: tasks.length, settings: {} },
        createWorldSimulator({ dataRoot: dir, houses }).info, tasks, records,
        { options: { roomOf: (position, episode) => plans.regionAt(episode.scene_id ?? "", position) ?? null } },
      );
      assert.equal(scores.navigation.summary.SR, 1, media);
      assert.equal(scores.navigation.summary.RSR, 1, media);
      assert.deepEqual(scores.ends, { stop: 2 });
      for (const [k, r] of records.entries()) {
        const last = r.steps[r.steps.length - 1]!.position;
        // Within 0.125 / cos 15 deg + 1 mm of an inner view point (agents.ts oracleReachM, innerViewPoints).
        assert.ok(Math.min(...innerViewPoints(goalPoints(tasks[k]!)).map((p) => floor(p, last))) <= 0.13041, `${media} ${r.episode_id}`);
      }
      const walked = await navigate(dir, "goal-then-plan:oracle", tasks, houses);
      walked.forEach((r, k) => {
        const task = tasks[k]!;
        const frame = chooseGoalFrame(task, "oracle", 0)!;
        assert.equal(r.end, "stop", `${media} ${r.episode_id}`);
        assert.equal(r.decisions[0]!.goal_frame, frame);
        assert.equal(r.decisions[0]!.goal_correct, true);
        assert.ok(r.steps.length > 1, `${media} ${r.episode_id}: it moved`);
        assert.ok(floor(r.steps[r.steps.length - 1]!.position, task.framePositions![frame]!) < 0.25 + 0.25);
      });
    } finally {
      houses.close();
    }
  }
});

test("every episode has one goal entry whose view points are its instances' slices, in instance order", () => {
  for (const media of LAYOUTS) {
    for (const e of episodesOf(setOf(media))) {
      assert.equal(e.goals.length, 1, `${media} ${e.episode_id}`);
      const [goal] = e.goals;
      assert.deepEqual(goal.instances.map((i: Json) => i.instance_id), e.instruction.instance_id);
      let first = 0;
      for (const i of goal.instances) {
        assert.equal(i.view_point_range[0], first);
        first = i.view_point_range[1];
      }
      assert.equal(first, goal.view_points.length);
      assert.deepEqual([goal.position, goal.bbox], [goal.instances[0].position, goal.instances[0].bbox]);
    }
  }
});

test("frame places that cannot be found are a load problem or a refusal that says why, never a silent no-path", () => {
  const copy = path.join(tmp, "frames-copy");
  cpSync(setOf("frames"), copy, { recursive: true });
  const item = itemsOf(copy)[0]!;
  const poses = path.join(copy, "tours", item.meta.tour, "tour.json");
  const tour = tourOf(copy, item);
  // A tour.json without the window's last frame: the set is inconsistent, loading names the file and the frame.
  const last = item.meta.prior_video.last as number;
  writeFileSync(poses, JSON.stringify({ ...tour, frames: tour.frames.filter((f: Json) => f.index !== last) }));
  assert.throws(() => loadNavTasks(copy), (error: unknown) => {
    assert.ok(error instanceof DataError);
    const text = error.problems.map((p) => `${p.file}: ${p.message}`).join("\n");
    assert.match(text, new RegExp(`tours/${item.meta.tour}/tour\\.json: has no pose for prior-video frame ${last - item.meta.prior_video.first} of item ${item.id} \\(items\\.jsonl line 1\\)`));
    return true;
  });
  // No tour.json: places unknown, with the reason; the oracle still runs, goal-then-plan is refused.
  rmSync(poses);
  const { tasks } = loadNavTasks(copy);
  assert.deepEqual(tasks.map((t) => [t.framePositions, t.framePositionsMissing]), tasks.map(() => [null, `no tours/${item.meta.tour}/tour.json (the tour's frame poses)`]));
  assert.doesNotThrow(() => refuseWithoutFramePositions("oracle", []));
  assert.throws(() => refuseWithoutFramePositions("goal-then-plan:oracle", tasks), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, `goal-then-plan:oracle walks to where a prior-video frame was taken, which 2 of 2 episodes do not give (vcn_0001: no tours/${item.meta.tour}/tour.json (the tour's frame poses); vcn_0002: no tours/${item.meta.tour}/tour.json (the tour's frame poses))`);
    return true;
  });
});
