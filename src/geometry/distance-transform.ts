/**
 * Exact Euclidean distances on binary masks.
 *
 * Pixels are points at their integer indices (x = column, y = row), as in the official EPIC-Bench
 * path scorer (`epic_eval/scorers/metrics/path.py`), which measures `sqrt((xs - px)^2 + (ys - py)^2)`
 * over the indices returned by `np.where(mask > 0)`.
 *
 * - `squaredDistanceToMask` / `distanceToMask`: for every pixel, the (squared) distance to the
 *   nearest set pixel (0 on the mask), by the Felzenszwalb-Huttenlocher lower-envelope method in two
 *   separable passes, O(W·H). Squared distances are exact integers.
 * - `pointToRegionDistance`: the official `_point_to_mask_min_distance` for a continuous point.
 * - `regionToRegionMinDistance`: the exact minimum distance between the pixels of two masks. The
 *   official `_mask_to_mask_min_distance` subsamples each mask to 1,000 random pixels (unseeded)
 *   when it is larger, so it can only overestimate this value; with masks of at most 1,000 pixels
 *   each the two agree exactly.
 */
import { BitMask, roundHalfEven } from "./mask.js";

/**
 * For every pixel (row-major, index y * width + x) the squared Euclidean distance to the nearest
 * set pixel: 0 on the mask, an integer elsewhere, Infinity everywhere when the mask is empty.
 */
export function squaredDistanceToMask(mask: BitMask): Float64Array {
  const { width: W, height: H, stride, words } = mask;
  const out = new Float64Array(W * H);
  if (W === 0 || H === 0) return out;
  // Pass 1, along columns: distance to the nearest set pixel in the same column, NONE when the
  // column has none. Two sweeps over whole rows (down, then up) so memory is read in order.
  const NONE = 0x40000000; // stays >= NONE after adding at most H - 1
  const g = new Int32Array(W * H);
  for (let y = 0; y < H; y++) {
    const row = y * stride;
    const base = y * W;
    const above = y === 0 ? -1 : base - W;
    for (let wi = 0; wi < stride; wi++) {
      const bits = words[row + wi]!;
      const x0 = wi << 5;
      const x1 = Math.min(W, x0 + 32);
      if (bits === 0) {
        if (above < 0) g.fill(NONE, base + x0, base + x1);
        else for (let x = x0; x < x1; x++) g[base + x] = g[above + x]! + 1;
        continue;
      }
      for (let x = x0; x < x1; x++) {
        g[base + x] = (bits >>> (x & 31)) & 1 ? 0 : above < 0 ? NONE : g[above + x]! + 1;
      }
    }
  }
  for (let y = H - 2; y >= 0; y--) {
    const base = y * W;
    const below = base + W;
    for (let x = 0; x < W; x++) {
      const d = g[below + x]! + 1;
      if (d < g[base + x]!) g[base + x] = d;
    }
  }
  // Pass 2, along rows: lower envelope of the parabolas (x - q)^2 + g(q)^2 over the columns that
  // have a set pixel. Values are exact integers. A breakpoint s = n / d is one correctly rounded
  // division of exact integers (|n| <= W^2 + H^2, 0 < d < 2W): equal fractions give equal doubles,
  // and two distinct ones n1/d1, n2/d2 differ by at least 1/(d1 d2), more than their rounding errors
  // (at most (W^2 + H^2)(1/d1 + 1/d2) 2^-53) as long as (W^2 + H^2) 4W < 2^53, i.e. for sides up
  // to about 100,000 pixels. So every comparison (s <= z[k], z[k + 1] < q) has its exact-arithmetic
  // outcome, and the squared distances are exact.
  const f = new Float64Array(W);
  const v = new Int32Array(W);
  const z = new Float64Array(W + 1);
  for (let y = 0; y < H; y++) {
    const base = y * W;
    let k = -1; // index of the last parabola of the envelope
    for (let q = 0; q < W; q++) {
      const gq = g[base + q]!;
      if (gq >= NONE) continue; // no set pixel in this column
      const fq = gq * gq;
      f[q] = fq;
      if (k < 0) {
        k = 0;
        v[0] = q;
        z[0] = -Infinity;
        z[1] = Infinity;
        continue;
      }
      let s: number;
      for (;;) {
        const p = v[k]!;
        s = (fq + q * q - (f[p]! + p * p)) / (2 * (q - p));
        if (s <= z[k]!) k--;
        else break;
      }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = Infinity;
    }
    if (k < 0) {
      out.fill(Infinity, base, base + W); // only when the mask is empty
      continue;
    }
    k = 0;
    for (let q = 0; q < W; q++) {
      while (z[k + 1]! < q) k++;
      const p = v[k]!;
      const dq = q - p;
      out[base + q] = dq * dq + f[p]!;
    }
  }
  return out;
}

/** For every pixel the Euclidean distance to the nearest set pixel (0 on the mask; Infinity if the mask is empty). */
export function distanceToMask(mask: BitMask): Float64Array {
  const d = squaredDistanceToMask(mask);
  for (let i = 0; i < d.length; i++) d[i] = Math.sqrt(d[i]!);
  return d;
}

/** Largest set column <= x in the row starting at word `row`, or -1. */
function prevSetBit(words: Uint32Array, row: number, x: number): number {
  let wi = x >>> 5;
  let v = words[row + wi]! & (-1 >>> (31 - (x & 31)));
  for (;;) {
    if (v !== 0) return (wi << 5) + 31 - Math.clz32(v);
    if (--wi < 0) return -1;
    v = words[row + wi]!;
  }
}

