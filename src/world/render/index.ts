/**
 * The world renderer: world meshes (types.ts WorldMesh) through a pinhole camera (camera.ts) to
 * RGB, metric depth, instance ids and categories, in one deterministic software pass (no GPU:
 * the same inputs give the same bytes).
 *
 * Pipeline:
 *   1. Visible parts: bounding-sphere frustum culling, vertices to camera and screen space
 *      (view.ts); triangles crossing the near plane (default 0.05 m) are clipped.
 *   2. Visibility: every opaque triangle (opacity >= 0.5), both sides, is rasterized at five
 *      samples per pixel (raster.ts AA_SAMPLES: the centre and a 5-rook pattern) into a depth and
 *      triangle-id buffer. Textures with cut-outs (alpha < 0.5) are alpha-tested per sample.
 *      Parts, and runs of 256 triangles of big parts, whose box lies wholly behind what the buffer
 *      already holds are skipped (view.ts Frame.hidden): they could not pass one depth test, so
 *      the buffers are the same as when drawing them (meshes keep their order: structure first).
 *   3. depth / instance / category come from the pixel-centre sample alone: the nearest opaque
 *      surface through the centre, depth along the viewing axis (camera.ts projectPoint's depth).
 *   4. Ambient occlusion from the centre depths and face normals (ao.ts); shadow maps of the
 *      point lights in range (shadow.ts).
 *   5. RGB: each distinct triangle of a pixel's five samples is shaded once (shade.ts: perspective-
 *      correct, trilinear-filtered texture, smooth normals, two-sided, hemisphere ambient + point
 *      lights + optional directional light, in linear light) and weighted by its sample count.
 *   6. Glass (opacity < 0.5) is blended over that colour per pixel by the share of its samples in
 *      front of the opaque surface, times its opacity; it never enters depth / instance / category.
 *   7. A soft shoulder above TONE_KNEE keeps highlights from clipping; the result is sRGB-encoded.
 *
 * Meshes, parts and textures are treated as immutable: bounding spheres and boxes, twin-triangle
 * flags, index checks, mip chains and shadow maps are computed once and cached per object (never
 * changing a pixel).
 */
import type { PinholeCamera } from "../camera.js";
import { categoryId, type PointLight, type Vec3, type WorldMesh } from "../types.js";
import { ambientOcclusion } from "./ao.js";
import { AA_SAMPLES, CENTRE_SAMPLE, RasterMode, SampleRaster, SUB } from "./raster.js";
import { CENTRE, Shader, type ActiveLight, type LightRig } from "./shade.js";
import { buildShadowMap, checkShadowMapSize, DEFAULT_SHADOW_MAP_SIZE, type ShadowMap, type ShadowMaps } from "./shadow.js";
import { linearToSrgb8, SRGB_TO_LINEAR } from "./texture.js";
import { DEFAULT_NEAR, Frame, makeView, sphereInView, type View } from "./view.js";

export { encodeRgbPng, depthToPng16, depthToMillimetres, instanceToPng, decodeDepthPng16, decodeInstancePng } from "./encode.js";
export { AA_SAMPLES, CENTRE_SAMPLE, SUB } from "./raster.js";
export type { ShadowMap, ShadowMaps } from "./shadow.js";
export { POINT_LIGHT_SCALE } from "./shade.js";
export { DEFAULT_NEAR } from "./view.js";

export interface RenderBuffers {
  width: number;
  height: number;
  /** RGB8, row-major from the top-left pixel. */
  rgb: Uint8Array;
  /** Metres along the viewing axis at each pixel centre, 0 where nothing is drawn. */
  depth: Float32Array;
  /** Instance id of the nearest opaque surface at the pixel centre, 0 = nothing. */
  instance: Uint32Array;
  /** categoryId(mesh.category) of that surface, 0 = nothing. */
  category: Uint16Array;
}

export type Rgb = [number, number, number];

export interface DirectionalLight {
  /** Towards the light (need not be unit length). */
  direction: Vec3;
  /** Linear RGB. */
  color: Rgb;
}

