import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import { noisePng } from "../helpers/media.js";
import { base64Length, base64WithinRaw, fitImage, targetSize, type ImageBudget } from "../../src/media/fit.js";


/** A smooth gradient: small as PNG, like a rendered picture. */
function gradientPng(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.floor((255 * x) / width);
      data[i + 1] = Math.floor((255 * y) / height);
      data[i + 2] = 128;
    }
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const budget = (b: Partial<ImageBudget>): ImageBudget => ({ format: "keep", jpegQuality: 85, countBytes: "base64", ...b });

async function decodedSize(bytes: Buffer): Promise<[number, number, string]> {
  const m = await sharp(bytes).metadata();
  return [m.width, m.height, m.format];
}

test("target sizes follow the rule: longest side first, then the area, never up", () => {
  assert.deepEqual(targetSize(1280, 720, { maxSide: 768 }), [768, 432]); // 720 * 768 / 1280 = 432
  assert.deepEqual(targetSize(720, 1280, { maxSide: 768 }), [432, 768]);
  assert.deepEqual(targetSize(4000, 3000, { maxSide: 2000 }), [2000, 1500]);
  assert.deepEqual(targetSize(1000, 3, { maxSide: 100 }), [100, 1]); // 0.3 rounds to 0, kept at 1 px
  assert.deepEqual(targetSize(320, 240, { maxSide: 768, maxPixels: 10_000_000 }), [320, 240]);
  // 1280x720 = 921600 px; sqrt(147456 / 921600) = 0.4 -> 512x288 = 147456 exactly.
  assert.deepEqual(targetSize(1280, 720, { maxPixels: 147456 }), [512, 288]);
  // 768x432 = 331776 > 147456 -> the same 512x288.
  assert.deepEqual(targetSize(1280, 720, { maxSide: 768, maxPixels: 147456 }), [512, 288]);
  // sqrt(1e6 / 12e6) = 0.28868: 4000 -> 1154.7 -> 1154, 3000 -> 866.03 -> 866; 1154 * 866 = 999364 <= 1e6.
  assert.deepEqual(targetSize(4000, 3000, { maxPixels: 1_000_000 }), [1154, 866]);
});

test("base64 lengths", () => {
  assert.equal(base64Length(0), 0);
  assert.equal(base64Length(1), 4);
  assert.equal(base64Length(3), 4);
  assert.equal(base64Length(4), 8);
  assert.equal(base64Length(3_750_000), 5_000_000);
  assert.equal(base64WithinRaw(20_000_000), 26_666_664); // decodes to 19 999 998 bytes
  assert.equal(Buffer.from("a".repeat(20_000_000)).toString("base64").length, 26_666_668); // one more would be over
});

test("a 1280x720 video frame to longest side 768 as JPEG q85", async () => {
  const frame = await noisePng(1280, 720);
  const fitted = await fitImage(frame, budget({ maxSide: 768, format: "jpeg" }));
  assert.equal(fitted.width, 768);
  assert.equal(fitted.height, 432);
  assert.equal(fitted.mediaType, "image/jpeg");
  assert.deepEqual(await decodedSize(fitted.bytes), [768, 432, "jpeg"]);
  assert.equal(fitted.transform, "resize 1280x720->768x432, jpeg q85");
  assert.deepEqual(fitted.original, { width: 1280, height: 720, bytes: frame.length, mediaType: "image/png" });
  assert.equal(fitted.overBudget, undefined);
  // Same bytes and budget, same output bytes.
  const again = await fitImage(Buffer.from(frame), budget({ maxSide: 768, format: "jpeg" }));
  assert.ok(again.bytes.equals(fitted.bytes));
});

test("keep sends the file untouched when nothing needs changing; never scales up", async () => {
  const picture = await gradientPng(1280, 720);
  const kept = await fitImage(picture, budget({ maxSide: 8000 }));
  assert.equal(kept.transform, "none");
  assert.ok(kept.bytes.equals(picture));
  assert.equal(kept.mediaType, "image/png");
  assert.deepEqual([kept.width, kept.height], [1280, 720]);

  const small = await gradientPng(320, 240);
  const png = await fitImage(small, budget({ maxSide: 768, format: "png" }));
  assert.deepEqual([png.width, png.height, png.mediaType, png.transform], [320, 240, "image/png", "png"]);
});

test("a 4000x3000 noise photo under Anthropic's side and byte limits", async () => {
  const photo = await noisePng(4000, 3000);
  assert.ok(base64Length(photo.length) > 40_000_000); // 36 MB of PNG, far over 5 MB
  const limit = 5_000_000;
  const fitted = await fitImage(photo, budget({ maxSide: 2000, maxBytes: limit }));
  // 2000x1500 noise as PNG is about 9 MB: the ladder's next step, JPEG q85 at the same size, fits.
  assert.deepEqual([fitted.width, fitted.height, fitted.mediaType], [2000, 1500, "image/jpeg"]);
  assert.deepEqual(await decodedSize(fitted.bytes), [2000, 1500, "jpeg"]);
  assert.ok(base64Length(fitted.bytes.length) <= limit);
  assert.equal(fitted.transform, "resize 4000x3000->2000x1500, jpeg q85, stepped down for a 5000000 byte budget (base64)");
  assert.equal(fitted.overBudget, undefined);
});

