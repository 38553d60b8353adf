import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";
import { loadPathEval } from "../../../src/benchmarks/patheval/load.js";
import { executeRun } from "../../../src/core/session.js";
import { reachesGoal } from "../../../src/benchmarks/patheval/planfile.js";
import { descriptors } from "../../../src/benchmarks/patheval/descriptors.js";
import { label } from "../../../src/benchmarks/patheval/label.js";
import { parseEnvironment } from "../../../src/geometry/polygon.js";

/** End to end on a small generated set: generate, then run every variant and probe with the built-in models. */
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-patheval-"));
const data = path.join(tmp, "set");
const options = { outDir: data, seed: 11, environments: 4, runsPerEnvironment: 8, testPerScenario: 2, workers: 2 };

before(async () => {
  await generatePathEval(options);
});

function digest(dir: string): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (file.endsWith(".json") || file.endsWith(".txt") || file.endsWith(".png")) hash.update(file).update(readFileSync(path.join(dir, file)));
  }
  return hash.digest("hex");
}

test("generation is deterministic and its records are consistent with their own paths and environments", async () => {
  const again = path.join(tmp, "again");
  await generatePathEval({ ...options, outDir: again, workers: 1 });
  assert.equal(digest(again), digest(data), "same seed, same bytes (whatever the pool size)");
  const { items, problems, tasks } = loadPathEval(data);
  assert.deepEqual(problems, []);
  assert.deepEqual(tasks, ["2D", "3D"]);
  assert.equal(items.filter((i) => i.task === "2D").length, 30); // 15 scenarios x 2
  for (const item of items.filter((i) => i.task === "2D")) {
    const polygons = parseEnvironment(readFileSync(path.join(data, "environments", `${item.environment}Obstacles.txt`), "utf8"));
    for (const name of ["Path 1", "Path 2"] as const) {
      const points = item.paths![name];
      assert.ok(reachesGoal(points[points.length - 1]!), "ends in the goal box");
      assert.deepEqual(descriptors(points, polygons), item.metrics[name]);
    }
    assert.equal(label(item.metrics["Path 1"], item.metrics["Path 2"], item.scenarioId!), item.truth);
  }
  const stats = JSON.parse(readFileSync(path.join(data, "stats.json"), "utf8"));
  assert.equal(stats.test, 30);
  assert.equal(stats.labelBalance.test["Path 1"] + stats.labelBalance.test["Path 2"], 30);
  assert.ok(stats.meanDifference["Path length"] > 0);
});

async function run(model: string, prompt: string) {
  const { scores } = await executeRun({
    benchmark: "patheval", data, out: path.join(tmp, `${model}-${prompt}`), model, bootstrapResamples: 100, bootstrapSeed: 1, quiet: true,
    promptSource: prompt, control: "none", seed: 5, flags: {}, retryErrors: false,
  });
  return scores as unknown as { score: number; n: number; tasks: Record<string, Record<string, number>>; counts: Record<string, number> };
}

test("the descriptor oracle is right on every variant; always-first shows the position effect", async () => {
  for (const prompt of ["plain", "with-descriptors", "descriptors-only", "random-ids", "flipped"]) {
    const oracle = await run("descriptor-oracle", prompt);
    assert.equal(oracle.score, 1, prompt);
    assert.equal(oracle.counts.parse_failures, 0, prompt);
  }
  const plain = await run("always-first", "plain");
  const flipped = await run("always-first", "flipped");
  assert.equal(plain.tasks["2D"]!.chose_first, 30);
  assert.equal(plain.tasks["2D"]!.accuracy + flipped.tasks["2D"]!.accuracy, 1); // first = Path 1, then Path 2
});

test("probes: the oracle knows the directions and the smaller values; random is near chance", async () => {
  const abstraction = await run("descriptor-oracle", "attribute-abstraction");
  assert.equal(abstraction.n, 15);
  assert.equal(abstraction.score, 1);
  const fine = await run("descriptor-oracle", "fine-grained");
  assert.equal(fine.score, 1);
  assert.ok(fine.n > 100);
  const random = await run("random", "fine-grained");
  assert.ok(random.score > 0.3 && random.score < 0.7);
});

