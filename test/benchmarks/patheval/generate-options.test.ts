import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { DataError, UsageError } from "../../../src/core/problems.js";
import { parseGenerateSet, parseThresholds, PRESETS } from "../../../src/benchmarks/patheval/generate-options.js";
import { environmentNameOf, environmentProblems, parseScenarioFile, readScenarioFile, readUserEnvironments } from "../../../src/benchmarks/patheval/user-files.js";
import { balanceSides, splitByEnvironment, swapSides, type Sample } from "../../../src/benchmarks/patheval/split.js";
import { labelDetail } from "../../../src/benchmarks/patheval/label.js";
import { PAPER_THRESHOLDS, scenarioById, type Descriptors } from "../../../src/benchmarks/patheval/scenarios.js";
import type { EnvironmentPlans } from "../../../src/benchmarks/patheval/plan.js";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";

const FIXTURES = path.resolve("test/fixtures");
const noScenarios = () => {
  throw new Error("not read in this test");
};

test("thresholds: seven numbers in descriptor order, or key:value pairs over the paper's", () => {
  assert.deepEqual(parseThresholds("1,2,3,40,80,2,20"), {
    "Minimum clearance": 1, "Maximum clearance": 2, "Average clearance": 3, "Path length": 40, "Smoothness": 80, "Sharp turns": 2, "Maximum angle": 20,
  });
  assert.deepEqual(parseThresholds("length:40, smoothness:60.5"), { ...PAPER_THRESHOLDS, "Path length": 40, "Smoothness": 60.5 });
  assert.throws(() => parseThresholds("1,2,3"), /expected 7 numbers/);
  assert.throws(() => parseThresholds("length:-1"), /non-negative number/);
  assert.throws(() => parseThresholds("width:3"), /unknown descriptor "width"/);
  assert.throws(() => parseThresholds("1,2,3,4,5,6,1e400"), UsageError);
});

test("--set keys: a preset's settings first, keys beside it win; unknown keys and bad values are usage errors", () => {
  assert.deepEqual(parseGenerateSet({ preset: "table10" }, noScenarios), {
    preset: "table10", planner: "rrt-connect", pairsPerEnvironment: 6, labelledPairs: "last", testPerScenario: "release",
  });
  assert.equal(parseGenerateSet({ preset: "table10", pairs: "5" }, noScenarios).pairsPerEnvironment, 5);
  assert.deepEqual(parseGenerateSet({ validity: "exact", balance: "true", split: "environment", probing: "1000", environments: "envs", dims: "2d,2D" }, noScenarios), {
    validity: "exact", balance: true, split: "environment", probingPairs: 1000, environmentsDir: "envs", dims: ["2D"],
  });
  assert.ok(Object.keys(PRESETS).includes("table10"));
  assert.throws(() => parseGenerateSet({ preset: "table99" }, noScenarios), /unknown preset "table99"/);
  assert.throws(() => parseGenerateSet({ colour: "red" }, noScenarios), /unknown patheval option colour/);
  assert.throws(() => parseGenerateSet({ validity: "sampled" }, noScenarios), /validity must be release or exact/);
  assert.throws(() => parseGenerateSet({ balance: "yes" }, noScenarios), /balance must be true or false/);
  assert.throws(() => parseGenerateSet({ runs: "2.5" }, noScenarios), /runs must be an integer from 1 to 10000/);
  const file = path.join(FIXTURES, "patheval-scenarios", "scenarios.txt");
  const parsed = parseGenerateSet({ scenarios: file }, readScenarioFile);
  assert.equal(parsed.scenarioTexts!.texts[15], "Test scenario fifteen: an inspector that roams far, near walls, straight.");
  assert.match(parsed.scenarioTexts!.sha256, /^[0-9a-f]{64}$/);
});

