import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { egotl, egotlMarkdown, egotlTerminal, errorStats, frameOverrideOf, frequencyChance, frequencyTable } from "../../../src/benchmarks/egotl/index.js";
import { loadEgoTL, type EgoTLItem } from "../../../src/benchmarks/egotl/load.js";
import { readAnswer } from "../../../src/benchmarks/egotl/parse.js";
import type { ItemResult, ScoresDocument } from "../../../src/core/benchmark.js";
import { UsageError } from "../../../src/core/problems.js";
import { TINY_PNG } from "../../helpers/media.js";

const OPTS = ["alpha", "bravo", "charlie", "delta"];

function item(id: string, task: EgoTLItem["task"], truth: EgoTLItem["truth"], options: string[] | null = null): EgoTLItem {
  return { id, task, cluster: id, file: "t.jsonl", line: 1, videoId: id, media: null, currentFrame: null, abstractTask: null, chainOfThought: null, options, truth };
}
const option = (index: number) => ({ kind: "option" as const, index });
const dir = (label: "Turn left" | "Move forward" | "Going down") => ({ kind: "direction" as const, label });
const metres = (m: number) => ({ kind: "distance" as const, metres: m });
const result = (it: EgoTLItem, reply: string): ItemResult => ({ id: it.id, task: it.task, cluster: it.cluster, status: "scored", answer: readAnswer(it, reply) });
const noBootstrap = { bootstrapResamples: 0, bootstrapSeed: 1 };

test("error statistics: mean and numpy's median (odd: the middle value; even: the mean of the two middle ones)", () => {
  assert.deepEqual(errorStats([]), { n: 0, mean: null, median: null });
  assert.deepEqual(errorStats([3, 1, 2]), { n: 3, mean: 2, median: 2 });
  assert.deepEqual(errorStats([4, 1, 3, 0]), { n: 4, mean: 2, median: 2 });
  assert.deepEqual(errorStats([0.5, 0.25]), { n: 2, mean: 0.375, median: 0.375 });
});

// Training answers: direction Turn left x2, Move forward; distance 1.0 x2, 2.0; action letters B, B, A.
const TRAIN = [
  item("t1", "direction", dir("Turn left")), item("t2", "direction", dir("Turn left")), item("t3", "direction", dir("Move forward")),
  item("t4", "distance", metres(1)), item("t5", "distance", metres(1)), item("t6", "distance", metres(2)),
  item("t7", "action_recognition", option(1), OPTS), item("t8", "action_recognition", option(1), OPTS), item("t9", "action_recognition", option(0), OPTS),
];
const TEST = [
  item("d1", "direction", dir("Turn left")), item("d2", "direction", dir("Move forward")),
  item("m1", "distance", metres(1)), item("m2", "distance", metres(2)),
  item("a1", "action_recognition", option(1), OPTS), item("a2", "action_recognition", option(2), OPTS), item("a3", "action_recognition", option(1), OPTS),
];
const TASKS = ["action_recognition", "direction", "distance"] as const;

test("frequency chance on the test items (hand-computed): always Turn left, 1.0 m, B", () => {
  const table = frequencyTable(TRAIN, "train.jsonl");
  const chance = frequencyChance(TEST, [...TASKS], table) as { "Avg.": number; tasks: Record<string, Record<string, unknown>> };
  // Direction: Turn left right for d1 only -> 1/2. Action recognition: B right for a1, a3 -> 2/3.
  assert.equal(chance.tasks["direction"]!["accuracy"], 0.5);
  assert.equal(chance.tasks["action_recognition"]!["accuracy"], 2 / 3);
  assert.equal(chance["Avg."], (2 / 3 + 0.5) / 2);
  // Distance: 1 m against 1 m -> MRA 1; against 2 m relative error 0.5 <= 1 - 0.5 only -> 0.1. Mean 0.55.
  assert.equal(chance.tasks["distance"]!["MRA"], 0.55);
  assert.deepEqual(chance.tasks["distance"]!["abs_error"], { n: 2, mean: 0.5, median: 0.5 });
  assert.deepEqual(chance.tasks["distance"]!["rel_error"], { n: 2, mean: 0.25, median: 0.25 });
  assert.equal((chance.tasks["direction"]!["per_direction"] as Record<string, { predicted_share: number }>)["Turn left"]!.predicted_share, 1);
  assert.equal(chance.tasks["direction"]!["ci"], undefined);
});

