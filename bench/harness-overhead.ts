/**
 * Harness overhead at zero latency (issue 16, Performance): the harness against a minimal client,
 * both posting the same request bodies to the same instant mock, in one run.
 *
 *   node --import tsx bench/harness-overhead.ts            (N = 500 and 2000)
 *   BENCH_SIZES=200,800 BENCH_DATA=/tmp/x node --import tsx bench/harness-overhead.ts
 *
 * Data: an EgoPathBench release (the layout a researcher runs; the simplest one whose items carry
 * one picture each) with N a1 questions, each with its own 640x480 noise PNG (seeded; 6 random
 * bits per channel, so about 700 KB that no encoder can shrink) and its own visible-waypoints
 * sidecar. One release per size (the smaller one hard-links the larger one's files), so each
 * run loads and checks only the questions it asks.
 *
 * Mock: this file run with `--mock` in a child process: an HTTP server answering every
 * POST /v1/chat/completions at once, after reading the whole body, with one fixed valid reply.
 *
 * Phases, each in its own child process (peak RSS per phase = process.resourceUsage().maxRSS):
 *   harness  executeRun of `openai:bench-model` with base_url at the mock, concurrency 64, a fresh
 *            output folder and store (what `spatialprobe run` does); wall time of the whole call.
 *   minimal  plain fetch with 64 in flight: read each picture, base64 it, JSON.stringify the body
 *            the harness sends, POST it, read the reply.
 * A first check pass (VERIFY_N items, the mock keeping each body's SHA-256) proves the two send
 * byte-identical bodies; a mismatch is a broken setup (exit 1).
 *
 * Target: harness / minimal throughput >= 0.8 at the largest N, and harness peak RSS of the
 * largest N within 1.3x of the smallest. A missed target prints "TARGET MISSED" (exit 0).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { BENCH_SYSTEM_PROMPT, makeTempDir, mockEgoPathRun, REPO_ROOT, syntheticA1Row, table, writeJsonlSync, writeJsonSync } from "./lib/common.js";

const CONCURRENCY = 64;
const SIZES = (process.env["BENCH_SIZES"] ?? "500,2000").split(",").map(Number);
const VERIFY_N = 16;
const WIDTH = 640;
const HEIGHT = 480;
const SEED = 20260416;
const MODEL = "bench-model";
const RATIO_TARGET = 0.8;
const RSS_FLAT_TARGET = 1.3;
/** The egopath release prompt's output line (benchmarks/egopath/prompt.ts); the check pass proves it matches. */
const OUTPUT_INSTRUCTION = 'Return only a JSON object of the form {"display_ids":[...]} with no extra text.';
const SYSTEM_PROMPT = BENCH_SYSTEM_PROMPT;
const REPLY = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  model: MODEL,
  choices: [{ index: 0, message: { role: "assistant", content: '{"display_ids":[1]}' }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1000, completion_tokens: 8, total_tokens: 1008 },
});
const SELF = fileURLToPath(import.meta.url);

class SetupError extends Error {}

interface Row {
  question_id: string;
  image_path: string;
  user_prompt: string;
}

// ---------------------------------------------------------------- data

