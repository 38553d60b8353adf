/**
 * Shadow maps of ceiling point lights.
 *
 * A ceiling light shines downwards, so one perspective depth map looking straight down from the
 * light (SHADOW_FOV_DEG wide) holds everything it can shadow in its room; points outside that
 * cone (high up on the walls, above the light) count as lit. Opaque parts draw into it (glass
 * does not cast shadows), except parts whose bounding sphere holds the light itself (the shade of
 * the lamp the light sits in), which would otherwise darken the whole room.
 *
 * Lookup: the point is moved along its normal by SHADOW_NORMAL_OFFSET_TEXELS texels (the texel
 * size grows with the distance from the light) and compared with the 3 x 3 texels around the
 * nearest one, each lit when the point is no farther than its depth plus SHADOW_DEPTH_BIAS; the
 * nine answers are blended with quadratic B-spline weights (percentage-closer filtering with a
 * smooth 3-texel kernel), which softens the edges.
 */
import type { PinholeCamera } from "../camera.js";
import type { PointLight, WorldMesh } from "../types.js";
import { CENTRE_SAMPLE, RasterMode, SampleRaster } from "./raster.js";
import { boundingSphere, Frame, GLASS_OPACITY, makeView, type View } from "./view.js";

export const SHADOW_FOV_DEG = 140;
export const DEFAULT_SHADOW_MAP_SIZE = 512;
const SHADOW_NEAR = 0.02;
const SHADOW_NORMAL_OFFSET_TEXELS = 1.5;
const SHADOW_DEPTH_BIAS = 0.01;

export interface ShadowMap {
  light: PointLight;
  view: View;
  size: number;
  /**
   * 1/depth of the nearest opaque surface per texel, 0 = nothing, with a border of empty texels:
   * texel (i, j) of the size x size map is at (j + 1) * (size + 2) + i + 1.
   */
  depth: Float32Array;
  /** The light camera flattened for lookups: eye, right, up, forward, focal, cx, cy. */
  frame: Float64Array;
}

/** Shadow maps of some lights (prepareShadows), reused by many views. */
export interface ShadowMaps {
  /** The light's map, or undefined when the light has none (it then casts no shadow). */
  get(light: PointLight): ShadowMap | undefined;
}

const shadowFrame = new Frame();

/** Throws unless `size` is a shadow map side this renderer builds. */
export function checkShadowMapSize(size: number): void {
  if (!(Number.isInteger(size) && size >= 16 && size <= 8192)) throw new Error(`shadow map size must be an integer in 16..8192, got ${size}`);
}

export function buildShadowMap(meshes: readonly WorldMesh[], light: PointLight, range: number, size: number = DEFAULT_SHADOW_MAP_SIZE): ShadowMap {
  checkShadowMapSize(size);
  const [lx, ly, lz] = light.position;
  const camera: PinholeCamera = { position: light.position, yaw: 0, pitch: -Math.PI / 2, vfovDeg: SHADOW_FOV_DEG, width: size, height: size };
  const view = makeView(camera, SHADOW_NEAR);
  const casts = (part: { opacity: number; positions: Float32Array }) => {
    if (part.opacity < GLASS_OPACITY) return false;
    const s = boundingSphere(part.positions);
    const d = Math.hypot(s[0]! - lx, s[1]! - ly, s[2]! - lz);
    return d - s[3]! < range && d > s[3]!;
  };
  shadowFrame.setup(view, meshes, undefined, casts);
  const map = new Float32Array(size * size);
  const raster = new SampleRaster(size, size, CENTRE_SAMPLE, map, null);
  raster.mode = RasterMode.Depth;
  for (const vp of shadowFrame.parts) shadowFrame.drawPart(raster, vp);
  const stride = size + 2;
  const depth = new Float32Array(stride * stride);
  for (let j = 0; j < size; j++) depth.set(map.subarray(j * size, (j + 1) * size), (j + 1) * stride + 1);
  const { basis, eye } = view;
  const frame = Float64Array.from([...eye, ...basis.right, ...basis.up, ...basis.forward, view.focal, view.cx, view.cy]);
  return { light, view, size, depth, frame };
}

