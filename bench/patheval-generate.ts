/**
 * Time to generate the full-size PathEval benchmark on this machine: 1,149 environments x 30 plans
 * (RRT-Connect + shortcut simplification), 5 pairs each, labels, 70 test pairs per scenario, and
 * the 2D + 3D pictures of the test pairs. Target: under 15 minutes on 2 cores.
 *   node --import tsx bench/patheval-generate.ts [environments]
 * Run after `npm run build` with `node bench/...` equivalents, or as is (the worker pool registers tsx).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePathEval } from "../src/benchmarks/patheval/generate.js";
import { DESCRIPTORS } from "../src/benchmarks/patheval/scenarios.js";

const environments = Number(process.argv[2] ?? 1149);
const out = path.join(mkdtempSync(path.join(os.tmpdir(), "patheval-full-")), "set");
const started = performance.now();
try {
  const summary = await generatePathEval({
    outDir: out, seed: 1, environments, log: (line) => process.stderr.write(`${line}\n`),
  });
  const minutes = (performance.now() - started) / 60000;
  console.log(`PathEval generation: ${summary.environments} environments, ${summary.validPaths} paths, ${summary.pairs} pairs, ${summary.test} test / ${summary.train} train questions, ${os.availableParallelism()} cores`);
  console.log(`planning ${summary.seconds.planning.toFixed(1)} s, pictures ${summary.seconds.rendering.toFixed(1)} s, total ${minutes.toFixed(2)} min`);
  console.log(`total / 15 min target: ${(minutes / 15).toFixed(3)}${minutes <= 15 ? " (target met)" : " (TARGET MISSED)"}`);
  console.log("average descriptor differences of the test pairs vs paper Table 10:");
  for (const d of DESCRIPTORS) console.log(`  ${d.padEnd(18)} ${summary.meanDifference[d].toFixed(3)}`);
} finally {
  rmSync(path.dirname(out), { recursive: true, force: true });
}