/** xorshift32 stream: the same seed gives the same pictures on every machine. */
function noiseBytes(seed: number, length: number): Buffer {
  const words = new Uint32Array(Math.ceil(length / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x & 0xfcfcfcfc; // 6 random bits per byte: ~0.75 x raw size, still incompressible
  }
  return Buffer.from(words.buffer, 0, length);
}

function rowFor(i: number): Row & Record<string, unknown> {
  return syntheticA1Row(i, `bench_${String(i).padStart(5, "0")}`, [1, 2, 3, 4, 5, 6]);
}

const RELEASE_JSONL = "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl";

/** The release for the largest size: one noise PNG and one sidecar per question (skipped when already there). */
async function buildRelease(root: string, total: number): Promise<void> {
  const rows = Array.from({ length: total }, (_, i) => rowFor(i));
  const pending = rows.filter((r) => !existsSync(path.join(root, r.image_path)));
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < pending.length; k = next++) {
      const row = pending[k]!;
      const i = Number(row.question_id.slice(-5));
      const file = path.join(root, row.image_path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeJsonSync(path.join(root, row.visible_waypoints_path as string), {
        visible_waypoints: [1, 2, 3, 4, 5, 6].map((k2) => ({ display_id: k2, waypoint_id: 100 + k2, world_xyz: [k2 * 0.5, 0, 0], image_xy: [40 + k2 * 80, 240] })),
      });
      const raw = noiseBytes(SEED + i * 7919, WIDTH * HEIGHT * 3);
      await sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png({ compressionLevel: 6, adaptiveFiltering: false }).toFile(file);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  writeJsonlSync(path.join(root, RELEASE_JSONL), rows);
}

/** A release of the first n questions of `full`, its files hard-linked. */
function subRelease(full: string, root: string, n: number): void {
  const rows = Array.from({ length: n }, (_, i) => rowFor(i));
  for (const row of rows) {
    for (const rel of [row.image_path, row["visible_waypoints_path"] as string]) {
      const target = path.join(root, rel);
      if (existsSync(target)) continue;
      mkdirSync(path.dirname(target), { recursive: true });
      linkSync(path.join(full, rel), target);
    }
  }
  writeJsonlSync(path.join(root, RELEASE_JSONL), rows);
}

// ---------------------------------------------------------------- mock (child)

/** The instant mock: reads every body whole, answers at once; /__bench/* for counts and body hashes. */
async function runMock(): Promise<void> {
  let requests = 0;
  let record = false;
  let hashes: string[] = [];
  let bytes = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "";
      if (req.method === "POST" && url === "/v1/chat/completions") {
        requests++;
        const body = Buffer.concat(chunks);
        bytes += body.length;
        if (record) hashes.push(createHash("sha256").update(body).digest("hex"));
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(REPLY) });
        res.end(REPLY);
        return;
      }
      if (url === "/__bench/reset") {
        record = Buffer.concat(chunks).toString() === "record";
        requests = 0;
        bytes = 0;
        hashes = [];
        res.end("{}");
        return;
      }
      if (url === "/__bench/stats") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ requests, bytes, hashes: [...hashes].sort() }));
        return;
      }
      res.writeHead(404);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}` }) + "\n");
}

// ---------------------------------------------------------------- phases (children)

interface PhaseResult {
  wallS: number;
  maxRssMb: number;
  cpuS: number;
}

async function phaseHarness(data: string, out: string, url: string): Promise<PhaseResult> {
  const { executeRun } = await import("../src/core/session.js");
  const cpu = process.cpuUsage();
  const started = performance.now();
  const summary = await executeRun(mockEgoPathRun({ data, out, model: `openai:${MODEL}`, url, concurrency: CONCURRENCY }));
  const wallS = (performance.now() - started) / 1000;
  const errors = summary.results.filter((r) => r.status !== "scored");
  if (errors.length > 0) throw new SetupError(`${errors.length} items not scored, first: ${JSON.stringify(errors[0]).slice(0, 300)}`);
  return { wallS, maxRssMb: process.resourceUsage().maxRSS / 1024, cpuS: cpuSeconds(cpu) };
}

/** The body the harness sends for one release row (openai wire, release prompts, JSON mode, default settings). */
function minimalBody(row: Row, base64: string): string {
  return JSON.stringify({
    model: MODEL,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: `data:image/png;base64,${base64}`, detail: "high" } },
          { type: "text", text: `${row.user_prompt}\n${OUTPUT_INSTRUCTION}` },
        ],
      },
    ],
    temperature: 0,
    top_p: 1,
    max_completion_tokens: 8192,
    response_format: { type: "json_object" },
  });
}

async function phaseMinimal(data: string, url: string): Promise<PhaseResult> {
  const rows = readFileSync(path.join(data, RELEASE_JSONL), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i]!;
      const base64 = (await readFile(path.join(data, row.image_path))).toString("base64");
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: "Bearer sk-bench" },
        body: minimalBody(row, base64),
      });
      const reply = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
      if (!res.ok || typeof reply.choices?.[0]?.message?.content !== "string") throw new SetupError(`minimal client: bad reply ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wallS = (performance.now() - started) / 1000;
  return { wallS, maxRssMb: process.resourceUsage().maxRSS / 1024, cpuS: cpuSeconds(cpu) };
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

