/**
 * A small z-buffered software rasterizer for benchmark pictures (no GPU, no anti-aliasing, exact
 * integer coverage, so the same input gives the same pixels on every machine).
 *
 * - Framebuffer: packed RGB bytes plus a Float32 depth buffer holding 1/w (w = distance along the
 *   view axis). 1/w is affine in screen space, so interpolating it is exact, and its precision is
 *   far better than an NDC-z buffer with near = 1, far = 10000. Larger = nearer; cleared to 0.
 *   The depth test passes when the new value is nearer or equal (OpenGL's GL_LEQUAL).
 * - Camera: OpenGL conventions (right-handed, column-major 4x4, clip space z in [-w, w]);
 *   `lookAt` is gluLookAt and `perspective` is gluPerspective. Only perspective projections.
 * - Coverage: vertices are snapped to 1/256 px; edge functions are evaluated exactly (integers in
 *   doubles) at pixel centres with the top-left fill rule, so triangles sharing an edge draw each
 *   pixel on it once, and a pixel is covered when its centre is inside.
 * - Clipping: triangles and lines are clipped in homogeneous clip space against the near and far
 *   planes and a guard band of 4x the viewport (keeps the integer maths small); a triangle that
 *   crosses the camera plane is cut, never wrapped.
 * - Shading: flat per face; Lambert from a fixed light direction, two-sided (the normal is turned
 *   towards the eye), intensity = ambient + (1 - ambient) * max(0, n.l). Or none (colour as given).
 */
import { encodePng } from "./png.js";

export type Vec3 = readonly [number, number, number];
export type Rgb = readonly [number, number, number];
/** Column-major 4x4 matrix (element (row r, column c) at index c * 4 + r), as OpenGL. */
export type Mat4 = Float64Array;

export interface Framebuffer {
  readonly width: number;
  readonly height: number;
  /** Packed RGB, row-major from the top-left pixel. */
  readonly color: Uint8Array;
  /** 1/w per pixel; 0 = nothing drawn. */
  readonly depth: Float32Array;
  readonly background: Rgb;
}

export interface Camera {
  readonly eye: Vec3;
  readonly view: Mat4;
  readonly proj: Mat4;
  /** proj * view */
  readonly viewProj: Mat4;
}

export type Blend = "replace" | "add";

export interface DrawOptions {
  /** Default true. */
  depthTest?: boolean;
  /** Default true. */
  depthWrite?: boolean;
  /** "replace" (default) or "add" (saturating per channel; handy for counting coverage). */
  blend?: Blend;
}

export interface TriangleOptions extends DrawOptions {
  /** "lambert" (default) or "none" (colours used as given). */
  shading?: "lambert" | "none";
  /** Direction towards the light, world space (default DEFAULT_LIGHT_DIR). */
  lightDir?: Vec3;
  /** Share of the colour kept in full shadow (default 0.45). */
  ambient?: number;
}

export interface LineOptions extends DrawOptions {
  /** "square" (default: extend by half the width past each end) or "butt". */
  cap?: "square" | "butt";
  /**
   * When given, the line is widened inside the world plane through the segment with this normal,
   * and each pixel gets that plane's depth (e.g. [0, 0, 1] for a path lying on a floor: the
   * widened line stays above the floor everywhere). Without it, depth is constant across the width.
   */
  planeNormal?: Vec3;
}

/** Towards the light: from the south-west, high above. */
export const DEFAULT_LIGHT_DIR: Vec3 = [-0.35, -0.6, 1];
export const DEFAULT_AMBIENT = 0.45;

const SUB = 256; // sub-pixel steps per pixel
const HALF_SUB = SUB / 2;
const GUARD = 4; // guard band, in NDC units

// ---------------------------------------------------------------- matrices and camera

export function identity(): Mat4 {
  const m = new Float64Array(16);
  m[0] = m[5] = m[10] = m[15] = 1;
  return m;
}

/** a * b */
export function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!;
      out[c * 4 + r] = s;
    }
  }
  return out;
}

