import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync as copy, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadVcn } from "../../../src/benchmarks/vcn/load.js";
import { toolSpawns } from "../../../src/media/ffmpeg.js";

const example = path.resolve(import.meta.dirname, "../../../test/fixtures/vcn-legacy-mini");
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-check-"));
const png = path.join(example, "houses/house_1/tour/000.png");
mkdirSync(path.join(tmp, "tour"));
mkdirSync(path.join(tmp, "views"));
for (const k of [0, 1, 2]) copy(png, path.join(tmp, "tour", `${k}.png`));
for (const v of ["front", "left", "back", "right"]) copy(png, path.join(tmp, "views", `${v}.png`));
// A video tour: 2 s at 10 fps = frames 0..19 (timestamps 0.0 .. 1.9 s); a copy cut in half does not open.
execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "2", "-pix_fmt", "yuv420p", path.join(tmp, "tour.mp4")]);
const bytes = readFileSync(path.join(tmp, "tour.mp4"));
writeFileSync(path.join(tmp, "cut.mp4"), bytes.subarray(0, bytes.length >> 1));

const annotations = (sourceIndex?: number[]) =>
  [
    { index: 0, room: "K", room_category: "kitchen", objects: [{ id: "chair_1", category: "chair" }], visible_rooms: ["B"] },
    { index: 1, room: "B", room_category: "bedroom", objects: [] },
    { index: 2, room: "C", room_category: "bedroom", objects: [{ id: "bed_1", category: "bed" }] },
  ].map((a, i) => (sourceIndex ? { ...a, source_index: sourceIndex[i] } : a));

const good = {
  id: "q1",
  task: "order",
  scene: "h",
  instruction: "Go to the first bedroom you entered.",
  tour: { dir: "tour" } as Record<string, unknown>,
  annotations: annotations(),
  target: { room: "B" },
  initial_views: { front: "views/front.png", left: "views/left.png", back: "views/back.png", right: "views/right.png" },
};

function load(lines: unknown[], withRequests = true) {
  writeFileSync(path.join(tmp, "items.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return loadVcn(tmp, withRequests ? { requests: { source: "plain" } } : {});
}

test("a video tour must open and sample to the annotated frames, each the video frame its source_index says", () => {
  const lines = [
    // uniform 3 of 20 frames: numpy linspace(0, 19, 3).astype(int) = 0, 9, 19.
    { ...good, id: "ok", tour: { video: "tour.mp4", spec: { mode: "uniform", count: 3 } }, annotations: annotations([0, 9, 19]) }, // 1
    { ...good, id: "si", tour: { video: "tour.mp4", spec: { mode: "uniform", count: 3 } }, annotations: annotations([0, 10, 19]) }, // 2
    { ...good, id: "n4", tour: { video: "tour.mp4", spec: { mode: "uniform", count: 4 } } }, // 3
    { ...good, id: "ix", tour: { video: "tour.mp4", spec: { mode: "indices", indices: [0, 5, 25] } } }, // 4
    // fps 1.5: t = 0, 0.667, 1.333 s -> the frames on screen then: 0, 6, 13.
    { ...good, id: "fps", tour: { video: "tour.mp4", spec: { mode: "fps", fps: 1.5 } }, annotations: annotations([0, 6, 13]) }, // 5
    // fps 1: t = 0, 1 s -> 2 frames for 3 annotations.
    { ...good, id: "fps1", tour: { video: "tour.mp4", spec: { mode: "fps", fps: 1 } } }, // 6
    { ...good, id: "cut", tour: { video: "cut.mp4", spec: { mode: "all" } } }, // 7
  ];
  const before = toolSpawns.ffprobe;
  const { problems } = load(lines);
  assert.equal(toolSpawns.ffprobe - before, 2, "one probe per video file");
  assert.deepEqual(problems, [
    { file: "items.jsonl", line: 2, field: "annotations[1].source_index", message: "tour frame 1 is frame 9 of tour.mp4, but the annotation says 10" },
    { file: "items.jsonl", line: 3, field: "tour.video", message: "the spec takes 4 of the 20 frames in tour.mp4 but 3 tour frames are annotated" },
    { file: "items.jsonl", line: 4, field: "tour.spec.indices[2]", message: "frame 25 is beyond the 20 frames of tour.mp4" },
    { file: "items.jsonl", line: 6, field: "tour.video", message: "the spec takes 2 of the 20 frames in tour.mp4 but 3 tour frames are annotated" },
    { file: "items.jsonl", line: 7, field: "tour.video", message: "video cut.mp4 does not open (ffprobe: moov atom not found; Invalid data found when processing input)" },
  ]);
  // Scoring reads the annotations only: without the request checks nothing is probed.
  const quiet = toolSpawns.ffprobe;
  assert.deepEqual(load(lines, false).problems, []);
  assert.equal(toolSpawns.ffprobe, quiet);
});

test("image tours: indices that exist, positions that match source_index, no fps spec; a blank instruction", () => {
  const { problems } = load([
    { ...good, id: "ok", annotations: annotations([0, 1, 2]) }, // 1
    { ...good, id: "si", annotations: annotations([0, 2, 1]) }, // 2
    { ...good, id: "ix", tour: { frames: ["tour/0.png", "tour/1.png", "tour/2.png"], spec: { mode: "indices", indices: [0, 1, 5] } } }, // 3
    { ...good, id: "fps", tour: { dir: "tour", spec: { mode: "fps", fps: 1 } } }, // 4
    { ...good, id: "blank", instruction: "   " }, // 5
  ]);
  assert.deepEqual(problems, [
    { file: "items.jsonl", line: 2, field: "annotations[1].source_index", message: "tour frame 1 is frame 1 of tour, but the annotation says 2" },
    { file: "items.jsonl", line: 2, field: "annotations[2].source_index", message: "tour frame 2 is frame 2 of tour, but the annotation says 1" },
    { file: "items.jsonl", line: 3, field: "tour.spec.indices[2]", message: "frame 5 is beyond the 3 frames of the frame list" },
    { file: "items.jsonl", line: 4, field: "tour.spec", message: "an fps spec needs frame timestamps, and tour has none" },
    { file: "items.jsonl", line: 5, field: "instruction", message: "is blank; the prompt asks it" },
  ]);
});

test("the example set is clean for every prompt variant", () => {
  for (const source of ["plain", "shuffled-frames", "counterfactual"]) assert.deepEqual(loadVcn(example, { requests: { source } }).problems, [], source);
});
