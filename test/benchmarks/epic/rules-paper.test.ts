import assert from "node:assert/strict";
import { test } from "node:test";
import { formatReply } from "../../../src/benchmarks/epic/format.js";
import { stdFields } from "../../../src/benchmarks/epic/index.js";
import { RULE_DIFFERENCES, rulesOption, rulesRecord } from "../../../src/benchmarks/epic/rules.js";
import { countScore, pathScore, scoreSample, segmentInMaskExact, weightsFor, type EpicRules, type GroundTruth } from "../../../src/benchmarks/epic/score.js";
import { BitMask } from "../../../src/geometry/mask.js";
import { leafTask } from "../../../src/benchmarks/epic/taxonomy.js";
import type { EpicItem, RleJson } from "../../../src/benchmarks/epic/types.js";

/** COCO RLE (column-major runs, zeros first) of the pixels with x0 <= x <= x1 and y0 <= y <= y1. */
function rectRle(W: number, H: number, x0: number, x1: number, y0: number, y1: number): RleJson {
  const counts: number[] = [];
  let current = 0, run = 0;
  for (let x = 0; x < W; x++) {
    for (let y = 0; y < H; y++) {
      const v = x >= x0 && x <= x1 && y >= y0 && y <= y1 ? 1 : 0;
      if (v === current) run++;
      else { counts.push(run); current = v; run = 1; }
    }
  }
  counts.push(run);
  return { size: [H, W], counts };
}

function item(leaf: string, W: number, H: number, masks: Record<string, RleJson[]>, text: Record<string, unknown> = {}): EpicItem {
  const task = leafTask(leaf)!;
  return { id: `EPIC_Bench/${leaf}/0001_mask_rle.json`, task: task.byType, cluster: "c", leaf: task, images: [], imageRefs: [], text, masks, height: H, width: W, gtFile: "" };
}

const gt = (count: number, preciseCount: boolean, countInDescription: boolean): GroundTruth => ({ count, preciseCount, countInDescription, feasibility: null });
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12;
const both = (f: (rules: EpicRules) => number) => ({ official: f("official"), paper: f("paper") });

test("--rules values: official (default) or paper; anything else is a usage error", () => {
  assert.equal(rulesOption(undefined), "official");
  assert.equal(rulesOption("paper"), "paper");
  assert.throws(() => rulesOption("code"), /official or paper/);
  const record = rulesRecord("paper");
  assert.equal(record.in_force, "paper");
  assert.deepEqual(Object.keys(record.differences), RULE_DIFFERENCES.map((d) => d.key));
});

test("count exactness: a count stated in the description is exact officially, soft in the paper", () => {
  // gt 3, pred 2, precise_count false, count_in_description true.
  // official: exact -> 0. paper: 1 - |3 - 2| / 3 = 2/3.
  const s = both((rules) => countScore([2], gt(3, false, true), rules).score);
  assert.equal(s.official, 0);
  assert.ok(close(s.paper, 2 / 3), String(s.paper));
  // precise_count true: exact under both (pred 2 != 3 -> 0).
  assert.deepEqual(both((rules) => countScore([2], gt(3, true, false), rules).score), { official: 0, paper: 0 });
});

test("count weights: CR's 0.1 for a described count is the official code's; the paper keeps 0.1 for TL only", () => {
  const cr = leafTask("ContactRelationship_TypeOne")!;
  const tl = leafTask("Color")!;
  // CR, described count, not precise: official 0.9/0.1; paper (Table 3: CR 0.3 when not precise) 0.7/0.3.
  assert.deepEqual(weightsFor(cr, gt(3, false, true), "official"), { localization: 0.9, count: 0.1 });
  assert.deepEqual(weightsFor(cr, gt(3, false, true), "paper"), { localization: 0.7, count: 0.3 });
  // CR, described count, precise: official 0.9/0.1; paper 0.5/0.5.
  assert.deepEqual(weightsFor(cr, gt(3, true, true), "paper"), { localization: 0.5, count: 0.5 });
  // TL, described count: 0.9/0.1 under both.
  for (const rules of ["official", "paper"] as const) assert.deepEqual(weightsFor(tl, gt(2, false, true), rules), { localization: 0.9, count: 0.1 });
  // VM: 0.5/0.5 under both.
  assert.deepEqual(weightsFor(leafTask("VisualMatching")!, gt(2, false, true), "paper"), { localization: 0.5, count: 0.5 });
});

