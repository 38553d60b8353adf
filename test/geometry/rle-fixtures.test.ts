/**
 * Vectors produced by pycocotools (test/fixtures/epic/rle/cases.json: mask.encode, frPyObjects,
 * area, toBbox) checked against our codec: every case decodes from its string and from its list to
 * the same pixels, encodes back to the same string and list, and gives the same area and box.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { BitMask } from "../../src/geometry/mask.js";
import { decodeRle, encodeRle, encodeRleCounts, rleArea, rleCountsFromString, rleCountsToString, rleToBbox } from "../../src/geometry/rle.js";

interface Case {
  name: string;
  note: string;
  size: [number, number];
  rows: string[];
  counts_string: string;
  counts_list: number[];
  area: number;
  bbox_xywh: [number, number, number, number];
}

const FILE = new URL("../fixtures/epic/rle/cases.json", import.meta.url);

test("pycocotools vectors: decode, encode, area, bbox", { skip: existsSync(FILE) ? false : "no fixture file" }, () => {
  const { cases } = JSON.parse(readFileSync(FILE, "utf8")) as { cases: Case[] };
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const [h, w] = c.size;
    assert.equal(c.rows.length, h, c.name);
    const mask = BitMask.fromPredicate(w, h, (x, y) => c.rows[y]![x] === "1");
    const why = `${c.name}${c.note ? ` (${c.note})` : ""}`;
    assert.deepEqual(encodeRleCounts(mask), c.counts_list, why);
    assert.deepEqual(encodeRle(mask), { size: [h, w], counts: c.counts_string }, why);
    assert.equal(rleCountsToString(c.counts_list), c.counts_string, why);
    assert.deepEqual(rleCountsFromString(c.counts_string), c.counts_list, why);
    assert.ok(decodeRle({ size: c.size, counts: c.counts_string }).equals(mask), why);
    assert.ok(decodeRle({ size: c.size, counts: c.counts_list }).equals(mask), why);
    assert.ok(decodeRle({ size: c.size, counts: c.counts_string }, { strict: false }).equals(mask), why);
    assert.equal(rleArea({ size: c.size, counts: c.counts_string }), c.area, why);
    assert.equal(mask.count(), c.area, why);
    assert.deepEqual(rleToBbox({ size: c.size, counts: c.counts_string }), c.bbox_xywh, why);
  }
});
