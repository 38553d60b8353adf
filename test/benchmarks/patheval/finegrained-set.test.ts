import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { meanDifferences, sampleFineGrainedPairs, writeFineGrainedSet } from "../../../src/benchmarks/patheval/finegrained-set.js";
import { loadFineGrainedSet } from "../../../src/benchmarks/patheval/finegrained-load.js";
import { epsilonLevel, fineGrainedItems, PAPER_TABLE_8 } from "../../../src/benchmarks/patheval/probes.js";
import { DESCRIPTORS, type Descriptors } from "../../../src/benchmarks/patheval/scenarios.js";
import { parseEnvironment } from "../../../src/geometry/polygon.js";
import { executeRun } from "../../../src/core/session.js";
import type { PathEvalItem } from "../../../src/benchmarks/patheval/types.js";

const zero = (): Descriptors => Object.fromEntries(DESCRIPTORS.map((d) => [d, 0])) as Descriptors;
const withLength = (length: number): Descriptors => ({ ...zero(), "Path length": length });

test("Table 8's ε per descriptor; a difference is in an ε subset only when it exceeds ε (App. C.2: >)", () => {
  assert.deepEqual(PAPER_TABLE_8["Average clearance"], [1.0, 2.5, 5.0]);
  assert.deepEqual(PAPER_TABLE_8["Smoothness"], [100, 200, 300]);
  assert.equal(epsilonLevel("Path length", 50), "below"); // not > 50
  assert.equal(epsilonLevel("Path length", 50.5), "ε1");
  assert.equal(epsilonLevel("Path length", 100), "ε2"); // > 75, not > 100
  assert.equal(epsilonLevel("Sharp turns", 4), "ε3");
  assert.equal(epsilonLevel("Average clearance", 2.5), "ε1");
});

test("test-set variant: one question per record and differing descriptor, nested levels by Table 8", () => {
  const record = { id: "2D/7", metrics: { "Path 1": { ...withLength(180), Smoothness: 90 }, "Path 2": { ...withLength(100), Smoothness: 400 } } } as unknown as PathEvalItem;
  const items = fineGrainedItems([record]);
  assert.deepEqual(items.map((i) => i.id), ["2D/7/Path length", "2D/7/Smoothness"]);
  // Length: |180 - 100| = 80 > 75 -> ε2, Path 2 smaller; smoothness: 310 > 300 -> ε3, Path 1 smaller.
  assert.deepEqual(items.map((i) => i.probe), [
    { kind: "fine-grained", descriptor: "Path length", smaller: "Path 2", difference: 80, level: "ε2", set: "test-set", epsilon: 75 },
    { kind: "fine-grained", descriptor: "Smoothness", smaller: "Path 1", difference: 310, level: "ε3", set: "test-set", epsilon: 300 },
  ]);
});

test("the draw: pairs within one environment only, |difference| > ε, up to N per ε, seeded", () => {
  // Environment 0: lengths 100, 160, 240 -> pair differences 60 (0,1), 140 (0,2), 80 (1,2); environment 1: 100, 300 -> 200.
  // Path length ε = 50 / 75 / 100: qualifying pairs 4 (all) / 3 (140, 80, 200) / 2 (140, 200). No other descriptor differs.
  const metrics = [[withLength(100), withLength(160), withLength(240)], [withLength(100), withLength(300)]];
  const { picks, available, pairsConsidered } = sampleFineGrainedPairs(metrics, 3);
  assert.equal(pairsConsidered, 4);
  assert.deepEqual(available["Path length"], [4, 3, 2]);
  assert.deepEqual(available["Smoothness"], [0, 0, 0]);
  assert.equal(picks.length, 9);
  assert.deepEqual(picks.filter((p) => p.epsilonIndex === 3).map((p) => p.difference).sort((a, b) => a - b), [140, 200]);
  for (const p of picks) {
    const a = metrics[p.pool]![p.left]!["Path length"];
    const b = metrics[p.pool]![p.right]!["Path length"];
    assert.equal(p.difference, Math.abs(a - b));
    assert.equal(p.smaller, a < b ? "Path 1" : "Path 2");
    assert.ok(p.difference > p.epsilon);
  }
  // Table 9's quantity, by hand: ε1 (60 + 140 + 80 + 200) / 4 = 120; ε2 (140 + 80 + 200) / 3 = 140; ε3 (140 + 200) / 2 = 170.
  assert.deepEqual(meanDifferences(picks)["Path length"], [120, 140, 170]);
  assert.deepEqual(meanDifferences(picks)["Sharp turns"], [null, null, null]);
  // At most N per ε: N = 2 keeps 2 / 2 / 2 of them, and the same seed draws the same pairs.
  const small = sampleFineGrainedPairs(metrics, 3, 2);
  assert.deepEqual(small.picks.map((p) => p.epsilonIndex), [1, 1, 2, 2, 3, 3]);
  assert.deepEqual(sampleFineGrainedPairs(metrics, 3, 2).picks, small.picks);
});

