import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { countAccuracyByTargets, type ScoredSample } from "../../../src/benchmarks/epic/aggregate.js";
import { epicCharts } from "../../../src/benchmarks/epic/charts.js";
import { epicMarkdown } from "../../../src/benchmarks/epic/report.js";
import { leafTask } from "../../../src/benchmarks/epic/taxonomy.js";

const sample = (leaf: string, gtCount: number, preciseCount: boolean, countExact: boolean): ScoredSample => ({
  leaf: leafTask(leaf)!, score: 0, invalid: false, cluster: "c", gtCount, countScore: countExact ? 1 : 0, preciseCount, countExact,
});

test("Fig. 4: exact counting accuracy on precise-count samples by number of targets, TL and CR apart", () => {
  const samples = [
    sample("Color", 1, true, true),
    sample("Color", 1, true, false),
    sample("Spoken", 1, true, true),
    sample("Color", 0, true, false),
    sample("Color", 7, true, true), // 5+
    sample("Color", 2, false, true), // not precise: left out
    sample("ContactRelationship_TypeTwo", 2, true, true),
    sample("ContactRelationship_TypeOne", 2, true, false),
    sample("VisualMatching", 1, true, true), // neither TL nor CR: left out
  ];
  assert.deepEqual(countAccuracyByTargets(samples), {
    // TL: 0 targets 0/1; 1 target 2/3; 5+ 1/1.
    TargetLocalization: [
      { targets: "0", n: 1, correct: 0, accuracy: 0 },
      { targets: "1", n: 3, correct: 2, accuracy: 2 / 3 },
      { targets: "5+", n: 1, correct: 1, accuracy: 1 },
    ],
    // CR: 2 targets 1/2.
    ContactRelationship: [{ targets: "2", n: 2, correct: 1, accuracy: 0.5 }],
  });
});

test("Fig. 4 appears as a table in report.md and as a chart per panel", () => {
  const run: ScoresDocument = {
    benchmark: "epic", model: "m", n: 4, score: 0.5, tasks: {}, counts: { parse_failures: 0, errors: 0, missing: 0 },
    count_accuracy_by_targets: countAccuracyByTargets([sample("Color", 1, true, true), sample("Color", 1, true, false), sample("ContactRelationship_TypeOne", 3, true, true)]),
  };
  const md = epicMarkdown([run]);
  assert.match(md, /### m: counting accuracy by number of targets, precise-count samples \(Fig\. 4\)/);
  assert.match(md, /\| 1 \| 50\.0 \(1\/2\) \| – \|/);
  assert.match(md, /\| 3 \| – \| 100\.0 \(1\/1\) \|/);
  const titles = epicCharts([run]).map((c) => c.title);
  assert.ok(titles.includes("EPIC-Bench: counting accuracy on precise-count samples, Target Localization (Fig. 4)"), titles.join("; "));
  assert.ok(titles.includes("EPIC-Bench: counting accuracy on precise-count samples, Contact Relationship (Fig. 4)"));
});
