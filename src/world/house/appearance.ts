/**
 * What a model looks like in words: its area-weighted mean surface colour, named by a basic
 * colour word, and its material names.
 *
 * Mean colour: every triangle of every part weighs by its area (model space, metres); its colour
 * is the part material's diffuse Kd (taken as linear RGB, as WorldMeshPart.diffuse is) times the
 * alpha-weighted mean of its diffuse texture (sRGB texels decoded to linear), or Kd alone without
 * a texture. Parts with opacity below 0.5 (glass, drawn to RGB only by the renderer) are left out
 * unless nothing else is left. The mean is taken in linear light and encoded back to sRGB 0..255.
 * A part without a material uses DEFAULT_DIFFUSE, as meshes.ts does.
 *
 * Colour words (colorName), from the sRGB colour's HSV hue h (degrees), saturation s and value v,
 * first rule that matches:
 *   v < 0.16                                   black
 *   s < 0.15:  v >= 0.85 white, v < 0.3 black, else gray
 *   15 <= h < 65 (orange to yellow hues):
 *      s < 0.5 and v >= 0.7                    beige   (light, weakly saturated: sand, cream, light wood)
 *      v < 0.75                                brown   (darkened orange/yellow: wood, leather)
 *      h < 40                                  orange
 *      else                                    yellow
 *   s < 0.25:  v >= 0.85 white, else gray      (other weakly saturated colours)
 *   h < 15 or h >= 345:  s < 0.5 and v >= 0.7 pink, else red
 *   h < 165                                    green
 *   h < 255                                    blue
 *   h < 295                                    purple
 *   else (295..345)                            pink
 *
 * In a rendered view an object is named by what the picture shows instead (dominantPixelColors):
 * the word that most of its visible pixels' albedo colours get (ColorWordTally).
 */
import sharp from "sharp";
import type { CatalogEntry } from "../assets/catalog.js";
import type { CatalogModel, ModelLibrary } from "../assets/models.js";
import type { ColorInfo, Vec3 } from "../types.js";

/** Diffuse colour of a part without a material (linear RGB). */
export const DEFAULT_DIFFUSE: Vec3 = [0.8, 0.8, 0.8];

export const COLOR_NAMES = ["black", "white", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "beige"] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

/** sRGB transfer (IEC 61966-2-1): encoded 0..1 -> linear 0..1. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

/** Linear 0..1 -> encoded 0..1. */
export function linearToSrgb(c: number): number {
  const v = Math.min(1, Math.max(0, c));
  return v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055;
}

/** HSV of an sRGB colour (0..255): hue in degrees [0, 360), saturation and value 0..1. */
export function rgbToHsv(rgb: readonly [number, number, number]): { h: number; s: number; v: number } {
  const [r, g, b] = rgb.map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const c = max - min;
  let h = 0;
  if (c > 0) {
    if (max === r) h = 60 * (((g - b) / c) % 6);
    else if (max === g) h = 60 * ((b - r) / c + 2);
    else h = 60 * ((r - g) / c + 4);
  }
  if (h < 0) h += 360;
  return { h, s: max === 0 ? 0 : c / max, v: max };
}

/** The basic colour word of an sRGB colour (rules in the file comment). */
export function colorName(rgb: readonly [number, number, number]): ColorName {
  const { h, s, v } = rgbToHsv(rgb);
  if (v < 0.16) return "black";
  if (s < 0.15) return v >= 0.85 ? "white" : v < 0.3 ? "black" : "gray";
  if (h >= 15 && h < 65) {
    if (s < 0.5 && v >= 0.7) return "beige";
    if (v < 0.75) return "brown";
    return h < 40 ? "orange" : "yellow";
  }
  if (s < 0.25) return v >= 0.85 ? "white" : "gray";
  if (h < 15 || h >= 345) return s < 0.5 && v >= 0.7 ? "pink" : "red";
  if (h < 165) return "green";
  if (h < 255) return "blue";
  if (h < 295) return "purple";
  return "pink";
}

/** Mean linear colour of texels, weighted by alpha; null when fully transparent. */
export function meanTexelLinear(data: Uint8Array, channels: number): Vec3 | null {
  let r = 0, g = 0, b = 0, w = 0;
  for (let i = 0; i + channels - 1 < data.length; i += channels) {
    const a = channels === 4 ? data[i + 3]! / 255 : 1;
    if (a === 0) continue;
    r += a * srgbToLinear(data[i]! / 255);
    g += a * srgbToLinear(data[i + 1]! / 255);
    b += a * srgbToLinear(data[i + 2]! / 255);
    w += a;
  }
  return w > 0 ? [r / w, g / w, b / w] : null;
}

/** Side of the thumbnail a texture's mean is taken over (sharp's area-averaging resize). */
const MEAN_THUMBNAIL = 64;

