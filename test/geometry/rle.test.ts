import assert from "node:assert/strict";
import { test } from "node:test";
import { BitMask } from "../../src/geometry/mask.js";
import {
  RleError,
  decodeRle,
  decodeRleUnion,
  encodeRle,
  encodeRleCounts,
  readRle,
  rleArea,
  rleBounds,
  rleCountsFromString,
  rleCountsToString,
  rleToBbox,
} from "../../src/geometry/rle.js";
import { createRng, type Rng } from "../../src/stats/rng.js";

function draw(...rows: string[]): BitMask {
  return BitMask.fromPredicate(rows[0]!.length, rows.length, (x, y) => rows[y]![x] === "#");
}

function randomMask(rng: Rng, w = rng.int(1, 80), h = rng.int(1, 40)): BitMask {
  if (rng.chance(0.5)) {
    const p = rng.pick([0, 0.01, 0.2, 0.5, 0.95, 1]);
    return BitMask.fromPredicate(w, h, () => rng.next() < p);
  }
  const m = new BitMask(w, h);
  for (let i = rng.int(0, 4); i > 0; i--) {
    const x = rng.int(-3, w);
    const y = rng.int(-3, h);
    m.fillBox(x, y, x + rng.int(1, w), y + rng.int(1, h));
  }
  return m;
}

/** Reference decoder: run lengths written into a column-major byte array, then read as (x, y). */
function referenceDecode(h: number, w: number, counts: number[]): BitMask {
  const flat = new Uint8Array(h * w);
  let at = 0;
  counts.forEach((n, i) => {
    for (let k = 0; k < n; k++) flat[at++] = i % 2;
  });
  assert.equal(at, h * w);
  return BitMask.fromPredicate(w, h, (x, y) => flat[x * h + y] === 1);
}

/** Reference compressed-string encoder from the format definition, in BigInt arithmetic. */
function referenceToString(counts: number[]): string {
  let s = "";
  counts.forEach((c, i) => {
    let x = BigInt(c) - (i > 2 ? BigInt(counts[i - 2]!) : 0n);
    for (;;) {
      const group = Number(BigInt.asUintN(5, x));
      x >>= 5n; // floor division
      const signBit = (group & 0x10) !== 0;
      const more = signBit ? x !== -1n : x !== 0n;
      s += String.fromCharCode(48 + group + (more ? 32 : 0));
      if (!more) break;
    }
  });
  return s;
}

test("hand-made vectors: 3x3 mask, column-major, zeros first", () => {
  // Set: (1,0), (1,1), (2,2). Column-major linear index x*3 + y: 3, 4, 8.
  // Runs: 3 zeros, 2 ones, 3 zeros, 1 one -> [3, 2, 3, 1].
  // String: '3', '2', '3', then 1 - counts[1] = -1 -> group 31 with the sign bit -> 'O'.
  const m = draw(".#.", ".#.", "..#");
  assert.deepEqual(encodeRleCounts(m), [3, 2, 3, 1]);
  assert.deepEqual(encodeRle(m), { size: [3, 3], counts: "323O" });
  assert.ok(decodeRle({ size: [3, 3], counts: "323O" }).equals(m));
  assert.ok(decodeRle({ size: [3, 3], counts: [3, 2, 3, 1] }).equals(m));
  assert.equal(rleArea({ size: [3, 3], counts: "323O" }), 3);
  assert.deepEqual(rleToBbox({ size: [3, 3], counts: "323O" }), [1, 0, 2, 3]);
  assert.deepEqual(rleBounds({ size: [3, 3], counts: [3, 2, 3, 1] }), [1, 0, 3, 3]);
});

