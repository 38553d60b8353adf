/**
 * The pinhole camera every world view uses.
 *
 * A camera stands at `position` (metres, z up), looks along the heading `yaw` (radians,
 * counter-clockwise from +x) tilted by `pitch` (radians, positive = up), with a vertical field of
 * view `vfovDeg` over `height` pixels and square pixels. Pixel (0, 0) is the top-left pixel; its
 * centre is at (0.5, 0.5). Depth is the distance along the viewing axis (not along the ray), in
 * metres, as a depth camera reports it.
 */
import { perspective } from "../media/raster3d.js";
import type { Vec3 } from "./types.js";

export interface PinholeCamera {
  position: Vec3;
  yaw: number;
  pitch: number;
  vfovDeg: number;
  width: number;
  height: number;
}

export interface CameraBasis {
  forward: Vec3;
  right: Vec3;
  up: Vec3;
}

/** Unit vectors of the camera: forward (viewing axis), right and up (image x and -y). */
export function cameraBasis(camera: Pick<PinholeCamera, "yaw" | "pitch">): CameraBasis {
  const cy = Math.cos(camera.yaw), sy = Math.sin(camera.yaw);
  const cp = Math.cos(camera.pitch), sp = Math.sin(camera.pitch);
  const forward: Vec3 = [cp * cy, cp * sy, sp];
  const right: Vec3 = [sy, -cy, 0];
  // up = right x forward
  const up: Vec3 = [-sp * cy, -sp * sy, cp];
  return { forward, right, up };
}

/** Focal length in pixels (same for x and y). */
export function focalLengthPx(camera: Pick<PinholeCamera, "vfovDeg" | "height">): number {
  return camera.height / 2 / Math.tan((camera.vfovDeg * Math.PI) / 360);
}

/** Horizontal field of view in degrees. */
export function horizontalFovDeg(camera: Pick<PinholeCamera, "vfovDeg" | "width" | "height">): number {
  return (2 * Math.atan(camera.width / 2 / focalLengthPx(camera)) * 180) / Math.PI;
}

/** A world point in camera coordinates: x right, y up, z = depth along the viewing axis. */
export function toCameraSpace(camera: PinholeCamera, p: Vec3, basis: CameraBasis = cameraBasis(camera)): Vec3 {
  const d: Vec3 = [p[0] - camera.position[0], p[1] - camera.position[1], p[2] - camera.position[2]];
  return [dot(d, basis.right), dot(d, basis.up), dot(d, basis.forward)];
}

export interface Projection {
  /** Continuous image coordinates (pixel centres at k + 0.5). */
  x: number;
  y: number;
  /** Depth along the viewing axis, metres (> 0 in front of the camera). */
  depth: number;
}

/** Projects a world point; null when it is not in front of the camera (depth <= 1e-6). */
export function projectPoint(camera: PinholeCamera, p: Vec3, basis: CameraBasis = cameraBasis(camera)): Projection | null {
  const [cx, cy, cz] = toCameraSpace(camera, p, basis);
  if (!(cz > 1e-6)) return null;
  const f = focalLengthPx(camera);
  return { x: camera.width / 2 + (f * cx) / cz, y: camera.height / 2 - (f * cy) / cz, depth: cz };
}

/** True when a projection falls inside the image (continuous coordinates in [0, width) x [0, height)). */
export function inImage(camera: Pick<PinholeCamera, "width" | "height">, q: Pick<Projection, "x" | "y">): boolean {
  return q.x >= 0 && q.x < camera.width && q.y >= 0 && q.y < camera.height;
}

/** Unit direction (world) of the ray through image point (x, y). */
export function pixelRay(camera: PinholeCamera, x: number, y: number, basis: CameraBasis = cameraBasis(camera)): Vec3 {
  const f = focalLengthPx(camera);
  const a = (x - camera.width / 2) / f;
  const b = (camera.height / 2 - y) / f;
  const v: Vec3 = [
    basis.forward[0] + a * basis.right[0] + b * basis.up[0],
    basis.forward[1] + a * basis.right[1] + b * basis.up[1],
    basis.forward[2] + a * basis.right[2] + b * basis.up[2],
  ];
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/**
 * Column-major 4x4 matrices in OpenGL's conventions (as media/raster3d.ts and three.js use):
 * the view matrix maps world to eye space (eye looks down -z, y up), the projection matrix is
 * gluPerspective with this camera's vertical field of view and aspect.
 */
export function viewMatrix(camera: PinholeCamera): Float64Array {
  const { forward, right, up } = cameraBasis(camera);
  const e = camera.position;
  const m = new Float64Array(16);
  // rows: right, up, -forward
  const rows = [right, up, [-forward[0], -forward[1], -forward[2]] as Vec3];
  for (let r = 0; r < 3; r++) {
    const row = rows[r]!;
    m[0 * 4 + r] = row[0];
    m[1 * 4 + r] = row[1];
    m[2 * 4 + r] = row[2];
    m[3 * 4 + r] = -dot(row, e);
  }
  m[15] = 1;
  return m;
}

export function projectionMatrix(camera: PinholeCamera, near: number, far: number): Float64Array {
  return perspective(camera.vfovDeg, camera.width / camera.height, near, far);
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** The world point seen at image point (x, y) at the given depth along the viewing axis. */
export function unprojectPoint(camera: PinholeCamera, x: number, y: number, depth: number, basis: CameraBasis = cameraBasis(camera)): Vec3 {
  const f = focalLengthPx(camera);
  const a = ((x - camera.width / 2) / f) * depth;
  const b = ((camera.height / 2 - y) / f) * depth;
  return [
    camera.position[0] + depth * basis.forward[0] + a * basis.right[0] + b * basis.up[0],
    camera.position[1] + depth * basis.forward[1] + a * basis.right[1] + b * basis.up[1],
    camera.position[2] + depth * basis.forward[2] + a * basis.right[2] + b * basis.up[2],
  ];
}

/** Where the ray through image point (x, y) meets the plane z = height, or null when it does not (looking up or parallel). */
export function floorPointAt(camera: PinholeCamera, x: number, y: number, height = 0, basis: CameraBasis = cameraBasis(camera)): Vec3 | null {
  const ray = pixelRay(camera, x, y, basis);
  if (!(ray[2] < -1e-9)) return null;
  const t = (height - camera.position[2]) / ray[2];
  return [camera.position[0] + t * ray[0], camera.position[1] + t * ray[1], height];
}