const textureMeans = new Map<string, Vec3 | null>();

/** Mean linear colour of a model's texture (cached per library file and zip entry); null when absent or undecodable. */
async function textureMean(library: ModelLibrary, entry: CatalogEntry, zipEntry: string): Promise<Vec3 | null> {
  const key = `${entry.libraryFile}\u0000${zipEntry}`;
  if (textureMeans.has(key)) return textureMeans.get(key)!;
  let mean: Vec3 | null = null;
  const bytes = library.texture(entry, zipEntry);
  if (bytes) {
    try {
      const { data, info } = await sharp(bytes)
        .resize(MEAN_THUMBNAIL, MEAN_THUMBNAIL, { fit: "inside", withoutEnlargement: true })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      mean = meanTexelLinear(new Uint8Array(data.buffer, data.byteOffset, data.length), info.channels);
    } catch {
      mean = null;
    }
  }
  textureMeans.set(key, mean);
  return mean;
}

function triangleArea(p: Float32Array, i: number, j: number, k: number): number {
  const ax = p[3 * j]! - p[3 * i]!, ay = p[3 * j + 1]! - p[3 * i + 1]!, az = p[3 * j + 2]! - p[3 * i + 2]!;
  const bx = p[3 * k]! - p[3 * i]!, by = p[3 * k + 1]! - p[3 * i + 1]!, bz = p[3 * k + 2]! - p[3 * i + 2]!;
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  return Math.hypot(cx, cy, cz) / 2;
}

/** Surface area of a part, m2. */
export function partArea(part: { positions: Float32Array; indices: Uint32Array }): number {
  let area = 0;
  const idx = part.indices;
  for (let t = 0; t + 2 < idx.length; t += 3) area += triangleArea(part.positions, idx[t]!, idx[t + 1]!, idx[t + 2]!);
  return area;
}

/** Material names the model's parts use, in first-use order. */
export function modelMaterialNames(model: Pick<CatalogModel, "mesh">): string[] {
  const names: string[] = [];
  for (const part of model.mesh.parts) if (part.material !== null && !names.includes(part.material)) names.push(part.material);
  return names;
}

/**
 * Area-weighted mean colour of a model from per-part colours (linear) — the pure core of
 * modelColor. `partColor(i)` gives the linear colour of part i, `partOpacity(i)` its opacity.
 */
export function meanSurfaceColor(
  parts: readonly { positions: Float32Array; indices: Uint32Array }[],
  partColor: (i: number) => Vec3,
  partOpacity: (i: number) => number,
): ColorInfo {
  const sum = (opaqueOnly: boolean) => {
    let r = 0, g = 0, b = 0, w = 0;
    parts.forEach((part, i) => {
      if (opaqueOnly && partOpacity(i) < 0.5) return;
      const area = partArea(part);
      const c = partColor(i);
      r += area * c[0];
      g += area * c[1];
      b += area * c[2];
      w += area;
    });
    return { r, g, b, w };
  };
  let s = sum(true);
  if (s.w === 0) s = sum(false);
  const linear: Vec3 = s.w > 0 ? [s.r / s.w, s.g / s.w, s.b / s.w] : DEFAULT_DIFFUSE;
  const rgb = linear.map((c) => Math.round(linearToSrgb(c) * 255)) as [number, number, number];
  return { name: colorName(rgb), rgb };
}

export interface ModelAppearance {
  color: ColorInfo;
  materials: string[];
}

/** The model's colour and material names (rules in the file comment). */
export async function modelAppearance(library: ModelLibrary, model: CatalogModel): Promise<ModelAppearance> {
  const partColors: Vec3[] = [];
  for (const part of model.mesh.parts) {
    const material = part.material === null ? undefined : model.materials[part.material];
    const diffuse = material ? material.diffuse : DEFAULT_DIFFUSE;
    const map = part.material === null ? undefined : model.diffuseMaps[part.material];
    const tex = map ? await textureMean(library, model.entry, map) : null;
    partColors.push(tex ? [diffuse[0] * tex[0], diffuse[1] * tex[1], diffuse[2] * tex[2]] : [diffuse[0], diffuse[1], diffuse[2]]);
  }
  const color = meanSurfaceColor(
    model.mesh.parts,
    (i) => partColors[i]!,
    (i) => {
      const m = model.mesh.parts[i]!.material;
      return m === null ? 1 : (model.materials[m]?.opacity ?? 1);
    },
  );
  return { color, materials: modelMaterialNames(model) };
}

const appearanceCache = new WeakMap<ModelLibrary, Map<string, ModelAppearance>>();

