import { createRng } from "./rng.js";

export type Interval = [number, number];

/**
 * Cluster bootstrap: resample whole clusters (e.g. scenes) with replacement, recompute every
 * statistic from the summed per-cluster vectors, and report the 2.5/97.5 percentiles.
 * `clusterVectors[c]` holds cluster c's sufficient statistics (counts and sums); `statistics`
 * maps a summed vector to named values (NaN = undefined for that resample, skipped).
 */
export function clusterBootstrap(
  clusterVectors: Float64Array[],
  statistics: (sum: Float64Array) => Record<string, number>,
  options: { resamples: number; seed: number; level?: number },
): Record<string, Interval> {
  const k = clusterVectors.length;
  if (k === 0) return {};
  const width = clusterVectors[0]!.length;
  const rng = createRng(options.seed);
  const draws: Record<string, number[]> = {};
  const sum = new Float64Array(width);
  for (let r = 0; r < options.resamples; r++) {
    sum.fill(0);
    for (let i = 0; i < k; i++) {
      const v = clusterVectors[rng.below(k)]!;
      for (let j = 0; j < width; j++) sum[j]! += v[j]!;
    }
    for (const [name, value] of Object.entries(statistics(sum))) {
      if (!Number.isNaN(value)) (draws[name] ??= []).push(value);
    }
  }
  const alpha = (1 - (options.level ?? 0.95)) / 2;
  const out: Record<string, Interval> = {};
  for (const [name, values] of Object.entries(draws)) {
    values.sort((a, b) => a - b);
    out[name] = [quantile(values, alpha), quantile(values, 1 - alpha)];
  }
  return out;
}

/** Linear-interpolation quantile of sorted values, computed as numpy's default method does. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const t = pos - lo;
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)]!;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}
