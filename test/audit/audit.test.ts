/**
 * The audit layer on a toy benchmark with planted shortcuts: the shortcut is found (a rule or
 * TsT at 100%, the feature named), the same items with answers redrawn at random stay within a
 * binomial bound of chance (nothing of the answer leaks into the features), and pruning removes
 * the planted items first.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { auditUnits } from "../../src/audit/audit.js";
import { pruneIteratively } from "../../src/audit/prune.js";
import { assignFolds } from "../../src/audit/tst.js";
import { createRng } from "../../src/stats/rng.js";
import { toyBenchmark, type ToyItem } from "./toy-benchmark.js";

const VOCABULARY = "table chair lamp door window sofa shelf bed desk rug plant vase mirror clock sink stove oven fridge towel cup plate bowl book pillow basket bench stool crate drawer hook".split(" ");
const OPTIONS = { folds: 5, seed: 3, bootstrap: 0 };

/** n four-option items; `truth(i, rng)` picks the right index; option texts are three random words. */
function choiceItems(n: number, seed: number, truth: (i: number, rng: ReturnType<typeof createRng>) => number, plant?: (options: string[], right: number, i: number) => void): ToyItem[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => {
    const options = Array.from({ length: 4 }, () => Array.from({ length: 3 }, () => rng.pick(VOCABULARY)).join(" "));
    const right = truth(i, rng);
    plant?.(options, right, i);
    return { id: `q${i}`, task: "mc", cluster: `s${i % 10}`, question: `Which object is nearest the ${rng.pick(VOCABULARY)}?`, options, truth: right };
  });
}

async function audit(items: ToyItem[]) {
  return auditUnits(toyBenchmark, items, await toyBenchmark.audit!.units(items, { root: "", cues: false }), OPTIONS);
}

// Four options at chance 1/4: three binomial standard deviations above chance for n items.
const bound = (n: number) => 0.25 + 3 * Math.sqrt((0.25 * 0.75) / n);

test("the right option always first: 'option 1' and TsT score 100%, by the option's position", async () => {
  const items = choiceItems(160, 1, () => 0);
  const { document, items: perItem } = await audit(items);
  const mc = document.tasks["mc"]!;
  assert.equal(mc.chance, 0.25);
  assert.deepEqual(mc.answers, { A: 1 });
  assert.equal(mc.blind.find((r) => r.name === "option 1")!.score, 1);
  assert.equal(mc.blind.find((r) => r.name === "option 2")!.score, 0);
  assert.deepEqual(mc.blind_best, { name: "option 1", score: 1 });
  assert.equal(mc.tst!.score, 1);
  assert.match(mc.tst!.top_features[0]!.feature, /^option:position/);
  assert.ok(perItem.every((i) => i.right.includes("option 1") && i.right.includes("tst")));
  assert.ok(perItem.every((i) => i.s > 0.9), "s(x) near 1 for every item");
});

test("the rule chosen on the other folds: all 'option 1' when the planted answer is first, and 100%", async () => {
  const { document } = await audit(choiceItems(160, 1, () => 0));
  assert.deepEqual(document.tasks["mc"]!.blind_selected, { score: 1, ci: null, chosen: ["option 1", "option 1", "option 1", "option 1", "option 1"] });
  assert.deepEqual(document.overall.blind_selected, { score: 1 });
});

test("the rule chosen on the other folds never sees its fold: right position = fold number scores 0 held out", async () => {
  // Four folds, the right answer in fold f is option f + 1, and every option reads the same (no length cue).
  // Each fold's training folds never have its position right, so any rule they choose fails it; the
  // best rule over all the items still finds a quarter of them.
  const n = 120;
  const ids = Array.from({ length: n }, (_, i) => `q${i}`);
  const fold = assignFolds(ids, 4, OPTIONS.seed);
  const items: ToyItem[] = ids.map((id, i) => ({ id, task: "mc", cluster: `s${i % 10}`, question: "Which one?", options: ["same", "same", "same", "same"], truth: fold[i]! }));
  const { document } = auditUnits(toyBenchmark, items, await toyBenchmark.audit!.units(items, { root: "", cues: false }), { ...OPTIONS, folds: 4 });
  const mc = document.tasks["mc"]!;
  assert.equal(mc.blind_selected!.score, 0);
  assert.equal(mc.blind_best!.score, 0.25);
});

test("answers redrawn at random: every rule and TsT within three binomial deviations of chance", async () => {
  const items = choiceItems(400, 2, (_, rng) => rng.below(4));
  const { document } = await audit(items);
  const mc = document.tasks["mc"]!;
  for (const r of mc.blind) assert.ok(r.score! <= bound(400), `${r.name} ${r.score}`);
  assert.ok(mc.tst!.score! <= bound(400), `tst ${mc.tst!.score}`);
});

