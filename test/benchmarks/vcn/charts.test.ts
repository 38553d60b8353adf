import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { vcnCharts } from "../../../src/benchmarks/vcn/charts.js";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { assertBar, assertWellFormed, barSlot, chart, elements, near, yOf } from "../../helpers/svg-check.js";

// ---- real runs of the built-in models on the bundled frame folders

const EXAMPLE = path.resolve(import.meta.dirname, "../../../test/fixtures/vcn-legacy-mini");
const TYPES = ["count", "order", "distance", "orientation", "instance"];
const R2O = ["count", "order", "distance", "orientation"];
type Task = { n: number; SR: number; chance: { complete: number; category: number }; ci: { SR: [number, number] } };
type Averages = { mean_of_types: number };
let runs: ScoresDocument[] = [];
let counterfactual: ScoresDocument;

async function run(model: string, prompt: string): Promise<ScoresDocument> {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-charts-vcn-"));
  await executeRun({ benchmark: "vcn", data: EXAMPLE, out, model, bootstrapResamples: 200, bootstrapSeed: 5, quiet: true, promptSource: prompt, control: "none", seed: 1, flags: {}, retryErrors: false });
  return JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8")) as ScoresDocument;
}

before(async () => {
  for (const model of ["oracle", "random:1", "random-category:1"]) runs.push(await run(model, "plain"));
  counterfactual = await run("oracle", "counterfactual");
});

const task = (r: ScoresDocument, t: string) => r.tasks[t] as unknown as Task;
const average = (r: ScoresDocument, key: string) => (r[key] as Averages).mean_of_types;
const ci = (r: ScoresDocument, key: string) => (r["ci"] as Record<string, [number, number]>)[key];

test("per type: Rid-SR / Oid-SR bars, then the two means of types, at the scores.json values and intervals", () => {
  const svg = chart(vcnCharts(runs), /goal identification/);
  runs.forEach((r, i) => {
    TYPES.forEach((t, g) => assertBar(svg, barSlot(g, 7, i, 3), task(r, t).SR, task(r, t).ci.SR));
    assertBar(svg, barSlot(5, 7, i, 3), average(r, "Rid-SR"), ci(r, "Rid-SR.mean_of_types"));
    assertBar(svg, barSlot(6, 7, i, 3), average(r, "average"), ci(r, "average.mean_of_types"));
  });
});

test("chance levels as dashed ticks across each group, once for runs on the same questions", () => {
  const svg = chart(vcnCharts(runs), /goal identification/);
  const ticks = elements(svg, "line", "ref");
  assert.equal(ticks.length, 2 * 7, "complete and category, seven groups each");
  const chance = runs[0]!["chance"] as Record<string, Record<string, Averages>>;
  const gw = 648 / 7;
  for (const [r, kind] of ["complete", "category"].entries()) {
    const want = [...TYPES.map((t) => task(runs[0]!, t).chance[kind as "complete"]), chance[kind]!["Rid-SR"]!.mean_of_types, chance[kind]!["average"]!.mean_of_types];
    want.forEach((v, g) => {
      const tick = ticks[r * 7 + g]!;
      assert.ok(near(tick["x1"], 56 + g * gw + 0.05 * gw) && near(tick["x2"], 56 + g * gw + 0.95 * gw), `${kind} ${g} x`);
      assert.ok(near(tick["y1"], yOf(v)) && near(tick["y2"], yOf(v)), `${kind} ${g} at ${v}`);
    });
  }
  assert.match(svg, />chance: complete<\/text>/);
  // A counterfactual run asks other targets: its chance levels differ and are named by run.
  const mixed = chart(vcnCharts([runs[0]!, counterfactual]), /goal identification/);
  assert.match(mixed, />chance: complete · oracle<\/text>/);
  assert.match(mixed, />chance: complete · oracle \(counterfactual\)<\/text>/);
});

test("error taxonomy: successes then each error category, as shares of the questions", () => {
  const charts = vcnCharts(runs);
  for (const [family, title, tasks, categories] of [
    ["r2o", /R2O/, R2O, ["position", "disturbance", "cognition", "out-of-range", "no-answer"]],
    ["object", /Instance/, ["instance"], ["instance", "perception", "out-of-range", "no-answer"]],
  ] as const) {
    const svg = chart(charts, title);
    const segments = elements(svg, "rect", "seg");
    runs.forEach((r, row) => {
      const errors = (r["errors"] as Record<string, Record<string, number>>)[family]!;
      const n = tasks.reduce((s, t) => s + task(r, t).n, 0);
      const successes = tasks.reduce((s, t) => s + Math.round(task(r, t).SR * task(r, t).n), 0);
      const want = [successes, ...categories.map((c) => errors[c] ?? 0)].filter((c) => c > 0);
      const mine = segments.filter((s) => near(s["y"], 40 + 22 * row + 4));
      assert.deepEqual(mine.map((s) => Number(s["width"]).toFixed(2)), want.map((c) => ((432 * c) / n).toFixed(2)), `${r.model} ${family}`);
    });
  }
});

test("deterministic, escaped, and tolerant of missing keys", () => {
  assert.deepEqual(vcnCharts(runs), vcnCharts(structuredClone(runs)));
  const evil = { ...structuredClone(runs[1]!), model: `<script>alert(1)</script> & "x"` };
  for (const c of vcnCharts([evil])) {
    assertWellFormed(c.svg);
    assert.ok(c.svg.includes("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
  }
  // Only the instance questions: the R2O bars are gaps, the R2O taxonomy is left out.
  const only = structuredClone(runs[1]!);
  for (const t of R2O) delete only.tasks[t];
  delete only["errors"];
  const charts = vcnCharts([only]);
  assert.deepEqual(charts.map((c) => c.title), ["VCN-Bench: goal identification per type (95% CI; dashed: chance)"]);
  const svg = chart(charts, /goal/);
  assert.equal(elements(svg, "text", "missing").length, 4);
  // Navigation metrics, when a run carries them, get their own chart.
  const nav = { ...structuredClone(runs[0]!), navigation: { summary: { n: 4, SR: 0.5, SPL: 0.25, soft_SPL: 0.75, SSR: 1, RSR: null } } };
  const navSvg = chart(vcnCharts([nav]), /navigation/);
  [0.5, 0.25, 0.75, 1].forEach((v, g) => assertBar(navSvg, barSlot(g, 5, 0, 1), v));
  assert.equal(elements(navSvg, "text", "missing").length, 1);
  assert.deepEqual(vcnCharts([]), []);
});
