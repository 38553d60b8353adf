/**
 * Surface shading of one triangle at one image point (deferred: the rasterizer only records which
 * triangle each sample sees; colours are computed afterwards, once per distinct triangle in a pixel).
 *
 * Interpolation: the barycentric coordinates of the point where the pixel's ray meets the
 * triangle, from camera-space corners: with ray direction d and corners v0, v1, v2,
 * lambda_i = d . (v_j x v_k) / d . ((v1 - v0) x (v2 - v0)) for (i, j, k) cyclic. This is exact
 * perspective-correct interpolation, and its screen derivatives give the texture footprint
 * (level of detail) analytically.
 *
 * Two-sided: the triangle's geometric normal is turned towards the viewer, and each corner's
 * normal is turned to agree with it before the corners are interpolated.
 *
 * Light model (linear light, per unit albedo):
 *   E = hemisphere(n_z) * ao + sum_i point_i + key
 *   hemisphere(n_z) = ground + (sky - ground) * (1 + n_z) / 2
 *   point_i = colour_i * POINT_LIGHT_SCALE * down(l) * window(d) / max(d^2, 0.01) * max(0, n . l) * lit_i
 *     with down(l) = c (2 - c), c = max(0, cos of the angle between the light-to-point direction
 *     and straight down): a ceiling light shines downwards and sideways, not onto its ceiling;
 *     window(d) = clamp(1 - (d / range)^4, 0, 1)^2 (smooth cut at the light's range) and
 *     lit_i its shadow-map answer; POINT_LIGHT_SCALE = 4 m^2 makes a light of intensity 1 give
 *     irradiance 1 at 2 m straight below it (a ceiling light over the floor);
 *   key = colour * max(0, n . direction) (no shadow)
 *   colour = albedo * E * exposure + emission, albedo = diffuse * texture (linear); emission is
 *     the part's own light (a lit lamp, a screen; 0 for most parts), not shaded, not exposed.
 */
import type { Vec3 } from "../types.js";
import { shadowLit, type ShadowMap } from "./shadow.js";
import { approxLog2, mipChain, sampleTexture, type MipLevel } from "./texture.js";
import { boundingSphere, type Frame } from "./view.js";

export const POINT_LIGHT_SCALE = 4;
/** Shader.shade's sample index for the pixel's centre. */
export const CENTRE = -1;

export interface LightRig {
  sky: Vec3;
  ground: Vec3;
  /** Point lights in range of the view. */
  points: ActiveLight[];
  key: { direction: Vec3; color: Vec3 } | null;
  exposure: number;
  range: number;
}

export interface ActiveLight {
  x: number;
  y: number;
  z: number;
  r: number;
  g: number;
  b: number;
  shadow: ShadowMap | null;
}

interface PartShading {
  r: number;
  g: number;
  b: number;
  levels: MipLevel[] | null;
  texW: number;
  texH: number;
  /** Indexes into rig.points of the lights that reach the part. */
  lights: Int32Array;
  /** The part's emission (0 for most). */
  emitR: number;
  emitG: number;
  emitB: number;
}

export class Shader {
  readonly out = new Float64Array(3);
  /** sampleTexture's u, v, lod in, linear RGB out. */
  private readonly tex = new Float64Array(3);
  /** The shaded point and its normal, for shadowLit. */
  private readonly at = new Float64Array(6);
  private info: PartShading[] = [];
  private frame!: Frame;
  private rig!: LightRig;
  private unlit = false;
  private offX: Float64Array = new Float64Array(0);
  private offY: Float64Array = new Float64Array(0);
  private ao: Float32Array | null = null;

