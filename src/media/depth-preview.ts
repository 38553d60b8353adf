/**
 * A depth view a model can look at: the simulator's 16-bit millimetre depth PNG
 * (world/render/encode.ts) as an 8-bit grey picture, black at 0 m, white at `maxMetres` and
 * beyond; pixels with no depth (nothing drawn, or farther than the 16-bit range) are white too.
 */
import sharp from "sharp";
import { decodeDepthPng16 } from "../world/render/encode.js";
import { PNG_OPTIONS } from "./png.js";

/** The grey level of one depth: 0..255 over 0..maxMillimetres, 255 for "no depth" (0). */
export function depthGrey(millimetres: number, maxMillimetres: number): number {
  if (millimetres <= 0 || millimetres >= maxMillimetres) return 255;
  return Math.round((255 * millimetres) / maxMillimetres);
}

export async function depthPreviewPng(depthPng16: Buffer, maxMetres: number): Promise<Buffer> {
  if (!(maxMetres > 0)) throw new Error(`maxMetres must be positive, got ${maxMetres}`);
  const { width, height, millimetres } = await decodeDepthPng16(depthPng16);
  const grey = Buffer.alloc(width * height);
  const max = maxMetres * 1000;
  for (let i = 0; i < grey.length; i++) grey[i] = depthGrey(millimetres[i]!, max);
  return sharp(grey, { raw: { width, height, channels: 1 } }).toColourspace("b-w").png(PNG_OPTIONS).toBuffer();
}
