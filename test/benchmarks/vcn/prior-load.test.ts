// Items naming the prior video as the release does (tour.prior: hkey, start_idx, end_idx): loaded,
// checked, and the frames the prompt shows are the ones the release picks.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { loadVcn } from "../../../src/benchmarks/vcn/load.js";
import { planShown, promptInfo, tourSampler } from "../../../src/benchmarks/vcn/prompt.js";

// A tour folder tours/h1/T1 of 12 frames named 0.png .. 11.png, each a 4x4 PNG whose red value is
// 10 * its number, plus the four views. Python's sorted() lists the folder as
// 0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9 (entries 0..11).
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-prior-"));
const tour = path.join(tmp, "tours/h1/T1");
mkdirSync(tour, { recursive: true });
mkdirSync(path.join(tmp, "views"));
const pngOf = (red: number) => sharp({ create: { width: 4, height: 4, channels: 3, background: { r: red, g: 0, b: 0 } } }).png().toBuffer();
for (let k = 0; k < 12; k++) writeFileSync(path.join(tour, `${k}.png`), await pngOf(10 * k));
for (const v of ["front", "left", "back", "right"]) writeFileSync(path.join(tmp, "views", `${v}.png`), await pngOf(200));
// A second tour with a text file inside: listing a.png, b.png, c.png, notes.txt.
const other = path.join(tmp, "tours/h1/T2");
mkdirSync(other);
for (const name of ["a.png", "b.png", "c.png"]) writeFileSync(path.join(other, name), await pngOf(5));
writeFileSync(path.join(other, "notes.txt"), "not a frame");

// Window [1, 7) with video_max_frame 4: length 6, 6/1 and 6/2 = 3 -> stride 2 (6/1 = 6 >= 4, 6/2 = 3 < 4);
// entries 1, 3, 5 = files 1.png, 11.png, 3.png.
const good = {
  id: "p1",
  task: "count",
  scene: "h1",
  instruction: "Go to the second bedroom you entered.",
  tour: { prior: { hkey: "T1", start_idx: 1, end_idx: 7, video_max_frame: 4 } },
  annotations: [
    { index: 0, room: "region1", room_category: "bedroom", objects: [], source_index: 1 },
    { index: 1, room: "region2", room_category: "kitchen", objects: [], source_index: 3 },
    { index: 2, room: "region3", room_category: "bedroom", objects: [], source_index: 5 },
  ],
  target: { room: "region3" },
  initial_views: { front: "views/front.png", left: "views/left.png", back: "views/back.png", right: "views/right.png" },
  answers: [2],
};