  /**
   * Prepares per-part data for the frame's visible parts; offX/offY are the sample pattern's
   * offsets in pixels, ao the per-pixel ambient factor (null: 1).
   */
  begin(frame: Frame, rig: LightRig, unlit: boolean, offX: Float64Array, offY: Float64Array, ao: Float32Array | null): void {
    this.frame = frame;
    this.rig = rig;
    this.unlit = unlit;
    this.offX = offX;
    this.offY = offY;
    this.ao = ao;
    this.lastId = 0;
    this.info = frame.parts.map((vp) => {
      const part = vp.part;
      const levels = part.texture && part.uvs ? mipChain(part.texture) : null;
      const lights: number[] = [];
      if (!unlit) {
        // A light reaches the part when its range meets the part's bounding sphere.
        const sphere = boundingSphere(part.positions);
        rig.points.forEach((l, i) => {
          const d = Math.hypot(sphere[0]! - l.x, sphere[1]! - l.y, sphere[2]! - l.z);
          if (d - sphere[3]! < rig.range) lights.push(i);
        });
      }
      return {
        r: part.diffuse[0],
        g: part.diffuse[1],
        b: part.diffuse[2],
        levels,
        texW: levels ? levels[0]!.width : 0,
        texH: levels ? levels[0]!.height : 0,
        lights: Int32Array.from(lights),
        emitR: part.emission?.[0] ?? 0,
        emitG: part.emission?.[1] ?? 0,
        emitB: part.emission?.[2] ?? 0,
      };
    });
  }

  // Setup of the last triangle shaded (consecutive pixels mostly see the same one): camera-space
  // m0 = b x c, m1 = c x a, m2 = a x b (9), corner uvs (6), world corners (9), corner normals
  // turned to the viewer-facing side (9), viewer-facing face normal (3).
  private lastId = 0;
  private readonly tri = new Float64Array(36);
  private triInfo: PartShading | null = null;
  private triTextured = false;

  private setup(id: number): void {
    const frame = this.frame;
    const p = frame.partOfId[id]!;
    const vp = frame.parts[p]!;
    const info = this.info[p]!;
    const part = vp.part;
    const t = id - vp.idBase;
    const idx = part.indices;
    const ia = idx[t * 3]!, ib = idx[t * 3 + 1]!, ic = idx[t * 3 + 2]!;
    const cam = frame.cam;
    const oa = (vp.vertexOffset + ia) * 3, ob = (vp.vertexOffset + ib) * 3, oc = (vp.vertexOffset + ic) * 3;
    const ax = cam[oa]!, ay = cam[oa + 1]!, az = cam[oa + 2]!;
    const bx = cam[ob]!, by = cam[ob + 1]!, bz = cam[ob + 2]!;
    const cx = cam[oc]!, cy = cam[oc + 1]!, cz = cam[oc + 2]!;
    const T = this.tri;
    T[0] = by * cz - bz * cy; T[1] = bz * cx - bx * cz; T[2] = bx * cy - by * cx;
    T[3] = cy * az - cz * ay; T[4] = cz * ax - cx * az; T[5] = cx * ay - cy * ax;
    T[6] = ay * bz - az * by; T[7] = az * bx - ax * bz; T[8] = ax * by - ay * bx;
    this.triInfo = info;
    this.triTextured = info.levels !== null;
    if (info.levels) {
      const uvs = part.uvs!;
      T[9] = uvs[ia * 2]!; T[10] = uvs[ia * 2 + 1]!;
      T[11] = uvs[ib * 2]!; T[12] = uvs[ib * 2 + 1]!;
      T[13] = uvs[ic * 2]!; T[14] = uvs[ic * 2 + 1]!;
    }
    const pos = part.positions, nor = part.normals;
    const A = ia * 3, B = ib * 3, C = ic * 3;
    for (let k = 0; k < 3; k++) {
      T[15 + k] = pos[A + k]!; T[18 + k] = pos[B + k]!; T[21 + k] = pos[C + k]!;
    }
    const e1x = T[18]! - T[15]!, e1y = T[19]! - T[16]!, e1z = T[20]! - T[17]!;
    const e2x = T[21]! - T[15]!, e2y = T[22]! - T[16]!, e2z = T[23]! - T[17]!;
    let fnx = e1y * e2z - e1z * e2y, fny = e1z * e2x - e1x * e2z, fnz = e1x * e2y - e1y * e2x;
    // The eye's side of the plane is the same for every point of the triangle.
    const eye = frame.view.eye;
    if (fnx * (eye[0] - T[15]!) + fny * (eye[1] - T[16]!) + fnz * (eye[2] - T[17]!) < 0) {
      fnx = -fnx; fny = -fny; fnz = -fnz;
    }
    const fl = Math.sqrt(fnx * fnx + fny * fny + fnz * fnz);
    if (fl > 0) {
      fnx /= fl; fny /= fl; fnz /= fl;
    }
    T[33] = fnx; T[34] = fny; T[35] = fnz;
    // Each corner's normal turned to the face's side, so corners whose normals disagree with the
    // winding (or with each other) cannot cancel out when interpolated.
    for (let k = 0, o = 24; k < 3; k++, o += 3) {
      const v = k === 0 ? A : k === 1 ? B : C;
      const nx = nor[v]!, ny = nor[v + 1]!, nz = nor[v + 2]!;
      const sgn = nx * fnx + ny * fny + nz * fnz < 0 ? -1 : 1;
      T[o] = sgn * nx; T[o + 1] = sgn * ny; T[o + 2] = sgn * nz;
    }
  }

