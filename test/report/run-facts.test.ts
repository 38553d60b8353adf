/** The run facts every table shows: computed from results, read back from scores.json, worded for each table. */
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import type { ItemResult, ScoresDocument } from "../../src/core/benchmark.js";
import {
  coverageOf, incompleteReason, noteRunFolder, nScoredCell, overallCell, resultFacts, runLabel, runLabels, runsMarkdown, scoreCoverage, statusCell, usageLine,
} from "../../src/report/run-facts.js";

const scored = (id: string, task: string, status: "ok" | "missing" | "unparseable" = "ok"): ItemResult =>
  ({ id, task, cluster: "s", status: "scored", answer: { status, value: null } });
const failed = (id: string, task: string, message: string): ItemResult =>
  ({ id, task, cluster: "s", status: "error", response: { latency_ms: 0, attempts: 1, cached: false, error: { kind: "http", status: 500, message } } });

const doc = (extra: Record<string, unknown>): ScoresDocument =>
  ({ benchmark: "egopath", model: "openai:gpt-4o", n: 0, score: null, tasks: {}, counts: { parse_failures: 0, errors: 0, missing: 0 }, ...extra }) as ScoresDocument;

test("facts from results: scored = with a prediction (unreadable counts, missing does not); the first error in item order", () => {
  const results = [scored("a", "a1"), failed("b", "a1", "HTTP 500: boom"), scored("c", "b1", "missing"), scored("d", "b1", "unparseable"), failed("e", "c", "later")];
  assert.deepEqual(resultFacts(results, 5, ["a1", "b1", "c"]), {
    n_total: 5, n_scored: 2, complete: false,
    first_error: { id: "b", kind: "http", message: "HTTP 500: boom" },
    missing_by_task: { a1: 0, b1: 1, c: 0 },
  });
  assert.deepEqual(resultFacts([scored("a", "a1")], 1, ["a1"]), { n_total: 1, n_scored: 1, complete: true, missing_by_task: { a1: 0 } });
  // A result list shorter than the items asked (requests held back) is not complete.
  assert.equal(resultFacts([scored("a", "a1")], 2, ["a1"]).complete, false);
});

test("score coverage: the EgoPath Score needs all five tasks; EgoTL's Avg. the five choice tasks; EPIC what was asked", () => {
  const results = [scored("a", "a1"), failed("b", "b1", "x"), scored("c", "a2", "missing")];
  assert.deepEqual(scoreCoverage("egopath", results), { tasks: ["a1", "b1", "a2", "b2", "c"], without_predictions: ["b1", "a2", "b2", "c"] });
  assert.deepEqual(scoreCoverage("egotl", [scored("p", "planning"), scored("d", "distance")]).without_predictions, ["scene_action", "next_action", "action_recognition", "direction"]);
  assert.deepEqual(scoreCoverage("egotl", [scored("d", "distance")]), { tasks: ["distance"], without_predictions: [] });
  assert.deepEqual(scoreCoverage("epic", [scored("x", "Counting"), scored("y", "Category", "missing")]), { tasks: ["Counting", "Category"], without_predictions: ["Category"] });
  assert.deepEqual(scoreCoverage("vcn", [scored("x", "count")]).tasks, ["count", "order", "distance", "orientation", "instance"]);
});

test("cells and the exit reason", () => {
  const run = doc({ n_total: 79, n_scored: 73, complete: false, counts: { parse_failures: 0, errors: 4, missing: 2 }, score_complete: false, score_coverage: { tasks: ["a1", "b1", "a2", "b2", "c"], without_predictions: ["b2", "c"] } });
  assert.equal(nScoredCell(run), "73/79 incomplete");
  assert.equal(statusCell(run), "incomplete: 4 errors, 2 missing");
  assert.equal(incompleteReason(run, false), "incomplete: 4 of 79 items ended in errors, 2 have no prediction; exit 3 (--allow-incomplete to exit 0)");
  assert.equal(incompleteReason(run, true), "incomplete: 4 of 79 items ended in errors, 2 have no prediction; exit 0 (--allow-incomplete)");
  assert.equal(overallCell(run, "20.3"), "— (3 of 5 tasks)");
  assert.equal(overallCell(run, "20.3", ["a1", "b1"]), "20.3"); // a part over tasks that all have predictions
  assert.deepEqual(coverageOf(run, ["a2", "b2"]), { complete: false, with: 1, of: 2 });

  const one = doc({ n_total: 10, n_scored: 8, complete: false, counts: { parse_failures: 0, errors: 1, missing: 1 } });
  assert.equal(incompleteReason(one, false), "incomplete: 1 of 10 items ended in an error, 1 has no prediction; exit 3 (--allow-incomplete to exit 0)");
  assert.equal(incompleteReason(doc({ n_total: 10, n_scored: 9, complete: false, counts: { parse_failures: 0, errors: 0, missing: 1 } }), false), "incomplete: 1 of 10 items has no prediction; exit 3 (--allow-incomplete to exit 0)");
  const whole = doc({ n_total: 10, n_scored: 10, complete: true });
  assert.equal(incompleteReason(whole, false), undefined);
  assert.equal(nScoredCell(whole), "10/10");
  assert.equal(statusCell(whole), "complete");
  // scores.json from before these fields: the counts say it.
  assert.equal(nScoredCell(doc({ n: 7, counts: { parse_failures: 1, errors: 3, missing: 0, items: 10 } })), "7/10 incomplete");
});

