/**
 * One view of the meshes: which parts the camera can see (bounding-sphere frustum culling), their
 * vertices in camera and screen coordinates, and the drawing of their triangles into a
 * SampleRaster with near-plane and guard-band clipping.
 *
 * Camera coordinates are camera.ts's: x right, y up, z = depth along the viewing axis. Screen
 * coordinates are continuous pixel coordinates (camera.ts projectPoint), snapped to 1/SUB px.
 * A triangle entirely outside one side of the view frustum is skipped; one crossing the near plane
 * (z = near) or reaching beyond the guard band (one image size past each border) is clipped in
 * camera space (Sutherland-Hodgman) and drawn as a fan. Clipped corners keep their barycentric
 * coordinates in the original triangle, so the alpha test reads the same uv.
 * Twin triangles (twins.ts): of a reversed pair only the one facing the eye is drawn; repeats are
 * skipped. Every other triangle is drawn from both sides.
 * Vertices are transformed when their part is first drawn, so parts the caller culls as hidden
 * (Frame.hidden: wholly behind the raster's nearer samples) cost one box test.
 */
import { cameraBasis, focalLengthPx, type CameraBasis, type PinholeCamera } from "../camera.js";
import type { Vec3, WorldMesh, WorldMeshPart } from "../types.js";
import { SUB, type SampleRaster } from "./raster.js";
import { hasCutout, mipChain, type MipLevel } from "./texture.js";
import { TWIN_REPEAT, TWIN_REVERSED, triangleTwins } from "./twins.js";

export const DEFAULT_NEAR = 0.05;

export interface View {
  camera: PinholeCamera;
  basis: CameraBasis;
  eye: Vec3;
  width: number;
  height: number;
  focal: number;
  cx: number;
  cy: number;
  near: number;
}

export function makeView(camera: PinholeCamera, near: number = DEFAULT_NEAR): View {
  if (!(Number.isInteger(camera.width) && Number.isInteger(camera.height) && camera.width >= 1 && camera.height >= 1 && camera.width <= 16384 && camera.height <= 16384)) {
    throw new Error(`camera size must be whole pixels in 1..16384, got ${camera.width}x${camera.height}`);
  }
  if (!(camera.vfovDeg > 0 && camera.vfovDeg < 180)) throw new Error(`vfovDeg must be in (0, 180), got ${camera.vfovDeg}`);
  if (!(near > 0)) throw new Error(`near must be > 0, got ${near}`);
  return {
    camera,
    basis: cameraBasis(camera),
    eye: camera.position,
    width: camera.width,
    height: camera.height,
    focal: focalLengthPx(camera),
    cx: camera.width / 2,
    cy: camera.height / 2,
    near,
  };
}

// ---------------------------------------------------------------- bounding spheres

const SPHERES = new WeakMap<Float32Array, Float64Array>();

/** Centre (x, y, z) and radius of a sphere around the part's vertices (cached per positions array). */
export function boundingSphere(positions: Float32Array): Float64Array {
  let s = SPHERES.get(positions);
  if (!s) {
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = 0; i < positions.length; i += 3) {
      const x = positions[i]!, y = positions[i + 1]!, z = positions[i + 2]!;
      if (x < x0) x0 = x; if (x > x1) x1 = x;
      if (y < y0) y0 = y; if (y > y1) y1 = y;
      if (z < z0) z0 = z; if (z > z1) z1 = z;
    }
    s = new Float64Array(4);
    if (positions.length >= 3) {
      const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, cz = (z0 + z1) / 2;
      let r2 = 0;
      for (let i = 0; i < positions.length; i += 3) {
        const dx = positions[i]! - cx, dy = positions[i + 1]! - cy, dz = positions[i + 2]! - cz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 > r2) r2 = d2;
      }
      s[0] = cx; s[1] = cy; s[2] = cz; s[3] = Math.sqrt(r2) * (1 + 1e-6) + 1e-6;
    } else {
      s[3] = -1; // empty
    }
    SPHERES.set(positions, s);
  }
  return s;
}

const BOXES = new WeakMap<Float32Array, Float64Array>();