function sub3(a: Vec3, b: Vec3): [number, number, number] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function cross3(a: Vec3, b: Vec3): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot3(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function normalize3(a: Vec3): [number, number, number] {
  const n = Math.hypot(a[0], a[1], a[2]);
  if (!(n > 0)) throw new Error(`cannot normalise a zero vector`);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** View matrix of gluLookAt(eye, target, up). `up` need not be perpendicular to the view. */
export function lookAt(eye: Vec3, target: Vec3, up: Vec3): Mat4 {
  const f = normalize3(sub3(target, eye));
  const s = normalize3(cross3(f, up));
  const u = cross3(s, f);
  const m = identity();
  m[0] = s[0]; m[4] = s[1]; m[8] = s[2]; m[12] = -dot3(s, eye);
  m[1] = u[0]; m[5] = u[1]; m[9] = u[2]; m[13] = -dot3(u, eye);
  m[2] = -f[0]; m[6] = -f[1]; m[10] = -f[2]; m[14] = dot3(f, eye);
  return m;
}

/** Projection matrix of gluPerspective(fovYDeg, aspect, near, far). */
export function perspective(fovYDeg: number, aspect: number, near: number, far: number): Mat4 {
  if (!(fovYDeg > 0 && fovYDeg < 180) || !(aspect > 0) || !(near > 0) || !(far > near)) {
    throw new Error(`perspective: bad parameters (${fovYDeg}, ${aspect}, ${near}, ${far})`);
  }
  const f = 1 / Math.tan((fovYDeg * Math.PI) / 360);
  const m = new Float64Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = (far + near) / (near - far);
  m[11] = -1;
  m[14] = (2 * far * near) / (near - far);
  return m;
}

export interface CameraSpec {
  eye: Vec3;
  target: Vec3;
  up: Vec3;
  fovYDeg: number;
  aspect: number;
  near: number;
  far: number;
}

/** A camera from a view matrix (rigid) and a perspective projection. */
export function makeCamera(view: Mat4, proj: Mat4): Camera {
  // eye = -R^T t for a rigid view matrix [R t].
  const t: Vec3 = [view[12]!, view[13]!, view[14]!];
  const eye: Vec3 = [
    -(view[0]! * t[0] + view[1]! * t[1] + view[2]! * t[2]),
    -(view[4]! * t[0] + view[5]! * t[1] + view[6]! * t[2]),
    -(view[8]! * t[0] + view[9]! * t[1] + view[10]! * t[2]),
  ];
  return { eye, view, proj, viewProj: multiply(proj, view) };
}

export function createCamera(spec: CameraSpec): Camera {
  return makeCamera(lookAt(spec.eye, spec.target, spec.up), perspective(spec.fovYDeg, spec.aspect, spec.near, spec.far));
}

/**
 * A camera for drawing in pixel units: world (x, y, 0) lands exactly on pixel coordinates (x, y)
 * (y down), +z goes away from the viewer (the plane z = 0 is `height / 2` in front of the eye, so
 * keep z > 1 - height / 2). Handy for tests and flat overlays.
 */
export function screenSpaceCamera(width: number, height: number): Camera {
  const d = height / 2; // 90 degree vertical field of view
  return createCamera({
    eye: [width / 2, height / 2, -d],
    target: [width / 2, height / 2, 0],
    up: [0, -1, 0],
    fovYDeg: 90,
    aspect: width / height,
    near: 1,
    far: 1e6,
  });
}

/**
 * Where a world point lands: continuous pixel coordinates (pixel (i, j) covers [i, i+1) x [j, j+1),
 * y down) and its depth key 1/w; null when it is behind the near plane or past the far plane.
 */
export function projectPoint(fb: Pick<Framebuffer, "width" | "height">, camera: Camera, p: Vec3): { x: number; y: number; invW: number } | null {
  const m = camera.viewProj;
  const x = m[0]! * p[0] + m[4]! * p[1] + m[8]! * p[2] + m[12]!;
  const y = m[1]! * p[0] + m[5]! * p[1] + m[9]! * p[2] + m[13]!;
  const z = m[2]! * p[0] + m[6]! * p[1] + m[10]! * p[2] + m[14]!;
  const w = m[3]! * p[0] + m[7]! * p[1] + m[11]! * p[2] + m[15]!;
  if (z + w < 0 || w - z < 0 || !(w > 0)) return null;
  return { x: (x / w + 1) * 0.5 * fb.width, y: (1 - y / w) * 0.5 * fb.height, invW: 1 / w };
}

// ---------------------------------------------------------------- framebuffer

export function createFramebuffer(width: number, height: number, background: Rgb = [255, 255, 255]): Framebuffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 16384 || height > 16384) {
    throw new Error(`createFramebuffer: bad size ${width}x${height}`);
  }
  const fb: Framebuffer = {
    width,
    height,
    color: new Uint8Array(width * height * 3),
    depth: new Float32Array(width * height),
    background: [background[0], background[1], background[2]],
  };
  clearFramebuffer(fb);
  return fb;
}

