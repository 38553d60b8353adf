/**
 * The renderer's triangle rasterizer: coverage and depth of screen-space triangles at a fixed set
 * of sample points per pixel.
 *
 * - Coordinates: continuous pixel coordinates (pixel (i, j) covers [i, i+1) x [j, j+1), centre at
 *   (i + 0.5, j + 0.5)), snapped to 1/SUB px so every edge function is an exact integer in a
 *   double. A sample is covered when it is inside all three edges; a sample exactly on an edge
 *   belongs to the triangle when the edge is a top or a left edge (Direct3D's / OpenGL's fill
 *   rule), so triangles sharing an edge cover each sample once.
 * - Samples: AA_SAMPLES is the pixel centre plus four more points of a 5-rook pattern (every
 *   sample has its own row and column in the pixel: offsets -0.4, -0.2, 0, 0.2, 0.4 px), so an
 *   edge crossing a pixel gives six coverage levels. CENTRE_SAMPLE is the centre alone.
 * - Depth: the key is 1/z (z = distance along the viewing axis), affine in screen space and so
 *   exactly interpolated; larger is nearer, 0 = nothing. A sample passes when strictly nearer
 *   than what it holds (the first of two coplanar surfaces drawn keeps the sample).
 * - Both windings are drawn (no back-face culling; view.ts leaves out one of each pair of twin
 *   triangles, see twins.ts).
 * - Optional alpha test (textures with cut-outs, e.g. leaves): a sample is kept only where the
 *   texture's alpha, at the perspective-correct uv, is at least 0.5.
 */
import type { MipLevel } from "./texture.js";
import { sampleAlpha } from "./texture.js";
import { firstAtLeast, lastAtLeast } from "../../media/raster3d.js";

/** Sub-pixel steps per pixel (a multiple of 5, so the 5-rook samples land on the grid). */
export const SUB = 40;
const HALF = SUB / 2;
const INV_SUB = 1 / SUB;

/** Exact ceil(a / SUB) for an integer a (a multiplication, then a correction of the rounding). */
function ceilSub(a: number): number {
  let k = Math.ceil(a * INV_SUB);
  if (k * SUB < a) k++;
  else if ((k - 1) * SUB >= a) k--;
  return k;
}

/** Exact floor(a / SUB) for an integer a. */
function floorSub(a: number): number {
  let k = Math.floor(a * INV_SUB);
  if (k * SUB > a) k--;
  else if ((k + 1) * SUB <= a) k++;
  return k;
}

export interface SamplePattern {
  /** Offsets from the pixel centre in 1/SUB px, x right and y down; sample 0 is the centre. */
  readonly ox: Int32Array;
  readonly oy: Int32Array;
  /** Largest |offset| on either axis. */
  readonly reach: number;
}

function pattern(offsets: ReadonlyArray<readonly [number, number]>): SamplePattern {
  const ox = Int32Array.from(offsets, (o) => o[0]);
  const oy = Int32Array.from(offsets, (o) => o[1]);
  let reach = 0;
  for (let s = 0; s < ox.length; s++) reach = Math.max(reach, Math.abs(ox[s]!), Math.abs(oy[s]!));
  return { ox, oy, reach };
}

/** Centre, then (-0.4, 0.2), (-0.2, -0.4), (0.2, 0.4), (0.4, -0.2) px. */
export const AA_SAMPLES: SamplePattern = pattern([[0, 0], [-16, 8], [-8, -16], [8, 16], [16, -8]]);
export const CENTRE_SAMPLE: SamplePattern = pattern([[0, 0]]);

/** What a covered sample does. */
export const RasterMode = {
  /** Depth test, then write depth and the triangle id. */
  Visibility: 0,
  /** Depth test, then write depth. */
  Depth: 1,
  /** No depth: mark the sample with `stamp` in `ids` and count the samples newly marked. */
  Stamp: 2,
  /** Depth test without writing; `emit(pixel, sampleMask, id)` once per pixel with passing samples. */
  Emit: 3,
} as const;
export type RasterMode = (typeof RasterMode)[keyof typeof RasterMode];

