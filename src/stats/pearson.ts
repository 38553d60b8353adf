/**
 * Pearson's correlation coefficient of two equal-length samples (VCN-Bench §6.3 and Fig. 7
 * correlate per-episode success with the prior video's frames, rooms and area):
 *
 *   r = Σ (x_i − x̄)(y_i − ȳ) / sqrt(Σ (x_i − x̄)² · Σ (y_i − ȳ)²)
 *
 * computed in two passes (means first, then centred sums), which keeps the rounding error small
 * when the values sit far from zero. r is undefined, and null is returned, when either sample is
 * constant (a zero denominator; tested by equality of the values, not by a rounded sum) or has
 * fewer than 3 values (two points always lie on a line). The result is clamped to [−1, 1], which
 * rounding could otherwise leave by one unit in the last place.
 */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new RangeError(`pearson: samples of different lengths (${x.length} and ${y.length})`);
  for (const [name, sample] of [["x", x], ["y", y]] as const) {
    const bad = sample.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new RangeError(`pearson: ${name}[${bad}] is not a finite number (${sample[bad]})`);
  }
  const n = x.length;
  if (n < 3 || isConstant(x) || isConstant(y)) return null;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  const r = sxy / Math.sqrt(sxx * syy);
  return Math.max(-1, Math.min(1, r));
}

function isConstant(values: readonly number[]): boolean {
  return values.every((v) => v === values[0]);
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
