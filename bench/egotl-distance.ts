/**
 * Issue 29's distance gate without rendering: plans EgoTL-Bench sets (houses, episodes and the
 * per-task selection, exactly as `generate egotl` does, but no frames) and prints, for the
 * selected distance questions, the best constant reply's MRA (any constant: the gate is 0.20) and
 * the MRA of the span rule (the median metres per frame times the clip's frames, fitted on the
 * same set: what the audit's distance-by-span rule does with folds).
 *
 *   node --import tsx bench/egotl-distance.ts [HOUSES] [SEED...]   (default 20 houses, seeds 51 52)
 */
import { egoTLShared, planEgoTLRelease } from "../src/benchmarks/egotl/construct/index.js";
import type { EgoTLRow } from "../src/benchmarks/egotl/schema.js";
import { mra } from "../src/stats/mra.js";

const houses = Number(process.argv[2] ?? 20);
const seeds = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [51, 52];
const meanMra = (replies: readonly number[], truths: readonly number[]) => truths.reduce((s, d, k) => s + mra(replies[k]!, d), 0) / truths.length;

/** The constant with the highest MRA, searched on a 0.5% grid from 5 cm to 20 m. */
function bestConstant(truths: readonly number[]): { value: number; score: number } {
  let best = { value: 0, score: 0 };
  for (let c = 0.05; c < 20; c *= 1.005) {
    const score = meanMra(truths.map(() => c), truths);
    if (score > best.score) best = { value: c, score };
  }
  return best;
}

const shared = egoTLShared();
try {
  for (const seed of seeds) {
    const t0 = process.hrtime.bigint();
    const planned = await planEgoTLRelease({ outDir: "unused", seed, houses, trainHouses: 0, episodesPerHouse: 3 }, shared, false);
    const rows = planned.testRows.filter((r): r is EgoTLRow & { answer: number } => r.task === "distance" && typeof r.answer === "number");
    const truths = rows.map((r) => r.answer);
    const frames = rows.map((r) => (r.media && "span" in r.media && r.media.span ? r.media.span.last_frame - r.media.span.first_frame + 1 : 0));
    const rates = truths.map((d, k) => d / frames[k]!).sort((a, b) => a - b);
    const rate = rates[Math.floor(rates.length / 2)] ?? 0;
    const constant = bestConstant(truths);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`seed ${seed}, ${houses} houses (${seconds.toFixed(0)} s): ${rows.length} distance questions, ${Math.min(...truths)}-${Math.max(...truths)} m`);
    console.log(`  best constant ${constant.value.toFixed(2)} m: MRA ${constant.score.toFixed(3)} = ${(constant.score / 0.2).toFixed(2)}x the gate's 0.20`);
    console.log(`  span rule (${rate.toFixed(4)} m per frame x frames): MRA ${meanMra(frames.map((f) => rate * f), truths).toFixed(3)}`);
  }
} finally {
  shared.close();
}
