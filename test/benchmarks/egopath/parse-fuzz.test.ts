import assert from "node:assert/strict";
import { test } from "node:test";
import { normalizeReply, parseStoredOutput } from "../../../src/benchmarks/egopath/parse.js";
import { pyJsonLoads, type PyValue } from "../../../src/core/pycompat/json.js";
import { createRng, type Rng } from "../../../src/stats/rng.js";

/** Property: the readers never throw, whatever the text or value, and their results are well-formed. */

const ALPHABET = [..."[]{}(),:;'\"`\\ \n\t-+_.0123456789eExXoObBjJ#", "true", "false", "null", "None", "True", "NaN", "Infinity",
  "display_ids", "id", "```json", "```", "<think>", "\u00b2", "\u0663", "\u00a0", "\ufeff", "\ud800", "\u{1d7d5}", "0x1F", "1_0", "'''", 'r"', "b'", "f'", "set()", "..."];

function randomText(rng: Rng): string {
  const length = rng.int(0, 40);
  let out = "";
  for (let i = 0; i < length; i++) out += rng.pick(ALPHABET);
  return out;
}

function randomValue(rng: Rng, depth = 0): PyValue {
  switch (rng.int(0, depth > 3 ? 5 : 7)) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return BigInt(rng.int(-5, 30)) * (rng.chance(0.1) ? 10n ** 30n : 1n);
    case 3: return rng.pick([0.5, -0.0, 3.9, NaN, Infinity, -Infinity, 1e300]);
    case 4: return randomText(rng);
    case 5: return String(rng.int(-3, 20));
    case 6: return Array.from({ length: rng.int(0, 5) }, () => randomValue(rng, depth + 1));
    default: return new Map([["display_ids", randomValue(rng, depth + 1)], ["id", randomValue(rng, depth + 1)]]);
  }
}

test("normalizeReply never throws and returns ids only when ok", () => {
  const rng = createRng(20261130);
  for (let i = 0; i < 20000; i++) {
    const text = rng.chance(0.2) ? `Answer: ${randomText(rng)} [${rng.int(0, 9)}, ${randomText(rng)}] ${randomText(rng)}` : randomText(rng);
    const allowed = rng.chance(0.5) ? [1n, 2n, 3n, 4n] : undefined;
    const result = normalizeReply(text, allowed);
    assert.equal(typeof result.output, "string");
    if (result.ok) {
      assert.ok(result.ids.every((id) => typeof id === "bigint"));
      // What the runner stores must read back to the same ids under the evaluator's rules.
      assert.deepEqual(parseStoredOutput(result.output), result.ids);
    } else assert.equal(typeof result.reason, "string");
  }
});

test("parseStoredOutput never throws on any value", () => {
  const rng = createRng(7);
  for (let i = 0; i < 20000; i++) {
    const value = rng.chance(0.5) ? randomValue(rng) : randomText(rng);
    const ids = parseStoredOutput(value);
    assert.ok(ids === null || ids.every((id) => typeof id === "bigint"));
  }
});

test("extreme inputs: deep nesting, huge numbers, long text", () => {
  const deep = "[".repeat(5000) + "1" + "]".repeat(5000);
  assert.equal(normalizeReply(deep).ok, false);
  assert.equal(parseStoredOutput(deep), null);
  assert.equal(normalizeReply("[" + "9".repeat(10000) + "]").ok, false);
  assert.equal(normalizeReply("x".repeat(1_000_000) + "[1, 2]").ok, true);
  assert.throws(() => pyJsonLoads("[".repeat(5000)));
});