/** Axis-aligned box (min x, y, z, max x, y, z) around the part's vertices (cached per positions array). */
export function boundingBox(positions: Float32Array): Float64Array {
  let b = BOXES.get(positions);
  if (!b) {
    b = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
    for (let i = 0; i < positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = positions[i + k]!;
        if (v < b[k]!) b[k] = v;
        if (v > b[k + 3]!) b[k + 3] = v;
      }
    }
    BOXES.set(positions, b);
  }
  return b;
}

/** Triangles per chunk for occlusion culling inside a part; parts of up to two chunks are culled whole. */
const CHUNK_BITS = 8;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_BOXES = new WeakMap<Uint32Array, { positions: Float32Array; boxes: Float64Array | null }>();

/** Boxes (6 numbers each, as boundingBox) of the part's runs of CHUNK triangles, or null for small parts (cached per indices array). */
export function chunkBoxes(part: Pick<WorldMeshPart, "positions" | "indices">): Float64Array | null {
  const hit = CHUNK_BOXES.get(part.indices);
  if (hit && hit.positions === part.positions) return hit.boxes;
  const triangles = Math.floor(part.indices.length / 3);
  let boxes: Float64Array | null = null;
  if (triangles > 2 * CHUNK) {
    const pos = part.positions, idx = part.indices;
    boxes = new Float64Array(Math.ceil(triangles / CHUNK) * 6);
    for (let c = 0; c < boxes.length; c += 6) boxes.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], c);
    for (let i = 0; i < triangles * 3; i++) {
      const v = idx[i]! * 3, o = Math.floor(i / (3 * CHUNK)) * 6;
      for (let k = 0; k < 3; k++) {
        const x = pos[v + k]!;
        if (x < boxes[o + k]!) boxes[o + k] = x;
        if (x > boxes[o + 3 + k]!) boxes[o + 3 + k] = x;
      }
    }
  }
  CHUNK_BOXES.set(part.indices, { positions: part.positions, boxes });
  return boxes;
}

/** True when a world sphere may intersect the view frustum (near plane and the four sides). */
export function sphereInView(view: View, x: number, y: number, z: number, r: number): boolean {
  if (r < 0) return false;
  const { basis, eye, focal: f } = view;
  const dx = x - eye[0], dy = y - eye[1], dz = z - eye[2];
  const X = dx * basis.right[0] + dy * basis.right[1] + dz * basis.right[2];
  const Y = dx * basis.up[0] + dy * basis.up[1] + dz * basis.up[2];
  const Z = dx * basis.forward[0] + dy * basis.forward[1] + dz * basis.forward[2];
  if (Z + r < view.near) return false;
  const hx = view.cx, hy = view.cy;
  const nx = Math.hypot(f, hx), ny = Math.hypot(f, hy);
  if ((f * X + hx * Z) / nx < -r) return false;
  if ((hx * Z - f * X) / nx < -r) return false;
  if ((hy * Z - f * Y) / ny < -r) return false;
  if ((f * Y + hy * Z) / ny < -r) return false;
  return true;
}

// ---------------------------------------------------------------- visible parts

export interface VisiblePart {
  mesh: WorldMesh;
  part: WorldMeshPart;
  /** First vertex of this part in the frame's vertex arrays. */
  vertexOffset: number;
  /** Triangle t of the part has id idBase + t (ids start at 1). */
  idBase: number;
  triangles: number;
  /** Mip chain of the part's texture when the texture cuts holes (alpha test), else null. */
  cutout: MipLevel[] | null;
  glass: boolean;
  /** Whether the part's vertices are in the frame's arrays yet (done on first draw: hidden parts never are). */
  transformed: boolean;
}

/**
 * Relative and absolute slack (in depth-key units, 1/m) between a part's nearest possible key and
 * what hides it: far above the rounding of a rasterizer key, so culling never drops a sample.
 */
const HIDDEN_KEY_MARGIN = 1e-3;

/** Parts with opacity below this are glass: drawn to RGB only. */
export const GLASS_OPACITY = 0.5;