test("a Contact Relationship sample with a described count, scored under both rules", () => {
  // 10x10 image; ground truth x 0..3, y 0..9 (40 px); count 3, described, not precise.
  const sample = item("ContactRelationship_TypeOne", 10, 10, { masklet_contact_target: [rectRle(10, 10, 0, 3, 0, 9)] }, { count_contact_target: [3], precise_count: [false], count_in_description: [true] });
  // Box [0,0,2,10] covers x 0..1 (20 px, all inside): IoU 20/40 = 0.5; count 2.
  const reply = stdFields(formatReply("ContactRelationship_TypeOne", '{"number_of_instances": 2, "bounding_boxes": [[0, 0, 2, 10]]}'));
  const s = both((rules) => scoreSample(sample, reply, { coordMode: "absolute", rules }).score);
  // official: 0.9 * 0.5 + 0.1 * 0 = 0.45. paper: 0.7 * 0.5 + 0.3 * (2/3) = 0.55.
  assert.ok(close(s.official, 0.45), String(s.official));
  assert.ok(close(s.paper, 0.55), String(s.paper));
});

test("exo path between two touching target areas: bottom-centre start officially, the two areas in the paper", () => {
  // 30x30, all walkable. Target areas: A = x 0..4 and B = x 5..9 (all rows): they touch, so the
  // union is one connected piece.
  const sample = item("FeasiblePath_Exo", 30, 30, {
    masklet_path: [rectRle(30, 30, 0, 29, 0, 29)],
    masklet_target_area: [rectRle(30, 30, 0, 4, 0, 29), rectRle(30, 30, 5, 9, 0, 29)],
  });
  const points = [[2, 15], [12, 15], [7, 15]];
  const s = both((rules) => pathScore(points, sample, "absolute", rules).score);
  // diag = sqrt(1800) = 42.43; every segment lies in the walkable area (traversable ratio 1).
  // Paper: the first point is in A, so A is the start and B the goal; D_SG = 1 (columns 4 and 5),
  //   continuity limit 2/3, so no step is continuous.
  //   to A: 0, 8, 3; to B: 3, 3, 0. start-end: first 1, last 1.
  //   p0 = 1; p1 = 0.4*1 + 0.2*away(8>0: 1) + 0.2*toward(3<3: 0) + 0.2*0 = 0.6;
  //   p2 = 0.3*1 + 0.4*1 + 0.1*away(3>8: 0) + 0.1*toward(0<3: 1) + 0.1*0 = 0.8; mean 2.4/3 = 0.8.
  assert.ok(close(s.paper, 0.8), String(s.paper));
  // Official: start (15, 29), goal A∪B (x <= 9); D_SG = 6 (to (9, 29)), continuity limit 4.
  //   to start: sqrt(365) = 19.10, sqrt(205) = 14.32, sqrt(260) = 16.12; to goal: 0, 3, 0.
  //   first start-end: max(0, 1 - 3 * 19.10 / 42.43) = 0; last 1.
  //   p0 = 0; p1 = 0.4*1 + 0.2*0 + 0.2*0 + 0.2*0 (step 10 > 4) = 0.4;
  //   p2 = 0.3*1 + 0.4*1 + 0.1*1 (16.12 > 14.32) + 0.1*1 (0 < 3) + 0.1*0 (step 5 > 4) = 0.9; mean 1.3/3.
  assert.ok(close(s.official, 1.3 / 3), String(s.official));
});

test("ego path with two points: scored officially, 0 in the paper (at least three required)", () => {
  // 30x30, all walkable; target area y 0..4 (all columns). Start (15, 29).
  const sample = item("FeasiblePath_Ego", 30, 30, { masklet_path: [rectRle(30, 30, 0, 29, 0, 29)], masklet_target_area: [rectRle(30, 30, 0, 29, 0, 4)] });
  // Official: p0 = (15, 29) is the start: start-end 1 -> 1. p1 = (15, 2) inside the goal: start-end 1,
  //   traversable 1, away 1 (27 > 0), toward 1 (0 < 25); no continuity with 2 points:
  //   (0.3 + 0.4 + 0.1 + 0.1) / 0.9 = 1. Mean 1.
  const s = both((rules) => pathScore([[15, 29], [15, 2]], sample, "absolute", rules).score);
  assert.deepEqual(s, { official: 1, paper: 0 });
});

test("three points filtered to two: the end point's continuity counts in the paper only", () => {
  const sample = item("FeasiblePath_Ego", 30, 30, { masklet_path: [rectRle(30, 30, 0, 29, 0, 29)], masklet_target_area: [rectRle(30, 30, 0, 29, 0, 4)] });
  // (15, 29) twice: the repeat is dropped (closer than diag/30 = 1.41), leaving the two points above.
  // D_SG = 25 ((15, 29) to (15, 4)), continuity limit 16.67; the last step is 27: not continuous.
  // Official: as before, 1. Paper: p1 = (0.3 + 0.4 + 0.1 + 0.1 + 0.1*0) / 1.0 = 0.9; mean (1 + 0.9) / 2 = 0.95.
  const s = both((rules) => pathScore([[15, 29], [15, 29], [15, 2]], sample, "absolute", rules).score);
  assert.equal(s.official, 1);
  assert.ok(close(s.paper, 0.95), String(s.paper));
});

