import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { heldOutReplies, summaryOfReplies } from "../../helpers/audit.js";
import { epicAudit, statedNumber } from "../../../src/benchmarks/epic/audit.js";
import { epic } from "../../../src/benchmarks/epic/index.js";
import { LEAF_TASKS } from "../../../src/benchmarks/epic/taxonomy.js";
import type { EpicItem } from "../../../src/benchmarks/epic/types.js";
import type { AuditUnit, BlindRule, Candidate } from "../../../src/audit/types.js";
import { BitMask } from "../../../src/geometry/mask.js";
import { encodeRle } from "../../../src/geometry/rle.js";
import { encodePng } from "../../../src/media/png.js";
import { createRng } from "../../../src/stats/rng.js";

const EXAMPLES = path.resolve(import.meta.dirname, "../../../examples/epic-mini");
const CONFORMANCE = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance");
const GD = "Navigation/GroundDetection";
const TL = "TargetLocalization/BasicAttributes/Category";
const AR = "Manipulation/AffordanceRegion";
const leafOf = (task: string) => LEAF_TASKS.find((l) => l.byType === task)!;
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-audit-"));
const rule = (name: string): BlindRule => epicAudit.rules.find((r) => r.name === name)!;
const candidates = (u: AuditUnit): Candidate[] => (u.answer.kind === "choice" ? u.answer.candidates : []);

/** A rule's replies on held-out folds (unit i is in fold i mod k), scored by the benchmark's own readReply, scoreItem and summarize. */
const crossValidated = (r: BlindRule, items: EpicItem[], units: AuditUnit[], folds = 4) => summaryOfReplies(epic, items, heldOutReplies(r, units, folds), units, []);

/** An in-memory sample whose scored mask is `rect` (pixel box, exclusive ends) or no target. */
function boxItem(task: string, k: number, rect: [number, number, number, number] | null, size: [number, number] = [40, 30]): EpicItem {
  const [W, H] = size;
  const leaf = leafOf(task);
  const mask = rect ? BitMask.fromBoxes([rect], W, H) : null;
  const tl = leaf.category === "TargetLocalization";
  return {
    id: `${task}/${String(k).padStart(4, "0")}_mask_rle.json`, task, cluster: `scene${k % 5}`, leaf,
    images: ["/nowhere/picture.png"], imageRefs: ["picture.png"],
    text: tl ? { text_label: "the chair", count_target_instance: rect ? 1 : 0, precise_count: true } : {},
    masks: { [tl ? "masklet_target" : "masklet_ground"]: mask ? [encodeRle(mask)] : [] },
    width: W, height: H, gtFile: "",
  };
}

/** IoU of two pixel boxes, counted pixel by pixel. */
function boxIou(a: readonly number[], b: readonly number[], W: number, H: number): number {
  let inter = 0, union = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inA = x >= a[0]! && x < a[2]! && y >= a[1]! && y < a[3]!;
      const inB = x >= b[0]! && x < b[2]! && y >= b[1]! && y < b[3]!;
      if (inA && inB) inter++;
      if (inA || inB) union++;
    }
  }
  return union === 0 ? 1 : inter / union;
}

test("planted: a ground that is always the bottom half is found by bottom-half and the best constant per task (mean score 1)", async () => {
  const items = Array.from({ length: 20 }, (_, k) => boxItem(GD, k, [0, 15, 40, 30]));
  const units = await epicAudit.units(items, { root: "/nowhere", cues: false });
  for (const name of ["bottom-half", "best-constant-per-task"]) {
    const h = epicAudit.headline(crossValidated(rule(name), items, units), GD);
    assert.deepEqual(h, { metric: "mean score", score: 1, ci: null, meanOfCredit: true }, name);
  }
  // The whole image covers twice the ground: IoU 1/2 on every sample.
  assert.equal(epicAudit.headline(crossValidated(rule("whole-image"), items, units), GD).score, 0.5);
});

test("planted: Target Localization with no target ever is found by the empty reply and the best constant", async () => {
  const items = Array.from({ length: 12 }, (_, k) => boxItem(TL, k, null));
  const units = await epicAudit.units(items, { root: "/nowhere", cues: false });
  for (const name of ["empty", "best-constant-per-task"]) assert.equal(epicAudit.headline(crossValidated(rule(name), items, units), TL).score, 1, name);
  assert.deepEqual(units.map((u) => u.answerClass), items.map(() => "count 0"));
  // One box, count 1, against no target: localization 0, count 0.
  assert.equal(epicAudit.headline(crossValidated(rule("whole-image"), items, units), TL).score, 0);
});

