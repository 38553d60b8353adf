import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";
import { parseThresholds } from "../../../src/benchmarks/patheval/generate-options.js";
import { labelDetail } from "../../../src/benchmarks/patheval/label.js";
import { scenarioById } from "../../../src/benchmarks/patheval/scenarios.js";
import { readScenarioFile } from "../../../src/benchmarks/patheval/user-files.js";
import type { PathEvalRecord } from "../../../src/benchmarks/patheval/types.js";

/** End to end on the user's own files: environments=DIR, scenarios=FILE, thresholds, validity=exact, balance, split=environment, probing. */
const FIXTURES = path.resolve("test/fixtures");
const envDir = path.join(FIXTURES, "patheval-envs");
const scenarios = readScenarioFile(path.join(FIXTURES, "patheval-scenarios", "scenarios.txt"));
const thresholds = parseThresholds("0.5,0.5,0.5,20,60,1,20");
const out = path.join(mkdtempSync(path.join(os.tmpdir(), "patheval-files-")), "set");
let summary: Awaited<ReturnType<typeof generatePathEval>>;

before(async () => {
  summary = await generatePathEval({
    outDir: out, seed: 3, environments: 10, environmentsDir: envDir, runsPerEnvironment: 6, validity: "exact", thresholds,
    scenarioTexts: scenarios, balance: true, split: "environment", testPerScenario: 2, dims: ["2D"], probingPairs: 10, workers: 1,
  });
});

type Rec = PathEvalRecord & { swapped?: boolean };
const read = (file: string): Rec[] => JSON.parse(readFileSync(path.join(out, file), "utf8"));

test("the user's environment files are planned and copied unchanged; every plan keeps the exact disc's clearance", () => {
  assert.equal(summary.environments, 3);
  for (const name of ["Bars_1.txt", "Blocks_2.txt", "Square_0.txt"]) {
    assert.equal(readFileSync(path.join(out, "environments", name), "utf8"), readFileSync(path.join(envDir, name), "utf8"));
  }
  const records = [...read("2D/test_dataset_2D.json"), ...read("2D/train_set_2D.json")];
  assert.ok(records.length > 0);
  for (const r of records) {
    assert.ok(["Bars_1", "Blocks_2", "Square_0"].includes(r.environment!));
    // Exact validity: every vertex is at least the smallest robot radius (0.5) from every polygon.
    for (const side of ["Path 1", "Path 2"] as const) assert.ok(r.metrics[side]["Minimum clearance"] >= 0.5, `${r.environment} ${side}`);
  }
});

test("labels follow the given thresholds; questions carry the file's scenario texts", () => {
  for (const r of [...read("2D/test_dataset_2D.json"), ...read("2D/train_set_2D.json")]) {
    const { label } = labelDetail(r.metrics["Path 1"], r.metrics["Path 2"], scenarioById(r.scenario_id!).directions, thresholds);
    assert.equal(r.conversations[1]!.value, label);
    assert.equal(r.scenario, scenarios.texts[r.scenario_id!]);
    assert.ok(r.conversations[0]!.value.startsWith(scenarios.texts[r.scenario_id!]!));
  }
  const stats = JSON.parse(readFileSync(path.join(out, "stats.json"), "utf8"));
  assert.deepEqual(stats.settings.thresholds, thresholds);
  assert.equal(stats.settings.validity, "exact");
  assert.deepEqual(stats.settings.scenarios, { file: "scenarios.txt", sha256: scenarios.sha256 });
});

test("balance: Path 1 and Path 2 at most one apart per scenario in test; split: no environment in both files", () => {
  const testRecords = read("2D/test_dataset_2D.json");
  for (let id = 1; id <= 15; id++) {
    const labels = testRecords.filter((r) => r.scenario_id === id).map((r) => r.conversations[1]!.value);
    const ones = labels.filter((l) => l === "Path 1").length;
    assert.ok(Math.abs(ones - (labels.length - ones)) <= 1, `scenario ${id}: ${ones} of ${labels.length}`);
  }
  assert.equal(testRecords.filter((r) => r.swapped).length, summary.swapped);
  const testEnvs = new Set(testRecords.map((r) => r.environment));
  const trainEnvs = new Set(read("2D/train_set_2D.json").map((r) => r.environment));
  assert.ok([...testEnvs].every((e) => !trainEnvs.has(e)));
  assert.equal(summary.environmentSplit!.test, testEnvs.size);
});

test("probing: 10 pairs, 5 same (one picture twice) and 5 different, 4 + 4 train and 1 + 1 test", () => {
  const rows = readFileSync(path.join(out, "probing", "manifest.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(rows.length, 10);
  const same = rows.filter((r) => r.same === 1);
  const different = rows.filter((r) => r.same === 0);
  assert.equal(same.length, 5);
  assert.ok(same.every((r) => r.image_a === r.image_b && r.path_a === r.path_b));
  assert.ok(different.every((r) => r.image_a !== r.image_b && r.path_a !== r.path_b));
  assert.deepEqual([same, different].map((g) => g.filter((r) => r.split === "train").length), [4, 4]);
  for (const r of rows) assert.ok(existsSync(path.join(out, "probing", r.image_a)));
  const stats = JSON.parse(readFileSync(path.join(out, "probing", "stats.json"), "utf8"));
  assert.deepEqual({ same: stats.same, different: stats.different }, { same: { train: 4, test: 1 }, different: { train: 4, test: 1 } });
});