test("hand-made vectors: compressed values", () => {
  // 20 = 0b10100: group 20 has bit 4 set, so a second group (0) must follow to keep it positive.
  assert.equal(rleCountsToString([20]), "d0");
  // 100 = 3*32 + 4 -> 'T' (48 + 4 + 32), '3'
  assert.equal(rleCountsToString([100]), "T3");
  assert.equal(rleCountsToString([16]), "`0");
  assert.equal(rleCountsToString([15]), "?");
  // [1, 40, 3, 2]: 40 -> 'X1'; the fourth value is 2 - 40 = -38 -> groups 26 (+32), 30 -> 'jN'
  assert.equal(rleCountsToString([1, 40, 3, 2]), "1X13jN");
  assert.deepEqual(rleCountsFromString("1X13jN"), [1, 40, 3, 2]);
  // All-ones and all-zero masks
  assert.deepEqual(encodeRle(new BitMask(2, 2).fillBox(0, 0, 2, 2)), { size: [2, 2], counts: "04" });
  assert.deepEqual(encodeRle(new BitMask(5, 4)), { size: [4, 5], counts: "d0" });
  // Equal runs: deltas from the fourth count on are 0
  assert.equal(rleCountsToString([1, 1, 1, 1, 1, 1, 1, 1, 1]), "111000000");
  const checker = draw("#.#", ".#.", "#.#");
  // column-major 1,0,1,0,1,0,1,0,1 -> [0, 1, 1, 1, 1, 1, 1, 1, 1, 1]
  assert.deepEqual(encodeRle(checker), { size: [3, 3], counts: "0110000000" });
  assert.deepEqual(rleCountsFromString(""), []);
});

test("size is [h, w]: a wide mask", () => {
  const m = draw("#...", "....");
  // h = 2, w = 4: one set pixel at (0, 0) -> [0, 1, 7]
  assert.deepEqual(encodeRleCounts(m), [0, 1, 7]);
  assert.deepEqual(encodeRle(m).size, [2, 4]);
  // [0, 1, 1, 1, 5]: linear 0 = (0, 0) and linear 2 = (1, 0) are set
  const d = decodeRle({ size: [2, 4], counts: [0, 1, 1, 1, 5] });
  assert.equal(d.width, 4);
  assert.equal(d.height, 2);
  assert.deepEqual(Array.from(d.toUint8()), [1, 1, 0, 0, 0, 0, 0, 0]);
  // linear 3 = (1, 1), linear 6 = (3, 0)
  assert.deepEqual(Array.from(decodeRle({ size: [2, 4], counts: [3, 1, 2, 1, 1] }).toUint8()), [0, 0, 0, 1, 0, 1, 0, 0]);
});

test("string codec: random counts round-trip and match a BigInt reference encoder", () => {
  const rng = createRng(3);
  for (let t = 0; t < 500; t++) {
    const n = rng.int(0, 30);
    const scale = rng.pick([3, 40, 1000, 1e6, 2 ** 28]);
    const counts = Array.from({ length: n }, () => rng.int(0, scale));
    const s = rleCountsToString(counts);
    assert.equal(s, referenceToString(counts));
    assert.match(s, /^[0-o]*$/);
    assert.deepEqual(rleCountsFromString(s), counts);
    assert.deepEqual(rleCountsFromString(s, { strict: false }), counts);
  }
});

test("random masks: encode/decode round trips, list and string agree, area and bbox", () => {
  const rng = createRng(42);
  for (let t = 0; t < 300; t++) {
    const m = randomMask(rng);
    const counts = encodeRleCounts(m);
    assert.equal(counts.reduce((a, b) => a + b, 0), m.width * m.height);
    for (let i = 1; i < counts.length; i++) assert.ok(counts[i]! > 0, "only the first run may be empty");
    assert.ok(referenceDecode(m.height, m.width, counts).equals(m));
    const rle = encodeRle(m);
    assert.deepEqual(rle.size, [m.height, m.width]);
    assert.ok(decodeRle(rle).equals(m));
    assert.ok(decodeRle({ size: rle.size, counts }).equals(m));
    assert.equal(rleArea(rle), m.count());
    const b = m.bounds();
    assert.deepEqual(rleToBbox(rle), b === null ? [0, 0, 0, 0] : [b[0], b[1], b[2] - b[0], b[3] - b[1]]);
    assert.deepEqual(rleBounds({ size: rle.size, counts }), b);
  }
});