export interface RenderOptions {
  /** Point lights (Scene.lights). */
  lights?: readonly PointLight[];
  /** Distance (metres) at which a point light's contribution has faded to zero. Default 8. */
  lightRange?: number;
  /** Directional light. Default: none when point lights are given, else DEFAULT_KEY_LIGHT. */
  keyLight?: DirectionalLight | null;
  /** Hemisphere ambient, linear RGB from straight above and straight below. */
  ambient?: { sky: Rgb; ground: Rgb };
  /**
   * Shadow maps of the point lights: true (default) builds them on first use and keeps them for
   * later views of the same meshes array; false: no shadows; or maps made by prepareShadows.
   */
  shadows?: boolean | ShadowMaps;
  /** Texels per side of each shadow map. Default 512. */
  shadowMapSize?: number;
  /** Screen-space ambient occlusion. Default true. */
  ambientOcclusion?: boolean;
  /** Multiplies the linear colour before the tone curve. Default 1. */
  exposure?: number;
  /** sRGB colour where nothing is drawn. Default black. */
  background?: Rgb;
  /** "lit" (default), or "unlit": albedo only (diffuse x texture), no light, AO or tone curve. */
  shading?: "lit" | "unlit";
  /** Five samples per pixel for RGB (default true), or the centre sample only. */
  antialias?: boolean;
  /** Near clipping distance, metres. Default 0.05. */
  near?: number;
}

export const DEFAULT_LIGHT_RANGE = 8;
/** Ambient with ceiling lights: a bright diffuse bounce from the ceiling and walls, less from the floor. */
export const DEFAULT_ROOM_AMBIENT = { sky: [0.3, 0.3, 0.31] as Rgb, ground: [0.21, 0.2, 0.19] as Rgb };
/** Without point lights: a brighter sky plus a key light from the south-west, high up. */
export const DEFAULT_OUTDOOR_AMBIENT = { sky: [0.5, 0.5, 0.52] as Rgb, ground: [0.25, 0.24, 0.23] as Rgb };
export const DEFAULT_KEY_LIGHT: DirectionalLight = { direction: [-0.35, -0.6, 1], color: [0.6, 0.6, 0.57] };
/** Linear value where the tone curve starts to bend (below it, output = input). */
export const TONE_KNEE = 0.7;

// Scratch buffers, reused by every render of this process (renders are synchronous).
const mainFrame = new Frame();
// renderInstanceCoverage's frame and stamp buffers (its own, so a coverage count never disturbs a
// render's scratch).
const coverageFrame = new Frame();
let coverageIds = new Uint32Array(0);
let coverageDepth = new Float32Array(0);
const shader = new Shader();
let sampleDepth = new Float32Array(0);
let sampleIds = new Uint32Array(0);
// Per-pixel working buffers (not returned): face normals (zeroed per render) and linear colour
// (every pixel written), kept to spare the collector ~3.5 MB per 384 x 384 view.
let pixelNormals = new Float32Array(0);
let pixelLinear = new Float32Array(0);

function pixelScratch(n: number): { normals: Float32Array; linear: Float32Array } {
  if (pixelNormals.length < n * 3) {
    pixelNormals = new Float32Array(n * 3);
    pixelLinear = new Float32Array(n * 3);
  } else {
    pixelNormals.fill(0, 0, n * 3);
  }
  return { normals: pixelNormals, linear: pixelLinear };
}

function scratch(n: number): void {
  if (sampleDepth.length < n) {
    sampleDepth = new Float32Array(n);
    sampleIds = new Uint32Array(n);
  } else {
    sampleDepth.fill(0, 0, n);
    sampleIds.fill(0, 0, n);
  }
}

/**
 * Shadow maps made by `shadows: true`, per meshes array (checked element by element on use, so a
 * changed array misses) and light, so later views of the same scene reuse them. A map is a pure
 * function of the meshes and the light: the cache changes times, never pixels.
 */
const SHADOW_CACHE = new WeakMap<readonly WorldMesh[], { meshes: WorldMesh[]; maps: Map<PointLight, Map<string, ShadowMap>> }>();

