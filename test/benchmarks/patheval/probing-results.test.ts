import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Command } from "commander";
import { drawProbingPairs } from "../../../src/benchmarks/patheval/probing-set.js";
import { probeResultsMarkdown, readProbeResults } from "../../../src/benchmarks/patheval/probe-results.js";
import { registerProbeResults } from "../../../src/cli/probe-results.js";
import { DataError } from "../../../src/core/problems.js";

const FIXTURE = path.resolve("test/fixtures/patheval-probing");

test("probing draw: balanced, same = one path twice, different = two paths of one environment, 80/20 split", () => {
  // Path counts [3, 1]: 4 single paths; different pairs only in environment 0: (0,1), (0,2), (1,2).
  // 10 asked -> min(5, 4, 3) = 3 of each; round(3 * 0.8) = 2 train, 1 test per label.
  const pairs = drawProbingPairs([3, 1], 10, 5);
  assert.equal(pairs.length, 6);
  const same = pairs.filter((p) => p.same === 1);
  const different = pairs.filter((p) => p.same === 0);
  assert.equal(same.length, 3);
  assert.ok(same.every((p) => p.a === p.b));
  assert.equal(new Set(same.map((p) => `${p.env}/${p.a}`)).size, 3, "no path drawn twice");
  assert.ok(different.every((p) => p.env === 0 && p.a !== p.b));
  assert.deepEqual(different.map((p) => [Math.min(p.a, p.b), Math.max(p.a, p.b)].join("-")).sort(), ["0-1", "0-2", "1-2"]);
  assert.deepEqual(pairs.map((p) => p.same), [1, 0, 1, 0, 1, 0], "interleaved");
  assert.deepEqual(pairs.map((p) => p.split), ["train", "train", "train", "train", "test", "test"]);
  assert.deepEqual(drawProbingPairs([3, 1], 10, 5), pairs, "seeded");
  assert.deepEqual(drawProbingPairs([1, 1], 10, 5), [], "no environment with two paths: no different pair, so none at all");
});

test("results file: Table 4 and Table 13 layouts, paper values in brackets, exactly as expected.md", () => {
  const { rows, problems } = readProbeResults(readFileSync(path.join(FIXTURE, "results.jsonl"), "utf8"), "results.jsonl");
  assert.deepEqual(problems, []);
  assert.equal(rows.length, 7);
  assert.equal(probeResultsMarkdown(rows), readFileSync(path.join(FIXTURE, "expected.md"), "utf8"));
});

test("results file defects are named by line and field", () => {
  const text = [
    '{"table": "encoder-probe", "encoder": "a", "setting": "frozen", "accuracy": 1.5, "cosine_similarity": 0.9, "n": 10}',
    "not json",
    '{"table": "memorization", "instances": 50, "input": "image", "accuracy": 0.5, "n": 0}',
    '["a"]',
    '{"table": "tables"}',
    '{"table": "memorization", "instances": 50, "input": "image", "accuracy": 0.5, "n": 50}',
    '{"table": "memorization", "instances": 50, "input": "image", "accuracy": 0.6, "n": 50}',
    "",
  ].join("\n");
  const { rows, problems } = readProbeResults(text, "r.jsonl");
  assert.equal(rows.length, 1);
  assert.deepEqual(problems.map((p) => [p.line, p.field ?? null]), [[1, "accuracy"], [2, null], [3, "n"], [4, null], [5, "table"], [7, null]]);
  assert.equal(problems[0]!.message, "must be a number in [0, 1], found 1.5");
  assert.equal(problems[5]!.message, "repeats the measurement of line 6 (50, image)");
  assert.deepEqual(readProbeResults("", "empty.jsonl").problems, [{ file: "empty.jsonl", message: "no results in the file" }]);
  assert.match(readProbeResults("x".repeat(20_000), "long.jsonl").problems[0]!.message, /at most 10000/);
});

test("probe-results command: markdown to stdout, json rows, data problems as a DataError", async () => {
  const program = new Command().exitOverride();
  registerProbeResults(program);
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => chunks.push(chunk) > 0) as typeof process.stdout.write;
  try {
    await program.parseAsync(["node", "x", "probe-results", "patheval", path.join(FIXTURE, "results.jsonl")]);
    await program.parseAsync(["node", "x", "probe-results", "patheval", path.join(FIXTURE, "results.jsonl"), "--format", "json"]);
  } finally {
    process.stdout.write = write;
  }
  assert.equal(chunks[0], readFileSync(path.join(FIXTURE, "expected.md"), "utf8"));
  const json = JSON.parse(chunks[1]!);
  assert.deepEqual(json[0], { table: "encoder-probe", encoder: "clip-vit-base-patch32", setting: "frozen", accuracy: 0.525, cosine_similarity: 0.9312, n: 200 });
  await assert.rejects(program.parseAsync(["node", "x", "probe-results", "patheval", path.join(FIXTURE, "expected.md")]), DataError);
});
