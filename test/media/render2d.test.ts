import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { decodeRgb } from "../../src/media/png.js";
import { renderMap2D, worldToPixel2D } from "../../src/media/render2d.js";
import { PATHEVAL_GOAL, PATHEVAL_START, type Point2 } from "../../src/media/scene2d.js";
import { SCENE_A, SCENE_B } from "./scenes.js";

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

// Golden hashes of the PNG bytes. They pin the whole pipeline: @napi-rs/canvas (Skia) drawing and
// the sharp/libvips PNG encoder with the settings in src/media/png.ts. A dependency upgrade that
// changes anti-aliasing or zlib output changes them; look at the pictures, then update.
const GOLDEN_2D: Record<string, string> = {
  A: "c1b593a1c816e432f8bfcce62e32ee89b3d34ad16736dbcace70a4ddab4d016f",
  B: "2e76b8794692b0fb687a71a516231156c1c552a0184e1cbb61da4a3f22821b85",
};

test("renderMap2D: golden PNG bytes for two fixed scenes; same input, same bytes", async () => {
  for (const [name, scene] of [["A", SCENE_A], ["B", SCENE_B]] as const) {
    const first = await renderMap2D(scene);
    const second = await renderMap2D(structuredClone(scene));
    assert.ok(first.equals(second), `scene ${name}: two renders differ`);
    assert.equal(sha256(first), GOLDEN_2D[name], `scene ${name}: golden hash`);
  }
});

async function pixels(png: Buffer) {
  const img = await decodeRgb(png);
  const at = (p: Point2, size = img.width): [number, number, number] => {
    const [x, y] = worldToPixel2D(p, size);
    const i = (Math.floor(y) * img.width + Math.floor(x)) * 3;
    return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
  };
  return { ...img, at };
}

test("renderMap2D: 480x480 with the paper's colours where expected", async () => {
  const img = await pixels(await renderMap2D(SCENE_A));
  assert.equal(img.width, 480);
  assert.equal(img.height, 480);
  // Midpoint of the long path segment (-30, 20) -> (30, 20): red-dominant.
  const [r, g, b] = img.at([0, 20]);
  assert.ok(r > 200 && g < 60 && b < 60, `path pixel ${[r, g, b]}`);
  // Inside the centre obstacle: black.
  assert.deepEqual(img.at([0, 0]), [0, 0, 0]);
  assert.deepEqual(img.at([5, -7]), [0, 0, 0]);
  // Inside the concave L (its arm), and in its notch (free).
  assert.deepEqual(img.at([27.5, -20]), [0, 0, 0]);
  assert.deepEqual(img.at([20, -20]), [255, 255, 255]);
  // Free space away from everything: white.
  assert.deepEqual(img.at([20, -2]), [255, 255, 255]);
  assert.deepEqual(img.at([-20, 0]), [255, 255, 255]);
  // Start marker: red (the path also starts there, also red).
  assert.deepEqual(img.at(PATHEVAL_START), [255, 0, 0]);
  assert.deepEqual(img.at([PATHEVAL_START[0] + 0.8, PATHEVAL_START[1] - 0.5]), [255, 0, 0]);
  // Goal marker: blue, beside the path's last segment (which is drawn over the marker).
  assert.deepEqual(img.at([PATHEVAL_GOAL[0] + 0.75, PATHEVAL_GOAL[1] - 0.3]), [0, 0, 255]);
  // Black border at ±40: the outermost pixel ring is dark, the next pixels in are white.
  assert.deepEqual(img.at([40, 0]).map((v) => v < 80), [true, true, true]);
  assert.deepEqual(img.at([-40, 0]).map((v) => v < 80), [true, true, true]);
  assert.deepEqual(img.at([0, 39]), [255, 255, 255]);
});

test("renderMap2D: size and margin options; bad input is an error", async () => {
  const small = await decodeRgb(await renderMap2D({ ...SCENE_A, size: 240 }));
  assert.equal(small.width, 240);
  const noMargin = await pixels(await renderMap2D({ ...SCENE_B, marginPx: 0 }));
  assert.equal(noMargin.data[0], 0); // border on the very first pixel
  await assert.rejects(renderMap2D({ polygons: [[[0, 0], [1, Number.NaN], [2, 2]]], path: [] }), /polygons\[0\]\[1\]/);
  await assert.rejects(renderMap2D({ ...SCENE_A, size: 3 }), /size/);
  // Empty scene: white inside the border, no error.
  const empty = await pixels(await renderMap2D({ polygons: [], path: [] }));
  assert.deepEqual(empty.at([0, 0]), [255, 255, 255]);
});