export class SampleRaster {
  readonly width: number;
  readonly height: number;
  readonly samples: SamplePattern;
  readonly count: number;
  /** width * height * count depth keys (1/z), pixel-major. */
  readonly depth: Float32Array;
  /** width * height * count ids (triangle ids or stamps), or null in Depth mode. */
  readonly ids: Uint32Array | null;

  mode: RasterMode = RasterMode.Visibility;
  stamp = 0;
  /** Samples newly marked in Stamp mode since the last reset. */
  stamped = 0;
  emit: ((pixel: number, mask: number, id: number) => void) | null = null;

  // Alpha test of the current triangle: texture and uv per screen corner (set by the caller).
  cut: MipLevel[] | null = null;
  u0 = 0; v0 = 0; u1 = 0; v1 = 0; u2 = 0; v2 = 0;

  /** The triangle being drawn: X0, Y0, Z0, X1, Y1, Z1, X2, Y2, Z2. */
  private readonly corners = new Float64Array(9);
  private readonly dz: Float64Array;
  private readonly c0: Float64Array;
  private readonly c1: Float64Array;
  private readonly c2: Float64Array;

  constructor(width: number, height: number, samples: SamplePattern, depth: Float32Array, ids: Uint32Array | null) {
    this.width = width;
    this.height = height;
    this.samples = samples;
    this.count = samples.ox.length;
    if (depth.length < width * height * this.count) throw new Error("SampleRaster: depth buffer too small");
    if (ids && ids.length < width * height * this.count) throw new Error("SampleRaster: id buffer too small");
    this.depth = depth;
    this.ids = ids;
    this.dz = new Float64Array(this.count);
    this.c0 = new Float64Array(this.count);
    this.c1 = new Float64Array(this.count);
    this.c2 = new Float64Array(this.count);
  }

  /**
   * One triangle: corners in 1/SUB px (integers) with depth keys z = 1/depth. `id` is written
   * to `ids` in Visibility mode and passed to `emit` in Emit mode.
   */
  triangle(
    X0: number, Y0: number, Z0: number,
    X1: number, Y1: number, Z1: number,
    X2: number, Y2: number, Z2: number,
    id: number,
  ): void {
    this.setCorners(X0, Y0, Z0, X1, Y1, Z1, X2, Y2, Z2);
    this.drawGeneral(id);
  }

