import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { egotlCharts } from "../../../src/benchmarks/egotl/charts.js";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun, executeScore } from "../../../src/core/session.js";
import { assertBar, assertWellFormed, barSlot, chart, elements, near, yOf } from "../../helpers/svg-check.js";

// ---- real runs: built-in models, and stored replies that are partly unreadable

const EXAMPLE = path.resolve(import.meta.dirname, "../../../test/fixtures/egotl-legacy-mini");
const CHOICE = ["planning", "scene_action", "next_action", "action_recognition", "direction"];
/** Uniform guessing by hand: four options; five direction labels. */
const CHANCE = [0.25, 0.25, 0.25, 0.25, 0.2];
type Choice = { n: number; correct: number; accuracy: number; unreadable: number; excluded: number; ci: { accuracy: [number, number] } };
type Distance = { MRA: number; ci: { MRA: [number, number] } };
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-charts-egotl-"));
let runs: ScoresDocument[] = [];
let sloppy: ScoresDocument;

const read = (out: string) => JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8")) as ScoresDocument;

before(async () => {
  for (const model of ["oracle", "random:1"]) {
    const out = path.join(tmp, model.replace(/\W/g, "_"));
    await executeRun({ benchmark: "egotl", data: EXAMPLE, out, model, bootstrapResamples: 200, bootstrapSeed: 5, quiet: true, promptSource: "templates", control: "none", seed: 1, flags: {}, retryErrors: false });
    runs.push(read(out));
  }
  // Every other question gets a letter or a plan letter, the rest a reply with nothing to read.
  const ids = readFileSync(path.join(EXAMPLE, "test.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; task: string });
  const replies = ids.map(({ id, task }, k) => ({ id, response: k % 2 === 0 ? "no idea, sorry" : task === "planning" ? '{"scores": {"A": 1}, "best": "A"}' : "A" }));
  const file = path.join(tmp, "sloppy.jsonl");
  writeFileSync(file, replies.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const out = path.join(tmp, "sloppy");
  await executeScore({ benchmark: "egotl", data: EXAMPLE, out, predictions: [file], bootstrapResamples: 200, bootstrapSeed: 5, quiet: true });
  sloppy = read(out);
});

const choice = (r: ScoresDocument, t: string) => r.tasks[t] as unknown as Choice;

test("accuracy per task, Avg. and distance MRA at the scores.json values, with intervals", () => {
  const svg = chart(egotlCharts(runs), /accuracy per task/);
  runs.forEach((r, i) => {
    CHOICE.forEach((t, g) => assertBar(svg, barSlot(g, 7, i, 2), choice(r, t).accuracy, choice(r, t).ci.accuracy));
    assertBar(svg, barSlot(5, 7, i, 2), r["Avg."] as number, r["score_ci"] as [number, number]);
    const d = r.tasks["distance"] as unknown as Distance;
    assertBar(svg, barSlot(6, 7, i, 2), d.MRA, d.ci.MRA);
  });
});

test("uniform chance ticks: 25% for four options, 20% for direction, their mean for Avg., none for distance", () => {
  const svg = chart(egotlCharts(runs), /accuracy per task/);
  const ticks = elements(svg, "line", "ref");
  const want = [...CHANCE, (0.25 * 4 + 0.2) / 5];
  assert.equal(ticks.length, want.length);
  const gw = 648 / 7;
  want.forEach((v, g) => {
    assert.ok(near(ticks[g]!["x1"], 56 + g * gw + 0.05 * gw) && near(ticks[g]!["y1"], yOf(v)) && near(ticks[g]!["y2"], yOf(v)), `tick ${g}`);
  });
  assert.match(svg, /<title>uniform chance · Avg\.: 24\.0%<\/title>/);
});

test("answers by outcome: right, wrong, unreadable and excluded shares, only when something was unreadable", () => {
  assert.equal(egotlCharts(runs).some((c) => /outcome/.test(c.title)), false, "the built-ins always answer readably");
  const svg = chart(egotlCharts([...runs, sloppy]), /outcome/);
  const segments = elements(svg, "rect", "seg");
  let row = 0;
  for (const r of [...runs, sloppy]) {
    for (const t of CHOICE) {
      const s = choice(r, t);
      const unreadableCounted = s.unreadable - s.excluded;
      const want = [s.correct, s.n - s.correct - s.unreadable, unreadableCounted, s.excluded].filter((c) => c > 0);
      const mine = segments.filter((x) => near(x["y"], 40 + 22 * row + 4));
      assert.deepEqual(mine.map((x) => Number(x["width"]).toFixed(2)), want.map((c) => ((432 * c) / s.n).toFixed(2)), `${r.model} ${t}`);
      row++;
    }
  }
  const ar = choice(sloppy, "action_recognition");
  assert.ok(ar.excluded > 0 && choice(sloppy, "planning").unreadable > 0, "the stored replies exercise both kinds");
  assert.match(svg, new RegExp(`Action recognition · excluded \\(no letter A-D\\): ${ar.excluded} of ${ar.n}`));
});

test("deterministic, escaped, and tolerant of missing keys", () => {
  assert.deepEqual(egotlCharts(runs), egotlCharts(structuredClone(runs)));
  const evil = { ...structuredClone(sloppy), model: `<script>alert(1)</script> & "x"`, circular: true };
  for (const c of egotlCharts([evil])) {
    assertWellFormed(c.svg);
    assert.ok(c.svg.includes("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; (circular)"));
  }
  // Distance only: no Avg. group, no chance ticks; the MRA bar alone.
  const distance = { ...structuredClone(runs[1]!), tasks: { distance: structuredClone(runs[1]!.tasks["distance"]!) }, "Avg.": null };
  const charts = egotlCharts([distance]);
  assert.equal(charts.length, 1);
  const svg = chart(charts, /accuracy/);
  const d = distance.tasks.distance as unknown as Distance;
  assertBar(svg, barSlot(0, 1, 0, 1), d.MRA, d.ci.MRA);
  assert.equal(elements(svg, "line", "ref").length, 0);
  assert.deepEqual(egotlCharts([{ ...distance, tasks: {} }]), []);
});
