/**
 * Small helpers shared by the bench scripts: temp folders, JSONL/PNG writing, the mock provider
 * server as a child process, GC access and a plain-text table. Nothing here is timed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import sharp from "sharp";
import type { RunCommandOptions } from "../../src/core/session.js";

/** The repository root (bench/lib/ -> ../..). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

export function writeJsonlSync(file: string, rows: readonly unknown[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length > 0 ? "\n" : ""));
}

export function writeJsonSync(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

/** A plain 128x128 RGB PNG of one colour. */
export async function writePng(file: string, background: { r: number; g: number; b: number }, size = 128): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width: size, height: size, channels: 3, background } }).png().toFile(file);
}

export interface MockChild {
  url: string;
  port: number;
  pid: number;
  stop(): void;
}

/**
 * Start test/helpers/mock-server-main.ts as a child process and wait for its
 * {"url","port","pid"} line. The child is killed when this process exits, whatever the reason.
 */
export async function startMockChild(args: string[], timeoutMs = 30_000): Promise<MockChild> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "test/helpers/mock-server-main.ts", ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  };
  process.once("exit", stop);
  try {
    const info = await new Promise<{ url: string; port: number; pid: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mock server printed nothing within ${timeoutMs} ms`)), timeoutMs);
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", (line) => {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(line) as { url: string; port: number; pid: number });
        } catch {
          reject(new Error(`mock server printed an unexpected line: ${line}`));
        }
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`mock server exited early (code ${code}, signal ${signal})`));
      });
    });
    return { ...info, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** global.gc without --expose-gc on the command line (so `node --import tsx bench/x.ts` is enough). */
export function getGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** Peak RSS and heap sampled every `everyMs` while `work` runs (the samples at start and end included). */
export async function withPeakRss<T>(work: () => Promise<T>, everyMs = 50): Promise<{ value: T; peakRss: number; peakHeap: number }> {
  let peak = 0;
  let peakHeap = 0;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    if (rss > peak) peak = rss;
    if (heapUsed > peakHeap) peakHeap = heapUsed;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  try {
    const value = await work();
    sample();
    return { value, peakRss: peak, peakHeap };
  } finally {
    clearInterval(timer);
  }
}

export const MB = 1024 * 1024;

/** Left-aligned first column, right-aligned others. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(fmt)].join("\n");
}

/**
 * executeRun's options for an EgoPathBench release run against a mock OpenAI endpoint: the release
 * prompts, no bootstrap, quiet, a fixed key (the mock checks none).
 */
export function mockEgoPathRun(opts: { data: string; out: string; model: string; url: string; concurrency: number; limit?: number }): RunCommandOptions {
  return {
    benchmark: "egopath",
    data: opts.data,
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
    out: opts.out,
    bootstrapResamples: 0,
    bootstrapSeed: 1,
    quiet: true,
    model: opts.model,
    concurrency: opts.concurrency,
    promptSource: "release",
    control: "none",
    seed: 1,
    flags: { base_url: `${opts.url}/v1` },
    retryErrors: false,
    env: { OPENAI_API_KEY: "sk-bench" },
  };
}

/** The system prompt of the synthetic EgoPathBench a1 rows the benches write. */
export const BENCH_SYSTEM_PROMPT = "You see an indoor room from a robot's camera. Numbered markers show candidate floor spots.";

/**
 * A synthetic EgoPathBench a1 row (the release's vqa_next_a1.jsonl shape): question i about the
 * given scene's view 0, waypoints `allIds`, every third one (shifted by i) not walkable.
 */
export function syntheticA1Row(i: number, scene: string, allIds: number[]) {
  const walkable = allIds.filter((id) => (id + i) % 3 !== 0);
  return {
    question_id: `bench_a1_${String(i).padStart(5, "0")}`,
    task: "a1",
    scene_id: scene,
    view_id: 0,
    image_path: `assets/${scene}/view_0/rgb_overlay_a1.png`,
    visible_waypoints_path: `assets/${scene}/view_0/visible_waypoints_a1.json`,
    system_prompt: BENCH_SYSTEM_PROMPT,
    user_prompt: `Question ${i + 1}: which numbered waypoints are on free, walkable floor? List their ids.`,
    ground_truth: { all_ids: allIds, walkable_ids: walkable, answer: walkable, robot_diameter_m: 0 },
  };
}
