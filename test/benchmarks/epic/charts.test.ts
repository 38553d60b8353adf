import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { epicCharts } from "../../../src/benchmarks/epic/charts.js";
import type { ChartFigure, ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";

// ---- checks written apart from src/report/svg.ts: a tag stack, attribute parsing, the layout by hand

function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([A-Za-z][\w:-]*)(?:\s+[\w:-]+="[^"<>]*")*\s*(\/?)>/g)) {
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes the wrong element`);
    else if (!m[3]) stack.push(m[2]!);
  }
  assert.deepEqual(stack, []);
  assert.equal(svg.replace(/<[^<>]*>/g, "").search(/[<>]/), -1, "no stray angle brackets");
  assert.doesNotMatch(svg, /<script|&(?!(amp|lt|gt|quot|#39);)/i);
}

function elements(svg: string, name: string, cls: string): Array<Record<string, string>> {
  return [...svg.matchAll(new RegExp(`<${name}((?:\\s+[\\w:-]+="[^"]*")*)\\s*/?>`, "g"))]
    .map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])))
    .filter((a) => a["class"] === cls);
}

const near = (text: string | undefined, want: number) => text !== undefined && Math.abs(Number(text) - want) < 0.006;
/** Bar charts: plot x 56..704, y 40..240; groups share the width; bars ≤ 48 px, centred in 80% of a group. */
const yOf = (v: number) => 40 + 200 * (1 - v);
function barSlot(g: number, groups: number, i: number, series: number): { x: number; w: number } {
  const gw = 648 / groups;
  const w = Math.min((0.8 * gw) / series, 48);
  return { x: 56 + g * gw + (gw - series * w) / 2 + i * w, w };
}

function assertBar(svg: string, slot: { x: number; w: number }, value: number, ci?: [number, number]): void {
  const bar = elements(svg, "rect", "bar").find((b) => near(b["x"], slot.x));
  assert.ok(bar, `a bar at x = ${slot.x}`);
  assert.ok(near(bar["width"], slot.w) && near(bar["y"], yOf(value)) && near(bar["height"], 200 * value), `bar ${JSON.stringify(bar)} for ${value}`);
  if (!ci) return;
  const whisker = elements(svg, "line", "ci").find((l) => near(l["x1"], slot.x + slot.w / 2));
  assert.ok(whisker && near(whisker["y1"], yOf(ci[0])) && near(whisker["y2"], yOf(ci[1])), `whisker for ${ci}`);
}

const chart = (charts: ChartFigure[], title: RegExp) => {
  const found = charts.find((c) => title.test(c.title));
  assert.ok(found, `a chart titled ${title}`);
  assertWellFormed(found.svg);
  return found.svg;
};

// ---- real runs of the built-in models on the conformance fixture

const ROOT = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance");
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
    await executeRun({ benchmark: "epic", data: ROOT, out, model, bootstrapResamples: 200, bootstrapSeed: 5, quiet: true, promptSource: prompt, control: "none", seed: 1, flags: {}, retryErrors: false });
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
  const charts = epicCharts([partial]);
  assert.deepEqual(charts.length, 2);
  const groups = chart(charts, /by group/);
  assert.equal(elements(groups, "rect", "bar").length, 8);
  assert.equal(elements(groups, "text", "missing").length, 1);
  assert.equal(elements(groups, "line", "ci").length, 0);
  assert.deepEqual(epicCharts([{ ...partial, summary: undefined }]), []);
});
