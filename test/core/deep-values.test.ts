/**
 * A field holding a list nested 100,000 levels deep (found by the fuzz suite, test/fuzz/): JSON.parse
 * reads it, but JSON.stringify overflows the stack on it, and the loaders showed wrong values with
 * JSON.stringify in their messages (and keyed ids with pyStr, and EgoPathBench's row ids and scene
 * and view ids with String(), which did too), so `validate` died with "Maximum call stack size
 * exceeded" instead of reporting the field. Messages now show values through shownValue, and the
 * conversions give a fixed text for such a value.
 */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { loadEgoTL } from "../../src/benchmarks/egotl/load.js";
import { loadRelease } from "../../src/benchmarks/egopath/load.js";
import { shownValue } from "../../src/core/problems.js";

const EXAMPLES = path.resolve(import.meta.dirname, "../../examples");
const top = mkdtempSync(path.join(os.tmpdir(), "deep-values-"));
after(() => rmSync(top, { recursive: true, force: true }));

const DEPTH = 100_000;
const deepList = "[".repeat(DEPTH) + "]".repeat(DEPTH);

/** The first row of a JSONL file with `field` (a top-level key, or ground_truth.<key>) set to the deep list. */
function deepenFirstRow(file: string, field: string): void {
  const [first, ...rest] = readFileSync(file, "utf8").trimEnd().split("\n");
  const row = JSON.parse(first!) as Record<string, unknown>;
  const [outer, inner] = field.split(".") as [string, string | undefined];
  if (inner) (row[outer] as Record<string, unknown>)[inner] = "@DEEP@";
  else row[outer] = "@DEEP@";
  writeFileSync(file, [JSON.stringify(row).replace('"@DEEP@"', deepList), ...rest].join("\n") + "\n");
}

test("shownValue: JSON clipped to a length; a value too deep for JSON.stringify is described", () => {
  assert.equal(shownValue("a"), '"a"');
  assert.equal(shownValue([1, 2]), "[1,2]");
  assert.equal(shownValue(undefined), "undefined");
  assert.equal(shownValue("x".repeat(300), 10), `"xxxxxxxxx... (302 characters)`);
  assert.equal(shownValue(JSON.parse(deepList)), "a list nested too deeply to show");
  assert.equal(shownValue(JSON.parse('{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH))), "an object nested too deeply to show");
});

test("EgoPathBench: a deep list where ids or the task belong is a problem on its field, not a stack overflow", () => {
  for (const field of ["ground_truth.all_ids", "ground_truth.walkable_ids", "task", "question_id", "scene_id"]) {
    const root = path.join(top, `egopath-${field}`);
    cpSync(path.join(EXAMPLES, "egopath-mini"), root, { recursive: true });
    deepenFirstRow(path.join(root, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl"), field);
    const { problems } = loadRelease(root, { tasks: ["a1"] });
    const found = problems.find((p) => p.line === 1 && p.field === field);
    assert.ok(found, `${field}: ${JSON.stringify(problems).slice(0, 500)}`);
    if (field !== "question_id" && field !== "scene_id") assert.match(found.message, /a list nested too deeply to show/);
  }
  // view_id is not checked (the official evaluator ignores it): a deep one loads, it does not crash.
  const root = path.join(top, "egopath-view_id");
  cpSync(path.join(EXAMPLES, "egopath-mini"), root, { recursive: true });
  deepenFirstRow(path.join(root, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl"), "view_id");
  assert.deepEqual(loadRelease(root, { tasks: ["a1"] }).problems, []);
});

test("EgoTL-Bench: a deep list where the task belongs is a problem on the task, not a stack overflow", () => {
  const root = path.join(top, "egotl");
  cpSync(path.join(EXAMPLES, "egotl-mini"), root, { recursive: true });
  deepenFirstRow(path.join(root, "test.jsonl"), "task");
  const { problems } = loadEgoTL(root, { checkMedia: false });
  const found = problems.find((p) => p.line === 1 && p.field === "task");
  assert.ok(found, JSON.stringify(problems).slice(0, 500));
  assert.match(found.message, /a list nested too deeply to show/);
});