export function clearFramebuffer(fb: Framebuffer): void {
  const c = fb.color;
  c[0] = fb.background[0];
  c[1] = fb.background[1];
  c[2] = fb.background[2];
  for (let filled = 3; filled < c.length; filled *= 2) c.copyWithin(filled, 0, Math.min(filled, c.length - filled));
  fb.depth.fill(0);
}

export function readPixel(fb: Framebuffer, x: number, y: number): [number, number, number] {
  const i = (y * fb.width + x) * 3;
  return [fb.color[i]!, fb.color[i + 1]!, fb.color[i + 2]!];
}

export function toPng(fb: Framebuffer): Promise<Buffer> {
  return encodePng(fb.color, fb.width, fb.height, 3);
}

// ---------------------------------------------------------------- screen-space triangle

const F_DEPTH_TEST = 1;
const F_DEPTH_WRITE = 2;
const F_ADD = 4;

function flagsOf(o: DrawOptions | undefined): number {
  let f = 0;
  if (o?.depthTest !== false) f |= F_DEPTH_TEST;
  if (o?.depthWrite !== false) f |= F_DEPTH_WRITE;
  if (o?.blend === "add") f |= F_ADD;
  return f;
}

/**
 * Smallest k with base + k * step >= t (step > 0); exact for integer inputs. The division is off by
 * at most one step, so each settling loop takes two steps at most: past 2^53 a step no longer
 * changes k, and an unbounded loop there would never end (issue 25).
 */
export function firstAtLeast(base: number, step: number, t: number): number {
  let k = Math.ceil((t - base) / step);
  for (let n = 0; n < 2 && base + (k - 1) * step >= t; n++) k--;
  for (let n = 0; n < 2 && base + k * step < t; n++) k++;
  return k;
}
/** Largest k with base + k * step >= t (step < 0); exact for integer inputs (settled in two steps at most, as firstAtLeast). */
export function lastAtLeast(base: number, step: number, t: number): number {
  let k = Math.floor((t - base) / step);
  for (let n = 0; n < 2 && base + (k + 1) * step >= t; n++) k++;
  for (let n = 0; n < 2 && base + k * step < t; n++) k--;
  return k;
}

/**
 * Fill one screen-space triangle (continuous pixel coordinates, depth key z = 1/w per vertex)
 * with a flat colour. Pixel centres strictly inside are covered; centres on an edge follow the
 * top-left rule.
 */
