import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { acquireFolderLock } from "../../src/core/lock.js";
import { DataError } from "../../src/core/problems.js";
import { executeRun } from "../../src/core/session.js";
import { goalIdFromRun } from "../../src/benchmarks/vcn/index.js";
import { readRunFolder, RunFolderError } from "../../src/report/run-folder.js";
import { summaryHtml } from "../../src/report/page.js";
import { readScores } from "../../src/report/render.js";

/** Readers of run folders say which file and line is damaged; nothing is skipped silently. */
const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/spatialprobe.js");
const EGOPATH = path.join(ROOT, "examples/egopath-mini");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-integrity-"));
const finished = path.join(work, "finished");
const common = { bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, control: "none", seed: 1, retryErrors: false, flags: {} };
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8" });

before(async () => {
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: finished, model: "oracle", tasks: ["a2"], promptSource: "release" });
});

/** A copy of the finished run whose items.jsonl line `n` (1-based) is replaced. */
function withLine(n: number, text: string): string {
  const dir = mkdtempSync(path.join(work, "copy-"));
  cpSync(finished, dir, { recursive: true });
  const file = path.join(dir, "items.jsonl");
  const lines = readFileSync(file, "utf8").split("\n");
  lines[n - 1] = text;
  writeFileSync(file, lines.join("\n"));
  return dir;
}

test("a torn items.jsonl line: report (md, json, html) and overlay name the file and the line, and stop", () => {
  const line3 = readFileSync(path.join(finished, "items.jsonl"), "utf8").split("\n")[2]!;
  const torn = line3.slice(0, 40);
  const dir = withLine(3, torn);
  const items = path.join(dir, "items.jsonl");
  const expected = `error: the run folder has problems; nothing was reported:\n` +
    `  - ${items}, line 3: not valid JSON (40 characters): a torn or damaged line\n` +
    `  - ${items}: does not match outputs.json: it changed after the run wrote its outputs (damaged, cut off while being rewritten, or written by another run), so scores.json and items.jsonl may not belong together: run the command again to rewrite them\n`;
  for (const args of [[dir], [dir, "--format", "json"], [dir, "--format", "html", "--out", path.join(work, "torn.html")]]) {
    const report = cli("report", ...args);
    assert.equal(report.status, 2, args.join(" "));
    assert.equal(report.stdout, "");
    assert.equal(report.stderr, expected, args.join(" "));
  }
  const overlay = cli("overlay", dir, "--out", path.join(work, "overlays"));
  assert.equal(overlay.status, 2);
  assert.equal(overlay.stderr, expected);
});

test("a line that is JSON but not a result, in a folder without outputs.json (older runs): file and line", () => {
  const dir = withLine(2, "[1, 2, 3]");
  rmSync(path.join(dir, "outputs.json")); // as in folders written before it existed: only the lines are checked
  assert.throws(() => readScores([dir]), (error: unknown) => error instanceof RunFolderError &&
    error.message === `the run folder has problems; nothing was reported:\n  - ${path.join(dir, "items.jsonl")}, line 2: not an item result (expected a JSON object with an id)`);
  const run = readRunFolder(dir);
  assert.equal(run.results.length, readFileSync(path.join(finished, "items.jsonl"), "utf8").trim().split("\n").length - 1);
  assert.deepEqual(run.problems, [{ file: path.join(dir, "items.jsonl"), line: 2, message: "not an item result (expected a JSON object with an id)" }]);
});

test("vcn navigation --goal-run: a torn items.jsonl line is a DataError naming file and line", async () => {
  const out = path.join(work, "vcn");
  await executeRun({ ...common, benchmark: "vcn", data: path.join(ROOT, "test/fixtures/vcn-legacy-mini"), out, model: "oracle", promptSource: "plain" });
  const file = path.join(out, "items.jsonl");
  const lines = readFileSync(file, "utf8").split("\n");
  lines[0] = "{\"id\": ";
  writeFileSync(file, lines.join("\n"));
  assert.throws(() => goalIdFromRun(out), (error: unknown) => error instanceof DataError &&
    error.problems[0]!.file === file && error.problems[0]!.line === 1 && /not valid JSON/.test(error.problems[0]!.message));
});

test("live.jsonl: a last line without its newline is being written (lock held) or cut off (no live owner); any other bad line is a problem", () => {
  const dir = path.join(work, "live");
  mkdirSync(dir);
  const lines = readFileSync(path.join(finished, "items.jsonl"), "utf8").trim().split("\n");
  writeFileSync(path.join(dir, "live.json"), JSON.stringify({ benchmark: "egopath", model: "oracle", data: EGOPATH, prompt_source: "release", benchmark_options: {}, n_total: 9, started_at: "2026-12-01T00:00:00Z" }));
  // Line 2 is damaged and complete (it has its newline); line 4 is the one being appended.
  writeFileSync(path.join(dir, "live.jsonl"), `${lines[0]}\n{"id": "x", "ta\n${lines[1]}\n${lines[2]!.slice(0, 30)}`);

  const stopped = readRunFolder(dir);
  assert.equal(stopped.state, "in progress");
  assert.deepEqual(stopped.results.map((r) => r.id), [JSON.parse(lines[0]!).id, JSON.parse(lines[1]!).id]);
  assert.deepEqual(stopped.problems, [{ file: path.join(dir, "live.jsonl"), line: 2, message: "not valid JSON (15 characters): a torn or damaged line" }]);
  assert.deepEqual(stopped.partialLine, { line: 4, writing: false });
  const html = summaryHtml([stopped]);
  assert.ok(html.includes(`<li>${path.join(dir, "live.jsonl")}, line 2: not valid JSON (15 characters): a torn or damaged line</li>`));
  assert.ok(html.includes(`<span class="live">in progress: 2 of 9 · line 4 cut off (the run stopped while writing it; running it again rewrites it)</span> <span class="damaged">1 problem (see above)</span>`));

  const lock = acquireFolderLock(dir);
  try {
    const running = readRunFolder(dir);
    assert.deepEqual(running.partialLine, { line: 4, writing: true });
    // While a writer holds the lock, the problem list says so.
    assert.equal(running.problems.length, 2);
    assert.equal(running.problems[1]!.message, `a spatialprobe process (pid ${process.pid} on ${os.hostname()}) is writing this folder now; try again when it has finished`);
    assert.ok(summaryHtml([running]).includes("in progress: 2 of 9 · 1 result being written (line 4)</span>"));
  } finally {
    lock.release();
  }

  // With the damaged line gone and the last line complete, nothing is reported.
  writeFileSync(path.join(dir, "live.jsonl"), `${lines[0]}\n${lines[1]}\n`);
  const clean = readRunFolder(dir);
  assert.deepEqual([clean.results.length, clean.problems, clean.partialLine], [2, [], null]);
});
