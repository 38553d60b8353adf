/**
 * Time and memory of generating a 100-clip EgoTL-Bench set (issue 12's performance item) in one
 * process on this machine:
 *
 *   node --import tsx bench/egotl-generate.ts
 *
 * Environment (optional): EGOTL_BENCH_HOUSES (default 3) houses of three episodes each, and
 * EGOTL_BENCH_PER_TASK (default 40) the most questions per task. Clips of walks and turns are
 * plentiful (several per episode), manipulation clips scarce (one or two per episode), so 3 houses
 * give about 100 clip questions (next action, action recognition, direction, distance), most of
 * them direction and distance. Prints the houses, rendered episodes and frames, the questions per
 * task, the time and its ratio to the issue's 10-minute target, and the peak resident memory
 * against its 2 GB target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateEgoTLRelease } from "../src/benchmarks/egotl/construct/index.js";

const root = mkdtempSync(path.join(os.tmpdir(), "egotl-gen-bench-"));
const CLIP_TASKS = ["next_action", "action_recognition", "direction", "distance"] as const;
try {
  const houses = Number(process.env["EGOTL_BENCH_HOUSES"] ?? 3);
  const perTask = Number(process.env["EGOTL_BENCH_PER_TASK"] ?? 40);
  const t0 = process.hrtime.bigint();
  const result = await generateEgoTLRelease({ outDir: path.join(root, "set"), seed: 2026, houses, trainHouses: 0, episodesPerHouse: 3, perTask });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const clips = CLIP_TASKS.reduce((a, t) => a + result.questions.test[t], 0);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  const perTaskText = Object.entries(result.questions.test).map(([t, n]) => `${t} ${n}`).join(", ");
  console.log(`houses ${houses}, episodes rendered ${result.episodes.rendered}, frames ${result.frames}, clip questions ${clips}, all questions ${Object.values(result.questions.test).reduce((a, b) => a + b, 0)} (${perTaskText})`);
  console.log(`time ${seconds.toFixed(1)} s = ${(seconds / 600).toFixed(2)} x the 10-minute target`);
  console.log(`peak RSS of the process: ${rssMb.toFixed(0)} MB = ${(rssMb / 2048).toFixed(2)} x the 2 GB target`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
