import assert from "node:assert/strict";
import { test } from "node:test";
import { BitMask, intersectionCount, iou, overlapCounts, popcount32, roundHalfEven, unionCount } from "../../src/geometry/mask.js";
import { createRng, type Rng } from "../../src/stats/rng.js";

/** A mask from rows of '.' and '#'. */
function draw(...rows: string[]): BitMask {
  const h = rows.length;
  const w = rows[0]!.length;
  return BitMask.fromPredicate(w, h, (x, y) => rows[y]![x] === "#");
}

function picture(m: BitMask): string[] {
  const out: string[] = [];
  for (let y = 0; y < m.height; y++) {
    let s = "";
    for (let x = 0; x < m.width; x++) s += m.get(x, y) ? "#" : ".";
    out.push(s);
  }
  return out;
}

/** Random mask: uniform noise or a union of random boxes, sizes crossing word boundaries. */
function randomMask(rng: Rng, w = rng.int(1, 80), h = rng.int(1, 40)): BitMask {
  if (rng.chance(0.5)) {
    const p = rng.pick([0, 0.02, 0.2, 0.5, 0.9, 1]);
    return BitMask.fromPredicate(w, h, () => rng.next() < p);
  }
  const boxes: number[][] = [];
  const n = rng.int(0, 5);
  for (let i = 0; i < n; i++) {
    const x1 = rng.int(-5, w);
    const y1 = rng.int(-5, h);
    boxes.push([x1, y1, x1 + rng.int(0, w), y1 + rng.int(0, h)]);
  }
  return BitMask.fromBoxes(boxes, w, h);
}

/** The official bboxes_to_mask, written pixel by pixel on a plain array. */
function referenceBoxes(boxes: (number[] | null)[], w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (const b of boxes) {
    if (!b || b.length < 4) continue;
    const x1 = Math.max(0, Math.trunc(b[0]!));
    const y1 = Math.max(0, Math.trunc(b[1]!));
    const x2 = Math.min(w, Math.trunc(b[2]!));
    const y2 = Math.min(h, Math.trunc(b[3]!));
    for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) out[y * w + x] = 1;
  }
  return out;
}

test("get/set/count on a hand-drawn mask; out-of-range reads are false", () => {
  const m = draw(".#..", "##..", "...#");
  assert.equal(m.width, 4);
  assert.equal(m.height, 3);
  assert.equal(m.count(), 4);
  assert.equal(m.get(1, 0), true);
  assert.equal(m.get(0, 0), false);
  assert.equal(m.get(3, 2), true);
  assert.equal(m.get(-1, 0), false);
  assert.equal(m.get(4, 0), false);
  assert.equal(m.get(0, 3), false);
  assert.equal(m.get(0.5, 1), false);
  m.set(0, 0).set(1, 0, false);
  assert.deepEqual(picture(m), ["#...", "##..", "...#"]);
  assert.throws(() => m.set(4, 0), RangeError);
  assert.deepEqual(Array.from(m.toUint8()), [1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1]);
  assert.ok(BitMask.fromUint8(m.toUint8(), 4, 3).equals(m));
  assert.equal(new BitMask(5, 2).isEmpty(), true);
  assert.equal(m.isEmpty(), false);
});

test("padding bits stay clear: widths around word boundaries", () => {
  for (const w of [1, 31, 32, 33, 63, 64, 65, 100]) {
    const full = new BitMask(w, 3).fillBox(-10, -10, w + 10, 10);
    assert.equal(full.count(), 3 * w, `width ${w}`);
    const words = new Uint32Array(full.stride * 3).fill(0xffffffff);
    assert.equal(new BitMask(w, 3, words).count(), 3 * w, `width ${w} from raw words`);
    const runs: number[][] = [];
    full.forEachRun((y, a, b) => runs.push([y, a, b]));
    assert.deepEqual(runs, [0, 1, 2].map((y) => [y, 0, w]));
  }
  assert.throws(() => new BitMask(3, 3, new Uint32Array(2)), RangeError);
  assert.throws(() => new BitMask(-1, 3), RangeError);
});

test("popcount32 and roundHalfEven (Python round)", () => {
  assert.equal(popcount32(0), 0);
  assert.equal(popcount32(0xffffffff), 32);
  assert.equal(popcount32(0x80000001), 2);
  assert.equal(popcount32(-1), 32);
  const cases: [number, number][] = [[0.5, 0], [1.5, 2], [2.5, 2], [-0.5, 0], [-1.5, -2], [2.4999, 2], [2.5001, 3], [-2.6, -3], [7, 7]];
  for (const [v, r] of cases) assert.equal(roundHalfEven(v) + 0, r, `round(${v})`);
});