/** Smallest set column >= x in the row starting at word `row` (of `stride` words), or -1. */
function nextSetBit(words: Uint32Array, row: number, stride: number, x: number): number {
  let wi = x >>> 5;
  let v = words[row + wi]! & (-1 << (x & 31));
  for (;;) {
    if (v !== 0) return (wi << 5) + 31 - Math.clz32(v & -v);
    if (++wi >= stride) return -1;
    v = words[row + wi]!;
  }
}

/**
 * Distance from the point (x, y) (continuous pixel coordinates: x = column, y = row) to a mask, as
 * the official `_point_to_mask_min_distance`:
 * - Infinity for an empty mask;
 * - 0 when the pixel at row round(y), column round(x) (Python round, ties to even) is set;
 * - otherwise the minimum over set pixels (i, j) of sqrt((i - x)^2 + (j - y)^2), computed with the
 *   same floating-point operations, so the result is bit-identical (it can be below 0.5 when the
 *   rounded pixel is not set but a neighbour is).
 * Throws on non-finite coordinates (the official code raises on them).
 * Cost: one pass over the rows near the point, O(H · W / 32) in the worst case.
 */
export function pointToRegionDistance(mask: BitMask, x: number, y: number): number {
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`point (${x}, ${y}) is not finite`);
  const { width: W, height: H, stride, words } = mask;
  if (W === 0 || H === 0) return Infinity;
  if (mask.containsPoint(x, y)) return 0;
  // Columns to search from: the nearest set pixel at or left of floor(x), at or right of ceil(x).
  const left = Math.min(W - 1, Math.floor(x));
  const right = Math.max(0, Math.ceil(x));
  let best = Infinity; // squared distance, as dx * dx + dy * dy
  const rowDist = (r: number): void => {
    const row = r * stride;
    const dy = r - y;
    const dy2 = dy * dy;
    if (left >= 0) {
      const c = prevSetBit(words, row, left);
      if (c >= 0) {
        const dx = c - x;
        const d = dx * dx + dy2;
        if (d < best) best = d;
      }
    }
    if (right < W) {
      const c = nextSetBit(words, row, stride, right);
      if (c >= 0) {
        const dx = c - x;
        const d = dx * dx + dy2;
        if (d < best) best = d;
      }
    }
  };
  // Rows outward from the nearest row; stop in each direction once dy^2 alone is no better.
  const r0 = Math.min(H - 1, Math.max(0, roundHalfEven(y)));
  for (let r = r0; r >= 0; r--) {
    const dy = r - y;
    if (dy * dy > best) break;
    rowDist(r);
  }
  for (let r = r0 + 1; r < H; r++) {
    const dy = r - y;
    if (dy * dy > best) break;
    rowDist(r);
  }
  return Math.sqrt(best);
}

/**
 * The exact minimum squared distance between a set pixel of `a` and a set pixel of `b`: 0 when they
 * overlap, Infinity when either is empty. Throws when the shapes differ. O(W·H); the distance
 * transform runs on the box around both masks only.
 */
export function regionToRegionMinSquaredDistance(a: BitMask, b: BitMask): number {
  if (!a.sameShape(b)) throw new RangeError(`mask shapes differ (${a.width}x${a.height} vs ${b.width}x${b.height})`);
  const wa = a.words;
  const wb = b.words;
  let aEmpty = true;
  let bEmpty = true;
  for (let i = 0; i < wa.length; i++) {
    const p = wa[i]!;
    const q = wb[i]!;
    if ((p & q) !== 0) return 0;
    if (p !== 0) aEmpty = false;
    if (q !== 0) bEmpty = false;
  }
  if (aEmpty || bEmpty) return Infinity;
  // Every pixel of both masks lies in the box around their union, so the distance field of `field`
  // computed on that box alone is exact for the pixels of `scan`.
  const [field, scan] = a.count() <= b.count() ? [b, a] : [a, b];
  const fb = field.bounds()!;
  const sb = scan.bounds()!;
  const x0 = Math.min(fb[0], sb[0]);
  const y0 = Math.min(fb[1], sb[1]);
  const cw = Math.max(fb[2], sb[2]) - x0;
  const ch = Math.max(fb[3], sb[3]) - y0;
  let cropped = field;
  if (cw !== field.width || ch !== field.height) {
    cropped = new BitMask(cw, ch);
    field.forEachRun((y, x1, x2) => cropped.fillBox(x1 - x0, y - y0, x2 - x0, y - y0 + 1));
  }
  const d2 = squaredDistanceToMask(cropped);
  let best = Infinity;
  scan.forEachPixel((x, y) => {
    const d = d2[(y - y0) * cw + (x - x0)]!;
    if (d < best) best = d;
  });
  return best;
}

/**
 * The exact minimum Euclidean distance between a set pixel of `a` and a set pixel of `b` (pixel
 * indices as points): 0 when they overlap, Infinity when either is empty. Throws when the shapes
 * differ. Equals the official `_mask_to_mask_min_distance` without its random subsampling.
 */
export function regionToRegionMinDistance(a: BitMask, b: BitMask): number {
  return Math.sqrt(regionToRegionMinSquaredDistance(a, b));
}
