import { pearson } from "./pearson.js";

/**
 * Spearman's rank correlation: Pearson's r of the two samples' ranks, tied values sharing the
 * average of the ranks they span (so ties need no special formula; the 1 − 6Σd²/(n(n²−1)) shortcut
 * holds only without ties). Null when Pearson's r is undefined: fewer than 3 values, or every value
 * of a sample tied.
 */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new RangeError(`spearman: samples of different lengths (${x.length} and ${y.length})`);
  return pearson(averageRanks(x), averageRanks(y));
}

/** 1-based ranks in ascending order; a group of equal values gets the mean of its positions. */
export function averageRanks(values: readonly number[]): number[] {
  const bad = values.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new RangeError(`averageRanks: value ${bad} is not a finite number (${values[bad]})`);
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    const rank = (start + end) / 2 + 1; // positions start..end hold ranks start+1..end+1
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = rank;
    start = end + 1;
  }
  return ranks;
}
