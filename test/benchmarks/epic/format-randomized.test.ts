import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { formatReply, NO_VALID_RESPONSE, NOT_REQUIRED } from "../../../src/benchmarks/epic/format.js";

/**
 * Differential check on 2,000 seeded random replies (fences, think tags, prose, Python literals,
 * tuples, odd numbers, trailing commas...). Expected values: the official
 * format_response.record_to_standard_item, called in-process on each ms-swift record.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/epic/format/randomized.jsonl");
const rows = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));

const asCount = (v: unknown) => (typeof v === "string" && v !== NO_VALID_RESPONSE && v !== NOT_REQUIRED ? BigInt(v) : v);

test(`formatReply agrees with the official formatter on ${rows.length} random replies`, () => {
  assert.ok(rows.length >= 1000);
  let mismatches = 0;
  const first: string[] = [];
  for (const row of rows) {
    const got = formatReply(row.task_type, row.raw);
    try {
      if ("crash" in row.expected) {
        assert.equal(got.officialCrash?.error, row.expected.crash);
        continue;
      }
      assert.deepStrictEqual(got.localization, row.expected.localization);
      assert.deepStrictEqual(got.count, asCount(row.expected.count));
      assert.deepStrictEqual(got.points, row.expected.points);
      assert.deepStrictEqual(got.feasibility, row.expected.feasibility);
    } catch (error) {
      mismatches++;
      if (first.length < 5) first.push(`${row.note} (${row.task_type}) ${JSON.stringify(row.raw)}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  assert.equal(mismatches, 0, first.join("\n"));
});
