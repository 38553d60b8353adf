/**
 * Per-view visibility from the renderer's buffers (issue 11, item 5).
 *
 * Buffers are row-major from the top-left pixel (index y * width + x): `depth` holds metres along
 * the viewing axis (0 = nothing drawn), `instance` the instance id (0 = nothing). Pixel (x, y)
 * covers the image square [x, x + 1) x [y, y + 1) in the continuous coordinates of camera.ts.
 *
 * Depth visibility rule (`pointVisible`): a world point is visible when it projects inside the
 * image and nothing drawn at the pixel holding its projection is nearer than the point by more
 * than `tolerance` metres: depth[pixel] === 0 (nothing drawn) or depth[pixel] >= depth(point) -
 * tolerance. The tolerance absorbs the difference between the point's own depth and the depth of
 * the surface under it at the pixel's centre (a surface's depth changes across a pixel, most at
 * grazing angles, e.g. distant floor), so it should exceed that change; a few centimetres suit
 * floor points at room scale.
 */
import { BitMask, type PixelBox } from "../geometry/mask.js";
import { encodeRle, encodeRleCounts, type CompressedRle } from "../geometry/rle.js";
import { cameraBasis, inImage, projectPoint, toCameraSpace, type PinholeCamera } from "./camera.js";
import type { Vec3 } from "./types.js";

/** The renderer's per-pixel buffers for one view. */
export interface ViewBuffers {
  width: number;
  height: number;
  depth: Float32Array;
  instance: Uint32Array;
}

export interface ObjectPixelStats {
  /** Visible pixels of the instance. */
  pixels: number;
  /** Box around them, `[x0, y0, x1, y1]` with exclusive ends x1, y1. */
  bbox: PixelBox;
}

function checkSize(name: string, buffer: ArrayLike<number>, width: number, height: number): void {
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`image size must be non-negative integers, got ${width}x${height}`);
  }
  if (buffer.length !== width * height) throw new RangeError(`${name} buffer has ${buffer.length} values for ${width}x${height}`);
}

/**
 * Pixel count and box of every instance id in the buffer (0 left out), in one pass. The map's
 * order is the raster order of each id's first pixel.
 */
export function objectPixelStats(instance: Uint32Array, width: number, height: number): Map<number, ObjectPixelStats> {
  checkSize("instance", instance, width, height);
  const stats = new Map<number, ObjectPixelStats>();
  let lastId = 0;
  let last: ObjectPixelStats | undefined;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const id = instance[row + x]!;
      if (id === 0) continue;
      let s = id === lastId ? last : stats.get(id);
      if (s === undefined) {
        s = { pixels: 0, bbox: [x, y, x + 1, y + 1] };
        stats.set(id, s);
      }
      s.pixels++;
      const b = s.bbox;
      if (x < b[0]) b[0] = x;
      if (x + 1 > b[2]) b[2] = x + 1;
      b[3] = y + 1; // rows come in order
      lastId = id;
      last = s;
    }
  }
  return stats;
}

/**
 * Fraction of an object's pixels that are visible: its visible pixel count over its amodal count
 * (the pixels it covers when drawn alone from the same view). 0 when the amodal count is 0; throws
 * when the counts are not whole, negative, or visible exceeds amodal (they come from different views).
 */
export function unoccludedFraction(visiblePixels: number, amodalPixels: number): number {
  if (!Number.isSafeInteger(visiblePixels) || !Number.isSafeInteger(amodalPixels) || visiblePixels < 0 || amodalPixels < 0) {
    throw new RangeError(`pixel counts must be non-negative integers, got ${visiblePixels} and ${amodalPixels}`);
  }
  if (visiblePixels > amodalPixels) throw new RangeError(`visible pixels (${visiblePixels}) exceed amodal pixels (${amodalPixels})`);
  return amodalPixels === 0 ? 0 : visiblePixels / amodalPixels;
}

/** The pixels of one instance as a mask. */
export function instanceMask(instance: Uint32Array, width: number, height: number, id: number): BitMask {
  checkSize("instance", instance, width, height);
  const m = new BitMask(width, height);
  const { stride, words } = m;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) if (instance[row + x] === id) words[y * stride + (x >>> 5)]! |= 1 << (x & 31);
  }
  return m;
}

/**
 * COCO RLE of one instance's pixels as pycocotools' `mask.encode` writes it: `{size: [h, w],
 * counts}` with column-major runs starting with zeros, counts as the compressed string
 * (geometry/rle.ts).
 */
export function instanceMaskRle(instance: Uint32Array, width: number, height: number, id: number): CompressedRle {
  return encodeRle(instanceMask(instance, width, height, id));
}

/** The same runs as a plain list (COCO's "uncompressed" RLE counts). */
export function instanceMaskRleCounts(instance: Uint32Array, width: number, height: number, id: number): { size: [number, number]; counts: number[] } {
  return { size: [height, width], counts: encodeRleCounts(instanceMask(instance, width, height, id)) };
}

export interface PointProjection {
  /** Continuous image coordinates (pixel centres at k + 0.5); NaN when the point is not in front of the camera. */
  x: number;
  y: number;
  /** Depth along the viewing axis, metres (<= 1e-6 for points not in front of the camera). */
  depth: number;
  /** In front of the camera and inside the image. */
  inImage: boolean;
  /** inImage and not occluded (module rule). */
  visible: boolean;
}

function projectWithDepthTest(camera: PinholeCamera, depth: Float32Array, p: Vec3, tolerance: number, basis: ReturnType<typeof cameraBasis>): PointProjection {
  const q = projectPoint(camera, p, basis);
  if (q === null) return { x: NaN, y: NaN, depth: toCameraSpace(camera, p, basis)[2], inImage: false, visible: false };
  if (!inImage(camera, q)) return { x: q.x, y: q.y, depth: q.depth, inImage: false, visible: false };
  const d = depth[Math.floor(q.y) * camera.width + Math.floor(q.x)]!;
  return { x: q.x, y: q.y, depth: q.depth, inImage: true, visible: d === 0 || d >= q.depth - tolerance };
}

function checkDepth(camera: PinholeCamera, depth: Float32Array, tolerance: number): void {
  checkSize("depth", depth, camera.width, camera.height);
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) throw new RangeError(`depth tolerance must be a non-negative number, got ${tolerance}`);
}

/** Projection and depth visibility of floor points (module rule), one result per point. */
export function projectFloorPoints(camera: PinholeCamera, depth: Float32Array, points: readonly Vec3[], tolerance: number): PointProjection[] {
  checkDepth(camera, depth, tolerance);
  const basis = cameraBasis(camera);
  return points.map((p) => projectWithDepthTest(camera, depth, p, tolerance, basis));
}

/** Depth visibility of one world point (module rule). */
export function pointVisible(camera: PinholeCamera, depth: Float32Array, point: Vec3, tolerance: number): boolean {
  checkDepth(camera, depth, tolerance);
  return projectWithDepthTest(camera, depth, point, tolerance, cameraBasis(camera)).visible;
}

/**
 * Depth visibility of a point on an object's surface: the same test as `pointVisible` (the surface
 * itself is at the point's depth, so only something nearer by more than the tolerance hides it).
 */
export function surfacePointVisible(camera: PinholeCamera, depth: Float32Array, point: Vec3, tolerance: number): boolean {
  return pointVisible(camera, depth, point, tolerance);
}
