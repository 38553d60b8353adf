import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { pathevalCharts } from "../../../src/benchmarks/patheval/charts.js";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { assertBar, assertWellFormed, barSlot, chart, elements, near } from "../../helpers/svg-check.js";

// ---- a small generated set, and real runs of the built-in models on it

type Dim = { n: number; accuracy: number; chose_first: number; chose_second: number; parse_failures: number; ci: { accuracy: [number, number] } };
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-charts-patheval-"));
const data = path.join(tmp, "set");
const RUNS: Array<[string, string]> = [["descriptor-oracle", "plain"], ["random:1", "plain"], ["always-first", "flipped"]];
let runs: ScoresDocument[] = [];
let probe: ScoresDocument;
let abstraction: ScoresDocument;

async function run(model: string, prompt: string): Promise<ScoresDocument> {
  const out = path.join(tmp, `${model.replace(/\W/g, "_")}-${prompt}`);
  await executeRun({ benchmark: "patheval", data, out, model, bootstrapResamples: 200, bootstrapSeed: 5, quiet: true, promptSource: prompt, control: "none", seed: 1, flags: {}, retryErrors: false });
  return JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8")) as ScoresDocument;
}

before(async () => {
  await generatePathEval({ outDir: data, seed: 5, environments: 3, runsPerEnvironment: 6, testPerScenario: 1, workers: 1 });
  for (const [model, prompt] of RUNS) runs.push(await run(model, prompt));
  probe = await run("descriptor-oracle", "fine-grained");
  abstraction = await run("random:1", "attribute-abstraction");
});

const dim = (r: ScoresDocument, d: string) => r.tasks[d] as unknown as Dim;

test("accuracy per dimension: bars at the scores.json values with their intervals; chance ticks at 50%", () => {
  const svg = chart(pathevalCharts(runs), /accuracy per dimension/);
  runs.forEach((r, i) => ["2D", "3D"].forEach((d, g) => assertBar(svg, barSlot(g, 2, i, runs.length), dim(r, d).accuracy, dim(r, d).ci.accuracy)));
  const ticks = elements(svg, "line", "ref");
  assert.equal(ticks.length, 2);
  for (const t of ticks) assert.ok(near(t["y1"], 140) && near(t["y2"], 140));
  assert.match(svg, /always-first \(flipped\)/);
});

test("per scenario and per descriptor: one group per entry of per_scenario / per_descriptor", () => {
  const charts = pathevalCharts(runs);
  const scenarios = chart(charts, /by scenario/);
  const list = (r: ScoresDocument, key: string) => r[key] as Array<{ id?: number; descriptor?: string; accuracy: number }>;
  const ids = [...new Set(runs.flatMap((r) => list(r, "per_scenario").map((s) => s.id!)))].sort((a, b) => a - b);
  runs.forEach((r, i) => list(r, "per_scenario").forEach((s) => assertBar(scenarios, barSlot(ids.indexOf(s.id!), ids.length, i, runs.length), s.accuracy)));
  const descriptors = chart(charts, /decided by each descriptor/);
  const names = ["Minimum clearance", "Maximum clearance", "Average clearance", "Path length", "Smoothness", "Sharp turns", "Maximum angle"]
    .filter((d) => runs.some((r) => list(r, "per_descriptor").some((x) => x.descriptor === d)));
  runs.forEach((r, i) => list(r, "per_descriptor").forEach((x) => assertBar(descriptors, barSlot(names.indexOf(x.descriptor!), names.length, i, runs.length), x.accuracy)));
});

test("position bias: left / right / unreadable shares of each model's answers per dimension", () => {
  const svg = chart(pathevalCharts(runs), /position bias/);
  const segments = elements(svg, "rect", "seg");
  let row = 0;
  for (const r of runs) {
    for (const d of ["2D", "3D"]) {
      const s = dim(r, d);
      const counts = [s.chose_first, s.chose_second, s.parse_failures].filter((c) => c > 0);
      const total = s.chose_first + s.chose_second + s.parse_failures;
      const mine = segments.filter((x) => near(x["y"], 40 + 22 * row + 4));
      assert.deepEqual(mine.map((x) => Number(x["width"]).toFixed(1)), counts.map((c) => ((432 * c) / total).toFixed(1)), `${r.model} ${d}`);
      row++;
    }
  }
  // always-first on the flipped prompt picks the path shown on the left every time.
  assert.match(svg, /always-first \(flipped\) · 2D · left path \(shown first\): (\d+) of \1 \(100\.0%\)/);
});

test("fine-grained probe: accuracy overall and per ε subset", () => {
  const charts = pathevalCharts([probe]);
  assert.deepEqual(charts.map((c) => c.title), ["PathEval fine-grained probe: accuracy by ε subset"]);
  const t = probe.tasks["fine-grained"] as { accuracy: number; accuracy_ci: [number, number]; per_epsilon: Record<string, { accuracy: number | null }> };
  const svg = chart(charts, /fine-grained/);
  assertBar(svg, barSlot(0, 4, 0, 1), t.accuracy, t.accuracy_ci);
  ["ε1", "ε2", "ε3"].forEach((e, k) => {
    const v = t.per_epsilon[e]?.accuracy;
    if (typeof v === "number") assertBar(svg, barSlot(k + 1, 4, 0, 1), v);
  });
  // Choice runs and probe runs together: each kind gets its charts, names told apart.
  const both = pathevalCharts([...runs, probe]);
  assert.equal(both.length, 5);
  assert.match(chart(both, /fine-grained/), /descriptor-oracle \(fine-grained\)/);
});

test("attribute-abstraction probe: right direction and right relevance per descriptor, two bars per run", () => {
  const charts = pathevalCharts([abstraction]);
  assert.equal(charts.length, 1);
  const svg = chart(charts, /attribute-abstraction/);
  const rows = (abstraction.tasks["attribute-abstraction"] as { per_descriptor: Array<{ accuracy: number; relevance_accuracy: number }> }).per_descriptor;
  assert.equal(rows.length, 7);
  rows.forEach((r, k) => {
    assertBar(svg, barSlot(k, 7, 0, 2), r.accuracy);
    assertBar(svg, barSlot(k, 7, 1, 2), r.relevance_accuracy);
  });
  assert.match(svg, />random:1 \(attribute-abstraction\): relevance<\/text>/);
});

test("deterministic, escaped, and tolerant of missing keys", () => {
  assert.deepEqual(pathevalCharts(runs), pathevalCharts(structuredClone(runs)));
  const evil = { ...structuredClone(runs[0]!), model: `<script>alert(1)</script> & "x"` };
  (evil["per_scenario"] as Array<{ agent: string }>)[0]!.agent = "</text><script>";
  for (const c of pathevalCharts([evil])) {
    assertWellFormed(c.svg);
    assert.ok(c.svg.includes("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
  }
  assert.ok(chart(pathevalCharts([evil]), /by scenario/).includes("&lt;/text&gt;&lt;script&gt;"));
  const bare = { ...structuredClone(runs[0]!) };
  delete bare["per_scenario"];
  delete bare["per_descriptor"];
  delete bare.tasks["3D"];
  const charts = pathevalCharts([bare]);
  assert.deepEqual(charts.map((c) => c.title.split(":")[1]!.trim().split(" ")[0]), ["accuracy", "position"]);
  assert.equal(elements(chart(charts, /dimension/), "rect", "bar").length, 1);
  assert.deepEqual(pathevalCharts([]), []);
});
