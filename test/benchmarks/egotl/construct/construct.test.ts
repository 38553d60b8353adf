/**
 * The generated EgoTL-Bench set (src/benchmarks/egotl/construct/) checked against the rules it
 * promises, each re-derived here from the written files and not from the generator's code:
 * direction labels from the stored poses (net yaw, eye height), distances as the path length of
 * the stored 10 fps camera centres (eq. 3), four distinct options with one answer, distractors
 * naming only objects of the house, scene-aware truths re-derived from the written occupancy
 * grids and scene objects, and a seed that regenerates the same bytes.
 *
 * The checks read examples/egotl-mini (made by the command in its README); the last test
 * regenerates it into a temporary folder and compares every byte of the files it makes (all but
 * the whole-episode videos and the longer clips, whose frames the same renderer draws).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadEgoTL } from "../../../../src/benchmarks/egotl/load.js";
import { assembleEgoTLRelease, egoTLFrameSize, egoTLShared, generateEgoTLRelease, generateOptions, planEgoTLRelease, renderEgoTLEpisode, type GenerateEgoTLOptions } from "../../../../src/benchmarks/egotl/construct/index.js";
import { discLineOfSight, lineOfSight, readOccupancyPng } from "../../../../src/world/space/index.js";

type Json = Record<string, any>;
const ROOT = path.resolve(import.meta.dirname, "../../../../examples/egotl-mini");
const rows: Json[] = readFileSync(path.join(ROOT, "test.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const poses = new Map<string, Json>();
const posesOf = (ep: string): Json => {
  if (!poses.has(ep)) poses.set(ep, JSON.parse(readFileSync(path.join(ROOT, "episodes", ep, "poses.json"), "utf8")));
  return poses.get(ep)!;
};
const houseOf = (ep: string) => ep.replace(/_ep\d+$/, "");
const scenes = new Map<string, Json>();
const sceneOf = (house: string): Json => {
  if (!scenes.has(house)) scenes.set(house, JSON.parse(readFileSync(path.join(ROOT, "houses", house, "scene.json"), "utf8")));
  return scenes.get(house)!;
};
/** Frames [x, y, z, yaw, pitch] of an item's clip. */
const clipFrames = (r: Json): number[][] => {
  const [a, b] = r.media.span ? [r.media.span.first_frame, r.media.span.last_frame] : r.meta.frames;
  return posesOf(r.video_id).frames.slice(a, b + 1);
};
const wrap = (d: number) => Math.atan2(Math.sin(d), Math.cos(d));

test("the set loads with the existing loader and holds the six tasks, four each", () => {
  const { items, problems } = loadEgoTL(ROOT);
  assert.deepEqual(problems, []);
  for (const task of ["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"]) {
    assert.ok(items.filter((i) => i.task === task).length >= 1, task);
    assert.ok(items.filter((i) => i.task === task).length <= 4, task);
  }
});

test("direction labels agree with the stored trajectory (net yaw 45 deg, height 0.25 m)", () => {
  const directions = rows.filter((r) => r.task === "direction");
  assert.ok(directions.length > 0);
  for (const r of directions) {
    const f = clipFrames(r);
    let yaw = 0;
    for (let k = 1; k < f.length; k++) yaw += wrap(f[k]![3]! - f[k - 1]![3]!);
    const dz = f[f.length - 1]![2]! - f[0]![2]!;
    const moved = Math.hypot(f[f.length - 1]![0]! - f[0]![0]!, f[f.length - 1]![1]! - f[0]![1]!);
    const deg = (yaw * 180) / Math.PI;
    let expected: string;
    if (Math.abs(deg) >= 45) expected = deg > 0 ? "Turn left" : "Turn right";
    else if (Math.abs(dz) >= 0.25) expected = dz > 0 ? "Going up" : "Going down";
    else {
      assert.ok(Math.abs(deg) < 20 && Math.abs(dz) < 0.1 && moved >= 0.5, `${r.id} is a clear forward walk`);
      expected = "Move forward";
    }
    assert.equal(r.answer, expected, r.id);
  }
});

test("distances equal the path length of the stored 10 fps camera centres, to 0.01 m", () => {
  const distances = rows.filter((r) => r.task === "distance");
  assert.ok(distances.length > 0);
  for (const r of distances) {
    assert.equal(posesOf(r.video_id).fps, 10);
    const f = clipFrames(r);
    let s = 0;
    for (let k = 1; k < f.length; k++) s += Math.hypot(f[k]![0]! - f[k - 1]![0]!, f[k]![1]! - f[k - 1]![1]!, f[k]![2]! - f[k - 1]![2]!);
    assert.equal(r.answer, Math.round(s * 100) / 100, r.id);
  }
});