const NEAR_BIT = 1, LEFT = 2, RIGHT = 4, TOP = 8, BOTTOM = 16;
const G_LEFT = 32, G_RIGHT = 64, G_TOP = 128, G_BOTTOM = 256;
const OUTSIDE = NEAR_BIT | LEFT | RIGHT | TOP | BOTTOM;
const NEEDS_CLIP = NEAR_BIT | G_LEFT | G_RIGHT | G_TOP | G_BOTTOM;

/**
 * The parts of one view and their transformed vertices. Scratch arrays grow as needed and are
 * reused by the next `setup` (one Frame per concurrent use).
 */
export class Frame {
  view!: View;
  parts: VisiblePart[] = [];
  /** Camera coordinates, 3 per vertex. */
  cam = new Float64Array(0);
  /** Snapped screen x, y (1/SUB px) and the depth key 1/z, 3 per vertex (valid when z >= near). */
  scr = new Float64Array(0);
  code = new Uint16Array(0);
  /** Part index of every triangle id (index = id). */
  partOfId = new Uint32Array(0);
  /** Total triangles + 1 (ids are 1..idEnd-1). */
  idEnd = 1;

  private readonly poly = new Float64Array(2 * 12 * 5);
  private readonly proj = new Float64Array(12 * 3);

  /** Culls and transforms; `keep` selects meshes, `wantPart` parts (both optional). */
  setup(view: View, meshes: readonly WorldMesh[], keep?: (mesh: WorldMesh) => boolean, wantPart?: (part: WorldMeshPart) => boolean): void {
    this.view = view;
    this.parts = [];
    let vertices = 0;
    let idBase = 1;
    for (const mesh of meshes) {
      if (keep && !keep(mesh)) continue;
      for (const part of mesh.parts) {
        if (wantPart && !wantPart(part)) continue;
        checkPart(mesh, part);
        if (part.indices.length < 3) continue;
        const s = boundingSphere(part.positions);
        if (!sphereInView(view, s[0]!, s[1]!, s[2]!, s[3]!)) continue;
        const triangles = Math.floor(part.indices.length / 3);
        const cutout = part.texture && part.uvs && hasCutout(part.texture) ? mipChain(part.texture) : null;
        this.parts.push({ mesh, part, vertexOffset: vertices, idBase, triangles, cutout, glass: part.opacity < GLASS_OPACITY, transformed: false });
        vertices += part.positions.length / 3;
        idBase += triangles;
      }
    }
    this.idEnd = idBase;
    if (this.cam.length < vertices * 3) {
      const n = Math.max(vertices * 3, Math.ceil(this.cam.length * 1.5));
      this.cam = new Float64Array(n);
      this.scr = new Float64Array(n);
      this.code = new Uint16Array(n / 3 + 1);
    }
    if (this.partOfId.length < idBase) this.partOfId = new Uint32Array(Math.max(idBase, Math.ceil(this.partOfId.length * 1.5)));
    for (let p = 0; p < this.parts.length; p++) {
      const vp = this.parts[p]!;
      this.partOfId.fill(p, vp.idBase, vp.idBase + vp.triangles);
    }
  }

  private transform(vp: VisiblePart): void {
    vp.transformed = true;
    const { basis, eye, focal: f, cx, cy, near, width: W, height: H } = this.view;
    const [rx, ry, rz] = basis.right, [ux, uy, uz] = basis.up, [fx, fy, fz] = basis.forward;
    const ex = eye[0], ey = eye[1], ez = eye[2];
    const GX = cx + W, GY = cy + H;
    const pos = vp.part.positions;
    const cam = this.cam, scr = this.scr, code = this.code;
    const n = pos.length / 3;
    for (let i = 0, o = vp.vertexOffset; i < n; i++, o++) {
      const dx = pos[i * 3]! - ex, dy = pos[i * 3 + 1]! - ey, dz = pos[i * 3 + 2]! - ez;
      const x = dx * rx + dy * ry + dz * rz;
      const y = dx * ux + dy * uy + dz * uz;
      const z = dx * fx + dy * fy + dz * fz;
      cam[o * 3] = x; cam[o * 3 + 1] = y; cam[o * 3 + 2] = z;
      let c = 0;
      if (z < near) c |= NEAR_BIT;
      const fxz = f * x, fyz = f * y;
      if (fxz + cx * z < 0) c |= LEFT;
      if ((W - cx) * z - fxz < 0) c |= RIGHT;
      if (cy * z - fyz < 0) c |= TOP;
      if (fyz + (H - cy) * z < 0) c |= BOTTOM;
      if (fxz + GX * z < 0) c |= G_LEFT;
      if (GX * z - fxz < 0) c |= G_RIGHT;
      if (GY * z - fyz < 0) c |= G_TOP;
      if (fyz + GY * z < 0) c |= G_BOTTOM;
      code[o] = c;
      if ((c & NEEDS_CLIP) === 0) {
        scr[o * 3] = Math.round((cx + fxz / z) * SUB);
        scr[o * 3 + 1] = Math.round((cy - fyz / z) * SUB);
        scr[o * 3 + 2] = 1 / z;
      }
    }
  }

