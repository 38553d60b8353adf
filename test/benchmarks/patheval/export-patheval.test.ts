import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";
import { exportPathEval, randomTag } from "../../../src/benchmarks/patheval/export.js";
import { formatDescriptors } from "../../../src/benchmarks/patheval/prompt.js";
import type { PathEvalRecord } from "../../../src/benchmarks/patheval/types.js";

/** export patheval on a small generated set: the three §5 settings and Table 13's random tokens, three formats, pictures drawn when missing. */
const tmp = mkdtempSync(path.join(os.tmpdir(), "patheval-export-"));
const full = path.join(tmp, "full");
const bare = path.join(tmp, "bare");
let train: PathEvalRecord[] = [];

before(async () => {
  await generatePathEval({ outDir: full, seed: 2, environments: 3, environmentsDir: path.resolve("test/fixtures/patheval-envs"), runsPerEnvironment: 4, testPerScenario: 1, dims: ["2D"], trainImages: true, workers: 1 });
  cpSync(full, bare, { recursive: true });
  for (const f of readdirSync(path.join(bare, "combined_images"))) if (f.startsWith("train_")) rmSync(path.join(bare, "combined_images", f));
  train = JSON.parse(readFileSync(path.join(full, "2D", "train_set_2D.json"), "utf8"));
});

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const mediaBytes = (dir: string) => readdirSync(dir).sort().map((f) => [f, readFileSync(path.join(dir, f)).toString("base64")]);

test("llava, image only: <image>, the system prompt and the full question; target 'Answer: <gold>.'; missing pictures drawn identically", async () => {
  assert.ok(train.length > 0);
  const fromFull = await exportPathEval({ data: full, format: "llava", outFile: path.join(tmp, "a", "pe.json") });
  const fromBare = await exportPathEval({ data: bare, format: "llava", outFile: path.join(tmp, "b", "pe.json") });
  assert.equal(fromFull.rendered, 0);
  assert.equal(fromBare.rendered, train.length);
  assert.equal(fromFull.exported, train.length);
  assert.deepEqual(fromFull.refused, []);
  // The pictures drawn from the records' paths are the generator's own, byte for byte.
  assert.deepEqual(mediaBytes(fromBare.mediaDir), mediaBytes(fromFull.mediaDir));
  const records = readJson(path.join(tmp, "a", "pe.json"));
  assert.deepEqual(readJson(path.join(tmp, "b", "pe.json")), records);
  records.forEach((r: { id: string; image: string; conversations: Array<{ from: string; value: string }> }, i: number) => {
    const source = train[i]!;
    assert.equal(r.id, `2D/${source.id}`);
    assert.match(r.image, /^pe_media\/[0-9a-f]{20}\.png$/);
    assert.equal(r.conversations[0]!.value.split("<image>").length, 2);
    assert.ok(r.conversations[0]!.value.startsWith(`<image>\nYou are an expert in robot path planning and navigation.\n\n${source.conversations[0]!.value}\n`));
    assert.equal(r.conversations[1]!.value, `Answer: ${source.conversations[1]!.value}.`);
  });
});

test("with descriptors (sharegpt): both paths' values in the question; random IDs (swift): the gold path's ID is the target", async () => {
  await exportPathEval({ data: full, format: "sharegpt", outFile: path.join(tmp, "c", "desc.json"), setting: "with-descriptors" });
  const desc = readJson(path.join(tmp, "c", "desc.json"));
  desc.forEach((r: { conversations: Array<{ value: string }>; system: string; images: string[] }, i: number) => {
    const m = train[i]!.metrics;
    assert.ok(r.conversations[0]!.value.includes(`Values for Path 1: ${formatDescriptors(m["Path 1"])}`));
    assert.ok(r.conversations[0]!.value.includes(`Values for Path 2: ${formatDescriptors(m["Path 2"])}`));
    assert.equal(r.system, "You are an expert in robot path planning and navigation.");
    assert.equal(r.images.length, 1);
  });
  assert.deepEqual(Object.keys(readJson(path.join(tmp, "c", "dataset_info.json"))), ["desc"]);

  await exportPathEval({ data: full, format: "swift", outFile: path.join(tmp, "d", "ids.jsonl"), setting: "random-ids", seed: 4 });
  const lines = readFileSync(path.join(tmp, "d", "ids.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, train.length);
  lines.forEach((r: { messages: Array<{ role: string; content: string }> }, i: number) => {
    assert.deepEqual(r.messages.map((m) => m.role), ["system", "user", "assistant"]);
    const names = /two candidate paths: (\w{4}) on the left and (\w{4}) on the right/.exec(r.messages[1]!.content)!;
    const gold = train[i]!.conversations[1]!.value === "Path 1" ? names[1] : names[2];
    assert.equal(r.messages[2]!.content, `Answer: ${gold}.`);
    assert.ok(!r.messages[1]!.content.includes("Path 1"));
  });
});

test("random tokens with a limit: a seeded sample of n questions, each with its own tag line", async () => {
  const summary = await exportPathEval({ data: full, format: "llava", outFile: path.join(tmp, "e", "tok.json"), setting: "random-tokens", limit: 3, seed: 1 });
  assert.equal(summary.exported, 3);
  const records = readJson(path.join(tmp, "e", "tok.json"));
  const tags = records.map((r: { id: string; conversations: Array<{ value: string }> }) => {
    const tag = randomTag(r.id, 1);
    assert.match(tag, /^[A-Za-z0-9]{8}$/);
    assert.ok(r.conversations[0]!.value.endsWith(`\nQuestion tag: ${tag}`));
    return tag;
  });
  assert.equal(new Set(tags).size, 3);
  const again = await exportPathEval({ data: full, format: "llava", outFile: path.join(tmp, "f", "tok.json"), setting: "random-tokens", limit: 3, seed: 1 });
  assert.equal(again.exported, 3);
  assert.deepEqual(readJson(path.join(tmp, "f", "tok.json")).map((r: { id: string }) => r.id), records.map((r: { id: string }) => r.id));
  await assert.rejects(exportPathEval({ data: full, format: "llava", outFile: path.join(tmp, "e", "tok.json") }), /already exists/);
});

test("a missing picture that cannot be drawn (no paths in the record) is a data problem naming the record", async () => {
  const dir = path.join(tmp, "release-like");
  const d = { "Minimum clearance": 1, "Maximum clearance": 2, "Average clearance": 1.5, "Path length": 100, "Smoothness": 10, "Sharp turns": 0, "Maximum angle": 5 };
  const record = { id: 0, image: "combined_images/train_0_2D.png", conversations: [{ from: "human", value: "Q?" }, { from: "gpt", value: "Path 1" }], metrics: { "Path 1": d, "Path 2": d } };
  const { mkdirSync, writeFileSync } = await import("node:fs");
  mkdirSync(path.join(dir, "2D"), { recursive: true });
  writeFileSync(path.join(dir, "2D", "train_set_2D.json"), JSON.stringify([record]));
  await assert.rejects(exportPathEval({ data: dir, format: "llava", outFile: path.join(tmp, "g", "x.json") }), (error: Error & { problems?: unknown }) => {
    assert.deepEqual(error.problems, [{ file: "2D/train_set_2D.json", field: "[0].image", message: "image not found: combined_images/train_0_2D.png (and the record has no paths and environment to draw it from)" }]);
    return true;
  });
});