test("fromBoxes follows bboxes_to_mask: int() truncation, clipping, exclusive end, drops", () => {
  // [0.9, -3.7, 2.2, 1.99] -> x 0..2, y 0..1 (int(-3.7) = -3 -> 0; int(1.99) = 1)
  assert.deepEqual(picture(BitMask.fromBoxes([[0.9, -3.7, 2.2, 1.99]], 4, 3)), ["##..", "....", "...."]);
  // [-1.5, 1, 1.5, 9]: int(-1.5) = -1 -> 0, int(1.5) = 1, y2 clipped to 3
  assert.deepEqual(picture(BitMask.fromBoxes([[-1.5, 1, 1.5, 9]], 4, 3)), ["....", "#...", "#..."]);
  // x2 = int(-0.5) = 0: zero width, dropped; reversed corners dropped; short entries and null skipped
  const none = BitMask.fromBoxes([[-5, -5, -0.5, 10], [3, 0, 1, 2], [1, 2, 3], null, [], [2, 2, 2, 3]], 4, 3);
  assert.equal(none.count(), 0);
  // extra entries are ignored; boxes past the edge are clipped; overlapping boxes union
  assert.deepEqual(picture(BitMask.fromBoxes([[0, 0, 1, 1, 99], [3, 1, 100, 100], [2.999, 1.2, 4.5, 2.8]], 4, 3)), ["#...", "..##", "...#"]);
  // a box starting past the right edge is empty
  assert.equal(BitMask.fromBoxes([[10, 0, 20, 3]], 4, 3).count(), 0);
  assert.equal(BitMask.fromBoxes([new Float64Array([1, 1, 3, 2])], 4, 3).count(), 2);
  assert.throws(() => BitMask.fromBoxes([[0, 0, Number.NaN, 1]], 4, 3), RangeError);
  assert.throws(() => BitMask.fromBoxes([[0, 0, Infinity, 1]], 4, 3), RangeError);
});

test("fromBoxes matches a pixel-by-pixel reference on random float boxes", () => {
  const rng = createRng(11);
  for (let t = 0; t < 300; t++) {
    const w = rng.int(1, 100);
    const h = rng.int(1, 50);
    const boxes: number[][] = [];
    for (let i = rng.int(0, 4); i > 0; i--) {
      const x1 = rng.float(-20, w + 5);
      const y1 = rng.float(-20, h + 5);
      boxes.push([x1, y1, x1 + rng.float(-5, w), y1 + rng.float(-5, h)]);
    }
    const m = BitMask.fromBoxes(boxes, w, h);
    assert.deepEqual(m.toUint8(), referenceBoxes(boxes, w, h));
  }
});

test("union / intersect / subtract in place, shape checks", () => {
  const a = draw("##..", "##..");
  const b = draw(".##.", ".##.");
  assert.deepEqual(picture(a.clone().union(b)), ["###.", "###."]);
  assert.deepEqual(picture(a.clone().intersect(b)), [".#..", ".#.."]);
  assert.deepEqual(picture(a.clone().subtract(b)), ["#...", "#..."]);
  assert.equal(intersectionCount(a, b), 2);
  assert.equal(unionCount(a, b), 6);
  assert.deepEqual(overlapCounts(a, b), { intersection: 2, union: 6 });
  assert.throws(() => a.union(new BitMask(4, 3)), RangeError);
  assert.throws(() => intersectionCount(a, new BitMask(3, 2)), RangeError);
});

test("iou: hand-computed values and the official edge cases", () => {
  const a = BitMask.fromBoxes([[0, 0, 2, 2]], 4, 4);
  const b = BitMask.fromBoxes([[1, 1, 3, 3]], 4, 4);
  assert.equal(iou(a, b), 1 / 7);
  assert.equal(iou(a, a), 1);
  assert.equal(iou(new BitMask(4, 4), new BitMask(4, 4)), 1); // both empty
  assert.equal(iou(a, new BitMask(4, 4)), 0); // one empty
  assert.equal(iou(a, BitMask.fromBoxes([[0, 0, 2, 2]], 4, 5)), 0); // shape mismatch
  assert.equal(iou(new BitMask(4, 4), new BitMask(5, 4)), 0); // mismatch wins over "both empty"
  assert.equal(iou(null, a), 0);
  assert.equal(iou(a, undefined), 0);
});

