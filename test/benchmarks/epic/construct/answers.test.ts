/**
 * The rules behind EPIC-Bench answers that the picture must decide (issue 29): the no-target cap
 * and the yes/no balance applied at assembly, the plan outline of a model (Geometry), the silhouette in the picture
 * (ObjectProjections), and the colour word an object shows (Color). Expected values are worked out
 * by hand from the rules' definitions.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { keptForBalance, zeroTargetCap } from "../../../../src/benchmarks/epic/construct/balance.js";
import { plausibleOn } from "../../../../src/benchmarks/epic/construct/manipulation.js";
import { classifyOutline, rasterOutline, topViewTriangles } from "../../../../src/benchmarks/epic/construct/outline.js";
import { silhouetteOf } from "../../../../src/benchmarks/epic/construct/targets.js";
import { visibleColors, type EpicView } from "../../../../src/benchmarks/epic/construct/view.js";
import type { SceneObject } from "../../../../src/world/types.js";

test("no-target samples are cut to a quarter of a task and of each description word, evenly over the set; Visual Matching keeps up to 35%", () => {
  // Task A: 3 with a target, 5 without: at most 0.25 / 0.75 x 3 = 1 kept (the one where 1 x 1 / 5 first steps: the 5th).
  const a = [false, true, true, false, true, true, true, false].map((zero) => ({ leaf: "A", zeroTarget: zero }));
  // Task B: 6 with a target, 2 without: 2 <= 0.25 / 0.75 x 6 = 2, both kept.
  const b = [true, false, false, false, true, false, false, false].map((zero) => ({ leaf: "B", zeroTarget: zero }));
  const kept = keptForBalance([...a, ...b]);
  assert.deepEqual(kept.slice(0, 8), [true, false, false, true, false, false, true, true]);
  assert.deepEqual(kept.slice(8), [true, true, true, true, true, true, true, true]);
  // Per word: "purple" only ever names no target, so none of its samples stays; "gray" has 6 with a target and keeps 2 of 3.
  const words = [...Array.from({ length: 3 }, () => ({ leaf: "Color", keys: ["purple"], zeroTarget: true })), ...Array.from({ length: 6 }, () => ({ leaf: "Color", keys: ["gray"], zeroTarget: false })), ...Array.from({ length: 3 }, () => ({ leaf: "Color", keys: ["gray"], zeroTarget: true }))];
  assert.deepEqual(keptForBalance(words), [false, false, false, true, true, true, true, true, true, false, true, true]);
  // Rounded up per word (1/3 of 1 target allows 1 of "red" and 1 of "blue"), then down per task (1/3 of 2: none).
  const few = ["red", "red", "blue", "blue"].map((key, i) => ({ leaf: "Color", keys: [key], zeroTarget: i % 2 === 1 }));
  assert.deepEqual(keptForBalance(few), [true, false, true, false]);
  // Second words apart: "gray sofas" x 2 without a target and "gray chairs" x 6 with one: the colour allows 2, the noun "sofas" none.
  const nouns = [...Array.from({ length: 2 }, () => ({ leaf: "Color", keys: ["gray", "sofa"], zeroTarget: true })), ...Array.from({ length: 6 }, () => ({ leaf: "Color", keys: ["gray", "chair"], zeroTarget: false }))];
  assert.deepEqual(keptForBalance(nouns), [false, false, true, true, true, true, true, true]);
  // Visual Matching: 13 with a match, 10 without: 0.35 / 0.65 x 13 = 7 kept.
  const vm = Array.from({ length: 23 }, (_, i) => ({ leaf: "VisualMatching", zeroTarget: i < 10 }));
  assert.equal(zeroTargetCap("VisualMatching"), 0.35);
  assert.equal(keptForBalance(vm).filter((k, i) => k && i < 10).length, 7);
});

test("yes/no answers (placement feasibility) are evened per object word, per surface word, then per task: one more of either allowed", () => {
  const P = (keys: string[], answer: boolean) => ({ leaf: "PlacementRegion", keys, zeroTarget: false, answer });
  const samples = [
    P(["armchair", "table"], false), P(["armchair", "table"], false), P(["armchair", "table"], false), P(["armchair", "table"], true),
    P(["vase", "table"], true), P(["vase", "table"], true), P(["vase", "desk"], false),
    P(["lamp", "shelf"], true), P(["lamp", "shelf"], true), P(["book", "shelf"], true), P(["cup", "counter"], true),
    { leaf: "Category", keys: ["chair"], zeroTarget: false },
  ];
  // Objects: armchair 3 no and 1 yes -> 2 no kept (the 2nd and 3rd); vase 2:1 stays; lamp 2 yes, 0 no -> 1 (the 2nd); book and cup one each.
  // Surfaces: table 3 yes (3, 4, 5), 2 no (1, 2) stays; shelf 2 yes (8, 9) -> 1 (9); desk and counter one each.
  // Task: 5 yes (3, 4, 5, 9, 10) and 3 no (1, 2, 6) -> 4 yes, the first dropped. Category has no yes/no answer.
  assert.deepEqual(keptForBalance(samples), [false, true, true, false, true, true, true, false, false, true, true, true]);
});

/** Flat triangles of axis-aligned rectangles [x0, y0, x1, y1] (two each). */
function rects(...boxes: Array<[number, number, number, number]>): number[] {
  return boxes.flatMap(([x0, y0, x1, y1]) => [x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1]);
}

/** A fan of n triangles approximating an ellipse of radii rx, ry. */
function ellipse(rx: number, ry: number, n = 96): number[] {
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n, b = (2 * Math.PI * (k + 1)) / n;
    out.push(0, 0, rx * Math.cos(a), ry * Math.sin(a), rx * Math.cos(b), ry * Math.sin(b));
  }
  return out;
}