test("every option list has four distinct options and exactly one answer; letters cover A-D", () => {
  for (const r of rows.filter((x) => x.options)) {
    assert.equal(r.options.length, 4, r.id);
    assert.equal(new Set(r.options.map((o: string) => o.toLowerCase())).size, 4, r.id);
    if (/^[ABCD]$/.test(r.answer)) assert.ok(r.options[r.answer.charCodeAt(0) - 65]);
    else assert.equal(r.options.filter((o: string) => o === r.answer).length, 1, r.id);
  }
  const letters = rows.filter((r) => r.task === "planning" || r.task === "action_recognition").map((r) => r.answer);
  assert.ok(new Set(letters).size >= 3, `answers spread over the letters: ${letters.join("")}`);
});

test("distractors name only objects of the house (the phrases of scene.json's names)", () => {
  for (const r of rows.filter((x) => x.task === "action_recognition" || x.task === "next_action" || x.task === "scene_action")) {
    const names = new Set(Object.values(sceneOf(houseOf(r.video_id)).names as Record<string, string>));
    for (const option of r.options as string[]) {
      // Every "the <phrase>" of an option is a phrase of the house (longest match first).
      const mentioned = [...option.matchAll(/the ([a-zA-Z ]+?)(?= to | on | and |$)/g)].map((m) => m[1]!);
      assert.ok(mentioned.length > 0, option);
      for (const m of mentioned) assert.ok(names.has(m), `${r.id}: "${m}" of "${option}" is an object of the house`);
    }
  }
});

test("scene-aware answers re-derived from the written grids and objects", async () => {
  const items = rows.filter((r) => r.task === "scene_action");
  for (const r of items) {
    const scene = sceneOf(houseOf(r.video_id));
    const meta = r.meta;
    const goal = scene.objects.find((o: Json) => o.id === meta.goal);
    const cx = (goal.bbox.min[0] + goal.bbox.max[0]) / 2, cy = (goal.bbox.min[1] + goal.bbox.max[1]) / 2;
    const bearing = (wrap(Math.atan2(cy - meta.pose.y, cx - meta.pose.x) - meta.pose.yaw) * 180) / Math.PI;
    const grid = await readOccupancyPng(readFileSync(path.join(ROOT, "houses", houseOf(r.video_id), "person_grid.png")), scene.person_grid);
    const raw = await readOccupancyPng(readFileSync(path.join(ROOT, "houses", houseOf(r.video_id), "occupancy.png")), scene.occupancy);
    // Blocked (the README's rule): the person's free space does not hold the straight line, and the
    // line comes within 0.15 m of the raw occupancy; tested with the engine's sight primitives on the
    // grids read back from the PNGs.
    const a: [number, number] = [meta.pose.x, meta.pose.y];
    const clear = lineOfSight(grid, a, meta.approach) || discLineOfSight(raw, a, meta.approach, 0.15);
    const kind = meta.kinds[r.options.indexOf(r.answer)];
    // Every item offers the same four classes; "around" names the blocker, or an object in view
    // that does not block.
    assert.deepEqual([...meta.kinds].sort(), ["around", "left", "right", "straight"], r.id);
    const around = r.options[meta.kinds.indexOf("around")] as string;
    assert.ok(around.startsWith(`Walk around the ${scene.names[String(meta.obstacle)]} to reach the `), `${r.id}: ${around}`);
    if (kind === "around") {
      assert.ok(!clear, `${r.id}: the straight line is blocked`);
      assert.ok(Math.abs(bearing) <= 35);
    } else {
      assert.ok(clear, `${r.id}: the straight line is clear`);
      if (kind === "straight") assert.ok(Math.abs(bearing) <= 10, `${r.id} bearing ${bearing}`);
      if (kind === "left") assert.ok(bearing >= 22, `${r.id} bearing ${bearing}`);
      if (kind === "right") assert.ok(bearing <= -22, `${r.id} bearing ${bearing}`);
    }
    assert.ok(existsSync(path.join(ROOT, r.current_frame)));
  }
});

test("planning: the true chain of thought and three that put one or two walks in another room of the house", () => {
  const roomWords = /in the (?:living room|kitchen|dining room|bedroom|bathroom|office|hallway)\b/g;
  for (const r of rows.filter((x) => x.task === "planning")) {
    const kinds = r.meta.kinds as string[];
    assert.deepEqual([...kinds].sort(), ["both", "first", "second", "true"]);
    assert.equal(kinds["ABCD".indexOf(r.answer)], "true");
    const truth = r.options["ABCD".indexOf(r.answer)] as string;
    assert.ok(truth.startsWith(`My task is to ${r.abstract_task.charAt(0).toLowerCase()}`));
    const houseRooms = new Set((sceneOf(houseOf(r.video_id)).rooms as Json[]).map((room) => `in the ${room.type}`));
    for (const [k, option] of (r.options as string[]).entries()) {
      // The same words but the rooms; the rooms differ in one place (first, second) or two (both).
      assert.equal(option.replace(roomWords, "in the R"), truth.replace(roomWords, "in the R"), r.id);
      const mine = option.match(roomWords)!, theirs = truth.match(roomWords)!;
      for (const m of mine) assert.ok(houseRooms.has(m), `${r.id}: ${m} is a room of the house`);
      const differ = mine.filter((m, i) => m !== theirs[i]).length;
      assert.equal(differ, { true: 0, first: 1, second: 1, both: 2 }[kinds[k]!], `${r.id} ${kinds[k]}`);
    }
  }
});

