import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { heldOutReplies, summaryOfReplies } from "../../helpers/audit.js";
import type { AuditUnit, BlindRule } from "../../../src/audit/types.js";
import {
  egotlAudit, findWords, gramSet, jaccard, mentionContext, nearestByValue, optionFeatures, optionStem, orderViolations, planSteps,
} from "../../../src/benchmarks/egotl/audit.js";
import { egotl } from "../../../src/benchmarks/egotl/index.js";
import { loadEgoTL, type EgoTLItem, type Truth } from "../../../src/benchmarks/egotl/load.js";
import { DIRECTION_LABELS, type DirectionLabel, type EgoTLTask } from "../../../src/benchmarks/egotl/schema.js";
import { createRng, type Rng } from "../../../src/stats/rng.js";

const EXAMPLE = path.resolve("examples/egotl-mini");

// ---------------------------------------------------------------------------------------------
// Helpers: items made in the test, and replies scored by the benchmark's own reader and scorer

function makeItem(id: string, task: EgoTLTask, truth: Truth, fields: Partial<EgoTLItem> = {}): EgoTLItem {
  return {
    id, task, cluster: `v${id}`, file: "test.jsonl", line: 1, videoId: `v${id}`, media: null, currentFrame: null,
    abstractTask: null, chainOfThought: null, options: null, truth, ...fields,
  };
}

/** The task's headline through readReply -> scoreItem -> summarize -> headline, as `score` would compute it. */
function scoreReplies(items: EgoTLItem[], replies: Map<string, string>, task: EgoTLTask) {
  const group = items.filter((i) => i.task === task);
  return egotlAudit.headline(summaryOfReplies(egotl, group, replies, [], [task]), task);
}

const crossValidated = heldOutReplies;

const rule = (name: string): BlindRule => egotlAudit.rules.find((r) => r.name === name)!;

async function ruleScore(name: string, items: EgoTLItem[], task: EgoTLTask) {
  const units = await egotlAudit.units(items, { root: "", cues: false });
  return scoreReplies(items, crossValidated(rule(name), units), task);
}

/** The same items with the right option (or label, or distance) drawn at random: nothing left to find. */
function redrawn(items: EgoTLItem[], rng: Rng): EgoTLItem[] {
  return items.map((item) => {
    const t = item.truth;
    const truth: Truth = t.kind === "option" ? { kind: "option", index: rng.below(item.options!.length) }
      : t.kind === "direction" ? { kind: "direction", label: rng.pick(DIRECTION_LABELS) }
      : { kind: "distance", metres: rng.int(5, 50) / 10 };
    return { ...item, truth };
  });
}

const N = 200;
const OBJECTS = ["lamp", "kettle", "book", "vase", "clock", "bottle", "bowl", "laptop"];
const PLACES = ["desk", "shelf", "dresser", "sofa", "bed", "armchair", "dining table", "cabinet"];

/** Next action: a plan of four steps; the right option is step k, the others later steps or steps the plan never names. */
function nextActionItems(rng: Rng): EgoTLItem[] {
  return Array.from({ length: N }, (_, n) => {
    const [o1, o2] = rng.shuffle(OBJECTS);
    const [p1, p2, p3] = rng.shuffle(PLACES);
    const steps = [`walk to the ${p1}`, `pick up the ${o1}`, `carry the ${o1} to the ${p2}`, `put the ${o1} on the ${p2}`];
    const cot = `My task is to put the ${o1} on the ${p2}. I am in the hall. I will first ${steps[0]}, then ${steps[1]}, then ${steps[2]}, and finally ${steps[3]}.`;
    const k = rng.int(0, 2);
    const later = steps.slice(k + 1);
    const unnamed = [`walk to the ${p3}`, `pick up the ${o2}`, `switch on the ${o2}`];
    const distractors = [...later, ...unnamed].slice(0, 3);
    const options = rng.shuffle([steps[k]!, ...distractors]).map((o) => o[0]!.toUpperCase() + o.slice(1));
    const index = options.findIndex((o) => o.toLowerCase() === steps[k]);
    return makeItem(`na${n}`, "next_action", { kind: "option", index }, { chainOfThought: cot, options });
  });
}

