import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadEgoTL } from "../../../src/benchmarks/egotl/load.js";
import { DEFAULT_TEMPLATE_FILE } from "../../../src/benchmarks/egotl/prompt.js";
import { toolSpawns } from "../../../src/media/ffmpeg.js";

// One real clip: 2 s at 10 fps = frames 0..19. A copy cut in half loses the MP4 index (moov, at the end).
const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egotl-check-"));
execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "2", "-pix_fmt", "yuv420p", path.join(dir, "clip.mp4")]);
const bytes = readFileSync(path.join(dir, "clip.mp4"));
writeFileSync(path.join(dir, "cut.mp4"), bytes.subarray(0, bytes.length >> 1));

const OPTIONS = ["turn left", "turn right", "walk ahead", "climb the stairs"];
const clip = (spec?: unknown) => ({ video: "clip.mp4", ...(spec ? { spec } : {}) });

function write(rows: unknown[], name = "test.jsonl"): string {
  writeFileSync(path.join(dir, name), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return path.join(dir, name);
}

const requests = { source: "templates" };

test("every frame an item names exists in its video; cut videos and blank prompt fields are problems", () => {
  const file = write([
    { id: "ok", task: "direction", media: clip({ mode: "indices", indices: [0, 19] }), answer: "Turn left" }, // 1
    { id: "past", task: "direction", media: clip({ mode: "indices", indices: [0, 5, 20, 25] }), answer: "Turn left" }, // 2
    { id: "fps", task: "distance", media: clip({ mode: "fps", fps: 2 }), answer: 1 }, // 3
    { id: "uniform", task: "distance", media: clip({ mode: "uniform", count: 64 }), answer: 1 }, // 4
    { id: "cut", task: "distance", media: { video: "cut.mp4" }, answer: 1 }, // 5
    { id: "blank", task: "planning", media: clip(), abstract_task: " \t", options: OPTIONS, answer: "A" }, // 6
    { id: "cot", task: "next_action", media: clip(), chain_of_thought: "\n", options: OPTIONS, answer: "A" }, // 7
  ]);
  const before = toolSpawns.ffprobe;
  const { items, problems } = loadEgoTL(file, { requests });
  assert.equal(toolSpawns.ffprobe - before, 2, "one probe per video file");
  assert.deepEqual(problems, [
    { file: "test.jsonl", line: 2, field: "media.spec.indices[2]", message: "frame 20 is beyond the 20 frames of clip.mp4" },
    { file: "test.jsonl", line: 2, field: "media.spec.indices[3]", message: "frame 25 is beyond the 20 frames of clip.mp4" },
    { file: "test.jsonl", line: 5, field: "media.video", message: "video cut.mp4 does not open (ffprobe: moov atom not found; Invalid data found when processing input)" },
    { file: "test.jsonl", line: 6, field: "abstract_task", message: "is blank; the planning prompt shows it ({abstract_task})" },
    { file: "test.jsonl", line: 7, field: "chain_of_thought", message: "is blank; the next_action prompt shows it ({chain_of_thought})" },
  ]);
  assert.equal(items.length, 7, "request problems do not drop items: the run refuses the whole set");
  // Scoring reads no video: without the request checks nothing is probed and nothing is wrong.
  const quiet = toolSpawns.ffprobe;
  assert.deepEqual(loadEgoTL(file).problems, []);
  assert.equal(toolSpawns.ffprobe, quiet);
});

test("--tasks: videos of other tasks are not probed", () => {
  const file = write([
    { id: "d", task: "direction", media: clip({ mode: "indices", indices: [3] }), answer: "Turn left" },
    { id: "cut", task: "distance", media: { video: "cut.mp4" }, answer: 1 },
  ]);
  const before = toolSpawns.ffprobe;
  assert.deepEqual(loadEgoTL(file, { requests, tasks: ["direction"] }).problems, []);
  assert.equal(toolSpawns.ffprobe - before, 1);
});

test("the fields needed are the template's placeholders: a --template that shows more needs more", () => {
  const template = path.join(dir, "mine.yaml");
  const text = readFileSync(DEFAULT_TEMPLATE_FILE, "utf8").replace(/^action_recognition: \|\n/m, "action_recognition: |\n  Task: {abstract_task}\n");
  writeFileSync(template, text);
  const file = write([
    { id: "ar", task: "action_recognition", media: clip(), options: OPTIONS, answer: "B" },
    { id: "ar2", task: "action_recognition", media: clip(), abstract_task: "make tea", options: OPTIONS, answer: "B" },
  ]);
  assert.deepEqual(loadEgoTL(file, { requests }).problems, []);
  assert.deepEqual(loadEgoTL(file, { requests: { ...requests, templateFile: template } }).problems, [
    { file: "test.jsonl", line: 1, field: "abstract_task", message: "missing; the action_recognition prompt shows it ({abstract_task})" },
  ]);
});
