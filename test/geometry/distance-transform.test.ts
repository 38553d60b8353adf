import assert from "node:assert/strict";
import { test } from "node:test";
import {
  distanceToMask,
  pointToRegionDistance,
  regionToRegionMinDistance,
  regionToRegionMinSquaredDistance,
  squaredDistanceToMask,
} from "../../src/geometry/distance-transform.js";
import { BitMask, roundHalfEven } from "../../src/geometry/mask.js";
import { createRng, type Rng } from "../../src/stats/rng.js";

function draw(...rows: string[]): BitMask {
  return BitMask.fromPredicate(rows[0]!.length, rows.length, (x, y) => rows[y]![x] === "#");
}

function randomMask(rng: Rng, w = rng.int(1, 75), h = rng.int(1, 40)): BitMask {
  const kind = rng.int(0, 2);
  if (kind === 0) {
    const p = rng.pick([0, 0.002, 0.01, 0.05, 0.3, 0.8, 1]);
    return BitMask.fromPredicate(w, h, () => rng.next() < p);
  }
  const m = new BitMask(w, h);
  for (let i = rng.int(kind === 1 ? 1 : 0, 3); i > 0; i--) {
    const x = rng.int(-3, w);
    const y = rng.int(-3, h);
    m.fillBox(x, y, x + rng.int(1, 12), y + rng.int(1, 12));
  }
  return m;
}

function pixels(m: BitMask): [number, number][] {
  const out: [number, number][] = [];
  m.forEachPixel((x, y) => out.push([x, y]));
  return out;
}

/** Brute force squared EDT: minimum over all set pixels. */
function bruteSquared(m: BitMask): Float64Array {
  const ps = pixels(m);
  const out = new Float64Array(m.width * m.height);
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      let best = Infinity;
      for (const [px, py] of ps) best = Math.min(best, (px - x) ** 2 + (py - y) ** 2);
      out[y * m.width + x] = best;
    }
  }
  return out;
}

/** The official _point_to_mask_min_distance, transcribed operation by operation. */
function officialPointDistance(m: BitMask, px: number, py: number): number {
  const ps = pixels(m);
  if (ps.length === 0) return Infinity;
  const row = roundHalfEven(py);
  const col = roundHalfEven(px);
  if (row >= 0 && row < m.height && col >= 0 && col < m.width && m.get(col, row)) return 0;
  let best = Infinity;
  for (const [xs, ys] of ps) {
    const d = Math.sqrt((xs - px) ** 2 + (ys - py) ** 2);
    if (d < best) best = d;
  }
  return best;
}

test("EDT of a hand-drawn mask", () => {
  const m = draw("#...", "....", "...#");
  // (1,1): nearest (0,0) -> 2; (2,0): (0,0) -> 4 vs (3,2) -> 1 + 4 = 5 -> 4
  assert.deepEqual(Array.from(squaredDistanceToMask(m)), [0, 1, 4, 4, 1, 2, 2, 1, 4, 4, 1, 0]);
  const d = distanceToMask(m);
  assert.equal(d[5], Math.SQRT2);
  assert.equal(d[11], 0);
  assert.ok(squaredDistanceToMask(new BitMask(3, 2)).every((v) => v === Infinity));
  assert.ok(squaredDistanceToMask(new BitMask(40, 2).fillBox(0, 0, 40, 2)).every((v) => v === 0));
  assert.equal(squaredDistanceToMask(new BitMask(0, 5)).length, 0);
});

test("EDT equals brute force exactly on random masks", () => {
  const rng = createRng(123);
  for (let t = 0; t < 250; t++) {
    const m = randomMask(rng);
    assert.deepEqual(squaredDistanceToMask(m), bruteSquared(m), `case ${t} (${m.width}x${m.height})`);
  }
  // Single pixels far apart: long flat stretches of the envelope.
  for (let t = 0; t < 30; t++) {
    const m = new BitMask(rng.int(30, 120), rng.int(30, 90));
    for (let i = rng.int(1, 3); i > 0; i--) m.set(rng.int(0, m.width - 1), rng.int(0, m.height - 1));
    assert.deepEqual(squaredDistanceToMask(m), bruteSquared(m));
  }
});