function cachedShadowMap(meshes: readonly WorldMesh[], light: PointLight, range: number, size: number): ShadowMap {
  let entry = SHADOW_CACHE.get(meshes);
  if (!entry || entry.meshes.length !== meshes.length || entry.meshes.some((m, i) => m !== meshes[i])) {
    entry = { meshes: [...meshes], maps: new Map() };
    SHADOW_CACHE.set(meshes, entry);
  }
  let byLight = entry.maps.get(light);
  if (!byLight) entry.maps.set(light, (byLight = new Map()));
  const key = `${range} ${size} ${light.position.join(" ")}`;
  let map = byLight.get(key);
  if (!map) byLight.set(key, (map = buildShadowMap(meshes, light, range, size)));
  return map;
}

/**
 * Shadow maps of the given lights for many views of these meshes (as they are now), each built
 * when a view first lights with it and kept: views that see part of a house build only the maps
 * of the lights in range of them. A map is a pure function of the meshes and the light, so when
 * it is built changes times, never pixels.
 */
export function prepareShadows(meshes: readonly WorldMesh[], lights: readonly PointLight[], options: Pick<RenderOptions, "lightRange" | "shadowMapSize"> = {}): ShadowMaps {
  const range = options.lightRange ?? DEFAULT_LIGHT_RANGE;
  const size = options.shadowMapSize ?? DEFAULT_SHADOW_MAP_SIZE;
  // A bad size is refused now, not at the first view that needs a map.
  checkShadowMapSize(size);
  const casters = [...meshes];
  const known = new Set(lights);
  const built = new Map<PointLight, ShadowMap>();
  return {
    get(light) {
      if (!known.has(light)) return undefined;
      let map = built.get(light);
      if (!map) built.set(light, (map = buildShadowMap(casters, light, range, size)));
      return map;
    },
  };
}