test("decoding tolerates zero-length runs in the middle", () => {
  // [1, 0, 2, 3, 0, 0, 3]: zeros 1, ones 0, zeros 2, ones 3, zeros 0, ones 0, zeros 3 (h = 3, w = 3)
  const m = decodeRle({ size: [3, 3], counts: [1, 0, 2, 3, 0, 0, 3] });
  assert.deepEqual(Array.from(m.toUint8()), [0, 1, 0, 0, 1, 0, 0, 1, 0]);
  assert.deepEqual(rleToBbox({ size: [3, 3], counts: [1, 0, 2, 3, 0, 0, 3] }), [1, 0, 1, 3]);
  assert.deepEqual(rleToBbox({ size: [3, 3], counts: [9] }), [0, 0, 0, 0]);
  assert.deepEqual(rleToBbox({ size: [3, 3], counts: [4, 0, 5] }), [0, 0, 0, 0]);
  // A run across a column boundary spans all rows of the box.
  assert.deepEqual(rleToBbox({ size: [3, 3], counts: [2, 2, 5] }), [0, 0, 2, 3]);
});

test("strict errors name the problem", () => {
  const bad = (rle: unknown, re: RegExp, options = {}) => {
    assert.throws(() => decodeRle(rle, options), (e: unknown) => e instanceof RleError && re.test(e.message));
  };
  bad({ size: [3, 3], counts: [3, 2, 3] }, /counts sum to 8 but size \[3, 3\] has 9 pixels/);
  bad({ size: [3, 3], counts: [3, 2, 3, 2] }, /counts sum to 10/);
  bad({ size: [3, 3], counts: "32" }, /counts sum to 5/);
  bad({ counts: [9] }, /no size/);
  bad({ size: [], counts: [9] }, /size must be \[h, w\]/);
  bad({ size: [3, 3, 1], counts: [9] }, /size must be \[h, w\]/);
  bad({ size: [0, 3], counts: [] }, /must be positive/);
  bad({ size: [3.5, 3], counts: [9] }, /not an integer/);
  bad({ size: ["3", 3], counts: [9] }, /must be a number/);
  bad({ size: [3, 3] }, /no counts/);
  bad({ size: [3, 3], counts: 9 }, /string or a list/);
  bad({ size: [3, 3], counts: [4, -1, 6] }, /counts\[1\] is negative/);
  bad({ size: [3, 3], counts: [4.5, 4.5] }, /counts\[0\] is not an integer/);
  bad({ size: [3, 3], counts: [4, "5"] }, /counts\[1\] must be a number/);
  bad({ size: [3, 3], counts: "3 2" }, /bad character " " \(code 32\) at position 1/);
  bad({ size: [3, 3], counts: "3p" }, /bad character "p"/);
  bad({ size: [3, 3], counts: "3X" }, /ends inside a value/);
  bad({ size: [3, 3], counts: "1jN" }, /count 1 of the counts string is -38/); // no delta before the 4th
  bad({ size: [3, 3], counts: "ooooooo0" }, /longer than 6 characters/);
  bad(null, /must be an object/);
  bad([{ size: [1, 1], counts: [1] }], /must be an object/);
  assert.ok(new RleError("x") instanceof Error);
});

