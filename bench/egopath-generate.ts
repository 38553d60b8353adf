/**
 * Time and memory of generating EgoPathBench questions at the official settings (1024 x 1024
 * views, up to 12 views per house, up to 10 routes per view), in one process on this machine:
 *
 *   node --import tsx bench/egopath-generate.ts
 *
 * Environment (optional): EGOPATH_BENCH_QUESTIONS (default 1000): houses are added until the set
 * holds at least that many questions (in the benchmark split, so all of them are counted).
 * Prints the houses, views, questions, total time, time per 1,000 questions, its ratio to the
 * issue's 10-minute target, and the peak resident memory against its 2 GB target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateEgoPathRelease } from "../src/benchmarks/egopath/construct/index.js";

const wanted = Number(process.env["EGOPATH_BENCH_QUESTIONS"] ?? 1000);
const root = mkdtempSync(path.join(os.tmpdir(), "egopath-gen-bench-"));
try {
  // A first pass sizes the run: questions per house at these settings.
  let scenes = 4;
  let total = 0;
  let seconds = 0;
  let views = 0;
  for (;;) {
    const t0 = process.hrtime.bigint();
    const result = await generateEgoPathRelease({ outDir: root, seed: 2026, scenes, splits: { train: 0, val: 0, benchmark: 1 } });
    seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    total = Object.values(result.questions.benchmark).reduce((a, b) => a + b, 0);
    views = result.views;
    if (total >= wanted) break;
    scenes = Math.ceil((scenes * wanted * 1.1) / Math.max(total, 1));
  }
  const per1000 = (seconds * 1000) / total;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`houses ${scenes}, views ${views}, questions ${total} at 1024 x 1024`);
  console.log(`last run: ${seconds.toFixed(1)} s; per 1,000 questions ${per1000.toFixed(1)} s = ${(per1000 / 600).toFixed(2)} x the 10-minute target`);
  console.log(`peak RSS of the process: ${rssMb.toFixed(0)} MB = ${(rssMb / 2048).toFixed(2)} x the 2 GB target`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