export function renderView(meshes: readonly WorldMesh[], camera: PinholeCamera, options: RenderOptions = {}): RenderBuffers {
  const view = makeView(camera, options.near ?? DEFAULT_NEAR);
  const W = view.width, H = view.height, N = W * H;
  const pattern = options.antialias === false ? CENTRE_SAMPLE : AA_SAMPLES;
  const S = pattern.ox.length;
  const unlit = options.shading === "unlit";

  // 1-2. Visibility of opaque parts.
  const frame = mainFrame;
  const { raster, hasGlass } = drawOpaque(frame, view, meshes, pattern);

  // 3. Centre-sample buffers.
  const parts = frame.parts;
  const partInstance = Uint32Array.from(parts, (vp) => vp.mesh.instanceId);
  const partCategory = Uint16Array.from(parts, (vp) => categoryId(vp.mesh.category));
  const depth = new Float32Array(N);
  const instance = new Uint32Array(N);
  const category = new Uint16Array(N);
  const sIds = sampleIds, sDepth = sampleDepth;
  const { normals, linear } = pixelScratch(N);
  centreSurfaces(frame, sIds, sDepth, S, depth, { partInstance, partCategory, instance, category, normals });

  // 4. Light rig, ambient occlusion, shadows.
  const lights = options.lights ?? [];
  const range = options.lightRange ?? DEFAULT_LIGHT_RANGE;
  if (!(range > 0)) throw new Error(`lightRange must be > 0, got ${range}`);
  const rig = lightRig(options, view, meshes, lights, range, unlit);
  let ao: Float32Array | null = null;
  if (!unlit && options.ambientOcclusion !== false) {
    ao = ambientOcclusion(depth, normals, W, H, view.focal);
  }

  // 5. Opaque colour, linear.
  const offX = Float64Array.from(pattern.ox, (o) => o / SUB), offY = Float64Array.from(pattern.oy, (o) => o / SUB);
  shader.begin(frame, rig, unlit, offX, offY, ao);
  const bg = options.background ?? [0, 0, 0];
  if (!bg.every((c) => Number.isInteger(c) && c >= 0 && c <= 255)) throw new Error(`background must be three bytes 0..255, got ${JSON.stringify(bg)}`);
  const bgr = SRGB_TO_LINEAR[bg[0]]!, bgg = SRGB_TO_LINEAR[bg[1]]!, bgb = SRGB_TO_LINEAR[bg[2]]!;
  const out = shader.out;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      const base = p * S;
      const id0 = sIds[base]!;
      let same = true;
      for (let s = 1; s < S; s++) {
        if (sIds[base + s] !== id0) {
          same = false;
          break;
        }
      }
      if (same) {
        if (id0 === 0) {
          linear[p * 3] = bgr; linear[p * 3 + 1] = bgg; linear[p * 3 + 2] = bgb;
        } else {
          shader.shade(id0, x, y, CENTRE);
          linear[p * 3] = out[0]!; linear[p * 3 + 1] = out[1]!; linear[p * 3 + 2] = out[2]!;
        }
        continue;
      }
      let r = 0, g = 0, b = 0;
      for (let s = 0; s < S; s++) {
        const id = sIds[base + s]!;
        let seen = false;
        for (let e = 0; e < s; e++) {
          if (sIds[base + e] === id) {
            seen = true;
            break;
          }
        }
        if (seen) continue;
        let count = 1;
        for (let e = s + 1; e < S; e++) if (sIds[base + e] === id) count++;
        if (id === 0) {
          r += bgr * count; g += bgg * count; b += bgb * count;
        } else {
          shader.shade(id, x, y, s);
          r += out[0]! * count; g += out[1]! * count; b += out[2]! * count;
        }
      }
      linear[p * 3] = r / S; linear[p * 3 + 1] = g / S; linear[p * 3 + 2] = b / S;
    }
  }

  // 6. Glass over it.
  if (hasGlass) {
    const opacityOf = Float64Array.from(parts, (vp) => vp.part.opacity);
    raster.mode = RasterMode.Emit;
    raster.emit = (pixel, mask, id) => {
      let count = 0, first = -1;
      for (let s = 0; s < S; s++) {
        if (mask & (1 << s)) {
          if (first < 0) first = s;
          count++;
        }
      }
      const x = pixel % W, y = (pixel - x) / W;
      shader.shade(id, x, y, first);
      const alpha = (opacityOf[frame.partOfId[id]!]! * count) / S;
      const o = pixel * 3;
      linear[o] = linear[o]! * (1 - alpha) + out[0]! * alpha;
      linear[o + 1] = linear[o + 1]! * (1 - alpha) + out[1]! * alpha;
      linear[o + 2] = linear[o + 2]! * (1 - alpha) + out[2]! * alpha;
    };
    for (const vp of frame.parts) if (vp.glass && !frame.hidden(vp, raster)) frame.drawPart(raster, vp, true);
    raster.emit = null;
  }

  // 7. Tone curve and sRGB.
  const rgb = new Uint8Array(N * 3);
  for (let i = 0; i < N * 3; i++) {
    const v = linear[i]!;
    rgb[i] = linearToSrgb8(unlit || v <= TONE_KNEE ? v : shoulder(v));
  }
  return { width: W, height: H, rgb, depth, instance, category };
}

/** Above the knee, 1 - (1 - knee) e^(-(v - knee) / (1 - knee)): continuous with slope 1, tends to 1. */
function shoulder(v: number): number {
  const k = TONE_KNEE;
  return 1 - (1 - k) * Math.exp(-(v - k) / (1 - k));
}

