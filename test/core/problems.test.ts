/**
 * The bounded problem list (src/core/problems.ts, issue 25): a load keeps the first 1,000 problems
 * and counts the rest, long arrays are appended without spreading them into arguments, and
 * DataError reports the count.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { appendAll, DataError, moreProblemsLine, omittedProblems, problemCount, problemList, type DataProblem } from "../../src/core/problems.js";

const problem = (k: number): DataProblem => ({ file: "f.jsonl", line: k + 1, field: "x", message: `bad ${k}` });

test("a problem list keeps the first 1,000 and counts the rest; it is still a plain array", () => {
  const list = problemList();
  for (let k = 0; k < 1500; k++) list.push(problem(k));
  assert.equal(list.length, 1000);
  assert.equal(problemCount(list), 1500);
  assert.equal(omittedProblems(list), 500);
  assert.deepEqual(list[999], problem(999));
  assert.equal(Object.getPrototypeOf(list), Array.prototype);
  assert.deepEqual(problemList(), [], "compares equal to [] (the count is not an enumerable property)");
  const small = problemList(2);
  assert.equal(small.push(problem(0), problem(1), problem(2)), 2);
  assert.equal(problemCount(small), 3);
  assert.equal(problemCount([problem(0)]), 1, "any other array counts its length");
});

test("appendAll takes 150,000 items (a spread into push overflowed the stack) and carries a list's uncounted problems", () => {
  const many = Array.from({ length: 150_000 }, (_, k) => problem(k));
  assert.throws(() => [].push(...(many as never[])), RangeError, "the spread this replaces");
  const target = problemList();
  appendAll(target, many);
  assert.equal(problemCount(target), 150_000);
  const again = problemList();
  appendAll(again, target);
  assert.deepEqual([again.length, problemCount(again)], [1000, 150_000]);
  assert.equal(appendAll([1, 2], [3, 4]).join(","), "1,2,3,4");
});

test("DataError and the CLI name the total and the problems not listed", () => {
  const list = problemList();
  appendAll(list, Array.from({ length: 150_000 }, (_, k) => problem(k)));
  const error = new DataError(list);
  const lines = error.message.split("\n");
  assert.equal(lines[0], "150000 problems in the data:");
  assert.equal(lines[1], "  - f.jsonl, line 1, field x: bad 0");
  assert.equal(lines.length, 52);
  assert.equal(lines[51], "  ... and 149950 more problems");
  assert.equal(new DataError([problem(0)]).message, "1 problem in the data:\n  - f.jsonl, line 1, field x: bad 0");
  assert.equal(moreProblemsLine(1000, 1001), "... and 1 more problem");
  assert.equal(moreProblemsLine(3, 3), "");
});
