/**
 * Colour and texture helpers of the renderer.
 *
 * - sRGB: the IEC 61966-2-1 transfer function (linear <= 0.0031308: 12.92 x; else
 *   1.055 x^(1/2.4) - 0.055). Decoding a byte is a table lookup; encoding uses a table over
 *   2^16 + 1 linear steps, fine enough that decode -> encode returns every byte unchanged.
 * - Textures (types.ts Texture: RGBA8 sRGB, row-major from the top-left texel) get a mip chain on
 *   first use, kept per Texture object (treat textures as immutable): each level halves both sides
 *   (rounding down, at least 1) with a 2x2 box filter computed in linear light, colour weighted by
 *   alpha so cut-out texels do not darken their neighbours.
 * - Sampling: texture coordinates wrap (repeat); OBJ's v = 0 is the bottom row. Within a level the
 *   filter is bilinear between texel centres; between levels it is linear in the level of detail
 *   (trilinear), where lod = log2 of the pixel footprint measured in level-0 texels.
 */
import type { Texture } from "../types.js";

export function srgbEncode(linear: number): number {
  return linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
}

export function srgbDecode(encoded: number): number {
  return encoded <= 0.04045 ? encoded / 12.92 : Math.pow((encoded + 0.055) / 1.055, 2.4);
}

/** Byte (0..255, sRGB) -> linear 0..1. */
export const SRGB_TO_LINEAR: Float64Array = Float64Array.from({ length: 256 }, (_, b) => srgbDecode(b / 255));

const ENCODE_STEPS = 65536;
const LINEAR_TO_SRGB = Uint8Array.from({ length: ENCODE_STEPS + 1 }, (_, i) => Math.round(255 * srgbEncode(i / ENCODE_STEPS)));

/** Linear 0..1 (clamped) -> sRGB byte. */
export function linearToSrgb8(linear: number): number {
  if (!(linear > 0)) return 0;
  if (linear >= 1) return 255;
  return LINEAR_TO_SRGB[(linear * ENCODE_STEPS + 0.5) | 0]!;
}

export interface MipLevel {
  width: number;
  height: number;
  /** RGBA8, sRGB colour, linear alpha. */
  data: Uint8Array;
}

const CHAINS = new WeakMap<Texture, MipLevel[]>();
const CUTOUT = new WeakMap<Texture, boolean>();

/** Level 0 is the texture itself; the last level is 1 x 1. */
export function mipChain(texture: Texture): MipLevel[] {
  let chain = CHAINS.get(texture);
  if (!chain) {
    if (!(texture.width >= 1 && texture.height >= 1) || texture.data.length < texture.width * texture.height * 4) {
      throw new Error(`texture ${texture.width}x${texture.height} needs ${texture.width * texture.height * 4} bytes, has ${texture.data.length}`);
    }
    chain = [{ width: texture.width, height: texture.height, data: texture.data }];
    let level = chain[0]!;
    while (level.width > 1 || level.height > 1) {
      level = halve(level);
      chain.push(level);
    }
    CHAINS.set(texture, chain);
  }
  return chain;
}

/** True when some texel has alpha below one half: such textures cut holes (alpha test). */
export function hasCutout(texture: Texture): boolean {
  let cut = CUTOUT.get(texture);
  if (cut === undefined) {
    cut = false;
    const d = texture.data;
    const n = texture.width * texture.height * 4;
    for (let i = 3; i < n; i += 4) {
      if (d[i]! < 128) {
        cut = true;
        break;
      }
    }
    CUTOUT.set(texture, cut);
  }
  return cut;
}

function halve(src: MipLevel): MipLevel {
  const w = Math.max(1, src.width >> 1), h = Math.max(1, src.height >> 1);
  const sx = src.width > 1 ? 2 : 1, sy = src.height > 1 ? 2 : 1;
  const out = new Uint8Array(w * h * 4);
  const d = src.data;
  const L = SRGB_TO_LINEAR;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let dy = 0; dy < sy; dy++) {
        for (let dx = 0; dx < sx; dx++) {
          const i = ((y * sy + dy) * src.width + x * sx + dx) * 4;
          const al = d[i + 3]! / 255;
          r += L[d[i]!]! * al;
          g += L[d[i + 1]!]! * al;
          b += L[d[i + 2]!]! * al;
          a += al;
        }
      }
      const o = (y * w + x) * 4;
      if (a > 0) {
        out[o] = linearToSrgb8(r / a);
        out[o + 1] = linearToSrgb8(g / a);
        out[o + 2] = linearToSrgb8(b / a);
      }
      out[o + 3] = Math.round((a / (sx * sy)) * 255);
    }
  }
  return { width: w, height: h, data: out };
}

/** The four texels around (u, v) (wrapped; v = 0 at the bottom) as byte offsets, and the blend fractions. */
interface TexelQuad { i00: number; i10: number; i01: number; i11: number; fx: number; fy: number }
const quad: TexelQuad = { i00: 0, i10: 0, i01: 0, i11: 0, fx: 0, fy: 0 };

