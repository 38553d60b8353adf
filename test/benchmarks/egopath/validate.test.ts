import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { loadRelease } from "../../../src/benchmarks/egopath/load.js";
import { formatProblem } from "../../../src/core/problems.js";

const BROKEN = path.resolve(import.meta.dirname, "../../fixtures/egopath/broken");
const VQA = "benchmark_evalfix/benchmark/vqa";

test("validate lists every defect of the broken set with file, line and field", () => {
  const { problems } = loadRelease(BROKEN);
  const located = problems.map((p) => [p.file, p.line, p.field ?? null]);
  // Defects and their places are listed in test/fixtures/egopath/broken/EXPECTED.md.
  assert.deepEqual(located, [
    [`${VQA}/vqa_next_a1.jsonl`, 2, "image_path"],
    [`${VQA}/vqa_next_b1.jsonl`, 2, null],
    [`${VQA}/vqa_next_a2.jsonl`, 2, "ground_truth.direct_pairs_ref"],
    [`${VQA}/vqa_next_b2.jsonl`, 1, "visible_waypoints_path"],
    [`${VQA}/vqa_next_b2.jsonl`, 2, "ground_truth.acceptable_goal_ids"],
    [`${VQA}/vqa_next_c.jsonl`, 1, "ground_truth.optimal_length_m"],
    [`${VQA}/vqa_next_c.jsonl`, 2, "ground_truth.optimal_length_m"],
  ]);
  assert.match(formatProblem(problems[1]!), /vqa_next_b1\.jsonl, line 2: invalid JSON/);
  assert.match(formatProblem(problems[3]!), /visible-waypoints file not found: assets\/s1\/view_0\/visible_waypoints_missing\.json/);
  assert.match(formatProblem(problems[6]!), /must be a positive number, found 0/);
});

test("the conformance set, the holdout set and the bundled example are clean", () => {
  for (const root of ["../../fixtures/egopath/conformance", "../../fixtures/egopath/holdout", "../../../examples/egopath-mini"]) {
    const { problems, items, tasks } = loadRelease(path.resolve(import.meta.dirname, root));
    assert.deepEqual(problems, [], root);
    assert.deepEqual(tasks, ["a1", "b1", "a2", "b2", "c"]);
    assert.ok(items.length > 0);
  }
});

test("a missing folder or an empty root is a clear problem", () => {
  assert.match(loadRelease("/nonexistent/egopath").problems[0]!.message, /does not exist/);
  assert.match(loadRelease(import.meta.dirname).problems[0]!.message, /no vqa files found/);
});