function lightRig(options: RenderOptions, view: ReturnType<typeof makeView>, meshes: readonly WorldMesh[], lights: readonly PointLight[], range: number, unlit: boolean): LightRig {
  const ambient = options.ambient ?? (lights.length > 0 ? DEFAULT_ROOM_AMBIENT : DEFAULT_OUTDOOR_AMBIENT);
  const keyOption = options.keyLight === undefined ? (lights.length > 0 ? null : DEFAULT_KEY_LIGHT) : options.keyLight;
  let key: LightRig["key"] = null;
  if (keyOption) {
    const [x, y, z] = keyOption.direction;
    const n = Math.hypot(x, y, z);
    if (!(n > 0)) throw new Error("keyLight.direction must not be zero");
    key = { direction: [x / n, y / n, z / n], color: keyOption.color };
  }
  const points: ActiveLight[] = [];
  if (!unlit) {
    const shadows = options.shadows ?? true;
    for (const light of lights) {
      const [x, y, z] = light.position;
      if (!sphereInView(view, x, y, z, range)) continue;
      let shadow: ShadowMap | null = null;
      if (shadows === true) shadow = cachedShadowMap(meshes, light, range, options.shadowMapSize ?? DEFAULT_SHADOW_MAP_SIZE);
      else if (shadows !== false) shadow = shadows.get(light) ?? null;
      points.push({ x, y, z, r: light.color[0], g: light.color[1], b: light.color[2], shadow });
    }
  }
  return { sky: ambient.sky, ground: ambient.ground, points, key, exposure: options.exposure ?? 1, range };
}

/**
 * Per pixel, from the triangle at its centre sample: instance, category, camera-space unit face
 * normal (turned to the camera) and depth. The depth is where the centre's ray meets the
 * triangle's plane, t = (a . n) / (d . n) with d = ((x - cx) / f, (cy - y) / f, 1), so it is exact
 * (not interpolated from snapped corners); 1 / the depth key only when the ray grazes the plane.
 */
function centreSurfaces(
  frame: Frame, sIds: Uint32Array, sDepth: Float32Array, S: number, depth: Float32Array,
  surfaces: { partInstance: Uint32Array; partCategory: Uint16Array; instance: Uint32Array; category: Uint16Array; normals: Float32Array } | null,
): void {
  const { width: W, height: H, focal: f, cx, cy } = frame.view;
  const cam = frame.cam;
  const parts = frame.parts, partOfId = frame.partOfId;
  // The triangle of the previous pixel (neighbours mostly share one): its plane, a . n, and its
  // unit normal turned to the camera.
  let lastId = 0, inst = 0, cat = 0;
  let nx = 0, ny = 0, nz = 0, an = 0, ux = 0, uy = 0, uz = 0, hasNormal = false;
  for (let y = 0; y < H; y++) {
    const dy = (cy - (y + 0.5)) / f;
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      const id = sIds[p * S]!;
      if (id === 0) continue;
      if (id !== lastId) {
        lastId = id;
        const part = partOfId[id]!;
        if (surfaces) {
          inst = surfaces.partInstance[part]!;
          cat = surfaces.partCategory[part]!;
        }
        const vp = parts[part]!;
        const t = id - vp.idBase;
        const idx = vp.part.indices;
        const a = (vp.vertexOffset + idx[t * 3]!) * 3, b = (vp.vertexOffset + idx[t * 3 + 1]!) * 3, c = (vp.vertexOffset + idx[t * 3 + 2]!) * 3;
        const ax = cam[a]!, ay = cam[a + 1]!, az = cam[a + 2]!;
        const e1x = cam[b]! - ax, e1y = cam[b + 1]! - ay, e1z = cam[b + 2]! - az;
        const e2x = cam[c]! - ax, e2y = cam[c + 1]! - ay, e2z = cam[c + 2]! - az;
        nx = e1y * e2z - e1z * e2y; ny = e1z * e2x - e1x * e2z; nz = e1x * e2y - e1y * e2x;
        an = ax * nx + ay * ny + az * nz;
        // Face the camera (at the origin): n . a < 0.
        const sgn = an > 0 ? -1 : 1;
        const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        hasNormal = len > 0;
        if (hasNormal) {
          ux = (sgn * nx) / len; uy = (sgn * ny) / len; uz = (sgn * nz) / len;
        }
      }
      const dx = (x + 0.5 - cx) / f;
      const dn = dx * nx + dy * ny + nz;
      const key = 1 / sDepth[p * S]!;
      const exact = an / dn;
      // Trust the plane unless the ray grazes it (then the key, from the rasterizer, is steadier).
      depth[p] = Number.isFinite(exact) && exact > 0 && Math.abs(exact - key) <= 0.01 * key + 1e-4 ? exact : key;
      if (surfaces) {
        surfaces.instance[p] = inst;
        surfaces.category[p] = cat;
        if (hasNormal) {
          const normals = surfaces.normals;
          normals[p * 3] = ux; normals[p * 3 + 1] = uy; normals[p * 3 + 2] = uz;
        }
      }
    }
  }
}