function texelQuad(level: MipLevel, uv: Float64Array): TexelQuad {
  const u = uv[0]!, v = uv[1]!;
  const w = level.width, h = level.height;
  // Wrap first (u - floor(u) is in [0, 1)), so the texel index is in [-1, size - 1].
  const tx = (u - Math.floor(u)) * w - 0.5, ty = (1 - (v - Math.floor(v))) * h - 0.5;
  let x0 = Math.floor(tx), y0 = Math.floor(ty);
  quad.fx = tx - x0;
  quad.fy = ty - y0;
  if (x0 < 0) x0 += w;
  if (y0 < 0) y0 += h;
  if (x0 >= w) x0 -= w;
  if (y0 >= h) y0 -= h;
  const x1 = x0 + 1 === w ? 0 : x0 + 1, y1 = y0 + 1 === h ? 0 : y0 + 1;
  quad.i00 = (y0 * w + x0) * 4;
  quad.i10 = (y0 * w + x1) * 4;
  quad.i01 = (y1 * w + x0) * 4;
  quad.i11 = (y1 * w + x1) * 4;
  return quad;
}

/**
 * Adds `weight` times the bilinear, wrapped, linear-light RGB of one level at (u, v) to out[0..2],
 * with uvw = [u, v, weight].
 */
function bilinear(level: MipLevel, uvw: Float64Array, out: Float64Array): void {
  const d = level.data;
  const weight = uvw[2]!;
  const { i00, i10, i01, i11, fx, fy } = texelQuad(level, uvw);
  const w00 = (1 - fx) * (1 - fy) * weight, w10 = fx * (1 - fy) * weight, w01 = (1 - fx) * fy * weight, w11 = fx * fy * weight;
  const L = SRGB_TO_LINEAR;
  out[0]! += L[d[i00]!]! * w00 + L[d[i10]!]! * w10 + L[d[i01]!]! * w01 + L[d[i11]!]! * w11;
  out[1]! += L[d[i00 + 1]!]! * w00 + L[d[i10 + 1]!]! * w10 + L[d[i01 + 1]!]! * w01 + L[d[i11 + 1]!]! * w11;
  out[2]! += L[d[i00 + 2]!]! * w00 + L[d[i10 + 2]!]! * w10 + L[d[i01 + 2]!]! * w01 + L[d[i11 + 2]!]! * w11;
}

// [u, v, weight] handed to bilinear and texelQuad. (Numbers go through arrays on these paths, not
// as arguments: a fractional argument is boxed on the heap at every call, millions per view.)
const uvw = new Float64Array(3);

/**
 * Trilinear sample: out[0..2] = linear RGB at (u, v) = at[0..1] for a footprint of 2^lod level-0
 * texels, lod = at[2] (`out` may be `at`). Alpha matters only to the alpha test (sampleAlpha), so
 * it is not filtered here.
 */
export function sampleTexture(levels: MipLevel[], at: Float64Array, out: Float64Array): void {
  // `at` is read before `out` is cleared: they may be the same array.
  const lod = at[2]!;
  uvw[0] = at[0]!; uvw[1] = at[1]!;
  out[0] = 0; out[1] = 0; out[2] = 0;
  const last = levels.length - 1;
  if (!(lod > 0)) {
    uvw[2] = 1;
    bilinear(levels[0]!, uvw, out);
  } else if (lod >= last) {
    uvw[2] = 1;
    bilinear(levels[last]!, uvw, out);
  } else {
    const l0 = Math.floor(lod), f = lod - l0;
    uvw[2] = 1 - f;
    bilinear(levels[l0]!, uvw, out);
    if (f > 0) {
      uvw[2] = f;
      bilinear(levels[l0 + 1]!, uvw, out);
    }
  }
}

/** Bilinear alpha (0..1) of level 0 at (u, v), for the alpha test. */
export function sampleAlpha(levels: MipLevel[], u: number, v: number): number {
  const level = levels[0]!, d = level.data;
  uvw[0] = u; uvw[1] = v;
  const { i00, i10, i01, i11, fx, fy } = texelQuad(level, uvw);
  return ((d[i00 + 3]! * (1 - fx) + d[i10 + 3]! * fx) * (1 - fy) + (d[i01 + 3]! * (1 - fx) + d[i11 + 3]! * fx) * fy) / 255;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // high word index (little-endian: 1)

/**
 * log2(x) for x > 0 to within 0.01: the binary exponent plus a quadratic in the mantissa
 * m in [1, 2): log2(m) ~ (m - 1)(4 - (m - 1)) / 3 (exact at m = 1 and 2). Deterministic, and much
 * cheaper than Math.log2 for the level-of-detail blend.
 */
export function approxLog2(x: number): number {
  F64[0] = x;
  const hi = U32[HI]!;
  const exponent = ((hi >>> 20) & 0x7ff) - 1023;
  U32[HI] = (hi & 0x800fffff) | 0x3ff00000; // same mantissa, exponent 0: m in [1, 2)
  const t = F64[0]! - 1;
  return exponent + (t * (4 - t)) / 3;
}
