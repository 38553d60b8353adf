/**
 * Mean relative accuracy (MRA), computed bit for bit as VSI-Bench's official code does
 * (GitHub vision-x-nyu/thinking-in-space, lmms_eval/tasks/vsibench/utils.py,
 * `mean_relative_accuracy(pred, target, start=.5, end=.95, interval=.05)`):
 *
 *   num_pts = (end - start) / interval + 2          # 10.999999999999998 in float64
 *   conf_intervs = np.linspace(start, end, int(num_pts))   # 10 thresholds
 *   accuracy = abs(pred - target) / target <= 1 - conf_intervs
 *   return accuracy.mean()
 *
 * The thresholds are numpy's linspace values, not the decimal literals: the ninth is
 * 0.8999999999999999, so `1 - θ` is 0.10000000000000009 and 1.1 against 1.0 passes at "0.9"
 * (abs(1.1 - 1.0) is also 0.10000000000000009). The mean of ten booleans is k / 10 in float64.
 *
 * The EgoTL paper's Eq. 4 writes the comparison strictly (|pred - gt| / gt < 1 - θ); the
 * `comparison` argument "below" computes that, where VSI-Bench's code (the default, "at-most")
 * uses <=. They differ only where the relative error equals a tolerance as float64 computes it:
 * 1.5 against 1.0 is 0.1 at-most and 0 below; 1.1 against 1.0 is 0.9 and 0.8.
 *
 * Ground truth 0: the official code raises ZeroDivisionError. Ours (documented in scores.json):
 * 1 when the prediction is exactly 0 (no movement, as EgoTL's "0 if no movement" contract asks),
 * else 0. A NaN prediction scores 0 (every comparison with NaN is false, as in numpy).
 */

/** numpy.linspace(start, stop, num) with endpoint=True in float64, in numpy's operation order. */
export function linspace(start: number, stop: number, num: number): number[] {
  if (!Number.isInteger(num) || num < 0) throw new RangeError(`linspace: num must be a non-negative integer, got ${num}`);
  const div = num - 1;
  const delta = stop - start;
  const out: number[] = [];
  if (num === 0) return out;
  const step = div > 0 ? delta / div : NaN;
  for (let i = 0; i < num; i++) {
    // numpy: y = arange(num) * step (or (y / div) * delta when step == 0), then y += start.
    const y = step === 0 ? (i / div) * delta : div > 0 ? i * step : i * delta;
    out.push(y + start);
  }
  if (num > 1) out[num - 1] = stop;
  return out;
}

export const MRA_START = 0.5;
export const MRA_END = 0.95;
export const MRA_INTERVAL = 0.05;

/** The official point count: Python's int() truncates (0.95 - 0.5) / 0.05 + 2 = 10.999999999999998 to 10. */
export const MRA_THRESHOLDS: readonly number[] = Object.freeze(linspace(MRA_START, MRA_END, Math.trunc((MRA_END - MRA_START) / MRA_INTERVAL + 2)));

/** `1 - conf_intervs` as numpy computes it, once. */
const TOLERANCES: readonly number[] = Object.freeze(MRA_THRESHOLDS.map((t) => 1 - t));

/** How the relative error meets each tolerance: VSI-Bench's code (<=) or the EgoTL paper's Eq. 4 (<). */
export type MraComparison = "at-most" | "below";

/**
 * MRA of one numeric prediction against the truth: the fraction of the ten thresholds θ for which
 * |pred - gt| / gt <= 1 - θ (or < with "below"). `truth` 0 follows the rule above (the official
 * code divides by zero).
 */
export function mra(prediction: number, truth: number, comparison: MraComparison = "at-most"): number {
  if (truth === 0) return prediction === 0 ? 1 : 0;
  const relative = Math.abs(prediction - truth) / truth;
  let k = 0;
  for (const tolerance of TOLERANCES) if (comparison === "below" ? relative < tolerance : relative <= tolerance) k++;
  return k / TOLERANCES.length;
}
