import assert from "node:assert/strict";
import { test } from "node:test";
import { egotl, egotlMarkdown, rotateItems } from "../../../src/benchmarks/egotl/index.js";
import type { EgoTLItem } from "../../../src/benchmarks/egotl/load.js";
import { readAnswer } from "../../../src/benchmarks/egotl/parse.js";
import { frequencyReply, frequencyTable } from "../../../src/benchmarks/egotl/baselines.js";
import type { ItemResult } from "../../../src/core/benchmark.js";

const OPTS = ["alpha", "bravo", "charlie", "delta"];

function item(id: string, task: EgoTLItem["task"], cluster: string, truth: EgoTLItem["truth"], options: string[] | null = null): EgoTLItem {
  return { id, task, cluster, file: "t.jsonl", line: 1, videoId: cluster, media: null, currentFrame: null, abstractTask: null, chainOfThought: null, options, truth };
}
const option = (index: number) => ({ kind: "option" as const, index });

function result(it: EgoTLItem, reply: string): ItemResult {
  return { id: it.id, task: it.task, cluster: it.cluster, status: "scored", answer: readAnswer(it, reply) };
}

const noBootstrap = { bootstrapResamples: 0, bootstrapSeed: 1 };

test("per-task accuracy with and without the excluded letters, Avg. over the five, MRA apart (hand-computed)", () => {
  const items = [
    item("p1", "planning", "v1", option(0), OPTS),
    item("s1", "scene_action", "v1", option(1), OPTS),
    item("n1", "next_action", "v2", option(2), OPTS),
    item("a1", "action_recognition", "v1", option(0), OPTS),
    item("a2", "action_recognition", "v1", option(1), OPTS),
    item("a3", "action_recognition", "v2", option(2), OPTS),
    item("a4", "action_recognition", "v3", option(3), OPTS),
    item("d1", "direction", "v2", { kind: "direction", label: "Going up" }),
    item("d2", "direction", "v3", { kind: "direction", label: "Turn left" }),
    item("m1", "distance", "v1", { kind: "distance", metres: 3 }),
    item("m2", "distance", "v2", { kind: "distance", metres: 0 }),
    item("e1", "direction", "v3", { kind: "direction", label: "Turn left" }),
  ];
  const replies: Record<string, string> = {
    p1: '{"best": "A"}', s1: "alpha", n1: "charlie", a1: "A", a2: "no idea", a3: "B", a4: "D", d1: "up the stairs", d2: "hmm", m1: "3 m", m2: "0.5",
  };
  const results = items.filter((i) => i.id !== "e1").map((i) => result(i, replies[i.id]!));
  results.push({ id: "e1", task: "direction", cluster: "v3", status: "error", response: { latency_ms: 0, attempts: 6, cached: false, error: { kind: "http", status: 500, message: "boom" } } });
  const tasks = ["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"];
  const s = egotl.summarize(items, results, tasks, noBootstrap) as Record<string, any>;
  assert.deepEqual(s.tasks.action_recognition, { n: 4, n_scored: 3, correct: 2, accuracy: 2 / 3, accuracy_counted: 0.5, unreadable: 1, excluded: 1, ci: {} });
  // d1 "up the stairs" -> Going up (right); d2 "hmm" -> no label. Per truth label and per read label:
  const none = { n: 0, correct: 0, accuracy: null, predicted: 0, predicted_share: 0 };
  assert.deepEqual(s.tasks.direction, {
    n: 2, n_scored: 2, correct: 1, accuracy: 0.5, accuracy_counted: 0.5, unreadable: 1, excluded: 0,
    per_direction: {
      "Turn left": { n: 1, correct: 0, accuracy: 0, predicted: 0, predicted_share: 0 },
      "Turn right": none,
      "Move forward": none,
      "Going up": { n: 1, correct: 1, accuracy: 1, predicted: 1, predicted_share: 0.5 },
      "Going down": none,
    },
    no_label_share: 0.5,
    ci: {},
  });
  assert.equal(s.tasks.planning.accuracy, 1);
  assert.equal(s.tasks.scene_action.accuracy, 0);
  assert.equal(s.tasks.next_action.accuracy, 1);
  // m1 "3 m" for 3: error 0; m2 "0.5" for 0: error 0.5 m, no relative error (gt = 0).
  assert.deepEqual(s.tasks.distance, {
    n: 2, MRA: 0.5, MRA_strict: 0.5, unreadable: 0, zero_truth: 1,
    abs_error: { n: 2, mean: 0.25, median: 0.25 }, rel_error: { n: 1, mean: 0, median: 0 }, ci: {},
  });
  assert.equal(s["Avg."], (1 + 0 + 1 + 2 / 3 + 0.5) / 5);
  assert.equal(s.avg_counted, (1 + 0 + 1 + 0.5 + 0.5) / 5);
  assert.equal(s.score, s["Avg."]);
  assert.equal(s.n, 11);
  assert.deepEqual(s.counts, { parse_failures: 2, errors: 1, missing: 0, items: 12, excluded: 1 });
  assert.equal(s.circular, false);

  // With the bootstrap: intervals over source videos, inside [0, 1], reproducible.
  const b1 = egotl.summarize(items, results, tasks, { bootstrapResamples: 500, bootstrapSeed: 3 }) as Record<string, any>;
  const b2 = egotl.summarize(items, results, tasks, { bootstrapResamples: 500, bootstrapSeed: 3 }) as Record<string, any>;
  assert.deepEqual(b1, b2);
  const [lo, hi] = b1.tasks.action_recognition.ci.accuracy;
  assert.ok(lo >= 0 && lo <= 2 / 3 && hi >= 2 / 3 && hi <= 1);
  assert.ok(b1.score_ci[0] <= b1.score && b1.score <= b1.score_ci[1]);
  assert.ok(Array.isArray(b1.tasks.distance.ci.MRA));
});

