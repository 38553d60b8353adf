import assert from "node:assert/strict";
import { test } from "node:test";
import { parseAnswer } from "../../../src/benchmarks/patheval/parse.js";
import { parseStances } from "../../../src/benchmarks/patheval/probes.js";
import { createRng } from "../../../src/stats/rng.js";

const PIECES = ["Answer", "answer", ":", ": ", "Path", "path", " 1", " 2", "1", "2", "**", "*", ".", "\n", "Explanation:", "explanation", "<think>", "</think>",
  "x7Qa", "B2c9", "both", "neither", "Minimum clearance", "smaller", "larger", "irrelevant", "—", "\u0000", "\ud800", "🙂", "(", ")", "[", "]", "\\", "$", "^"];

test("answer and stance readers never throw and return only valid values", () => {
  const rng = createRng(99);
  for (let i = 0; i < 30000; i++) {
    const text = Array.from({ length: rng.int(0, 30) }, () => rng.pick(PIECES)).join(rng.chance(0.5) ? " " : "");
    for (const mode of ["official", "robust"] as const) {
      for (const ids of [undefined, ["x7Qa", "B2c9"] as [string, string], ["a.b", "(?)"] as [string, string]]) {
        const choice = parseAnswer(text, { mode, ...(ids ? { ids } : {}) });
        assert.ok(choice === null || choice === "Path 1" || choice === "Path 2");
      }
    }
    const stances = parseStances(text);
    assert.ok(Object.values(stances).every((v) => v === null || v === -1 || v === 0 || v === 1));
  }
  assert.equal(parseAnswer(undefined as unknown as string), null);
});
