import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSeedAndSize, wholeSetting } from "../../src/benchmarks/generate-settings.js";
import { UsageError } from "../../src/core/problems.js";

test("--set whole numbers are read within their bounds; anything else names the key and the text", () => {
  assert.equal(wholeSetting("views", "12", 1, 40), 12);
  assert.equal(wholeSetting("views", "40", 1, 40), 40);
  for (const text of ["0", "41", "2.5", "x", "", undefined]) {
    assert.throws(() => wholeSetting("views", text, 1, 40), (e: unknown) => e instanceof UsageError && e.message === `--set views must be a whole number from 1 to 40, got "${text}"`);
  }
});

test("a generator's seed is a whole number from 0 and its size from 1", () => {
  assert.doesNotThrow(() => checkSeedAndSize(0, "houses", 1));
  assert.throws(() => checkSeedAndSize(-1, "houses", 1), /^RangeError: seed must be a whole number \(got -1\)$/);
  assert.throws(() => checkSeedAndSize(1.5, "houses", 1), /seed must be a whole number \(got 1.5\)/);
  assert.throws(() => checkSeedAndSize(3, "houses", 0), /houses must be a whole number \(got 0\)/);
});

test("the command line written into a generated set's README", async () => {
  const { generateCommand } = await import("../../src/benchmarks/generate-settings.js");
  assert.equal(generateCommand("vcn", { outDir: "my-vcn", seed: 3, count: 20, extra: {} }), "spatialprobe generate vcn --out my-vcn --seed 3 --count 20");
  assert.equal(generateCommand("epic", { outDir: "e", seed: 7, count: 2, extra: { views: "1", people: "2" } }), "spatialprobe generate epic --out e --seed 7 --count 2 --set views=1 people=2");
});
