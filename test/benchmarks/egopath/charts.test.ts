import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { egopathCharts } from "../../../src/benchmarks/egopath/charts.js";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { assertBar, assertWellFormed, barSlot, chart, elements, near } from "../../helpers/svg-check.js";

// ---- real runs of built-in models on the bundled example set

const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/egopath-mini");
const TASKS = [["point_traversability", "BA"], ["embodied_traversability", "BA"], ["point_path", "SR"], ["embodied_path", "SR"], ["intent_path", "SR"]] as const;
const STAGES = ["parse", "invalid_id", "wrong_start", "illegal_edge", "wrong_goal", "success"];
let runs: ScoresDocument[] = [];

before(async () => {
  for (const model of ["oracle", "random:1", "direct-to-goal"]) {
    const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-charts-egopath-"));
    await executeRun({ benchmark: "egopath", data: EXAMPLE, out, model, bootstrapResamples: 200, bootstrapSeed: 5, quiet: true, promptSource: "release", control: "none", seed: 1, flags: {}, retryErrors: false });
    runs.push(JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8")) as ScoresDocument);
  }
});

const task = (run: ScoresDocument, name: string) => run.tasks[name] as Record<string, unknown> & { ci: Record<string, [number, number]> };

test("task bars: one bar per model and task at the scores.json value, whiskers at its interval", () => {
  const svg = chart(egopathCharts(runs), /headline metric per task/);
  runs.forEach((run, i) => {
    TASKS.forEach(([name, metric], g) => {
      assertBar(svg, barSlot(g, 5, i, runs.length), task(run, name)[metric] as number, task(run, name).ci[metric]);
    });
  });
  assert.equal(elements(svg, "rect", "bar").length, 15);
});

test("radar: each model's vertex on axis k at angle −90° + 72°·k, radius 150 · value around (240, 230)", () => {
  const svg = chart(egopathCharts(runs), /five tasks/);
  const vertices = elements(svg, "circle", "vertex");
  assert.equal(vertices.length, 15);
  runs.forEach((run, i) => {
    TASKS.forEach(([name, metric], k) => {
      const v = task(run, name)[metric] as number;
      const angle = (-90 + 72 * k) * (Math.PI / 180);
      const vertex = vertices[i * 5 + k]!;
      assert.ok(near(vertex["cx"], 240 + 150 * v * Math.cos(angle)) && near(vertex["cy"], 230 + 150 * v * Math.sin(angle)), `${run.model} ${name}`);
    });
  });
});

test("failure stages: one row per model and route task, segment widths proportional to the stage counts", () => {
  const svg = chart(egopathCharts(runs), /where routes fail/);
  const segments = elements(svg, "rect", "seg");
  let row = 0;
  for (const run of runs) {
    for (const name of ["point_path", "embodied_path", "intent_path"]) {
      const stages = task(run, name)["stages"] as Record<string, number>;
      const n = task(run, name)["n"] as number;
      const y = 40 + 22 * row + 4;
      const mine = segments.filter((s) => near(s["y"], y));
      let x = 224;
      const want = STAGES.map((s) => stages[s]!).filter((c) => c > 0);
      assert.equal(mine.length, want.length, `${run.model} ${name}`);
      want.forEach((count, k) => {
        assert.ok(near(mine[k]!["x"], x) && near(mine[k]!["width"], (432 * count) / n), `${run.model} ${name} segment ${k}`);
        x += (432 * count) / n;
      });
      row++;
    }
  }
  assert.match(svg, /<title>oracle · Point Path \(a2\) · Success: 14 of 14 \(100\.0%\)<\/title>/);
});

test("deterministic; untrusted model names escaped; runs lacking tasks do not break the charts", () => {
  assert.deepEqual(egopathCharts(runs), egopathCharts(structuredClone(runs)));
  const evil = { ...structuredClone(runs[1]!), model: `<script>alert(1)</script> & "x"` };
  for (const c of egopathCharts([runs[0]!, evil])) {
    assertWellFormed(c.svg);
    assert.ok(c.svg.includes("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
  }
  // Only the route tasks were run: the traversability bars are gaps ("–"), the rest still drawn.
  const partial = structuredClone(runs[0]!);
  delete partial.tasks["point_traversability"];
  delete partial.tasks["embodied_traversability"];
  const charts = egopathCharts([partial]);
  assert.equal(charts.length, 3);
  const bars = chart(charts, /headline/);
  assert.equal(elements(bars, "rect", "bar").length, 3);
  assert.equal(elements(bars, "text", "missing").length, 2);
  // No tasks at all, or no runs: no charts.
  assert.deepEqual(egopathCharts([{ ...partial, tasks: {} }]), []);
  assert.deepEqual(egopathCharts([]), []);
  // Malformed values (strings, short intervals) are treated as absent.
  const odd = structuredClone(runs[0]!);
  task(odd, "point_path")["SR"] = "0.5";
  task(odd, "point_path").ci["SR"] = [0.1] as unknown as [number, number];
  const oddBars = chart(egopathCharts([odd]), /headline/);
  assert.equal(elements(oddBars, "text", "missing").length, 1);
});
