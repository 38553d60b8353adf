import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { imageDimensions } from "../../src/media/dimensions.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-dimensions-"));

/** A width x height picture written in `format`, with an alpha channel when asked. */
async function picture(name: string, width: number, height: number, encode: (s: sharp.Sharp) => sharp.Sharp, alpha = false): Promise<string> {
  const channels = alpha ? 4 : 3;
  const raw = Buffer.alloc(width * height * channels, 90);
  const file = path.join(dir, name);
  writeFileSync(file, await encode(sharp(raw, { raw: { width, height, channels } })).toBuffer());
  return file;
}

test("the stored size of every format a prompt sends, read from the header", async () => {
  const cases: Array<[string, number, number, (s: sharp.Sharp) => sharp.Sharp, boolean?]> = [
    ["a.png", 37, 21, (s) => s.png()],
    ["baseline.jpg", 64, 48, (s) => s.jpeg()],
    ["progressive.jpg", 300, 7, (s) => s.jpeg({ progressive: true })],
    // EXIF and ICC segments come before the frame header: they are skipped by their lengths.
    ["exif.jpg", 33, 65, (s) => s.jpeg().withMetadata({ orientation: 6 })],
    ["a.gif", 19, 11, (s) => s.gif()],
    ["lossy.webp", 50, 30, (s) => s.webp({ quality: 50 })], // VP8
    ["lossless.webp", 51, 29, (s) => s.webp({ lossless: true })], // VP8L
    ["alpha.webp", 45, 17, (s) => s.webp({ quality: 50 }), true], // VP8X
  ];
  for (const [name, width, height, encode, alpha] of cases) {
    const file = await picture(name, width, height, encode, alpha);
    assert.deepEqual(imageDimensions(file), { width, height }, name);
    const meta = await sharp(file).metadata();
    assert.deepEqual([meta.width, meta.height], [width, height], `${name}: sharp agrees`);
  }
});

test("anything else, or a header cut short, has no size", () => {
  const text = path.join(dir, "text.png");
  writeFileSync(text, "not a picture");
  assert.equal(imageDimensions(text), undefined);
  const cut = path.join(dir, "cut.jpg");
  writeFileSync(cut, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]));
  assert.equal(imageDimensions(cut), undefined);
  const empty = path.join(dir, "empty.png");
  writeFileSync(empty, "");
  assert.equal(imageDimensions(empty), undefined);
});