/** Action recognition: each distractor changes one word of the answer (verb, colour, object). */
function recognitionItems(rng: Rng): EgoTLItem[] {
  return Array.from({ length: N }, (_, n) => {
    const [o1, o2] = rng.shuffle(OBJECTS);
    const answer = `Switch on the gray ${o1}`;
    const options = rng.shuffle([answer, `Switch off the gray ${o1}`, `Switch on the pink ${o1}`, `Switch on the gray ${o2}`]);
    return makeItem(`ar${n}`, "action_recognition", { kind: "option", index: options.indexOf(answer) }, { options });
  });
}

/** Scene-aware action: "Walk around ..." is offered and always right. */
function sceneItems(rng: Rng): EgoTLItem[] {
  return Array.from({ length: N }, (_, n) => {
    const [p1, p2] = rng.shuffle(PLACES);
    const answer = `Walk around the ${p2} to reach the ${p1}`;
    const options = rng.shuffle([answer, `Turn left and walk to the ${p1}`, `Turn right and walk to the ${p1}`, `Walk straight ahead to the ${p1}`]);
    return makeItem(`sa${n}`, "scene_action", { kind: "option", index: options.indexOf(answer) }, { abstractTask: `Read on the ${p1}`, options });
  });
}

/** Planning: the true plan, one with two steps swapped, one with a step dropped, one with an object replaced. */
function planningItems(rng: Rng): EgoTLItem[] {
  return Array.from({ length: N }, (_, n) => {
    const [o1] = rng.shuffle(OBJECTS);
    const [p1, p2, p3] = rng.shuffle(PLACES);
    const head = `My task is to switch on the ${o1} and sit down on the ${p2}. I am in the hall. I will first walk to the ${o1} in the office, then`;
    const plans = [
      `${head} switch on the ${o1}, then walk to the ${p2}, and finally sit down on the ${p2}.`,
      `${head} sit down on the ${p2}, then walk to the ${p2}, and finally switch on the ${o1}.`,
      `${head} walk to the ${p2}, and finally sit down on the ${p2}.`,
      `${head} switch on the ${o1}, then walk to the ${p3} in the ${p1 === "bed" ? "hall" : "bedroom"}, and finally sit down on the ${p3}.`,
    ];
    const options = rng.shuffle(plans);
    return makeItem(`pl${n}`, "planning", { kind: "option", index: options.indexOf(plans[0]!) }, { abstractTask: `Switch on the ${o1} and sit down on the ${p2}`, options });
  });
}

/** Direction: spans of 5-14 frames turn left, spans of 15-60 move forward. */
function directionItems(rng: Rng = createRng(30)): EgoTLItem[] {
  return Array.from({ length: N }, (_, n) => {
    const frames = n % 2 === 0 ? rng.int(5, 14) : rng.int(15, 60);
    const media = { source: { video: "/x.mp4" }, spec: { mode: "uniform" as const, count: 8 }, display: "x.mp4", fps: null, span: { first_frame: 0, last_frame: frames - 1 } };
    return makeItem(`di${n}`, "direction", { kind: "direction", label: (frames < 15 ? "Turn left" : "Move forward") as DirectionLabel }, { media });
  });
}
const distanceItems = (): EgoTLItem[] => Array.from({ length: N }, (_, n) => makeItem(`ds${n}`, "distance", { kind: "distance", metres: 0 }));

// ---------------------------------------------------------------------------------------------
// Pure helpers, checked by hand