  /**
   * Exact occlusion culling: true when no sample the part could cover would pass the depth test
   * of `raster` (a key strictly larger than the one the sample holds), so drawing it would change
   * nothing. Parts reaching the near plane are always drawn.
   */
  hidden(vp: VisiblePart, raster: SampleRaster): boolean {
    return this.boxHidden(boundingBox(vp.part.positions), 0, raster.depth, raster.count);
  }

  /**
   * hidden() for world box box[o..o+5] (min x, y, z, max x, y, z). Its corners in camera space
   * bound the depths of everything inside, and their projections its screen extent (the
   * projection of a box in front of the eye is the hull of its projected corners); a pixel of
   * margin covers snapping and sample offsets, HIDDEN_KEY_MARGIN the rounding of interpolated keys.
   */
  private boxHidden(b: Float64Array, o: number, depth: Float32Array, S: number): boolean {
    const { basis, eye, focal: f, cx, cy, near, width: W, height: H } = this.view;
    const [rx, ry, rz] = basis.right, [ux, uy, uz] = basis.up, [fx, fy, fz] = basis.forward;
    let zMin = Infinity, xMin = Infinity, xMax = -Infinity, yMin = Infinity, yMax = -Infinity;
    for (let corner = 0; corner < 8; corner++) {
      const dx = b[o + (corner & 1 ? 3 : 0)]! - eye[0], dy = b[o + (corner & 2 ? 4 : 1)]! - eye[1], dz = b[o + (corner & 4 ? 5 : 2)]! - eye[2];
      const z = dx * fx + dy * fy + dz * fz;
      if (!(z > near)) return false;
      const sx = cx + (f * (dx * rx + dy * ry + dz * rz)) / z, sy = cy - (f * (dx * ux + dy * uy + dz * uz)) / z;
      if (z < zMin) zMin = z;
      if (sx < xMin) xMin = sx;
      if (sx > xMax) xMax = sx;
      if (sy < yMin) yMin = sy;
      if (sy > yMax) yMax = sy;
    }
    const iMin = Math.max(0, Math.floor(xMin) - 1), iMax = Math.min(W - 1, Math.floor(xMax) + 1);
    const jMin = Math.max(0, Math.floor(yMin) - 1), jMax = Math.min(H - 1, Math.floor(yMax) + 1);
    const maxKey = (1 / zMin) * (1 + HIDDEN_KEY_MARGIN) + HIDDEN_KEY_MARGIN;
    for (let j = jMin; j <= jMax; j++) {
      for (let q = (j * W + iMin) * S, end = (j * W + iMax + 1) * S; q < end; q++) {
        if (depth[q]! < maxKey) return false;
      }
    }
    return true;
  }

