import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fittedReplies, summaryOfReplies } from "../../helpers/audit.js";
import type { AuditUnit, BlindRule } from "../../../src/audit/types.js";
import { vcnAudit, positionClass, firstNamed, pickIndexByCue } from "../../../src/benchmarks/vcn/audit.js";
import { vcn, type VcnItem } from "../../../src/benchmarks/vcn/index.js";
import { createRng } from "../../../src/stats/rng.js";

const repo = path.resolve(import.meta.dirname, "../../..");
const example = path.join(repo, "examples/vcn-mini");

/** Score one rule's replies with the benchmark's own reader, scorer and summary (what the audit core does). */
const scoreRule = (items: VcnItem[], units: AuditUnit[], rule: BlindRule, train: AuditUnit[] = units) => summaryOfReplies(vcn, items, fittedReplies(rule, units, train), units);

const rule = (name: string) => vcnAudit.rules.find((r) => r.name === name)!;

/**
 * A made-up Order question: `n` frames in hallway "h", three bedrooms b0, b1, b2 seen at
 * `bedroomFrames` (one frame each), the target being bedroom `target`. A dresser is seen only in
 * the target bedroom's frame. Category chance 1/3, complete chance 1/n.
 */
function makeItem(id: string, n: number, bedroomFrames: [number, number, number], target: 0 | 1 | 2, scene = "house_1"): VcnItem {
  const annotations = Array.from({ length: n }, (_, k) => {
    const b = bedroomFrames.indexOf(k);
    return b < 0
      ? { index: k, room: "h", room_category: "hallway", objects: [], visible_rooms: [] }
      : { index: k, room: `b${b}`, room_category: "bedroom", objects: b === target ? [{ id: "dresser_1", category: "dresser" }] : [], visible_rooms: [] };
  });
  return {
    id,
    rawId: id,
    task: "order",
    cluster: scene,
    scene,
    instruction: "Go to the bedroom that was visited after reaching the current room in the video. Locate the dresser.",
    tour: { source: { dir: "/nowhere" }, spec: { mode: "all" }, display: "tour" } as VcnItem["tour"],
    annotations,
    target: { kind: "room", room: `b${target}`, category: "bedroom" },
    views: { front: "/nowhere/f.png", left: "/nowhere/l.png", back: "/nowhere/b.png", right: "/nowhere/r.png" },
    source: { file: "items.jsonl", line: 1 },
  };
}

/** `count` items of 10 frames; planted: the target bedroom is always the last frame; else everything is drawn at random. */
function makeSet(planted: boolean, count: number, seed: number): VcnItem[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, k) => {
    const frames = rng.shuffle([...Array(10).keys()]).slice(0, 3) as [number, number, number];
    if (planted) {
      frames.sort((a, b) => a - b);
      frames[2] = 9;
      if (frames[1] === 9) frames[1] = 8;
      if (frames[0] >= frames[1]) frames[0] = frames[1] - 1;
    }
    const target = planted ? 2 : (rng.below(3) as 0 | 1 | 2);
    return makeItem(`q${k}`, 10, frames, target, `house_${k % 7}`);
  });
}

test("planted shortcut (the goal is always the last frame): last-frame and the position prior score 1.0 Rid-SR through the benchmark's scorer", async () => {
  const items = makeSet(true, 60, 11);
  const units = await vcnAudit.units(items, { root: "/nowhere", cues: true });
  for (const name of ["last-frame", "position-prior", "last-frame-of-named-category"]) {
    const summary = scoreRule(items, units, rule(name));
    assert.deepEqual(vcnAudit.headline(summary, "order"), { metric: "Rid-SR", score: 1, ci: null }, name);
  }
  assert.equal(vcnAudit.headline(scoreRule(items, units, rule("first-frame")), "order").score, 0);
  // The target is the last of the three bedroom frames, never the first.
  assert.equal(vcnAudit.headline(scoreRule(items, units, rule("first-frame-of-named-category")), "order").score, 0);
  // The dresser is seen only in the target's frame: the detector cue (instance count without tour.json) finds it.
  assert.equal(vcnAudit.headline(scoreRule(items, units, rule("most-pixels-of-named-object")), "order").score, 1);
  assert.ok(units.every((u) => u.answerClass === "last frame"));
  // Category chance: one of the three bedroom frames succeeds.
  assert.ok(Math.abs(vcnAudit.chance(items, "order")! - 1 / 3) < 1e-12);
});