test("option features: bigram Jaccard, first mention in the plan, stems, plan steps and order", () => {
  assert.deepEqual([...gramSet(["a", "b", "c"])], ["a", "b", "c", "a b", "b c"]);
  // {switch on the gray lamp} vs {switch off the gray lamp}: 9 grams each, 6 shared -> 6 / 12.
  assert.equal(jaccard(gramSet("switch on the gray lamp".split(" ")), gramSet("switch off the gray lamp".split(" "))), 0.5);
  assert.equal(findWords(["walk", "to", "the", "sofa"], ["to", "the"]), 1);
  assert.equal(findWords(["walk", "to", "the", "sofa"], ["the", "bed"]), -1);
  // The task statement before "I will" is left out of the mention context.
  assert.deepEqual(mentionContext("My task is to sit down. I will first walk to the bed, and finally sit down."), ["first", "walk", "to", "the", "bed", "and", "finally", "sit", "down"]);
  assert.equal(optionStem("Turn left and walk to the desk in the office"), "turn left and walk to");
  assert.equal(optionStem("Walk around the chair to reach the desk"), "walk around");
  assert.equal(optionStem("Going up"), "going up");
  assert.deepEqual(nearestByValue([1, 2, 4, 7, 9], (x) => x, 5, 3), [4, 7, 2]);
  assert.deepEqual(nearestByValue([1, 2], (x) => x, 10, 3), [2, 1]);
  const swapped = "My task is x. I will first walk to the lamp in the living room, then sit down on the armchair, then walk to the armchair in the living room, and finally switch on the lamp.";
  assert.deepEqual(planSteps(swapped), ["walk to the lamp in the living room", "sit down on the armchair", "walk to the armchair in the living room", "switch on the lamp"]);
  assert.equal(orderViolations(planSteps(swapped)), 1);
  assert.equal(orderViolations(["walk to the lamp", "switch on the lamp", "carry the book to the shelf", "put the book on the shelf"]), 0);
  assert.equal(orderViolations(["put the book on the shelf", "carry the book to the shelf in the hall"]), 1);

  const cot = "My task is to put the vase on the shelf. I will first walk to the desk, then pick up the vase, and finally put the vase on the shelf.";
  const f = optionFeatures(["Put the vase on the shelf", "Pick up the vase", "Walk to the bed", "Walk to the desk"], cot, false);
  assert.deepEqual(f.map((x) => x["first_mention_rank"]), [2, 1, -1, 0]);
  assert.deepEqual(f.map((x) => x["position"]), [0, 1, 2, 3]);
  // Words in no other option: put/on/shelf, pick/up, bed, desk.
  assert.deepEqual(f.map((x) => x["unique_words"]), [3, 2, 1, 1]);
});

// ---------------------------------------------------------------------------------------------
// (1) planted shortcuts are found, scored by the benchmark's own scorer; (2) redrawn answers are not

test("next action: the option first named in the plan scores 1.0; with the answer redrawn, about chance", async () => {
  const items = nextActionItems(createRng(1));
  const planted = await ruleScore("first-mentioned", items, "next_action");
  assert.deepEqual(planted, { metric: "accuracy", score: 1, ci: null });
  const random = await ruleScore("first-mentioned", redrawn(items, createRng(2)), "next_action");
  // 200 items, p = 0.25: sd 0.031; 0.1 is more than three of them.
  assert.ok(Math.abs(random.score! - 0.25) < 0.1, `redrawn: ${random.score}`);
});

test("action recognition: the option most similar to the others scores 1.0; redrawn, about chance", async () => {
  const items = recognitionItems(createRng(3));
  assert.equal((await ruleScore("most-similar-to-others", items, "action_recognition")).score, 1);
  const random = await ruleScore("most-similar-to-others", redrawn(items, createRng(4)), "action_recognition");
  assert.ok(Math.abs(random.score! - 0.25) < 0.1, `redrawn: ${random.score}`);
});

