/**
 * The pictures of a sample: the scene as JPEG, and the overlay images as the release draws them —
 * the scene with the marked region tinted (half its colour, half the mark's) and outlined in the
 * mark's colour, so the model sees exactly which pixels are meant (paper Table 5 "mask overlay").
 */
import sharp from "sharp";
import type { BitMask } from "../../../geometry/mask.js";
import { encodePng } from "../../../media/png.js";
import { EPIC_PARAMS as P } from "./params.js";

export type Rgb = readonly [number, number, number];

/** Marks: reference objects and areas red, goal areas of a path green. */
export const MARK_REFERENCE: Rgb = [235, 30, 30];
export const MARK_TARGET_AREA: Rgb = [20, 210, 60];
export const OVERLAY_ALPHA = 0.5;

export async function encodeJpeg(rgb: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: P.jpegQuality, chromaSubsampling: "4:4:4", mozjpeg: false })
    .toBuffer();
}

/** Whether a set pixel has a 4-neighbour outside the mask (or the image). */
function onEdge(mask: BitMask, x: number, y: number): boolean {
  return !mask.get(x, y) ? false : x === 0 || y === 0 || x === mask.width - 1 || y === mask.height - 1 || !mask.get(x - 1, y) || !mask.get(x + 1, y) || !mask.get(x, y - 1) || !mask.get(x, y + 1);
}

/** The picture with every mask tinted and outlined (module comment), as PNG. */
export async function overlayPng(rgb: Uint8Array, width: number, height: number, masks: readonly BitMask[], color: Rgb): Promise<Buffer> {
  const out = Uint8Array.from(rgb);
  for (const mask of masks) {
    mask.forEachPixel((x, y) => {
      const i = (y * width + x) * 3;
      const edge = onEdge(mask, x, y);
      for (let k = 0; k < 3; k++) out[i + k] = edge ? color[k]! : Math.round(out[i + k]! * (1 - OVERLAY_ALPHA) + color[k]! * OVERLAY_ALPHA);
    });
  }
  return encodePng(out, width, height, 3);
}
