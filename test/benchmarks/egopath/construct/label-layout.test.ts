import assert from "node:assert/strict";
import test from "node:test";
import { labelCoverage } from "../../../../src/benchmarks/egopath/audit-marks.js";
import { layoutLabels, originInBox, segmentMeetsBox } from "../../../../src/benchmarks/egopath/construct/label-layout.js";
import { markerStyle } from "../../../../src/benchmarks/egopath/construct/markers.js";
import { createRng } from "../../../../src/stats/rng.js";

// At 1024 px: radius 10, outline 2, font 18, shadow 1. A 2-digit label box is
// 2 x 0.6958 x 18 + 1 = 26.0488 px wide and 0.73 x 18 + 1 = 14.14 px high.
const style = markerStyle(1024);
const W2 = 2 * 0.6958 * 18 + 1;
const H = 0.73 * 18 + 1;

test("a lone marker keeps the release's place: baseline at (x + 12, y - 12)", () => {
  const layout = layoutLabels([{ x: 500, y: 500 }], 1024, 1024, 2, style);
  assert.deepEqual(layout.dropped, []);
  const box = layout.boxes[0]!;
  assert.deepEqual(box, { x0: 512, y0: 488 - H, x1: 512 + W2, y1: 488 });
  assert.deepEqual(originInBox(box, { x: 500, y: 500 }, 2, style), { x: 512, y: 487 });
});

test("a label whose up-right place is taken by a required neighbour's circle moves up-left; at the right border too", () => {
  // The neighbour's circle sits where the first marker's default label would go.
  const layout = layoutLabels([{ x: 500, y: 500, required: true }, { x: 525, y: 481, required: true }], 1024, 1024, 2, style);
  assert.deepEqual(layout.failed, []);
  assert.deepEqual(layout.boxes[0], { x0: 488 - W2, y0: 488 - H, x1: 488, y1: 488 });
  // Against the right border the up-right box would leave the picture.
  const edge = layoutLabels([{ x: 1010, y: 500 }], 1024, 1024, 2, style);
  assert.deepEqual(edge.boxes[0], { x0: 998 - W2, y0: 488 - H, x1: 998, y1: 488 });
});

test("an optional marker with no free place is dropped; a required one is reported", () => {
  // A required ring of markers 13 px around the centre leaves no place within 2.6 reaches free.
  const ring = Array.from({ length: 16 }, (_, k) => ({ x: 300 + 26 * Math.cos((k * Math.PI) / 8), y: 300 + 26 * Math.sin((k * Math.PI) / 8), required: true }));
  const inner = Array.from({ length: 8 }, (_, k) => ({ x: 300 + 13 * Math.cos((k * Math.PI) / 4), y: 300 + 13 * Math.sin((k * Math.PI) / 4), required: true }));
  const outer = Array.from({ length: 24 }, (_, k) => ({ x: 300 + 40 * Math.cos((k * Math.PI) / 12), y: 300 + 40 * Math.sin((k * Math.PI) / 12), required: true }));
  const crowd = [...inner, ...ring, ...outer];
  const optional = layoutLabels([...crowd, { x: 300, y: 300 }], 1024, 1024, 2, style);
  assert.ok(optional.dropped.includes(crowd.length));
  assert.equal(optional.boxes[crowd.length], null);
  const required = layoutLabels([...crowd, { x: 300, y: 300, required: true }], 1024, 1024, 2, style);
  assert.ok(required.failed.includes(crowd.length));
});

test("segments against boxes", () => {
  const box = { x0: 10, y0: 10, x1: 20, y1: 20 };
  assert.equal(segmentMeetsBox({ x: 0, y: 15 }, { x: 30, y: 15 }, box, 0), true);
  assert.equal(segmentMeetsBox({ x: 0, y: 0 }, { x: 8, y: 30 }, box, 0), false);
  // Padded by 5 the box starts at x = 5, which the segment reaches at y = 18.75.
  assert.equal(segmentMeetsBox({ x: 0, y: 0 }, { x: 8, y: 30 }, box, 5), true);
});

test("on 300 random crowded markers every kept label is uncovered by any other mark, whatever the draw order", () => {
  const rng = createRng(27);
  const markers = Array.from({ length: 300 }, () => ({ x: 20 + rng.next() * 984, y: 20 + rng.next() * 984 }));
  const layout = layoutLabels(markers, 1024, 1024, 3, style);
  const kept = markers.flatMap((m, i) => (layout.boxes[i] ? [{ id: 100 + i, x: m.x, y: m.y, label: originInBox(layout.boxes[i]!, m, 3, style) }] : []));
  assert.ok(kept.length > 100 && kept.length + layout.dropped.length === 300, `${kept.length} kept`);
  // The audit's measure, in display order and in reverse: no label covered at all.
  assert.ok(labelCoverage(kept, 1024, 1024).every((c) => c === 0));
  assert.ok(labelCoverage(kept.slice().reverse(), 1024, 1024).every((c) => c === 0));
});
