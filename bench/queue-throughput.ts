/**
 * Throughput of a queued run with 1, 2 and 4 worker processes (docs/queue.md). Each worker process
 * gets its own mock endpoint (OPENAI_BASE_URL in its environment) whose server answers at most
 * CAP requests at once, each after a fixed LATENCY (an exact C-server queue: a request waits for a
 * free slot, then takes LATENCY), so one worker cannot go faster than CAP / LATENCY however many
 * requests it sends; more workers are the only way up. The runs are RUNS copies of the bundled
 * EgoPathBench example under distinct model names (53 items each, distinct store keys), enqueued
 * after the workers are up; throughput is items over the time from the first claim to the last
 * item done, by the server's clock (worker start-up, tsx compiling, is not in it). Each setting
 * uses a fresh schema, so no reply is reused. Prints items/s and the speed-up over 1 worker.
 *
 *   node --import tsx bench/queue-throughput.ts
 *
 * Needs the queue server (scripts/queue-server.sh, started here when it is not running).
 * Env: QUEUE_BENCH_RUNS (default 8), QUEUE_BENCH_CAP (4), QUEUE_BENCH_LATENCY_MS (1000), QUEUE_BENCH_CONCURRENCY (8).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { loadForScoring } from "../src/core/session.js";
import { enqueueRun } from "../src/queue/queue.js";
import { ensureSchema } from "../src/queue/schema.js";
import { normalizeSpec, runIdOf, type RunSpec } from "../src/queue/spec.js";
import { startMockServer, type MockServer } from "../test/helpers/mock-server.js";
import { table } from "./lib/common.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const RUNS = Number(process.env["QUEUE_BENCH_RUNS"] ?? 8);
const CAP = Number(process.env["QUEUE_BENCH_CAP"] ?? 4);
const LATENCY_MS = Number(process.env["QUEUE_BENCH_LATENCY_MS"] ?? 1000);
const CONCURRENCY = Number(process.env["QUEUE_BENCH_CONCURRENCY"] ?? 8);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A mock endpoint serving at most CAP requests at once: each request's delay is its wait for a slot plus LATENCY_MS. */
async function cappedMock(): Promise<MockServer> {
  const free = new Array<number>(CAP).fill(0);
  return startMockServer({
    faults: () => {
      const now = performance.now();
      let slot = 0;
      for (let i = 1; i < CAP; i++) if (free[i]! < free[slot]!) slot = i;
      const start = Math.max(now, free[slot]!);
      free[slot] = start + LATENCY_MS;
      return { type: "slow", delayMs: free[slot]! - now };
    },
  });
}

async function withSchema<T>(base: string, work: (url: string, pool: pg.Pool) => Promise<T>): Promise<T> {
  const schema = `sp_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = `${base}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    return await work(url, pool);
  } finally {
    await pool.end();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

async function measure(base: string, workers: number, itemIds: string[]): Promise<{ items: number; seconds: number }> {
  const mocks = await Promise.all(Array.from({ length: workers }, () => cappedMock()));
  const children: ChildProcess[] = [];
  try {
    return await withSchema(base, async (url, pool) => {
      await ensureSchema(pool);
      for (const mock of mocks) {
        const child = spawn(process.execPath, ["--import", "tsx", "src/cli/entry.ts", "worker", "--queue", url, "--concurrency", String(CONCURRENCY), "--quiet"], {
          cwd: ROOT,
          env: { ...process.env, OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: `${mock.url}/v1` },
          stdio: ["ignore", "ignore", "inherit"],
        });
        children.push(child);
      }
      // Every worker registered (up and polling) before any work exists.
      for (;;) {
        const { rows } = await pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM workers");
        if (Number(rows[0]!.n) === workers) break;
        await sleep(100);
      }
      const total = RUNS * itemIds.length;
      for (let k = 0; k < RUNS; k++) {
        const spec = normalizeSpec({ version: 1, benchmark: "egopath", benchmarkOptions: {}, data: EXAMPLE, model: `openai:bench-${k}`, settings: {}, promptSource: "release", control: "none", seed: 1, retryErrors: false } satisfies RunSpec);
        await enqueueRun(pool, runIdOf(spec, itemIds), spec, itemIds);
      }
      for (;;) {
        const { rows } = await pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM work_items WHERE state = 'done'");
        if (Number(rows[0]!.n) === total) break;
        await sleep(100);
      }
      const { rows } = await pool.query<{ seconds: string }>("SELECT EXTRACT(EPOCH FROM max(finished_at) - min(started_at)) AS seconds FROM work_items");
      const requests = mocks.reduce((n, mock) => n + mock.stats.requests, 0);
      if (requests !== total) throw new Error(`${requests} requests for ${total} items`);
      return { items: total, seconds: Number(rows[0]!.seconds) };
    });
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
    await Promise.all(mocks.map((mock) => mock.close()));
  }
}

async function main(): Promise<void> {
  const base = execFileSync("bash", [path.join(ROOT, "scripts/queue-server.sh"), "start"], { encoding: "utf8" }).trim();
  const itemIds = loadForScoring({ benchmark: "egopath", data: EXAMPLE, out: "", bootstrapResamples: 0, bootstrapSeed: 0 }).items.map((item) => item.id);
  console.log(`queue throughput: ${RUNS} runs x ${itemIds.length} items; each worker: its own endpoint capped at ${CAP} in flight, ${LATENCY_MS} ms per request, --concurrency ${CONCURRENCY}`);
  const rows: string[][] = [];
  let one = 0;
  for (const workers of [1, 2, 4]) {
    const { items, seconds } = await measure(base, workers, itemIds);
    const rate = items / seconds;
    if (workers === 1) one = rate;
    rows.push([String(workers), String(items), seconds.toFixed(2), rate.toFixed(1), (CAP / (LATENCY_MS / 1000) * workers).toFixed(1), `${(rate / one).toFixed(2)}x`]);
  }
  console.log(table(["workers", "items", "seconds", "items/s", "ceiling items/s", "speed-up"], rows));
}

await main();
