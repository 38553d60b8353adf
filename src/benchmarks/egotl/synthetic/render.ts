/**
 * A small deterministic ray caster for the synthetic walkthroughs: per pixel, a ray is marched
 * through the 0.5 m grid (Amanatides-Woo traversal) and hits a floor or ceiling inside a free cell,
 * a stair riser or ceiling step between free cells, or a wall (solid cell). Walls are painted in
 * their zone's colour with 1 m panel seams and a rail at 1 m; floors are a two-tone checker; the
 * goal wall is red. Distance fog gives depth. Pure arithmetic: same inputs, same pixels.
 */
import { encodePng } from "../../../media/png.js";
import { CEILING_HEIGHT, CELL, GOAL_COLOUR, key, ZONE_COLOURS, type Pose, type Walkthrough } from "./world.js";

export interface RenderOptions {
  width: number;
  height: number;
  /** Horizontal field of view in degrees. */
  hfov: number;
  /** Camera pitch in degrees (negative looks down). */
  pitch: number;
}

export const DEFAULT_RENDER: RenderOptions = { width: 96, height: 72, hfov: 75, pitch: -12 };

type Rgb = [number, number, number];

const FLOOR_A: Rgb = [176, 150, 116];
const FLOOR_B: Rgb = [150, 126, 96];
const RISER: Rgb = [110, 92, 70];
const CEILING: Rgb = [226, 226, 220];
const FAR: Rgb = [30, 30, 34];
const MAX_T = 40;

function fog(c: Rgb, t: number): Rgb {
  const k = 0.3 + 0.7 * Math.exp(-t / 5);
  return [c[0] * k + FAR[0] * (1 - k) * 0.3, c[1] * k + FAR[1] * (1 - k) * 0.3, c[2] * k + FAR[2] * (1 - k) * 0.3];
}

const scale = (c: readonly [number, number, number], k: number): Rgb => [c[0] * k, c[1] * k, c[2] * k];

function wallColour(world: Walkthrough, solid: string, from: string, along: number, height: number, xFace: boolean): Rgb {
  const base = world.goalCells.has(solid) ? GOAL_COLOUR.rgb : ZONE_COLOURS[world.cells.get(from)?.zone ?? 0]!.rgb;
  let k = xFace ? 0.78 : 1;
  const seam = along - Math.floor(along);
  if (seam < 0.06) k *= 0.55; // panel seams every metre
  if (height > 0.95 && height < 1.05) k *= 0.6; // rail at 1 m
  if (height < 0.12) k *= 0.5; // skirting board
  return scale(base, k);
}

/** The colour one ray sees. */
function trace(world: Walkthrough, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): Rgb {
  let ci = Math.floor(ox / CELL);
  let ck = Math.floor(oz / CELL);
  const stepI = dx > 0 ? 1 : -1;
  const stepK = dz > 0 ? 1 : -1;
  const tDeltaI = dx !== 0 ? Math.abs(CELL / dx) : Infinity;
  const tDeltaK = dz !== 0 ? Math.abs(CELL / dz) : Infinity;
  let tMaxI = dx !== 0 ? ((dx > 0 ? (ci + 1) * CELL : ci * CELL) - ox) / dx : Infinity;
  let tMaxK = dz !== 0 ? ((dz > 0 ? (ck + 1) * CELL : ck * CELL) - oz) / dz : Infinity;
  let tEnter = 0;
  let cell = world.cells.get(key(ci, ck));
  if (!cell) return FAR;
  for (let guard = 0; guard < 400 && tEnter < MAX_T; guard++) {
    const tExit = Math.min(tMaxI, tMaxK);
    const floor = cell.floor;
    const ceiling = floor + CEILING_HEIGHT;
    if (dy < 0) {
      const t = (floor - oy) / dy;
      if (t >= tEnter && t <= tExit) {
        const x = ox + dx * t;
        const z = oz + dz * t;
        const parity = (Math.floor(x / CELL) + Math.floor(z / CELL)) & 1;
        return fog(parity ? FLOOR_A : FLOOR_B, t);
      }
    } else if (dy > 0) {
      const t = (ceiling - oy) / dy;
      if (t >= tEnter && t <= tExit) {
        const x = ox + dx * t;
        const z = oz + dz * t;
        const band = (Math.floor(x) + Math.floor(z)) & 1;
        return fog(scale(CEILING, band ? 1 : 0.93), t);
      }
    }
    const xStep = tMaxI < tMaxK;
    const from = key(ci, ck);
    if (xStep) {
      ci += stepI;
      tMaxI += tDeltaI;
    } else {
      ck += stepK;
      tMaxK += tDeltaK;
    }
    const t = tExit;
    const y = oy + dy * t;
    const x = ox + dx * t;
    const z = oz + dz * t;
    const along = xStep ? z : x;
    const next = world.cells.get(key(ci, ck));
    if (!next) return fog(wallColour(world, key(ci, ck), from, along, y - floor, xStep), t);
    if (y < next.floor) return fog(scale(RISER, xStep ? 0.8 : 1), t);
    if (y > next.floor + CEILING_HEIGHT) return fog(scale(CEILING, 0.75), t);
    cell = next;
    tEnter = t;
  }
  return FAR;
}

/** Packed RGB pixels of one pose. */
export function renderPixels(world: Walkthrough, pose: Pose, options: RenderOptions = DEFAULT_RENDER): Uint8Array {
  const { width, height } = options;
  const out = new Uint8Array(width * height * 3);
  const yaw = (pose.yaw * Math.PI) / 180;
  const pitch = (options.pitch * Math.PI) / 180;
  const f = [Math.sin(yaw) * Math.cos(pitch), Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch)] as const;
  const r = [Math.cos(yaw), 0, -Math.sin(yaw)] as const;
  const u = [-Math.sin(yaw) * Math.sin(pitch), Math.cos(pitch), -Math.cos(yaw) * Math.sin(pitch)] as const;
  const tanX = Math.tan((options.hfov * Math.PI) / 360);
  const tanY = (tanX * height) / width;
  for (let v = 0; v < height; v++) {
    const sy = (1 - (2 * (v + 0.5)) / height) * tanY;
    for (let px = 0; px < width; px++) {
      const sx = ((2 * (px + 0.5)) / width - 1) * tanX;
      const ax = f[0] + sx * r[0] + sy * u[0];
      const ay = f[1] + sx * r[1] + sy * u[1];
      const az = f[2] + sx * r[2] + sy * u[2];
      const norm = Math.hypot(ax, ay, az);
      const c = trace(world, pose.x, pose.y, pose.z, ax / norm, ay / norm, az / norm);
      const o = (v * width + px) * 3;
      // Quantised to steps of 4 levels: smaller PNGs, no visible banding at this size.
      out[o] = Math.min(255, Math.max(0, Math.round(c[0] / 4) * 4));
      out[o + 1] = Math.min(255, Math.max(0, Math.round(c[1] / 4) * 4));
      out[o + 2] = Math.min(255, Math.max(0, Math.round(c[2] / 4) * 4));
    }
  }
  return out;
}

export async function renderPng(world: Walkthrough, pose: Pose, options: RenderOptions = DEFAULT_RENDER): Promise<Buffer> {
  return encodePng(renderPixels(world, pose, options), options.width, options.height, 3);
}