  /**
   * Draws every triangle of a visible part; with `cull`, skips runs of CHUNK triangles hidden()
   * behind what the raster holds (Visibility and Emit modes: exact, they could pass no sample).
   */
  drawPart(raster: SampleRaster, vp: VisiblePart, cull = false): void {
    if (!vp.transformed) this.transform(vp);
    const chunks = cull ? chunkBoxes(vp.part) : null;
    const idx = vp.part.indices;
    const uvs = vp.part.uvs;
    const off = vp.vertexOffset;
    const scr = this.scr, code = this.code;
    const cut = vp.cutout && uvs ? vp.cutout : null;
    raster.cut = cut;
    const routine = raster.routine();
    const twins = triangleTwins(vp.part);
    const pos = vp.part.positions;
    const [ex, ey, ez] = this.view.eye;
    for (let t = 0; t < vp.triangles; t++) {
      if (chunks !== null && (t & (CHUNK - 1)) === 0 && this.boxHidden(chunks, (t >> CHUNK_BITS) * 6, raster.depth, raster.count)) {
        t += CHUNK - 1;
        continue;
      }
      const ia = idx[t * 3]!, ib = idx[t * 3 + 1]!, ic = idx[t * 3 + 2]!;
      const a = off + ia, b = off + ib, c = off + ic;
      const ca = code[a]!, cb = code[b]!, cc = code[c]!;
      if ((ca & cb & cc & OUTSIDE) !== 0) continue;
      if (twins) {
        const tw = twins[t]!;
        if (tw === TWIN_REPEAT) continue;
        if (tw === TWIN_REVERSED) {
          // Facing the eye: (eye - A) . ((B - A) x (C - A)) >= 0.
          const ax = pos[ia * 3]!, ay = pos[ia * 3 + 1]!, az = pos[ia * 3 + 2]!;
          const ux = pos[ib * 3]! - ax, uy = pos[ib * 3 + 1]! - ay, uz = pos[ib * 3 + 2]! - az;
          const vx = pos[ic * 3]! - ax, vy = pos[ic * 3 + 1]! - ay, vz = pos[ic * 3 + 2]! - az;
          const facing = (ex - ax) * (uy * vz - uz * vy) + (ey - ay) * (uz * vx - ux * vz) + (ez - az) * (ux * vy - uy * vx);
          if (facing < 0) continue;
        }
      }
      if (cut) {
        raster.u0 = uvs![ia * 2]!; raster.v0 = uvs![ia * 2 + 1]!;
        raster.u1 = uvs![ib * 2]!; raster.v1 = uvs![ib * 2 + 1]!;
        raster.u2 = uvs![ic * 2]!; raster.v2 = uvs![ic * 2 + 1]!;
      }
      if (((ca | cb | cc) & NEEDS_CLIP) === 0) {
        raster.draw(routine, scr, a * 3, b * 3, c * 3, vp.idBase + t);
      } else {
        this.clipAndDraw(raster, routine, a, b, c, (ca | cb | cc) & NEEDS_CLIP, vp.idBase + t, cut ? uvs : null, ia, ib, ic);
      }
    }
    raster.cut = null;
  }