  private drawGeneral(id: number): void {
    const T = this.corners;
    let X0 = T[0]!, Y0 = T[1]!, Z0 = T[2]!, X1 = T[3]!, Y1 = T[4]!, Z1 = T[5]!, X2 = T[6]!, Y2 = T[7]!, Z2 = T[8]!;
    let area = (X1 - X0) * (Y2 - Y0) - (Y1 - Y0) * (X2 - X0);
    if (area === 0) return;
    let uA = this.u1, vA = this.v1, uB = this.u2, vB = this.v2;
    if (area < 0) {
      let t = X1; X1 = X2; X2 = t;
      t = Y1; Y1 = Y2; Y2 = t;
      t = Z1; Z1 = Z2; Z2 = t;
      t = uA; uA = uB; uB = t;
      t = vA; vA = vB; vB = t;
      area = -area;
    }
    const W = this.width, H = this.height;
    const reach = this.samples.reach;
    const minX = Math.min(X0, X1, X2), maxX = Math.max(X0, X1, X2);
    const minY = Math.min(Y0, Y1, Y2), maxY = Math.max(Y0, Y1, Y2);
    const iMin = Math.max(0, Math.ceil((minX - HALF - reach) / SUB));
    const iMax = Math.min(W - 1, Math.floor((maxX - HALF + reach) / SUB));
    if (iMin > iMax) return;
    const jMin = Math.max(0, Math.ceil((minY - HALF - reach) / SUB));
    const jMax = Math.min(H - 1, Math.floor((maxY - HALF + reach) / SUB));
    if (jMin > jMax) return;

    // Edge a->b: E(P) = (bx - ax)(Py - ay) - (by - ay)(Px - ax) >= 0 inside.
    const dx0 = X1 - X0, dy0 = Y1 - Y0;
    const dx1 = X2 - X1, dy1 = Y2 - Y1;
    const dx2 = X0 - X2, dy2 = Y0 - Y2;
    // Top-left rule: samples exactly on a top or left edge are inside (E >= 0), else E >= 1.
    const t0 = dy0 < 0 || (dy0 === 0 && dx0 > 0) ? 0 : 1;
    const t1 = dy1 < 0 || (dy1 === 0 && dx1 > 0) ? 0 : 1;
    const t2 = dy2 < 0 || (dy2 === 0 && dx2 > 0) ? 0 : 1;

    // Depth plane in 1/SUB px units.
    const zx = ((Z1 - Z0) * (Y2 - Y0) - (Z2 - Z0) * (Y1 - Y0)) / area;
    const zy = ((Z2 - Z0) * (X1 - X0) - (Z1 - Z0) * (X2 - X0)) / area;

    // Per-sample constants: edge offsets and depth offsets from the pixel centre.
    const S = this.count;
    const ox = this.samples.ox, oy = this.samples.oy;
    const c0 = this.c0, c1 = this.c1, c2 = this.c2, dz = this.dz;
    let min0 = 0, max0 = 0, min1 = 0, max1 = 0, min2 = 0, max2 = 0;
    for (let s = 0; s < S; s++) {
      const x = ox[s]!, y = oy[s]!;
      const a = dx0 * y - dy0 * x, b = dx1 * y - dy1 * x, c = dx2 * y - dy2 * x;
      c0[s] = a; c1[s] = b; c2[s] = c;
      dz[s] = zx * x + zy * y;
      if (a < min0) min0 = a; if (a > max0) max0 = a;
      if (b < min1) min1 = b; if (b > max1) max1 = b;
      if (c < min2) min2 = c; if (c > max2) max2 = c;
    }

    // Alpha test: u/z, v/z planes (perspective-correct uv = (u/z) / (1/z)).
    const cut = this.cut;
    let ux = 0, uy = 0, uw0 = 0, vx = 0, vy = 0, vw0 = 0;
    if (cut) {
      const U0 = this.u0 * Z0, U1 = uA * Z1, U2 = uB * Z2;
      const V0 = this.v0 * Z0, V1 = vA * Z1, V2 = vB * Z2;
      ux = ((U1 - U0) * (Y2 - Y0) - (U2 - U0) * (Y1 - Y0)) / area;
      uy = ((U2 - U0) * (X1 - X0) - (U1 - U0) * (X2 - X0)) / area;
      vx = ((V1 - V0) * (Y2 - Y0) - (V2 - V0) * (Y1 - Y0)) / area;
      vy = ((V2 - V0) * (X1 - X0) - (V1 - V0) * (X2 - X0)) / area;
      uw0 = U0; vw0 = V0;
    }

    const s0 = -dy0 * SUB, s1 = -dy1 * SUB, s2 = -dy2 * SUB; // per pixel to the right
    const depth = this.depth, ids = this.ids;
    const mode = this.mode;
    const PX = iMin * SUB + HALF;
    const zStep = zx * SUB;
    const span = iMax - iMin;

    for (let j = jMin; j <= jMax; j++) {
      const PY = j * SUB + HALF;
      const e0 = dx0 * (PY - Y0) - dy0 * (PX - X0);
      const e1 = dx1 * (PY - Y1) - dy1 * (PX - X1);
      const e2 = dx2 * (PY - Y2) - dy2 * (PX - X2);
      // Pixels whose most favourable sample can be inside every edge.
      let kLo = 0, kHi = span;
      if (s0 === 0) { if (e0 + max0 < t0) continue; } else if (s0 > 0) kLo = Math.max(kLo, firstAtLeast(e0 + max0, s0, t0)); else kHi = Math.min(kHi, lastAtLeast(e0 + max0, s0, t0));
      if (s1 === 0) { if (e1 + max1 < t1) continue; } else if (s1 > 0) kLo = Math.max(kLo, firstAtLeast(e1 + max1, s1, t1)); else kHi = Math.min(kHi, lastAtLeast(e1 + max1, s1, t1));
      if (s2 === 0) { if (e2 + max2 < t2) continue; } else if (s2 > 0) kLo = Math.max(kLo, firstAtLeast(e2 + max2, s2, t2)); else kHi = Math.min(kHi, lastAtLeast(e2 + max2, s2, t2));
      if (kLo > kHi) continue;
      const zRow = Z0 + zx * (PX - X0) + zy * (PY - Y0);
      const rowPixel = j * W + iMin;
      for (let k = kLo; k <= kHi; k++) {
        const a0 = e0 + s0 * k, a1 = e1 + s1 * k, a2 = e2 + s2 * k;
        const full = a0 + min0 >= t0 && a1 + min1 >= t1 && a2 + min2 >= t2;
        const z = zRow + zStep * k;
        const pixel = rowPixel + k;
        const base = pixel * S;
        let mask = 0;
        for (let s = 0; s < S; s++) {
          if (!full && (a0 + c0[s]! < t0 || a1 + c1[s]! < t1 || a2 + c2[s]! < t2)) continue;
          const zs = z + dz[s]!;
          const q = base + s;
          if (cut) {
            const X = PX + k * SUB + ox[s]! - X0, Y = PY + oy[s]! - Y0;
            const zAt = Z0 + zx * X + zy * Y;
            if (sampleAlpha(cut, (uw0 + ux * X + uy * Y) / zAt, (vw0 + vx * X + vy * Y) / zAt) < 0.5) continue;
          }
          if (mode === RasterMode.Stamp) {
            if (ids![q] !== this.stamp) {
              ids![q] = this.stamp;
              this.stamped++;
            }
            continue;
          }
          if (!(zs > depth[q]!)) continue;
          if (mode === RasterMode.Visibility) {
            depth[q] = zs;
            ids![q] = id;
          } else if (mode === RasterMode.Depth) {
            depth[q] = zs;
          } else {
            mask |= 1 << s;
          }
        }
        if (mask !== 0) this.emit!(pixel, mask, id);
      }
    }
  }