test("scene-aware action: the answer-stem prior learns \"Walk around\" on the training folds; redrawn, about chance", async () => {
  const items = sceneItems(createRng(5));
  assert.equal((await ruleScore("answer-stem-prior", items, "scene_action")).score, 1);
  for (const name of ["answer-stem-prior", "label-prior", "first-mentioned", "most-similar-to-others"]) {
    const random = await ruleScore(name, redrawn(items, createRng(6)), "scene_action");
    assert.ok(Math.abs(random.score! - 0.25) < 0.1, `${name} redrawn: ${random.score}`);
  }
});

test("planning: the coherent plan scores 1.0 (its JSON reply read by the planning reader); redrawn, about chance", async () => {
  const items = planningItems(createRng(7));
  assert.equal((await ruleScore("coherent-plan", items, "planning")).score, 1);
  for (const name of ["coherent-plan", "most-similar-to-others", "label-prior"]) {
    const random = await ruleScore(name, redrawn(items, createRng(8)), "planning");
    assert.ok(Math.abs(random.score! - 0.25) < 0.1, `${name} redrawn: ${random.score}`);
  }
});

test("direction: the label of the nearest spans scores ~1.0 where length decides; the label prior 1.0 on a constant label", async () => {
  const items = directionItems();
  // Only spans at the 14/15 border can have neighbours of both labels.
  assert.ok((await ruleScore("label-by-span", items, "direction")).score! >= 0.95);
  // The label prior alone gets the half of the set with the more frequent label.
  assert.equal((await ruleScore("label-prior", items, "direction")).score, 0.5);
  const constant = items.map((i) => ({ ...i, truth: { kind: "direction", label: "Going up" } as Truth }));
  assert.equal((await ruleScore("label-prior", constant, "direction")).score, 1);
});

test("distance: replying 0 scores MRA 1.0 when nothing moves, 0 when everything moves 0.5-5 m", async () => {
  const items = distanceItems();
  assert.deepEqual(await ruleScore("distance-zero", items, "distance"), { metric: "MRA", score: 1, ci: null });
  const moved = redrawn(items, createRng(10));
  assert.equal((await ruleScore("distance-zero", moved, "distance")).score, 0);
});

test("distance: spans shorter than any moving training clip get 0, longer ones a training rate per frame", async () => {
  const rng = createRng(11);
  // Spans of 5-14 frames turn on the spot (0 m); spans of 15-60 frames move 0.12 m per frame.
  const items = Array.from({ length: 60 }, (_, n) => {
    const frames = n % 3 === 0 ? rng.int(5, 14) : rng.int(15, 60);
    const media = { source: { video: "/x.mp4" }, spec: { mode: "uniform" as const, count: 8 }, display: "x.mp4", fps: null, span: { first_frame: 100, last_frame: 100 + frames - 1 } };
    return makeItem(`dr${n}`, "distance", { kind: "distance", metres: frames < 15 ? 0 : frames * 0.12 }, { media });
  });
  assert.equal((await ruleScore("distance-by-span", items, "distance")).score, 1);
  // By hand: moving spans of 20 and 40 frames (1.6 and 4.8 m: 0.08 and 0.12 m per frame, median
  // 0.10), a still one of 10; a span of 12 frames is shorter than 20 (0 m), one of 30 gets 3 m.
  const spanItem = (id: string, frames: number, metres: number) => makeItem(id, "distance", { kind: "distance", metres }, { media: { source: { video: "/x.mp4" }, spec: { mode: "uniform", count: 8 }, display: "x.mp4", fps: null, span: { first_frame: 0, last_frame: frames - 1 } } });
  const [a, b, c, short, long] = await egotlAudit.units([spanItem("a", 20, 1.6), spanItem("b", 40, 4.8), spanItem("c", 10, 0), spanItem("d", 12, 1), spanItem("e", 30, 1)], { root: "", cues: false });
  const fitted = rule("distance-by-span").fit([a!, b!, c!]);
  assert.equal(fitted(short!), "0");
  assert.equal(fitted(long!), "3");
});

