import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { descriptors } from "../../../src/benchmarks/patheval/descriptors.js";
import { labelDetail } from "../../../src/benchmarks/patheval/label.js";
import { farthestPairs, minMaxScale } from "../../../src/benchmarks/patheval/pairs.js";
import { parseAnswer } from "../../../src/benchmarks/patheval/parse.js";
import { readPlannerPaths } from "../../../src/benchmarks/patheval/planfile.js";
import { DESCRIPTORS, type Descriptors } from "../../../src/benchmarks/patheval/scenarios.js";
import { parseEnvironment } from "../../../src/geometry/polygon.js";

/**
 * Golden values from the PathEval release's own Python code (commit c099b42, numpy 1.24.2,
 * scikit-learn 1.2.1, shapely 1.8.5 / GEOS 3.11.1) run on our own inputs; see
 * test/fixtures/patheval/README.md.
 */
const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/patheval");
const jsonl = (file: string) => readFileSync(path.join(FIXTURES, file), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const env = (name: string) => parseEnvironment(readFileSync(path.join(FIXTURES, "environments", name), "utf8"));

/**
 * Turn angles: the release takes numpy's vectorised arccos, which on AVX-512 machines (SVML) can
 * differ from the C library's acos (and from every JavaScript engine's) in the last bit. Length,
 * clearances and sharp-turn counts must be exact; angle sums and maxima agree to a few ulps.
 */
const ANGLE_KEYS = new Set(["Smoothness", "Maximum angle"]);
function assertUlps(got: number, want: number, message: string): void {
  assert.ok(Math.abs(got - want) <= 8 * Number.EPSILON * Math.max(1, Math.abs(want)), `${message}: ${got} vs ${want}`);
}

test("descriptors equal the release's on every well-defined case; degenerate cases as documented", () => {
  let exact = 0;
  for (const c of jsonl("descriptors/cases.jsonl")) {
    if (c.env === "no_obstacles.txt") continue; // the release's parser cannot read a zero-polygon file
    const got = descriptors(c.path, env(c.env));
    if (c.expected.official_raw === undefined) {
      for (const key of DESCRIPTORS) {
        if (ANGLE_KEYS.has(key)) assertUlps(got[key], c.expected[key], `${c.case}: ${key}`);
        else assert.equal(got[key], c.expected[key], `${c.case}: ${key}`);
      }
      exact++;
      continue;
    }
    const raw = c.expected.official_raw;
    if (!Array.isArray(raw)) {
      // Repeated points: the release's angles become NaN; ours merge the repeats. Everything else agrees.
      for (const key of ["Minimum clearance", "Maximum clearance", "Average clearance", "Path length"] as const) assert.equal(got[key], raw[key], `${c.case}: ${key}`);
      assert.ok(Number.isFinite(got["Smoothness"]));
    } else {
      // Fewer than 2 points: the release returns a 4-tuple of zeros; ours: no length, no turns.
      assert.deepEqual([got["Path length"], got["Smoothness"], got["Sharp turns"], got["Maximum angle"]], [0, 0, 0, 0], c.case);
    }
  }
  assert.ok(exact >= 70, `exact cases: ${exact}`);
});

test("labels equal the release's labelling rule on 243 cases", () => {
  for (const c of jsonl("labels/cases.jsonl")) {
    const detail = labelDetail(c.metrics1, c.metrics2, c.directions, c.thresholds);
    assert.equal(detail.label, c.expected, c.case);
    if (c.wins) assert.deepEqual([[...detail.wins["Path 1"]].sort(), [...detail.wins["Path 2"]].sort()], [[...c.wins.P1].sort(), [...c.wins.P2].sort()], c.case);
  }
});

test("pairs: scaling bit for bit; the release's pairs (less its self-pairs) in a stable tie order", () => {
  let checked = 0;
  for (const c of jsonl("pairs/cases.jsonl")) {
    if (!c.metrics || c.metrics.some((row: unknown[]) => row.some((v) => typeof v !== "number"))) continue;
    const rows = (c.metrics as number[][]).map((v) => Object.fromEntries(DESCRIPTORS.map((d, i) => [d, v[i]])) as Descriptors);
    assert.deepEqual(minMaxScale(c.metrics), c.normalized, c.case);
    // Pairs at distance 0 (self-pairs in the release; identical paths in ours) are never labelled: leave them out.
    const apart = (pairs: number[][]) => pairs.filter(([a, b]) => (c.normalized[a] as number[]).some((v, k) => v !== c.normalized[b][k]));
    const ours = farthestPairs(rows, c.num_pairs);
    assert.deepEqual(apart(ours), apart(c.expected_stable_argsort), c.case);
    assert.ok(ours.every(([a, b]) => a !== b), "never a self-pair");
    const unordered = apart(ours).map(([a, b]) => [Math.min(a!, b!), Math.max(a!, b!)]).sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
    if (c.unordered_pairs_agree) assert.deepEqual(unordered, apart(c.expected_unordered), c.case);
    checked++;
  }
  assert.ok(checked >= 20);
});

test("answers: the official reading scores every GPT-4o-pipeline reply as the release does", () => {
  let n = 0;
  for (const c of jsonl("answers/cases.jsonl")) {
    if (c.pipeline !== "gpt4o" && c.pipeline !== "gpt4o_random") continue;
    const ids = c.pipeline === "gpt4o_random" ? ([c.path1_id, c.path2_id] as [string, string]) : undefined;
    const choice = parseAnswer(c.response, { mode: "official", ...(ids ? { ids } : {}) });
    if (c.expected.raises) {
      assert.equal(choice, null, c.case);
      continue;
    }
    // get_results compares with the ground truth's spaces removed.
    assert.equal(choice?.replace(" ", "") === String(c.truth).replace(/ /g, ""), c.expected.correct, `${c.case}: ${JSON.stringify(c.response)}`);
    n++;
  }
  assert.ok(n >= 90);
});

/** The fixture writes NaN and infinities as strings. */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value === "NaN") return NaN;
  if (value === "Infinity") return Infinity;
  if (value === "-Infinity") return -Infinity;
  return value;
}

test("planner output files read as the release reads them", () => {
  const expected = JSON.parse(readFileSync(path.join(FIXTURES, "read_data", "expected.json"), "utf8"));
  for (const file of readdirSync(path.join(FIXTURES, "read_data")).filter((f) => f.endsWith(".txt"))) {
    const text = readFileSync(path.join(FIXTURES, "read_data", file), "utf8");
    if (expected[file].raises) assert.throws(() => readPlannerPaths(text), /line \d+/, file);
    else assert.deepEqual(readPlannerPaths(text), revive(expected[file]), file);
  }
});
