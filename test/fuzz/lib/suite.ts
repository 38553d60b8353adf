/**
 * What every fuzz test file sets up and reports: a scratch folder (the canary outside the roots, a
 * small clip and frames, the seeds), the time limit and pool size, and the summary line the issue
 * quotes ("N fuzz cases, slowest <case> <ms> ms"), per family and, through
 * spatialprobe-fuzz-summary.jsonl in the OS temp folder, for all families one test run has run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TINY_PNG } from "../../helpers/media.js";
import { SECRET, watchCanary, writeCanary, type CanaryWatch } from "./canary.js";
import { suiteSeed } from "./random.js";
import type { CaseResult } from "./types.js";

/** A case's hard time limit: SPATIALPROBE_FUZZ_LIMIT_MS, default 10 s. */
export const LIMIT_MS = Number(process.env["SPATIALPROBE_FUZZ_LIMIT_MS"] ?? 10_000);
/** Workers running cases at once: SPATIALPROBE_FUZZ_WORKERS, default 2. */
export const WORKERS = Number(process.env["SPATIALPROBE_FUZZ_WORKERS"] ?? 2);
/** Only cases whose id contains this text (to run one failing case again). */
export const ONLY = process.env["SPATIALPROBE_FUZZ_ONLY"];

export interface Suite {
  seed: number;
  dir: string;
  canary: string;
  /** clip.mp4 (50 frames of 32x24 at 10 fps) and frames/{0,1,2}.png. */
  media: string;
  watch: CanaryWatch;
  close(): void;
}

export async function prepareSuite(family: string): Promise<Suite> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `spatialprobe-fuzz-${family}-`));
  const media = path.join(dir, "media");
  mkdirSync(path.join(media, "frames"), { recursive: true });
  const clip = path.join(media, "clip.mp4");
  execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=10:duration=5", "-pix_fmt", "yuv420p", clip]);
  for (const name of ["0.png", "1.png", "2.png"]) writeFileSync(path.join(media, "frames", name), TINY_PNG);
  const canary = path.join(dir, "outside");
  writeCanary(canary, clip);
  const watch = await watchCanary(canary);
  return {
    seed: suiteSeed(),
    dir,
    canary,
    media,
    watch,
    close() {
      watch.stop();
      if (!process.env["SPATIALPROBE_FUZZ_KEEP"]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Cases, with SPATIALPROBE_FUZZ_ONLY applied. */
export function selected<T extends { id: string }>(cases: T[]): T[] {
  return ONLY ? cases.filter((c) => c.id.includes(ONLY)) : cases;
}

/** "N fuzz cases, slowest <id> <ms> ms", with how long they took in all and per case. */
export function summaryLine(family: string, results: CaseResult[], wallMs: number): string {
  const slowest = results.reduce<CaseResult | undefined>((a, b) => (!a || b.ms > a.ms ? b : a), undefined);
  const hangs = results.filter((r) => r.status === "hang").length;
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  return (
    `${family}: ${results.length} fuzz cases in ${(wallMs / 1000).toFixed(1)} s, slowest ${slowest ? `${slowest.id} ${slowest.ms} ms` : "-"}` +
    ` (per case: median ${at(0.5)} ms, 95th percentile ${at(0.95)} ms${hangs ? `; ${hangs} hit the time limit` : ""})`
  );
}

/** With SPATIALPROBE_FUZZ_LOG=<file>: each result as a JSON line there, as it comes. */
export function logResult(result: CaseResult): void {
  const file = process.env["SPATIALPROBE_FUZZ_LOG"];
  if (!file) return;
  const report = result.status === "done" ? { stages: result.report.stages, note: result.report.note, problems: result.report.problems.slice(0, 1), errors: result.report.errors } : {};
  writeFileSync(file, `${JSON.stringify({ id: result.id, status: result.status, ms: result.ms, ...report, ...(result.status === "crash" ? { detail: result.detail } : {}) })}\n`, { flag: "a" });
}

interface FamilySummary {
  family: string;
  /** The test runner that ran the file (one `node --test` run of several files shares it). */
  runner: number;
  seed: number;
  cases: number;
  wall_ms: number;
  slowest: { id: string; ms: number } | null;
  failures: number;
  at: string;
}

const SUMMARY_FILE = path.join(os.tmpdir(), "spatialprobe-fuzz-summary.jsonl");

/**
 * Append the family's numbers to spatialprobe-fuzz-summary.jsonl (os.tmpdir()), and return the line
 * for every family this test runner has run so far ("N fuzz cases, slowest <case> <ms> ms"): after
 * the last fuzz file of `npm test`, the whole suite's.
 */
export function recordSummary(family: string, results: CaseResult[], wallMs: number, failures: number): string {
  const slowest = results.reduce<CaseResult | undefined>((a, b) => (!a || b.ms > a.ms ? b : a), undefined);
  const line: FamilySummary = { family, runner: process.ppid, seed: suiteSeed(), cases: results.length, wall_ms: Math.round(wallMs), slowest: slowest ? { id: slowest.id, ms: slowest.ms } : null, failures, at: new Date().toISOString() };
  let runs: FamilySummary[] = [line];
  try {
    writeFileSync(SUMMARY_FILE, `${JSON.stringify(line)}\n`, { flag: "a" });
    const all = readFileSync(SUMMARY_FILE, "utf8").trim().split("\n").map((l) => JSON.parse(l) as FamilySummary);
    // This runner's latest line per family.
    const recent = (r: FamilySummary) => Date.now() - Date.parse(r.at) < 6 * 3600_000; // a pid is reused, in time
    runs = [...new Map(all.filter((r) => r.runner === line.runner && recent(r)).map((r) => [r.family, r])).values()];
  } catch {
    /* the summary file is a convenience */
  }
  const cases = runs.reduce((n, r) => n + r.cases, 0);
  const top = runs.map((r) => r.slowest).reduce<{ id: string; ms: number } | null>((a, b) => (b && (!a || b.ms > a.ms) ? b : a), null);
  const wall = runs.reduce((n, r) => n + r.wall_ms, 0);
  return `${runs.map((r) => r.family).join(" + ")}: ${cases} fuzz cases in ${(wall / 1000).toFixed(1)} s, slowest ${top ? `${top.id} ${top.ms} ms` : "-"}; ${runs.reduce((n, r) => n + r.failures, 0)} failing`;
}

/** Canary events while the cases ran: each is a read no in-process guard saw, with the cases in flight. */
export function canaryEvents(watch: CanaryWatch): string[] {
  return watch.events.map((e) => `${e.name || "(the folder)"} opened or read (inotify mask 0x${e.mask.toString(16)}) at ${new Date(e.at).toISOString()}`);
}

export { SECRET };
