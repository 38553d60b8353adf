import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, deriveSeed } from "../../src/stats/rng.js";

test("createRng reproduces mulberry32", () => {
  // Reference values from an independent mulberry32 implementation.
  const r = createRng(42);
  assert.equal(r.next(), 0.6011037519201636);
  assert.equal(r.next(), 0.44829055899754167);
  assert.equal(r.next(), 0.8524657934904099);
  const z = createRng(0);
  assert.equal(z.next(), 0.26642920868471265);
});

test("the same seed gives the same sequence", () => {
  const a = createRng(7);
  const b = createRng(7);
  for (let i = 0; i < 50; i++) assert.equal(a.next(), b.next());
});

test("int stays within its inclusive bounds and reaches both ends", () => {
  const r = createRng(1);
  const seen = new Set<number>();
  for (let i = 0; i < 500; i++) {
    const v = r.int(2, 5);
    assert.ok(Number.isInteger(v) && v >= 2 && v <= 5);
    seen.add(v);
  }
  assert.deepEqual([...seen].sort(), [2, 3, 4, 5]);
  assert.throws(() => r.int(3, 2), RangeError);
});

test("pick, shuffle and chance", () => {
  const r = createRng(3);
  const items = [1, 2, 3, 4, 5, 6];
  const s = r.shuffle(items);
  assert.deepEqual([...s].sort(), items);
  assert.deepEqual(items, [1, 2, 3, 4, 5, 6]); // input untouched
  assert.ok(items.includes(r.pick(items)));
  assert.throws(() => r.pick([]), RangeError);
  assert.equal(r.chance(0), false);
  assert.equal(r.chance(1), true);
});

test("deriveSeed separates streams", () => {
  assert.notEqual(deriveSeed(7, 0), deriveSeed(7, 1));
  assert.notEqual(deriveSeed(7, 0), deriveSeed(8, 0));
  assert.equal(deriveSeed(7, 3), deriveSeed(7, 3));
});
