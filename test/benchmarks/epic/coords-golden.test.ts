import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import {
  boxesToPixels,
  isNoValidResponse,
  isNotRequired,
  parseBinary,
  parseCount,
  parseLocalizationBoxes,
  parsePathPoints,
  pointsToPixels,
  resolveCoordMode,
  toPixels,
} from "../../../src/benchmarks/epic/coords.js";
import { pyJsonLoads, type PyValue } from "../../../src/core/pycompat/json.js";

/**
 * Golden conformance with the official epic_eval/utils/coords.py and parsers.py (imported
 * unmodified, Python 3.11.7) on our inputs; see test/fixtures/epic/format/README.md.
 * Floats compare bit for bit (strict deep equality).
 */
const DIR = path.resolve(import.meta.dirname, "../../fixtures/epic/format");
const readJsonl = (name: string) => readFileSync(path.join(DIR, name), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

/** "nan" / "inf" / "-inf" stand for the non-finite floats JSON cannot carry. */
const num = (v: number | string): number => (typeof v === "number" ? v : v === "nan" ? NaN : v === "inf" ? Infinity : -Infinity);

interface CoordCase {
  kind: "boxes" | "points";
  values: Array<Array<number | string>>;
  mode: string | null;
  h: number;
  w: number;
  expected: { mode: string; pixels: Array<Array<number | string>> };
}

const coordCases: CoordCase[] = readJsonl("coords.jsonl");

test(`coordinates: ${coordCases.length} cases match coords.py (resolved mode and pixels)`, () => {
  assert.ok(coordCases.length >= 200);
  for (const [i, c] of coordCases.entries()) {
    const values = c.values.map((row) => row.map(num));
    const label = `case ${i + 1}: ${c.kind} ${JSON.stringify(c.values)} mode=${c.mode} h=${c.h} w=${c.w}`;
    assert.equal(resolveCoordMode(c.mode, values.flat(), c.h, c.w), c.expected.mode, label);
    const pixels = c.kind === "boxes" ? boxesToPixels(values, c.mode, c.h, c.w) : pointsToPixels(values, c.mode, c.h, c.w);
    assert.deepStrictEqual(pixels, c.expected.pixels.map((row) => row.map(num)), label);
    const viaToPixels = c.kind === "boxes" ? toPixels({ boxes: values }, c.mode, c.h, c.w) : toPixels({ points: values }, c.mode, c.h, c.w);
    assert.deepStrictEqual(viaToPixels, pixels, label);
  }
});

interface ParserCase {
  fn: string;
  value_json: string;
  expected: { value_json: string } | { raises: string };
}

const PARSERS: Record<string, (v: PyValue) => unknown> = {
  parse_count: parseCount,
  parse_binary: parseBinary,
  parse_path_points: parsePathPoints,
  parse_localization_bboxes: parseLocalizationBoxes,
  is_no_valid_response: isNoValidResponse,
  is_not_required: isNotRequired,
};

/** Python's result as our functions return it: ints as bigint, sequences as arrays of numbers. */
function pythonResult(value: PyValue): unknown {
  if (Array.isArray(value)) return value.map(pythonResult);
  return value;
}

const parserCases: ParserCase[] = readJsonl("parsers.jsonl");

for (const name of Object.keys(PARSERS)) {
  const cases = parserCases.filter((c) => c.fn === name);
  test(`${name}: ${cases.length} values match parsers.py`, () => {
    assert.ok(cases.length > 0);
    for (const c of cases) {
      const got = PARSERS[name]!(pyJsonLoads(c.value_json));
      if ("raises" in c.expected) {
        assert.deepStrictEqual(got, { raises: c.expected.raises }, `${name}(${c.value_json.slice(0, 80)})`);
      } else {
        assert.deepStrictEqual(got, pythonResult(pyJsonLoads(c.expected.value_json)), `${name}(${c.value_json.slice(0, 80)})`);
      }
    }
  });
}