  /** Which triangle routine serves the current mode, pattern and alpha test (0 generic, 1 AA, 2 centre). */
  routine(): number {
    if (this.cut) return 0;
    if (this.samples === AA_SAMPLES && this.mode === RasterMode.Visibility) return 1;
    if (this.count === 1 && this.samples.ox[0] === 0 && this.samples.oy[0] === 0 && (this.mode === RasterMode.Depth || ((this.mode === RasterMode.Visibility || (this.mode === RasterMode.Stamp && this.stamp !== 0)) && this.ids))) return 2;
    return 0;
  }

  /**
   * Draws with the routine chosen by `routine()` the triangle whose corners (x, y, z key) start at
   * offsets a, b and c of `points`. (Corners go through this.corners, not as nine number
   * arguments, which would be boxed on the heap at every call: millions per view.)
   */
  draw(routine: number, points: Float64Array, a: number, b: number, c: number, id: number): void {
    const T = this.corners;
    T[0] = points[a]!; T[1] = points[a + 1]!; T[2] = points[a + 2]!;
    T[3] = points[b]!; T[4] = points[b + 1]!; T[5] = points[b + 2]!;
    T[6] = points[c]!; T[7] = points[c + 1]!; T[8] = points[c + 2]!;
    if (routine === 1) this.drawAA(id);
    else if (routine === 2) this.drawCentre(id);
    else this.drawGeneral(id);
  }

  private setCorners(X0: number, Y0: number, Z0: number, X1: number, Y1: number, Z1: number, X2: number, Y2: number, Z2: number): void {
    const T = this.corners;
    T[0] = X0; T[1] = Y0; T[2] = Z0; T[3] = X1; T[4] = Y1; T[5] = Z1; T[6] = X2; T[7] = Y2; T[8] = Z2;
  }

  /**
   * Fast path of `triangle` for Visibility mode, AA_SAMPLES and no alpha test (the same coverage
   * and depth, sample for sample). The pattern is point-symmetric: samples 3 and 4 are samples 2
   * and 1 mirrored through the centre, so each edge needs two offsets, A (sample 1) and B (sample 2).
   */
  triangleAA(
    X0: number, Y0: number, Z0: number,
    X1: number, Y1: number, Z1: number,
    X2: number, Y2: number, Z2: number,
    id: number,
  ): void {
    this.setCorners(X0, Y0, Z0, X1, Y1, Z1, X2, Y2, Z2);
    this.drawAA(id);
  }

