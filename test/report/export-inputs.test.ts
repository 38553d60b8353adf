import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { UsageError } from "../../src/core/problems.js";
import { expandReportInputs } from "../../src/report/export/inputs.js";
import { readReportRuns } from "../../src/report/render.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = path.join(ROOT, "test/fixtures/report-runs");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-export-inputs-"));
const usage = (message: string) => (error: unknown) => error instanceof UsageError && error.message === message;

/** Every run folder of the fixture, as its README lists them, in sorted path order. */
const FIXTURE_RUNS = [
  "egopath/oracle", "egopath/partial", "egopath/random", "egotl/formula", "egotl/random", "epic/random",
  "navigation/forward", "patheval/random", "repeats/epic-rep/repeat-1", "repeats/epic-rep/repeat-2", "vcn/oracle", "vcn/random",
];

test("a folder of runs expands to every run folder below it, at any depth, sorted; run folders and files stand for themselves", () => {
  assert.deepEqual(expandReportInputs([RUNS], { requireScores: true }), { runs: FIXTURE_RUNS.map((r) => path.join(RUNS, r)), unfinished: [] });
  // A `run --repeats` folder: its repeat-k/ folders.
  assert.deepEqual(expandReportInputs([path.join(RUNS, "repeats/epic-rep")], { requireScores: true }).runs, [1, 2].map((k) => path.join(RUNS, `repeats/epic-rep/repeat-${k}`)));
  // A run folder and a scores.json, in argument order.
  const file = path.join(RUNS, "vcn/random/scores.json");
  assert.deepEqual(expandReportInputs([path.join(RUNS, "egotl/random"), file], { requireScores: true }).runs, [path.join(RUNS, "egotl/random"), file]);
  // What readReportRuns reads: the same runs, with their items.
  const runs = readReportRuns([RUNS]);
  assert.deepEqual(runs.map((r) => path.relative(RUNS, path.dirname(r.file))), FIXTURE_RUNS);
  assert.equal(runs.find((r) => r.file.endsWith(path.join("navigation", "forward", "scores.json")))!.results, null);
  assert.equal(runs[0]!.results!.length, 10);
});

test("runs in progress: left out of score formats (and reported), kept for the HTML page; named directly, an error", () => {
  const dir = tmp();
  cpSync(path.join(RUNS, "vcn/random"), path.join(dir, "a/done"), { recursive: true });
  mkdirSync(path.join(dir, "a/running"), { recursive: true });
  writeFileSync(path.join(dir, "a/running/live.json"), "{}");
  assert.deepEqual(expandReportInputs([dir], { requireScores: true }), { runs: [path.join(dir, "a/done")], unfinished: [path.join(dir, "a/running")] });
  assert.deepEqual(expandReportInputs([dir], { requireScores: false }).runs, [path.join(dir, "a/done"), path.join(dir, "a/running")]);
  let noted: string[] = [];
  assert.equal(readReportRuns([dir], (dirs) => (noted = dirs)).length, 1);
  assert.deepEqual(noted, [path.join(dir, "a/running")]);
  assert.throws(() => expandReportInputs([path.join(dir, "a/running")], { requireScores: true }), usage(`no scores.json at ${path.join(dir, "a/running")}`));
  const onlyRunning = path.join(dir, "a/running-only");
  mkdirSync(path.join(onlyRunning, "r"), { recursive: true });
  writeFileSync(path.join(onlyRunning, "r/live.json"), "{}");
  assert.throws(() => expandReportInputs([onlyRunning], { requireScores: true }), usage(`${onlyRunning} holds no finished run (no scores.json in the 1 run folder below it)`));
});

test("not found, empty, and links: one-line UsageErrors; links are not followed", () => {
  const dir = tmp();
  assert.throws(() => expandReportInputs([path.join(dir, "missing")], { requireScores: true }), usage(`no run at ${path.join(dir, "missing")}`));
  mkdirSync(path.join(dir, "empty/deeper"), { recursive: true });
  assert.throws(() => expandReportInputs([path.join(dir, "empty")], { requireScores: true }), usage(`${path.join(dir, "empty")} is not a run folder and holds none (looked 8 levels down for scores.json)`));
  // A link to the runs (or a loop back up) is not searched.
  symlinkSync(RUNS, path.join(dir, "empty/link"));
  symlinkSync(dir, path.join(dir, "empty/deeper/loop"));
  assert.throws(() => expandReportInputs([path.join(dir, "empty")], { requireScores: true }), UsageError);
});

test("a damaged or foreign scores.json is a one-line UsageError naming the file", () => {
  const dir = tmp();
  cpSync(path.join(RUNS, "vcn/random"), path.join(dir, "r"), { recursive: true });
  const file = path.join(dir, "r/scores.json");
  writeFileSync(file, '{"benchmark": ');
  assert.throws(() => readReportRuns([dir]), (e: unknown) => e instanceof UsageError && e.message.startsWith(`${file}: `) && !e.message.includes("\n"));
  writeFileSync(file, "[1, 2]");
  assert.throws(() => readReportRuns([dir]), usage(`${file}: not a spatialprobe scores.json (expected a JSON object with "benchmark" and "model")`));
  writeFileSync(file, '{"benchmark": "nope", "model": "m"}');
  assert.throws(() => readReportRuns([dir]), (e: unknown) => e instanceof UsageError && e.message.startsWith(`${file}: unknown benchmark "nope"`));
});