test("traversable ratio: 50 samples officially, the exact length share in the paper (Eq. 3)", () => {
  // 20x20; walkable columns 0..4 (cells x < 4.5). Ego target area: row 0. Segment (0, 10) -> (10, 10).
  // Official: samples at x = 10 (i + 0.5) / 50 = 0.1, 0.3, ..., 9.9; round(x) <= 4 for x <= 4.5
  //   (4.5 rounds half to even, to 4): i = 0..22, 23 of 50 = 0.46.
  // Paper: the walkable part is x in [0, 4.5]: 4.5 / 10 = 0.45.
  const sample = item("FeasiblePath_Ego", 20, 20, { masklet_path: [rectRle(20, 20, 0, 4, 0, 19)], masklet_target_area: [rectRle(20, 20, 0, 19, 0, 0)] });
  const ratio = both((rules) => pathScore([[0, 10], [10, 10], [10, 3]], sample, "absolute", rules).detail!.perPoint[1]!.feasibility);
  assert.ok(close(ratio.official, 0.46), String(ratio.official));
  assert.ok(close(ratio.paper, 0.45), String(ratio.paper));
  // A diagonal segment (0, 0) -> (4, 4) inside the walkable columns: 1 under both.
  assert.deepEqual(both((rules) => pathScore([[0, 0], [4, 4], [4, 12]], sample, "absolute", rules).detail!.perPoint[1]!.feasibility), { official: 1, paper: 1 });
});

test("the terminal and report.md say when a run follows the paper's rules", async () => {
  const { epicMarkdown, epicTerminal } = await import("../../../src/benchmarks/epic/report.js");
  const doc = (rules: EpicRules, name: string) => ({
    benchmark: "epic", model: "m", name, n: 1, score: 0.5, tasks: {}, counts: { parse_failures: 0, errors: 0, missing: 0 },
    summary: { overall: { average_score: 0.5, num_invalid_response: 0, total_processed: 1 }, by_category: {}, by_type: {}, by_group: {} },
    scoring: { rules: rulesRecord(rules) },
  });
  assert.match(epicTerminal(doc("paper", "a")), /^rules: paper/m);
  assert.doesNotMatch(epicTerminal(doc("official", "b")), /^rules:/m);
  assert.match(epicMarkdown([doc("official", "b"), doc("paper", "a")]), /Scored with the paper's rules .*: a\. The others follow the official code\./);
});

/** segmentInMaskExact before issue 25: cuts at every cell border the segment crosses, inside the mask or not. */
function segmentInMaskUnclipped(p1: readonly number[], p2: readonly number[], mask: BitMask): number {
  const [x1, y1, x2, y2] = [p1[0]!, p1[1]!, p2[0]!, p2[1]!];
  const dx = x2 - x1, dy = y2 - y1;
  if (dx === 0 && dy === 0) return mask.containsPoint(x1, y1) ? 1 : 0;
  const cuts = [0, 1];
  const crossings = (from: number, delta: number) => {
    if (delta === 0) return;
    const lo = Math.min(from, from + delta), hi = Math.max(from, from + delta);
    for (let b = Math.ceil(lo - 0.5) + 0.5; b < hi; b++) if (b > lo) cuts.push((b - from) / delta);
  };
  crossings(x1, dx);
  crossings(y1, dy);
  cuts.sort((a, b) => a - b);
  let inside = 0;
  for (let i = 1; i < cuts.length; i++) {
    const [a, b] = [cuts[i - 1]!, cuts[i]!];
    if (b <= a) continue;
    const t = (a + b) / 2;
    if (mask.get(Math.floor(x1 + dx * t + 0.5), Math.floor(y1 + dy * t + 0.5))) inside += b - a;
  }
  return inside;
}

test("issue 25: the exact traversable share cuts only at the mask's own cell borders: a reply point of 1e9 ends at once, with the same value", () => {
  const mask = BitMask.fromPredicate(12, 9, (x, y) => (x * 7 + y * 3) % 5 < 3);
  let seed = 7;
  const random = (lo: number, hi: number) => lo + ((seed = (seed * 16807) % 2147483647) / 2147483647) * (hi - lo);
  for (let k = 0; k < 500; k++) {
    const p1 = [random(-20, 30), random(-20, 30)];
    const p2 = [random(-20, 30), random(-20, 30)];
    assert.equal(segmentInMaskExact(p1, p2, mask), segmentInMaskUnclipped(p1, p2, mask), `${p1} -> ${p2}`);
  }
  const full = BitMask.fromPredicate(10, 10, () => true);
  const started = performance.now();
  const share = segmentInMaskExact([0, 0], [1e9, 0], full);
  assert.ok(performance.now() - started < 100);
  assert.ok(Math.abs(share - 9.5e-9) < 1e-15, String(share));
  assert.equal(segmentInMaskExact([0, 0], [1e300, 1e300], full) < 1e-290, true);
});
