import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { PER_ITEM_COLUMNS, type PerItemRow } from "../../../src/benchmarks/epic/aggregate.js";
import { epicMarkdown } from "../../../src/benchmarks/epic/report.js";
import { jointVsCountOnly, overlayAblation, repeatMeans } from "../../../src/benchmarks/epic/tables.js";
import { BY_GROUP_ORDER } from "../../../src/benchmarks/epic/taxonomy.js";

const ROOT = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance");
const close = (a: number | null, b: number) => a !== null && Math.abs(a - b) <= 1e-12;
const g = (name: string) => BY_GROUP_ORDER.indexOf(name);
const FP = g("Navigation/FeasiblePath"), AR = g("Manipulation/AffordanceRegion"), CR = g("Manipulation/ContactRelationship"), GD = g("Navigation/GroundDetection"), BA = g("TargetLocalization/BasicAttributes");

function run(model: string, variant: string, rows: PerItemRow[], extra: Record<string, unknown> = {}): ScoresDocument {
  return {
    benchmark: "epic", model, n: rows.length, score: null, tasks: {}, counts: { parse_failures: 0, errors: 0, missing: 0 },
    prompt: { variant }, run_options: { prompt_source: variant, benchmark_options: {} },
    per_item: { columns: PER_ITEM_COLUMNS, rows }, ...extra,
  };
}

test("Table 5 is computed on the in-scope samples every overlay run scored", () => {
  const none = run("m", "no-overlay", [
    ["fp1", FP, "ok", 0.2, null, null, null, null],
    ["ar1", AR, "ok", 0.4, null, null, null, null],
    ["cr1", CR, "error", null, null, null, null, null],
    ["gd1", GD, "ok", 1, null, null, null, null],
  ]);
  const mask = run("m", "mask-overlay", [
    ["fp1", FP, "ok", 0.6, null, null, null, null],
    ["ar1", AR, "invalid", 0.2, null, null, null, null],
    ["cr1", CR, "ok", 0.9, null, null, null, null],
    ["gd1", GD, "ok", 0, null, null, null, null],
  ]);
  const c = overlayAblation([mask, none]);
  // Common in scope: fp1, ar1 (cr1 errored without overlay; gd1 is out of scope).
  assert.equal(c.common, 2);
  assert.deepEqual(c.cells.map((x) => [x.variant, x.n, x.errors]), [["no-overlay", 2, 1], ["mask-overlay", 2, 0]]);
  // no-overlay: (0.2 + 0.4) / 2 = 0.3; mask: (0.6 + 0.2) / 2 = 0.4.
  assert.ok(close(c.cells[0]!.value, 0.3));
  assert.ok(close(c.cells[1]!.value, 0.4));
  const md = epicMarkdown([mask, none]);
  // Per task: FP 0.2 / 0.6, AR 0.4 / 0.2 (n 1 each); CR and PR have no common sample.
  assert.match(md, /\| m \| w\/o overlay \| 30\.00 \|  \| 20\.00 \(1\) \| 40\.00 \(1\) \| – \| – \| 2 \| 1 \| 0 \|/);
  assert.match(md, /\| m \| mask overlay \| 40\.00 \| \+10\.00 \| 60\.00 \(1\) \| 20\.00 \(1\) \| – \| – \| 2 \| 0 \| 0 \|/);
});

test("Table 4 compares counting scores of joint and count-only runs on precise-count TL and CR samples", () => {
  const joint = run("m", "mask-overlay", [
    ["tl1", BA, "ok", 0.7, 1, true, 2, true],
    ["tl2", BA, "ok", 0.1, 0, false, 1, true],
    ["tl3", BA, "ok", 0.9, 1, true, 1, false],
    ["cr1", CR, "ok", 0.5, 1, true, 3, true],
  ]);
  const countOnly = run("m", "count-only", [
    ["tl1", BA, "ok", 0, 0, false, 2, true],
    ["tl2", BA, "missing", null, null, null, 1, true],
    ["tl3", BA, "ok", 1, 1, true, 1, false],
    ["cr1", CR, "ok", 1, 1, true, 3, true],
  ]);
  const c = jointVsCountOnly([countOnly, joint]);
  // Scope: precise tl1, tl2, cr1; tl2 has no prediction in the count-only run: common tl1, cr1.
  // joint (1 + 1) / 2 = 1; count-only (0 + 1) / 2 = 0.5.
  assert.equal(c.common, 2);
  assert.deepEqual(c.cells.map((x) => [x.variant, x.value, x.n, x.missing]), [["mask-overlay", 1, 2, 0], ["count-only", 0.5, 2, 1]]);
  assert.match(epicMarkdown([joint, countOnly]), /\| m \| count only \| 50\.00 \| -50\.00 \| 2 \| 0 \| 1 \|/);
});

