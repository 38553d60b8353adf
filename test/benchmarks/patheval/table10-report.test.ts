import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { meanDifferences } from "../../../src/benchmarks/patheval/aggregate.js";
import { pathevalMarkdown } from "../../../src/benchmarks/patheval/report.js";
import { DESCRIPTORS, type Descriptors } from "../../../src/benchmarks/patheval/scenarios.js";
import type { PathEvalItem } from "../../../src/benchmarks/patheval/types.js";

const values = (v: Partial<Descriptors>): Descriptors => ({ ...(Object.fromEntries(DESCRIPTORS.map((d) => [d, 0])) as Descriptors), ...v });
const item = (task: "2D" | "3D", a: Partial<Descriptors>, b: Partial<Descriptors>): PathEvalItem =>
  ({ id: `${task}/x`, task, metrics: { "Path 1": values(a), "Path 2": values(b) } }) as unknown as PathEvalItem;

test("Table 10's quantity: per dimension the mean |Path 1 - Path 2| of each descriptor over the records asked", () => {
  // 2D: length |100-130| = 30 and |90-80| = 10 -> 20; min clearance |0.5-1.5| = 1 and |2-2| = 0 -> 0.5; sharp turns |3-1| = 2 and |0-1| = 1 -> 1.5.
  const items = [
    item("2D", { "Path length": 100, "Minimum clearance": 0.5, "Sharp turns": 3 }, { "Path length": 130, "Minimum clearance": 1.5, "Sharp turns": 1 }),
    item("2D", { "Path length": 90, "Minimum clearance": 2, "Sharp turns": 0 }, { "Path length": 80, "Minimum clearance": 2, "Sharp turns": 1 }),
    item("3D", { "Smoothness": 40 }, { "Smoothness": 100 }),
  ];
  const out = meanDifferences(items, ["2D", "3D"]);
  assert.equal(out["2D"]!.n, 2);
  assert.equal(out["2D"]!.mean["Path length"], 20);
  assert.equal(out["2D"]!.mean["Minimum clearance"], 0.5);
  assert.equal(out["2D"]!.mean["Sharp turns"], 1.5);
  assert.equal(out["2D"]!.mean["Smoothness"], 0);
  assert.equal(out["3D"]!.n, 1);
  assert.equal(out["3D"]!.mean["Smoothness"], 60);
  // A dimension with no records has no means.
  const empty = meanDifferences([], ["2D"]);
  assert.equal(empty["2D"]!.n, 0);
  assert.equal(empty["2D"]!.mean["Path length"], null);
});

test("report prints the Table 10 section for choice runs, with the paper's row", () => {
  const mean = Object.fromEntries(DESCRIPTORS.map((d) => [d, 0])) as Record<string, number>;
  const doc = {
    benchmark: "patheval", model: "m", n: 2, score: 0.5, counts: { parse_failures: 0, errors: 0, missing: 0 },
    tasks: { "2D": { n: 2, accuracy: 0.5, official_accuracy: 0.5, parse_failures: 0, chose_first: 1, chose_second: 1, ci: {} } },
    mean_difference: { "2D": { n: 2, mean: { ...mean, "Path length": 20, "Minimum clearance": 0.5, "Sharp turns": 1.5 } }, "3D": { n: 0, mean } },
  } as unknown as ScoresDocument;
  const lines = pathevalMarkdown([doc]).split("\n");
  assert.ok(lines.includes("### Average descriptor differences of the pairs asked (Table 10)"));
  assert.ok(lines.includes("| m | 2D | 2 | 0.500 | 0.000 | 0.000 | 20.000 | 0.000 | 1.500 | 0.000 |"), lines.join("\n"));
  assert.ok(lines.includes("| Paper Table 10 |  | 1050 | 0.593 | 0.124 | 1.31 | 19.72 | 140.93 | 0.582 | 32.31 |"), lines.join("\n"));
  // A dimension with no records gets no row; a run without the field (older scores.json) no section.
  assert.ok(!lines.some((l) => l.startsWith("| m | 3D |")));
  const { mean_difference: _gone, ...old } = doc as unknown as Record<string, unknown>;
  assert.ok(!pathevalMarkdown([old as unknown as ScoresDocument]).includes("(Table 10)"));
});