test("redrawn answers: every blind rule of every option or direction task stays within 0.1 of chance", async () => {
  const sets: Array<[EgoTLTask, EgoTLItem[]]> = [
    ["next_action", nextActionItems(createRng(21))],
    ["action_recognition", recognitionItems(createRng(22))],
    ["scene_action", sceneItems(createRng(23))],
    ["planning", planningItems(createRng(24))],
    ["direction", directionItems()],
  ];
  // The mean over four redraws: label-by-span's neighbourhoods share labels, so one redraw of 200
  // items varies more than the binomial 0.03 (0.15-0.28 over six seeds).
  const redraws = [25, 26, 27, 28].map((seed) => createRng(seed));
  let checked = 0;
  for (const [task, planted] of sets) {
    const draws = redraws.map((rng) => redrawn(planted, rng));
    const chance = egotlAudit.chance(draws[0]!, task)!;
    for (const r of egotlAudit.rules.filter((r) => !r.cue && (!r.tasks || r.tasks.includes(task)))) {
      let sum = 0;
      for (const items of draws) sum += (await ruleScore(r.name, items, task)).score!;
      const mean = sum / draws.length;
      assert.ok(Math.abs(mean - chance) < 0.1, `${task} ${r.name}: ${mean} against chance ${chance}`);
      checked++;
    }
  }
  // first-mentioned on 2 tasks, most_similar on 4, both priors on 5, coherent-plan and label-by-span on 1.
  assert.equal(checked, 2 + 4 + 5 + 5 + 1 + 1);
});

// ---------------------------------------------------------------------------------------------
// (3) units agree with the benchmark's scorer on every item of the example set

test("example set: a candidate's label is the credit its reply earns from readReply + scoreItem", async () => {
  const { items, problems } = loadEgoTL(EXAMPLE);
  assert.deepEqual(problems, []);
  const units = await egotlAudit.units(items, { root: EXAMPLE, cues: false });
  assert.deepEqual(units.map((u) => u.id), items.map((i) => i.id));
  const credit = (item: EgoTLItem, reply: string) => egotlAudit.credit(item, egotl.scoreItem(item, egotl.readReply(item, reply, {})));
  let candidates = 0;
  units.forEach((unit, k) => {
    const item = items[k]!;
    assert.equal(unit.task, item.task);
    assert.equal(unit.cluster, item.cluster);
    if (unit.answer.kind === "number") {
      assert.equal(credit(item, unit.answer.reply(unit.answer.truth)), 1, unit.id);
      assert.ok(credit(item, unit.answer.reply(unit.answer.truth * 3 + 1)) < 1, unit.id);
      return;
    }
    assert.equal(unit.answer.kind, "choice");
    const list = unit.answer.candidates;
    assert.equal(list.length, item.task === "direction" ? 5 : 4, unit.id);
    assert.equal(list.filter((c) => c.label === 1).length, 1, unit.id);
    for (const c of list) {
      assert.equal(credit(item, c.reply), c.label, `${unit.id}: ${c.reply}`);
      candidates++;
    }
  });
  assert.equal(candidates, 4 * 14 + 5 * 4);
  // The text is the prompt's: system prompt and the question with its options.
  const na = units.find((u) => u.task === "next_action")!;
  const naItem = items.find((i) => i.id === na.id)!;
  assert.ok(na.text.startsWith("You are an embodied assistant"));
  assert.ok(na.text.includes(naItem.chainOfThought!) && naItem.options!.every((o) => na.text.includes(`- ${o}`)));
  assert.ok(na.text.includes("These 8 frames come from a short clip"));
  // The option the plan names first: right on every next-action item before issue 29, on none of
  // the 4 now (the answer's place among the options in plan order is drawn at random; counted on
  // test.jsonl by the first index of each option in the chain of thought).
  const firstNamed = crossValidated(rule("first-mentioned"), units);
  assert.equal(scoreReplies(items, firstNamed, "next_action").score, 0);
});