test("iou properties on random masks: symmetric, in [0, 1], identical = 1, disjoint = 0", () => {
  const rng = createRng(2024);
  for (let t = 0; t < 400; t++) {
    const w = rng.int(1, 90);
    const h = rng.int(1, 30);
    const a = randomMask(rng, w, h);
    const b = randomMask(rng, w, h);
    const v = iou(a, b);
    assert.equal(v, iou(b, a));
    assert.ok(v >= 0 && v <= 1);
    assert.equal(iou(a, a.clone()), 1);
    const disjoint = b.clone().subtract(a);
    assert.equal(iou(a, disjoint), a.isEmpty() && disjoint.isEmpty() ? 1 : 0);
    // counts agree with a byte-wise reference
    const ua = a.toUint8();
    const ub = b.toUint8();
    let inter = 0;
    let uni = 0;
    for (let i = 0; i < ua.length; i++) {
      inter += ua[i]! & ub[i]!;
      uni += ua[i]! | ub[i]!;
    }
    assert.deepEqual(overlapCounts(a, b), { intersection: inter, union: uni });
    assert.equal(v, uni === 0 ? 1 : inter / uni);
  }
});

test("forEachRun, forEachPixel and bounds agree with a per-pixel scan", () => {
  const rng = createRng(5);
  for (let t = 0; t < 200; t++) {
    const m = randomMask(rng);
    const fromRuns = new Uint8Array(m.width * m.height);
    let lastKey = -1;
    m.forEachRun((y, a, b) => {
      assert.ok(a < b && b <= m.width);
      // raster order; two runs of one row are separated by at least one clear pixel
      assert.ok(y * (m.width + 1) + a > lastKey, "raster order, runs separated");
      lastKey = y * (m.width + 1) + b;
      for (let x = a; x < b; x++) fromRuns[y * m.width + x] = 1;
      if (b < m.width) assert.equal(m.get(b, y), false, "runs are maximal");
      if (a > 0) assert.equal(m.get(a - 1, y), false, "runs are maximal");
    });
    assert.deepEqual(fromRuns, m.toUint8());
    const pixels: number[] = [];
    m.forEachPixel((x, y) => pixels.push(y * m.width + x));
    const expected: number[] = [];
    m.toUint8().forEach((v, i) => {
      if (v) expected.push(i);
    });
    assert.deepEqual(pixels, expected);
    const bounds = m.bounds();
    if (expected.length === 0) assert.equal(bounds, null);
    else {
      const xs = expected.map((i) => i % m.width);
      const ys = expected.map((i) => Math.floor(i / m.width));
      assert.deepEqual(bounds, [Math.min(...xs), Math.min(...ys), Math.max(...xs) + 1, Math.max(...ys) + 1]);
    }
  }
});

test("containsPoint uses Python's round (ties to even)", () => {
  const m = draw("....", ".#..", "....");
  assert.equal(m.containsPoint(1, 1), true);
  assert.equal(m.containsPoint(1.5, 1), false); // round(1.5) = 2
  assert.equal(m.containsPoint(0.5, 1), false); // round(0.5) = 0: column 0 is clear
  assert.equal(m.containsPoint(2.5, 1), false); // round(2.5) = 2
  assert.equal(m.containsPoint(0.51, 1.49), true);
  assert.equal(m.containsPoint(1, 0.5), false); // round(0.5) = 0
  assert.equal(m.containsPoint(1, 1.5), false); // round(1.5) = 2
  assert.equal(m.containsPoint(-0.4, 1), false);
  assert.throws(() => m.containsPoint(Number.NaN, 1), RangeError);
});

test("boundingBoxes: one box per 4-connected component; boxes cover the mask", () => {
  const m = draw("##....#", "#.....#", "...#...", "..#....");
  assert.deepEqual(m.boundingBoxes(), [[0, 0, 2, 2], [6, 0, 7, 2], [3, 2, 4, 3], [2, 3, 3, 4]]);
  assert.deepEqual(m.boundingBoxes(8), [[0, 0, 2, 2], [6, 0, 7, 2], [2, 2, 4, 4]]);
  const rng = createRng(9);
  for (let t = 0; t < 100; t++) {
    const r = randomMask(rng);
    const cover = BitMask.fromBoxes(r.boundingBoxes(), r.width, r.height);
    assert.equal(intersectionCount(cover, r), r.count());
  }
});
