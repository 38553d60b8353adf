import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { egotl, replyFor, type EgoTLItem } from "../../../src/benchmarks/egotl/index.js";
import type { Benchmark, BenchItem, ItemResult, ScoresDocument } from "../../../src/core/benchmark.js";
import { UsageError } from "../../../src/core/problems.js";
import { requestKey, runItems, scorePredictions } from "../../../src/core/run.js";
import { DEFAULT_SETTINGS, type Message, type Model } from "../../../src/core/types.js";

/**
 * End to end without the registry: load the shipped example set, build prompts (real frames through
 * sampleFrames), answer with the built-ins, read, score and summarise with the module's own functions.
 */
process.env["SPATIALPROBE_FRAME_CACHE"] = mkdtempSync(path.join(os.tmpdir(), "egotl-frames-"));
const EXAMPLE = path.resolve("test/fixtures/egotl-legacy-mini");
const TRAIN = path.join(EXAMPLE, "train.jsonl");
const loaded = egotl.load(EXAMPLE);

async function run(benchmark: Benchmark<EgoTLItem>, reply: (item: EgoTLItem, prompt: Record<string, unknown>) => string, maxImages?: number) {
  const setup = { source: "templates", control: "none", seed: 1, ...(maxImages ? { maxImages } : {}) };
  const items = benchmark.deriveItems!(loaded.items, setup);
  const { build } = benchmark.preparePrompts(items, setup);
  const results = await runItems({
    benchmark, items, responder: { kind: "baseline", name: "test", reply }, build, settings: DEFAULT_SETTINGS, concurrency: 4, retryErrors: false, signal: new AbortController().signal,
  });
  const scores = { benchmark: "egotl", model: "test", ...benchmark.summarize(items, results, loaded.tasks, { bootstrapResamples: 200, bootstrapSeed: 7 }) } as ScoresDocument;
  return { items, results, scores };
}

const builtin = (benchmark: Benchmark<EgoTLItem>, name: string, seed = 0) => (item: EgoTLItem, prompt: Record<string, unknown>) => benchmark.baselines[name]!.reply(item, seed, prompt);

function checkContract(scores: ScoresDocument): void {
  assert.deepEqual(Object.keys(scores.tasks), ["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"]);
  const fractions = [scores.score, scores["Avg."], ...Object.values(scores.tasks).flatMap((t) => [t["accuracy"], t["accuracy_counted"], t["MRA"]])];
  for (const v of fractions) if (v !== undefined && v !== null) assert.ok(typeof v === "number" && v >= 0 && v <= 1, String(v));
}

test("oracle: every task right, every reply readable; the items record what was shown", async () => {
  assert.deepEqual(loaded.problems, []);
  const { results, scores } = await run(egotl, builtin(egotl, "oracle"));
  checkContract(scores);
  assert.equal(scores.score, 1);
  assert.equal(scores.n, 30);
  for (const t of Object.values(scores.tasks)) assert.equal(t["accuracy"] ?? t["MRA"], 1);
  assert.deepEqual(scores.counts, { parse_failures: 0, errors: 0, missing: 0, items: 30, excluded: 0 });
  const planning = results.find((r) => r.task === "planning")!;
  const frames = planning.prompt!["frames"] as Record<string, unknown>;
  assert.deepEqual(frames["indices"], [0, 2, 4, 7, 9, 11, 14, 16, 18, 21, 23, 25, 28, 30, 32, 35]); // np.linspace(0, 35, 16).astype(int)
  assert.equal(frames["thinning"], null);
  assert.equal(frames["total_frames"], 36);
  assert.deepEqual((frames["timestamps"] as number[]).slice(0, 3), [0, 0.5, 1]); // 4 fps
  const scene = results.find((r) => r.task === "scene_action")!;
  assert.match(String(scene.prompt!["current_frame"]), /^frames\/w\d\d\/frame_\d{3}\.png$/);
  assert.equal(scene.prompt!["frames"], undefined);
});

test("random: chance-level replies in every task's format, reproducible per seed", async () => {
  const a = await run(egotl, builtin(egotl, "random", 1));
  const b = await run(egotl, builtin(egotl, "random", 1));
  const c = await run(egotl, builtin(egotl, "random", 2));
  checkContract(a.scores);
  assert.deepEqual(a.results.map((r) => r.reply), b.results.map((r) => r.reply));
  assert.notDeepEqual(a.results.map((r) => r.reply), c.results.map((r) => r.reply));
  assert.equal(a.scores.counts.parse_failures, 0);
  assert.ok((a.scores.score as number) < 0.7);
});

test("frequency: needs --train (a usage error without it), then answers the training mode", async () => {
  assert.throws(() => egotl.configure!({ model: "frequency" }), UsageError);
  assert.throws(() => egotl.baselines["frequency"]!.reply(loaded.items[0]!, 0, {}), UsageError);
  assert.throws(() => egotl.configure!({ train: path.join(EXAMPLE, "missing.jsonl") }));
  const configured = egotl.configure!({ model: "frequency", train: TRAIN });
  const { results, scores } = await run(configured, builtin(configured, "frequency"));
  checkContract(scores);
  assert.equal(scores.counts.parse_failures, 0);
  assert.deepEqual(scores["train"], { file: TRAIN, n: { planning: 10, scene_action: 10, next_action: 10, action_recognition: 10, direction: 10, distance: 10 } });
  // One answer per task for the letter and label tasks.
  for (const task of ["planning", "action_recognition", "direction", "distance"]) {
    assert.equal(new Set(results.filter((r) => r.task === task).map((r) => r.reply)).size, 1, task);
  }
});

