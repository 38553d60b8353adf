// `import vcn`: released episodes + tour frame folders -> items `run vcn --data` reads.
// Fixture: test/fixtures/vcn-release-mini (episodes, frame annotations, the expected items by hand).
// Frames and views are made here with sharp.
//
// By hand, with --video-max-frame 5. Tour 17DRP5sb8fy/0 holds 0.png .. 13.png; Python's sorted()
// lists it 0, 1, 10, 11, 12, 13, 2, 3, 4, 5, 6, 7, 8, 9 (entries 0..13).
//   ep 101 [0, 14): 14/2 = 7 >= 5, 14/3 = 4.67 < 5 -> stride 3: entries 0, 3, 6, 9, 12 = 0, 11, 2, 5, 8.png
//   ep 102 [4, 12): 8/1 = 8 >= 5, 8/2 = 4 < 5 -> stride 2: entries 4, 6, 8, 10 = 12, 2, 4, 6.png
// Tour 2azQ1b91cZZ/1 holds 00000.png .. 00005.png (sorted as named).
//   ep 7 [1, 6): 5/1 = 5 >= 5, 5/2 = 2.5 < 5 -> stride 2: entries 1, 3, 5.
// Skipped: 103 (no views given), 8 (image goal), 9 (no tour folder).
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { Command } from "commander";
import sharp from "sharp";
import { importRelease, sceneName, taskOf } from "../../../src/benchmarks/vcn/import-release.js";
import { loadVcn } from "../../../src/benchmarks/vcn/load.js";
import { tourSampler } from "../../../src/benchmarks/vcn/prompt.js";
import { registerImport } from "../../../src/cli/import.js";
import { DataError, UsageError } from "../../../src/core/problems.js";

const fixture = path.resolve(import.meta.dirname, "../../fixtures/vcn-release-mini");
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-import-"));
const tours = path.join(tmp, "video_root");
const views = path.join(tmp, "eval_out");
const image = (red: number, format: "png" | "jpeg" = "png") => {
  const img = sharp({ create: { width: 4, height: 4, channels: 3, background: { r: red, g: 0, b: 0 } } });
  return (format === "png" ? img.png() : img.jpeg()).toBuffer();
};
mkdirSync(path.join(tours, "17DRP5sb8fy/0"), { recursive: true });
for (let k = 0; k < 14; k++) writeFileSync(path.join(tours, "17DRP5sb8fy/0", `${k}.png`), await image(10 * k));
mkdirSync(path.join(tours, "2azQ1b91cZZ/1"), { recursive: true });
for (let k = 0; k < 6; k++) writeFileSync(path.join(tours, "2azQ1b91cZZ/1", `${String(k).padStart(5, "0")}.png`), await image(200 + k));
// Views: ep 101 and ep 7 as the released MV-DualVLN run saves them (snapshot/0-view_k.png, red 100 + k);
// ep 102 as named JPEG files.
for (const id of ["17DRP5sb8fy_ep_101", "2azQ1b91cZZ_ep_7"]) {
  mkdirSync(path.join(views, id, "snapshot"), { recursive: true });
  for (let k = 0; k < 4; k++) writeFileSync(path.join(views, id, "snapshot", `0-view_${k}.png`), await image(100 + k));
}
mkdirSync(path.join(views, "17DRP5sb8fy_ep_102"), { recursive: true });
for (const d of ["front", "left", "back", "right"]) writeFileSync(path.join(views, "17DRP5sb8fy_ep_102", `${d}.jpg`), await image(50, "jpeg"));

const base = { episodes: path.join(fixture, "episodes.json"), tours, annotations: path.join(fixture, "annotations"), views, videoMaxFrame: 5 };
const readJsonl = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const red = async (file: string) => (await sharp(file).raw().toBuffer())[0];

test("scene names and task types as the release spells them", () => {
  assert.equal(sceneName("mp3d/17DRP5sb8fy/17DRP5sb8fy.glb"), "17DRP5sb8fy");
  assert.equal(sceneName("17DRP5sb8fy"), "17DRP5sb8fy");
  assert.deepEqual(taskOf("Count"), { ok: true, task: "count" });
  assert.equal(taskOf("image").ok, false);
  assert.deepEqual(taskOf("route"), { ok: false, reason: "task_type \"route\" is not one of count, order, distance, orientation, instance" });
});