test("only distance: the score is the MRA", () => {
  const items = [item("m1", "distance", "v1", { kind: "distance", metres: 2 })];
  const s = egotl.summarize(items, [result(items[0]!, "2.2")], ["distance"], noBootstrap) as Record<string, any>;
  assert.equal(s.score, 0.9); // |2.2 - 2| / 2 = 0.10000000000000009 <= 1 - 0.8999999999999999: 9 of 10 thresholds
  // The paper's Eq. 4 (strict <): that ninth threshold no longer passes, 8 of 10; reported beside, not the score.
  assert.equal(s.tasks.distance.MRA_strict, 0.8);
  assert.match(egotlMarkdown([{ ...s, benchmark: "egotl", model: "m" }] as never), /\| m \| Distance \(MRA, Eq\. 4 \\<\) \| 1 \| 80\.0 \|/);
  assert.equal(s.score_name, "MRA");
  assert.equal(s["Avg."], null);
});

test("circular evaluation: rotated copies, right only when every rotation is right", () => {
  const base = [
    item("a", "action_recognition", "v1", option(2), OPTS),
    item("b", "action_recognition", "v1", option(0), OPTS),
    item("c", "action_recognition", "v2", option(1), OPTS),
    item("d", "action_recognition", "v2", option(3), OPTS),
    item("e", "action_recognition", "v3", option(0), OPTS),
    item("m", "distance", "v3", { kind: "distance", metres: 1 }),
  ];
  const rotated = rotateItems(base);
  assert.equal(rotated.length, 5 * 4 + 1);
  const a1 = rotated.find((i) => i.id === "a#r1")!;
  assert.deepEqual(a1.options, ["bravo", "charlie", "delta", "alpha"]);
  assert.deepEqual(a1.truth, option(1)); // "charlie" moved from C to B
  assert.deepEqual(a1.rotation, { base: "a", k: 1 });
  assert.equal(rotated.find((i) => i.id === "m")!.rotation, undefined); // no options: asked once
  assert.deepEqual(rotateItems(rotated).map((i) => i.id), rotated.map((i) => i.id)); // idempotent

  const letter = (it: EgoTLItem) => "ABCD"[(it.truth as { index: number }).index]!;
  const wrong = (it: EgoTLItem) => "ABCD"[((it.truth as { index: number }).index + 1) % 4]!;
  const results: ItemResult[] = rotated.map((it) => {
    const k = it.rotation?.k ?? 0;
    switch (it.rotation?.base) {
      case "a": return result(it, letter(it)); // all right
      case "b": return result(it, k === 3 ? wrong(it) : letter(it)); // one wrong
      case "c": return result(it, "no letter"); // all unreadable: excluded
      case "d": return result(it, k < 2 ? "?" : letter(it)); // two unreadable: wrong
      case "e": return k === 2 ? { id: it.id, task: it.task, cluster: it.cluster, status: "error" } : result(it, letter(it)); // incomplete
      default: return result(it, "1");
    }
  });
  const s = egotl.summarize(rotated, results, ["action_recognition", "distance"], noBootstrap) as Record<string, any>;
  assert.deepEqual(s.tasks.action_recognition, { n: 4, n_scored: 3, correct: 1, accuracy: 1 / 3, accuracy_counted: 0.25, unreadable: 2, excluded: 1, ci: {} });
  assert.equal(s.tasks.distance.MRA, 1);
  assert.equal(s.circular, true);
  assert.equal(s.counts.circular_incomplete, 1);
  assert.equal(s.n, 5);
});