test("EDT equals brute force on larger sparse masks, wide and tall", () => {
  const rng = createRng(31);
  for (const [w, h] of [[320, 240], [97, 333], [1, 500], [500, 1]] as const) {
    const m = new BitMask(w, h);
    for (let i = 0; i < 25; i++) m.set(rng.int(0, w - 1), rng.int(0, h - 1));
    m.fillBox(rng.int(0, w - 1), rng.int(0, h - 1), rng.int(0, w), rng.int(0, h));
    assert.deepEqual(squaredDistanceToMask(m), bruteSquared(m), `${w}x${h}`);
  }
});

test("pointToRegionDistance: official semantics by hand", () => {
  const m = draw(".....", ".##..", ".....", ".....");
  assert.equal(pointToRegionDistance(m, 1, 1), 0);
  assert.equal(pointToRegionDistance(m, 2.4, 0.6), 0); // rounds to (2, 1)
  assert.equal(pointToRegionDistance(m, 4, 1), 2);
  assert.equal(pointToRegionDistance(m, 1, 3), 2);
  assert.equal(pointToRegionDistance(m, 4, 3), Math.sqrt(8));
  // (2.5, 0.5) rounds to column 2, row 0 (ties to even): not set, so the distance is to (2, 1).
  assert.equal(pointToRegionDistance(m, 2.5, 0.5), Math.sqrt(0.5));
  // (0.5, 1) rounds to column 0: not set; nearest pixel (1, 1) at 0.5.
  assert.equal(pointToRegionDistance(m, 0.5, 1), 0.5);
  // Outside the image.
  assert.equal(pointToRegionDistance(m, -3, 1), 4);
  assert.equal(pointToRegionDistance(m, 2, -4), 5);
  assert.equal(pointToRegionDistance(m, 10, 1), 8);
  assert.equal(pointToRegionDistance(new BitMask(5, 4), 1, 1), Infinity);
  assert.throws(() => pointToRegionDistance(m, Number.NaN, 1), RangeError);
});

test("pointToRegionDistance equals the official formula bit for bit on random masks and points", () => {
  const rng = createRng(99);
  for (let t = 0; t < 300; t++) {
    const m = randomMask(rng);
    for (let i = 0; i < 20; i++) {
      let x: number;
      let y: number;
      const kind = rng.int(0, 3);
      if (kind === 0) {
        x = rng.int(-2, m.width + 1);
        y = rng.int(-2, m.height + 1);
      } else if (kind === 1) {
        x = rng.int(-2, m.width + 1) + 0.5;
        y = rng.int(-2, m.height + 1) + 0.5;
      } else {
        x = rng.float(-10, m.width + 10);
        y = rng.float(-10, m.height + 10);
      }
      assert.equal(pointToRegionDistance(m, x, y), officialPointDistance(m, x, y), `case ${t}.${i} at (${x}, ${y})`);
    }
  }
});

test("regionToRegionMinDistance: by hand and against brute force", () => {
  const a = draw("#....", ".....", ".....");
  const b = draw(".....", ".....", "...##");
  assert.equal(regionToRegionMinSquaredDistance(a, b), 13);
  assert.equal(regionToRegionMinDistance(a, b), Math.sqrt(13));
  assert.equal(regionToRegionMinDistance(b, a), Math.sqrt(13));
  assert.equal(regionToRegionMinDistance(a, a), 0);
  assert.equal(regionToRegionMinDistance(a, new BitMask(5, 3)), Infinity);
  assert.throws(() => regionToRegionMinDistance(a, new BitMask(5, 4)), RangeError);
  const rng = createRng(7);
  for (let t = 0; t < 200; t++) {
    const w = rng.int(1, 60);
    const h = rng.int(1, 30);
    const p = randomMask(rng, w, h);
    const q = randomMask(rng, w, h);
    let best = Infinity;
    const qs = pixels(q);
    for (const [x1, y1] of pixels(p)) for (const [x2, y2] of qs) best = Math.min(best, (x1 - x2) ** 2 + (y1 - y2) ** 2);
    assert.equal(regionToRegionMinSquaredDistance(p, q), best);
    assert.equal(regionToRegionMinDistance(q, p), Math.sqrt(best));
  }
});