test("the mini release imports to the hand-made items; the summary counts what was skipped and why", () => {
  const out = path.join(tmp, "out-1");
  const summary = importRelease({ ...base, out });
  assert.equal(summary.episodes, 6);
  assert.equal(summary.items, 3);
  assert.deepEqual(summary.by_task, { count: 1, instance: 1, order: 1 });
  assert.deepEqual(summary.skipped, {
    "no initial views in <views>/<scene>_ep_<id>/": 1,
    "image-goal episode (not one of the five instruction types)": 1,
    "no tour folder <tours>/<scene>/<hkey>": 1,
  });
  assert.deepEqual(summary.skipped_episodes.map((s) => s.episode_id), ["17DRP5sb8fy_ep_103", "2azQ1b91cZZ_ep_8", "ZZZmissing00_ep_9"]);
  assert.deepEqual(summary.frames_shown, { min: 3, max: 5, mean: 4 }); // 5, 4, 3 frames
  assert.equal(summary.tours, 2);
  assert.equal(summary.tour_entries, 20); // 14 + 6, whole folders
  assert.deepEqual(summary.load_problems, []);
  assert.deepEqual(readJsonl(path.join(out, "items.jsonl")), readJsonl(path.join(fixture, "expected-items.jsonl")));
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, "import-summary.json"), "utf8")).items, 3);
});

test("the imported folder loads as a VCN data set and the prompt shows the release's frames", async () => {
  const out = path.join(tmp, "out-1");
  const { items, problems } = loadVcn(out, { requests: { source: "plain", control: "none" } });
  assert.deepEqual(problems, []);
  assert.deepEqual(items.map((i) => i.id), ["17DRP5sb8fy_ep_101", "17DRP5sb8fy_ep_102", "2azQ1b91cZZ_ep_7"]);
  assert.deepEqual(items[0]!.tour.source.frames!.map((f) => path.basename(f)), ["0.png", "11.png", "2.png", "5.png", "8.png"]);
  const sample = tourSampler({ max_pixels: 10_000 }, path.join(tmp, "cache"));
  const tour = await sample(items[0]!);
  assert.deepEqual(await Promise.all(tour.frames.map(async (f) => (await sharp(f.png).raw().toBuffer())[0])), [0, 110, 20, 50, 80]);
  // MV-DualVLN layout: 0-view_0..3 = front, left, back, right.
  assert.deepEqual(await Promise.all(["front", "left", "back", "right"].map((d) => red(path.join(out, "views/17DRP5sb8fy_ep_101", `${d}.png`)))), [100, 101, 102, 103]);
  // Tour frames are hard links of the originals (same inode), not copies.
  assert.equal(statSync(path.join(out, "tours/17DRP5sb8fy/0/11.png")).ino, statSync(path.join(tours, "17DRP5sb8fy/0/11.png")).ino);
});

test("3D-Mem's view files (back, right, left, front), the default cap, gzip episodes in a folder, --copy", async () => {
  const folder = path.join(tmp, "episodes-gz");
  mkdirSync(folder);
  writeFileSync(path.join(folder, "val.json.gz"), gzipSync(readFileSync(base.episodes)));
  const out = path.join(tmp, "out-3dmem");
  const summary = importRelease({ ...base, episodes: folder, videoMaxFrame: undefined, viewLayout: "3dmem", copy: true, out });
  assert.equal(summary.items, 3);
  assert.equal(summary.linked, 0);
  assert.deepEqual(await Promise.all(["front", "left", "back", "right"].map((d) => red(path.join(out, "views/17DRP5sb8fy_ep_101", `${d}.png`)))), [103, 102, 100, 101]);
  // Cap 50: every window frame is kept (14, 8 and 5 frames).
  const items = readJsonl(path.join(out, "items.jsonl"));
  assert.deepEqual(items.map((i) => i.annotations.length), [14, 8, 5]);
  assert.deepEqual(items[0].tour.prior, { hkey: "0", start_idx: 0, end_idx: 14 });
  assert.equal(items[0].meta.release.file, "val.json.gz");
});

test("malformed episodes, windows outside the folder and incomplete annotations: problems with file and field, nothing written", () => {
  const doc = JSON.parse(readFileSync(base.episodes, "utf8"));
  const [e101, e102, , e7] = doc.episodes;
  const { hkey: _, ...noHkey } = e101;
  const broken = { episodes: [noHkey, { ...e102, end_idx: 15 }, { ...e7, instruction: { ...e7.instruction, instance_id: ["sofa_1"] } }, { ...e7, episode_id: "../../x" }] };
  const file = path.join(tmp, "broken.json");
  writeFileSync(file, JSON.stringify(broken));
  const out = path.join(tmp, "out-broken");
  let error: unknown;
  try {
    importRelease({ ...base, episodes: file, out });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof DataError);
  assert.deepEqual(error.problems.map((p) => [p.file, p.field]), [
    [file, "episodes[0].hkey"],
    [file, "episodes[1].end_idx"],
    [file, "episodes[2].instruction.instance_id[0]"],
    [file, "episodes[3].episode_id"],
  ]);
  assert.equal(error.problems[1]!.message, "15 is past the folder's 14 entries (end_idx is exclusive: at most 14) (tour folder 17DRP5sb8fy/0)");
  assert.throws(() => statSync(out));

  // An annotation file that lacks a frame the window shows.
  const notes = path.join(tmp, "notes");
  mkdirSync(path.join(notes, "17DRP5sb8fy"), { recursive: true });
  const full = JSON.parse(readFileSync(path.join(fixture, "annotations/17DRP5sb8fy/0.frames.json"), "utf8"));
  delete full.frames["11.png"];
  writeFileSync(path.join(notes, "17DRP5sb8fy/0.frames.json"), JSON.stringify(full));
  writeFileSync(file, JSON.stringify({ episodes: [e101] }));
  assert.throws(() => importRelease({ ...base, episodes: file, annotations: notes, out }), (e: unknown) => {
    assert.ok(e instanceof DataError);
    assert.deepEqual(e.problems, [{ file: path.join(notes, "17DRP5sb8fy/0.frames.json"), field: "frames", message: "no entry for 1 frame(s) episode 101 shows: 11.png" }]);
    return true;
  });
  // A malformed annotation file: its own problems, once, whatever number of episodes use it.
  writeFileSync(path.join(notes, "17DRP5sb8fy/0.frames.json"), JSON.stringify({ frames: { "0.png": { room: 3, room_category: "bedroom" } } }));
  writeFileSync(file, JSON.stringify({ episodes: [e101, e102] }));
  assert.throws(() => importRelease({ ...base, episodes: file, annotations: notes, out }), (e: unknown) => {
    assert.ok(e instanceof DataError);
    assert.deepEqual(e.problems.map((p) => [p.file, p.field]), [[path.join(notes, "17DRP5sb8fy/0.frames.json"), "frames.0.png.room"]]);
    return true;
  });
  assert.throws(() => statSync(out));
});