test("frequency table: most frequent letter, text, label and rounded distance; ties to the first", () => {
  const train = [
    item("t1", "action_recognition", "x", option(1), OPTS),
    item("t2", "action_recognition", "x", option(1), OPTS),
    item("t3", "action_recognition", "x", option(2), OPTS),
    item("t4", "planning", "x", option(3), OPTS),
    item("t5", "planning", "x", option(2), OPTS), // tie C/D -> C
    item("t6", "next_action", "x", option(0), ["go up", "b", "c", "d"]),
    item("t7", "next_action", "x", option(3), ["x", "y", "z", "Go up!"]),
    item("t8", "next_action", "x", option(1), ["x", "turn left", "z", "w"]),
    item("t9", "direction", "x", { kind: "direction", label: "Going down" }),
    item("t10", "direction", "x", { kind: "direction", label: "Turn left" }), // tie -> Turn left (paper order)
    item("t11", "distance", "x", { kind: "distance", metres: 2.04 }),
    item("t12", "distance", "x", { kind: "distance", metres: 1.96 }),
    item("t13", "distance", "x", { kind: "distance", metres: 0.5 }),
  ];
  const table = frequencyTable(train, "train.jsonl");
  assert.deepEqual(table.letter, { planning: "C", next_action: "A", action_recognition: "B" });
  assert.deepEqual(table.text, { next_action: "go up" });
  assert.equal(table.direction, "Turn left");
  assert.equal(table.distance, 2);
  assert.deepEqual(table.n, { action_recognition: 3, planning: 2, next_action: 3, direction: 2, distance: 3 });
  // Option-text tasks: the frequent text when offered, else the frequent position.
  assert.equal(frequencyReply(item("q1", "next_action", "v", option(0), ["a", "b", "GO UP", "d"]), table), "GO UP");
  assert.equal(frequencyReply(item("q2", "next_action", "v", option(0), ["a", "b", "c", "d"]), table), "a");
  assert.equal(frequencyReply(item("q3", "scene_action", "v", option(0), OPTS), table), ""); // no training items of this task
  assert.equal(frequencyReply(item("q4", "planning", "v", option(0), OPTS), table), '{"scores":{"A":0,"B":0,"C":10,"D":0},"best":"C"}');
  assert.equal(frequencyReply(item("q5", "distance", "v", { kind: "distance", metres: 1 }), table), "2");
});
