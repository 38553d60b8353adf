/**
 * Our RRT-Connect against OMPL's on generated PathEval environments: median wall time per
 * successful plan, per family and overall, and the ratio ours / OMPL (target: at most 3x).
 *
 *   node --import tsx bench/patheval-planner.ts [--runs 5] [--limit 10] [--seed 20260801]
 *
 * OMPL side: bench/ompl/rrtconnect.cpp (our own driver), built by this script into a temp folder
 * when g++ and OMPL's headers are there. On Debian/Ubuntu:
 *
 *   apt-get install -y g++ libompl-dev
 *   g++ -O2 -std=c++17 -I/usr/include/ompl-1.5 -I/usr/include/eigen3 bench/ompl/rrtconnect.cpp \
 *       -o /tmp/patheval-rrtconnect -lompl
 *
 * (set OMPL_INCLUDE=/usr/include/ompl-1.x for another version). Without them the script still
 * prints our timings and says why OMPL's are missing.
 *
 * Same problem on both sides: 20 environments (5 per family, parameters spread over the release's
 * ranges), radii 0.5 / 1.0 / 1.5, the 2-D space [-40, 40]^2, start and goal of the release, the
 * release's state validity (border box, 20 circle points, even-odd per polygon), OMPL's discrete
 * motion validator at resolution 0.003 (longest valid segment 0.3394), RRT-Connect's default range
 * (22.63), and the goal as a single state (the trees must meet). Only the planner call is timed
 * on both sides: OMPL's ss.solve(), our rrtConnect(); our obstacle index is built once per
 * environment and its build time is printed apart. OMPL runs with two checkers of identical
 * answers: "naive" scans every polygon for every circle point as GeneratePaths.cpp does; "bbox"
 * skips polygons whose bounding box misses the point. The random streams differ, so per-run times
 * differ; medians over all successful runs are compared.
 *
 * Exit code 0 when everything ran (a ratio above target is printed, not failed); 2 on bad setup.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { generateEnvironment, type EnvironmentFamily } from "../src/benchmarks/patheval/environments/index.js";
import { ObstacleIndex } from "../src/geometry/collision.js";
import { pathEvalProblem, rrtConnect } from "../src/geometry/planners.js";
import { formatEnvironment } from "../src/geometry/polygon.js";
import { createRng, deriveSeed } from "../src/stats/rng.js";
import { makeTempDir, REPO_ROOT } from "./lib/common.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v)) {
    console.error(`--${name} needs a number`);
    process.exit(2);
  }
  return v;
};
const RUNS = arg("runs", 5);
const LIMIT_S = arg("limit", 10);
const SEED = arg("seed", 20260801);
const RADII = [0.5, 1.0, 1.5];
const TARGET = 3;

const PLAN: Array<[EnvironmentFamily, number[]]> = [
  ["maze", [10, 12, 14, 16, 18]],
  ["random", [12, 14, 16, 18, 20]],
  ["rings", [2, 5, 8, 11, 15]],
  ["waves", [5, 6, 8, 9, 10]],
];

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(2) : "n/a");

function buildOmpl(dir: string): { binary: string | null; why: string } {
  const include = process.env.OMPL_INCLUDE ?? "/usr/include/ompl-1.5";
  if (!existsSync(path.join(include, "ompl/geometric/SimpleSetup.h"))) {
    return { binary: null, why: `OMPL headers not found under ${include} (apt-get install libompl-dev, or set OMPL_INCLUDE)` };
  }
  const binary = path.join(dir, "rrtconnect");
  const res = spawnSync(
    "g++",
    ["-O2", "-std=c++17", `-I${include}`, "-I/usr/include/eigen3", path.join(REPO_ROOT, "bench/ompl/rrtconnect.cpp"), "-o", binary, "-lompl"],
    { encoding: "utf8" },
  );
  if (res.error) return { binary: null, why: `g++ could not run: ${res.error.message}` };
  if (res.status !== 0) return { binary: null, why: `g++ failed:\n${res.stderr}` };
  return { binary, why: "" };
}

interface Row {
  family: EnvironmentFamily;
  ours: number[];
  naive: number[];
  bbox: number[];
  oursTried: number;
  omplTried: number;
}

function runOmpl(binary: string, file: string, radius: number, seed: number, variant: "naive" | "bbox"): number[] {
  const res = spawnSync(binary, [file, String(radius), String(RUNS), String(seed), String(LIMIT_S), variant], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`OMPL driver failed on ${file}: ${res.stderr}`);
  const times: number[] = [];
  for (const line of res.stdout.trim().split("\n")) {
    const [tag, , exact, ms] = line.split(" ");
    if (tag === "run" && exact === "1") times.push(Number(ms));
  }
  return times;
}

function main(): void {
  const dir = makeTempDir("patheval-planner");
  const { binary, why } = buildOmpl(dir);
  console.log(`PathEval planner bench: ${PLAN.reduce((n, [, ps]) => n + ps.length, 0)} environments x radii ${RADII.join("/")}, ${RUNS} runs each side, limit ${LIMIT_S} s, seed ${SEED}`);
  console.log(binary ? `OMPL driver built: ${binary}` : `OMPL: not run (${why})`);

  // Warm the JIT on a throwaway environment so the first timed runs are not compile time.
  {
    const env = generateEnvironment("random", 16, 99, SEED);
    const problem = pathEvalProblem(env.polygons, { radius: 1.0 });
    for (let i = 0; i < 30; i++) rrtConnect(problem, createRng(i), { timeLimitMs: LIMIT_S * 1000 });
  }

  const rows: Row[] = [];
  const indexMs: number[] = [];
  let combo = 0;
  for (const [family, params] of PLAN) {
    params.forEach((parameter, k) => {
      const env = generateEnvironment(family, parameter, k, SEED);
      const file = path.join(dir, env.fileName);
      writeFileSync(file, formatEnvironment(env.polygons));
      const t0 = performance.now();
      const index = new ObstacleIndex(env.polygons);
      indexMs.push(performance.now() - t0);
      for (const radius of RADII) {
        combo++;
        const row: Row = { family, ours: [], naive: [], bbox: [], oursTried: RUNS, omplTried: binary ? RUNS : 0 };
        const problem = pathEvalProblem(index, { radius });
        for (let run = 0; run < RUNS; run++) {
          const t = performance.now();
          const res = rrtConnect(problem, createRng(deriveSeed(SEED, combo * 1000 + run)), { timeLimitMs: LIMIT_S * 1000 });
          const ms = performance.now() - t;
          if (res.solved) row.ours.push(ms);
        }
        if (binary) {
          row.naive = runOmpl(binary, file, radius, SEED + combo, "naive");
          row.bbox = runOmpl(binary, file, radius, SEED + combo, "bbox");
        }
        rows.push(row);
        process.stderr.write(
          `${env.name} r=${radius}: ours ${fmt(median(row.ours))} ms (${row.ours.length}/${RUNS})` +
            (binary ? `, OMPL naive ${fmt(median(row.naive))} ms (${row.naive.length}/${RUNS}), bbox ${fmt(median(row.bbox))} ms (${row.bbox.length}/${RUNS})` : "") +
            "\n",
        );
      }
    });
  }

  const pool = (rs: Row[], key: "ours" | "naive" | "bbox") => rs.flatMap((r) => r[key]);
  const lines: string[][] = [["family", "ours ms", "ok", "OMPL naive ms", "ok", "OMPL bbox ms", "ok", "ours/naive", "ours/bbox"]];
  const summarize = (label: string, rs: Row[]) => {
    const o = median(pool(rs, "ours"));
    const n = median(pool(rs, "naive"));
    const b = median(pool(rs, "bbox"));
    const tried = rs.reduce((a, r) => a + r.oursTried, 0);
    const triedO = rs.reduce((a, r) => a + r.omplTried, 0);
    lines.push([
      label,
      fmt(o),
      `${pool(rs, "ours").length}/${tried}`,
      binary ? fmt(n) : "-",
      binary ? `${pool(rs, "naive").length}/${triedO}` : "-",
      binary ? fmt(b) : "-",
      binary ? `${pool(rs, "bbox").length}/${triedO}` : "-",
      binary ? (o / n).toFixed(2) : "-",
      binary ? (o / b).toFixed(2) : "-",
    ]);
  };
  for (const [family] of PLAN) summarize(family, rows.filter((r) => r.family === family));
  summarize("all", rows);
  const widths = lines[0]!.map((_, c) => Math.max(...lines.map((l) => l[c]!.length)));
  console.log("");
  console.log("median wall time per successful plan (ms), RRT-Connect, release validity, resolution 0.003:");
  for (const l of lines) console.log(l.map((v, c) => (c === 0 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join("  "));
  console.log(`our obstacle index build: median ${fmt(median(indexMs))} ms per environment (not in the times above)`);
  if (binary) {
    const all = lines[lines.length - 1]!;
    const worst = Math.max(Number(all[7]), Number(all[8]));
    console.log(`ratio ours / OMPL (overall medians): ${all[7]} vs the release-style checker, ${all[8]} vs the bbox checker; target <= ${TARGET}: ${worst <= TARGET ? "met" : "NOT met"}`);
  } else {
    console.log("ratio: not measured (no OMPL)");
  }
  rmSync(dir, { recursive: true, force: true });
}

main();