test("a link in the release (a start view, a tour frame) is refused with its name; nothing is read through it or written", () => {
  const hint = "import copies no file through a link: put the file itself in its place";
  const secret = path.join(tmp, "secret.png");
  writeFileSync(secret, "TOPSECRET");
  // A released snapshot view that links to any file on the machine.
  const linkedViews = path.join(tmp, "views-linked");
  cpSync(views, linkedViews, { recursive: true });
  const view = path.join(linkedViews, "17DRP5sb8fy_ep_101/snapshot/0-view_0.png");
  rmSync(view);
  symlinkSync(secret, view);
  const out = path.join(tmp, "out-linked");
  assert.throws(() => importRelease({ ...base, views: linkedViews, out }), (e: unknown) => {
    assert.ok(e instanceof DataError);
    assert.deepEqual(e.problems, [{ file: path.join(linkedViews, "17DRP5sb8fy_ep_101"), field: "views", message: `view 17DRP5sb8fy_ep_101/snapshot/0-view_0.png is a link to a file outside the dataset root; refused (${hint})` }]);
    return true;
  });
  assert.throws(() => statSync(out));
  // A tour frame that links to another frame of the same release is refused too.
  const linkedTours = path.join(tmp, "tours-linked");
  cpSync(tours, linkedTours, { recursive: true });
  rmSync(path.join(linkedTours, "2azQ1b91cZZ/1/00003.png"));
  symlinkSync(path.join(linkedTours, "2azQ1b91cZZ/1/00002.png"), path.join(linkedTours, "2azQ1b91cZZ/1/00003.png"));
  assert.throws(() => importRelease({ ...base, tours: linkedTours, out }), (e: unknown) => {
    assert.ok(e instanceof DataError);
    assert.deepEqual(e.problems.map((p) => [p.field, p.message]), [["episodes[3].hkey", `tour folder 2azQ1b91cZZ/1: 00003.png is a symbolic link; refused (${hint})`]]);
    return true;
  });
  assert.throws(() => statSync(out));
});

test("the CLI command prints the summary and refuses an output folder that already holds items", async () => {
  const out = path.join(tmp, "out-cli");
  const program = new Command().exitOverride();
  registerImport(program);
  const printed: string[] = [];
  const log = console.log;
  console.log = (text: string) => printed.push(text);
  try {
    await program.parseAsync(["import", "vcn", "--episodes", base.episodes, "--tours", tours, "--annotations", base.annotations, "--views", views, "--video-max-frame", "5", "--out", out], { from: "user" });
  } finally {
    console.log = log;
  }
  assert.deepEqual(printed.join("\n").split("\n"), [
    `imported 3 of 6 episodes into ${out} (count 1, instance 1, order 1)`,
    "prior videos: 3-5 frames shown (mean 4.0), release sampling, video_max_frame 5",
    "tours: 2 folders, 20 entries; files 20 hard-linked, 12 copied (start views are always copied)",
    "skipped 3:",
    "  1  no initial views in <views>/<scene>_ep_<id>/",
    "  1  image-goal episode (not one of the five instruction types)",
    "  1  no tour folder <tours>/<scene>/<hkey>",
    "details: import-summary.json",
  ]);
  assert.throws(() => importRelease({ ...base, out }), (e: unknown) => e instanceof UsageError && /items\.jsonl already exists; import into a new folder$/.test(e.message));
  assert.throws(() => importRelease({ ...base, tours: path.join(tmp, "nowhere"), out: path.join(tmp, "out-x") }), (e: unknown) => e instanceof UsageError && e.message === `--tours ${path.join(tmp, "nowhere")} is not a folder`);
});
