/**
 * `score --restrict-to-predictions` (the official EgoPathBench evaluator's flag): only the questions a
 * predictions file answers are scored, and every output says so; without it the rest count as missing.
 * Flags that only some benchmarks read are refused elsewhere instead of being ignored.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { executeScore } from "../../src/core/session.js";
import { checkFlagReaders } from "../../src/cli/shared.js";
import { UsageError } from "../../src/core/problems.js";
import { ROOT } from "../helpers/cli.js";

const DATA = path.join(ROOT, "examples/egopath-mini");
const A1 = path.join(DATA, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-restrict-"));

/** The first two a1 questions answered with their own ground truth (a1 has 7 questions). */
function twoPerfectPredictions(dir: string): string {
  const rows = readFileSync(A1, "utf8").trim().split("\n").slice(0, 2).map((line) => JSON.parse(line));
  const file = path.join(dir, "a1.jsonl");
  writeFileSync(file, rows.map((r) => JSON.stringify({ question_id: r.question_id, output: JSON.stringify(r.ground_truth.answer) })).join("\n") + "\n");
  return file;
}

const common = (out: string) => ({ benchmark: "egopath", data: DATA, tasks: ["a1"], out, bootstrapResamples: 0, bootstrapSeed: 1, quiet: true });

test("restricted: 2 of 7 questions scored, complete, the restriction recorded and shown in the Runs notes", async () => {
  const dir = tmp();
  const predictions = twoPerfectPredictions(dir);
  const { scores } = await executeScore({ ...common(path.join(dir, "out")), predictions: [predictions], restrictToPredictions: true });
  assert.equal(scores.n_total, 2);
  assert.equal(scores.n_scored, 2);
  assert.equal(scores.complete, true);
  assert.deepEqual(scores["restricted_to_predictions"], { n_scored_items: 2, n_in_data: 7 });
  const task = scores.tasks["point_traversability"] as { n: number; F1: number };
  assert.equal(task.n, 2);
  assert.equal(task.F1, 1);
  const report = readFileSync(path.join(dir, "out", "report.md"), "utf8");
  assert.match(report, /restricted to the 2 of 7 questions the predictions answer \(--restrict-to-predictions\)/);
});

test("not restricted: the same file leaves 5 of 7 questions missing and the run incomplete", async () => {
  const dir = tmp();
  const predictions = twoPerfectPredictions(dir);
  const { scores } = await executeScore({ ...common(path.join(dir, "out")), predictions: [predictions] });
  assert.equal(scores.n_total, 7);
  assert.equal(scores.n_scored, 2);
  assert.equal(scores.complete, false);
  assert.equal(scores.counts.missing, 5);
  assert.equal(scores["restricted_to_predictions"], undefined);
});

test("--split, --rules, --frames and --fps are refused by benchmarks that do not read them", () => {
  assert.throws(() => checkFlagReaders("patheval", { split: "val" }), (e: unknown) => e instanceof UsageError && e.message === "--split is read by egopath only, not patheval");
  assert.throws(() => checkFlagReaders("egopath", { rules: "paper" }), (e: unknown) => e instanceof UsageError && e.message === "--rules is read by epic only, not egopath");
  assert.throws(() => checkFlagReaders("vcn", { fps: 2 }), (e: unknown) => e instanceof UsageError && e.message === "--fps is read by egotl only, not vcn");
  assert.doesNotThrow(() => checkFlagReaders("egotl", { frames: 8, fps: 2 }));
  assert.doesNotThrow(() => checkFlagReaders("epic", { rules: "paper", split: undefined }));
});
