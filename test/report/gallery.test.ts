import assert from "node:assert/strict";
import { test } from "node:test";
import type { ItemResult } from "../../src/core/benchmark.js";
import { embedOverlays, galleryItem, spreadOrder, type OverlayRenderer } from "../../src/report/gallery.js";
import { outcomeOf } from "../../src/report/outcome.js";
import type { RunFolder } from "../../src/report/run-folder.js";

const result = (extra: Partial<ItemResult>): ItemResult => ({ id: "q", task: "t", cluster: "c", status: "scored", ...extra });
const ok = { status: "ok" as const, value: 1, stored: "1" };

test("outcome words: error, missing, unreadable, route stage, right/wrong, set, sample score, MRA", () => {
  assert.equal(outcomeOf(result({ status: "error" })), "error");
  assert.equal(outcomeOf(result({})), "missing");
  assert.equal(outcomeOf(result({ answer: { status: "missing" } as never })), "missing");
  assert.equal(outcomeOf(result({ answer: { status: "unparseable", reason: "no list" } as never })), "unreadable");
  assert.equal(outcomeOf(result({ answer: ok, detail: { stage: "illegal_edge" } })), "illegal_edge");
  assert.equal(outcomeOf(result({ answer: ok, detail: { correct: true } })), "right");
  assert.equal(outcomeOf(result({ answer: ok, detail: { success: false } })), "wrong");
  assert.equal(outcomeOf(result({ answer: ok, detail: { kind: "set", tp: 3, fp: 0, fn: 0, invalid: 0 } })), "right");
  assert.equal(outcomeOf(result({ answer: ok, detail: { kind: "set", tp: 3, fp: 1, fn: 0, invalid: 0 } })), "wrong");
  assert.equal(outcomeOf(result({ answer: ok, detail: { score: 0.42 } })), "partial");
  assert.equal(outcomeOf(result({ answer: ok, detail: { score: 1 } })), "right");
  assert.equal(outcomeOf(result({ answer: ok, detail: { MRA: 0 } })), "wrong");
  assert.equal(outcomeOf(result({ answer: ok, detail: {} })), "scored");
});

test("spread order: round-robin over (run, task, outcome) groups, each group in its own order", () => {
  const e = (name: string, run: number, task: string, outcome: string) => ({ name, run, task, outcome });
  const entries = [e("a1", 0, "x", "right"), e("a2", 0, "x", "right"), e("a3", 0, "x", "right"), e("b1", 0, "x", "wrong"), e("c1", 1, "y", "right"), e("c2", 1, "y", "right")];
  assert.deepEqual(spreadOrder(entries).map((x) => x.name), ["a1", "b1", "c1", "a2", "c2", "a3"]);
});

test("embedding stops at the size budget and counts pictures that could not be drawn", async () => {
  const png = Buffer.alloc(30, 7); // 30 bytes -> 40 base64 characters + the 22-character data: prefix = 62
  const runs = [{ results: [0, 1, 2, 3].map((i) => result({ id: `q${i}`, answer: ok, detail: { correct: i % 2 === 0 } })) } as unknown as RunFolder];
  const renderer: OverlayRenderer = { render: async (_run, r) => (r.id === "q1" ? { error: "image gone" } : { png, caption: [`caption ${r.id}`] }) };
  const items = runs[0]!.results.map((r, i) => galleryItem(0, i, r));
  // Spread order over (task t, right/wrong): q0 (right), q1 (wrong), q2 (right), q3 (wrong).
  const asPng = async (bytes: Buffer) => ({ mime: "image/png", bytes });
  const summary = await embedOverlays(runs, items, { budgetBytes: 62 * 2, maxSide: 100, renderer, encode: asPng });
  assert.equal(summary.pictured, 2);
  assert.equal(summary.bytes, 124);
  assert.deepEqual([...summary.failures], [["image gone", 1]]);
  assert.deepEqual(items.map((i) => i.image !== null), [true, false, true, false]);
  assert.deepEqual(items[2]!.caption, ["caption q2"]);
  assert.equal(items[0]!.image, `data:image/png;base64,${png.toString("base64")}`);
});