test("cues: the clip's frames and seconds from the episode video's timestamps (10 fps)", async () => {
  const { items } = loadEgoTL(EXAMPLE, { tasks: ["distance"] });
  const item = items.find((i) => i.id === "house_002_ep01-distance-c22")!; // frames 658..679
  const [unit] = await egotlAudit.units([item], { root: EXAMPLE, cues: true });
  assert.equal(unit!.cues!["clip_frames"], 22);
  assert.ok(Math.abs(unit!.cues!["clip_seconds"]! - 2.2) < 1e-6, String(unit!.cues!["clip_seconds"]));
  assert.equal(unit!.features["span_frames"], 22);
  // The prompt labels a span's frames from its start (0..21 here), so where it lies is no feature.
  assert.equal(unit!.features["span_first_frame"], undefined);
});

// ---------------------------------------------------------------------------------------------
// (4) subsets in the release layout

test("writeSubset: the kept rows byte for byte, their media copied; load gives exactly the kept items", async () => {
  const { items } = loadEgoTL(EXAMPLE);
  const keep = new Set(items.filter((_, i) => i % 3 === 0).map((i) => i.id));
  const out = mkdtempSync(path.join(os.tmpdir(), "egotl-audit-subset-"));
  try {
    await egotlAudit.writeSubset(EXAMPLE, items, keep, out);
    const loaded = loadEgoTL(out);
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.items.map((i) => i.id), items.filter((i) => keep.has(i.id)).map((i) => i.id));
    const relative = (item: EgoTLItem, root: string) => JSON.parse(JSON.stringify({ ...item, line: 0 }).split(JSON.stringify(root).slice(1, -1)).join("<root>"));
    const before = items.filter((i) => keep.has(i.id)).map((i) => relative(i, EXAMPLE));
    assert.deepEqual(loaded.items.map((i) => relative(i, out)), before);
    const rows = readFileSync(path.join(EXAMPLE, "test.jsonl"), "utf8").split("\n").filter((line, i) => items.some((it) => it.line === i + 1 && keep.has(it.id)));
    assert.equal(readFileSync(path.join(out, "test.jsonl"), "utf8"), rows.map((r) => `${r}\n`).join(""));
    assert.equal(readFileSync(path.join(out, "train.jsonl"), "utf8"), readFileSync(path.join(EXAMPLE, "train.jsonl"), "utf8"));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------
// (5) chance and headline

test("chance: 1/4 for the option tasks, 1/5 for direction, none for distance or an absent task", () => {
  const items = [...recognitionItems(createRng(12)).slice(0, 3), ...directionItems().slice(0, 2), ...distanceItems().slice(0, 2)];
  assert.equal(egotlAudit.chance(items, "action_recognition"), 0.25);
  assert.equal(egotlAudit.chance(items, "direction"), 0.2);
  assert.equal(egotlAudit.chance(items, "distance"), null);
  assert.equal(egotlAudit.chance(items, "planning"), null);
});

test("headline: the task's accuracy or MRA and its bootstrap interval from summarize()", () => {
  const summary = { n: 2, score: 0.5, tasks: { next_action: { accuracy: 0.5, ci: { accuracy: [0.25, 0.75] } }, distance: { MRA: 0.3, ci: {} } }, counts: { parse_failures: 0, errors: 0, missing: 0 } };
  assert.deepEqual(egotlAudit.headline(summary, "next_action"), { metric: "accuracy", score: 0.5, ci: [0.25, 0.75] });
  assert.deepEqual(egotlAudit.headline(summary, "distance"), { metric: "MRA", score: 0.3, ci: null });
  assert.deepEqual(egotlAudit.headline(summary, "planning"), { metric: "accuracy", score: null, ci: null });
});