const outlineOfTriangles = (tri: number[]) => classifyOutline(rasterOutline(tri));

test("plan outlines: square, rectangle, disc, oval, L, and a cross that is none of them", () => {
  assert.deepEqual(outlineOfTriangles(rects([0, 0, 0.5, 0.5])), { round: false, square: true, rectangular: true, "L-shaped": false });
  assert.deepEqual(outlineOfTriangles(rects([0, 0, 1.2, 0.6])), { round: false, square: false, rectangular: true, "L-shaped": false });
  // A disc fills pi/4 of its box (0.785 < 0.85: not rectangular) and is its inscribed ellipse.
  assert.deepEqual(outlineOfTriangles(ellipse(0.4, 0.4)), { round: true, square: false, rectangular: false, "L-shaped": false });
  assert.deepEqual(outlineOfTriangles(ellipse(0.9, 0.5)), { round: true, square: false, rectangular: false, "L-shaped": false });
  // An L: a 2 x 2 box without its top-right 1 x 1 quarter (empty corner 25%, the rest full).
  assert.deepEqual(outlineOfTriangles(rects([0, 0, 2, 1], [0, 1, 1, 2])), { round: false, square: false, rectangular: false, "L-shaped": true });
  // A plus sign: four empty corners of (1/3)^2 each; fill 5/9; IoU with the inscribed circle well below 0.8.
  const plus = outlineOfTriangles(rects([1, 0, 2, 3], [0, 1, 3, 2]));
  assert.deepEqual(plus, { round: false, square: false, rectangular: false, "L-shaped": false });
  // A square with a 0.3464 x 0.3464 corner cut off: fill 0.88 (0.875 on the 48-cell grid), in the rectangular dead band.
  assert.equal(outlineOfTriangles(rects([0, 0, 1, 0.6536], [0, 0.6536, 0.6536, 1])).rectangular, null);
});

test("a model's plan is its x and z (y is up)", () => {
  const part = { positions: Float32Array.from([0, 0, 0, 2, 5, 0, 2, 9, 1]), indices: Uint32Array.from([0, 1, 2]) };
  assert.deepEqual([...topViewTriangles([part])], [0, 0, 2, 0, 2, 1]);
});

/** A view with the given objects' pixel boxes (x0, y0, x1, y1, ends exclusive) in a 100 x 80 picture. */
function viewWithBoxes(boxes: Record<number, [number, number, number, number]>): EpicView {
  const stats = new Map(Object.entries(boxes).map(([id, bbox]) => [Number(id), { pixels: 500, bbox }]));
  return { buffers: { width: 100, height: 80 }, stats } as unknown as EpicView;
}

test("silhouettes: wide or tall by 30%, nothing when nearly square or cut by the picture's edge", () => {
  const view = viewWithBoxes({ 1: [10, 10, 50, 40], 2: [10, 10, 30, 40], 3: [10, 10, 35, 35], 4: [0, 10, 60, 30], 5: [10, 10, 49, 40], 6: [40, 10, 100, 30], 7: [10, 10, 48, 40] });
  const o = (id: number) => ({ id }) as SceneObject;
  assert.equal(silhouetteOf(view, o(1)), "wide"); // 40 x 30: 1.33
  assert.equal(silhouetteOf(view, o(2)), "tall"); // 20 x 30: 1.5
  assert.equal(silhouetteOf(view, o(3)), null); // 25 x 25
  assert.equal(silhouetteOf(view, o(4)), null); // touches the left edge
  assert.equal(silhouetteOf(view, o(5)), "wide"); // 39 x 30: 1.3 exactly is wide
  assert.equal(silhouetteOf(view, o(6)), null); // reaches the right edge (column 99)
  assert.equal(silhouetteOf(view, o(7)), null); // 38 x 30: 1.27
  assert.equal(silhouetteOf(view, o(8)), null); // not in view
});

test("an object's colour word is the word of at least half its albedo pixels", () => {
  const red = [200, 30, 30], blue = [30, 40, 200], green = [40, 180, 40];
  const pixels: Array<[number, number[]]> = [
    ...Array.from({ length: 6 }, () => [5, red] as [number, number[]]), ...Array.from({ length: 4 }, () => [5, blue] as [number, number[]]),
    ...Array.from({ length: 4 }, () => [6, red] as [number, number[]]), ...Array.from({ length: 3 }, () => [6, blue] as [number, number[]]), ...Array.from({ length: 3 }, () => [6, green] as [number, number[]]),
    [0, green], [1_000_001, green],
  ];
  const colors = visibleColors(Uint8Array.from(pixels.flatMap(([, rgb]) => rgb)), Uint32Array.from(pixels.map(([id]) => id)));
  assert.deepEqual([...colors].sort(([a], [b]) => a - b), [[5, "red"], [6, null]]);
});

test("placement questions are asked only for objects of 5-100% of the surface's footprint", () => {
  const sized = (width: number, depth: number) => ({ size: { width, depth, height: 0.5 } });
  const table = sized(1.2, 0.8); // 0.96 m2
  assert.equal(plausibleOn(sized(0.4, 0.3), table), true); // 0.12 m2: 12.5%
  assert.equal(plausibleOn(sized(0.08, 0.08), table), false); // 0.0064 m2: 0.7%, always fits
  assert.equal(plausibleOn(sized(0.9, 0.9), sized(0.45, 0.4)), false); // an armchair on a nightstand never fits
  assert.equal(plausibleOn(sized(0.25, 0.2), table), true); // 0.05 m2: 5.2%
  assert.equal(plausibleOn(sized(0.2, 0.2), table), false); // 0.04 m2: 4.2%
});