test("scenario files: 15 lines '<id>: <text>', each problem named by line", () => {
  const ok = parseScenarioFile(readFileSync(path.join(FIXTURES, "patheval-scenarios", "scenarios.txt"), "utf8"), "s.txt");
  assert.deepEqual(ok.problems, []);
  assert.equal(Object.keys(ok.texts).length, 15);
  assert.equal(ok.texts[1], "Test scenario one: a long truck that dislikes sharp turns.");
  const bad = parseScenarioFile("1: one\n1: again\n16: too far\nno id here\n2:\n3: shows <image> here\n", "bad.txt");
  assert.deepEqual(bad.problems, [
    { file: "bad.txt", line: 2, field: "id", message: "scenario 1 is given twice (first on line 1)" },
    { file: "bad.txt", line: 3, field: "id", message: "scenario id must be 1..15, got 16" },
    { file: "bad.txt", line: 4, message: "expected \"<id>: <scenario text>\" with an id 1..15, found \"no id here\"" },
    { file: "bad.txt", line: 5, field: "text", message: "scenario 2 has no text" },
    { file: "bad.txt", line: 6, field: "text", message: "scenario 3 contains <image>, which training formats read as a media placeholder" },
    { file: "bad.txt", message: "no text for scenarios 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 (all 15 are needed)" },
  ]);
  // A long line is refused without being scanned by any pattern (linear time).
  const long = parseScenarioFile(`1: ${"x".repeat(3000)}`, "long.txt");
  assert.equal(long.problems[0]!.message, "scenario 1 is 3000 characters; at most 2000");
});

test("environment files: parse errors with their line, start/goal inside a polygon, links out of the folder refused", () => {
  assert.deepEqual(environmentProblems("2\n4 0 0 1 0 1 1 0 1\n", "a.txt"), [{ file: "a.txt", line: 3, message: "the file declares 2 polygons but has only 1" }]); // line 3: end of file, the empty line after the last newline
  assert.deepEqual(environmentProblems("1\n4 0 0 1 0 1 x 0 1\n", "b.txt"), [{ file: "b.txt", line: 2, message: "expected y of vertex 3 of polygon 1 (a number), found \"x\"" }]);
  // A square around the start (-36.6031, -36.4332).
  assert.deepEqual(environmentProblems("1\n4 -38 -38 -35 -38 -35 -35 -38 -35\n", "c.txt"), [
    { file: "c.txt", line: 2, field: "polygon 1", message: "contains the start (-36.6031, -36.4332); every PathEval plan starts and ends there" },
  ]);
  assert.equal(environmentNameOf("SceneMaze_Dims10_0Obstacles.txt"), "SceneMaze_Dims10_0");
  assert.equal(environmentNameOf("Square_0.txt"), "Square_0");

  const { environments: envs, skipped } = readUserEnvironments(path.join(FIXTURES, "patheval-envs"));
  assert.deepEqual(envs.map((e) => e.name), ["Bars_1", "Blocks_2", "Square_0"]);
  assert.equal(envs[2]!.text, "1\n4 -10 -10 10 -10 10 10 -10 10\n");
  assert.deepEqual(skipped, []);

  const tmp = mkdtempSync(path.join(os.tmpdir(), "patheval-envs-"));
  const dir = path.join(tmp, "envs");
  mkdirSync(dir);
  writeFileSync(path.join(tmp, "secret.txt"), "1\n3 0 0 1 0 0 1\n");
  symlinkSync(path.join(tmp, "secret.txt"), path.join(dir, "link.txt"));
  writeFileSync(path.join(dir, "broken.txt"), "1\n3 0 0 1 0\n");
  assert.throws(() => readUserEnvironments(dir), (error: unknown) => {
    assert.ok(error instanceof DataError);
    assert.deepEqual(error.problems.map((p) => [path.basename(p.file), p.line, p.message.replace(/\(pass.*\)/, "")]), [
      ["broken.txt", 3, "polygon 1 declares 3 vertices but the file ends after 2"],
      ["link.txt", undefined, "environment file link.txt is a link to a file outside the dataset root; refused "],
    ]);
    return true;
  });
  assert.throws(() => readUserEnvironments(path.join(tmp, "none")), /environments: not a folder/);
});

