import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScoresDocument } from "../../../src/core/benchmark.js";
import { summarizeAbstraction, summarizeFineGrained, type AbstractionOutcome, type FineGrainedEntry } from "../../../src/benchmarks/patheval/probe-score.js";
import { pathevalMarkdown } from "../../../src/benchmarks/patheval/report.js";
import { distinctPromptItems, loadTemplates } from "../../../src/benchmarks/patheval/prompt.js";
import { DESCRIPTORS, type Descriptors } from "../../../src/benchmarks/patheval/scenarios.js";
import type { PathEvalItem } from "../../../src/benchmarks/patheval/types.js";

const entry = (task: string, descriptor: "Path length" | "Smoothness", level: "ε1" | "ε2", difference: number, correct: boolean): FineGrainedEntry => ({
  task, cluster: `${task}-${descriptor}-${difference}`,
  outcome: { kind: "fine-grained", descriptor, choice: correct ? "Path 1" : "Path 2", smaller: "Path 1", correct, level, set: "generated", difference },
});

const doc = (extra: Record<string, unknown>) =>
  ({ benchmark: "patheval", model: "m", n: 5, score: null, counts: { parse_failures: 0, errors: 0, missing: 0 }, ...extra }) as unknown as ScoresDocument;

// 2D: length ε1 right (60) and wrong (80), length ε2 right (90), smoothness ε1 right (150); 3D: length ε1 right (60).
const ENTRIES = [
  entry("2D", "Path length", "ε1", 60, true), entry("2D", "Path length", "ε1", 80, false), entry("2D", "Path length", "ε2", 90, true),
  entry("2D", "Smoothness", "ε1", 150, true), entry("3D", "Path length", "ε1", 60, true),
];

test("fine-grained summary per dimension in Table 3's layout, means over the non-empty cells", () => {
  const s = summarizeFineGrained(ENTRIES, { resamples: 0, seed: 1 });
  const length2d = s.by_dim["2D"]!.per_descriptor.find((r) => r.descriptor === "Path length")!;
  assert.equal(s.set, "generated");
  assert.deepEqual(length2d.ε1, { n: 2, accuracy: 0.5, mean_difference: 70 });
  assert.deepEqual(length2d.ε2, { n: 1, accuracy: 1, mean_difference: 90 });
  assert.deepEqual(length2d.ε3, { n: 0, accuracy: null, mean_difference: null });
  assert.equal(length2d.mean_over_epsilon, 0.75); // (0.5 + 1) / 2
  assert.equal(length2d.mean_over_epsilon_cells, 2);
  // ε1 pooled over descriptors in 2D: 2 right of 3; mean over descriptors (0.5 length, 1 smoothness) = 0.75.
  assert.deepEqual(s.by_dim["2D"]!.per_epsilon.ε1, { n: 3, accuracy: 2 / 3, mean_over_descriptors: 0.75, mean_over_descriptors_cells: 2 });
  // All questions per descriptor: length 2/3, smoothness 1 -> mean (2/3 + 1) / 2.
  assert.equal(s.by_dim["2D"]!.mean_over_descriptors, (2 / 3 + 1) / 2);
  assert.equal(s.per_epsilon.ε1.n, 4); // both dimensions pooled
});

test("report: Table 3 rows with 2D / 3D cells, Table 9 beside the paper's, Table 12's sentence", () => {
  const fine = summarizeFineGrained(ENTRIES, { resamples: 0, seed: 1 });
  const md = pathevalMarkdown([doc({ tasks: { "fine-grained": fine }, probe: "fine-grained", prompt: { probe: "fine-grained" } })]);
  const lines = md.split("\n");
  assert.ok(lines.includes("| Descriptor | ε1 / ε2 / ε3 (Table 8) | All ε samples | ε1 | ε2 | ε3 | Mean over ε |"), md);
  assert.ok(lines.includes("| Path length | 50 / 75 / 100 | 66.7 (3) / 100.0 (1) | 50.0 (2) / 100.0 (1) | 100.0 (1) / – (0) | – (0) / – (0) | 75.0 · 2/3 cells / 100.0 · 1/3 cells |"), md);
  assert.ok(lines.includes("| Mean over descriptors |  | 83.3 · 2/7 cells / 100.0 · 1/7 cells | 75.0 · 2/7 cells / 100.0 · 1/7 cells | 100.0 · 1/7 cells / – | – / – |  |"), md);
  assert.ok(lines.includes("| Path length | 70.0 (72.4) | 90.0 (91.2) | – (113.4) |"), md);

  const none = Object.fromEntries(DESCRIPTORS.map((d) => [d, false]));
  const outcome = (chose: boolean): AbstractionOutcome => ({ kind: "attribute-abstraction", format: "stances", chosen: [], correct: none, relevanceCorrect: none, chose_relevant: chose, chose_relevant_with_direction: false } as unknown as AbstractionOutcome);
  const abstraction = { ...summarizeAbstraction([outcome(true), outcome(true), outcome(false), outcome(true)]), per_descriptor: [] };
  const md2 = pathevalMarkdown([doc({ tasks: { "attribute-abstraction": abstraction }, probe: "attribute-abstraction" })]);
  assert.match(md2, /Table 12's measure \(App\. D\.1\): at least one needed descriptor chosen in 75\.0% of 4 scenarios \(with its direction: 0\.0%\)\. 0\.0 descriptors chosen per scenario on average\./);
});

test("position bias carries the variant; a deduplicated descriptors-only run says how many distinct prompts it asked", () => {
  const dims = { "2D": { n: 2, accuracy: 0.5, official_accuracy: 0.5, parse_failures: 0, chose_first: 1, chose_second: 1, ci: {} } };
  const md = pathevalMarkdown([doc({
    n: 2, tasks: dims, prompt: { variant: "descriptors-only" },
    distinct_prompts: { n_records: 4, n_distinct: 2 },
  })]);
  assert.ok(md.split("\n").includes("| m (descriptors-only) | descriptors-only | 1 | 1 | 0 | – | – | – |"), md);
  assert.match(md, /m \(descriptors-only\): 2 distinct prompts asked for 4 records/);
});

const metrics = (length: number): Descriptors => ({ ...(Object.fromEntries(DESCRIPTORS.map((d) => [d, 1])) as Descriptors), "Path length": length });
const record = (id: string, task: "2D" | "3D", question: string, length: number): PathEvalItem =>
  ({ id: `${task}/${id}`, task, question, truth: "Path 1", metrics: { "Path 1": metrics(length), "Path 2": metrics(200) } }) as unknown as PathEvalItem;

test("descriptors-only: records with the same prompt text and truth are asked once, the first kept", () => {
  const a2 = record("0", "2D", "Scenario A", 100);
  const a3 = record("0", "3D", "Scenario A", 100); // same text as a2
  const b2 = record("1", "2D", "Scenario A", 101); // other values
  const c3 = record("2", "3D", "Scenario B", 100); // other scenario
  const { items, copies } = distinctPromptItems([a2, b2, a3, c3], loadTemplates());
  assert.deepEqual(items.map((i) => i.id), ["2D/0", "2D/1", "3D/2"]);
  assert.deepEqual(copies.get(a2)!.map((i) => i.id), ["2D/0", "3D/0"]);
  // Same text but a different truth (inconsistent data) is not merged.
  const flipped = { ...a3, truth: "Path 2" } as PathEvalItem;
  assert.equal(distinctPromptItems([a2, flipped], loadTemplates()).items.length, 2);
});