  /**
   * Linear RGB into `out` of triangle `id` seen through sample `s` (CENTRE: the centre) of pixel
   * (x, y). (Integer arguments: the renderer calls this for every pixel, and fractional numbers
   * would be boxed on the heap at every call.)
   */
  shade(id: number, x: number, y: number, s: number): void {
    const px = s === CENTRE ? x + 0.5 : x + 0.5 + this.offX[s]!;
    const py = s === CENTRE ? y + 0.5 : y + 0.5 + this.offY[s]!;
    if (id !== this.lastId) {
      this.setup(id);
      this.lastId = id;
    }
    const T = this.tri;
    const info = this.triInfo!;
    const view = this.frame.view;
    const f = view.focal;
    const dx = (px - view.cx) / f, dy = (view.cy - py) / f;
    const m0x = T[0]!, m0y = T[1]!, m1x = T[3]!, m1y = T[4]!, m2x = T[6]!, m2y = T[7]!;
    const n0 = dx * m0x + dy * m0y + T[2]!, n1 = dx * m1x + dy * m1y + T[5]!, n2 = dx * m2x + dy * m2y + T[8]!;
    const D = n0 + n1 + n2;
    let l0: number, l1: number, l2: number;
    if (D !== 0 && Number.isFinite(D)) {
      const invD = 1 / D;
      l0 = n0 * invD; l1 = n1 * invD; l2 = n2 * invD;
      if (l0 < 0 || l1 < 0 || l2 < 0) {
        // Snapped edges can put a sample a hair outside: pull it back onto the triangle.
        if (l0 < 0) l0 = 0;
        if (l1 < 0) l1 = 0;
        if (l2 < 0) l2 = 0;
        const s = l0 + l1 + l2;
        if (s > 0) { l0 /= s; l1 /= s; l2 /= s; } else { l0 = l1 = l2 = 1 / 3; }
      }
    } else {
      l0 = l1 = l2 = 1 / 3;
    }

    let r = info.r, g = info.g, b = info.b;
    if (this.triTextured) {
      const ua = T[9]!, va = T[10]!, ub = T[11]!, vb = T[12]!, uc = T[13]!, vc = T[14]!;
      const u = l0 * ua + l1 * ub + l2 * uc, v = l0 * va + l1 * vb + l2 * vc;
      let lod = 0;
      if (D !== 0) {
        // d(lambda_i)/dx = (m_i.x - lambda_i * sum.x) / (f D); d/dy has the opposite sign (y down).
        const sx = m0x + m1x + m2x, sy = m0y + m1y + m2y;
        const k = 1 / (f * D);
        const dudx = (m0x * ua + m1x * ub + m2x * uc - u * sx) * k, dvdx = (m0x * va + m1x * vb + m2x * vc - v * sx) * k;
        const dudy = -(m0y * ua + m1y * ub + m2y * uc - u * sy) * k, dvdy = -(m0y * va + m1y * vb + m2y * vc - v * sy) * k;
        const W = info.texW, H = info.texH;
        const fx2 = dudx * dudx * W * W + dvdx * dvdx * H * H;
        const fy2 = dudy * dudy * W * W + dvdy * dvdy * H * H;
        const rho2 = fx2 > fy2 ? fx2 : fy2;
        if (rho2 > 1) lod = 0.5 * approxLog2(rho2);
      }
      const tex = this.tex;
      tex[0] = u; tex[1] = v; tex[2] = lod;
      sampleTexture(info.levels!, tex, tex);
      r *= tex[0]!; g *= tex[1]!; b *= tex[2]!;
    }
    const out = this.out;
    if (this.unlit) {
      out[0] = r; out[1] = g; out[2] = b;
      return;
    }

    // World position and normal.
    const wx = l0 * T[15]! + l1 * T[18]! + l2 * T[21]!;
    const wy = l0 * T[16]! + l1 * T[19]! + l2 * T[22]!;
    const wz = l0 * T[17]! + l1 * T[20]! + l2 * T[23]!;
    let nx = l0 * T[24]! + l1 * T[27]! + l2 * T[30]!;
    let ny = l0 * T[25]! + l1 * T[28]! + l2 * T[31]!;
    let nz = l0 * T[26]! + l1 * T[29]! + l2 * T[32]!;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len > 1e-12) {
      const inv = 1 / len;
      nx *= inv; ny *= inv; nz *= inv;
    } else {
      nx = T[33]!; ny = T[34]!; nz = T[35]!;
    }