// ---------------------------------------------------------------- parent

function childLine(args: string[], env: NodeJS.ProcessEnv = {}): { line: Promise<string>; kill: () => void; done: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", ...(process.env["BENCH_NODE_ARGS"]?.split(" ").filter(Boolean) ?? []), SELF, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  };
  process.once("exit", kill);
  const done = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new SetupError(`child ${args.join(" ")} exited (code ${code}) without a result`)));
  });
  return { line, kill, done };
}

async function runPhase(kind: "harness" | "minimal", data: string, url: string, out: string): Promise<PhaseResult> {
  const child = childLine(["--phase", kind, "--data", data, "--url", url, "--out", out]);
  const parsed = JSON.parse(await child.line) as PhaseResult | { error: string };
  await child.done;
  if ("error" in parsed) throw new SetupError(`${kind} phase: ${parsed.error}`);
  return parsed;
}

async function mockCall(url: string, what: "reset" | "stats", body?: string): Promise<{ requests: number; bytes: number; hashes: string[] }> {
  const res = await fetch(`${url}/__bench/${what}`, { method: body === undefined ? "GET" : "POST", ...(body !== undefined ? { body } : {}) });
  return (await res.json()) as { requests: number; bytes: number; hashes: string[] };
}

interface Measured {
  n: number;
  harness: PhaseResult;
  minimal: PhaseResult;
  meanBodyKb: number;
}

async function measureSize(url: string, data: string, tmp: string, n: number): Promise<Measured> {
  const counted = async (kind: "harness" | "minimal") => {
    await mockCall(url, "reset", "");
    const result = await runPhase(kind, data, url, path.join(tmp, `out-${kind}-${n}`));
    const stats = await mockCall(url, "stats");
    if (stats.requests !== n) throw new SetupError(`${kind} N=${n}: the mock served ${stats.requests} requests, expected ${n}`);
    return { result, bytes: stats.bytes };
  };
  const harness = await counted("harness");
  const minimal = await counted("minimal");
  return { n, harness: harness.result, minimal: minimal.result, meanBodyKb: minimal.bytes / n / 1024 };
}

/** Both clients on the first VERIFY_N questions, the mock hashing every body: the sets must be equal. */
async function verifyBodies(url: string, data: string, tmp: string): Promise<void> {
  const hashesOf = async (kind: "harness" | "minimal") => {
    await mockCall(url, "reset", "record");
    await runPhase(kind, data, url, path.join(tmp, `out-verify-${kind}`));
    return (await mockCall(url, "stats")).hashes;
  };
  const a = await hashesOf("harness");
  const b = await hashesOf("minimal");
  if (a.length !== VERIFY_N || JSON.stringify(a) !== JSON.stringify(b)) {
    throw new SetupError(`the minimal client's bodies differ from the harness's (${a.length} vs ${b.length} bodies; first hashes ${a[0]} / ${b[0]})`);
  }
}

