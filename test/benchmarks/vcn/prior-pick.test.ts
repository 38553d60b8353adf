// The release's prior-video frame picking (src/benchmarks/vcn/prior.ts). Every expected list is
// worked out by hand below from the rule: window = listing[start_idx:end_idx] (end exclusive),
// stride = smallest step >= 1 with (end - start) / step < video_max_frame, keep every stride-th.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { compareCodePoints, pickPriorFrames, releaseListing, releaseStride } from "../../../src/benchmarks/vcn/prior.js";

const range = (from: number, to: number, step: number) => Array.from({ length: Math.ceil((to - from) / step) }, (_, k) => from + k * step);

test("stride: the smallest step with length / step < video_max_frame (hand table, cap 50)", () => {
  // 0/1 = 0 < 50; 49/1 = 49 < 50; 50/1 = 50 is not < 50, 50/2 = 25; 99/2 = 49.5; 100/2 = 50 is not, 100/3 = 33.3;
  // 149/3 = 49.67; 150/3 = 50 is not, 150/4 = 37.5; 157/3 = 52.3, 157/4 = 39.25.
  const table: Array<[number, number]> = [[0, 1], [49, 1], [50, 2], [99, 2], [100, 3], [149, 3], [150, 4], [157, 4]];
  for (const [length, stride] of table) assert.equal(releaseStride(length, 50), stride, `length ${length}`);
  // Cap 4: 10/2 = 5 is not < 4, 10/3 = 3.33 is.
  assert.equal(releaseStride(10, 4), 3);
  assert.throws(() => releaseStride(10, 0), RangeError);
});

test("a 157-frame window [0, 157): stride 4, 40 frames 0, 4, ..., 156", () => {
  const pick = pickPriorFrames({ start_idx: 0, end_idx: 157 }, 200);
  assert.ok(pick.ok);
  assert.equal(pick.stride, 4);
  assert.equal(pick.positions.length, 40);
  assert.deepEqual(pick.positions.slice(0, 4), [0, 4, 8, 12]);
  assert.equal(pick.positions.at(-1), 156);
  assert.deepEqual(pick.positions, range(0, 157, 4));
});

test("window [10, 110): stride 3, 34 frames 10, 13, ..., 109 (end exclusive: 110 never picked)", () => {
  const pick = pickPriorFrames({ start_idx: 10, end_idx: 110 }, 110);
  assert.ok(pick.ok);
  assert.equal(pick.stride, 3);
  assert.equal(pick.positions.length, 34);
  assert.equal(pick.positions[0], 10);
  assert.equal(pick.positions.at(-1), 109);
});

test("windows of exactly 50 and 49 frames: 25 frames (stride 2) and 49 frames (stride 1)", () => {
  const fifty = pickPriorFrames({ start_idx: 5, end_idx: 55 }, 60);
  assert.ok(fifty.ok);
  assert.deepEqual(fifty.positions, [5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53]);
  const fortyNine = pickPriorFrames({ start_idx: 3, end_idx: 52 }, 52);
  assert.ok(fortyNine.ok);
  assert.equal(fortyNine.positions.length, 49);
  assert.deepEqual([fortyNine.positions[0], fortyNine.positions.at(-1)], [3, 51]);
});

test("a 149-frame window keeps 50 frames (stride 3: 0, 3, ..., 147), the most the rule ever keeps", () => {
  const pick = pickPriorFrames({ start_idx: 0, end_idx: 149 }, 149);
  assert.ok(pick.ok);
  assert.equal(pick.positions.length, 50);
  assert.equal(pick.positions.at(-1), 147);
});

test("video_max_frame 4 over [2, 12): stride 3, frames 2, 5, 8, 11", () => {
  const pick = pickPriorFrames({ start_idx: 2, end_idx: 12, video_max_frame: 4 }, 12);
  assert.deepEqual(pick, { ok: true, positions: [2, 5, 8, 11], stride: 3 });
});

test("the paper's reading (sampling uniform): np.linspace over the window, exactly video_max_frame frames", () => {
  // [10, 20), 4 frames: linspace(0, 9, 4) = 0, 3, 6, 9 -> 10, 13, 16, 19.
  assert.deepEqual(pickPriorFrames({ start_idx: 10, end_idx: 20, video_max_frame: 4, sampling: "uniform" }, 20), { ok: true, positions: [10, 13, 16, 19], stride: null });
  // [0, 157), 50 frames: step 156/49 = 3.1837; trunc(k * step) for k = 0..6 = 0, 3, 6, 9, 12, 15, 19; the last is 156.
  const pick = pickPriorFrames({ start_idx: 0, end_idx: 157, sampling: "uniform" }, 157);
  assert.ok(pick.ok);
  assert.equal(pick.positions.length, 50);
  assert.deepEqual(pick.positions.slice(0, 7), [0, 3, 6, 9, 12, 15, 19]);
  assert.equal(pick.positions.at(-1), 156);
  // A window shorter than the cap: every frame once.
  assert.deepEqual(pickPriorFrames({ start_idx: 1, end_idx: 4, sampling: "uniform" }, 4), { ok: true, positions: [1, 2, 3], stride: null });
});

test("windows outside the folder are refused, naming the field", () => {
  assert.deepEqual(pickPriorFrames({ start_idx: 5, end_idx: 5 }, 10), { ok: false, field: "end_idx", message: "must be greater than start_idx 5 (the window is [start_idx, end_idx)), got 5" });
  assert.deepEqual(pickPriorFrames({ start_idx: 10, end_idx: 12 }, 10), { ok: false, field: "start_idx", message: "10 is outside the folder's 10 entries (0..9)" });
  assert.deepEqual(pickPriorFrames({ start_idx: 2, end_idx: 11 }, 10), { ok: false, field: "end_idx", message: "11 is past the folder's 10 entries (end_idx is exclusive: at most 10)" });
  // end_idx equal to the folder size is inside (exclusive end): 10 entries, [0, 10) -> stride 1.
  const whole = pickPriorFrames({ start_idx: 0, end_idx: 10 }, 10);
  assert.ok(whole.ok);
  assert.deepEqual(whole.positions, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test("listing order is Python's sorted(): by code point, every entry (no extension filter, hidden files kept)", () => {
  // Code points: "." 46 < "1" 49 < "2" 50 < "B" 66 < "a" 97 < "f" 102.
  const names = ["2.png", "10.png", "a.png", "frame_0001.jpg", "B.png", "._a.png"];
  assert.deepEqual([...names].sort(compareCodePoints), ["._a.png", "10.png", "2.png", "B.png", "a.png", "frame_0001.jpg"]);
  // U+FFFD sorts before U+1F600 by code point; UTF-16 code units (JavaScript's default) put the emoji first.
  assert.deepEqual(["\u{1F600}.png", "\uFFFD.png"].sort(compareCodePoints), ["\uFFFD.png", "\u{1F600}.png"]);
  assert.deepEqual(["\u{1F600}.png", "\uFFFD.png"].sort(), ["\u{1F600}.png", "\uFFFD.png"]);
  assert.equal(compareCodePoints("a", "ab") < 0, true);
  assert.equal(compareCodePoints("ab", "ab"), 0);

  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-listing-"));
  for (const name of ["10.png", "9.png", "notes.txt", ".hidden"]) writeFileSync(path.join(dir, name), "x");
  mkdirSync(path.join(dir, "sub"));
  assert.deepEqual(releaseListing(dir), [".hidden", "10.png", "9.png", "notes.txt", "sub"]);
});
