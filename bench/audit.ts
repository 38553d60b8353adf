/**
 * How long `audit` takes on 10,000 items (issue 26: under 5 minutes on this 2-core machine), and
 * our forest against ml-random-forest (the maintained npm library) on the same rows.
 *
 *   node --import tsx bench/audit.ts [benchmark=egotl] [items=10000]
 *
 * The set is the benchmark's bundled example (examples/<id>-mini) repeated to the item count,
 * each copy under its own id (a copy's answers are its original's, so the forest sees repeated
 * rows; the work per row is the same). Timed in one process: units (no cues), the k-fold audit
 * with every blind rule and TsT, 500 bootstrap resamples for the intervals. Then, on 2,000 rows of
 * one task's TsT feature table, both forests are fitted with 10 trees of depth 10, and the ratio
 * of their times is printed (ml-random-forest's CART split search is quadratic in a node's rows).
 *
 * Measured 2026-12-06 on the 2-core build machine, quiet: egopath 10,000 questions (0.55 M option
 * rows) 123.0 s in all (units 2.0 s), 0.41x of the 5-minute target; forest fit 0.2 s against
 * ml-random-forest's 8.0 s (46x).
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { RandomForestRegression } from "ml-random-forest";
import { auditUnits } from "../src/audit/audit.js";
import { featureTable } from "../src/audit/features.js";
import { fitForest } from "../src/audit/forest.js";
import type { BenchItem } from "../src/core/benchmark.js";
import { getBenchmark } from "../src/registry.js";
import { REPO_ROOT, table } from "./lib/common.js";

const id = process.argv[2] ?? "egotl";
const target = Number(process.argv[3] ?? 10_000);
const benchmark = getBenchmark(id);
if (!benchmark.audit) throw new Error(`${id} has no audit`);
const data = path.join(REPO_ROOT, "examples", `${id}-mini`);
const loaded = benchmark.load(data, undefined, {});
if (loaded.problems.length > 0 || loaded.items.length === 0) throw new Error(`${data}: ${loaded.problems.length} problems, ${loaded.items.length} items`);

const copies = Math.ceil(target / loaded.items.length);
const items: BenchItem[] = [];
for (let k = 0; k < copies && items.length < target; k++) {
  for (const item of loaded.items) if (items.length < target) items.push({ ...item, id: k === 0 ? item.id : `${item.id}~copy${k}`, cluster: `${item.cluster}~${k % 50}` });
}

const t0 = performance.now();
const units = await benchmark.audit.units(items, { root: data, cues: false });
const t1 = performance.now();
const result = auditUnits(benchmark, items, units, { folds: 5, seed: 26, bootstrap: 500 });
const t2 = performance.now();
const seconds = (ms: number) => (ms / 1000).toFixed(1);
console.log(`audit ${id}: ${items.length} items (${loaded.items.length} distinct), ${Object.keys(result.document.tasks).length} tasks`);
console.log(table(["stage", "seconds"], [["units (no cues)", seconds(t1 - t0)], ["rules + TsT + scoring (5 folds, 500 resamples)", seconds(t2 - t1)], ["total", seconds(t2 - t0)]]));
console.log(`within the 5-minute target: ${(t2 - t0) / 1000 <= 300 ? "yes" : "NO"} (${((t2 - t0) / 1000 / 300).toFixed(2)}x of 300 s)`);

// Forest against ml-random-forest on one task's rows.
const byTask = new Map<string, typeof units>();
for (const u of units) byTask.set(u.task, [...(byTask.get(u.task) ?? []), u]);
const [task, taskUnits] = [...byTask].sort((a, b) => b[1].length - a[1].length)[0]!;
const rows = featureTable(taskUnits, "text");
const n = Math.min(2000, rows.rows);
// The table's bin codes as numbers: both forests get the same values.
const x = Array.from({ length: n }, (_, r) => rows.codes.map((column) => column[r]!));
const y = rows.owner.slice(0, n).map((o) => {
  const form = taskUnits[o.unit]!.answer;
  return form.kind === "number" ? form.truth : form.candidates[o.candidate]!.label;
});
const a = performance.now();
fitForest(x, y, { trees: 10, maxDepth: 10, seed: 1 });
const b = performance.now();
new RandomForestRegression({ nEstimators: 10, maxFeatures: 0.33, seed: 1, noOOB: true, replacement: true, useSampleBagging: true, treeOptions: { maxDepth: 10, minNumSamples: 3 } }).train(x, y);
const c = performance.now();
console.log(`\nforest fit on ${n} rows x ${rows.columns.length} columns of ${task}: ours ${seconds(b - a)} s, ml-random-forest ${seconds(c - b)} s; ratio ${((c - b) / (b - a)).toFixed(1)}x in our favour`);
