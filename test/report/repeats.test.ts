/**
 * Repeated runs: each repeat's value, the mean and the sample SD per metric (hand-computed below), counts
 * left out, an incomplete repeat visible, and store keys that differ per repeat (repeat 1 = the plain run).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScoresDocument } from "../../src/core/benchmark.js";
import { meanAndSd, repeatGroups, repeatsMarkdown, summarizeRepeats } from "../../src/report/repeats.js";
import { requestKey } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Model } from "../../src/core/types.js";

const run = (index: number, score: number | null, accuracy: number, complete = true): ScoresDocument =>
  ({
    benchmark: "epic",
    model: "random",
    n: 4,
    score,
    tasks: { CR: { n: 4, tp: 2, accuracy, ci: { accuracy: [0, 1] } } },
    counts: { parse_failures: 0, errors: 0, missing: 0 },
    complete,
    repeat: { index, of: 3, group: "/runs/x" },
  }) as unknown as ScoresDocument;

test("mean and sample SD: 0.5, 0.7, 0.9 -> mean 0.7, SD 0.2; one value has no SD; none has neither", () => {
  const { mean, sd } = meanAndSd([0.5, 0.7, 0.9]);
  assert.ok(Math.abs(mean! - 0.7) < 1e-12);
  // deviations -0.2, 0, 0.2: squares sum 0.08, / (3 - 1) = 0.04, sqrt = 0.2
  assert.ok(Math.abs(sd! - 0.2) < 1e-12);
  assert.deepEqual(meanAndSd([0.25]), { mean: 0.25, sd: null });
  assert.deepEqual(meanAndSd([null, null]), { mean: null, sd: null });
});

test("summary of three repeats given out of order: values in repeat order, counts and intervals left out", () => {
  const summary = summarizeRepeats([run(3, 0.9, 0.3), run(1, 0.5, 0.1), run(2, 0.7, 0.2)]);
  assert.deepEqual(summary.indices, [1, 2, 3]);
  assert.equal(summary.repeats, 3);
  assert.equal(summary.complete, true);
  assert.deepEqual(summary.metrics.map((m) => m.metric), ["score", "CR.accuracy"]);
  assert.deepEqual(summary.metrics[0]!.values, [0.5, 0.7, 0.9]);
  assert.deepEqual(summary.metrics[1]!.values, [0.1, 0.2, 0.3]);
  assert.ok(Math.abs(summary.metrics[1]!.mean! - 0.2) < 1e-12);
  assert.ok(Math.abs(summary.metrics[1]!.sd! - 0.1) < 1e-12);
});

test("an incomplete repeat, or a missing one, makes the summary incomplete and the table says so", () => {
  assert.equal(summarizeRepeats([run(1, 0.5, 0.1), run(2, 0.7, 0.2, false), run(3, 0.9, 0.3)]).complete, false);
  const two = summarizeRepeats([run(1, 0.5, 0.1), run(2, 0.7, 0.2)]);
  assert.equal(two.complete, false);
  const md = repeatsMarkdown(two, "random");
  assert.match(md, /^### Mean over 3 repeats: random/);
  assert.match(md, /incomplete: 2 of 3 repeats present/);
  assert.match(md, /\| score \| 0\.5000 \| 0\.7000 \| 0\.6000 \| 0\.1414 \|/);
});

test("runs group by the folder that holds their repeats; runs without a repeat are left out", () => {
  const other = { ...run(1, 0.2, 0.2), repeat: { index: 1, of: 2, group: "/runs/y" } } as unknown as ScoresDocument;
  const plain = { ...run(1, 0.2, 0.2), repeat: undefined } as unknown as ScoresDocument;
  const groups = repeatGroups([run(1, 0.5, 0.1), other, plain, run(2, 0.7, 0.2)]);
  assert.deepEqual(groups.map((g) => g.length), [2, 1]);
});

test("store keys: repeat 1 is the plain run's key, repeats 2 and 3 each have keys of their own", () => {
  const model = { spec: "openai:m", identity: { provider: "openai", endpoint: "e", model: "m" } } as unknown as Model;
  const messages = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];
  const plain = requestKey(model, DEFAULT_SETTINGS, messages);
  assert.equal(requestKey(model, DEFAULT_SETTINGS, messages, undefined, 1), plain);
  const second = requestKey(model, DEFAULT_SETTINGS, messages, undefined, 2);
  const third = requestKey(model, DEFAULT_SETTINGS, messages, undefined, 3);
  assert.notEqual(second, plain);
  assert.notEqual(third, second);
});
