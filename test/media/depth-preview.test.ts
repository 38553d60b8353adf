import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import { depthGrey, depthPreviewPng } from "../../src/media/depth-preview.js";
import { depthToPng16 } from "../../src/world/render/encode.js";

test("depth grey levels: 0 m black to the maximum white, no depth and beyond the maximum white", () => {
  assert.equal(depthGrey(5000, 10000), 128); // 127.5 rounds up
  assert.equal(depthGrey(2500, 10000), 64); // 63.75
  assert.equal(depthGrey(1, 10000), 0);
  assert.equal(depthGrey(0, 10000), 255);
  assert.equal(depthGrey(10000, 10000), 255);
  assert.equal(depthGrey(12000, 10000), 255);
});

test("a 16-bit millimetre depth PNG becomes an 8-bit grey PNG of the same size with those levels", async () => {
  const png16 = await depthToPng16({ width: 2, height: 2, depth: new Float32Array([0, 2.5, 5, 20]) }, 65.535);
  const preview = await depthPreviewPng(png16, 10);
  // IHDR: width, height, bit depth 8, colour type 0 (greyscale).
  assert.deepEqual([preview.readUInt32BE(16), preview.readUInt32BE(20), preview[24], preview[25]], [2, 2, 8, 0]);
  const { data } = await sharp(preview).toColourspace("b-w").raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual([...data], [255, 64, 128, 255]);
  await assert.rejects(depthPreviewPng(png16, 0), /maxMetres must be positive/);
});
