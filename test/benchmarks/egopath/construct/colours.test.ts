/**
 * Colour words from what a view shows (issue 27, item 5): the word most of an object's visible
 * albedo pixels get, not the word of the blended mean. Pixel sets are synthetic; every expected
 * word is worked out from appearance.ts's rules by hand (HSV given beside each colour), every
 * mean checked with a separate few-line Python computation.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { shownObjects, viewTargets } from "../../../../src/benchmarks/egopath/construct/targets.js";
import type { ViewBuffers } from "../../../../src/benchmarks/egopath/construct/types.js";
import { colorName, dominantColor, dominantPixelColors, linearToSrgb, srgbToLinear } from "../../../../src/world/house/appearance.js";
import type { PinholeCamera } from "../../../../src/world/camera.js";
import type { SceneObject } from "../../../../src/world/types.js";

type Rgb = [number, number, number];
const repeat = (rgb: Rgb, n: number): Rgb[] => Array.from({ length: n }, () => rgb);

/** The old rule, recomputed here: the linear-light mean of the pixels, sRGB-encoded. */
function meanColour(pixels: readonly Rgb[]): Rgb {
  return [0, 1, 2].map((c) => Math.round(linearToSrgb(pixels.reduce((s, p) => s + srgbToLinear(p[c]! / 255), 0) / pixels.length) * 255)) as Rgb;
}

const WHITE: Rgb = [240, 240, 240]; // s 0, v 0.94: white
const LEAF: Rgb = [40, 120, 40]; // h 120, s 0.67, v 0.47: green
const MUSTARD: Rgb = [205, 160, 30]; // h 44.6, s 0.85, v 0.80: yellow
const SOOT: Rgb = [30, 25, 20]; // v 0.12: black

test("a white-flowered plant is white where most of its pixels are white, not the gray of its mean", () => {
  const pixels = [...repeat(WHITE, 60), ...repeat(LEAF, 40)];
  assert.deepEqual(meanColour(pixels), [193, 203, 193]); // s 0.05, v 0.80: gray
  assert.equal(colorName(meanColour(pixels)), "gray");
  assert.deepEqual(dominantColor(pixels), { name: "white", rgb: WHITE });
});

test("a mustard vase on a dark foot is yellow, not the brown of its mean", () => {
  const pixels = [...repeat(MUSTARD, 70), ...repeat(SOOT, 30)];
  assert.deepEqual(meanColour(pixels), [175, 137, 27]); // h 45.8, s 0.85, v 0.69: brown
  assert.equal(colorName(meanColour(pixels)), "brown");
  assert.deepEqual(dominantColor(pixels), { name: "yellow", rgb: MUSTARD });
});

test("a textured material counts as one colour across its shades; its colour is their linear mean", () => {
  // Two greens (h 120) and one brown (h 30, s 0.67, v 0.59 -> brown) area: green 3 pixels beat brown 2.
  const pixels: Rgb[] = [[40, 120, 40], [40, 120, 40], [60, 160, 60], [150, 100, 50], [150, 100, 50]];
  const greens: Rgb[] = [[40, 120, 40], [40, 120, 40], [60, 160, 60]];
  assert.deepEqual(dominantColor(pixels), { name: "green", rgb: meanColour(greens) });
  assert.deepEqual(meanColour(greens), [48, 135, 48]); // h 120, s 0.64, v 0.53: green
});

test("ties go to the earlier word of the vocabulary (red before blue); no pixels, no colour", () => {
  assert.equal(dominantColor([[200, 20, 20], [20, 20, 200], [200, 20, 20], [20, 20, 200]])!.name, "red");
  assert.equal(dominantColor([]), null);
});

test("dominantPixelColors reads each listed object's own pixels of an RGB8 buffer", () => {
  // 4 x 2 pixels; instance 9 is not asked for and 3 has no pixel.
  const instance = Uint32Array.from([1, 1, 1, 2, 9, 2, 2, 1]);
  const ORANGE: Rgb = [255, 140, 0]; // h 32.9, s 1, v 1: orange
  const BLUE: Rgb = [20, 60, 200]; // h 226.7, s 0.9, v 0.78: blue
  const colours: Rgb[] = [WHITE, ORANGE, ORANGE, BLUE, LEAF, BLUE, [10, 10, 10], ORANGE];
  const rgb = Uint8Array.from(colours.flat());
  const out = dominantPixelColors(rgb, instance, new Set([1, 2, 3]));
  assert.deepEqual([...out], [[1, { name: "orange", rgb: ORANGE }], [2, { name: "blue", rgb: BLUE }]]);
  assert.throws(() => dominantPixelColors(rgb.subarray(3), instance, new Set([1])), /21 RGB bytes for 8 pixels/);
});

test("a view names a shown object's colour from its albedo (lighting left out), else from the lit picture", () => {
  const side = 64;
  const vase = { id: 5, name: "vase_1", category: "vase", catalogId: "x#1", room: "r1", position: [3, 0, 0], yaw: 0, size: { width: 0.3, depth: 0.3, height: 0.5 },
    bbox: { min: [2.85, -0.15, 0], max: [3.15, 0.15, 0.5] }, color: { name: "brown", rgb: [120, 90, 40] }, materials: [], inWall: false } as unknown as SceneObject;
  const camera: PinholeCamera = { position: [0, 0, 1.25], yaw: 0, pitch: (-20 * Math.PI) / 180, vfovDeg: 120, width: side, height: side };
  const instance = new Uint32Array(side * side);
  const lit = new Uint8Array(side * side * 3);
  const albedo = new Uint8Array(side * side * 3);
  for (let y = 20; y < 30; y++) for (let x = 30; x < 40; x++) {
    const i = y * side + x;
    instance[i] = 5;
    lit.set([120, 120, 120], 3 * i); // white in shade: s 0, v 0.47 -> gray
    albedo.set(WHITE, 3 * i);
  }
  const buffers: ViewBuffers = { width: side, height: side, rgb: lit, depth: new Float32Array(side * side), instance, category: new Uint16Array(side * side) };
  const byId = new Map([[5, vase]]);
  const withAlbedo = shownObjects(camera, { ...buffers, albedo }, byId);
  assert.equal(withAlbedo.length, 1);
  assert.deepEqual(withAlbedo[0]!.color, { name: "white", rgb: WHITE });
  assert.deepEqual(withAlbedo[0]!.pixelBox, [30, 20, 40, 30]);
  assert.deepEqual(shownObjects(camera, buffers, byId)[0]!.color, { name: "gray", rgb: [120, 120, 120] });
  // The view's targets carry the view's colour; the scene's object keeps its model colour.
  const [target] = viewTargets(camera, withAlbedo, new Map([[5, 100]]));
  assert.equal(target!.object.color.name, "white");
  assert.equal(target!.object.id, 5);
  assert.equal(vase.color.name, "brown");
});