  private drawAA(id: number): void {
    const T = this.corners;
    let X0 = T[0]!, Y0 = T[1]!, Z0 = T[2]!, X1 = T[3]!, Y1 = T[4]!, Z1 = T[5]!, X2 = T[6]!, Y2 = T[7]!, Z2 = T[8]!;
    let area = (X1 - X0) * (Y2 - Y0) - (Y1 - Y0) * (X2 - X0);
    if (area <= 0) {
      if (area === 0) return;
      let t = X1; X1 = X2; X2 = t;
      t = Y1; Y1 = Y2; Y2 = t;
      t = Z1; Z1 = Z2; Z2 = t;
      area = -area;
    }
    const W = this.width, H = this.height;
    const minX = X0 < X1 ? (X0 < X2 ? X0 : X2) : X1 < X2 ? X1 : X2;
    const maxX = X0 > X1 ? (X0 > X2 ? X0 : X2) : X1 > X2 ? X1 : X2;
    const minY = Y0 < Y1 ? (Y0 < Y2 ? Y0 : Y2) : Y1 < Y2 ? Y1 : Y2;
    const maxY = Y0 > Y1 ? (Y0 > Y2 ? Y0 : Y2) : Y1 > Y2 ? Y1 : Y2;
    // Samples reach 16 sub-steps (0.4 px) from the centre at i * SUB + HALF.
    let iMin = ceilSub(minX - HALF - 16), iMax = floorSub(maxX - HALF + 16);
    if (iMin < 0) iMin = 0;
    if (iMax > W - 1) iMax = W - 1;
    if (iMin > iMax) return;
    let jMin = ceilSub(minY - HALF - 16), jMax = floorSub(maxY - HALF + 16);
    if (jMin < 0) jMin = 0;
    if (jMax > H - 1) jMax = H - 1;
    if (jMin > jMax) return;

    const dx0 = X1 - X0, dy0 = Y1 - Y0;
    const dx1 = X2 - X1, dy1 = Y2 - Y1;
    const dx2 = X0 - X2, dy2 = Y0 - Y2;
    const t0 = dy0 < 0 || (dy0 === 0 && dx0 > 0) ? 0 : 1;
    const t1 = dy1 < 0 || (dy1 === 0 && dx1 > 0) ? 0 : 1;
    const t2 = dy2 < 0 || (dy2 === 0 && dx2 > 0) ? 0 : 1;
    // Sample 1 at (-16, 8), sample 2 at (-8, -16): c = dx * oy - dy * ox.
    const A0 = 8 * dx0 + 16 * dy0, B0 = 8 * dy0 - 16 * dx0;
    const A1 = 8 * dx1 + 16 * dy1, B1 = 8 * dy1 - 16 * dx1;
    const A2 = 8 * dx2 + 16 * dy2, B2 = 8 * dy2 - 16 * dx2;
    const M0 = Math.max(Math.abs(A0), Math.abs(B0)), M1 = Math.max(Math.abs(A1), Math.abs(B1)), M2 = Math.max(Math.abs(A2), Math.abs(B2));
    const zx = ((Z1 - Z0) * (Y2 - Y0) - (Z2 - Z0) * (Y1 - Y0)) / area;
    const zy = ((Z2 - Z0) * (X1 - X0) - (Z1 - Z0) * (X2 - X0)) / area;
    const zA = -16 * zx + 8 * zy, zB = -8 * zx - 16 * zy;

    const s0 = -dy0 * SUB, s1 = -dy1 * SUB, s2 = -dy2 * SUB;
    const depth = this.depth, ids = this.ids!;
    const PX = iMin * SUB + HALF;
    const zStep = zx * SUB;
    const span = iMax - iMin;
    const useSpans = span >= 4;
    for (let j = jMin; j <= jMax; j++) {
      const PY = j * SUB + HALF;
      const e0 = dx0 * (PY - Y0) - dy0 * (PX - X0);
      const e1 = dx1 * (PY - Y1) - dy1 * (PX - X1);
      const e2 = dx2 * (PY - Y2) - dy2 * (PX - X2);
      let kLo = 0, kHi = span;
      if (useSpans) {
        if (s0 === 0) { if (e0 + M0 < t0) continue; } else if (s0 > 0) kLo = Math.max(kLo, firstAtLeast(e0 + M0, s0, t0)); else kHi = Math.min(kHi, lastAtLeast(e0 + M0, s0, t0));
        if (s1 === 0) { if (e1 + M1 < t1) continue; } else if (s1 > 0) kLo = Math.max(kLo, firstAtLeast(e1 + M1, s1, t1)); else kHi = Math.min(kHi, lastAtLeast(e1 + M1, s1, t1));
        if (s2 === 0) { if (e2 + M2 < t2) continue; } else if (s2 > 0) kLo = Math.max(kLo, firstAtLeast(e2 + M2, s2, t2)); else kHi = Math.min(kHi, lastAtLeast(e2 + M2, s2, t2));
      }
      const zRow = Z0 + zx * (PX - X0) + zy * (PY - Y0);
      const rowPixel = j * W + iMin;
      for (let k = kLo; k <= kHi; k++) {
        const a0 = e0 + s0 * k, a1 = e1 + s1 * k, a2 = e2 + s2 * k;
        if (a0 + M0 < t0 || a1 + M1 < t1 || a2 + M2 < t2) continue;
        const z = zRow + zStep * k;
        const q = (rowPixel + k) * 5;
        if (a0 - M0 >= t0 && a1 - M1 >= t1 && a2 - M2 >= t2) {
          if (z > depth[q]!) { depth[q] = z; ids[q] = id; }
          if (z + zA > depth[q + 1]!) { depth[q + 1] = z + zA; ids[q + 1] = id; }
          if (z + zB > depth[q + 2]!) { depth[q + 2] = z + zB; ids[q + 2] = id; }
          if (z - zB > depth[q + 3]!) { depth[q + 3] = z - zB; ids[q + 3] = id; }
          if (z - zA > depth[q + 4]!) { depth[q + 4] = z - zA; ids[q + 4] = id; }
          continue;
        }
        if (a0 >= t0 && a1 >= t1 && a2 >= t2 && z > depth[q]!) { depth[q] = z; ids[q] = id; }
        if (a0 + A0 >= t0 && a1 + A1 >= t1 && a2 + A2 >= t2 && z + zA > depth[q + 1]!) { depth[q + 1] = z + zA; ids[q + 1] = id; }
        if (a0 + B0 >= t0 && a1 + B1 >= t1 && a2 + B2 >= t2 && z + zB > depth[q + 2]!) { depth[q + 2] = z + zB; ids[q + 2] = id; }
        if (a0 - B0 >= t0 && a1 - B1 >= t1 && a2 - B2 >= t2 && z - zB > depth[q + 3]!) { depth[q + 3] = z - zB; ids[q + 3] = id; }
        if (a0 - A0 >= t0 && a1 - A1 >= t1 && a2 - A2 >= t2 && z - zA > depth[q + 4]!) { depth[q + 4] = z - zA; ids[q + 4] = id; }
      }
    }
  }