test("strict: false mirrors the official evaluator's tolerance", () => {
  const loose = { strict: false };
  // List counts past h*w are cut (the official fallback decoder).
  const cut = decodeRle({ size: [3, 3], counts: [3, 2, 3, 7, 100] }, loose);
  assert.deepEqual(Array.from(cut.toUint8()), [0, 1, 0, 0, 1, 0, 0, 0, 1]);
  assert.deepEqual(readRle({ size: [3, 3], counts: [3, 2, 3, 7, 100] }, loose).counts, [3, 2, 3, 1]);
  assert.deepEqual(readRle({ size: [2, 2], counts: [1, 10] }, loose).counts, [1, 3]);
  // ...but pycocotools rejects an overlong compressed string, so the instance fails.
  assert.throws(() => decodeRle({ size: [3, 3], counts: "32371" }, loose), /more than the 9 pixels.*pycocotools rejects/);
  // Short counts: the rest is zeros.
  assert.deepEqual(Array.from(decodeRle({ size: [3, 3], counts: [3, 2] }, loose).toUint8()), [0, 1, 0, 0, 1, 0, 0, 0, 0]);
  assert.deepEqual(readRle({ size: [3, 3], counts: [3, 2] }, loose).counts, [3, 2, 4]);
  assert.deepEqual(readRle({ size: [3, 3], counts: [3] }, loose).counts, [3, 0, 6]);
  assert.equal(decodeRle({ size: [3, 3], counts: [] }, loose).count(), 0);
  assert.equal(decodeRle({ size: [3, 3], counts: "" }, loose).count(), 0);
  // Non-integer list counts are truncated (numpy uint32 / int()).
  assert.deepEqual(readRle({ size: [3, 3], counts: [3.9, 2.2, 3.5] }, loose).counts, [3, 2, 3, 0, 1]);
  // Size: int() of floats and integer strings.
  assert.equal(decodeRle({ size: ["3", 3.7, "ignored"], counts: [9] }, loose).height, 3);
  // Characters outside '0'..'o' are read with the C arithmetic on UTF-8 bytes:
  // 'p' -> group 0, no continuation -> 0.
  assert.deepEqual(rleCountsFromString("3p", loose), [3, 0]);
  // 'À' = C3 80: (signed char)(0xC3 - 48) = -109 -> group 19, sign bit -> -13 -> 2^32 - 13;
  // 0x80 - 48 = 80 -> group 16, sign bit -> -16 -> 2^32 - 16.
  assert.deepEqual(rleCountsFromString("\u00c0", loose), [2 ** 32 - 13, 2 ** 32 - 16]);
  // A NUL ends the C string.
  assert.deepEqual(rleCountsFromString("3\u00002", loose), [3]);
  // Negative results wrap to uint32.
  assert.deepEqual(rleCountsFromString("1jN", loose), [1, 2 ** 32 - 38]);
  // Still errors: a value cut short, negative list runs, missing size.
  assert.throws(() => rleCountsFromString("3X", loose), RleError);
  assert.throws(() => decodeRle({ size: [3, 3], counts: [-1, 10] }, loose), RleError);
  assert.throws(() => decodeRle({ size: [], counts: [9] }, loose), RleError);
});

test("decodeRleUnion: union of instances, strict and official", () => {
  const a = encodeRle(draw("#..", "...", "..."));
  const b = encodeRle(draw("...", ".#.", "..#"));
  const union = decodeRleUnion([a, b])!;
  assert.deepEqual(Array.from(union.toUint8()), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.ok(decodeRleUnion(a)!.equals(decodeRle(a)));
  assert.equal(decodeRleUnion([]), null);
  assert.equal(decodeRleUnion([], { strict: false }), null);
  const wrongSize = encodeRle(new BitMask(4, 3).fillBox(0, 0, 1, 1));
  const broken = { size: [3, 3], counts: "3X" };
  assert.throws(() => decodeRleUnion([a, wrongSize]), (e: unknown) => e instanceof RleError && e.instance === 1 && /instance 1: size \[3, 4\] differs/.test(e.message));
  assert.throws(() => decodeRleUnion([a, broken]), (e: unknown) => e instanceof RleError && e.instance === 1 && /ends inside a value/.test(e.message));
  assert.throws(() => decodeRleUnion([a, 5]), (e: unknown) => e instanceof RleError && e.instance === 1);
  assert.throws(() => decodeRleUnion("x"), RleError);
  // Official: skip what fails, keep the first decoded size.
  const skipped: [number, string][] = [];
  const loose = decodeRleUnion([5, broken, a, wrongSize, b], { strict: false, onSkip: (i, why) => skipped.push([i, why]) })!;
  assert.ok(loose.equals(union));
  assert.deepEqual(skipped.map(([i]) => i), [0, 1, 3]);
  // The first decodable instance sets the size, even if it is the odd one out.
  assert.equal(decodeRleUnion([wrongSize, a], { strict: false })!.width, 4);
  assert.equal(decodeRleUnion([broken], { strict: false }), null);
  assert.equal(decodeRleUnion("x", { strict: false }), null);
});