/** Steps 1-2 of renderView: the opaque parts drawn into the sample buffers (scratch), glass left for later. */
function drawOpaque(frame: Frame, view: View, meshes: readonly WorldMesh[], pattern: typeof AA_SAMPLES): { raster: SampleRaster; hasGlass: boolean } {
  frame.setup(view, meshes);
  scratch(view.width * view.height * pattern.ox.length);
  const raster = new SampleRaster(view.width, view.height, pattern, sampleDepth, sampleIds);
  raster.mode = RasterMode.Visibility;
  let hasGlass = false;
  for (const vp of frame.parts) {
    if (vp.glass) hasGlass = true;
    else if (!frame.hidden(vp, raster)) frame.drawPart(raster, vp, true);
  }
  return { raster, hasGlass };
}

/**
 * The depth buffer of renderView with `antialias: false` (metres along the viewing axis at each
 * pixel centre, 0 where nothing opaque is drawn), without anything else: for depth tests of many
 * single objects, at a fraction of a full render's cost.
 */
export function renderDepth(meshes: readonly WorldMesh[], camera: PinholeCamera, options: Pick<RenderOptions, "near"> = {}, out?: Float32Array): Float32Array {
  const view = makeView(camera, options.near ?? DEFAULT_NEAR);
  const N = view.width * view.height;
  if (out && out.length !== N) throw new Error(`renderDepth: the output has ${out.length} values, the view ${N} pixels`);
  drawOpaque(mainFrame, view, meshes, CENTRE_SAMPLE);
  // A reused output is cleared: centreSurfaces writes only the pixels something covers.
  const depth = out ? out.fill(0) : new Float32Array(N);
  centreSurfaces(mainFrame, sampleIds, sampleDepth, 1, depth, null);
  return depth;
}

/**
 * Per instance, the number of pixel centres its opaque triangles cover when drawn alone (no
 * occlusion by anything else): the denominator of an unoccluded fraction, with exactly the
 * coverage rule of renderView's instance buffer. `ids` limits the instances (each listed id gets
 * an entry, 0 when out of view); without it, every mesh's instance is counted.
 */
export function renderInstanceCoverage(meshes: readonly WorldMesh[], camera: PinholeCamera, ids?: Iterable<number>, options: Pick<RenderOptions, "near"> = {}): Map<number, number> {
  const view = makeView(camera, options.near ?? DEFAULT_NEAR);
  const wanted = ids ? new Set(ids) : null;
  const result = new Map<number, number>();
  if (wanted) for (const id of wanted) result.set(id, 0);
  else for (const mesh of meshes) result.set(mesh.instanceId, 0);
  const frame = coverageFrame;
  frame.setup(view, meshes, wanted ? (mesh) => wanted.has(mesh.instanceId) : undefined, (part) => !(part.opacity < 0.5));
  const N = view.width * view.height;
  // Stamp mode never reads or writes depth (the raster only wants a buffer of the right size);
  // its stamps count from 1 over cleared ids.
  if (coverageIds.length < N) {
    coverageIds = new Uint32Array(N);
    coverageDepth = new Float32Array(N);
  } else {
    coverageIds.fill(0, 0, N);
  }
  const raster = new SampleRaster(view.width, view.height, CENTRE_SAMPLE, coverageDepth, coverageIds);
  raster.mode = RasterMode.Stamp;
  const stampOf = new Map<number, number>();
  for (const vp of frame.parts) {
    const id = vp.mesh.instanceId;
    let stamp = stampOf.get(id);
    if (stamp === undefined) {
      stamp = stampOf.size + 1;
      stampOf.set(id, stamp);
    }
    raster.stamp = stamp;
    raster.stamped = 0;
    frame.drawPart(raster, vp);
    result.set(id, (result.get(id) ?? 0) + raster.stamped);
  }
  return result;
}
