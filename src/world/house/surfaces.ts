/**
 * Procedural textures for floors, walls and ceilings, by material name (program.ts names them):
 *   "<oak|walnut|pine> planks"       wood planks 16 cm wide with staggered end joints and grain;
 *   "<white|gray|blue|terracotta> tiles"  square tiles with grout lines (2 x 2 tiles per texture);
 *   "<beige|gray|...> carpet"        fine fibre noise;
 *   "painted plaster <colour>", "exterior plaster", "ceiling plaster"  faint mottling.
 * Each texture is SIZE x SIZE RGBA8 (sRGB), seamless (the noise lattices wrap), and made from a
 * random stream seeded by the material name, so the same name always gives the same bytes.
 * `metresPerTexture` says how many metres one texture spans on that kind of surface; texture
 * coordinates are world metres divided by it (the renderer repeats the texture).
 */
import { createRng, seedFromString, type Rng } from "../../stats/rng.js";
import type { Texture } from "../types.js";

export const SURFACE_TEXTURE_SIZE = 256;

export type SurfaceUse = "floor" | "wall" | "ceiling";

const PLASTER_RGB: Record<string, [number, number, number]> = {
  white: [238, 236, 230],
  cream: [240, 228, 200],
  "light gray": [208, 208, 206],
  "pale blue": [200, 215, 232],
  "sage green": [192, 208, 182],
  "pale yellow": [240, 230, 182],
  peach: [240, 208, 182],
};
const WOOD_RGB: Record<string, [number, number, number]> = {
  oak: [176, 128, 82],
  walnut: [108, 72, 46],
  pine: [206, 168, 116],
};
const TILE_RGB: Record<string, [number, number, number]> = {
  white: [236, 236, 232],
  gray: [150, 150, 148],
  blue: [92, 130, 180],
  terracotta: [184, 96, 62],
};
const CARPET_RGB: Record<string, [number, number, number]> = {
  beige: [200, 182, 150],
  gray: [128, 128, 130],
  blue: [70, 90, 140],
};
const EXTERIOR_RGB: [number, number, number] = [214, 208, 196];
const CEILING_RGB: [number, number, number] = [245, 245, 242];
const GROUT_RGB: [number, number, number] = [180, 178, 172];

/** Which procedural pattern a material name asks for, and its base colour. */
export function surfaceKind(material: string): { kind: "planks" | "tiles" | "carpet" | "plaster"; rgb: [number, number, number] } {
  const m = material.toLowerCase().trim();
  let match = /^(\w+) planks$/.exec(m);
  if (match) return { kind: "planks", rgb: WOOD_RGB[match[1]!] ?? WOOD_RGB.oak! };
  match = /^(\w+) tiles$/.exec(m);
  if (match) return { kind: "tiles", rgb: TILE_RGB[match[1]!] ?? TILE_RGB.white! };
  match = /^([\w ]+) carpet$/.exec(m);
  if (match) return { kind: "carpet", rgb: CARPET_RGB[match[1]!] ?? CARPET_RGB.beige! };
  match = /^painted plaster (.+)$/.exec(m);
  if (match) return { kind: "plaster", rgb: PLASTER_RGB[match[1]!] ?? PLASTER_RGB.white! };
  if (m === "exterior plaster") return { kind: "plaster", rgb: EXTERIOR_RGB };
  if (m === "ceiling plaster") return { kind: "plaster", rgb: CEILING_RGB };
  return { kind: "plaster", rgb: PLASTER_RGB.white! };
}

/** Metres one texture spans: planks 1.28 (8 planks), floor tiles 0.6 (30 cm tiles), wall tiles 0.3 (15 cm), carpet 0.5, plaster 1.0. */
export function metresPerTexture(material: string, use: SurfaceUse): number {
  switch (surfaceKind(material).kind) {
    case "planks": return 1.28;
    case "tiles": return use === "floor" ? 0.6 : 0.3;
    case "carpet": return 0.5;
    default: return 1.0;
  }
}