// ---- splits and balancing on hand-made samples

const d = (length: number): Descriptors => ({ "Minimum clearance": 1, "Maximum clearance": 1, "Average clearance": 1, "Path length": length, "Smoothness": 0, "Sharp turns": 0, "Maximum angle": 0 });
const env = (name: string) => ({ name, fileName: `${name}.txt`, text: "", paths: [], runs: 0, planMs: 0 }) as EnvironmentPlans;

function sample(e: EnvironmentPlans, scenarioId: number, label: "Path 1" | "Path 2"): Sample {
  // Scenario 12 wants the shorter path; lengths 10 vs 100 differ by more than the threshold 50.
  const metrics = label === "Path 1" ? { "Path 1": d(10), "Path 2": d(100) } : { "Path 1": d(100), "Path 2": d(10) };
  return { env: e, pair: [0, 1], scenarioId, label, metrics, swapped: false };
}

test("balance: per scenario, floor((majority - minority) / 2) pairs swapped; swapped pairs keep the labelling rule", () => {
  const e = env("E");
  // Scenario 12: 5 x Path 1, 0 x Path 2 -> 2 swapped (3 / 2). Scenario 3 (also shorter is better): 2 and 2 -> none.
  const samples = [...Array.from({ length: 5 }, () => sample(e, 12, "Path 1")), sample(e, 3, "Path 1"), sample(e, 3, "Path 1"), sample(e, 3, "Path 2"), sample(e, 3, "Path 2")];
  const { samples: out, swapped } = balanceSides(samples, 4);
  assert.equal(swapped, 2);
  assert.deepEqual(out.filter((s) => s.scenarioId === 12).map((s) => s.label).sort(), ["Path 1", "Path 1", "Path 1", "Path 2", "Path 2"]);
  assert.deepEqual(out.filter((s) => s.scenarioId === 3), samples.filter((s) => s.scenarioId === 3));
  for (const s of out) assert.equal(labelDetail(s.metrics["Path 1"], s.metrics["Path 2"], scenarioById(s.scenarioId).directions).label, s.label);
  const swappedOne = swapSides(samples[0]!);
  assert.deepEqual(swappedOne.pair, [1, 0]);
  assert.equal(swappedOne.swapped, true);
  assert.deepEqual(swapSides(swappedOne), samples[0]);
});

test("split=environment: no environment in both splits; test environments fill each scenario's count", () => {
  const [a, b, c, e4] = ["A", "B", "C", "D"].map(env) as [EnvironmentPlans, EnvironmentPlans, EnvironmentPlans, EnvironmentPlans];
  const samples = [a, b, c, e4].flatMap((e) => [sample(e, 12, "Path 1"), sample(e, 3, "Path 2")]);
  const { test: t, train, unused } = splitByEnvironment(samples, 2, 9);
  // Two pairs per scenario are needed and each environment gives one of each: two environments test, two train.
  const testEnvs = new Set(t.map((s) => s.env.name));
  const trainEnvs = new Set(train.map((s) => s.env.name));
  assert.equal(testEnvs.size, 2);
  assert.equal(trainEnvs.size, 2);
  assert.ok([...testEnvs].every((n) => !trainEnvs.has(n)));
  assert.equal(t.length, 4);
  assert.equal(train.length, 4);
  assert.equal(unused.length, 0);
  // One test pair per scenario from environments with two each: the second pair of a test environment is unused.
  const one = splitByEnvironment([sample(a, 12, "Path 1"), sample(a, 12, "Path 2"), sample(b, 12, "Path 1")], 1, 3);
  assert.equal(one.test.length, 1);
  assert.equal(one.test.length + one.train.length + one.unused.length, 3);
  assert.ok(one.train.every((s) => s.env.name !== one.test[0]!.env.name));
});