test("answers drawn at random: blind rules stay near the complete chance 1/10, cue rules near the category chance 1/3", async () => {
  const items = makeSet(false, 300, 5);
  const units = await vcnAudit.units(items, { root: "/nowhere", cues: true });
  const train = units.slice(0, 150);
  const held = units.slice(150);
  const heldItems = items.slice(150);
  // 150 held-out items: a binomial sd of sqrt(0.1 * 0.9 / 150) = 0.024 (cue rules: 0.038); bounds are about 3 sd.
  for (const name of ["first-frame", "last-frame", "middle-frame", "position-prior"]) {
    const score = vcnAudit.headline(scoreRule(heldItems, held, rule(name), train), "order").score!;
    assert.ok(Math.abs(score - 0.1) <= 0.075, `${name}: ${score}`);
  }
  // The last bedroom frame is the target a third of the time; the dresser is seen in the target's frame only (a detector finds it).
  const lastBedroom = vcnAudit.headline(scoreRule(heldItems, held, rule("last-frame-of-named-category"), train), "order").score!;
  assert.ok(Math.abs(lastBedroom - 1 / 3) <= 0.12, `last-frame-of-named-category: ${lastBedroom}`);
  const firstBedroom = vcnAudit.headline(scoreRule(heldItems, held, rule("first-frame-of-named-category"), train), "order").score!;
  assert.ok(Math.abs(firstBedroom - 1 / 3) <= 0.12, `first-frame-of-named-category: ${firstBedroom}`);
});

test("a cue rule's pick: the highest positive score, the latest or the earliest at a tie; the last frame when no score is positive", () => {
  assert.equal(pickIndexByCue([0, 1, 0, 1, 0]), 3);
  assert.equal(pickIndexByCue([0, 1, 0, 1, 0], true), 1);
  assert.equal(pickIndexByCue([0, 2, 0, 5, 5, 1], true), 3);
  assert.equal(pickIndexByCue([0, 2, 0, 5, 5, 1]), 4);
  assert.equal(pickIndexByCue([0, 0, 0], true), 2);
  assert.equal(pickIndexByCue([], true), -1);
});

test("units(): on every example item, each candidate's label is the credit the benchmark's scorer gives its reply", async () => {
  const { items, problems } = vcn.load(example);
  assert.deepEqual(problems, []);
  const units = await vcnAudit.units(items, { root: example, cues: false });
  assert.equal(units.length, 15);
  let candidates = 0;
  for (const [k, unit] of units.entries()) {
    const item = items[k]!;
    assert.equal(unit.id, item.id);
    assert.ok(unit.answer.kind === "choice");
    assert.equal(unit.answer.candidates.length, item.annotations.length);
    for (const c of unit.answer.candidates) {
      const detail = vcn.scoreItem(item, vcn.readReply(item, c.reply, unit.prompt), unit.prompt);
      assert.equal(vcnAudit.credit(item, detail), c.label, `${item.id} ${c.reply}`);
      candidates++;
    }
    assert.ok(unit.text.includes(`Instruction: ${item.instruction}`));
    assert.ok(unit.text.includes(`Below are ${item.annotations.length} frames`));
  }
  assert.equal(candidates, items.reduce((s, i) => s + i.annotations.length, 0));
});

