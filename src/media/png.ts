/**
 * One PNG encoder setting for every image this module writes, so the same pixels always give the
 * same bytes (for a given sharp/libvips build): no palette quantisation, zlib level 6, no adaptive
 * filtering, no metadata.
 */
import sharp from "sharp";

export const PNG_OPTIONS = Object.freeze({ compressionLevel: 6, adaptiveFiltering: false, palette: false });

/** Encode tightly packed 8-bit RGB (channels 3) or RGBA (channels 4) pixels as PNG. */
export async function encodePng(pixels: Uint8Array, width: number, height: number, channels: 3 | 4): Promise<Buffer> {
  if (pixels.length !== width * height * channels) {
    throw new Error(`encodePng: ${pixels.length} bytes for ${width}x${height}x${channels}`);
  }
  const input = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  return sharp(input, { raw: { width, height, channels } }).png(PNG_OPTIONS).toBuffer();
}

/** Decode any image sharp reads into packed RGB (alpha removed over white). */
export async function decodeRgb(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).flatten({ background: "#ffffff" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** RGBA pixels (a canvas's getImageData) without the alpha channel. */
export function dropAlpha(rgba: Uint8ClampedArray | Uint8Array): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i]!;
    rgb[j + 1] = rgba[i + 1]!;
    rgb[j + 2] = rgba[i + 2]!;
  }
  return rgb;
}
