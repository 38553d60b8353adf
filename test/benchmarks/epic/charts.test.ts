import { getBenchmark } from "../../../src/registry.js";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { epicCharts } from "../../../src/benchmarks/epic/charts.js";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { assertBar, assertWellFormed, barSlot, chart, elements, near } from "../../helpers/svg-check.js";

// ---- real runs of the built-in models on the conformance fixture

const ROOT = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance");
// The conformance set holds an ego FeasiblePath sample with an empty target area, which
// box-overlay cannot draw (validate refuses it for that variant): that run leaves the ego task out.
const EGO_PATH = "FeasiblePath_Ego";
const BOX_TASKS = getBenchmark("epic").tasks.map((t) => t.code).filter((code) => code !== EGO_PATH);
/** Table 2's nine groups, in its order. */
const GROUPS = [
  "TargetLocalization/BasicAttributes", "TargetLocalization/SpatialRelatedAttributes", "TargetLocalization/EmbodiedCompositionalAttributes",
  "Navigation/GroundDetection", "Navigation/FeasiblePath", "Navigation/VisualMatching",
  "Manipulation/AffordanceRegion", "Manipulation/ContactRelationship", "Manipulation/PlacementRegion",
];
const CATEGORIES = ["TargetLocalization", "Navigation", "Manipulation"];
type Bucket = { total_processed: number; num_invalid_response: number; mean_score: number };
type Summary = { overall: { average_score: number }; by_category: Record<string, Bucket>; by_group: Record<string, Bucket>; by_group_ci: Record<string, [number, number]> };
let runs: ScoresDocument[] = [];

before(async () => {
  for (const [model, prompt] of [["oracle", "mask-overlay"], ["random:1", "mask-overlay"], ["random:1", "box-overlay"]] as const) {
    const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-charts-epic-"));
    await executeRun({ benchmark: "epic", data: ROOT, ...(prompt === "box-overlay" ? { tasks: BOX_TASKS } : {}), out, model, bootstrapResamples: 200, bootstrapSeed: 5, quiet: true, promptSource: prompt, control: "none", seed: 1, flags: {}, retryErrors: false });
    runs.push(JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8")) as ScoresDocument);
  }
});

const summary = (run: ScoresDocument) => run["summary"] as Summary;

test("groups (Table 2 layout): bars at the summary's by_group mean scores, whiskers at by_group_ci", () => {
  const svg = chart(epicCharts(runs), /by group/);
  runs.forEach((run, i) => GROUPS.forEach((g, k) => assertBar(svg, barSlot(k, 9, i, 3), summary(run).by_group[g]!.mean_score, summary(run).by_group_ci[g])));
  assert.equal(elements(svg, "rect", "bar").length, 27);
  assert.match(svg, /random:1 \(box-overlay\)/);
});

test("categories and overall: by_category mean scores, then the overall average with score_ci", () => {
  const svg = chart(epicCharts(runs), /by category/);
  runs.forEach((run, i) => {
    CATEGORIES.forEach((c, k) => assertBar(svg, barSlot(k, 4, i, 3), summary(run).by_category[c]!.mean_score));
    assertBar(svg, barSlot(3, 4, i, 3), summary(run).overall.average_score, run["score_ci"] as [number, number]);
  });
});

test("counting score by number of targets (Fig. 4)", () => {
  const svg = chart(epicCharts(runs), /counting score/);
  runs.forEach((run, i) => {
    const rows = run["counting_by_targets"] as Array<{ targets: string; count_score: number }>;
    assert.deepEqual(rows.map((r) => r.targets), ["0", "1", "2", "3", "4", "5+"]);
    rows.forEach((r, k) => assertBar(svg, barSlot(k, rows.length, i, 3), r.count_score));
  });
});

test("invalid responses per category, stacked, when any run has some", () => {
  const svg = chart(epicCharts(runs), /invalid responses/);
  const segments = elements(svg, "rect", "seg");
  let row = 0;
  for (const run of runs) {
    for (const c of CATEGORIES) {
      const b = summary(run).by_category[c]!;
      const want = [b.total_processed - b.num_invalid_response, b.num_invalid_response].filter((n) => n > 0);
      const mine = segments.filter((s) => near(s["y"], 40 + 22 * row + 4));
      assert.deepEqual(mine.map((s) => Number(s["width"]).toFixed(2)), want.map((n) => ((432 * n) / b.total_processed).toFixed(2)), `${run.model} ${c}`);
      row++;
    }
  }
  assert.ok(summary(runs[0]!).by_category["Navigation"]!.num_invalid_response > 0, "the oracle fixture has an invalid reply");
  // Without invalid responses the chart is left out.
  assert.equal(epicCharts([runs[1]!]).some((c) => /invalid/.test(c.title)), false);
});

test("deterministic, escaped, and tolerant of missing keys", () => {
  assert.deepEqual(epicCharts(runs), epicCharts(structuredClone(runs)));
  const evil = { ...structuredClone(runs[0]!), model: `<script>alert(1)</script> & "x"` };
  for (const c of epicCharts([evil])) {
    assertWellFormed(c.svg);
    assert.ok(c.svg.includes("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
  }
  const partial = structuredClone(runs[1]!);
  delete summary(partial).by_group["Navigation/FeasiblePath"];
  delete (summary(partial) as Partial<Summary>).by_group_ci;
  delete partial["counting_by_targets"];
  delete partial["count_accuracy_by_targets"];
  const charts = epicCharts([partial]);
  assert.deepEqual(charts.length, 2);
  const groups = chart(charts, /by group/);
  assert.equal(elements(groups, "rect", "bar").length, 8);
  assert.equal(elements(groups, "text", "missing").length, 1);
  assert.equal(elements(groups, "line", "ci").length, 0);
  assert.deepEqual(epicCharts([{ ...partial, summary: undefined }]), []);
});
