/**
 * Time and memory of generating a VCN-Bench set with its tour videos (default settings: 384 x 384
 * frames at 1 fps walked at 1.4 m/s, floors of 32-38 rooms, one tour per house, one house per 10
 * episodes), in one process on this machine, with the two stages of a queued run timed apart:
 *
 *   node --import tsx bench/vcn-generate.ts
 *
 * - a house job (what a `worker` does: the house, its tour, the tour's video and frames);
 * - the assembly of that house (what the coordinator does, in house order: the house's geometry
 *   rebuilt from its seed as a queued coordinator does, every window's plans, the episodes chosen
 *   and their initial views).
 *
 * Environment (optional): VCN_BENCH_EPISODES (default: two houses' worth, 20), VCN_BENCH_SEED
 * (default 2026).
 * Prints the wall time and the pace per episode against issue 28's first target (250 episodes in
 * 30 minutes on this machine: 7.2 s each; run with VCN_BENCH_EPISODES=250 for the whole figure),
 * and, from the per-house times measured here, the time of 250 episodes with `--queue` and one
 * worker beside a coordinator that works too (the default), and of the paper's 1,250 with
 * `--queue --no-work` and 4 workers, against the same 30 minutes (house counts as `generate vcn`
 * gives them). The coordinator assembles each house as soon as its job is done, one house after
 * another, beside the jobs: a working coordinator shares its core between jobs and assembly, so
 * the work spreads over both processes unless the assembly alone is longer; with --no-work the
 * jobs spread over the workers, and the slower of jobs and assembly bounds the run. Both are
 * projections (ffmpeg and the JPEG encoder take some CPU besides); the second needs 5 free cores,
 * and this machine has os.availableParallelism() of them.
 * Peak resident memory is printed against a 2 GB target (ffmpeg children not counted).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { vcnHouseJob, vcnRun, vcnShared, VcnAssembly } from "../src/benchmarks/vcn/construct/index.js";
import { VCN_PARAMS } from "../src/benchmarks/vcn/construct/params.js";

const episodes = Number(process.env["VCN_BENCH_EPISODES"] ?? 2 * VCN_PARAMS.episodesPerHouse);
const seed = Number(process.env["VCN_BENCH_SEED"] ?? 2026);
const TARGET_S = 30 * 60;
const WORKERS = 4;
const root = mkdtempSync(path.join(os.tmpdir(), "vcn-gen-bench-"));
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
try {
  const run = vcnRun({ outDir: path.join(root, "set"), seed, count: episodes, command: "bench" });
  const shared = vcnShared();
  const jobs: number[] = [];
  const assembly: number[] = [];
  const t0 = process.hrtime.bigint();
  try {
    const asm = await VcnAssembly.begin(run, shared, (line) => console.error(line));
    for (let h = 0; h < run.houseCount; h++) {
      const tJob = process.hrtime.bigint();
      const job = await vcnHouseJob(run, h, shared);
      jobs.push(seconds(tJob));
      const tAsm = process.hrtime.bigint();
      // Without the job's geometry: a queued coordinator rebuilds it from the house's seed.
      await asm.addHouse(h, { record: job.record, files: job.files });
      assembly.push(seconds(tAsm));
    }
    console.log(await asm.finish());
  } finally {
    shared.library.close();
  }
  const wall = seconds(t0);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  const houses = run.houseCount;
  // Per house after the first, whose job and assembly also load the model library (one house: that one).
  const steady = (v: number[]) => (houses > 1 ? sum(v.slice(1)) / (houses - 1) : v[0]!);
  const perHouseJob = steady(jobs);
  const perHouseAsm = steady(assembly);
  console.log(`${episodes} episodes from ${houses} houses: ${wall.toFixed(1)} s; per house${houses > 1 ? " after the first" : ""}: job ${perHouseJob.toFixed(1)} s, assembly ${perHouseAsm.toFixed(1)} s (first house ${jobs[0]!.toFixed(1)} + ${assembly[0]!.toFixed(1)} s)`);
  const pace = wall / episodes;
  console.log(`one process: ${pace.toFixed(1)} s per episode = ${(pace / 7.2).toFixed(2)} x issue 28's pace (250 episodes in 30 minutes)`);
  const minutes = (m: number) => `about ${m.toFixed(1)} min = ${((m * 60) / TARGET_S).toFixed(2)} x the 30-minute target`;
  /** A coordinator that works too and one worker: both make jobs, the coordinator also assembles each house as it is done. */
  const projectedWorking = (houseCount: number) => {
    const jobsMin = (houseCount * perHouseJob) / 60;
    const assemblyMin = (houseCount * perHouseAsm) / 60;
    return `jobs ${jobsMin.toFixed(1)} min and assembly ${assemblyMin.toFixed(1)} min of work shared by the two processes: ${minutes(Math.max((jobsMin + assemblyMin) / 2, assemblyMin))}`;
  };
  /** `--no-work` and `workers` workers on free cores: the jobs spread over the workers, the assembly one house after another on the coordinator, beside them. */
  const projectedNoWork = (houseCount: number, workers: number) => {
    const jobsMin = (Math.ceil(houseCount / workers) * perHouseJob) / 60;
    const assemblyMin = (houseCount * perHouseAsm) / 60;
    const totalMin = Math.max(jobsMin, assemblyMin) + Math.min(perHouseJob, perHouseAsm) / 60;
    return `jobs ${jobsMin.toFixed(1)} min spread over the workers, assembly ${assemblyMin.toFixed(1)} min on the coordinator in house order; ${minutes(totalMin)}, bound by the ${assemblyMin >= jobsMin ? "assembly" : "jobs"}`;
  };
  const housesFor = (n: number) => vcnRun({ outDir: run.o.outDir, seed, count: n, command: "bench" }).houseCount;
  console.log(`250 episodes (${housesFor(250)} houses) with --queue and one worker, the coordinator working too, projected from these per-house times: ${projectedWorking(housesFor(250))}`);
  console.log(`1,250 episodes (${housesFor(1250)} houses) with --queue --no-work and ${WORKERS} workers, on ${WORKERS + 1} free cores: ${projectedNoWork(housesFor(1250), WORKERS)} (this machine has ${os.availableParallelism()} cores)`);
  console.log(`peak RSS of the process: ${rssMb.toFixed(0)} MB = ${(rssMb / 2048).toFixed(2)} x the 2 GB target (ffmpeg runs as a child process and is not counted)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
