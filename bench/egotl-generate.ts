/**
 * Time and memory of generating a 100-clip EgoTL-Bench set (issue 12's performance item) in one
 * process on this machine:
 *
 *   node --import tsx bench/egotl-generate.ts
 *
 * Environment (optional): EGOTL_BENCH_CLIPS (default 100): test questions on clips (next action,
 * action recognition, direction, distance) wanted; houses are added until the set holds that many.
 * Prints the houses, rendered episodes and frames, questions, the time and its ratio to the
 * issue's 10-minute target, and the peak resident memory against its 2 GB target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateEgoTLRelease } from "../src/benchmarks/egotl/construct/index.js";

const wanted = Number(process.env["EGOTL_BENCH_CLIPS"] ?? 100);
const root = mkdtempSync(path.join(os.tmpdir(), "egotl-gen-bench-"));
const CLIP_TASKS = ["next_action", "action_recognition", "direction", "distance"] as const;
try {
  // One run: a few houses of three episodes give about 25 clip questions per task (next action and
  // action recognition are the scarce ones, about 1.5 and 1 per episode).
  const houses = Number(process.env["EGOTL_BENCH_HOUSES"] ?? 6);
  const t0 = process.hrtime.bigint();
  const result = await generateEgoTLRelease({ outDir: path.join(root, "set"), seed: 2026, houses, trainHouses: 0, episodesPerHouse: 3, perTask: Math.ceil(wanted / CLIP_TASKS.length) });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const clips = CLIP_TASKS.reduce((a, t) => a + result.questions.test[t], 0);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`houses ${houses}, episodes rendered ${result.episodes.rendered}, frames ${result.frames}, clip questions ${clips} (wanted ${wanted}), all questions ${Object.values(result.questions.test).reduce((a, b) => a + b, 0)}`);
  console.log(`time ${seconds.toFixed(1)} s = ${(seconds / 600).toFixed(2)} x the 10-minute target`);
  console.log(`peak RSS of the process: ${rssMb.toFixed(0)} MB = ${(rssMb / 2048).toFixed(2)} x the 2 GB target`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
