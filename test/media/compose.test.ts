import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import { sideBySide } from "../../src/media/compose.js";
import { decodeRgb } from "../../src/media/png.js";
import { renderMap2D } from "../../src/media/render2d.js";
import { SCENE_A, SCENE_B } from "./scenes.js";

const solid = (w: number, h: number, r: number, g: number, b: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r, g, b } } }).png().toBuffer();

test("sideBySide: left on the left, right on the right, white gap, sizes add up", async () => {
  const left = await solid(4, 3, 255, 0, 0);
  const right = await solid(5, 3, 0, 0, 255);
  const out = await decodeRgb(await sideBySide(left, right, 2));
  assert.equal(out.width, 11);
  assert.equal(out.height, 3);
  const px = (x: number, y: number) => [...out.data.subarray((y * out.width + x) * 3, (y * out.width + x) * 3 + 3)];
  assert.deepEqual(px(0, 0), [255, 0, 0]);
  assert.deepEqual(px(3, 2), [255, 0, 0]);
  assert.deepEqual(px(4, 1), [255, 255, 255]);
  assert.deepEqual(px(5, 1), [255, 255, 255]);
  assert.deepEqual(px(6, 0), [0, 0, 255]);
  assert.deepEqual(px(10, 2), [0, 0, 255]);
});

test("sideBySide: different heights are centred on white; default gap 0; alpha flattened", async () => {
  const tall = await solid(2, 5, 0, 255, 0);
  const shortRgba = await sharp({ create: { width: 3, height: 1, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
  const out = await decodeRgb(await sideBySide(tall, shortRgba));
  assert.equal(out.width, 5);
  assert.equal(out.height, 5);
  const px = (x: number, y: number) => [...out.data.subarray((y * out.width + x) * 3, (y * out.width + x) * 3 + 3)];
  assert.deepEqual(px(1, 0), [0, 255, 0]);
  assert.deepEqual(px(2, 2), [0, 0, 0]);
  assert.deepEqual(px(2, 1), [255, 255, 255]);
  await assert.rejects(sideBySide(tall, tall, -1), /gapPx/);
});

test("sideBySide of two PathEval maps keeps both pictures pixel for pixel", async () => {
  const p1 = await renderMap2D(SCENE_A);
  const p2 = await renderMap2D(SCENE_B);
  const [a, b, out] = await Promise.all([decodeRgb(p1), decodeRgb(p2), sideBySide(p1, p2).then(decodeRgb)]);
  assert.equal(out.width, 960);
  for (let y = 0; y < 480; y += 37) {
    assert.ok(out.data.subarray(y * 960 * 3, y * 960 * 3 + 480 * 3).equals(a.data.subarray(y * 480 * 3, (y + 1) * 480 * 3)));
    assert.ok(out.data.subarray(y * 960 * 3 + 480 * 3, (y + 1) * 960 * 3).equals(b.data.subarray(y * 480 * 3, (y + 1) * 480 * 3)));
  }
});
