/**
 * Time and memory of generating a 20-episode VCN-Bench set with its tour videos (default
 * settings: 384 x 384 frames at 1 fps, floors of 24-30 rooms, one tour per house), in one process
 * on this machine:
 *
 *   node --import tsx bench/vcn-generate.ts
 *
 * Environment (optional): VCN_BENCH_EPISODES (default 20), VCN_BENCH_SEED (default 2026).
 * Prints the generator's summary, the wall time and its ratio to the 10-minute target of 20
 * episodes, the pace per episode against issue 28's (250 episodes in 30 minutes: 7.2 s each; run
 * with VCN_BENCH_EPISODES=250 for the whole figure), and the peak resident memory against its
 * 2 GB target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateVcnRelease } from "../src/benchmarks/vcn/construct/index.js";

const episodes = Number(process.env["VCN_BENCH_EPISODES"] ?? 20);
const seed = Number(process.env["VCN_BENCH_SEED"] ?? 2026);
const root = mkdtempSync(path.join(os.tmpdir(), "vcn-gen-bench-"));
try {
  const t0 = process.hrtime.bigint();
  const summary = await generateVcnRelease({ outDir: path.join(root, "set"), seed, count: episodes, log: (line) => console.error(line) });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(summary);
  console.log(`${episodes} episodes wanted: ${seconds.toFixed(1)} s = ${(seconds / 600).toFixed(2)} x the 10-minute target`);
  const pace = seconds / episodes;
  console.log(`pace: ${pace.toFixed(1)} s per episode = ${(pace / 7.2).toFixed(2)} x issue 28's pace (250 episodes in 30 minutes)`);
  console.log(`peak RSS of the process: ${rssMb.toFixed(0)} MB = ${(rssMb / 2048).toFixed(2)} x the 2 GB target (ffmpeg runs as a child process and is not counted)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