test("generate patheval from the command line: a bad environment folder or option stops before anything is written", async () => {
  const { buildProgram } = await import("../../../src/cli/main.js");
  const tmp = mkdtempSync(path.join(os.tmpdir(), "patheval-cli-"));
  const envs = path.join(tmp, "envs");
  mkdirSync(envs);
  writeFileSync(path.join(envs, "bad.txt"), "1\n4 0 0 1 0 1 1\n");
  const out = path.join(tmp, "out");
  const run = (...set: string[]) => buildProgram().exitOverride().parseAsync(["node", "spatialprobe", "generate", "patheval", "--out", out, "--count", "2", ...set.flatMap((s) => ["--set", s])]);
  await assert.rejects(run(`environments=${envs}`), (error: unknown) => {
    assert.ok(error instanceof DataError);
    assert.deepEqual(error.problems, [{ file: path.join(envs, "bad.txt"), line: 3, message: "polygon 1 declares 4 vertices but the file ends after 3" }]);
    return true;
  });
  await assert.rejects(run("thresholds=1,2"), /thresholds: expected 7 numbers/);
  await assert.rejects(run(`scenarios=${path.join(envs, "bad.txt")}`), DataError);
  assert.equal(existsSync(out), false);
});

test("issue 31: an environment file whose start or goal lies inside a polygon is skipped with its reason; a folder of nothing else is an error", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "patheval-blocked-"));
  const dir = path.join(tmp, "envs");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "Square_0.txt"), "1\n4 -10 -10 10 -10 10 10 -10 10\n");
  // A square around the goal (36.0982, 36.363); the start (-36.6031, -36.4332) is free.
  writeFileSync(path.join(dir, "GoalInside_1.txt"), "2\n4 -10 -10 10 -10 10 10 -10 10\n4 35 35 38 35 38 38 35 38\n");
  const goalProblem = { file: path.join(dir, "GoalInside_1.txt"), line: 2, field: "polygon 2", message: "contains the goal (36.0982, 36.363); every PathEval plan starts and ends there" };
  const read = readUserEnvironments(dir);
  assert.deepEqual(read.environments.map((e) => e.fileName), ["Square_0.txt"]);
  assert.deepEqual(read.skipped, [goalProblem]);

  // Generated: the file is left out, and the log, README.md and stats.json say which and why.
  const lines: string[] = [];
  const out = path.join(tmp, "set");
  const summary = await generatePathEval({ outDir: out, seed: 1, environments: 5, environmentsDir: dir, runsPerEnvironment: 4, testPerScenario: 1, dims: ["2D"], workers: 1, log: (line) => lines.push(line) });
  const reason = "GoalInside_1.txt: its polygon 2 contains the goal (36.0982, 36.363); every PathEval plan starts and ends there";
  assert.equal(summary.environments, 1);
  assert.deepEqual(readdirSync(path.join(out, "environments")), ["Square_0.txt"]);
  assert.ok(lines.includes(`skipped ${reason}`), lines.join("\n"));
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, "stats.json"), "utf8")).skippedEnvironments, [reason]);
  assert.ok(readFileSync(path.join(out, "README.md"), "utf8").includes(`Skipped 1 of the user's environment files, whose start or goal lies inside a polygon (no plan can be made there): ${reason}.`));

  rmSync(path.join(dir, "Square_0.txt"));
  assert.throws(() => readUserEnvironments(dir), (error: unknown) => {
    assert.ok(error instanceof DataError);
    assert.deepEqual(error.problems, [{ file: dir, message: "environments: no file can be planned in (each has its start or goal inside a polygon)" }, goalProblem]);
    return true;
  });
});

test("issue 25: an environment vertex beyond a million is a problem on its polygon", () => {
  assert.deepEqual(environmentProblems("1\n3 0 0 1e300 0 0 1\n", "far.txt"), [{ file: "far.txt", line: 2, field: "polygon 1", message: "vertex 2 has a coordinate of 1e+300; every coordinate must be between -1000000 and 1000000" }]);
});