function rasterTriangle(
  fb: Framebuffer,
  x0: number, y0: number, z0: number,
  x1: number, y1: number, z1: number,
  x2: number, y2: number, z2: number,
  r: number, g: number, b: number,
  flags: number,
): void {
  let X0 = Math.round(x0 * SUB), Y0 = Math.round(y0 * SUB);
  let X1 = Math.round(x1 * SUB), Y1 = Math.round(y1 * SUB);
  let X2 = Math.round(x2 * SUB), Y2 = Math.round(y2 * SUB);
  let area = (X1 - X0) * (Y2 - Y0) - (Y1 - Y0) * (X2 - X0);
  if (area === 0 || !Number.isFinite(area)) return;
  if (area < 0) {
    let t = X1; X1 = X2; X2 = t;
    t = Y1; Y1 = Y2; Y2 = t;
    t = z1; z1 = z2; z2 = t;
    area = -area;
  }
  const W = fb.width, H = fb.height;
  const minXs = Math.min(X0, X1, X2), maxXs = Math.max(X0, X1, X2);
  const minYs = Math.min(Y0, Y1, Y2), maxYs = Math.max(Y0, Y1, Y2);
  // Pixel i has its centre at i*SUB + SUB/2.
  const iMin = Math.max(0, Math.ceil((minXs - HALF_SUB) / SUB));
  const iMax = Math.min(W - 1, Math.floor((maxXs - HALF_SUB) / SUB));
  const jMin = Math.max(0, Math.ceil((minYs - HALF_SUB) / SUB));
  const jMax = Math.min(H - 1, Math.floor((maxYs - HALF_SUB) / SUB));
  if (iMin > iMax || jMin > jMax) return;

  // Edge a->b: E(P) = (bx-ax)(Py-ay) - (by-ay)(Px-ax) >= 0 inside (area > 0 orientation).
  const dx0 = X1 - X0, dy0 = Y1 - Y0; // edge 0: v0 -> v1
  const dx1 = X2 - X1, dy1 = Y2 - Y1; // edge 1: v1 -> v2
  const dx2 = X0 - X2, dy2 = Y0 - Y2; // edge 2: v2 -> v0
  // Top-left edges include centres exactly on them (E >= 0), the others need E >= 1.
  const t0 = dy0 < 0 || (dy0 === 0 && dx0 > 0) ? 0 : 1;
  const t1 = dy1 < 0 || (dy1 === 0 && dx1 > 0) ? 0 : 1;
  const t2 = dy2 < 0 || (dy2 === 0 && dx2 > 0) ? 0 : 1;
  const s0 = -dy0 * SUB, s1 = -dy1 * SUB, s2 = -dy2 * SUB; // per pixel to the right

  // Depth plane z = z0 + zx (X - X0) + zy (Y - Y0), in sub-pixel units.
  const zx = ((z1 - z0) * (Y2 - Y0) - (z2 - z0) * (Y1 - Y0)) / area;
  const zy = ((z2 - z0) * (X1 - X0) - (z1 - z0) * (X2 - X0)) / area;
  const zStep = zx * SUB;

  const color = fb.color;
  const depth = fb.depth;
  const test = (flags & F_DEPTH_TEST) !== 0;
  const write = (flags & F_DEPTH_WRITE) !== 0;
  const add = (flags & F_ADD) !== 0;
  const PX = iMin * SUB + HALF_SUB;

  for (let j = jMin; j <= jMax; j++) {
    const PY = j * SUB + HALF_SUB;
    const e0 = dx0 * (PY - Y0) - dy0 * (PX - X0);
    const e1 = dx1 * (PY - Y1) - dy1 * (PX - X1);
    const e2 = dx2 * (PY - Y2) - dy2 * (PX - X2);
    let kLo = 0;
    let kHi = iMax - iMin;
    if (s0 === 0) { if (e0 < t0) continue; } else if (s0 > 0) kLo = Math.max(kLo, firstAtLeast(e0, s0, t0)); else kHi = Math.min(kHi, lastAtLeast(e0, s0, t0));
    if (s1 === 0) { if (e1 < t1) continue; } else if (s1 > 0) kLo = Math.max(kLo, firstAtLeast(e1, s1, t1)); else kHi = Math.min(kHi, lastAtLeast(e1, s1, t1));
    if (s2 === 0) { if (e2 < t2) continue; } else if (s2 > 0) kLo = Math.max(kLo, firstAtLeast(e2, s2, t2)); else kHi = Math.min(kHi, lastAtLeast(e2, s2, t2));
    if (kLo > kHi) continue;
    const zRow = z0 + zx * (PX - X0) + zy * (PY - Y0);
    const rowBase = j * W + iMin;
    for (let k = kLo; k <= kHi; k++) {
      // Compare at the buffer's precision, so an equal depth passes (GL_LEQUAL).
      const z = Math.fround(zRow + zStep * k);
      const p = rowBase + k;
      if (test && z < depth[p]!) continue;
      if (write) depth[p] = z;
      const c = p * 3;
      if (add) {
        color[c] = Math.min(255, color[c]! + r);
        color[c + 1] = Math.min(255, color[c + 1]! + g);
        color[c + 2] = Math.min(255, color[c + 2]! + b);
      } else {
        color[c] = r;
        color[c + 1] = g;
        color[c + 2] = b;
      }
    }
  }
}

// ---------------------------------------------------------------- clipping

// Clip planes as distance functions of (x, y, z, w): inside when >= 0.
// 0 near: z + w; 1 far: w - z; 2..5 guard band: G w +- x, G w +- y.
function planeDist(plane: number, x: number, y: number, z: number, w: number): number {
  switch (plane) {
    case 0: return z + w;
    case 1: return w - z;
    case 2: return GUARD * w + x;
    case 3: return GUARD * w - x;
    case 4: return GUARD * w + y;
    default: return GUARD * w - y;
  }
}