/** Seamless value noise on a `period` x `period` lattice over the texture, values 0..1. */
function periodicNoise(rng: Rng, period: number, size: number): Float32Array {
  const lattice = new Float32Array(period * period);
  for (let i = 0; i < lattice.length; i++) lattice[i] = rng.next();
  const out = new Float32Array(size * size);
  const smooth = (t: number) => t * t * (3 - 2 * t);
  for (let y = 0; y < size; y++) {
    const fy = (y / size) * period;
    const y0 = Math.floor(fy);
    const ty = smooth(fy - y0);
    for (let x = 0; x < size; x++) {
      const fx = (x / size) * period;
      const x0 = Math.floor(fx);
      const tx = smooth(fx - x0);
      const at = (i: number, j: number) => lattice[(j % period) * period + (i % period)]!;
      const a = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx;
      const b = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx;
      out[y * size + x] = a + (b - a) * ty;
    }
  }
  return out;
}

function write(data: Uint8Array, k: number, rgb: readonly number[], factor: number): void {
  data[4 * k] = Math.max(0, Math.min(255, Math.round(rgb[0]! * factor)));
  data[4 * k + 1] = Math.max(0, Math.min(255, Math.round(rgb[1]! * factor)));
  data[4 * k + 2] = Math.max(0, Math.min(255, Math.round(rgb[2]! * factor)));
  data[4 * k + 3] = 255;
}

function planks(rng: Rng, rgb: [number, number, number], size: number): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  const count = 8;
  const width = size / count;
  const grain = periodicNoise(rng, 64, size);
  const blotch = periodicNoise(rng, 8, size);
  // Per plank: a tone and two end joints (staggered), so planks have random lengths.
  const tone = Array.from({ length: count }, () => rng.float(0.85, 1.12));
  const joints = Array.from({ length: count }, (): [number, number] => {
    const j = rng.int(0, size - 1);
    return [j, (j + rng.int(Math.floor(size / 3), Math.floor((2 * size) / 3))) % size];
  });
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const p = Math.floor(x / width);
      const inPlank = x - p * width;
      const [j0, j1] = joints[p]!;
      const joint = y === j0 || y === j1;
      const gap = inPlank < 1 || joint;
      // Grain: streaks along the plank (sampled mostly across x), wobbled by noise.
      const streak = 0.5 + 0.5 * Math.sin((inPlank / width) * Math.PI * 7 + grain[y * size + x]! * 6);
      const segment = y >= Math.min(j0, j1) && y < Math.max(j0, j1) ? 0.96 : 1.02;
      const f = gap ? 0.55 : tone[p]! * segment * (0.9 + 0.1 * streak) * (0.94 + 0.12 * blotch[y * size + x]!);
      write(data, y * size + x, rgb, f);
    }
  return data;
}

function tiles(rng: Rng, rgb: [number, number, number], size: number): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  const perSide = 2;
  const tile = size / perSide;
  const grout = Math.max(2, Math.round(size / 96));
  const noise = periodicNoise(rng, 32, size);
  const tone = Array.from({ length: perSide * perSide }, () => rng.float(0.96, 1.04));
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const tx = x % tile;
      const ty = y % tile;
      const k = y * size + x;
      if (tx < grout || ty < grout) write(data, k, GROUT_RGB, 0.95 + 0.1 * noise[k]!);
      else write(data, k, rgb, tone[Math.floor(y / tile) * perSide + Math.floor(x / tile)]! * (0.97 + 0.06 * noise[k]!));
    }
  return data;
}

function carpet(rng: Rng, rgb: [number, number, number], size: number): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  const coarse = periodicNoise(rng, 16, size);
  for (let k = 0; k < size * size; k++) write(data, k, rgb, 0.9 + 0.12 * rng.next() + 0.06 * coarse[k]!);
  return data;
}

function plaster(rng: Rng, rgb: [number, number, number], size: number): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  const low = periodicNoise(rng, 8, size);
  const mid = periodicNoise(rng, 32, size);
  for (let k = 0; k < size * size; k++) write(data, k, rgb, 0.965 + 0.035 * low[k]! + 0.02 * mid[k]!);
  return data;
}

const cache = new Map<string, Texture>();

/** The procedural texture of a material name (cached; the same name gives the same bytes). */
export function surfaceTexture(material: string): Texture {
  const hit = cache.get(material);
  if (hit) return hit;
  const { kind, rgb } = surfaceKind(material);
  const rng = createRng(seedFromString(material));
  const size = SURFACE_TEXTURE_SIZE;
  const data = kind === "planks" ? planks(rng, rgb, size) : kind === "tiles" ? tiles(rng, rgb, size) : kind === "carpet" ? carpet(rng, rgb, size) : plaster(rng, rgb, size);
  const texture: Texture = { width: size, height: size, data };
  cache.set(material, texture);
  return texture;
}