test("redrawn at random: no rule beats the best constant chosen in hindsight (by pixel-counted IoU) by more than 0.05", async () => {
  const rng = createRng(26);
  const rects = Array.from({ length: 40 }, () => {
    const x = rng.int(0, 30), y = rng.int(0, 20);
    return [x, y, x + rng.int(4, 40 - x), y + rng.int(4, 30 - y)] as [number, number, number, number];
  });
  const items = rects.map((r, k) => boxItem(GD, k, r));
  const units = await epicAudit.units(items, { root: "/nowhere", cues: false });
  // Hindsight: the mean IoU of each menu box with the truth, counted here pixel by pixel; the best of them bounds what a constant can do.
  const menuBoxes = candidates(units[0]!).map((c) => (JSON.parse(c.reply) as { bounding_boxes: number[][] }).bounding_boxes[0] ?? null);
  const hindsight = Math.max(...menuBoxes.map((b) => (b ? rects.reduce((s, r) => s + boxIou(b, r, 40, 30), 0) / rects.length : 0)));
  assert.ok(hindsight < 0.3, `best constant in hindsight ${hindsight}`);
  for (const r of epicAudit.rules.filter((x) => !x.cue && (!x.tasks || x.tasks.includes(GD)))) {
    const score = epicAudit.headline(crossValidated(r, items, units), GD).score!;
    assert.ok(score <= hindsight + 0.05, `${r.name}: ${score} vs ${hindsight}`);
  }
  // The labels are those IoUs (the scorer's, computed from the summed mask), sample by sample.
  units.forEach((u, k) => candidates(u).forEach((c, i) => assert.ok(Math.abs(c.label - (menuBoxes[i] ? boxIou(menuBoxes[i]!, rects[k]!, 40, 30) : 0)) < 1e-12)));
});

/** A folder of Affordance Region samples, 64 x 48 (one picture cell a pixel): a grey scene and an overlay tinting `tint`, scored on `target`. */
async function tintSet(pairs: Array<{ tint: number[]; target: number[] }>): Promise<string> {
  const root = tmp();
  const dir = path.join(root, "EPIC_Bench/Manipulation/AffordanceRegion");
  mkdirSync(dir, { recursive: true });
  const [W, H] = [64, 48];
  const grey = new Uint8Array(W * H * 3).fill(128);
  for (const [k, { tint, target }] of pairs.entries()) {
    const base = String(k + 1).padStart(4, "0");
    const overlay = Uint8Array.from(grey);
    for (let y = tint[1]!; y < tint[3]!; y++) for (let x = tint[0]!; x < tint[2]!; x++) overlay.set([192, 64, 64], 3 * (y * W + x)); // 50 % red over grey
    writeFileSync(path.join(dir, `${base}_image.png`), await encodePng(grey, W, H, 3));
    writeFileSync(path.join(dir, `${base}_reference_area_overlay.png`), await encodePng(overlay, W, H, 3));
    const rle = (b: number[]) => encodeRle(BitMask.fromBoxes([b], W, H));
    writeFileSync(path.join(dir, `${base}_mask_rle.json`), JSON.stringify({
      mask_annotation: { masklet_affordance_region: [rle(target)], masklet_reference_area: [rle(tint)] },
      text_annotation: { text_label: "open it", reference_object_description_en: "the door" },
    }));
  }
  return root;
}

