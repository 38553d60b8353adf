import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { distanceToObstacle, pairByLargestDifference, segmentClearance, segmentHitsObstacle, segmentPairs, writeSegmentSet } from "../../../src/benchmarks/patheval/segments.js";
import { loadSegmentSet } from "../../../src/benchmarks/patheval/segments-load.js";
import { executeRun } from "../../../src/core/session.js";
import { pathevalMarkdown } from "../../../src/benchmarks/patheval/report.js";

test("distances to the centred square [-8, 8]^2 and segment-obstacle contact", () => {
  assert.equal(distanceToObstacle([20, 0]), 12);
  assert.equal(distanceToObstacle([11, -12]), 5); // corner region: hypot(3, 4)
  assert.equal(distanceToObstacle([1, 1]), 0);
  assert.equal(segmentHitsObstacle([-20, 0], [20, 0]), true);
  assert.equal(segmentHitsObstacle([-20, 9], [20, 9]), false);
  assert.equal(segmentHitsObstacle([-20, -20], [20, 20]), true);
  assert.equal(segmentHitsObstacle([9, -20], [9, 20]), false);
  assert.equal(segmentHitsObstacle([10, 0], [30, 0]), false); // ends short of the face at x = 8
  // The paper's rule for lines and curves: the nearer endpoint counts, not the nearest interior point.
  assert.equal(segmentClearance([[20, 0], [30, 0]]), 12);
  // Passes 1 above the square; its ends are hypot(22, 1) = √485 ≈ 22.02 away.
  assert.ok(Math.abs(segmentClearance([[-30, 9], [0, 9], [30, 9]]) - Math.sqrt(485)) < 1e-12);
});

test("pairing: each unpaired segment with the unpaired one of most different clearance, ties to the lower index", () => {
  // 1 pairs with 10 (difference 9 beats 4 and 2); then 5 with 3.
  assert.deepEqual(pairByLargestDifference([1, 5, 10, 3]), [[0, 2], [1, 3]]);
  // 4: |2 - 4| = |6 - 4| = 2, the lower index wins; 6 is left alone.
  assert.deepEqual(pairByLargestDifference([4, 2, 6]), [[0, 1]]);
});

test("the study's pairs: N/2 per type, inside the world, off the obstacle, the closer one named; seeded", () => {
  const pairs = segmentPairs(9, 20);
  assert.deepEqual(["point", "line", "curve"].map((t) => pairs.filter((p) => p.segment_type === t).length), [10, 10, 10]);
  for (const p of pairs) {
    for (const name of ["Path 1", "Path 2"] as const) {
      const points = p.segments[name];
      assert.equal(points.length, p.segment_type === "point" ? 1 : p.segment_type === "line" ? 2 : 24);
      assert.ok(points.every(([x, y]) => Math.abs(x) <= 38 && Math.abs(y) <= 38));
      assert.ok(points.every((q, i) => i === 0 || !segmentHitsObstacle(points[i - 1]!, q)));
      assert.equal(p.clearance[name], segmentClearance(points));
    }
    assert.equal(p.closer, p.clearance["Path 1"] < p.clearance["Path 2"] ? "Path 1" : "Path 2");
    assert.equal(p.difference, Math.abs(p.clearance["Path 1"] - p.clearance["Path 2"]));
  }
  assert.deepEqual(segmentPairs(9, 20), pairs);
});

test("written, loaded back (tampering refused), asked with --prompt segments and reported in Fig. 2's layout", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "patheval-seg-"));
  const summary = await writeSegmentSet(dir, { seed: 4, dims: ["2D"], perType: 4 });
  assert.equal(summary.pairs, 6);
  const loaded = loadSegmentSet(dir);
  assert.deepEqual(loaded.problems, []);
  assert.deepEqual(loaded.items.map((i) => i.id), ["segments/2D/point_0", "segments/2D/point_1", "segments/2D/line_0", "segments/2D/line_1", "segments/2D/curve_0", "segments/2D/curve_1"]);

  const { scores } = await executeRun({
    benchmark: "patheval", data: dir, out: path.join(dir, "oracle"), model: "descriptor-oracle", bootstrapResamples: 0, bootstrapSeed: 1, quiet: true,
    promptSource: "segments", control: "none", seed: 5, flags: {}, retryErrors: false,
  });
  assert.equal(scores.n, 6);
  assert.equal(scores.score, 1);
  assert.equal(scores["probe"], "segments");
  const t = scores.tasks["segments"] as { by_dim: Record<string, { per_segment: Array<{ segment: string; n: number; accuracy: number }> }> };
  assert.deepEqual(t.by_dim["2D"]!.per_segment.map((r) => [r.segment, r.n, r.accuracy]), [["point", 2, 1], ["line", 2, 1], ["curve", 2, 1]]);
  const md = pathevalMarkdown([scores]);
  assert.match(md, /\| point \| 100\.0 \(2\) \| [0-9.]+ \| 14\.76 \| 77\.0 \|/);

  const { pathevalCharts } = await import("../../../src/benchmarks/patheval/charts.js");
  const charts = pathevalCharts([scores]);
  assert.deepEqual(charts.map((c) => c.title), ["PathEval segment complexity (Fig. 2d): which segment is closer to the obstacle"]);
  assert.match(charts[0]!.svg, />descriptor-oracle \(segments\): 2D<\/text>/);

  const file = path.join(dir, "segments", "2D", "segments_2D.json");
  const records = JSON.parse(readFileSync(file, "utf8"));
  records[0].closer = records[0].closer === "Path 1" ? "Path 2" : "Path 1";
  records[1].difference += 1;
  writeFileSync(file, JSON.stringify(records));
  const bad = loadSegmentSet(dir);
  assert.deepEqual(bad.problems.map((p) => p.field), ["[0].closer", "[1].difference"]);
  assert.equal(bad.items.length, 4);
});
