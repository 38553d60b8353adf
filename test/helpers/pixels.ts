/**
 * Pixel fixtures and checks for the overlay tests: PNGs painted by hand, and colour checks on
 * decoded pictures. Expected colours stay in each test, worked out from the documented hex codes.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import type { OverlayImage } from "../../src/core/benchmark.js";
import { decodeRgb, encodePng } from "../../src/media/png.js";

export type RGB = [number, number, number];
export type Decoded = { data: Buffer; width: number; height: number };

/** An RGB PNG of width × height whose pixel (x, y) is colourAt(x, y), written to `file`; returns `file`. */
export async function writePng(file: string, width: number, height: number, colourAt: (x: number, y: number) => RGB): Promise<string> {
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.set(colourAt(x, y), (y * width + x) * 3);
  writeFileSync(file, await encodePng(pixels, width, height, 3));
  return file;
}

/** A frame colour that encodes its number, so a tile's pixels say which frame it shows. */
export const frameColour = (i: number): RGB => [30 + 17 * i, 90 + 11 * i, 160 - 9 * i];

export function pixel(image: Decoded, x: number, y: number): RGB {
  const i = (y * image.width + x) * 3;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
}

/** Pixel (x, y) within `tolerance` of `expected` in every channel. */
export function assertColour(image: Decoded, x: number, y: number, expected: RGB, what: string, tolerance = 12): void {
  const got = pixel(image, x, y);
  const off = Math.max(...got.map((v, k) => Math.abs(v - expected[k]!)));
  assert.ok(off <= tolerance, `${what}: pixel (${x}, ${y}) is rgb(${got.join(", ")}), expected rgb(${expected.join(", ")})`);
}

/** How many pixels in `box` ([x0, y0, x1, y1), default the whole picture) are within `tolerance` of `colour`. */
export function countNear(image: Decoded, colour: RGB, box: [number, number, number, number] = [0, 0, image.width, image.height], tolerance = 12): number {
  let n = 0;
  for (let y = box[1]; y < box[3]; y++) {
    for (let x = box[0]; x < box[2]; x++) {
      const p = pixel(image, x, y);
      if (p.every((v, k) => Math.abs(v - colour[k]!) <= tolerance)) n++;
    }
  }
  return n;
}

/** The overlay's PNG decoded, its size checked against the recorded width and height. */
export async function decodeOverlay(image: OverlayImage): Promise<Decoded> {
  const decoded = await decodeRgb(image.png);
  assert.deepEqual([decoded.width, decoded.height], [image.width, image.height]);
  return decoded;
}

/** The overlay's PNG decoded (its size checked), as a reader of pixel (x, y). */
export async function pixels(image: OverlayImage): Promise<(x: number, y: number) => RGB> {
  const decoded = await decodeOverlay(image);
  return (x: number, y: number): RGB => pixel(decoded, x, y);
}

/** A colour within `tolerance` of `expected` in every channel. */
export function assertNear(actual: RGB, expected: RGB, what: string, tolerance = 3): void {
  assert.ok(actual.every((v, k) => Math.abs(v - expected[k]!) <= tolerance), `${what}: got ${actual}, expected ${expected}`);
}
