import assert from "node:assert/strict";
import { test } from "node:test";
import { descriptors, pointPolygonDistance, turnAngles } from "../../../src/benchmarks/patheval/descriptors.js";
import { label, labelDetail } from "../../../src/benchmarks/patheval/label.js";
import { farthestPairs, minMaxScale } from "../../../src/benchmarks/patheval/pairs.js";
import { parseAnswer } from "../../../src/benchmarks/patheval/parse.js";
import { DESCRIPTORS, SCENARIOS, type Descriptors } from "../../../src/benchmarks/patheval/scenarios.js";
import { polygon } from "../../../src/geometry/polygon.js";

const square = polygon([[0, 0], [2, 0], [2, 2], [0, 2]]);

test("descriptors of hand-made paths", () => {
  // Around a 2x2 box at the origin: vertices 1 unit away (corners at distance sqrt(2)).
  const d = descriptors([[-1, -1], [3, -1], [3, 3]], [square]);
  assert.equal(d["Path length"], 8);
  assert.equal(d["Smoothness"], 90);
  assert.equal(d["Sharp turns"], 0); // exactly 90 is not sharp
  assert.equal(d["Maximum angle"], 90);
  assert.equal(d["Minimum clearance"], Math.SQRT2);
  assert.equal(d["Maximum clearance"], Math.SQRT2);
  assert.equal(d["Average clearance"], Math.SQRT2);
  assert.deepEqual(turnAngles([[0, 0], [1, 0], [0, 0]]), [180]);
  assert.deepEqual(turnAngles([[0, 0], [1, 0], [2, 0]]), [0]);
  assert.deepEqual(turnAngles([[0, 0], [1, 0], [1, 0], [1, 1]]), [90]); // repeated point merged
  assert.equal(pointPolygonDistance([1, 1], square), 0); // inside
  assert.equal(pointPolygonDistance([2, 1], square), 0); // on the boundary
  assert.equal(pointPolygonDistance([5, 1], square), 3);
  const single = descriptors([[5, 1]], [square]);
  assert.deepEqual([single["Path length"], single["Smoothness"], single["Sharp turns"], single["Maximum angle"], single["Minimum clearance"]], [0, 0, 0, 0, 3]);
  const dense = descriptors([[-1, 1], [3, 1]], [square], { denseStep: 0.5 });
  assert.equal(dense["Minimum clearance"], 0); // the segment crosses the box
  assert.equal(descriptors([[-1, 1], [3, 1]], [square])["Minimum clearance"], 1);
});

const base: Descriptors = { "Minimum clearance": 1, "Maximum clearance": 3, "Average clearance": 2, "Path length": 100, "Smoothness": 200, "Sharp turns": 2, "Maximum angle": 100 };
const withValues = (v: Partial<Descriptors>): Descriptors => ({ ...base, ...v });

test("labels: thresholds inclusive, directions, unresolved", () => {
  const shortDirs = { "Path length": -1 as const };
  assert.equal(labelDetail(base, withValues({ "Path length": 150 }), shortDirs).label, "Path 1"); // difference 50 = threshold counts
  assert.equal(labelDetail(base, withValues({ "Path length": 149.999 }), shortDirs).label, "Unresolved");
  assert.equal(labelDetail(withValues({ "Path length": 150 }), base, shortDirs).label, "Path 2");
  const mixed = { "Path length": -1 as const, "Minimum clearance": 1 as const };
  assert.equal(labelDetail(base, withValues({ "Path length": 200, "Minimum clearance": 2 }), mixed).label, "Unresolved");
  assert.deepEqual(labelDetail(base, withValues({ "Path length": 200, "Minimum clearance": 2 }), mixed).wins, { "Path 1": ["Path length"], "Path 2": ["Minimum clearance"] });
  assert.equal(labelDetail(base, withValues({ "Minimum clearance": NaN }), { "Minimum clearance": 1 }).label, "Unresolved");
  // Scenario 12 (Mars rover): shorter, fewer sharp turns, smoother.
  assert.equal(label(base, withValues({ "Sharp turns": 3, "Smoothness": 290 }), 12), "Path 1");
  assert.throws(() => label(base, base, 16), RangeError);
});

test("the fifteen scenarios and their directions (paper Table 7)", () => {
  assert.equal(SCENARIOS.length, 15);
  const counts = SCENARIOS.map((s) => Object.values(s.directions).filter((v) => v !== 0).length);
  assert.deepEqual(counts, [3, 3, 3, 6, 2, 3, 3, 2, 4, 3, 5, 3, 5, 3, 6]);
  for (const s of SCENARIOS) for (const key of Object.keys(s.directions)) assert.ok((DESCRIPTORS as readonly string[]).includes(key));
});

test("min-max scaling and farthest pairs without self-pairs", () => {
  assert.deepEqual(minMaxScale([[0, 5], [10, 5], [5, 5]]), [[0, 0], [1, 0], [0.5, 0]]);
  const paths = [0, 10, 4, 6].map((len) => withValues({ "Path length": len }));
  assert.deepEqual(farthestPairs(paths, 2), [[0, 1], [2, 3]]);
  assert.deepEqual(farthestPairs(paths.slice(0, 3), 2), [[0, 1]]); // three paths give one pair, never (2, 2)
});

test("official answer reading, defects included", () => {
  const official = (t: string, ids?: [string, string]) => parseAnswer(t, { mode: "official", ...(ids ? { ids } : {}) });
  assert.equal(official("Answer: Path 1\nExplanation: shorter."), "Path 1");
  assert.equal(official("Answer: **Path 2**."), "Path 2");
  assert.equal(official("answer: Path 2"), null); // case matters
  assert.equal(official("Answer:Path 2"), null); // needs "Answer: " with the space
  assert.equal(official("Path 1"), "Path 1"); // no marker: the whole reply
  assert.equal(official("Answer: Path 1 or Path 2"), null);
  assert.equal(official("Answer: x7Qa\nExplanation: ...", ["x7Qa", "B2c9"]), "Path 1");
  assert.equal(official("Answer: x7Qa or B2c9", ["x7Qa", "B2c9"]), "Path 1"); // the first name wins
  assert.equal(official("B2c9", ["x7Qa", "B2c9"]), null);
});

test("robust answer reading", () => {
  const robust = (t: string, ids?: [string, string]) => parseAnswer(t, ids ? { ids } : {});
  assert.equal(robust("**Answer:** path 2.\n**Explanation:** fewer turns"), "Path 2");
  assert.equal(robust("ANSWER - Path1"), "Path 1");
  assert.equal(robust("Answer: Path 1 or Path 2. Explanation: unsure"), null); // both named
  assert.equal(robust("I would pick Path 2 because it is shorter."), "Path 2");
  assert.equal(robust("Path 1 is shorter but Path 2 is safer."), null);
  assert.equal(robust("<think>Path 1? no</think>Answer: Path 2"), "Path 2");
  assert.equal(robust("Answer: x7Qa", ["x7Qa", "B2c9"]), "Path 1");
  assert.equal(robust("Answer: x7Qa or B2c9", ["x7Qa", "B2c9"]), null);
  assert.equal(robust(""), null);
});