  private clipAndDraw(raster: SampleRaster, routine: number, a: number, b: number, c: number, planes: number, id: number, uvs: Float32Array | null, ia: number, ib: number, ic: number): void {
    const { focal: f, cx, cy, near, width: W, height: H } = this.view;
    const GX = cx + W, GY = cy + H;
    const cam = this.cam;
    const poly = this.poly;
    const STRIDE = 5; // x, y, z, barycentric of corner b, of corner c
    const HALF_POLY = 12 * STRIDE;
    let src = 0, dst = HALF_POLY;
    const corners = [a, b, c];
    for (let k = 0; k < 3; k++) {
      const v = corners[k]!;
      poly[k * STRIDE] = cam[v * 3]!;
      poly[k * STRIDE + 1] = cam[v * 3 + 1]!;
      poly[k * STRIDE + 2] = cam[v * 3 + 2]!;
      poly[k * STRIDE + 3] = k === 1 ? 1 : 0;
      poly[k * STRIDE + 4] = k === 2 ? 1 : 0;
    }
    let n = 3;
    for (let bit = 1; bit <= G_BOTTOM && n >= 3; bit <<= 1) {
      if ((planes & bit) === 0) continue;
      let m = 0;
      for (let i = 0; i < n; i++) {
        const p = src + i * STRIDE, q = src + ((i + 1) % n) * STRIDE;
        const dp = planeDistance(bit, poly[p]!, poly[p + 1]!, poly[p + 2]!, f, near, GX, GY);
        const dq = planeDistance(bit, poly[q]!, poly[q + 1]!, poly[q + 2]!, f, near, GX, GY);
        if (dp >= 0) {
          for (let k = 0; k < STRIDE; k++) poly[dst + m * STRIDE + k] = poly[p + k]!;
          m++;
        }
        if ((dp >= 0) !== (dq >= 0)) {
          // From the inside corner towards the outside one, so both triangles of a shared edge cut it alike.
          const ins = dp >= 0 ? p : q, out = dp >= 0 ? q : p;
          const di = dp >= 0 ? dp : dq, dout = dp >= 0 ? dq : dp;
          const t = di / (di - dout);
          for (let k = 0; k < STRIDE; k++) poly[dst + m * STRIDE + k] = poly[ins + k]! + (poly[out + k]! - poly[ins + k]!) * t;
          m++;
        }
      }
      const tmp = src; src = dst; dst = tmp;
      n = m;
    }
    if (n < 3) return;
    const proj = this.proj;
    for (let i = 0; i < n; i++) {
      const p = src + i * STRIDE;
      const z = Math.max(poly[p + 2]!, near);
      proj[i * 3] = Math.round((cx + (f * poly[p]!) / z) * SUB);
      proj[i * 3 + 1] = Math.round((cy - (f * poly[p + 1]!) / z) * SUB);
      proj[i * 3 + 2] = 1 / z;
    }
    const setUv = (slot: 0 | 1 | 2, i: number) => {
      const p = src + i * STRIDE;
      const wb = poly[p + 3]!, wc = poly[p + 4]!, wa = 1 - wb - wc;
      const u = wa * uvs![ia * 2]! + wb * uvs![ib * 2]! + wc * uvs![ic * 2]!;
      const v = wa * uvs![ia * 2 + 1]! + wb * uvs![ib * 2 + 1]! + wc * uvs![ic * 2 + 1]!;
      if (slot === 0) { raster.u0 = u; raster.v0 = v; } else if (slot === 1) { raster.u1 = u; raster.v1 = v; } else { raster.u2 = u; raster.v2 = v; }
    };
    for (let i = 1; i + 1 < n; i++) {
      if (uvs) {
        setUv(0, 0);
        setUv(1, i);
        setUv(2, i + 1);
      }
      raster.draw(routine, proj, 0, i * 3, (i + 1) * 3, id);
    }
  }
}

/** Array lengths that fit together (indices are checked while drawing). */
function checkPart(mesh: WorldMesh, part: WorldMeshPart): void {
  const n = part.positions.length;
  const fail = (what: string) => {
    throw new Error(`mesh ${mesh.instanceId} (${mesh.category}): ${what}`);
  };
  if (n % 3 !== 0) fail(`${n} position values is not a multiple of 3`);
  if (part.normals.length !== n) fail(`${part.normals.length / 3} normals for ${n / 3} vertices`);
  if (part.uvs && part.uvs.length !== (n / 3) * 2) fail(`${part.uvs.length / 2} uvs for ${n / 3} vertices`);
  if (part.indices.length % 3 !== 0) fail(`${part.indices.length} indices is not a multiple of 3`);
  const bad = firstBadTriangle(part.indices, n / 3);
  if (bad >= 0) throw new Error(`mesh ${mesh.instanceId}: triangle ${bad} indexes past the ${n / 3} vertices`);
}

const CHECKED = new WeakMap<Uint32Array, number>();

/** The first triangle with a corner index >= vertices, or -1 (cached per indices array and vertex count). */
function firstBadTriangle(indices: Uint32Array, vertices: number): number {
  if (CHECKED.get(indices) === vertices) return -1;
  for (let i = 0; i < indices.length; i++) if (indices[i]! >= vertices) return Math.floor(i / 3);
  CHECKED.set(indices, vertices);
  return -1;
}

function planeDistance(bit: number, x: number, y: number, z: number, f: number, near: number, GX: number, GY: number): number {
  switch (bit) {
    case NEAR_BIT: return z - near;
    case G_LEFT: return f * x + GX * z;
    case G_RIGHT: return GX * z - f * x;
    case G_TOP: return GY * z - f * y;
    case G_BOTTOM: return f * y + GY * z;
    default: return 1; // the screen planes are never clipped against (the guard band is)
  }
}