function outcode(x: number, y: number, z: number, w: number): number {
  let c = 0;
  for (let p = 0; p < 6; p++) if (planeDist(p, x, y, z, w) < 0) c |= 1 << p;
  return c;
}

// Scratch polygons for Sutherland-Hodgman (a triangle clipped by 6 planes has at most 9 corners).
const MAX_POLY = 16;
const polyA = new Float64Array(MAX_POLY * 4);
const polyB = new Float64Array(MAX_POLY * 4);
const projX = new Float64Array(MAX_POLY);
const projY = new Float64Array(MAX_POLY);
const projZ = new Float64Array(MAX_POLY);

/** Clip the triangle (clip-space corners in c, at offsets a, b, d) and fill what is left. */
function clipAndFill(
  fb: Framebuffer,
  c: Float64Array, ia: number, ib: number, ic: number,
  codeOr: number,
  r: number, g: number, bl: number, flags: number,
): void {
  let src = polyA, dst = polyB;
  src.set(c.subarray(ia, ia + 4), 0);
  src.set(c.subarray(ib, ib + 4), 4);
  src.set(c.subarray(ic, ic + 4), 8);
  let n = 3;
  for (let plane = 0; plane < 6 && n > 0; plane++) {
    if ((codeOr & (1 << plane)) === 0) continue;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const p = i * 4, q = ((i + 1) % n) * 4;
      const dp = planeDist(plane, src[p]!, src[p + 1]!, src[p + 2]!, src[p + 3]!);
      const dq = planeDist(plane, src[q]!, src[q + 1]!, src[q + 2]!, src[q + 3]!);
      if (dp >= 0) {
        dst.set(src.subarray(p, p + 4), m * 4);
        m++;
      }
      if ((dp >= 0) !== (dq >= 0)) {
        // Interpolate from the inside corner to the outside one, so a shared edge is cut
        // identically in both triangles.
        const ins = dp >= 0 ? p : q, out = dp >= 0 ? q : p;
        const di = dp >= 0 ? dp : dq, dout = dp >= 0 ? dq : dp;
        const t = di / (di - dout);
        for (let k = 0; k < 4; k++) dst[m * 4 + k] = src[ins + k]! + (src[out + k]! - src[ins + k]!) * t;
        m++;
      }
    }
    const tmp = src; src = dst; dst = tmp;
    n = m;
  }
  if (n < 3) return;
  // Project and fan.
  const W = fb.width, H = fb.height;
  const sx = projX, sy = projY, sz = projZ;
  for (let i = 0; i < n; i++) {
    const w = src[i * 4 + 3]!;
    sx[i] = (src[i * 4]! / w + 1) * 0.5 * W;
    sy[i] = (1 - src[i * 4 + 1]! / w) * 0.5 * H;
    sz[i] = 1 / w;
  }
  for (let i = 1; i + 1 < n; i++) {
    rasterTriangle(fb, sx[0]!, sy[0]!, sz[0]!, sx[i]!, sy[i]!, sz[i]!, sx[i + 1]!, sy[i + 1]!, sz[i + 1]!, r, g, bl, flags);
  }
}

// ---------------------------------------------------------------- public drawing

/**
 * Draw indexed triangles. `vertices` is flat xyz (world space), `indices` three per triangle.
 * `color` is one RGB for all, or packed per-face RGB bytes (3 per triangle).
 */
