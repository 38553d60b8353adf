import { DESCRIPTORS, type Descriptors } from "./scenarios.js";

/**
 * Pair selection (paper §3.2): min-max scale each descriptor over one environment's paths, take
 * Euclidean distances between the scaled vectors, and greedily take the farthest pairs with no
 * path used twice. Differences from the release (generate_samples.build_pairs), both deliberate:
 * - a path is never paired with itself (the release can pair index i with i once the other
 *   candidates run out, or when two paths have identical descriptors);
 * - ties in distance are broken by the flattened index (row-major), so the order is the same on
 *   every machine (the release uses numpy's unstable argsort).
 * Scaling follows sklearn's MinMaxScaler arithmetic (x * scale + offset; a constant column scales
 * by 1), so distances agree with the release bit for bit.
 */
export function minMaxScale(rows: ReadonlyArray<ReadonlyArray<number>>): number[][] {
  if (rows.length === 0) return [];
  const width = rows[0]!.length;
  const scale: number[] = [];
  const offset: number[] = [];
  for (let j = 0; j < width; j++) {
    let lo = Infinity, hi = -Infinity;
    for (const row of rows) { lo = Math.min(lo, row[j]!); hi = Math.max(hi, row[j]!); }
    const range = hi - lo;
    scale[j] = 1 / (range === 0 ? 1 : range);
    offset[j] = 0 - lo * scale[j]!;
  }
  return rows.map((row) => row.map((v, j) => v * scale[j]! + offset[j]!));
}

function euclidean(a: ReadonlyArray<number>, b: ReadonlyArray<number>): number {
  let sum = 0;
  for (let j = 0; j < a.length; j++) sum += (a[j]! - b[j]!) * (a[j]! - b[j]!);
  return Math.sqrt(sum);
}

export function descriptorVector(d: Descriptors): number[] {
  return DESCRIPTORS.map((name) => d[name]);
}

/** Indices [path 1, path 2] of up to `count` pairs, farthest first, no path used twice. */
export function farthestPairs(descriptorsOfPaths: ReadonlyArray<Descriptors>, count: number): Array<[number, number]> {
  const n = descriptorsOfPaths.length;
  const scaled = minMaxScale(descriptorsOfPaths.map(descriptorVector));
  const candidates: Array<{ d: number; r: number; c: number }> = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (r !== c) candidates.push({ d: euclidean(scaled[r]!, scaled[c]!), r, c });
  candidates.sort((x, y) => y.d - x.d || x.r * n + x.c - (y.r * n + y.c));
  const used = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const { r, c } of candidates) {
    if (pairs.length >= count) break;
    if (used.has(r) || used.has(c)) continue;
    used.add(r);
    used.add(c);
    pairs.push([r, c]);
  }
  return pairs;
}
