/**
 * Wall time of every test file, run as `npm test` runs them (the same compiled files in the same
 * order, three at a time, each in its own `node --test` process, after scripts/build-tests.mjs), and
 * of the whole run, the test build included, against issue 31's 15-minute target:
 *
 *   npm run build && node --import tsx bench/test-times.ts [--jobs N] [FILE...]   (FILE: test/**.test.ts)
 *
 * Prints the ten slowest files with their wall and CPU seconds (user + system of the file's
 * processes, from bash's `times`: a file whose CPU is far below its wall time waits on timers,
 * servers or child processes, and more files at a time would overlap it), the sums and the wall
 * time of the run; with `--all`, every file. Exits 1 when a file fails (its output is printed). Needs what the suite
 * needs (the queue server of scripts/queue-server.sh, dist/ built).
 */
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";

const args = process.argv.slice(2);
const jobsAt = args.indexOf("--jobs");
const jobs = jobsAt >= 0 ? Number(args[jobsAt + 1]) : 3;
const all = args.includes("--all");
const named = args.filter((a, i) => a.endsWith(".ts") && args[i - 1] !== "--jobs");
const ROOT = path.resolve(import.meta.dirname, "..");
const TARGET_S = 15 * 60;

const t0 = process.hrtime.bigint();
execFileSync(process.execPath, ["scripts/build-tests.mjs"], { cwd: ROOT, stdio: "inherit" });
const buildSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
const built = (file: string) => path.join(".test-build", file.replace(/\.ts$/, ".js"));
const files = named.length > 0 ? named.map(built) : execFileSync("node", ["scripts/test-files.mjs", "--built"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");

interface Timing {
  file: string;
  seconds: number;
  cpuSeconds: number;
  ok: boolean;
  output: string;
}

function runFile(file: string): Promise<Timing> {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    // `times` prints the shell's and then its children's user and system time, e.g. "1m2.5s 0m3.1s".
    const script = 'node --test "$1"; status=$?; echo "@times"; times; exit $status';
    const child = spawn("bash", ["-c", script, "bash", file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => {
      const [body = "", times = ""] = output.split("@times\n");
      resolve({ file, seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: childCpuSeconds(times), ok: code === 0, output: body });
    });
  });
}

/** User + system seconds of the children line of bash's `times` output (its second line). */
function childCpuSeconds(times: string): number {
  const line = times.trim().split("\n")[1] ?? "";
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
}

const queue = [...files];
const timings: Timing[] = [];
await Promise.all(Array.from({ length: Math.max(1, jobs) }, async () => {
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const t = await runFile(file);
    timings.push(t);
    console.error(`${t.ok ? "ok  " : "FAIL"} ${t.seconds.toFixed(1).padStart(6)} s wall ${t.cpuSeconds.toFixed(1).padStart(6)} s CPU  ${file}`);
  }
}));
const wall = Number(process.hrtime.bigint() - t0) / 1e9;

const sorted = [...timings].sort((a, b) => b.seconds - a.seconds);
const sum = timings.reduce((s, t) => s + t.seconds, 0);
const cpu = timings.reduce((s, t) => s + t.cpuSeconds, 0);
console.log(`${all ? "every" : "the ten slowest of"} ${timings.length} test files (wall and CPU seconds, ${jobs} at a time):`);
for (const t of all ? sorted : sorted.slice(0, 10)) console.log(`  ${t.seconds.toFixed(1).padStart(7)} ${t.cpuSeconds.toFixed(1).padStart(7)}  ${t.file}`);
console.log(`test build ${buildSeconds.toFixed(0)} s; sum of file times ${(sum / 60).toFixed(1)} min wall, ${(cpu / 60).toFixed(1)} min CPU; whole run ${(wall / 60).toFixed(1)} min = ${(wall / TARGET_S).toFixed(2)}x the 15-minute target`);
const failed = timings.filter((t) => !t.ok);
for (const t of failed) console.log(`\nFAILED ${t.file}:\n${t.output.slice(-4000)}`);
process.exit(failed.length > 0 ? 1 : 0);