test("cue: a target that is the tinted area is found by the overlay-tint box; tint and target drawn apart leave it at their IoU", async () => {
  const rng = createRng(7);
  const rect = () => {
    const x = rng.int(0, 48), y = rng.int(0, 32);
    return [x, y, x + rng.int(6, 16), y + rng.int(6, 16)];
  };
  const planted = Array.from({ length: 6 }, () => rect()).map((r) => ({ tint: r, target: r }));
  const apart = Array.from({ length: 6 }, () => ({ tint: rect(), target: rect() }));
  for (const [pairs, want] of [[planted, 1], [apart, apart.reduce((s, p) => s + boxIou(p.tint, p.target, 64, 48), 0) / apart.length]] as const) {
    const root = await tintSet(pairs);
    try {
      const { items } = epic.load(root);
      const units = await epicAudit.units(items, { root, cues: true });
      const got = epicAudit.headline(crossValidated(rule("overlay-tint-box"), items, units), AR).score!;
      assert.ok(Math.abs(got - want) < 1e-12, `${got} vs ${want}`);
      // The tint's extent as cues, in fractions of the picture.
      assert.deepEqual([units[0]!.cues!["tint_x0"], units[0]!.cues!["tint_y1"]], [pairs[0]!.tint[0]! / 64, pairs[0]!.tint[3]! / 48]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
});

test("units: every candidate's label is the score scoreItem gives its reply, on the example set and the conformance fixture", async () => {
  const sizes = { counted: 33, boxes: 17, placement: 34, path: 10 };
  for (const root of [EXAMPLES, CONFORMANCE]) {
    const { items, problems } = epic.load(root);
    assert.deepEqual(problems, []);
    const units = await epicAudit.units(items, { root, cues: false });
    assert.deepEqual(units.map((u) => u.id), items.map((i) => i.id));
    const byId = new Map(items.map((i) => [i.id, i]));
    let checked = 0;
    for (const u of units) {
      const item = byId.get(u.id)!;
      const cands = candidates(u);
      const kind = item.leaf.group === "FeasiblePath" ? "path" : item.leaf.leaf === "PlacementRegion" ? "placement" : item.leaf.leaf === "GroundDetection" || item.leaf.leaf === "AffordanceRegion" ? "boxes" : "counted";
      assert.equal(cands.length, sizes[kind], u.id);
      for (const c of cands) {
        const answer = epic.readReply(item, c.reply, u.prompt);
        assert.equal(answer.status, "ok", `${u.id}: ${c.reply}`);
        const score = epic.scoreItem(item, answer, u.prompt)["score"] as number;
        assert.ok(Math.abs(score - c.label) <= 1e-12, `${u.id} ${c.text}: scorer ${score}, label ${c.label}`);
        assert.equal(epicAudit.credit(item, epic.scoreItem(item, answer, u.prompt)), score);
        checked++;
      }
      // The prompt's words reach the text, the pictures do not.
      assert.ok(u.text.includes("JSON") && !u.text.includes("base64"), u.id);
    }
    assert.ok(checked > 1200, `${root}: ${checked}`);
  }
});

test("a sample with no mask of its own size gets its picture's size, so the size does not tell the text forest \"no target\"", async () => {
  const { items } = epic.load(EXAMPLES);
  const maskless = items.filter((i) => i.width === 0);
  assert.ok(maskless.length > 0, "the example set has a no-target sample without any mask");
  const units = await epicAudit.units(items, { root: EXAMPLES, cues: false });
  // Every picture of examples/epic-mini is 512 x 384 (its README: size 512 x 384).
  for (const u of units) assert.deepEqual([u.features["image_width"], u.features["image_height"]], [512, 384], u.id);
});

test("rules: every reply is read as a valid answer on the tasks the rule names (example set, with cues)", async () => {
  const { items } = epic.load(EXAMPLES);
  const units = await epicAudit.units(items, { root: EXAMPLES, cues: true });
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const r of epicAudit.rules) {
    const reply = r.fit(units);
    for (const u of units.filter((x) => !r.tasks || r.tasks.includes(x.task))) {
      assert.equal(epic.readReply(byId.get(u.id)!, reply(u), u.prompt).status, "ok", `${r.name} on ${u.id}`);
    }
  }
  // Cues: the tint is measured only where an overlay is shown.
  for (const u of units) assert.equal(u.cues!["tint_share"]! >= 0, !u.task.startsWith("TargetLocalization") && u.task !== GD, u.id);
});

test("writeSubset: the kept samples load back identical, their files byte for byte", async () => {
  const { items } = epic.load(EXAMPLES);
  const keep = new Set(items.filter((_, i) => i % 3 === 0).map((i) => i.id));
  const out = tmp();
  try {
    await epicAudit.writeSubset(EXAMPLES, items, keep, out);
    const back = epic.load(out);
    assert.deepEqual(back.problems, []);
    assert.deepEqual(back.items.map((i) => i.id), [...keep].sort());
    const strip = (i: EpicItem) => ({ ...i, images: undefined, gtFile: undefined });
    const before = new Map(items.map((i) => [i.id, i]));
    for (const item of back.items) {
      assert.deepEqual(strip(item), strip(before.get(item.id)!));
      for (const ref of [item.id, ...item.imageRefs]) assert.ok(readFileSync(path.join(out, ref)).equals(readFileSync(path.join(EXAMPLES, ref))), ref);
    }
    assert.ok(back.items.some((i) => i.leaf.leaf === "VisualMatching" || i.imageRefs.length > 1));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("headline is tasks[task].mean_score (the paper's per-task score); chance is null: no EPIC score has an exact chance level", () => {
  const summary = { n: 3, score: 0.5, score_ci: [0.25, 0.75], tasks: { [GD]: { total_processed: 2, num_invalid_response: 0, mean_score: 0.625 } }, counts: { parse_failures: 0, errors: 0, missing: 0 } };
  assert.deepEqual(epicAudit.headline(summary, GD), { metric: "mean score", score: 0.625, ci: null, meanOfCredit: true });
  assert.deepEqual(epicAudit.headline(summary, TL), { metric: "mean score", score: null, ci: null, meanOfCredit: true });
  assert.deepEqual(epicAudit.headline(summary, "overall"), { metric: "mean score", score: 0.5, ci: [0.25, 0.75] });
  // Ground Detection is an IoU: a random box's expected IoU depends on the random model, so there is no exact chance.
  const items = [boxItem(GD, 0, [0, 15, 40, 30]), boxItem(GD, 1, [0, 0, 40, 30])];
  for (const task of [GD, TL, AR]) assert.equal(epicAudit.chance(items, task), null);
});

test("statedNumber reads the first number a description states", () => {
  assert.deepEqual(["the two chairs", "3 cups on 2 shelves", "a lamp", "Seven of them"].map(statedNumber), [2, 3, -1, 7]);
});
