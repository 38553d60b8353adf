/**
 * EPIC-Bench scoring at release scale: `spatialprobe score epic` against the official formatter +
 * evaluator, on a generated set of 6,661 samples (all 23 task types, 1280x720 masks).
 *
 *   node --import tsx bench/epic-scoring.ts
 *
 * Environment (all optional):
 *   EPIC_OFFICIAL       official checkout (default /work/official/epic)
 *   EPIC_PYCOCOTOOLS    folder holding the pycocotools package (default /work/official/epic-work/cocoapi/PythonAPI)
 *   EPIC_PYTHON         Python with numpy and scipy (default /usr/bin/python3)
 *   EPIC_BENCH_SAMPLES  set size (default 6661; smaller values scale the task mix down)
 *   EPIC_BENCH_KEEP=1   keep the temp folder (it is also kept when the summaries disagree)
 *
 * What it does:
 *   1. writes the set to a temp folder (bench/lib/epic-release.ts: layout, fields, replies);
 *      checks it loads with loadEpic (untimed);
 *   2. times `node bin/spatialprobe.js score epic --data <root> --predictions <responses.jsonl>
 *      --out <dir> --bootstrap 0 --quiet` as a child process: wall time and peak RSS (from
 *      /usr/bin/time -v, else by polling /proc/<pid>/status VmHWM). dist/ is rebuilt first when it
 *      is missing or older than src/;
 *   3. times the official pipeline as its scripts run it, cwd = data root:
 *        python3 tools/formatting/format_response.py R -o F --jsonl --format-type auto --coordinate-system auto
 *        python3 -m epic_eval.evaluate F -o E --jsonl            (PYTHONPATH = checkout:pycocotools)
 *      and sums the two wall times; skipped with a message when the checkout or pycocotools is absent;
 *   4. compares our overall / by_category / by_group / by_type means, counts and invalid counts
 *      with the official summary (and, on a disagreement, lists differing samples);
 *   5. prints the table: seconds, samples/s, peak RSS, and the ratio official/ours (target >= 5).
 *
 * Coordinates: replies are absolute pixels; both sides read them in `auto` mode (our `score`
 * default and the official scripts' default). Both runs read data just written, from a warm page
 * cache; no warm-up runs. One run each: the ratio is a measurement, not a test.
 *
 * Exit code: 0 when everything ran (a ratio under 5 is printed, not failed); 1 when the summaries
 * disagree; 2 on a broken setup.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadEpic } from "../src/benchmarks/epic/load.js";
import { RELEASE_SAMPLES, writeRelease } from "./lib/epic-release.js";
import { makeTempDir, REPO_ROOT, table } from "./lib/common.js";

const SEED = 20260801;
const TARGET_RATIO = 5;
const OFFICIAL = process.env["EPIC_OFFICIAL"] || "/work/official/epic";
const PYCOCO = process.env["EPIC_PYCOCOTOOLS"] || "/work/official/epic-work/cocoapi/PythonAPI";
const PYTHON = process.env["EPIC_PYTHON"] || "/usr/bin/python3";
const TIME_BIN = "/usr/bin/time";
const TOLERANCE = 1e-9;

class SetupError extends Error {}

// ------------------------------------------------------------------ processes

interface Measured {
  seconds: number;
  peakRssMb: number | null;
  rssSource: string;
  stdout: string;
  stderr: string;
}

/** Wall time and peak RSS of one child process; throws SetupError when it fails. */
async function measure(label: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Measured> {
  const useTime = existsSync(TIME_BIN);
  const tmpReport = path.join(makeTempDir("epic-bench-time"), "time.txt");
  const argv = useTime ? [TIME_BIN, "-v", "-o", tmpReport, command, ...args] : [command, ...args];
  const started = performance.now();
  let peakKb = 0;
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    let timer: NodeJS.Timeout | undefined;
    if (!useTime && child.pid !== undefined) {
      const status = `/proc/${child.pid}/status`;
      timer = setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
          if (m) peakKb = Math.max(peakKb, Number(m[1]));
        } catch {
          // the process is gone
        }
      }, 10);
    }
    child.once("error", (e) => {
      if (timer) clearInterval(timer);
      reject(new SetupError(`${label}: could not start ${argv[0]}: ${e.message}`));
    });
    child.once("close", (c) => {
      if (timer) clearInterval(timer);
      resolve({ code: c, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
  const seconds = (performance.now() - started) / 1000;
  if (useTime && existsSync(tmpReport)) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(tmpReport, "utf8"));
    if (m) peakKb = Number(m[1]);
  }
  rmSync(path.dirname(tmpReport), { recursive: true, force: true });
  if (code !== 0) {
    throw new SetupError(`${label} exited with ${code}: ${command} ${args.join(" ")}\n${(stderr || stdout).slice(-3000)}`);
  }
  return {
    seconds,
    peakRssMb: peakKb > 0 ? peakKb / 1024 : null,
    rssSource: useTime ? "/usr/bin/time -v" : "VmHWM polled every 10 ms",
    stdout,
    stderr,
  };
}

/** Newest modification time below a folder (files ending in `ext`). */
function newest(dir: string, ext: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p, ext));
    else if (e.name.endsWith(ext)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

function ensureBuilt(): void {
  const entry = path.join(REPO_ROOT, "dist/cli/entry.js");
  const stale = existsSync(entry) && newest(path.join(REPO_ROOT, "src"), ".ts") > newest(path.join(REPO_ROOT, "dist"), ".js");
  if (existsSync(entry) && !stale) return;
  console.log(existsSync(entry) ? "dist/ is older than src/: npm run build" : "dist/ is missing: npm run build");
  const r = spawnSync("npm", ["run", "build"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new SetupError(`npm run build failed:\n${(r.stdout + r.stderr).slice(-3000)}`);
}

// ------------------------------------------------------------------ comparing

interface Bucket {
  total_processed?: number;
  num_invalid_response?: number;
  mean_score?: number;
  average_score?: number;
}
interface Summary {
  overall: Bucket;
  by_category: Record<string, Bucket>;
  by_type: Record<string, Bucket>;
  by_group: Record<string, Bucket>;
}

function compareSummaries(ours: Summary, theirs: Summary): { maxDiff: number; differences: string[]; buckets: number } {
  const differences: string[] = [];
  let maxDiff = 0;
  let buckets = 0;
  const one = (name: string, a: Bucket | undefined, b: Bucket | undefined) => {
    buckets++;
    if (!a || !b) {
      differences.push(`${name}: ${a ? "only ours" : "only official"}`);
      return;
    }
    const ma = a.mean_score ?? a.average_score ?? NaN;
    const mb = b.mean_score ?? b.average_score ?? NaN;
    const d = Math.abs(ma - mb);
    maxDiff = Math.max(maxDiff, Number.isNaN(d) ? Infinity : d);
    const parts: string[] = [];
    if (!(d <= TOLERANCE)) parts.push(`mean ours ${ma} official ${mb} (diff ${d.toExponential(2)})`);
    if (a.num_invalid_response !== b.num_invalid_response) parts.push(`invalid ours ${a.num_invalid_response} official ${b.num_invalid_response}`);
    if (a.total_processed !== b.total_processed) parts.push(`n ours ${a.total_processed} official ${b.total_processed}`);
    if (parts.length > 0) differences.push(`${name}: ${parts.join("; ")}`);
  };
  one("overall", ours.overall, theirs.overall);
  for (const part of ["by_category", "by_group", "by_type"] as const) {
    const keys = [...new Set([...Object.keys(ours[part] ?? {}), ...Object.keys(theirs[part] ?? {})])];
    for (const k of keys) one(`${part}.${k}`, ours[part]?.[k], theirs[part]?.[k]);
  }
  return { maxDiff, differences, buckets };
}

/** Samples whose score or invalid flag differ (ours items.jsonl vs the official eval rows, keyed by ground-truth path). */
function sampleDifferences(oursItems: string, officialEval: string, responses: string): string[] {
  const ours = new Map<string, { score: number; invalid: boolean; task: string }>();
  for (const line of readFileSync(oursItems, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { id: string; task: string; detail?: { score: number; invalid: boolean } };
    if (r.detail) ours.set(r.id, { score: r.detail.score, invalid: r.detail.invalid, task: r.task });
  }
  const replies = new Map<string, string>();
  for (const line of readFileSync(responses, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { response: string; images: Array<string | { path: string }> };
    const first = r.images.map((i) => (typeof i === "string" ? i : i.path)).find((p) => /_image\./.test(p));
    if (first) replies.set(path.posix.dirname(first) + "/" + path.posix.basename(first).replace(/_image\..*$/, ""), r.response);
  }
  const out: string[] = [];
  let n = 0;
  const lines = readFileSync(officialEval, "utf8").split("\n");
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { task_type: string; score: number; invalid_response: boolean; error: string | null; ground_truth: { gt_json_path: string[] | null } };
    const key = r.ground_truth.gt_json_path?.[0];
    const o = key ? ours.get(key) : undefined;
    if (!o) {
      n++;
      if (out.length < 8) out.push(`  ${key ?? "(no gt path)"}: not scored by us`);
      continue;
    }
    if (Math.abs(o.score - r.score) > TOLERANCE || o.invalid !== r.invalid_response) {
      n++;
      if (out.length < 8) {
        const stem = key!.replace(/(__[^/]*)?_mask_rle\.json$/, "");
        const reply = (replies.get(stem) ?? "").replace(/\s+/g, " ").slice(0, 160);
        out.push(`  ${key}: ours ${o.score}${o.invalid ? " (invalid)" : ""}, official ${r.score}${r.invalid_response ? " (invalid)" : ""}${r.error ? ` [${r.error}]` : ""}\n    reply: ${reply}`);
      }
    }
  }
  return [`${n} sample(s) differ${n > out.length ? ` (first ${out.length} shown)` : ""}`, ...out];
}

// ------------------------------------------------------------------ main

const fmtS = (s: number) => s.toFixed(2);
const fmtMb = (m: number | null) => (m === null ? "n/a" : m.toFixed(0));
const fmtRate = (n: number, s: number) => Math.round(n / s).toLocaleString("en-US");

async function main(): Promise<number> {
  const samples = Number(process.env["EPIC_BENCH_SAMPLES"] ?? RELEASE_SAMPLES);
  if (!Number.isInteger(samples) || samples < 23) throw new SetupError("EPIC_BENCH_SAMPLES must be an integer >= 23");
  ensureBuilt();
  const cli = path.join(REPO_ROOT, "bin/spatialprobe.js");

  const tmp = makeTempDir("spatialprobe-bench-epic");
  const root = path.join(tmp, "data");
  const responses = path.join(tmp, "responses.jsonl");
  let keep = process.env["EPIC_BENCH_KEEP"] === "1";
  try {
    console.log(`epic-scoring: ${samples.toLocaleString("en-US")} samples, 1280x720 masks, data in ${tmp}`);
    const g0 = performance.now();
    const stats = await writeRelease(root, responses, { samples, seed: SEED });
    const genSeconds = (performance.now() - g0) / 1000;
    console.log(
      `generated in ${genSeconds.toFixed(1)} s: ${Object.entries(stats.byCategory).map(([c, n]) => `${c} ${n}`).join(", ")}; ` +
        `${stats.instances.toLocaleString("en-US")} RLE instances, ${stats.emptyTargets} empty targets, ${stats.imageFiles.toLocaleString("en-US")} image files (hard links to 2 placeholders)`,
    );
    console.log(
      `replies (seed ${SEED}): ${stats.replies.good} good, ${stats.replies.noisy} noisy, ${stats.replies.unreadable} unreadable; ` +
        `largest FeasiblePath target area ${stats.maxTargetAreaPixels} px (< 1,000: the official D_SG subsampling never triggers)`,
    );
    const loaded = loadEpic(root);
    if (loaded.problems.length > 0 || loaded.items.length !== samples || loaded.tasks.length !== 23) {
      throw new SetupError(
        `generated set does not load cleanly: ${loaded.items.length} items over ${loaded.tasks.length} task types, ${loaded.problems.length} problems\n` +
          loaded.problems.slice(0, 5).map((p) => `  ${JSON.stringify(p)}`).join("\n"),
      );
    }
    console.log(`loadEpic: ${loaded.items.length} samples over ${loaded.tasks.length} task types, 0 problems`);

    // ---- ours
    const oursOut = path.join(tmp, "ours");
    const ours = await measure("spatialprobe score", process.execPath, [cli, "score", "epic", "--data", root, "--predictions", responses, "--out", oursOut, "--bootstrap", "0", "--quiet"], REPO_ROOT);
    const scores = JSON.parse(readFileSync(path.join(oursOut, "scores.json"), "utf8")) as { n: number; summary: Summary; counts: Record<string, number> };
    console.log(`ours: ${fmtS(ours.seconds)} s, n ${scores.n}, overall ${scores.summary.overall.average_score}, invalid ${scores.summary.overall.num_invalid_response}, counts ${JSON.stringify(scores.counts)}`);

    // ---- official
    const rows: string[][] = [["ours: spatialprobe score epic", fmtS(ours.seconds), fmtRate(samples, ours.seconds), fmtMb(ours.peakRssMb)]];
    let agree = true;
    let ratioLine = "official pipeline not run: no ratio";
    const skip = officialMissing();
    if (skip) {
      console.log(`official: skipped (${skip})`);
    } else {
      const env = { ...process.env, PYTHONPATH: `${OFFICIAL}:${PYCOCO}`, PYTHONDONTWRITEBYTECODE: "1", PYTHONHASHSEED: "0" };
      const formatted = path.join(tmp, "official", "std_format.jsonl");
      const evaluated = path.join(tmp, "official", "scores_full.jsonl");
      const fmt = await measure("official formatter", PYTHON, [path.join(OFFICIAL, "tools/formatting/format_response.py"), responses, "-o", formatted, "--jsonl", "--format-type", "auto", "--coordinate-system", "auto"], root, env);
      const ev = await measure("official evaluator", PYTHON, ["-m", "epic_eval.evaluate", formatted, "-o", evaluated, "--jsonl"], root, env);
      const total = fmt.seconds + ev.seconds;
      const head = JSON.parse(readFileSync(evaluated, "utf8").split("\n", 1)[0]!) as { summary: Summary };
      console.log(`official: formatter ${fmtS(fmt.seconds)} s + evaluator ${fmtS(ev.seconds)} s, n ${head.summary.overall.total_processed}, overall ${head.summary.overall.average_score}, invalid ${head.summary.overall.num_invalid_response}`);
      rows.push(
        ["official: format_response.py", fmtS(fmt.seconds), fmtRate(samples, fmt.seconds), fmtMb(fmt.peakRssMb)],
        ["official: epic_eval.evaluate", fmtS(ev.seconds), fmtRate(samples, ev.seconds), fmtMb(ev.peakRssMb)],
        ["official: total", fmtS(total), fmtRate(samples, total), fmtMb(Math.max(fmt.peakRssMb ?? 0, ev.peakRssMb ?? 0) || null)],
      );
      const ratio = total / ours.seconds;
      ratioLine = `ratio official/ours: ${ratio.toFixed(1)}x (target >= ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? "met" : "NOT met"})`;

      console.log("");
      console.log(table(["group", "n", "invalid", "ours mean", "official mean"], Object.entries(scores.summary.by_group).map(([g, b]) => [
        g, String(b.total_processed), String(b.num_invalid_response), (b.mean_score ?? NaN).toFixed(6), (head.summary.by_group[g]?.mean_score ?? NaN).toFixed(6),
      ])));
      console.log("");
      const cmp = compareSummaries(scores.summary, head.summary);
      if (cmp.differences.length === 0) {
        console.log(`summaries agree (max abs diff ${cmp.maxDiff.toExponential(2)} over ${cmp.buckets} buckets: overall, by_category, by_group, by_type; invalid counts and n equal)`);
      } else {
        agree = false;
        keep = true;
        console.log(`summaries DISAGREE in ${cmp.differences.length} of ${cmp.buckets} buckets (max abs diff of means ${cmp.maxDiff.toExponential(2)}):`);
        for (const d of cmp.differences) console.log(`  ${d}`);
        for (const line of sampleDifferences(path.join(oursOut, "items.jsonl"), evaluated, responses)) console.log(line);
      }
    }

    console.log("");
    console.log(table(["run", "wall s", "samples/s", "peak RSS MB"], rows));
    console.log(ratioLine);
    console.log(`(one run each; wall time of the whole process; peak RSS from ${ours.rssSource})`);
    return agree ? 0 : 1;
  } finally {
    if (keep) console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

/** Why the official pipeline cannot run here, or undefined when it can. */
function officialMissing(): string | undefined {
  if (!existsSync(path.join(OFFICIAL, "epic_eval/evaluate.py")) || !existsSync(path.join(OFFICIAL, "tools/formatting/format_response.py"))) {
    return `no official checkout at ${OFFICIAL} (set EPIC_OFFICIAL)`;
  }
  if (!existsSync(PYTHON)) return `no Python at ${PYTHON} (set EPIC_PYTHON)`;
  const r = spawnSync(PYTHON, ["-c", "import numpy, scipy, pycocotools.mask"], {
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: `${OFFICIAL}:${PYCOCO}`, PYTHONDONTWRITEBYTECODE: "1" },
  });
  if (r.status !== 0) return `${PYTHON} cannot import numpy, scipy and pycocotools (PYTHONPATH ${PYCOCO}): ${(r.stderr || "").trim().split("\n").pop()}`;
  return undefined;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof SetupError) {
      console.error(`epic-scoring: ${error.message}`);
      process.exit(2);
    }
    throw error;
  },
);