  /**
   * Fast path of `triangle` for Visibility (ids non-null), Depth, or Stamp mode (ids non-null,
   * stamp > 0) with CENTRE_SAMPLE and no alpha test.
   */
  triangleCentre(
    X0: number, Y0: number, Z0: number,
    X1: number, Y1: number, Z1: number,
    X2: number, Y2: number, Z2: number,
    id: number,
  ): void {
    this.setCorners(X0, Y0, Z0, X1, Y1, Z1, X2, Y2, Z2);
    this.drawCentre(id);
  }

  private drawCentre(id: number): void {
    const T = this.corners;
    let X0 = T[0]!, Y0 = T[1]!, Z0 = T[2]!, X1 = T[3]!, Y1 = T[4]!, Z1 = T[5]!, X2 = T[6]!, Y2 = T[7]!, Z2 = T[8]!;
    let area = (X1 - X0) * (Y2 - Y0) - (Y1 - Y0) * (X2 - X0);
    if (area <= 0) {
      if (area === 0) return;
      let t = X1; X1 = X2; X2 = t;
      t = Y1; Y1 = Y2; Y2 = t;
      t = Z1; Z1 = Z2; Z2 = t;
      area = -area;
    }
    const W = this.width, H = this.height;
    const minX = X0 < X1 ? (X0 < X2 ? X0 : X2) : X1 < X2 ? X1 : X2;
    const maxX = X0 > X1 ? (X0 > X2 ? X0 : X2) : X1 > X2 ? X1 : X2;
    const minY = Y0 < Y1 ? (Y0 < Y2 ? Y0 : Y2) : Y1 < Y2 ? Y1 : Y2;
    const maxY = Y0 > Y1 ? (Y0 > Y2 ? Y0 : Y2) : Y1 > Y2 ? Y1 : Y2;
    let iMin = ceilSub(minX - HALF), iMax = floorSub(maxX - HALF);
    if (iMin < 0) iMin = 0;
    if (iMax > W - 1) iMax = W - 1;
    if (iMin > iMax) return;
    let jMin = ceilSub(minY - HALF), jMax = floorSub(maxY - HALF);
    if (jMin < 0) jMin = 0;
    if (jMax > H - 1) jMax = H - 1;
    if (jMin > jMax) return;
    const dx0 = X1 - X0, dy0 = Y1 - Y0;
    const dx1 = X2 - X1, dy1 = Y2 - Y1;
    const dx2 = X0 - X2, dy2 = Y0 - Y2;
    const t0 = dy0 < 0 || (dy0 === 0 && dx0 > 0) ? 0 : 1;
    const t1 = dy1 < 0 || (dy1 === 0 && dx1 > 0) ? 0 : 1;
    const t2 = dy2 < 0 || (dy2 === 0 && dx2 > 0) ? 0 : 1;
    const zx = ((Z1 - Z0) * (Y2 - Y0) - (Z2 - Z0) * (Y1 - Y0)) / area;
    const zy = ((Z2 - Z0) * (X1 - X0) - (Z1 - Z0) * (X2 - X0)) / area;
    const s0 = -dy0 * SUB, s1 = -dy1 * SUB, s2 = -dy2 * SUB;
    const depth = this.depth, ids = this.ids;
    const PX = iMin * SUB + HALF;
    const zStep = zx * SUB;
    const span = iMax - iMin;
    const useSpans = span >= 4;
    const stamp = this.mode === RasterMode.Stamp ? this.stamp : 0;
    let stamped = 0;
    for (let j = jMin; j <= jMax; j++) {
      const PY = j * SUB + HALF;
      const e0 = dx0 * (PY - Y0) - dy0 * (PX - X0);
      const e1 = dx1 * (PY - Y1) - dy1 * (PX - X1);
      const e2 = dx2 * (PY - Y2) - dy2 * (PX - X2);
      let kLo = 0, kHi = span;
      if (useSpans) {
        if (s0 === 0) { if (e0 < t0) continue; } else if (s0 > 0) kLo = Math.max(kLo, firstAtLeast(e0, s0, t0)); else kHi = Math.min(kHi, lastAtLeast(e0, s0, t0));
        if (s1 === 0) { if (e1 < t1) continue; } else if (s1 > 0) kLo = Math.max(kLo, firstAtLeast(e1, s1, t1)); else kHi = Math.min(kHi, lastAtLeast(e1, s1, t1));
        if (s2 === 0) { if (e2 < t2) continue; } else if (s2 > 0) kLo = Math.max(kLo, firstAtLeast(e2, s2, t2)); else kHi = Math.min(kHi, lastAtLeast(e2, s2, t2));
      }
      const rowPixel = j * W + iMin;
      if (stamp !== 0) {
        // Stamp mode: no depth, count the covered samples not marked yet.
        for (let k = kLo; k <= kHi; k++) {
          if (e0 + s0 * k < t0 || e1 + s1 * k < t1 || e2 + s2 * k < t2) continue;
          const q = rowPixel + k;
          if (ids![q] !== stamp) {
            ids![q] = stamp;
            stamped++;
          }
        }
        continue;
      }
      const zRow = Z0 + zx * (PX - X0) + zy * (PY - Y0);
      for (let k = kLo; k <= kHi; k++) {
        if (e0 + s0 * k < t0 || e1 + s1 * k < t1 || e2 + s2 * k < t2) continue;
        const z = zRow + zStep * k;
        const q = rowPixel + k;
        if (z > depth[q]!) {
          depth[q] = z;
          if (ids) ids[q] = id;
        }
      }
    }
    this.stamped += stamped;
  }
}