test("a word planted in the right option: TsT finds it and names the word; the length rules stay at chance", async () => {
  // The right option's last word becomes "zebra" (three words still, so its length tells nothing).
  const items = choiceItems(300, 4, (_, rng) => rng.below(4), (options, right) => (options[right] = `${options[right]!.split(" ").slice(0, 2).join(" ")} zebra`));
  const { document } = await audit(items);
  const mc = document.tasks["mc"]!;
  assert.ok(mc.tst!.score! >= 0.95, `tst ${mc.tst!.score}`);
  assert.match(mc.tst!.top_features[0]!.feature, /^option-text words .*"zebra"/);
  for (const name of ["longest option", "shortest option"]) assert.ok(mc.blind.find((r) => r.name === name)!.score! <= bound(300), name);
});

test("a constant number: the training median scores 100%", async () => {
  const items: ToyItem[] = Array.from({ length: 50 }, (_, i) => ({ id: `n${i}`, task: "count", cluster: "c", question: `How many chairs are in room ${i}?`, truth: 3 }));
  const { document } = await audit(items);
  assert.equal(document.tasks["count"]!.blind.find((r) => r.name === "train median")!.score, 1);
  assert.equal(document.tasks["count"]!.chance, null);
});

test("pruning removes the planted items first and ends within the target of chance", async () => {
  // 60 of 300 items ask "... quickly?" and have the right answer first; the other 240 are drawn at random.
  const planted = new Set(Array.from({ length: 60 }, (_, i) => `q${i * 5}`));
  const items = choiceItems(300, 5, (i, rng) => (i % 5 === 0 ? 0 : rng.below(4))).map((item, i) => (i % 5 === 0 ? { ...item, question: item.question.replace("?", " quickly?") } : item));
  const units = await toyBenchmark.audit!.units(items, { root: "", cues: false });
  const result = pruneIteratively(toyBenchmark, items, units, { ...OPTIONS, target: 0.05, budget: 0.5, step: 0.05 });
  const firstRemoved = result.removed.slice(0, 45).filter((r) => planted.has(r.id)).length;
  assert.ok(firstRemoved >= 40, `${firstRemoved} of the first 45 removed were planted`);
  assert.equal(result.tasks["mc"]!.outcome, "reached");
  assert.ok(result.tasks["mc"]!.gap_after! <= 0.05);
  assert.equal(result.kept.size, 300 - result.removed.length);
  assert.ok(result.tasks["mc"]!.gap_before! > 0.05);
});

test("pruning with groups: an item goes with its whole group, never a part of one", async () => {
  // The planted set of the test above, each item paired with a random item of another task in one group.
  const planted = choiceItems(300, 5, (i, rng) => (i % 5 === 0 ? 0 : rng.below(4))).map((item, i) => (i % 5 === 0 ? { ...item, question: item.question.replace("?", " quickly?") } : item));
  const partners = choiceItems(300, 6, (_, rng) => rng.below(4)).map((item, i) => ({ ...item, id: `p${i}`, task: "pair" }));
  const items = [...planted, ...partners];
  const units = await toyBenchmark.audit!.units(items, { root: "", cues: false });
  const result = pruneIteratively(toyBenchmark, items, units, { ...OPTIONS, target: 0.05, budget: 0.5, step: 0.05, group: (id) => id.slice(1) });
  assert.ok(result.removed.length > 0);
  for (let i = 0; i < 300; i++) assert.equal(result.kept.has(`q${i}`), result.kept.has(`p${i}`), `group ${i}`);
  const byTask = (task: string) => result.removed.filter((r) => r.task === task).length;
  assert.equal(byTask("mc"), byTask("pair"));
  assert.equal(result.tasks["mc"]!.outcome, "reached");
});

test("pruning held to picture cues: a task whose cue forest reads a planted glow loses the glowing items first", async () => {
  // 60 of 300 items have a right option that glows (a cue only the picture shows); the text says nothing.
  const items = choiceItems(300, 7, (_, rng) => rng.below(4));
  const glowing = new Set(items.filter((_, i) => i % 5 === 0).map((i) => i.id));
  const units = (await toyBenchmark.audit!.units(items, { root: "", cues: false })).map((u) => {
    if (u.answer.kind !== "choice") return u;
    const candidates = u.answer.candidates.map((c) => ({ ...c, cues: { glow: glowing.has(u.id) && c.label === 1 ? 1 : 0 } }));
    return { ...u, answer: { ...u.answer, candidates } };
  });
  const result = pruneIteratively(toyBenchmark, items, units, { ...OPTIONS, target: 0.05, budget: 0.5, step: 0.05, cueTasks: ["mc"] });
  const mc = result.tasks["mc"]!;
  assert.equal(mc.cues, true);
  assert.ok(mc.gap_before! > 0.05, `cue gap before ${mc.gap_before}`);
  assert.equal(mc.outcome, "reached");
  const first = result.removed.slice(0, 45).filter((r) => glowing.has(r.id)).length;
  assert.ok(first >= 40, `${first} of the first 45 removed glowed`);
});