async function main(): Promise<number> {
  const sizes = [...SIZES].sort((x, y) => x - y);
  const largest = sizes[sizes.length - 1]!;
  const tmp = makeTempDir("spatialprobe-bench-overhead");
  const dataRoot = process.env["BENCH_DATA"] ?? path.join(tmp, "data");
  const full = path.join(dataRoot, `release-${largest}`);
  console.log(`harness-overhead: ${sizes.join(" / ")} requests of ${WIDTH}x${HEIGHT} noise PNGs, concurrency ${CONCURRENCY}, instant mock; data in ${dataRoot}`);
  const t0 = performance.now();
  await buildRelease(full, largest);
  for (const n of [VERIFY_N, ...sizes]) if (n !== largest) subRelease(full, path.join(dataRoot, `release-${n}`), n);
  const meanPngKb = Array.from({ length: 8 }, (_, i) => readFileSync(path.join(full, rowFor(i).image_path)).length).reduce((a, b) => a + b, 0) / 8 / 1024;
  console.log(`data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s; mean PNG ${meanPngKb.toFixed(0)} KB`);

  const mock = childLine(["--mock"]);
  const results: Measured[] = [];
  try {
    const url = (JSON.parse(await mock.line) as { url: string }).url;
    await verifyBodies(url, path.join(dataRoot, `release-${VERIFY_N}`), tmp);
    console.log(`check pass: the harness and the minimal client sent the same ${VERIFY_N} bodies (SHA-256 of each, as the mock read them)`);
    for (const n of sizes) results.push(await measureSize(url, path.join(dataRoot, `release-${n}`), tmp, n));
  } finally {
    mock.kill();
    rmSync(tmp, { recursive: true, force: true });
  }

  console.log("");
  console.log(
    table(
      ["N", "body KB", "harness req/s", "minimal req/s", "ratio", "harness wall s", "minimal wall s", "harness CPU ms/req", "minimal CPU ms/req", "CPU ratio", "harness peak RSS MB", "minimal peak RSS MB"],
      results.map((r) => [
        String(r.n),
        r.meanBodyKb.toFixed(0),
        (r.n / r.harness.wallS).toFixed(1),
        (r.n / r.minimal.wallS).toFixed(1),
        (r.minimal.wallS / r.harness.wallS).toFixed(3),
        r.harness.wallS.toFixed(2),
        r.minimal.wallS.toFixed(2),
        ((r.harness.cpuS * 1000) / r.n).toFixed(2),
        ((r.minimal.cpuS * 1000) / r.n).toFixed(2),
        (r.minimal.cpuS / r.harness.cpuS).toFixed(3),
        r.harness.maxRssMb.toFixed(0),
        r.minimal.maxRssMb.toFixed(0),
      ]),
    ),
  );
  const small = results[0]!;
  const large = results[results.length - 1]!;
  const ratio = large.minimal.wallS / large.harness.wallS;
  const rssGrowth = large.harness.maxRssMb / small.harness.maxRssMb;
  console.log("");
  console.log(`(ratio = harness throughput / minimal client throughput; harness wall = the whole executeRun: load, check, ask, score, write;`);
  console.log(` CPU = user + system time of the phase's process, threads included; CPU ratio = minimal CPU / harness CPU, the ratio a CPU-bound run tends to;`);
  console.log(` load average over 1 min at the end: ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs: other work on the machine lengthens both walls)`);
  console.log(`harness peak RSS ${large.n}/${small.n}: ${rssGrowth.toFixed(3)}; minimal client ${(large.minimal.maxRssMb / small.minimal.maxRssMb).toFixed(3)}`);
  const missed: string[] = [];
  if (ratio < RATIO_TARGET) missed.push(`throughput ratio ${ratio.toFixed(3)} < ${RATIO_TARGET} at N=${large.n}`);
  if (rssGrowth > RSS_FLAT_TARGET) missed.push(`harness peak RSS grows ${rssGrowth.toFixed(3)}x from N=${small.n} to N=${large.n} (> ${RSS_FLAT_TARGET})`);
  console.log(missed.length > 0 ? `TARGET MISSED: ${missed.join("; ")}` : `target met: ratio >= ${RATIO_TARGET} at N=${large.n}, peak RSS within ${RSS_FLAT_TARGET}x`);
  return 0;
}

// ---------------------------------------------------------------- entry

function argOf(name: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (v === undefined) throw new SetupError(`missing ${name}`);
  return v;
}

async function child(): Promise<void> {
  const kind = argOf("--phase");
  try {
    const result = kind === "harness" ? await phaseHarness(argOf("--data"), argOf("--out"), argOf("--url")) : await phaseMinimal(argOf("--data"), argOf("--url"));
    // Exit once the line is out: idle keep-alive sockets would hold the process a few seconds more.
    process.stdout.write(JSON.stringify(result) + "\n", () => process.exit(0));
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: error instanceof Error ? error.stack ?? error.message : String(error) }) + "\n", () => process.exit(0));
  }
}

if (process.argv.includes("--mock")) {
  void runMock();
} else if (process.argv.includes("--phase")) {
  void child();
} else {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`harness-overhead: ${error instanceof SetupError ? "broken setup: " : ""}${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