/** One square obstacle at the centre; a straight path (length 60) and one with a 90° turn (length 120). */
const ENVIRONMENT = "1\n4 -2 -2 2 -2 2 2 -2 2\n";
const STRAIGHT: Array<[number, number]> = [[-30, -30], [30, -30]];
const TURNING: Array<[number, number]> = [[-30, -30], [30, -30], [30, 30]];

async function writeSmallSet(dir: string) {
  return writeFineGrainedSet(dir, [{ environment: "Hand", polygons: parseEnvironment(ENVIRONMENT), paths: [{ points: STRAIGHT }, { points: TURNING }] }], { seed: 1, dims: ["2D"] });
}

test("the written set: records, pictures and stats; the loader reads it back and checks each record", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "patheval-fg-"));
  const summary = await writeSmallSet(dir);
  // One pair: length 120 - 60 = 60 (> 50 only); smoothness 90 (not > 100); sharp turns 0 (90 is not > 90);
  // maximum angle 90 (> 30, > 60, not > 90); every vertex is sqrt(28² + 28²) from the square: equal clearances.
  assert.equal(summary.records, 3);
  assert.deepEqual(summary.drawn["Path length"], [1, 0, 0]);
  assert.deepEqual(summary.drawn["Maximum angle"], [1, 1, 0]);
  const stats = JSON.parse(readFileSync(path.join(dir, "fine_grained", "stats.json"), "utf8"));
  assert.deepEqual(stats.available["Maximum angle"], [1, 1, 0]);
  assert.deepEqual(stats.mean_difference["Path length"], [60, null, null]);

  const { items, problems, tasks } = loadFineGrainedSet(dir);
  assert.deepEqual(problems, []);
  assert.deepEqual(tasks, ["2D"]);
  assert.deepEqual(items.map((i) => i.id), ["fine-grained/2D/path_length_e1_0", "fine-grained/2D/maximum_angle_e1_0", "fine-grained/2D/maximum_angle_e2_0"]);
  const length = items[0]!;
  assert.equal(length.probe?.kind, "fine-grained");
  assert.deepEqual({ ...length.probe, difference: Math.round((length.probe as { difference: number }).difference * 1e9) / 1e9 }, {
    kind: "fine-grained", descriptor: "Path length", smaller: length.paths!["Path 1"].length === 2 ? "Path 1" : "Path 2", difference: 60, level: "ε1", set: "generated", epsilon: 50,
  });
  assert.equal(items[2]!.probe?.kind === "fine-grained" && items[2]!.probe.level, "ε2");

  // Tampered records are refused with the field named.
  const file = path.join(dir, "fine_grained", "2D", "fine_grained_2D.json");
  const records = JSON.parse(readFileSync(file, "utf8"));
  records[0].smaller = records[0].smaller === "Path 1" ? "Path 2" : "Path 1";
  records[1].epsilon = 45;
  records[2].image = "../../outside.png";
  writeFileSync(file, JSON.stringify(records));
  const bad = loadFineGrainedSet(dir);
  assert.deepEqual(bad.items, []);
  assert.deepEqual(bad.problems.map((p) => [p.file, p.field]), [
    [path.join("fine_grained", "2D", "fine_grained_2D.json"), "[0].smaller"],
    [path.join("fine_grained", "2D", "fine_grained_2D.json"), "[1].epsilon"],
    [path.join("fine_grained", "2D", "fine_grained_2D.json"), "[2].image"],
  ]);
  assert.match(bad.problems[1]!.message, /must be 30 \(Table 8, ε1 of Maximum angle\)/);
});