export function drawTriangles(
  fb: Framebuffer,
  camera: Camera,
  vertices: ArrayLike<number>,
  indices: ArrayLike<number>,
  color: Rgb | Uint8Array,
  options: TriangleOptions = {},
): void {
  const nv = Math.floor(vertices.length / 3);
  const nt = Math.floor(indices.length / 3);
  const perFace = color instanceof Uint8Array;
  if (perFace && color.length < nt * 3) throw new Error(`drawTriangles: ${color.length / 3} face colours for ${nt} triangles`);
  const flags = flagsOf(options);
  const lambert = options.shading !== "none";
  const light = normalize3(options.lightDir ?? DEFAULT_LIGHT_DIR);
  const ambient = options.ambient ?? DEFAULT_AMBIENT;
  const eye = camera.eye;
  const m = camera.viewProj;
  const W = fb.width, H = fb.height;

  // Transform every vertex once.
  const clip = new Float64Array(nv * 4);
  const codes = new Uint8Array(nv);
  const scr = new Float64Array(nv * 3);
  for (let v = 0; v < nv; v++) {
    const x = vertices[v * 3]!, y = vertices[v * 3 + 1]!, z = vertices[v * 3 + 2]!;
    const cx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    const cy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    const cz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
    const cw = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    clip[v * 4] = cx; clip[v * 4 + 1] = cy; clip[v * 4 + 2] = cz; clip[v * 4 + 3] = cw;
    const code = outcode(cx, cy, cz, cw);
    codes[v] = code;
    if (code === 0) {
      scr[v * 3] = (cx / cw + 1) * 0.5 * W;
      scr[v * 3 + 1] = (1 - cy / cw) * 0.5 * H;
      scr[v * 3 + 2] = 1 / cw;
    }
  }

  for (let t = 0; t < nt; t++) {
    const a = indices[t * 3]!, b = indices[t * 3 + 1]!, c = indices[t * 3 + 2]!;
    if (!(a < nv && b < nv && c < nv && a >= 0 && b >= 0 && c >= 0)) throw new Error(`drawTriangles: index out of range in triangle ${t}`);
    const ca = codes[a]!, cb = codes[b]!, cc = codes[c]!;
    if ((ca & cb & cc) !== 0) continue; // all outside one plane
    let r: number, g: number, bl: number;
    if (perFace) {
      r = color[t * 3]!; g = color[t * 3 + 1]!; bl = color[t * 3 + 2]!;
    } else {
      r = color[0]; g = color[1]; bl = color[2];
    }
    if (lambert) {
      const ax = vertices[a * 3]!, ay = vertices[a * 3 + 1]!, az = vertices[a * 3 + 2]!;
      const ux = vertices[b * 3]! - ax, uy = vertices[b * 3 + 1]! - ay, uz = vertices[b * 3 + 2]! - az;
      const vx = vertices[c * 3]! - ax, vy = vertices[c * 3 + 1]! - ay, vz = vertices[c * 3 + 2]! - az;
      let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const len = Math.hypot(nx, ny, nz);
      if (len === 0) continue; // degenerate in world space
      nx /= len; ny /= len; nz /= len;
      if (nx * (eye[0] - ax) + ny * (eye[1] - ay) + nz * (eye[2] - az) < 0) {
        nx = -nx; ny = -ny; nz = -nz;
      }
      const k = ambient + (1 - ambient) * Math.max(0, nx * light[0] + ny * light[1] + nz * light[2]);
      r = Math.min(255, Math.round(r * k));
      g = Math.min(255, Math.round(g * k));
      bl = Math.min(255, Math.round(bl * k));
    }
    if ((ca | cb | cc) === 0) {
      rasterTriangle(fb, scr[a * 3]!, scr[a * 3 + 1]!, scr[a * 3 + 2]!, scr[b * 3]!, scr[b * 3 + 1]!, scr[b * 3 + 2]!, scr[c * 3]!, scr[c * 3 + 1]!, scr[c * 3 + 2]!, r, g, bl, flags);
    } else {
      clipAndFill(fb, clip, a * 4, b * 4, c * 4, ca | cb | cc, r, g, bl, flags);
    }
  }
}

function toClip(m: Mat4, p: Vec3): [number, number, number, number] {
  return [
    m[0]! * p[0] + m[4]! * p[1] + m[8]! * p[2] + m[12]!,
    m[1]! * p[0] + m[5]! * p[1] + m[9]! * p[2] + m[13]!,
    m[2]! * p[0] + m[6]! * p[1] + m[10]! * p[2] + m[14]!,
    m[3]! * p[0] + m[7]! * p[1] + m[11]! * p[2] + m[15]!,
  ];
}

/**
 * Draw a 3D segment as a screen-space band `widthPx` wide (flat colour, no shading), with depth.
 */