test("frames thinned to the image limit: the note and indices are recorded and the request bytes change", async () => {
  const planning = loaded.items.find((i) => i.task === "planning")!;
  const { build: full } = egotl.preparePrompts([planning], { source: "templates", control: "none", seed: 1 });
  const { build: thin } = egotl.preparePrompts([planning], { source: "templates", control: "none", seed: 1, maxImages: 6 });
  const a = await full(planning);
  const b = await thin(planning);
  assert.ok("messages" in a && "messages" in b);
  const images = (m: Message[]) => m.flatMap((x) => x.content).filter((p) => p.type === "image").length;
  assert.equal(images(a.messages), 16);
  assert.equal(images(b.messages), 6);
  const frames = b.info["frames"] as Record<string, unknown>;
  assert.deepEqual(frames["indices"], [0, 7, 14, 21, 28, 35]);
  assert.deepEqual(frames["timestamps"], [0, 1.75, 3.5, 5.25, 7, 8.75]);
  assert.equal(frames["thinning"], "16 frames thinned to 6 (provider limit)");
  const texts = b.messages.flatMap((x) => x.content).flatMap((p) => (p.type === "text" ? [p.text] : []));
  assert.ok(texts.includes("Frame 7 (t = 1.75 s):"));
  assert.ok(texts.some((t) => t.startsWith("These 6 frames come from a walkthrough video")));
  assert.ok(texts.some((t) => t.includes('"best": "<A, B, C or D>"')));
  const model = { identity: { provider: "p", endpoint: "e", model: "m" } } as Model;
  assert.notEqual(requestKey(model, DEFAULT_SETTINGS, a.messages), requestKey(model, DEFAULT_SETTINGS, b.messages));
  // Same input, same bytes.
  const again = await thin(planning);
  assert.ok("messages" in again);
  assert.equal(requestKey(model, DEFAULT_SETTINGS, again.messages), requestKey(model, DEFAULT_SETTINGS, b.messages));
});

test("the current view always stays; no room for frames next to it is a prompt error", async () => {
  const scene = loaded.items.find((i) => i.task === "scene_action")!;
  const clip = loaded.items.find((i) => i.task === "direction")!;
  const { build } = egotl.preparePrompts([], { source: "templates", control: "none", seed: 1, maxImages: 1 });
  const only = await build(scene);
  assert.ok("messages" in only);
  assert.equal(only.messages[1]!.content.filter((p) => p.type === "image").length, 1);
  const both = await build({ ...scene, media: clip.media });
  assert.ok("error" in both && /no room for the video frames/.test(both.error));
  const one = await build(clip);
  assert.ok("messages" in one);
  assert.equal((one.info["frames"] as { indices: number[] }).indices.length, 1);
  const broken = await build({ ...clip, media: { ...clip.media!, spec: { mode: "indices", indices: [99] } } });
  assert.ok("error" in broken && /^media: frame index 99 is out of range/.test(broken.error));
  assert.throws(() => egotl.preparePrompts([], { source: "plain", control: "none", seed: 1 }), UsageError);
});

test("circular evaluation end to end: the oracle stays right, always-first drops to zero", async () => {
  const circular = egotl.configure!({ circular: true });
  const oracle = await run(circular, builtin(circular, "oracle"));
  assert.equal(oracle.items.length, 20 * 4 + 10); // four option tasks rotated; direction and distance asked once
  assert.ok(oracle.items.some((i) => i.id === "w01-planning#r3"));
  assert.equal(oracle.scores.score, 1);
  assert.equal(oracle.scores["circular"], true);
  const first = (item: EgoTLItem) => (item.truth.kind === "option" ? replyFor(item, { index: 0 }) : builtin(egotl, "oracle")(item, {}));
  const plain = await run(egotl, first);
  const rotated = await run(circular, first);
  for (const task of ["planning", "scene_action", "next_action", "action_recognition"]) {
    assert.equal(rotated.scores.tasks[task]!["accuracy"], 0, task);
  }
  assert.ok((plain.scores.tasks["action_recognition"]!["accuracy"] as number) > 0);
  assert.equal(rotated.scores.tasks["direction"]!["accuracy"], 1);
});

test("stored predictions: {id, response} (and the exported {id, output}) are read like replies", () => {
  const rows = new Map<string, Map<string, string>>();
  for (const item of loaded.items) {
    const text = builtin(egotl, "oracle")(item, {});
    rows.set(item.id, new Map([[item.task === "distance" ? "output" : "response", text]]));
  }
  rows.delete(loaded.items[0]!.id);
  const results = scorePredictions(egotl as unknown as Benchmark<BenchItem>, loaded.items, (item) => rows.get(item.id));
  const s = egotl.summarize(loaded.items, results as ItemResult[], loaded.tasks, { bootstrapResamples: 0, bootstrapSeed: 1 }) as Record<string, any>;
  assert.equal(s.counts.missing, 1);
  assert.equal(s.tasks.planning.accuracy, 0.8);
  assert.equal(s.tasks.distance.MRA, 1);
});

test("report: Table 3 layout with the chance row; several runs side by side", async () => {
  const a = (await run(egotl, builtin(egotl, "oracle"))).scores;
  const b = { ...(await run(egotl, builtin(egotl, "random", 3))).scores, model: "random:3" };
  const md = egotl.markdown([a, b]);
  assert.match(md, /\| Run \| Scored \| Planning \| Scene-aware action \| Next action \| Action recog\. \| Direction \| Avg\. \| Distance \(MRA\) \|/);
  assert.match(md, /\| test \| 30\/30 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \|/);
  assert.match(md, /\| random:3 \| 30\/30 \|/);
  assert.match(md, /\| uniform chance \| – \| 25\.0 \| 25\.0 \| 25\.0 \| 25\.0 \| 20\.0 \| 24\.0 \| – \|/);
  assert.match(egotl.terminal(a), /Avg\. 100\.0/);
});