test("a real OpenAI-compatible endpoint (the mock): markdown answers read robustly, and the release's reading side by side", async () => {
  const { startMockServer } = await import("../../helpers/mock-server.js");
  const server = await startMockServer({ reply: (req) => (req.imageCount === 1 ? "**Answer:** Path 2\n**Explanation:** fewer turns." : "no image"), faults: (_req, attempt) => (attempt === 1 ? { type: "status", status: 503 } : undefined) });
  try {
    const { scores, results } = await executeRun({
      benchmark: "patheval", data, out: path.join(tmp, "mock"), model: "openai:mock-vlm", bootstrapResamples: 0, bootstrapSeed: 1, quiet: true,
      promptSource: "plain", control: "none", seed: 5, retryErrors: false, concurrency: 4,
      flags: { base_url: `${server.url}/v1`, backoff_base_ms: 1, backoff_cap_ms: 5, max_attempts: 3 }, env: { OPENAI_API_KEY: "sk-mock" },
    });
    const { items } = loadPathEval(data);
    const path2 = items.filter((i) => i.truth === "Path 2").length;
    assert.equal(scores.counts.errors, 0);
    assert.equal(results.every((r) => r.response!.attempts === 2), true);
    assert.equal(scores.score, path2 / items.length);
    const tasks = scores.tasks as Record<string, { official_accuracy: number; chose_second: number }>;
    assert.equal(tasks["2D"]!.official_accuracy, 0); // "**Answer:**" has no "Answer: " for the release's split
    assert.equal(tasks["2D"]!.chose_second, 30);
  } finally {
    await server.close();
  }
});

test("score: stored {id, response} predictions give the same accuracy as the run that produced them", async () => {
  const { executeScore } = await import("../../../src/core/session.js");
  const { writeFileSync } = await import("node:fs");
  const first = await executeRun({
    benchmark: "patheval", data, out: path.join(tmp, "to-score"), model: "random:3", bootstrapResamples: 0, bootstrapSeed: 1, quiet: true,
    promptSource: "plain", control: "none", seed: 5, flags: {}, retryErrors: false,
  });
  const predictions = path.join(tmp, "predictions.jsonl");
  writeFileSync(predictions, first.results.map((r) => JSON.stringify({ id: r.id, response: r.reply })).join("\n") + "\n");
  const scored = await executeScore({ benchmark: "patheval", data, out: path.join(tmp, "scored"), predictions: [predictions], bootstrapResamples: 0, bootstrapSeed: 1 });
  assert.equal(scored.scores.score, first.scores.score);
  assert.equal(scored.scores.n, 60);
});

test("release records without our extra fields: the scenario is recognised from the agent it names", async () => {
  const { scenarioIdOf } = await import("../../../src/benchmarks/patheval/load.js");
  const { SCENARIOS } = await import("../../../src/benchmarks/patheval/scenarios.js");
  for (const s of SCENARIOS) assert.equal(scenarioIdOf(`${s.text} Which path better achieves the task?`), s.id, s.agent);
  const { writeFileSync, mkdirSync, readFileSync: read } = await import("node:fs");
  const bare = path.join(tmp, "bare");
  mkdirSync(path.join(bare, "2D"), { recursive: true });
  const records = JSON.parse(read(path.join(data, "2D", "test_dataset_2D.json"), "utf8")).map((r: Record<string, unknown>) => ({
    id: r["id"], image: `../../set/${r["image"]}`, conversations: r["conversations"], metrics: r["metrics"],
  }));
  writeFileSync(path.join(bare, "2D", "test_dataset_2D.json"), JSON.stringify(records));
  // The images are outside this root: refused, unless the user allows it.
  const confined = loadPathEval(bare);
  assert.equal(confined.items.length, 0);
  assert.deepEqual(confined.problems[0], { file: path.join("2D", "test_dataset_2D.json"), field: "[0].image", message: `image ../../set/${records[0].image.slice("../../set/".length)} is outside the dataset root; refused (pass --allow-outside-root to read media kept elsewhere on purpose)` });
  const loaded = loadPathEval(bare, { allowOutsideRoot: true });
  assert.deepEqual(loaded.problems, []);
  assert.ok(loaded.items.every((i) => i.scenarioId !== undefined && i.paths === undefined));
});
