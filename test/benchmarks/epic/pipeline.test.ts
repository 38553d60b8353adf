import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadEpic } from "../../../src/benchmarks/epic/load.js";
import { executeRun, executeScore } from "../../../src/core/session.js";

const ROOT = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-"));
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12;

test("--coords: each official coordinate mode reproduces its official summary", async () => {
  for (const [flag, official] of [["absolute", "absolute"], ["0-1", "normalized_0_1"], ["0-1000", "normalized_0_1000"]] as const) {
    const file = path.join(ROOT, "expected", `responses_A.${official}.summary.json`);
    if (!existsSync(file)) continue;
    const want = JSON.parse(readFileSync(file, "utf8")).summary.overall;
    const { scores } = await executeScore({ benchmark: "epic", benchmarkOptions: { coords: flag }, data: ROOT, out: tmp(), predictions: [path.join(ROOT, "responses_A.jsonl")], bootstrapResamples: 0, bootstrapSeed: 1 });
    const got = (scores["summary"] as { overall: { average_score: number; num_invalid_response: number } }).overall;
    assert.ok(close(got.average_score, want.average_score), `${flag}: ${got.average_score} vs ${want.average_score}`);
    assert.equal(got.num_invalid_response, want.num_invalid_response, flag);
  }
});

test("--strict scores unreadable replies 0; the default keeps the official empty-answer reading", async () => {
  const predictions = path.join(tmp(), "unreadable.jsonl");
  const { items } = loadEpic(ROOT, { tasks: ["Navigation/GroundDetection", "TargetLocalization/BasicAttributes/Category"] });
  writeFileSync(predictions, items.map((i) => JSON.stringify({ id: i.id, response: "I cannot see anything useful." })).join("\n") + "\n");
  const common = { benchmark: "epic", data: ROOT, predictions: [predictions], bootstrapResamples: 0, bootstrapSeed: 1, tasks: ["GroundDetection", "Category"] };
  const official = await executeScore({ ...common, out: tmp() });
  const strict = await executeScore({ ...common, benchmarkOptions: { strict: true }, out: tmp() });
  assert.equal(strict.scores.score, 0);
  const officialItems = official.results.map((r) => (r.detail as { score: number }).score);
  // Empty-target samples score 1 under the official reading of an unreadable reply.
  const emptyTargets = items.filter((i) => (i.masks[i.leaf.leaf === "GroundDetection" ? "masklet_ground" : "masklet_target"] ?? []).length === 0).length;
  assert.ok(emptyTargets > 0);
  assert.equal(officialItems.filter((s) => s === 1).length, emptyTargets);
  assert.equal(strict.scores.counts.parse_failures, items.length);
});

test("built-in models: the oracle is near the top, full-image and random far below", async () => {
  const run = async (model: string) => (await executeRun({ benchmark: "epic", data: ROOT, out: tmp(), model, bootstrapResamples: 100, bootstrapSeed: 1, quiet: true, promptSource: "mask-overlay", control: "none", seed: 1, flags: {}, retryErrors: false })).scores;
  const oracle = await run("oracle");
  const full = await run("full-image");
  const random = await run("random:2");
  assert.equal(oracle.counts.errors, 0);
  assert.ok((oracle.score as number) > 0.85, String(oracle.score));
  assert.ok((full.score as number) < (oracle.score as number) - 0.3);
  assert.ok((random.score as number) < (oracle.score as number) - 0.3);
  const summary = oracle["summary"] as { by_group: Record<string, unknown> };
  assert.equal(Object.keys(summary.by_group).length, 9);
});

test("validate names the file and field of a bad RLE and of a missing image", () => {
  const root = tmp();
  cpSync(path.join(ROOT, "EPIC_Bench", "Navigation", "GroundDetection"), path.join(root, "EPIC_Bench", "Navigation", "GroundDetection"), { recursive: true });
  const { items } = loadEpic(root);
  const victim = items.find((i) => (i.masks["masklet_ground"] ?? []).length > 0)!;
  const json = JSON.parse(readFileSync(victim.gtFile, "utf8"));
  json.mask_annotation.masklet_ground[0].size = [json.mask_annotation.masklet_ground[0].size[0] + 1, json.mask_annotation.masklet_ground[0].size[1]];
  writeFileSync(victim.gtFile, JSON.stringify(json));
  const image = items.find((i) => i.id !== victim.id)!;
  rmSync(image.images[0]!);
  const { problems } = loadEpic(root);
  const rle = problems.find((p) => p.file === victim.id);
  assert.equal(rle?.field, "mask_annotation.masklet_ground[0]");
  assert.match(rle!.message, /counts sum to \d+ but size/);
  const missing = problems.find((p) => p.file === image.id);
  assert.equal(missing?.field, "images");
});

test("coordinate system: per-family default from the model name, a config entry, and --coords, in that order of precedence", async () => {
  const { coordModeForModel } = await import("../../../src/benchmarks/epic/coords.js");
  assert.equal(coordModeForModel("openai:Qwen/Qwen2.5-VL-72B-Instruct"), "absolute");
  assert.equal(coordModeForModel("gemini:gemini-2.5-pro"), "normalized_0_1000");
  assert.equal(coordModeForModel("openai:gpt-4o"), "auto");
  const dir = tmp();
  const config = path.join(dir, "run.yaml");
  writeFileSync(config, "models:\n  oracle:\n    coords: 0-1000\n");
  const base = { benchmark: "epic", data: ROOT, model: "oracle", bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "mask-overlay", control: "none", seed: 1, flags: {}, retryErrors: false, tasks: ["GroundDetection"] };
  const fromConfig = await executeRun({ ...base, out: path.join(dir, "a"), configFile: config });
  assert.equal((fromConfig.scores["scoring"] as { coordinate_system: string }).coordinate_system, "normalized_0_1000");
  const fromFlag = await executeRun({ ...base, out: path.join(dir, "b"), configFile: config, benchmarkOptions: { coords: "absolute" } });
  assert.equal((fromFlag.scores["scoring"] as { coordinate_system: string }).coordinate_system, "absolute");
});
