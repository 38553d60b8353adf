import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadRelease } from "../../../src/benchmarks/egopath/load.js";

const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/egopath-mini");
const VQA = (task: string) => `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`;

/** A copy of the example release with `edit` applied to line `line` (1-based) of a task's vqa file. */
function editedCopy(task: string, line: number, edit: (row: Record<string, any>) => void): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egopath-check-"));
  cpSync(EXAMPLE, root, { recursive: true });
  const file = path.join(root, VQA(task));
  const rows = readFileSync(file, "utf8").split("\n");
  const row = JSON.parse(rows[line - 1]!);
  edit(row);
  rows[line - 1] = JSON.stringify(row);
  writeFileSync(file, rows.join("\n"));
  return root;
}

test("release prompts send the row's user_prompt: a blank one is a problem for requests, not for scoring", () => {
  const root = editedCopy("a1", 3, (row) => (row["user_prompt"] = " \n "));
  assert.deepEqual(loadRelease(root, { requests: { source: "release", control: "none" } }).problems, [
    { file: VQA("a1"), line: 3, field: "user_prompt", message: "is blank; the release prompt sends it as the question" },
  ]);
  assert.deepEqual(loadRelease(root).problems, []);
  // Our templates do not send it.
  assert.deepEqual(loadRelease(root, { requests: { source: "templates" } }).problems, []);
});

test("templates: a placeholder the task's template uses needs its value (c shows the intent)", () => {
  // The generated set stores the person's request as ground_truth.generated_question; older
  // releases as intent_text. Remove both so row 2 has no intent whichever one the reader takes.
  const root = editedCopy("c", 2, (row) => {
    delete row["ground_truth"]["intent_text"];
    delete row["ground_truth"]["generated_question"];
  });
  // The gt file fills missing routing fields of a vqa row, not the intent: that comes from the row only.
  assert.deepEqual(loadRelease(root, { tasks: ["c"], requests: { source: "templates" } }).problems, [
    { file: VQA("c"), line: 2, field: "ground_truth.intent_text or generated_question", message: "missing; the templates prompt for c shows it ({intent})" },
  ]);
  assert.deepEqual(loadRelease(root, { tasks: ["c"], requests: { source: "release" } }).problems, []);
});

test("mismatched-overlay needs, for each question, another one with as many candidates from another view", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egopath-check-"));
  cpSync(EXAMPLE, root, { recursive: true });
  const file = path.join(root, VQA("a1"));
  writeFileSync(file, readFileSync(file, "utf8").split("\n")[0]! + "\n");
  const problems = loadRelease(root, { tasks: ["a1"], requests: { source: "release", control: "mismatched-overlay" } }).problems;
  assert.deepEqual(problems, [
    { file: VQA("a1"), line: 1, field: "image_path", message: "no other question has as many candidates and another view, so the mismatched-overlay control has no image to show instead" },
  ]);
  assert.deepEqual(loadRelease(root, { tasks: ["a1"], requests: { source: "release", control: "none" } }).problems, []);
});

test("the example release is clean for every prompt source and control, but for questions without a partner under mismatched-overlay", () => {
  // A question has an image to swap in when a question of another view shows as many markers
  // (its visible-waypoints file). The a1/b1 sheets show 18 (house_001 view 0, house_004 view 0),
  // 8 (house_001 view 1, house_003 views 1 and 2), 15 (house_002 view 0) and 7 (house_003 view 0)
  // markers; the route sheets 38 (house_001 view 0, house_003 view 1), 20 (house_002 view 0,
  // house_003 view 2), and 36, 27, 32 and 37 alone (house_001 views 1 and 2, house_003 view 0,
  // house_004 view 0).
  const rowsOf = (task: string) => readFileSync(path.join(EXAMPLE, VQA(task)), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
  const markers = (row: Record<string, unknown>) => (JSON.parse(readFileSync(path.join(EXAMPLE, String(row["visible_waypoints_path"])), "utf8")).visible_waypoints as unknown[]).length;
  const view = (row: Record<string, unknown>) => `${row["scene_id"]}/${row["view_id"]}`;
  const unpaired = (tasks: string[]) => {
    const all = tasks.flatMap((task) => rowsOf(task).map((row, i) => ({ task, line: i + 1, view: view(row), n: markers(row) })));
    return all
      .filter((q) => !all.some((o) => o.view !== q.view && o.n === q.n))
      .map((q) => ({ file: VQA(q.task), line: q.line, field: "image_path", message: "no other question has as many candidates and another view, so the mismatched-overlay control has no image to show instead" }));
  };
  const expected = unpaired(["a1", "b1", "a2", "b2", "c"]);
  // a1 and b1 of house_002 view 0 and house_003 view 0, and the route questions of the four
  // route sheets alone (a2 7, b2 7, c 4).
  assert.equal(expected.length, 4 + (7 + 7 + 4));
  for (const source of ["release", "templates"]) {
    for (const control of ["none", "text-only", "mismatched-overlay"]) {
      assert.deepEqual(loadRelease(EXAMPLE, { requests: { source, control } }).problems, control === "mismatched-overlay" ? expected : [], `${source} ${control}`);
    }
  }
  // The set questions alone: the same four.
  const sets = unpaired(["a1", "b1"]);
  assert.equal(sets.length, 4);
  assert.deepEqual(loadRelease(EXAMPLE, { tasks: ["a1", "b1"], requests: { source: "release", control: "mismatched-overlay" } }).problems, sets);
});