test("labels: the name, else the model and what differs from the defaults; repeats numbered, never merged", () => {
  const defaults = { prompt: "release", control: "none" };
  assert.equal(runLabel(doc({ name: "baseline A", run_options: { prompt_source: "templates" } }), defaults), "baseline A");
  assert.equal(runLabel(doc({ control: "none", run_options: { prompt_source: "release", benchmark_options: {} } }), defaults), "openai:gpt-4o");
  assert.equal(runLabel(doc({ control: "text-only", run_options: { prompt_source: "templates", benchmark_options: { coords: "0-1000", strict: true, allowOutsideRoot: true } } }), defaults), "openai:gpt-4o (templates, text-only, coords 0-1000, strict)");
  assert.equal(runLabel(doc({ circular: true, run_options: { prompt_source: "templates", benchmark_options: { train: "/data/egotl/train.jsonl" } } }), { prompt: "templates" }), "openai:gpt-4o (circular, train train.jsonl)");
  assert.deepEqual(runLabels([doc({}), doc({}), doc({ name: "x" })]), ["openai:gpt-4o", "openai:gpt-4o (2)", "x"]);
});

test("the Runs table: identity, N scored / N total, status, usage columns when any run has usage, notes for failures", () => {
  const usage = {
    requests: 75, input_tokens: 1234567, output_tokens: 8901, reasoning_tokens: 0, with_usage: 75,
    latency_ms: { p50: 1234, p90: 5678, p99: 9000, mean: 2000, max: 9100 },
    truncated: { n: 2, rate: 2 / 79 }, token_limited: { n: 1, rate: 1 / 79 },
    cost: { usd: 3.456, price: { input_per_mtok: 2.5, output_per_mtok: 10 } },
  };
  const a = doc({ name: "a", control: "none", run_options: { prompt_source: "release", benchmark_options: {} }, n_total: 79, n_scored: 75, complete: false, counts: { parse_failures: 0, errors: 4, missing: 0 }, first_error: { id: "q1", kind: "timeout", message: "no reply within 120000 ms" }, usage });
  const b = doc({ name: "b", n_total: 79, n_scored: 79, complete: true, created_at: "2026-12-07T09:05:59.999Z" });
  // b was read from a folder (the report notes it; shown relative to the working folder when inside it).
  noteRunFolder(b, path.join(process.cwd(), "runs", "b"));
  assert.equal(runsMarkdown([a, b], { prompt: "release", control: "none" }), [
    "### Runs",
    "",
    "| Run | Model | Prompt | Control | Options | Scored | Status | Folder | Date | Input tokens | Output tokens | Reasoning tokens | Latency p50 / p90 | Truncated | Cost |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    "| a | openai:gpt-4o | release | none | – | 75/79 | incomplete: 4 errors | – | – | 1,234,567 | 8,901 | 0 | 1.23 s / 5.68 s | 2 (2.5%) | $3.46 |",
    "| b | openai:gpt-4o | – | – | – | 79/79 | complete | runs/b | 2026-12-07 09:05 UTC | – | – | – | – | – | – |",
    "",
    "- a: 4 of 79 requests failed; the first error, on item q1 (timeout): no reply within 120000 ms",
  ].join("\n"));
  assert.equal(usageLine(a), "usage: 1,234,567 input, 8,901 output, 0 reasoning tokens over 75 replies (75 reported usage) · latency p50 / p90 1.23 s / 5.68 s · truncated 2 (2.5%) · cost $3.46");
  assert.equal(usageLine(b), undefined);
  // Without usage anywhere, no usage columns.
  assert.ok(runsMarkdown([b]).includes("| Run | Model | Prompt | Control | Options | Scored | Status | Folder | Date |\n"));
});