function loadLines(lines: unknown[], requests = false) {
  writeFileSync(path.join(tmp, "items.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return loadVcn(tmp, requests ? { requests: { source: "plain", control: "none" } } : {});
}

test("a prior item loads: the release's picks in the release's order become the tour", () => {
  const { items, problems } = loadLines([good], true);
  assert.deepEqual(problems, []);
  const item = items[0]!;
  assert.deepEqual(item.tour.source.frames, ["1.png", "11.png", "3.png"].map((f) => path.join(tour, f)));
  assert.deepEqual(item.tour.spec, { mode: "all" });
  assert.equal(item.tour.display, "tours/h1/T1");
  // source_index was checked against the folder positions; the item's annotations do not carry it on.
  assert.deepEqual(item.annotations.map((a) => a.source_index), [undefined, undefined, undefined]);
  // The prompt info records where the shown frames sit in the folder listing.
  assert.deepEqual(item.tour.prior, { positions: [1, 3, 5] });
  assert.deepEqual(promptInfo(planShown(item, "plain", 0), null, item)["prior_positions"], [1, 3, 5]);
});

test("the prompt's sampler shows exactly those files: red 10, 110, 30", async () => {
  const { items } = loadLines([good]);
  const sample = tourSampler({ max_pixels: 10_000 }, path.join(tmp, "cache"));
  const sampled = await sample(items[0]!);
  const reds = await Promise.all(sampled.frames.map(async (f) => (await sharp(f.png).raw().toBuffer())[0]));
  assert.deepEqual(reds, [10, 110, 30]);
});

test("the default cap (50) and the default root (tours): [0, 12) keeps every entry", () => {
  const annotations = Array.from({ length: 12 }, (_, k) => ({ index: k, room: "region1", room_category: "bedroom", objects: [] }));
  const { items, problems } = loadLines([{ ...good, tour: { prior: { hkey: "T1", start_idx: 0, end_idx: 12 } }, annotations, target: { room: "region1" }, answers: undefined }]);
  assert.deepEqual(problems, []);
  assert.deepEqual(items[0]!.tour.source.frames!.map((f) => path.basename(f)), ["0.png", "1.png", "10.png", "11.png", "2.png", "3.png", "4.png", "5.png", "6.png", "7.png", "8.png", "9.png"]);
});

test("sampling uniform (the paper's reading) picks by linspace: [1, 7) with 3 frames -> entries 1, 3, 6", () => {
  // linspace(0, 5, 3) = 0, 2.5, 5 -> 0, 2, 5 -> entries 1, 3, 6 = 1.png, 11.png, 4.png.
  const line = { ...good, tour: { prior: { hkey: "T1", start_idx: 1, end_idx: 7, video_max_frame: 3, sampling: "uniform" } }, annotations: good.annotations.map((a, i) => ({ ...a, source_index: [1, 3, 6][i] })) };
  const { items, problems } = loadLines([line]);
  assert.deepEqual(problems, []);
  assert.deepEqual(items[0]!.tour.source.frames!.map((f) => path.basename(f)), ["1.png", "11.png", "4.png"]);
});

test("every prior defect names file, line and field", () => {
  const prior = good.tour.prior;
  const { items, problems } = loadLines([
    good,
    { ...good, id: "p2", tour: { prior: { ...prior, end_idx: 13 } } },
    { ...good, id: "p3", tour: { prior: { ...prior, start_idx: 12, end_idx: 14 } } },
    { ...good, id: "p4", annotations: good.annotations.slice(0, 2), answers: undefined, target: { room: "region1" } },
    { ...good, id: "p5", annotations: good.annotations.map((a, i) => (i === 1 ? { ...a, source_index: 2 } : a)) },
    { ...good, id: "p6", tour: { prior, spec: { mode: "all" } } },
    { ...good, id: "p7", tour: { prior, dir: "tours/h1/T1" } },
    { ...good, id: "p8", tour: { prior: { ...prior, hkey: "T9" } } },
    { ...good, id: "p9", scene: "a/b" },
    { ...good, id: "p10", tour: { prior: { ...prior, hkey: ".." } } },
    { ...good, id: "p11", tour: { prior: { hkey: "T2", start_idx: 1, end_idx: 4, video_max_frame: 2 } } },
    { ...good, id: "p12", tour: { prior: { ...prior, end_idx: 1 } } },
  ]);
  assert.deepEqual(items.map((i) => i.id), ["p1"]);
  const at = (line: number) => problems.filter((p) => p.line === line).map((p) => ({ field: p.field, message: p.message }));
  assert.deepEqual(at(2), [{ field: "tour.prior.end_idx", message: "13 is past the folder's 12 entries (end_idx is exclusive: at most 12) (tour folder tours/h1/T1)" }]);
  assert.deepEqual(at(3), [{ field: "tour.prior.start_idx", message: "12 is outside the folder's 12 entries (0..11) (tour folder tours/h1/T1)" }]);
  assert.deepEqual(at(4), [{ field: "tour.prior", message: "the release picks 3 frames (every 2nd frame of [1, 7)) but 2 tour frames are annotated" }]);
  assert.deepEqual(at(5), [{ field: "annotations[1].source_index", message: "tour frame 1 is entry 3 (11.png) of tours/h1/T1, but the annotation says 2" }]);
  assert.deepEqual(at(6), [{ field: "tour.spec", message: "a prior tour picks its frames as the release does; give no spec" }]);
  assert.equal(at(7)[0]!.field, "tour");
  assert.match(at(7)[0]!.message, /exactly one of video, frames, dir, prior \(found dir, prior\)/);
  assert.equal(at(8).length, 1);
  assert.equal(at(8)[0]!.field, "tour.prior.hkey");
  assert.match(at(8)[0]!.message, /tours\/h1\/T9/);
  assert.equal(at(9)[0]!.field, "scene");
  assert.equal(at(10)[0]!.field, "tour.prior.hkey");
  // T2 lists a.png, b.png, c.png, notes.txt; [1, 4) with cap 2: 3/1, 3/2 = 1.5 < 2 -> stride 2: entries 1, 3 = b.png, notes.txt.
  assert.equal(at(11)[0]!.field, "tour.prior");
  assert.match(at(11)[0]!.message, /^entry 3 of tours\/h1\/T2: /);
  assert.match(at(11)[0]!.message, /notes\.txt/);
  assert.ok(at(12).some((p) => p.field === "tour.prior.end_idx"));
});