/**
 * Lit fraction (0..1) of the world point at[0..2] with unit normal at[3..5] facing the viewer.
 * (The point comes in an array: the renderer calls this hundreds of millions of times per house,
 * and six number arguments would be boxed on the heap at every call.)
 */
export function shadowLit(map: ShadowMap, at: Float64Array): number {
  const m = map.frame, size = map.size, depth = map.depth;
  const nx = at[3]!, ny = at[4]!, nz = at[5]!;
  let dx = at[0]! - m[0]!, dy = at[1]! - m[1]!, dz = at[2]! - m[2]!;
  const fwx = m[9]!, fwy = m[10]!, fwz = m[11]!, f = m[12]!;
  // Distance along the light's axis, for the texel size at the point.
  const zApprox = dx * fwx + dy * fwy + dz * fwz;
  if (zApprox < SHADOW_NEAR) return 1;
  const offset = (SHADOW_NORMAL_OFFSET_TEXELS * zApprox) / f;
  dx += nx * offset; dy += ny * offset; dz += nz * offset;
  const X = dx * m[3]! + dy * m[4]! + dz * m[5]!;
  const Y = dx * m[6]! + dy * m[7]! + dz * m[8]!;
  const Z = dx * fwx + dy * fwy + dz * fwz;
  if (Z < SHADOW_NEAR) return 1;
  const invZ = f / Z;
  const cx = m[13]!, cy = m[14]!;
  // Continuous texel coordinates (texel centres at integers); outside the map counts as lit.
  const tx = cx + X * invZ - 0.5, ty = cy - Y * invZ - 0.5;
  if (!(tx >= -0.5 && ty >= -0.5 && tx < size - 0.5 && ty < size - 0.5)) return 1;
  const i0 = (tx + 0.5) | 0, j0 = (ty + 0.5) | 0; // round (tx + 0.5 >= 0 here)
  const fx = tx - i0, fy = ty - j0;
  // Quadratic B-spline weights of the texels at -1, 0, +1 around the nearest one (they sum to 1).
  const wx0 = 0.5 * (0.5 - fx) * (0.5 - fx), wx1 = 0.75 - fx * fx, wx2 = 0.5 * (0.5 + fx) * (0.5 + fx);
  const wy0 = 0.5 * (0.5 - fy) * (0.5 - fy), wy1 = 0.75 - fy * fy, wy2 = 0.5 * (0.5 + fy) * (0.5 + fy);
  // A texel is lit when it holds no occluder nearer than Z - bias (stored = 1 / occluder depth);
  // the border texels are empty, so i0 +- 1 and j0 +- 1 need no checks.
  const limit = Z - SHADOW_DEPTH_BIAS;
  const stride = size + 2;
  let q = j0 * stride + i0; // texel (i0 - 1, j0 - 1)
  let s0 = depth[q]!, s1 = depth[q + 1]!, s2 = depth[q + 2]!;
  const r0 = (s0 === 0 || s0 * limit <= 1 ? wx0 : 0) + (s1 === 0 || s1 * limit <= 1 ? wx1 : 0) + (s2 === 0 || s2 * limit <= 1 ? wx2 : 0);
  q += stride;
  s0 = depth[q]!; s1 = depth[q + 1]!; s2 = depth[q + 2]!;
  const r1 = (s0 === 0 || s0 * limit <= 1 ? wx0 : 0) + (s1 === 0 || s1 * limit <= 1 ? wx1 : 0) + (s2 === 0 || s2 * limit <= 1 ? wx2 : 0);
  q += stride;
  s0 = depth[q]!; s1 = depth[q + 1]!; s2 = depth[q + 2]!;
  const r2 = (s0 === 0 || s0 * limit <= 1 ? wx0 : 0) + (s1 === 0 || s1 * limit <= 1 ? wx1 : 0) + (s2 === 0 || s2 * limit <= 1 ? wx2 : 0);
  return wy0 * r0 + wy1 * r1 + wy2 * r2;
}