export function drawLine3D(
  fb: Framebuffer,
  camera: Camera,
  a: Vec3,
  b: Vec3,
  color: Rgb,
  widthPx: number,
  options: LineOptions = {},
): void {
  if (!(widthPx > 0)) return;
  const m = camera.viewProj;
  const ca = toClip(m, a), cb = toClip(m, b);
  // Liang-Barsky in clip space: keep t in [t0, t1].
  let t0 = 0, t1 = 1;
  for (let p = 0; p < 6; p++) {
    const da = planeDist(p, ca[0], ca[1], ca[2], ca[3]);
    const db = planeDist(p, cb[0], cb[1], cb[2], cb[3]);
    if (da < 0 && db < 0) return;
    if (da < 0) t0 = Math.max(t0, da / (da - db));
    else if (db < 0) t1 = Math.min(t1, da / (da - db));
  }
  if (t0 > t1) return;
  const lerp4 = (t: number) => [0, 1, 2, 3].map((k) => ca[k]! + (cb[k]! - ca[k]!) * t) as [number, number, number, number];
  const lerp3 = (t: number): Vec3 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
  const p0 = lerp4(t0), p1 = lerp4(t1);
  const W = fb.width, H = fb.height;
  const x0 = (p0[0] / p0[3] + 1) * 0.5 * W, y0 = (1 - p0[1] / p0[3]) * 0.5 * H, z0 = 1 / p0[3];
  const x1 = (p1[0] / p1[3] + 1) * 0.5 * W, y1 = (1 - p1[1] / p1[3]) * 0.5 * H, z1 = 1 / p1[3];
  const h = widthPx / 2;
  const dx = x1 - x0, dy = y1 - y0;
  const len = Math.hypot(dx, dy);
  let ux: number, uy: number;
  if (len < 1e-9) {
    ux = 1; uy = 0;
  } else {
    ux = dx / len; uy = dy / len;
  }
  const nx = -uy, ny = ux;
  const ext = options.cap === "butt" && len >= 1e-9 ? 0 : h;
  // Depth along the band: affine in screen space along the line (alpha per px along u), plus
  // optionally the support plane's slope across it (beta per px along n).
  const alpha = len < 1e-9 ? 0 : (z1 - z0) / len;
  let beta = 0;
  if (options.planeNormal && len >= 1e-9) {
    const A = lerp3(t0), B = lerp3(t1);
    const dir = sub3(B, A);
    const side = cross3(options.planeNormal, dir);
    const sideLen = Math.hypot(side[0], side[1], side[2]);
    if (sideLen > 0) {
      const dist = Math.hypot(A[0] - camera.eye[0], A[1] - camera.eye[1], A[2] - camera.eye[2]);
      const s = (1e-3 * Math.max(1, dist)) / sideLen;
      const C: Vec3 = [A[0] + side[0] * s, A[1] + side[1] * s, A[2] + side[2] * s];
      const cc = toClip(m, C);
      if (cc[3] > 0) {
        const xc = (cc[0] / cc[3] + 1) * 0.5 * W, yc = (1 - cc[1] / cc[3]) * 0.5 * H, zc = 1 / cc[3];
        const du = (xc - x0) * ux + (yc - y0) * uy;
        const dn = (xc - x0) * nx + (yc - y0) * ny;
        if (Math.abs(dn) > 1e-3 * Math.hypot(du, dn)) beta = (zc - z0 - alpha * du) / dn;
      }
    }
  }
  const flags = flagsOf(options);
  // Corners: start -u*ext +-n*h, end +u*ext +-n*h.
  const ax0 = x0 - ux * ext, ay0 = y0 - uy * ext, az0 = z0 - alpha * ext;
  const bx0 = x1 + ux * ext, by0 = y1 + uy * ext, bz0 = z1 + alpha * ext;
  const q = [
    ax0 + nx * h, ay0 + ny * h, az0 + beta * h,
    bx0 + nx * h, by0 + ny * h, bz0 + beta * h,
    bx0 - nx * h, by0 - ny * h, bz0 - beta * h,
    ax0 - nx * h, ay0 - ny * h, az0 - beta * h,
  ] as const;
  const [r, g, bl] = color;
  rasterTriangle(fb, q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], r, g, bl, flags);
  rasterTriangle(fb, q[0], q[1], q[2], q[6], q[7], q[8], q[9], q[10], q[11], r, g, bl, flags);
}

/** drawLine3D over consecutive points. */
export function drawPolyline3D(
  fb: Framebuffer,
  camera: Camera,
  points: ReadonlyArray<Vec3>,
  color: Rgb,
  widthPx: number,
  options: LineOptions = {},
): void {
  for (let i = 0; i + 1 < points.length; i++) drawLine3D(fb, camera, points[i]!, points[i + 1]!, color, widthPx, options);
}
