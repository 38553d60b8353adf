import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { formatReply, NO_VALID_RESPONSE, NOT_REQUIRED, requiredFields, type FormattedReply } from "../../../src/benchmarks/epic/format.js";

/**
 * Golden conformance of formatReply: every `expected` in test/fixtures/epic/format/cases.jsonl is
 * what the official formatter (tools/formatting/format_response.py, run unmodified as a CLI, one
 * ms-swift record per run, Python 3.11.7) wrote into its standard record for that reply; see the
 * fixture README. Coordinates compare bit for bit (strict deep equality: -0 differs from 0).
 */

interface GoldenCase {
  task_type: string;
  note: string;
  raw: string;
  expected:
    | { crash: string }
    | { localization: unknown; count: unknown; points: unknown; feasibility: unknown };
}

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/epic/format/cases.jsonl");
const cases: GoldenCase[] = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));

const FIELDS = ["localization", "count", "points", "feasibility"] as const;

function expectedCount(value: unknown): unknown {
  return typeof value === "string" && value !== NO_VALID_RESPONSE && value !== NOT_REQUIRED ? BigInt(value) : value;
}

test("the fixture covers every task type with at least 250 replies", () => {
  assert.ok(cases.length >= 250, `${cases.length} cases`);
  const types = new Set(cases.map((c) => c.task_type));
  for (const t of [
    "Category", "Color", "Geometry", "Material", "ObjectProjections", "RelativePerception", "Orientation", "OrientationHuman",
    "SpatialRelation", "SpatialRelationHuman", "ObjectState", "PartWhole", "PartWholeHuman", "Spoken", "GroundDetection",
    "FeasiblePath_Ego", "FeasiblePath_Exo", "FeasiblePath", "VisualMatching", "AffordanceRegion", "ContactRelationship_TypeOne",
    "ContactRelationship_TypeTwo", "ContactRelationship_TypeThree", "ContactRelationship", "PlacementRegion",
  ]) {
    assert.ok(types.has(t), `no case for ${t}`);
  }
});

cases.forEach((c, i) => {
  test(`#${i + 1} ${c.task_type}: ${c.note}`, () => {
    const got: FormattedReply = formatReply(c.task_type, c.raw);
    if ("crash" in c.expected) {
      assert.equal(got.officialCrash?.error, c.expected.crash, got.reason);
      assert.equal(got.status, "no_valid_response");
      for (const f of FIELDS) assert.equal(got[f], requiredFields(c.task_type).includes(f) ? NO_VALID_RESPONSE : NOT_REQUIRED, f);
      return;
    }
    const expected = c.expected;
    assert.deepStrictEqual(got.localization, expected.localization, "localization");
    assert.deepStrictEqual(got.count, expectedCount(expected.count), "count");
    assert.deepStrictEqual(got.points, expected.points, "points");
    assert.deepStrictEqual(got.feasibility, expected.feasibility, "feasibility");
    assert.equal(got.officialCrash, undefined);
    const invalid = FIELDS.some((f) => expected[f] === NO_VALID_RESPONSE);
    assert.equal(got.status, invalid ? "no_valid_response" : "ok");
    assert.equal(typeof got.reason === "string", invalid, `reason: ${got.reason}`);
  });
});
