/** Small real media files for tests of loaders that check a file's bytes, not its name. */
import sharp from "sharp";
import { crc32 } from "../../src/world/assets/zip.js";

/** A complete 1x1 PNG (one orange pixel), as sharp writes it. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVR4nGM4kWIEAANWAV/oF4RSAAAAAElFTkSuQmCC",
  "base64",
);

/** The head of an ISO base-media (MP4) file: a 24-byte ftyp box of brand isom. Enough for sniffing, not for decoding. */
export const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom\0\0\x02\0isomiso2", "latin1")]);

/**
 * A PNG of uniform noise from a fixed LCG (the same bytes every run): PNG cannot compress it, so
 * the file is about width * height * 3 bytes, like a camera frame at its worst.
 */
export function noisePng(width: number, height: number, seed = 1): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  let x = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    data[i] = x >>> 24;
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/**
 * A PNG whose header (IHDR) claims width x height pixels: TINY_PNG with the two sizes rewritten and
 * the chunk's CRC fixed, so every header reader takes it at its word (issue 25: 1e9 x 1e9 passed
 * `validate`). Its pixel data stays 1x1, so decoding it fails.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const png = Buffer.from(TINY_PNG);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29); // IHDR's type and 13 data bytes
  return png;
}