test("generateOptions reads the --set keys and refuses others", () => {
  assert.deepEqual(generateOptions({ train: "2", episodes: "3", activities: "2", "per-task": "5", media: "clips", antialias: "true", size: "96x72" }), { trainHouses: 2, episodesPerHouse: 3, activitiesPerEpisode: 2, perTask: 5, media: "clips", antialias: true, frameSize: { width: 96, height: 72 } });
  assert.throws(() => generateOptions({ activities: "6" }), /activities/);
  assert.throws(() => generateOptions({ media: "frames" }), /spans or clips/);
  assert.throws(() => generateOptions({ size: "3" }), /WIDTHxHEIGHT/);
  assert.throws(() => generateOptions({ size: "97x72" }), /even sides/);
  assert.throws(() => generateOptions({ size: "16x16" }), /size width must be a whole number from 32 to 1920/);
  assert.throws(() => generateOptions({ colour: "red" }), /no --set option "colour"/);
});

function digest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else out.set(r, createHash("sha256").update(readFileSync(path.join(dir, r))).digest("hex"));
    }
  };
  walk("");
  return out;
}

test("the same seed writes the same bytes (a tiny set generated twice)", { timeout: 240_000 }, async () => {
  const work = mkdtempSync(path.join(tmpdir(), "egotl-construct-"));
  try {
    const options = { seed: 3, houses: 1, trainHouses: 0, episodesPerHouse: 1, activitiesPerEpisode: 1, perTask: 2, frameSize: { width: 96, height: 72 } };
    await generateEgoTLRelease({ outDir: path.join(work, "a"), ...options });
    await generateEgoTLRelease({ outDir: path.join(work, "b"), ...options });
    const a = digest(path.join(work, "a"));
    assert.ok(a.size > 5);
    assert.deepEqual(a, digest(path.join(work, "b")));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("examples/egotl-mini is what the command in its README makes: every file but the whole-episode videos and some clips, regenerated", { timeout: 600_000 }, async () => {
  // The README's command, read as the CLI reads it (--seed, --count, --set key=value ...).
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const command = /```\n(spatialprobe generate egotl [^\n]+)\n```/.exec(readme)![1]!.split(" ").slice(3);
  const flag = (name: string) => command[command.indexOf(name) + 1]!;
  const sets = Object.fromEntries(command.slice(command.indexOf("--set") + 1).map((kv) => kv.split("=") as [string, string]));
  const work = mkdtempSync(path.join(tmpdir(), "egotl-mini-"));
  const shared = egoTLShared();
  try {
    const opts: GenerateEgoTLOptions = { outDir: path.join(work, "mini"), seed: Number(flag("--seed")), houses: Number(flag("--count")), ...generateOptions(sets) };
    const planned = await planEgoTLRelease(opts, shared, true);
    // Rendering every frame of both episodes takes minutes: each episode's current frames and its
    // shortest clip are drawn and encoded, which the renderer and the encoder make as they make all.
    const rendered = [];
    let notMade = 0;
    for (const need of planned.needs) {
      const house = planned.houses.find((h) => h.index === need.house)!;
      const clips = house.episodes.find((e) => e.id === need.id)!.episode.clips.filter((c) => need.clips.includes(c.index));
      const shortest = clips.reduce((a, b) => (b.last - b.first < a.last - a.first ? b : a));
      notMade += 1 + (need.memory ? 1 : 0) + clips.length - 1;
      rendered.push(await renderEgoTLEpisode(house, { ...need, clips: [shortest.index], memory: false }, egoTLFrameSize(opts), path.join(work, "videos", need.id), { episodeVideo: false }));
    }
    await assembleEgoTLRelease(opts, planned, rendered);
    const fresh = digest(path.join(work, "mini"));
    const shipped = digest(ROOT);
    for (const d of [fresh, shipped]) d.delete("README.md");
    const missing = [...shipped.keys()].filter((rel) => !fresh.has(rel));
    assert.equal(missing.length, notMade);
    for (const rel of missing) {
      assert.match(rel, /^episodes\/[^/]+\/(episode\.mp4|memory\.mp4|clips\/clip_\d+_[a-z]+\.mp4)$/);
      shipped.delete(rel);
    }
    assert.ok(fresh.size >= 15, `${fresh.size} files compared`);
    assert.deepEqual(fresh, shipped);
  } finally {
    shared.close();
    rmSync(work, { recursive: true, force: true });
  }
});