test("run --prompt fine-grained asks the generated set; the oracle is right on all, Table 3 cells per dimension", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "patheval-fg-run-"));
  await writeSmallSet(dir);
  const { scores } = await executeRun({
    benchmark: "patheval", data: dir, out: path.join(dir, "run"), model: "descriptor-oracle", bootstrapResamples: 0, bootstrapSeed: 1, quiet: true,
    promptSource: "fine-grained", control: "none", seed: 5, flags: {}, retryErrors: false,
  });
  const fine = scores.tasks["fine-grained"] as Record<string, unknown> & { by_dim: Record<string, { per_descriptor: Array<Record<string, unknown>>; per_epsilon: Record<string, Record<string, unknown>> }> };
  assert.equal(scores.n, 3);
  assert.equal(scores.score, 1);
  assert.equal(fine["set"], "generated");
  const angle = fine.by_dim["2D"]!.per_descriptor.find((r) => r["descriptor"] === "Maximum angle")!;
  assert.deepEqual(angle["ε1"], { n: 1, accuracy: 1, mean_difference: 90 });
  assert.deepEqual(angle["ε3"], { n: 0, accuracy: null, mean_difference: null });
  assert.equal(angle["mean_over_epsilon"], 1);
  assert.equal(angle["mean_over_epsilon_cells"], 2);
  // ε1 has two non-empty cells (length, angle), ε2 one (angle).
  assert.deepEqual(fine.by_dim["2D"]!.per_epsilon["ε1"], { n: 2, accuracy: 1, mean_over_descriptors: 1, mean_over_descriptors_cells: 2 });
  assert.deepEqual(fine.by_dim["2D"]!.per_epsilon["ε2"], { n: 1, accuracy: 1, mean_over_descriptors: 1, mean_over_descriptors_cells: 1 });
});

test("score (replay) finds the generated set beside the test records; fine-grained-test-set asks the test records", async () => {
  const { executeScore } = await import("../../../src/core/session.js");
  const { mkdirSync, readdirSync } = await import("node:fs");
  const dir = mkdtempSync(path.join(os.tmpdir(), "patheval-fg-score-"));
  await writeSmallSet(dir);
  // One test record (2D) whose picture is one of the set's: Path 1 = the turning path (length 120), Path 2 straight (60).
  const picture = `fine_grained/images/${readdirSync(path.join(dir, "fine_grained", "images"))[0]}`;
  const m = (await import("../../../src/benchmarks/patheval/descriptors.js")).descriptors;
  const polygons = parseEnvironment(ENVIRONMENT);
  mkdirSync(path.join(dir, "2D"));
  writeFileSync(path.join(dir, "2D", "test_dataset_2D.json"), JSON.stringify([{
    id: 0, image: picture, scenario_id: 3,
    conversations: [{ from: "human", value: "A warzone vehicle. Which path better achieves the task?" }, { from: "gpt", value: "Path 2" }],
    metrics: { "Path 1": m(TURNING, polygons), "Path 2": m(STRAIGHT, polygons) },
  }]));
  const predictions = path.join(dir, "predictions.jsonl");
  const { items } = loadFineGrainedSet(dir);
  writeFileSync(predictions, items.map((i) => JSON.stringify({ id: i.id, response: `Answer: ${i.truth}` })).join("\n") + "\n");
  const scored = await executeScore({ benchmark: "patheval", data: dir, out: path.join(dir, "scored"), predictions: [predictions], promptSource: "fine-grained", bootstrapResamples: 0, bootstrapSeed: 1 });
  assert.equal(scored.scores.n, 3);
  assert.equal(scored.scores.score, 1);
  assert.equal((scored.scores.tasks["fine-grained"] as { set: string }).set, "generated");

  const { scores } = await executeRun({
    benchmark: "patheval", data: dir, out: path.join(dir, "test-set"), model: "descriptor-oracle", bootstrapResamples: 0, bootstrapSeed: 1, quiet: true,
    promptSource: "fine-grained-test-set", control: "none", seed: 5, flags: {}, retryErrors: false,
  });
  // The record's differing descriptors: length (60), smoothness (90), maximum angle (90); clearances and sharp turns are equal.
  assert.equal(scores.n, 3);
  const fine = scores.tasks["fine-grained"] as { set: string; per_descriptor: Array<{ descriptor: string; n: number; ε1: { n: number }; ε2: { n: number } }> };
  assert.equal(fine.set, "test-set");
  const angle = fine.per_descriptor.find((r) => r.descriptor === "Maximum angle")!;
  assert.deepEqual([angle.n, angle.ε1.n, angle.ε2.n], [1, 1, 1]); // 90 > 30 and > 60: in both nested subsets
});
