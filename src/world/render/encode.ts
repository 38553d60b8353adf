/**
 * PNG files of the render buffers (same pixels, same bytes: media/png.ts's settings).
 *
 * - RGB: 8-bit RGB as rendered.
 * - Depth: 16-bit greyscale, millimetres (round(depth * 1000)); 0 where nothing was drawn or the
 *   surface is farther than `maxMetres` (which must fit: at most 65.535 m).
 * - Instance: 8-bit RGB holding the 24-bit id little-endian (id = R + 256 G + 65536 B), 0 = nothing.
 */
import sharp from "sharp";
import { encodePng, PNG_OPTIONS } from "../../media/png.js";
import type { RenderBuffers } from "./index.js";

export function encodeRgbPng(buffers: Pick<RenderBuffers, "width" | "height" | "rgb">): Promise<Buffer> {
  return encodePng(buffers.rgb, buffers.width, buffers.height, 3);
}

export const MAX_DEPTH_PNG_METRES = 65.535;

/** Millimetre depths as 16-bit integers (the pixels of depthToPng16). */
export function depthToMillimetres(buffers: Pick<RenderBuffers, "depth">, maxMetres: number): Uint16Array {
  if (!(maxMetres > 0 && maxMetres <= MAX_DEPTH_PNG_METRES)) throw new Error(`maxMetres must be in (0, ${MAX_DEPTH_PNG_METRES}], got ${maxMetres}`);
  const d = buffers.depth;
  const out = new Uint16Array(d.length);
  for (let i = 0; i < d.length; i++) {
    const m = d[i]!;
    out[i] = m > 0 && m <= maxMetres ? Math.round(m * 1000) : 0;
  }
  return out;
}

export function depthToPng16(buffers: Pick<RenderBuffers, "width" | "height" | "depth">, maxMetres: number): Promise<Buffer> {
  const mm = depthToMillimetres(buffers, maxMetres);
  return sharp(mm, { raw: { width: buffers.width, height: buffers.height, channels: 1 } }).toColourspace("grey16").png(PNG_OPTIONS).toBuffer();
}

export function instanceToPng(buffers: Pick<RenderBuffers, "width" | "height" | "instance">): Promise<Buffer> {
  const ids = buffers.instance;
  const rgb = new Uint8Array(ids.length * 3);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id > 0xffffff) throw new Error(`instance id ${id} does not fit in 24 bits`);
    rgb[i * 3] = id & 0xff;
    rgb[i * 3 + 1] = (id >> 8) & 0xff;
    rgb[i * 3 + 2] = id >> 16;
  }
  return encodePng(rgb, buffers.width, buffers.height, 3);
}

/** Reads a depthToPng16 file back to millimetres. */
export async function decodeDepthPng16(png: Buffer): Promise<{ width: number; height: number; millimetres: Uint16Array }> {
  const { data, info } = await sharp(png).toColourspace("grey16").raw({ depth: "ushort" }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`depth PNG has ${info.channels} channels, expected 1`);
  const mm = new Uint16Array(info.width * info.height);
  for (let i = 0; i < mm.length; i++) mm[i] = data.readUInt16LE(i * 2);
  return { width: info.width, height: info.height, millimetres: mm };
}

/** Reads an instanceToPng file back to ids. */
export async function decodeInstancePng(png: Buffer): Promise<{ width: number; height: number; instance: Uint32Array }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`instance PNG has ${info.channels} channels, expected 3`);
  const ids = new Uint32Array(info.width * info.height);
  for (let i = 0; i < ids.length; i++) ids[i] = data[i * 3]! | (data[i * 3 + 1]! << 8) | (data[i * 3 + 2]! << 16);
  return { width: info.width, height: info.height, instance: ids };
}
