/**
 * Runner overhead against a mock provider with a fixed 200 ms latency, at concurrency 16.
 *
 *   npm run build && node --import tsx bench/runner-overhead.ts
 *
 * Builds a 2,000-question EgoPathBench-layout a1 set in a temp folder, starts
 * test/helpers/mock-server-main.ts as a child process, and calls executeRun in-process twice
 * (first 500 questions, then all 2,000), each into a fresh output folder so nothing is reused.
 * Prints wall time against the ideal N x 0.2 s / 16, and peak RSS per size.
 *
 * Targets: wall/ideal <= 1.10; peak RSS flat in N (2000/500 close to 1). A missed target is
 * printed as "TARGET MISSED" and does not fail the script; a broken setup (data that does not
 * load, a server that does not start, errors or a wrong request count) exits non-zero.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadRelease } from "../src/benchmarks/egopath/load.js";
import { executeRun } from "../src/core/session.js";
import { getGc, makeTempDir, MB, mockEgoPathRun, startMockChild, syntheticA1Row, table, withPeakRss, writeJsonSync, writeJsonlSync, writePng, type MockChild } from "./lib/common.js";

const LATENCY_MS = 200;
const CONCURRENCY = 16;
const TOTAL = 2000;
const SIZES = [500, 2000];
const SCENES = 4;
const RATIO_TARGET = 1.1;

class SetupError extends Error {}

/** 2,000 a1 questions over SCENES scenes (one image and one waypoints file per scene). */
async function buildDataset(root: string): Promise<void> {
  const colours = [
    { r: 200, g: 60, b: 60 },
    { r: 60, g: 160, b: 60 },
    { r: 60, g: 90, b: 200 },
    { r: 180, g: 180, b: 60 },
  ];
  const waypointCount = 8;
  for (let s = 0; s < SCENES; s++) {
    const scene = `bench_s${String(s).padStart(2, "0")}`;
    await writePng(path.join(root, "assets", scene, "view_0", "rgb_overlay_a1.png"), colours[s % colours.length]!);
    writeJsonSync(path.join(root, "assets", scene, "view_0", "visible_waypoints_a1.json"), {
      visible_waypoints: Array.from({ length: waypointCount }, (_, k) => ({
        display_id: k + 1,
        waypoint_id: 100 + k + 1,
        world_xyz: [k * 0.5, s * 0.5, 0],
        image_xy: [10 + k * 14, 10 + s * 20],
      })),
    });
  }
  const allIds = Array.from({ length: waypointCount }, (_, k) => k + 1);
  const rows = Array.from({ length: TOTAL }, (_, i) => syntheticA1Row(i, `bench_s${String(i % SCENES).padStart(2, "0")}`, allIds));
  writeJsonlSync(path.join(root, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl"), rows);
}

interface RunMeasure {
  n: number;
  wallS: number;
  idealS: number;
  ratio: number;
  /** ceil(N / concurrency) rounds of one latency each: the best a fixed-size worker pool can do. */
  floorS: number;
  peakRssMb: number;
  peakHeapMb: number;
  baseRssMb: number;
  /** CPU time of this process (user + system) per request: the runner's own work. */
  cpuMsPerRequest: number;
  requests: number;
  errors: number;
  scoredItems: number;
}

async function measure(root: string, outDir: string, n: number, url: string, gc: () => void): Promise<RunMeasure> {
  gc();
  const baseRss = process.memoryUsage.rss();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { peakRss, peakHeap } = await withPeakRss(() =>
    executeRun(mockEgoPathRun({ data: root, limit: n, out: outDir, model: "openai:mock-model", url, concurrency: CONCURRENCY })),
  );
  const wallS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);

  // The mock server has no stats endpoint: count the HTTP attempts recorded in items.jsonl
  // (every item is fresh, so each attempt is one request the server answered).
  const lines = readFileSync(path.join(outDir, "items.jsonl"), "utf8").split("\n").filter(Boolean);
  let requests = 0;
  let scoredItems = 0;
  for (const line of lines) {
    const r = JSON.parse(line) as { status: string; response?: { attempts?: number; cached?: boolean } };
    if (r.response?.cached) throw new SetupError(`item reused from a store in a fresh out dir: ${line.slice(0, 120)}`);
    requests += r.response?.attempts ?? 0;
    if (r.status === "scored") scoredItems++;
  }
  const scores = JSON.parse(readFileSync(path.join(outDir, "scores.json"), "utf8")) as { counts: { errors: number } };
  const idealS = (n * LATENCY_MS) / 1000 / CONCURRENCY;
  return {
    n,
    wallS,
    idealS,
    ratio: wallS / idealS,
    floorS: (Math.ceil(n / CONCURRENCY) * LATENCY_MS) / 1000,
    peakRssMb: peakRss / MB,
    peakHeapMb: peakHeap / MB,
    baseRssMb: baseRss / MB,
    cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / n,
    requests,
    errors: scores.counts.errors,
    scoredItems,
  };
}

async function main(): Promise<number> {
  const gc = getGc();
  const tmp = makeTempDir("spatialprobe-bench-runner");
  const root = path.join(tmp, "release");
  console.log(`runner-overhead: mock latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, data in ${tmp}`);
  await buildDataset(root);
  const loaded = loadRelease(root);
  if (loaded.problems.length > 0 || loaded.items.length !== TOTAL) {
    throw new SetupError(
      `dataset does not load cleanly: ${loaded.items.length} items, ${loaded.problems.length} problems\n` +
        loaded.problems.slice(0, 5).map((p) => `  ${JSON.stringify(p)}`).join("\n"),
    );
  }
  console.log(`dataset: ${loaded.items.length} a1 questions, loadRelease problems: ${loaded.problems.length}`);

  let server: MockChild | undefined;
  const results: RunMeasure[] = [];
  try {
    server = await startMockChild(["--latency-ms", String(LATENCY_MS)]);
    console.log(`mock server: ${server.url} (pid ${server.pid})`);
    for (const n of SIZES) results.push(await measure(root, path.join(tmp, `out-${n}`), n, server.url, gc));
  } finally {
    server?.stop();
  }
  if (process.env["BENCH_KEEP"]) console.log(`kept ${tmp} (BENCH_KEEP is set)`);
  else rmSync(tmp, { recursive: true, force: true });

  console.log("");
  console.log(
    table(
      ["N", "requests", "wall s", "ideal s", "wall/ideal", "rounds floor s", "RSS before MB", "peak RSS MB", "peak heap MB", "CPU ms/req", "errors"],
      results.map((r) => [
        String(r.n),
        String(r.requests),
        r.wallS.toFixed(2),
        r.idealS.toFixed(2),
        r.ratio.toFixed(3),
        r.floorS.toFixed(2),
        r.baseRssMb.toFixed(1),
        r.peakRssMb.toFixed(1),
        r.peakHeapMb.toFixed(1),
        r.cpuMsPerRequest.toFixed(2),
        String(r.errors),
      ]),
    ),
  );
  const small = results[0]!;
  const large = results[results.length - 1]!;
  const rssRatio = large.peakRssMb / small.peakRssMb;
  console.log("");
  console.log(`peak RSS ratio ${large.n}/${small.n}: ${rssRatio.toFixed(3)} (flat memory ~ 1); peak heap ratio ${(large.peakHeapMb / small.peakHeapMb).toFixed(3)}`);
  console.log(`(ideal = N x ${LATENCY_MS / 1000} s / ${CONCURRENCY}; rounds floor = ceil(N/${CONCURRENCY}) x ${LATENCY_MS / 1000} s, the least a pool of ${CONCURRENCY} can take)`);

  let broken = false;
  for (const r of results) {
    const served = r.requests === r.n && r.scoredItems === r.n;
    console.log(`N=${r.n}: mock served ${r.requests} requests (expected ${r.n}) ${served ? "OK" : "MISMATCH"}; scores.json counts.errors = ${r.errors} ${r.errors === 0 ? "OK" : "NOT ZERO"}`);
    if (!served || r.errors !== 0) broken = true;
  }
  const missed = results.filter((r) => r.ratio > RATIO_TARGET);
  if (missed.length > 0) {
    console.log(`TARGET MISSED: wall/ideal > ${RATIO_TARGET} for N=${missed.map((r) => r.n).join(", ")}`);
  } else {
    console.log(`target met: wall/ideal <= ${RATIO_TARGET} for every size`);
  }
  if (broken) {
    console.error("broken setup: request counts or errors are wrong (see above)");
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`runner-overhead: ${error instanceof SetupError ? "broken setup: " : ""}${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
