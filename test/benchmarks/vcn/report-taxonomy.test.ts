import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { vcnMarkdown } from "../../../src/benchmarks/vcn/report.js";

/**
 * A hand-made goal-identification run (App. D.1's taxonomy per instruction type): three Count
 * questions (1 success, 1 position, 1 no answer), four Distance questions (2 disturbance,
 * 1 cognition, 1 out-of-range, none right) and two Instance questions (1 success, 1 instance
 * error). Order and Orientation were not asked, so they get no row.
 */
const run = {
  benchmark: "vcn",
  model: "hand",
  n: 9,
  n_total: 9,
  n_scored: 9,
  complete: true,
  score: 0.2,
  counts: { parse_failures: 1, missing: 0, errors: 0 },
  prompt: { variant: "plain" },
  tasks: {
    count: { n: 3, metric: "Rid-SR", SR: 1 / 3, chance: { complete: 0.1, category: 0.3 }, errors: { position: 1, disturbance: 0, cognition: 0, "out-of-range": 0, "no-answer": 1 } },
    distance: { n: 4, metric: "Rid-SR", SR: 0, chance: { complete: 0.1, category: 0.3 }, errors: { position: 0, disturbance: 2, cognition: 1, "out-of-range": 1, "no-answer": 0 } },
    instance: { n: 2, metric: "Oid-SR", SR: 0.5, chance: { complete: 0.1, category: 0.3 }, errors: { instance: 1, perception: 0, "out-of-range": 0, "no-answer": 0 } },
  },
  errors: { r2o: { position: 1, disturbance: 2, cognition: 1, "out-of-range": 1, "no-answer": 1 }, object: { instance: 1, perception: 0, "out-of-range": 0, "no-answer": 0 } },
} as unknown as ScoresDocument;

test("the error taxonomy per instruction type: successes and each category as count (share of the type's questions), – where it does not apply", () => {
  const md = vcnMarkdown([run]);
  assert.match(md, /### Error taxonomy per instruction type/);
  const start = md.indexOf("### Error taxonomy per instruction type");
  const section = md.slice(start, md.indexOf("\n### ", start + 1));
  const rows = section.split("\n").filter((l) => l.startsWith("| hand |"));
  assert.deepEqual(rows, [
    "| hand | plain | Count | 3 | 1 (33.3) | 1 (33.3) | 0 (0.0) | 0 (0.0) | – | – | 0 (0.0) | 1 (33.3) |",
    "| hand | plain | Distance | 4 | 0 (0.0) | 0 (0.0) | 2 (50.0) | 1 (25.0) | – | – | 1 (25.0) | 0 (0.0) |",
    "| hand | plain | Instance | 2 | 1 (50.0) | – | – | – | 1 (50.0) | 0 (0.0) | 0 (0.0) | 0 (0.0) |",
  ]);
  assert.match(section, /\| Run \| Variant \| Type \| N \| Success \| position \| disturbance \| cognition \| instance \| perception \| out-of-range \| no-answer \|/);
  // Every question is in exactly one cell of its row: success + the categories = N.
  for (const row of rows) {
    const cells = row.split("|").map((c) => c.trim()).slice(4, -1);
    const n = Number(cells[0]);
    const sum = cells.slice(1).filter((c) => c !== "–").reduce((s, c) => s + Number(c.split(" ")[0]), 0);
    assert.equal(sum, n, row);
  }
});
