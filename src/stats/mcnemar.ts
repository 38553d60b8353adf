/**
 * McNemar's exact test for two classifiers scored on the same items: under the null hypothesis
 * the discordant pairs (only A right: b, only B right: c) split as Binomial(b + c, 1/2). The
 * two-sided p is twice the smaller tail, capped at 1 (the conventional exact McNemar p).
 */

/** log(k!) for k = 0..n, by running sums. */
function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) out[k] = out[k - 1]! + Math.log(k);
  return out;
}

/** Exact for n up to here (integer binomial coefficients); above it, summed in log space. */
const EXACT_UP_TO = 5000;

/** sum_{i<=k} C(n, i) / 2^n from exact integer coefficients, rounded once to a double. */
function exactLowerTail(k: number, n: number): number {
  let coefficient = 1n;
  let sum = 1n;
  for (let i = 0; i < k; i++) {
    coefficient = (coefficient * BigInt(n - i)) / BigInt(i + 1);
    sum += coefficient;
  }
  // sum / 2^n: keep the top 60 bits of sum, then scale by a power of two (exact in a double).
  const shift = Math.max(0, sum.toString(2).length - 60);
  return Number(sum >> BigInt(shift)) * 2 ** (shift - n);
}

/** sum_{i<=k} C(n, i) / 2^n in log space (large n: neither overflows nor underflows early). */
function logLowerTail(k: number, n: number): number {
  const lf = logFactorials(n);
  const logHalfN = -n * Math.LN2;
  const logs: number[] = [];
  for (let i = 0; i <= k; i++) logs.push(lf[n]! - lf[i]! - lf[n - i]! + logHalfN);
  const top = logs.reduce((a, b) => Math.max(a, b)); // not Math.max(...logs): k + 1 arguments overflow the stack for large n
  return Math.exp(top) * logs.reduce((sum, l) => sum + Math.exp(l - top), 0);
}

/** P(X <= k) for X ~ Binomial(n, 1/2). */
export function binomialHalfLowerTail(k: number, n: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 0) throw new RangeError("k and n must be integers, n >= 0");
  if (k < 0) return 0;
  if (k >= n) return 1;
  return Math.min(1, n <= EXACT_UP_TO ? exactLowerTail(k, n) : logLowerTail(k, n));
}

export interface McNemarResult {
  /** Items only A got right, only B got right. */
  onlyA: number;
  onlyB: number;
  /** Two-sided exact p (1 when there are no discordant pairs). */
  p: number;
}

/** The exact two-sided McNemar test on the discordant counts. */
export function mcnemarExact(onlyA: number, onlyB: number): McNemarResult {
  if (!Number.isInteger(onlyA) || !Number.isInteger(onlyB) || onlyA < 0 || onlyB < 0) throw new RangeError("counts must be non-negative integers");
  const n = onlyA + onlyB;
  const p = n === 0 ? 1 : Math.min(1, 2 * binomialHalfLowerTail(Math.min(onlyA, onlyB), n));
  return { onlyA, onlyB, p };
}