test("a run without a per-item list is named and left out of the comparison", () => {
  const none = run("m", "no-overlay", [["fp1", FP, "ok", 0.5, null, null, null, null]]);
  const old = { ...run("m", "mask-overlay", []), per_item: undefined };
  const c = overlayAblation([none, old]);
  assert.deepEqual(c.withoutPerItem, ["m"]);
  assert.equal(c.cells.length, 1);
});

test("repeats: the plain mean of each repeat's overall score and group means", () => {
  const repeat = (index: number, score: number, ba: number) => run("m", "mask-overlay", [], {
    name: `m · repeat ${index}/2`, repeat: { index, of: 2, group: "/runs/m" }, score, n: 10,
    summary: { overall: { average_score: score }, by_group: { "TargetLocalization/BasicAttributes": { mean_score: ba, total_processed: 10, num_invalid_response: 0 } } },
  });
  const [m] = repeatMeans([repeat(1, 0.4, 0.2), repeat(2, 0.5, 0.6)]);
  assert.equal(m!.label, "m");
  assert.equal(m!.repeats, 2);
  assert.ok(close(m!.overall, 0.45));
  assert.ok(close(m!.byGroup["TargetLocalization/BasicAttributes"]!, 0.4));
  assert.equal(m!.byGroup["Navigation/GroundDetection"], null);
});

test("the oracle counts every precise-count sample right with either prompt; count-only asks TL and CR only", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-tables-"));
  const common = { benchmark: "epic", data: ROOT, bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, control: "none", seed: 1, flags: {}, retryErrors: false, model: "oracle" };
  const tasks = ["TargetLocalization", "ContactRelationship"];
  const joint = (await executeRun({ ...common, out: path.join(out, "joint"), promptSource: "mask-overlay", tasks })).scores;
  const countOnly = (await executeRun({ ...common, out: path.join(out, "count"), promptSource: "count-only", tasks })).scores;
  const c = jointVsCountOnly([joint, countOnly]);
  // Conformance data: 11 TL samples and 3 CR samples with precise_count true.
  assert.equal(c.common, 14);
  assert.deepEqual(c.cells.map((x) => [x.variant, x.value, x.n]), [["mask-overlay", 1, 14], ["count-only", 1, 14]]);
  // Fig. 4 accuracy: every precise-count sample right.
  const panels = countOnly["count_accuracy_by_targets"] as Record<string, Array<{ n: number; correct: number }>>;
  assert.equal(panels["TargetLocalization"]!.reduce((s, r) => s + r.n, 0), 11);
  assert.equal(panels["ContactRelationship"]!.reduce((s, r) => s + r.n, 0), 3);
  assert.ok(Object.values(panels).flat().every((r) => r.correct === r.n));
  const stray = await executeRun({ ...common, out: path.join(out, "stray"), promptSource: "count-only", tasks: ["GroundDetection"] });
  assert.equal(stray.scores.counts.errors, 3);
});

test("scores.json records the rules in force", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-rules-"));
  const { scores } = await executeRun({ benchmark: "epic", data: ROOT, out, model: "oracle", benchmarkOptions: { rules: "paper" }, bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "mask-overlay", control: "none", seed: 1, flags: {}, retryErrors: false, tasks: ["GroundDetection"] });
  assert.equal((scores["scoring"] as { rules: { in_force: string } }).rules.in_force, "paper");
});

test("Table 5 leaves out models run with one overlay variant only (and their samples do not shrink the intersection)", () => {
  const none = run("m", "no-overlay", [["fp1", FP, "ok", 0.5, null, null, null, null], ["fp2", FP, "ok", 0.1, null, null, null, null]]);
  const mask = run("m", "mask-overlay", [["fp1", FP, "ok", 0.7, null, null, null, null], ["fp2", FP, "ok", 0.3, null, null, null, null]]);
  const lone = run("other", "mask-overlay", [["fp1", FP, "ok", 1, null, null, null, null], ["fp2", FP, "error", null, null, null, null, null]]);
  const c = overlayAblation([none, mask, lone]);
  assert.deepEqual(c.cells.map((x) => [x.label, x.variant]), [["m", "no-overlay"], ["m", "mask-overlay"]]);
  // Both samples in common: no-overlay (0.5 + 0.1) / 2 = 0.3, mask (0.7 + 0.3) / 2 = 0.5.
  assert.equal(c.common, 2);
  assert.ok(close(c.cells[0]!.value, 0.3));
  assert.ok(close(c.cells[1]!.value, 0.5));
});

