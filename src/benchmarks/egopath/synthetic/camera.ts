/** A pinhole camera looking into the room, and the 3-D helpers the renderer needs. */

export type Vec3 = readonly [number, number, number];

export interface Camera {
  /** Position in world metres (z up). */
  pos: Vec3;
  /** Heading in radians, measured from +x towards +y. */
  yaw: number;
  /** Downward tilt in radians. */
  pitch: number;
  width: number;
  height: number;
  /** Focal length in pixels (square pixels, principal point at the image centre). */
  focal: number;
  right: Vec3;
  up: Vec3;
  forward: Vec3;
}

export const NEAR_M = 0.05;

export function makeCamera(pos: Vec3, yaw: number, pitch: number, width: number, height: number, hfovDeg: number): Camera {
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  const cp = Math.cos(pitch);
  const sp = Math.sin(pitch);
  return {
    pos,
    yaw,
    pitch,
    width,
    height,
    focal: width / 2 / Math.tan((hfovDeg * Math.PI) / 360),
    forward: [cy * cp, sy * cp, -sp],
    right: [sy, -cy, 0],
    up: [cy * sp, sy * sp, cp],
  };
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** World point -> camera coordinates [right, up, depth]. */
export function toCamera(cam: Camera, p: Vec3): Vec3 {
  const d: Vec3 = [p[0] - cam.pos[0], p[1] - cam.pos[1], p[2] - cam.pos[2]];
  return [dot(d, cam.right), dot(d, cam.up), dot(d, cam.forward)];
}

/** Camera coordinates (depth > 0) -> pixel [u, v], v growing downwards. */
export function cameraToPixel(cam: Camera, c: Vec3): [number, number] {
  return [cam.width / 2 + (cam.focal * c[0]) / c[2], cam.height / 2 - (cam.focal * c[1]) / c[2]];
}

/** World point -> pixel, or null when it lies behind the near plane. */
export function project(cam: Camera, p: Vec3): [number, number] | null {
  const c = toCamera(cam, p);
  return c[2] < NEAR_M ? null : cameraToPixel(cam, c);
}

/** Clips a polygon given in camera coordinates to depth >= NEAR_M (Sutherland-Hodgman). */
export function clipNear(poly: readonly Vec3[]): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const aIn = a[2] >= NEAR_M;
    const bIn = b[2] >= NEAR_M;
    if (aIn) out.push(a);
    if (aIn !== bIn) {
      const t = (NEAR_M - a[2]) / (b[2] - a[2]);
      out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), NEAR_M]);
    }
  }
  return out;
}

/** World polygon -> pixel polygon after near clipping (empty when wholly behind the camera). */
export function projectPolygon(cam: Camera, poly: readonly Vec3[]): Array<[number, number]> {
  const clipped = clipNear(poly.map((p) => toCamera(cam, p)));
  return clipped.length < 3 ? [] : clipped.map((c) => cameraToPixel(cam, c));
}

/**
 * True when the open segment from `from` to `to` passes through the axis-aligned box (slab test).
 * Used to hide floor points that furniture blocks from the camera.
 */
export function segmentHitsBox(from: Vec3, to: Vec3, min: Vec3, max: Vec3): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const d = to[k]! - from[k]!;
    if (Math.abs(d) < 1e-12) {
      if (from[k]! < min[k]! || from[k]! > max[k]!) return false;
      continue;
    }
    let a = (min[k]! - from[k]!) / d;
    let b = (max[k]! - from[k]!) / d;
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
    if (t0 > t1) return false;
  }
  return t1 > 1e-9 && t0 < 1 - 1e-9;
}