/** modelAppearance of a catalogue entry, loading the model once per library (cached by entry id). */
export async function entryAppearance(library: ModelLibrary, entry: CatalogEntry): Promise<ModelAppearance> {
  let cache = appearanceCache.get(library);
  if (!cache) appearanceCache.set(library, (cache = new Map()));
  const key = `${entry.libraryFile}\u0000${entry.id}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const appearance = await modelAppearance(library, library.load(entry));
  cache.set(key, appearance);
  return appearance;
}

const SRGB8_TO_LINEAR = Float64Array.from({ length: 256 }, (_, c) => srgbToLinear(c / 255));

/**
 * Colour words of one object's pixels: the pixel count and linear-light sum of each word. The
 * words are the histogram's bins, so the dominant one is the largest area that reads as one colour
 * (a green plant in a brown pot is green when its leaves cover more pixels), where a mean colour
 * would blend the materials into a word none of them has.
 */
export class ColorWordTally {
  readonly counts = new Uint32Array(COLOR_NAMES.length);
  readonly sums = new Float64Array(COLOR_NAMES.length * 3);
  /** Word index of each packed sRGB colour seen (a view's albedo repeats few colours). */
  private readonly wordOf: Map<number, number>;

  constructor(wordCache: Map<number, number> = new Map()) {
    this.wordOf = wordCache;
  }

  add(r: number, g: number, b: number): void {
    const key = (r << 16) | (g << 8) | b;
    let word = this.wordOf.get(key);
    if (word === undefined) this.wordOf.set(key, (word = COLOR_NAMES.indexOf(colorName([r, g, b]))));
    this.counts[word] = this.counts[word]! + 1;
    this.sums[3 * word] = this.sums[3 * word]! + SRGB8_TO_LINEAR[r]!;
    this.sums[3 * word + 1] = this.sums[3 * word + 1]! + SRGB8_TO_LINEAR[g]!;
    this.sums[3 * word + 2] = this.sums[3 * word + 2]! + SRGB8_TO_LINEAR[b]!;
  }

  /** The word with the most pixels (ties: COLOR_NAMES order) and the mean colour of those pixels; null without pixels. */
  dominant(): ColorInfo | null {
    let best = -1;
    this.counts.forEach((n, w) => {
      if (n > 0 && (best < 0 || n > this.counts[best]!)) best = w;
    });
    if (best < 0) return null;
    const n = this.counts[best]!;
    const rgb = [0, 1, 2].map((c) => Math.round(linearToSrgb(this.sums[3 * best + c]! / n) * 255)) as [number, number, number];
    return { name: COLOR_NAMES[best]!, rgb };
  }
}

/** The dominant colour word (ColorWordTally.dominant) of a list of sRGB pixels; null when empty. */
export function dominantColor(pixels: readonly (readonly [number, number, number])[]): ColorInfo | null {
  const tally = new ColorWordTally();
  for (const [r, g, b] of pixels) tally.add(r, g, b);
  return tally.dominant();
}

/**
 * The colour-word tally of each object's pixels (instance id per pixel, RGB8 row-major), for the
 * ids `accept` takes (0 is never an object). The tallies share one word cache.
 */
export function pixelColorTallies(rgb: Uint8Array, instance: Uint32Array, accept: (id: number) => boolean): Map<number, ColorWordTally> {
  if (rgb.length !== instance.length * 3) throw new Error(`pixel colours: ${rgb.length} RGB bytes for ${instance.length} pixels`);
  const words = new Map<number, number>();
  const hists = new Map<number, ColorWordTally | null>();
  let lastId = 0;
  let last: ColorWordTally | null | undefined;
  for (let i = 0; i < instance.length; i++) {
    const id = instance[i]!;
    if (id === 0) continue;
    let h = id === lastId ? last : hists.get(id);
    if (h === undefined) hists.set(id, (h = accept(id) ? new ColorWordTally(words) : null));
    lastId = id;
    last = h;
    if (h) h.add(rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!);
  }
  return new Map([...hists].filter((e): e is [number, ColorWordTally] => e[1] !== null));
}

/**
 * The colour word of each listed object as a view shows it: the dominant colour of its pixels
 * (instance id per pixel, RGB8 row-major). Give it the view's albedo (the renderer's "unlit"
 * shading: diffuse x texture, no light, shadow or tone curve), so that the word is the material's
 * and not the lighting's: a white vase in shade stays white. Objects without a pixel are absent.
 */
export function dominantPixelColors(rgb: Uint8Array, instance: Uint32Array, ids: ReadonlySet<number>): Map<number, ColorInfo> {
  const hists = pixelColorTallies(rgb, instance, (id) => ids.has(id));
  const out = new Map<number, ColorInfo>();
  for (const [id, h] of hists) {
    const colour = h.dominant();
    if (colour) out.set(id, colour);
  }
  return out;
}