test("the count-only prompt: the count key alone, the mask-overlay images; a template without count_only is refused", async () => {
  const { loadEpic } = await import("../../../src/benchmarks/epic/load.js");
  const { buildEpicMessages, loadEpicTemplates } = await import("../../../src/benchmarks/epic/prompt.js");
  const { epic } = await import("../../../src/benchmarks/epic/index.js");
  const templates = loadEpicTemplates();
  const { items } = loadEpic(ROOT, { tasks: ["TargetLocalization/BasicAttributes/Category", "Manipulation/ContactRelationship/ContactRelationship_TypeOne"] });
  for (const leaf of ["Category", "ContactRelationship_TypeOne"]) {
    const sample = items.find((i) => i.leaf.leaf === leaf)!;
    const messages = await buildEpicMessages(sample, { templates, variant: "count-only", coordMode: "absolute" });
    const user = messages.at(-1)!.content;
    const text = user.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("\n");
    const joint = (await buildEpicMessages(sample, { templates, variant: "mask-overlay", coordMode: "absolute" })).at(-1)!.content;
    assert.equal(user.filter((p) => p.type === "image").length, joint.filter((p) => p.type === "image").length, leaf);
    assert.match(text, leaf === "Category" ? /"number_of_objects"/ : /"number_of_instances"/);
    assert.doesNotMatch(text, /bounding_boxes/);
  }
  const bare = path.join(mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-tpl-")), "t.yaml");
  const { readFileSync, writeFileSync } = await import("node:fs");
  const YAML = (await import("yaml")).default;
  const data = YAML.parse(readFileSync(templates.file, "utf8")) as Record<string, unknown>;
  delete data["count_only"];
  writeFileSync(bare, YAML.stringify(data));
  assert.throws(() => epic.preparePrompts(items, { source: "count-only", control: "none", seed: 1, templateFile: bare }), /count_only entries/);
});

test("repeats of a variant run are one Table 5 cell: the mean of the repeats on the common samples", () => {
  const none = run("m", "no-overlay", [["fp1", FP, "ok", 0.2, null, null, null, null], ["fp2", FP, "ok", 0.4, null, null, null, null]]);
  const rep = (index: number, a: number, b: number | null) => run("m", "mask-overlay", [
    ["fp1", FP, "ok", a, null, null, null, null],
    b === null ? ["fp2", FP, "error", null, null, null, null, null] : ["fp2", FP, "ok", b, null, null, null, null],
  ], { repeat: { index, of: 2, group: "/runs/m-mask" } });
  const c = overlayAblation([none, rep(1, 0.6, 1), rep(2, 0.8, null)]);
  // fp2 errored in repeat 2: common = fp1. no-overlay 0.2; mask = mean(0.6, 0.8) = 0.7; errors 0 + 1.
  assert.equal(c.common, 1);
  assert.deepEqual(c.cells.map((x) => [x.variant, x.repeats, x.errors]), [["no-overlay", 1, 0], ["mask-overlay", 2, 1]]);
  assert.ok(close(c.cells[1]!.value, 0.7));
  assert.match(epicMarkdown([none, rep(1, 0.6, 1), rep(2, 0.8, null)]), /\| m \(mean of 2 repeats\) \| mask overlay \| 70\.00 \| \+50\.00 \|/);
});

test("predictions files of one model (score --prompt V --name N) pair up in Table 5 by their name", () => {
  const file = (variant: string, name: string, score: number) => ({
    ...run(`replay:${variant}.jsonl`, variant, [["fp1", FP, "ok", score, null, null, null, null]]),
    name, run_options: { prompt_source: variant, benchmark_options: {} }, prompt: undefined,
  });
  const c = overlayAblation([file("no-overlay", "gpt", 0.25), file("mask-overlay", "gpt", 0.75), file("box-overlay", "other", 0.5)]);
  // The variant comes from run_options.prompt_source; "other" has one variant only and is left out.
  assert.deepEqual(c.cells.map((x) => [x.label, x.variant, x.value]), [["gpt", "no-overlay", 0.25], ["gpt", "mask-overlay", 0.75]]);
});