test("cues on the example set read tour.json pixels; the named category comes from the instruction text", async () => {
  const { items } = vcn.load(example);
  const units = await vcnAudit.units(items.slice(0, 1), { root: example, cues: true });
  const unit = units[0]!;
  // vcn_0001 names a room category ("the second bedroom that was visited") and the dresser.
  assert.equal(items[0]!.instruction, "Proceed to the second bedroom that was visited in the video. Locate the dresser.");
  assert.deepEqual(unit.cues, { room_category_named: 1, object_category_named: 1, pixels_known: 1 });
  const tour = JSON.parse(readFileSync(path.join(example, "tours/house_001/tour_0/tour.json"), "utf8")) as { frames: Array<{ index: number; objects: Array<{ category: string; pixels: number }> }> };
  const item = items[0]!;
  assert.ok(unit.answer.kind === "choice");
  for (const [k, c] of unit.answer.candidates.entries()) {
    const expected = tour.frames[item.annotations[k]!.source_index!]!.objects.filter((o) => o.category === "dresser").reduce((s, o) => s + o.pixels, 0);
    assert.equal(c.cues!["named_object_pixels"], expected);
  }
  assert.equal(firstNamed("Proceed to the second bedroom. Locate the bed.", ["bed", "bedroom", "dining room"]), "bedroom");
  assert.equal(firstNamed("Find the gray dresser nearest to the trash can.", ["trash can", "dresser"]), "dresser");
  assert.equal(positionClass([0, 0, 0, 1, 0, 0]), "middle third");
  assert.equal(positionClass([1, 0, 0, 0]), "first frame");
});

test("the example set: last-frame scores 0 on every type (each window goes on past its target; issue 26 found Rid-SR 41.7 before)", async () => {
  const { items } = vcn.load(example);
  const units = await vcnAudit.units(items, { root: example, cues: false });
  const summary = scoreRule(items, units, rule("last-frame"));
  // From the annotations alone: the last frame is never in the target room nor shows the target object.
  const lastShowsTarget = (i: (typeof items)[number]) => {
    const a = i.annotations.at(-1)!;
    return i.target.kind === "room" ? a.room === i.target.room : a.objects.some((o) => o.id === (i.target as { object: string }).object);
  };
  assert.equal(items.filter(lastShowsTarget).length, 0);
  assert.deepEqual(["count", "order", "distance", "orientation", "instance"].map((t) => vcnAudit.headline(summary, t).score), [0, 0, 0, 0, 0]);
  assert.equal(vcnAudit.headline(summary, "instance").metric, "Oid-SR");
  assert.equal((summary["Rid-SR"] as { mean_of_types: number }).mean_of_types, 0);
  const withCi = vcn.summarize(items, [], ["count"], { bootstrapResamples: 0, bootstrapSeed: 0 });
  assert.deepEqual(vcnAudit.headline(withCi, "count"), { metric: "Rid-SR", score: null, ci: null });
});

test("chance(): the exact category chance, averaged over a task's items", () => {
  // Item 1: bedrooms at frames 2, 5, 8, target b1 -> 1/3. Item 2: bedroom frames 0, 1, 4, 7, 9, of which 7 and 9 are the target b2 -> 2/5.
  const one = makeItem("a", 10, [2, 5, 8], 1);
  const two = makeItem("b", 10, [1, 4, 7], 2);
  two.annotations[9] = { index: 9, room: "b2", room_category: "bedroom", objects: [], visible_rooms: [] };
  two.annotations[0] = { index: 0, room: "b9", room_category: "bedroom", objects: [], visible_rooms: [] };
  assert.equal(vcnAudit.chance([one, two], "order"), (1 / 3 + 2 / 5) / 2);
  assert.equal(vcnAudit.chance([one, two], "count"), null);
});

test("writeSubset: the kept items load back identical from the written folder", async () => {
  const { items } = vcn.load(example);
  const keep = new Set(["vcn_0002", "vcn_0007", "vcn_0012"]);
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-audit-"));
  try {
    await vcnAudit.writeSubset(example, items, keep, out);
    const back = vcn.load(out);
    assert.deepEqual(back.problems, []);
    assert.deepEqual(back.items.map((i) => i.id), ["vcn_0002", "vcn_0007", "vcn_0012"]);
    const strip = (i: VcnItem, root: string) => JSON.parse(JSON.stringify(i).split(root).join("<root>")) as unknown;
    for (const item of back.items) {
      const original = items.find((i) => i.id === item.id)!;
      assert.deepEqual(strip(item, out), { ...(strip(original, example) as object), source: item.source });
    }
    const lines = readFileSync(path.join(out, "items.jsonl"), "utf8").split("\n").filter(Boolean);
    const originalLines = readFileSync(path.join(example, "items.jsonl"), "utf8").split("\n");
    assert.deepEqual(lines, [originalLines[1], originalLines[6], originalLines[11]]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