test("scores.json, report.md and the terminal carry per-direction accuracy, shares, distance errors and the frequency row", () => {
  const dirTrain = mkdtempSync(path.join(os.tmpdir(), "egotl-metrics-"));
  const trainFile = path.join(dirTrain, "train.jsonl");
  writeFileSync(trainFile, [
    { id: "t1", task: "direction", media: { video: "x.mp4" }, answer: "Turn left" },
    { id: "t2", task: "direction", media: { video: "x.mp4" }, answer: "Turn left" },
    { id: "t3", task: "distance", media: { video: "x.mp4" }, answer: 1 },
  ].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const bench = egotl.configure!({ train: trainFile });
  const items = TEST.filter((i) => i.task !== "action_recognition");
  // d1 "sitting down" -> Going down (wrong); d2 "forward" -> Move forward (right); m1 "1.5 m" (error 0.5); m2 "no idea" (unreadable).
  const replies: Record<string, string> = { d1: "sitting down", d2: "forward", m1: "1.5 m", m2: "no idea" };
  const results = items.map((i) => result(i, replies[i.id]!));
  const s = { benchmark: "egotl", model: "test", ...bench.summarize(items, results, ["direction", "distance"], noBootstrap) } as ScoresDocument;
  const direction = s.tasks["direction"] as Record<string, any>;
  assert.deepEqual(direction["per_direction"]["Turn left"], { n: 1, correct: 0, accuracy: 0, predicted: 0, predicted_share: 0 });
  assert.deepEqual(direction["per_direction"]["Move forward"], { n: 1, correct: 1, accuracy: 1, predicted: 1, predicted_share: 0.5 });
  assert.deepEqual(direction["per_direction"]["Going down"], { n: 0, correct: 0, accuracy: null, predicted: 1, predicted_share: 0.5 });
  assert.equal(direction["no_label_share"], 0);
  const distance = s.tasks["distance"] as Record<string, any>;
  // MRA: 1.5 against 1: relative error 0.5 <= 0.5 (theta 0.5 only) -> 0.1; unreadable -> 0. Mean 0.05.
  assert.equal(distance["MRA"], 0.05);
  assert.deepEqual(distance["abs_error"], { n: 1, mean: 0.5, median: 0.5 });
  assert.deepEqual(distance["rel_error"], { n: 1, mean: 0.5, median: 0.5 });
  // Frequency: Turn left (d1 right, d2 wrong) -> 0.5; 1 m -> MRA (1 + 0.1) / 2 = 0.55.
  const chance = s["frequency_chance"] as Record<string, any>;
  assert.equal(chance["train"], trainFile);
  assert.deepEqual(chance["n_train"], { direction: 2, distance: 1 });
  assert.equal(chance["tasks"]["direction"]["accuracy"], 0.5);
  assert.equal(chance["tasks"]["distance"]["MRA"], 0.55);
  const md = egotlMarkdown([s]);
  assert.ok(md.includes("| frequency chance (train train.jsonl) | – | 50.0 | 50.0 | 55.0 |"), md);
  assert.ok(md.includes("| test | Going down | 0 | – | 1 | 50.0% |"), md);
  assert.ok(md.includes("| frequency chance (train train.jsonl) | Turn left | 1 | 100.0 | 2 | 100.0% |"), md);
  // Eq. 4's strict < drops the relative error of exactly 0.5 at theta 0.5: 1.5 m for 1 m -> 0; 1 m for 2 m -> 0.
  assert.ok(md.includes("| test | 2 | 5.0 | 0.0 | 1 | 0.50 | 0.50 | 1 | 50.0% | 50.0% |"), md);
  assert.ok(md.includes("| frequency chance (train train.jsonl) | 2 | 55.0 | 50.0 | 2 | 0.50 | 0.50 | 2 | 25.0% | 25.0% |"), md);
  const term = egotlTerminal(s);
  assert.match(term, /per direction: Turn left 0\.0 \(n 1\) · Move forward 100\.0 \(n 1\)\n/);
  assert.match(term, /answered as: Turn left 0\.0% · Turn right 0\.0% · Move forward 50\.0% · Going up 0\.0% · Going down 50\.0% · no label 0\.0%/);
  assert.match(term, /abs\. error mean 0\.50 m, median 0\.50 m \(n 1\)  ·  rel\. error mean 50\.0%, median 50\.0% \(n 1, gt > 0\)/);
  assert.match(term, /frequency chance \(train train\.jsonl\): Avg\. 50\.0  ·  direction 50\.0 · distance MRA 55\.0/);
  // Without --train: no frequency row.
  const plain = { benchmark: "egotl", model: "test", ...egotl.summarize(items, results, ["direction", "distance"], noBootstrap) } as ScoresDocument;
  assert.equal(plain["frequency_chance"], undefined);
  assert.ok(!egotlMarkdown([plain]).includes("frequency chance"));
});

test("--frames / --fps replace every frame spec (a span still applies) and are recorded in scores.json", () => {
  assert.deepEqual(frameOverrideOf({ frames: 4 }), { mode: "uniform", count: 4 });
  assert.deepEqual(frameOverrideOf({ fps: 0.5 }), { mode: "fps", fps: 0.5 });
  assert.equal(frameOverrideOf({}), undefined);
  assert.throws(() => frameOverrideOf({ frames: 4, fps: 1 }), UsageError);
  assert.throws(() => egotl.configure!({ frames: 4, fps: 1 }), /--frames or --fps, not both/);
  const root = mkdtempSync(path.join(os.tmpdir(), "egotl-override-"));
  mkdirSync(path.join(root, "clip"));
  for (let k = 0; k < 10; k++) writeFileSync(path.join(root, "clip", `f${k}.png`), TINY_PNG);
  writeFileSync(path.join(root, "test.jsonl"), [
    { id: "own", task: "direction", media: { dir: "clip", spec: { mode: "indices", indices: [9] } }, answer: "Turn left" },
    { id: "span", task: "direction", media: { dir: "clip", span: { first_frame: 4, last_frame: 7 } }, answer: "Turn left" },
    { id: "rate", task: "distance", media: { dir: "clip", fps: 5 }, answer: 1 },
  ].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const frames = egotl.configure!({ frames: 3 });
  const loaded = frames.load(root) as { items: EgoTLItem[]; problems: unknown[] };
  assert.deepEqual(loaded.problems, []);
  assert.deepEqual(loaded.items.map((i) => [i.id, i.media!.spec, i.media!.span ?? null, i.media!.overridden]), [
    ["own", { mode: "uniform", count: 3 }, null, true],
    ["span", { mode: "uniform", count: 3 }, { first_frame: 4, last_frame: 7 }, true],
    ["rate", { mode: "uniform", count: 3 }, null, true],
  ]);
  const s = frames.summarize([], [], ["direction"], noBootstrap) as Record<string, unknown>;
  assert.deepEqual(s["frame_override"], { mode: "uniform", count: 3 });
  // --fps on image frames needs their capture rate: the two rows without media.fps are refused.
  const fps = egotl.configure!({ fps: 2 }).load(root) as { items: EgoTLItem[]; problems: Array<{ line: number; field: string; message: string }> };
  assert.deepEqual(fps.items.map((i) => i.id), ["rate"]);
  assert.deepEqual(fps.problems.map((p) => [p.line, p.field, p.message]), [
    [1, "media.fps", "--fps on image frames needs media.fps (the capture rate)"],
    [2, "media.fps", "--fps on image frames needs media.fps (the capture rate)"],
  ]);
  assert.equal(loadEgoTL(root).items[0]!.media!.overridden, undefined);
});
