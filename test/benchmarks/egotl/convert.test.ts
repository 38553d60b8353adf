import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { clipFrames, convertEpisodes, pathLength, placeAnswer } from "../../../src/benchmarks/egotl/convert.js";
import { loadEgoTL } from "../../../src/benchmarks/egotl/load.js";

const EPISODES = path.resolve("test/fixtures/egotl-episodes/episodes.jsonl");

test("clip spans in seconds -> frames n with n / fps in [start, end); Eq. 3 path length", () => {
  assert.deepEqual(clipFrames(0, 1.05, 10), { first_frame: 0, last_frame: 10 }); // 10.5 -> frames 0..10
  assert.deepEqual(clipFrames(1.1, 1.6, 10), { first_frame: 11, last_frame: 15 }); // 1.1 * 10 = 11.000000000000002 in floats: still 11
  assert.deepEqual(clipFrames(1.6, 2, 10), { first_frame: 16, last_frame: 19 }); // 2.0 s is the next clip's first frame
  assert.deepEqual(clipFrames(2.5, 2.55, 10), { first_frame: 25, last_frame: 25 });
  assert.equal(clipFrames(2.91, 2.95, 10), null); // between frames 29 (2.9 s) and 30 (3.0 s)
  assert.deepEqual(clipFrames(1, 2, 29.97), { first_frame: 30, last_frame: 59 }); // 29.97 .. 59.94
  assert.equal(pathLength([[0, 0, 1.6], [0.3, 0.4, 1.6], [0.6, 0.8, 1.6]]), 1); // 0.5 + 0.5 (3-4-5 steps)
  assert.equal(pathLength([[0, 0, 0], [0, 0, 2]]), 2);
  const options = placeAnswer("x", "the answer", ["d1", "d2", "d3"]);
  assert.equal(options.length, 4);
  assert.deepEqual(options.filter((o) => o !== "the answer"), ["d1", "d2", "d3"]);
});

test("the worked example of docs/egotl-items.md: items, problems, and the items load against a real video", () => {
  const { items, problems } = convertEpisodes(EPISODES);
  const span = (a: number, b: number) => ({ video: "ep01.mp4", span: { first_frame: a, last_frame: b } });
  const cot = "I need to walk to the living room, sit down on the sofa and pick up the remote.";
  assert.deepEqual(items.map((i) => [i["id"], i["task"], i["media"], i["answer"]]), [
    ["ep01-planning", "planning", { video: "ep01-memory.mp4" }, cot],
    ["ep01-direction-c00", "direction", span(0, 10), "Move forward"],
    ["ep01-distance-c00", "distance", span(0, 10), 1],
    ["ep01-direction-c01", "direction", span(11, 15), "Turn left"],
    ["ep01-direction-c02", "direction", span(16, 19), "Going down"],
    // Clip 2 has next_distractors and clip 3's action is the next step.
    ["ep01-next_action-c02", "next_action", span(16, 19), "Pick up the remote"],
    ["ep01-action_recognition-c03", "action_recognition", span(20, 29), "Pick up the remote"],
    ["ep01-direction-c04", "direction", span(25, 25), "Move forward"],
    ["ep01-distance-c04", "distance", span(25, 25), 2.345],
    ["ep01-direction-c07", "direction", span(28, 34), "Move forward"],
    ["ep01-distance-c07", "distance", span(28, 34), 0.5],
  ]);
  assert.ok(items.every((i) => i["video_id"] === "ep01"));
  assert.deepEqual(items[1]!["meta"], { clip: 0, start: 0, end: 1.05, transcript: "I am walking straight" });
  assert.equal(items[0]!["abstract_task"], "Watch the television from the sofa");
  assert.equal((items[0]!["options"] as string[]).filter((o) => o === cot).length, 1);
  assert.equal(items[5]!["chain_of_thought"], cot);
  assert.deepEqual([...(items[5]!["options"] as string[])].sort(), ["Open the drawer", "Pick up the remote", "Put down the remote", "Switch off the lamp"]);
  const ar = items[6]!;
  assert.deepEqual([...(ar["options"] as string[])].sort(), ["Open the drawer", "Pick up the remote", "Put down the remote", "Switch off the lamp"]);
  assert.deepEqual(problems.map((p) => [p.line, p.field]), [
    [1, "clips[4].next_distractors"],
    [1, "clips[5].end"],
    [1, "clips[6]"],
    [2, "fps"],
    [2, "clips[0].category"],
  ]);
  assert.equal(problems[0]!.message, "a next-action item needs clips[5].action (the next step)");
  assert.equal(problems[1]!.message, "must be after start (2.9 s)");
  assert.equal(problems[2]!.message, "no frame of a 10 fps video lies in [2.91, 2.95) s");

  // The items in a folder with a 3 s, 10 fps, 1280x720 ep01.mp4: the loader maps the action text
  // to its letter (App. H.2.4) and finds the clip that runs past the video's 30 frames.
  const dir = mkdtempSync(path.join(os.tmpdir(), "egotl-convert-"));
  execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=10", "-t", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p", path.join(dir, "ep01.mp4")]);
  copyFileSync(path.join(dir, "ep01.mp4"), path.join(dir, "ep01-memory.mp4"));
  writeFileSync(path.join(dir, "test.jsonl"), items.map((i) => JSON.stringify(i)).join("\n") + "\n");
  const loaded = loadEgoTL(dir, { requests: { source: "templates" } });
  assert.deepEqual(loaded.problems.map((p) => [p.line, p.field, p.message]), [
    [10, "media.span.last_frame", "frame 34 is beyond the 30 frames of ep01.mp4"],
    [11, "media.span.last_frame", "frame 34 is beyond the 30 frames of ep01.mp4"],
  ]);
  const recognition = loaded.items.find((i) => i.task === "action_recognition")!;
  assert.deepEqual(recognition.truth, { kind: "option", index: (ar["options"] as string[]).indexOf("Pick up the remote") });
  const planning = loaded.items.find((i) => i.task === "planning")!;
  assert.deepEqual(planning.truth, { kind: "option", index: (items[0]!["options"] as string[]).indexOf(cot) });
});
