import assert from "node:assert/strict";
import test from "node:test";
import { textBox } from "../../../../src/benchmarks/egopath/construct/label-layout.js";
import { markerStyle } from "../../../../src/benchmarks/egopath/construct/markers.js";
import { labelSheet, numberSheet } from "../../../../src/benchmarks/egopath/construct/sheets.js";
import type { Candidate } from "../../../../src/benchmarks/egopath/construct/types.js";
import { createRng } from "../../../../src/stats/rng.js";

// Twelve floor markers 60 px apart on a diagonal, nearer (smaller depth) lower in the picture; the
// last one is the start (nearest of all).
function candidate(key: number, x: number, y: number, depth: number): Candidate {
  return {
    key, source: "floor_grid", world: [key, 0, 0], image: [x, y], depth, pointWalkable: true, embodiedFeasible: true,
    onObjectPixel: false, onStructuralPixel: false, occluded: false, pointClearanceM: 1, embodiedClearanceM: 1,
  };
}
const markers = Array.from({ length: 11 }, (_, k) => candidate(k, 100 + 60 * k, 900 - 60 * k, 1 + k));
const start = candidate(11, 512, 1000, 0.5);
const laid = labelSheet([start], markers, 1024);
const style = markerStyle(1024);

test("depth numbering is the release's: nearest first, the sheet unchanged", () => {
  assert.deepEqual(laid.sheet.candidates.map((c) => c.key), [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(numberSheet(laid, "depth", createRng(1), 1024), laid.sheet);
});

test("shuffled numbering: the start is 1, the rest in the order the seeded draw gives", () => {
  const sheet = numberSheet(laid, "shuffled", createRng(5), 1024, start);
  // The same draw over the depth positions 1..11 (position 0 is the start).
  const drawn = createRng(5).shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  assert.deepEqual(sheet.candidates.map((c) => c.key), [11, ...drawn.map((p) => p - 1)]);
  assert.notDeepEqual(sheet.candidates.map((c) => c.key), laid.sheet.candidates.map((c) => c.key));
});

test("a renumbered label sits inside the room its marker reserved, centred for its own digits", () => {
  const sheet = numberSheet(laid, "shuffled", createRng(5), 1024, start);
  sheet.candidates.forEach((c, k) => {
    const reserved = laid.boxes[laid.sheet.candidates.indexOf(c)]!;
    const drawn = textBox(sheet.labels[k]!, String(k + 1).length, style);
    assert.ok(drawn.x0 >= reserved.x0 - 1e-9 && drawn.x1 <= reserved.x1 + 1e-9 && drawn.y0 >= reserved.y0 - 1e-9 && drawn.y1 <= reserved.y1 + 1e-9, `label ${k + 1}`);
  });
});

test("without a start on the sheet every marker is drawn (a1/b1 sheets)", () => {
  const sheet = numberSheet(laid, "shuffled", createRng(9), 1024);
  const drawn = createRng(9).shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  assert.deepEqual(sheet.candidates, drawn.map((p) => laid.sheet.candidates[p]));
});