test("pictures kept at their size step quality down only, and say so when nothing fits", async () => {
  const photo = await noisePng(4000, 3000, 7);
  const fitted = await fitImage(photo, budget({ keepSize: true, maxSide: 100, format: "jpeg", maxBytes: 5_000_000 }));
  // Never resized (maxSide is ignored), so after JPEG q85, q75, q60 and q45 the smallest is returned.
  assert.deepEqual([fitted.width, fitted.height, fitted.mediaType], [4000, 3000, "image/jpeg"]);
  assert.equal(fitted.transform, "jpeg q45, stepped down for a 5000000 byte budget (base64)");
  assert.ok(fitted.overBudget);
  assert.equal(fitted.overBudget.maxBytes, 5_000_000);
  assert.equal(fitted.overBudget.bytes, base64Length(fitted.bytes.length));
  assert.ok(fitted.overBudget.bytes > 5_000_000);
});

test("the ladder scales down when quality steps are not enough, keeping the aspect", async () => {
  const frame = await noisePng(1280, 720, 3);
  const limit = 60_000;
  const fitted = await fitImage(frame, budget({ format: "jpeg", maxBytes: limit }));
  // Scale steps on 1280x720: 0.75, 0.5, 0.35, 0.25, 0.18, 0.125 (sides rounded).
  const ladder = [[960, 540], [640, 360], [448, 252], [320, 180], [230, 130], [160, 90]];
  assert.ok(ladder.some(([w, h]) => w === fitted.width && h === fitted.height), `${fitted.width}x${fitted.height}`);
  assert.ok(base64Length(fitted.bytes.length) <= limit);
  assert.match(fitted.transform, /^resize 1280x720->\d+x\d+, jpeg q75, stepped down for a 60000 byte budget \(base64\)$/);
  const again = await fitImage(frame, budget({ format: "jpeg", maxBytes: limit }));
  assert.ok(again.bytes.equals(fitted.bytes));
});

test("bytes are counted as the budget says: raw or base64", async () => {
  const frame = await noisePng(640, 360, 5);
  const plain = await fitImage(frame, budget({ format: "jpeg" }));
  const raw = plain.bytes.length;
  // A raw budget of exactly the q85 size fits as raw bytes; the same number as base64 does not (4/3 larger).
  const asRaw = await fitImage(frame, budget({ format: "jpeg", maxBytes: raw, countBytes: "raw" }));
  assert.equal(asRaw.transform, "jpeg q85");
  assert.ok(asRaw.bytes.equals(plain.bytes));
  const asBase64 = await fitImage(frame, budget({ format: "jpeg", maxBytes: raw, countBytes: "base64" }));
  assert.notEqual(asBase64.transform, "jpeg q85");
  assert.ok(base64Length(asBase64.bytes.length) <= raw);
});

test("transparent areas turn white in JPEG and stay transparent in PNG", async () => {
  // Left half opaque red, right half fully transparent black.
  const w = 64;
  const h = 32;
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w / 2; x++) rgba.set([255, 0, 0, 255], (y * w + x) * 4);
  const png = await sharp(rgba, { raw: { width: w, height: h, channels: 4 } }).png().toBuffer();

  const jpeg = await fitImage(png, budget({ format: "jpeg", jpegQuality: 95 }));
  const { data, info } = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 3);
  const at = (x: number, y: number) => [...data.subarray((y * w + x) * 3, (y * w + x) * 3 + 3)];
  for (const c of at(56, 16)) assert.ok(c >= 250, `right half should be white, got ${at(56, 16)}`);
  const [r, g, b] = at(8, 16);
  assert.ok(r! >= 240 && g! <= 15 && b! <= 15, `left half should stay red, got ${at(8, 16)}`);

  const kept = await fitImage(png, budget({ format: "png" }));
  const pixels = await sharp(kept.bytes).ensureAlpha().raw().toBuffer();
  assert.equal(pixels[(16 * w + 56) * 4 + 3], 0);
  assert.equal(pixels[(16 * w + 8) * 4 + 3], 255);
});

test("bad budgets and unreadable bytes throw", async () => {
  const frame = await gradientPng(8, 8);
  await assert.rejects(fitImage(frame, budget({ jpegQuality: 0 })), RangeError);
  await assert.rejects(fitImage(frame, budget({ jpegQuality: 101 })), RangeError);
  await assert.rejects(fitImage(frame, budget({ maxSide: 0 })), RangeError);
  await assert.rejects(fitImage(frame, budget({ maxPixels: 1.5 })), RangeError);
  await assert.rejects(fitImage(Buffer.from("not an image at all"), budget({})));
  await assert.rejects(fitImage(frame.subarray(0, 40), budget({ format: "jpeg" })));
});