    const rig = this.rig;
    const ao = this.ao ? this.ao[y * this.frame.view.width + x]! : 1;
    const hemi = (1 + nz) / 2;
    let er = (rig.ground[0] + (rig.sky[0] - rig.ground[0]) * hemi) * ao;
    let eg = (rig.ground[1] + (rig.sky[1] - rig.ground[1]) * hemi) * ao;
    let eb = (rig.ground[2] + (rig.sky[2] - rig.ground[2]) * hemi) * ao;
    const lights = info.lights;
    const points = rig.points;
    const at = this.at;
    at[0] = wx; at[1] = wy; at[2] = wz; at[3] = nx; at[4] = ny; at[5] = nz;
    const range4 = rig.range * rig.range * rig.range * rig.range;
    for (let i = 0; i < lights.length; i++) {
      const L = points[lights[i]!]!;
      const lz = L.z - wz;
      // The light is above the point (lz > 0) for down(l) > 0.
      if (lz <= 0) continue;
      const lx = L.x - wx, ly = L.y - wy;
      const dot = nx * lx + ny * ly + nz * lz;
      if (dot <= 0) continue;
      const d2 = lx * lx + ly * ly + lz * lz;
      // Out of range: d2^2 >= range^4 already gives q >= 1 (division is monotonic), without dividing.
      const d4 = d2 * d2;
      if (d4 >= range4) continue;
      const q = d4 / range4;
      if (q >= 1) continue;
      const window = (1 - q) * (1 - q);
      const inv2 = 1 / (d2 > 0.01 ? d2 : 0.01);
      const invD = d2 > 0.01 ? Math.sqrt(inv2) : 1 / Math.sqrt(d2);
      const c = lz * invD;
      let k = POINT_LIGHT_SCALE * c * (2 - c) * window * dot * invD * inv2;
      if (L.shadow) {
        k *= shadowLit(L.shadow, at);
        if (k === 0) continue;
      }
      er += L.r * k; eg += L.g * k; eb += L.b * k;
    }
    const key = rig.key;
    if (key) {
      const dot = nx * key.direction[0] + ny * key.direction[1] + nz * key.direction[2];
      if (dot > 0) {
        er += key.color[0] * dot; eg += key.color[1] * dot; eb += key.color[2] * dot;
      }
    }
    const ex = rig.exposure;
    out[0] = r * er * ex + info.emitR; out[1] = g * eg * ex + info.emitG; out[2] = b * eb * ex + info.emitB;
  }
}
