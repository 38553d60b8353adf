import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aggregate, type ScoredQuestion } from "../../../src/benchmarks/egopath/aggregate.js";
import { scoreItem } from "../../../src/benchmarks/egopath/index.js";
import { loadRelease } from "../../../src/benchmarks/egopath/load.js";
import { normalizeReply, parseStoredOutput, predictionOutput } from "../../../src/benchmarks/egopath/parse.js";
import { TASK_CODES, type TaskCode } from "../../../src/benchmarks/egopath/tasks.js";
import { itemKey, readPredictionFile } from "../../../src/core/predictions.js";
import { DataError } from "../../../src/core/problems.js";
import { pyJsonLoads, type PyDict, type PyValue } from "../../../src/core/pycompat/json.js";

/**
 * Golden conformance: every expected value in test/fixtures/egopath was produced by running the
 * official EgoPathBench evaluator / runner (commit b30f478, Python 3.11.7) on inputs we made.
 */
const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/egopath");
const readJsonl = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const toIds = (ids: unknown): string[] | null => (ids === null ? null : (ids as unknown[]).map(String));

for (const set of ["conformance", "holdout"]) {
  for (const task of TASK_CODES) {
    test(`${set}: ${task} matches the official evaluator on every question and every metric`, () => {
      const root = path.join(FIXTURES, set);
      const { items, problems } = loadRelease(root, { tasks: [task as TaskCode] });
      assert.deepEqual(problems, []);
      const predictions = readPredictionFile(path.join(root, "predictions", `${task}.jsonl`), "question_id");
      const expectedItems = readJsonl(path.join(root, "expected", `${task}.items.jsonl`));
      assert.equal(items.length, expectedItems.length);

      const scored: ScoredQuestion[] = items.map((item, i) => {
        const expected = expectedItems[i];
        assert.equal(item.id, String(expected.question_id));
        const row = predictions.get(itemKey(item.rawId));
        assert.equal(row !== undefined, expected.has_prediction, `${item.id} has_prediction`);
        const ids = parseStoredOutput(predictionOutput(row));
        assert.deepEqual(ids === null ? null : ids.map(String), toIds(expected.parsed_ids), `${item.id} parsed ids`);
        const outcome = scoreItem(item, ids);
        if (outcome.kind === "set") {
          const got = { tp: outcome.tp, fp: outcome.fp, fn: outcome.fn, tn: outcome.tn, invalid_ids: outcome.invalid };
          const want = { tp: expected.tp, fp: expected.fp, fn: expected.fn, tn: expected.tn, invalid_ids: expected.invalid_ids };
          assert.deepEqual(got, want, item.id);
        } else {
          const got = { valid_ids: +outcome.validIds, valid_path: +outcome.validPath, success: +outcome.success, spl: outcome.spl };
          const want = { valid_ids: expected.valid_ids, valid_path: expected.valid_path, success: expected.success, spl: expected.spl_exact };
          assert.deepEqual(got, want, item.id);
        }
        return { item, outcome };
      });

      const official = JSON.parse(readFileSync(path.join(root, "expected", `${task}.json`), "utf8"));
      const agg = aggregate(scored, [task as TaskCode], { bootstrapResamples: 0, bootstrapSeed: 1 });
      assert.equal(official.task, task);
      assert.deepEqual(agg.tasks[task as TaskCode]!.official, official.metrics);
    });
  }
}

test("parse_ids: the evaluator's reading of stored outputs, 214 official cases", () => {
  const cases = readJsonl(path.join(FIXTURES, "parse_ids", "cases.jsonl"));
  assert.ok(cases.length >= 200);
  for (const c of cases) {
    if (c.load_error) {
      assert.throws(() => pyJsonLoads(c.raw_line), undefined, c.note);
      continue;
    }
    const value: PyValue | undefined = c.raw_line !== undefined ? (pyJsonLoads(c.raw_line) as PyDict).get("output") : "output" in c ? toPy(c.output) : undefined;
    const got = parseStoredOutput(value);
    assert.deepEqual(got === null ? null : got.map(String), toIds(c.expected), `${c.note}: ${String(JSON.stringify(c.output ?? c.raw_line)).slice(0, 120)}`);
  }
});

test("normalize: the runner's reading of raw replies, 399 official cases", () => {
  const cases = readJsonl(path.join(FIXTURES, "normalize", "cases.jsonl"));
  assert.ok(cases.length >= 300);
  for (const c of cases) {
    const allowed = c.all_ids ? (c.all_ids as number[]).map(BigInt) : undefined;
    const got = normalizeReply(c.raw, allowed);
    const label = JSON.stringify(c.raw).slice(0, 160);
    assert.equal(got.ok, c.expected.ok, label);
    // A crash in the official runner ends as a stored failure with an empty output.
    if (c.expected.crash) continue;
    assert.equal(got.output, c.expected.output, label);
  }
});

/** Fixture values are plain JSON; give them Python's types (ints exact, objects as Maps). */
function toPy(value: unknown): PyValue {
  return pyJsonLoads(JSON.stringify(value));
}

test("predictions files Python cannot load are refused with the line number", () => {
  const cases = readJsonl(path.join(FIXTURES, "parse_ids", "cases.jsonl")).filter((c) => c.load_error);
  assert.equal(cases.length, 2);
  for (const c of cases) assert.throws(() => pyJsonLoads(c.raw_line));
  assert.throws(() => readPredictionFile(path.join(FIXTURES, "broken", "predictions", "a1.listqid.jsonl"), "question_id"), (error: unknown) => {
    assert.ok(error instanceof DataError);
    assert.equal(error.problems[0]!.line, 2);
    assert.equal(error.problems[0]!.field, "question_id");
    return true;
  });
});
