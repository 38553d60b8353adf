import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadVcn, vcn, type VcnItem } from "../../../src/benchmarks/vcn/index.js";
import { vcnOverlay } from "../../../src/benchmarks/vcn/overlay.js";
import type { ItemResult } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { hasFont } from "../../../src/media/draw.js";
import { assertNear, decodeOverlay, frameColour, pixels, writePng, type RGB } from "../../helpers/pixels.js";

/**
 * The VCN-Bench overlay on a hand-made house: uniform-colour tour frames whose colour encodes the
 * frame index, so each tile's pixels say which frame it shows. Positions follow the drawing kit's
 * tileGrid rule (6 px padding, a 20 px title band when a font is installed) and the overlay's
 * documented sizes (tiles as large as fits a 1024 px row, at most 192 px, small frames enlarged).
 */
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-overlay-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(tmp, "frame-cache");

const W = 40;
const H = 30;
const FRAMES = 12;
const VIEW_COLOURS: Record<string, RGB> = { front: [250, 120, 10], left: [10, 250, 120], back: [120, 10, 250], right: [60, 60, 60] };
const GREEN: RGB = [0x1a, 0x98, 0x50];
const RED: RGB = [0xd7, 0x30, 0x27];
const PLACEHOLDER: RGB = [0xe5, 0xe7, 0xeb];
const TITLE = hasFont() ? 20 : 0;

const solidPng = (file: string, colour: RGB) => writePng(file, W, H, () => colour);

/**
 * 12 tour frames: 0-1 office r1 (frame 1 sees r2 through a door), 2-3 bedroom r2, 4-5 kitchen r3,
 * 6-7 bedroom r4, 8-11 hall r5. A lamp is visible in frames 0-9.
 */
function annotation(index: number) {
  const rooms: Array<[string, string]> = [["r1", "office"], ["r1", "office"], ["r2", "bedroom"], ["r2", "bedroom"], ["r3", "kitchen"], ["r3", "kitchen"], ["r4", "bedroom"], ["r4", "bedroom"], ["r5", "hall"], ["r5", "hall"], ["r5", "hall"], ["r5", "hall"]];
  const [room, category] = rooms[index]!;
  return { index, room, room_category: category, objects: index <= 9 ? [{ id: "lamp_1", category: "lamp" }] : [], visible_rooms: index === 1 ? ["r2"] : [] };
}

async function makeHouse(): Promise<string> {
  const root = path.join(tmp, "data");
  mkdirSync(path.join(root, "tour"), { recursive: true });
  mkdirSync(path.join(root, "views"), { recursive: true });
  for (let i = 0; i < FRAMES; i++) await solidPng(path.join(root, "tour", `${String(i).padStart(3, "0")}.png`), frameColour(i));
  for (const [name, colour] of Object.entries(VIEW_COLOURS)) await solidPng(path.join(root, "views", `${name}.png`), colour);
  const common = {
    scene: "h1",
    tour: { dir: "tour" },
    annotations: Array.from({ length: FRAMES }, (_, i) => annotation(i)),
    initial_views: { front: "views/front.png", left: "views/left.png", back: "views/back.png", right: "views/right.png" },
  };
  const rows = [
    { id: "room-q", task: "order", instruction: "Go to the first bedroom.", target: { room: "r2" }, answers: [2, 3], ...common },
    { id: "lamp-q", task: "instance", instruction: "Go to the lamp.", target: { object: "lamp_1" }, answers: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], ...common },
  ];
  writeFileSync(path.join(root, "items.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return root;
}

const data = await makeHouse();
const loaded = loadVcn(data);
assert.deepEqual(loaded.problems, []);
const roomItem = loaded.items.find((i) => i.id === "room-q")!;
const lampItem = loaded.items.find((i) => i.id === "lamp-q")!;

/** A scored result as `run` writes it (JSON round-tripped). */
function scored(item: VcnItem, frame: number, extra: Partial<ItemResult> = {}): ItemResult {
  const answer = vcn.readReply(item, `{"frame": ${frame}}`);
  return JSON.parse(JSON.stringify({ id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer, detail: vcn.scoreItem(item, answer), reply: `{"frame": ${frame}}`, ...extra }));
}

/**
 * Tile geometry of one grid row: cell side, tile size after enlarging, and per tile the image's
 * left/top edge (grid padding 6, title band above each image).
 */
function rowGeometry(tiles: number, top = 0) {
  const cell = Math.min(192, Math.floor((1024 - 6) / Math.max(4, tiles)) - 6);
  const scale = cell / Math.max(W, H);
  const w = Math.round(W * scale);
  const h = Math.round(H * scale);
  const tile = (k: number) => ({ x: 6 + k * (w + 6), y: top + 6 + TITLE });
  return { cell, w, h, tile, height: 6 + TITLE + h + 6 };
}

/** Centre colour and left/right border colours of tile k. */
function checkTile(px: (x: number, y: number) => RGB, row: ReturnType<typeof rowGeometry>, k: number, fill: RGB, border: RGB | null, what: string): void {
  const { x, y } = row.tile(k);
  assertNear(px(x + Math.floor(row.w / 2), y + Math.floor(row.h / 2)), fill, `${what} centre`);
  assertNear(px(x + row.w - 12, y + 12), fill, `${what} inside`);
  if (border) {
    assertNear(px(x + 1, y + Math.floor(row.h / 2)), border, `${what} left border`);
    assertNear(px(x + row.w - 2, y + Math.floor(row.h / 2)), border, `${what} right border`);
    assertNear(px(x + Math.floor(row.w / 2), y + 1), border, `${what} top border`);
  }
}

test("success: the chosen frame first with a green border, then the target frames in order, then the four views", async () => {
  const image = await vcnOverlay(roomItem, scored(roomItem, 3));
  const px = await pixels(image);
  // 3 tiles (chosen 3, targets 2 and 3): cell 192 (4 columns fit 1024), 40x30 enlarged to 192x144.
  const top = rowGeometry(3);
  assert.equal(top.w, 192);
  assert.equal(top.h, 144);
  checkTile(px, top, 0, frameColour(3), GREEN, "chosen");
  checkTile(px, top, 1, frameColour(2), GREEN, "target 2");
  checkTile(px, top, 2, frameColour(3), GREEN, "target 3");
  const views = rowGeometry(4, top.height);
  ["front", "left", "back", "right"].forEach((name, k) => checkTile(px, views, k, VIEW_COLOURS[name]!, null, name));
  assert.equal(image.width, 6 + 4 * (192 + 6));
  assert.equal(image.height, top.height + views.height);
  assert.ok(image.caption.some((l) => l.includes("chosen: frame 3")));
  assert.ok(image.caption.some((l) => /success: yes/.test(l)));
  assert.ok(image.caption.some((l) => l.includes("2 target frames: 2, 3")));
  // 2 of 12 frames succeed; 4 frames are bedrooms.
  assert.ok(image.caption.includes("chance: complete 16.7%, category 50.0%"), image.caption.join("\n"));
  assert.ok(image.caption.includes("prompt info: not recorded (frames re-sampled from the item)"));
});

test("failure: red border on the chosen frame, the error category in the caption; reference=false drops the views", async () => {
  const position = await vcnOverlay(roomItem, scored(roomItem, 1), { reference: false });
  const px = await pixels(position);
  const top = rowGeometry(3);
  checkTile(px, top, 0, frameColour(1), RED, "chosen");
  checkTile(px, top, 1, frameColour(2), GREEN, "target 2");
  assert.equal(position.height, top.height, "no views row");
  assert.ok(position.caption.some((l) => l.includes("error: position")));
  const disturbance = await vcnOverlay(roomItem, scored(roomItem, 6), { reference: false });
  checkTile(await pixels(disturbance), top, 0, frameColour(6), RED, "chosen");
  assert.ok(disturbance.caption.some((l) => l.includes("error: disturbance")));
  const cognition = await vcnOverlay(roomItem, scored(roomItem, 9), { reference: false });
  assert.ok(cognition.caption.some((l) => l.includes("error: cognition")));
});

test("many target frames: six drawn, spread evenly, and the caption gives the count", async () => {
  const image = await vcnOverlay(lampItem, scored(lampItem, 11));
  const px = await pixels(image);
  // 7 tiles: cell floor(1018 / 7) - 6 = 139; 40x30 -> 139x104.
  const top = rowGeometry(7);
  assert.deepEqual([top.cell, top.w, top.h], [139, 139, 104]);
  checkTile(px, top, 0, frameColour(11), RED, "chosen");
  // Frames 0..9 thinned to 6: round(i * 9 / 5) = 0, 2, 4, 5, 7, 9 (halves up).
  [0, 2, 4, 5, 7, 9].forEach((frame, k) => checkTile(px, top, k + 1, frameColour(frame), GREEN, `target ${frame}`));
  assert.equal(image.width, 6 + 7 * 145);
  assert.ok(image.caption.some((l) => l.includes("10 target frames") && l.includes("showing 6: 0, 2, 4, 5, 7, 9")), image.caption.join("\n"));
  assert.ok(image.caption.some((l) => l.includes("error: perception")));
});

test("maxSide: the whole picture is scaled down to fit", async () => {
  const full = await vcnOverlay(roomItem, scored(roomItem, 3));
  const small = await vcnOverlay(roomItem, scored(roomItem, 3), { maxSide: 300 });
  assert.equal(Math.max(small.width, small.height), 300);
  // The wider side becomes 300; the other is scaled by the same factor and rounded.
  assert.ok(full.width > full.height);
  assert.equal(small.width, 300);
  assert.equal(small.height, Math.round((full.height * 300) / full.width));
  await decodeOverlay(small); // the PNG is as large as recorded
  const tiny = await vcnOverlay(lampItem, scored(lampItem, 2), { maxSide: 64 });
  assert.ok(tiny.width <= 64 && tiny.height <= 64);
});

test("no usable answer: a placeholder tile with a red border, targets still drawn, never a throw", async () => {
  const top = rowGeometry(3);
  const base = { id: roomItem.id, task: roomItem.task, cluster: roomItem.cluster };
  const cases: Array<[string, unknown, RegExp]> = [
    ["call failed", { ...base, status: "error", response: { latency_ms: 5, attempts: 6, cached: false, error: { kind: "http", status: 500, message: "HTTP 500 after 6 attempts" } } }, /model call failed: HTTP 500/],
    ["unreadable", { ...base, status: "scored", answer: { status: "unparseable", value: null, reason: "no frame index in the reply" }, detail: { success: false, frame: null, reply_index: null, error: "no-answer" }, reply: "the kitchen" }, /unreadable reply: no frame index/],
    ["out of range", scored(roomItem, 57), /57, not a frame of the 12-frame tour/],
    ["garbage", { ...base, status: "scored", answer: 42, detail: "nonsense", prompt: [1, 2], reply: { x: 1 } }, /chosen: none/],
    ["wrong types", { ...base, status: "scored", answer: { status: "ok", value: { frame: "3" } }, detail: { frame: "3", success: "yes" } }, /chosen: none/],
    ["not an object", null, /chosen: none/],
  ];
  for (const [what, result, caption] of cases) {
    const image = await vcnOverlay(roomItem, result as ItemResult);
    const px = await pixels(image);
    const { x, y } = top.tile(0);
    assertNear(px(x + 10, y + Math.floor(top.h / 2)), PLACEHOLDER, `${what}: placeholder`);
    assertNear(px(x + 1, y + Math.floor(top.h / 2)), RED, `${what}: red border`);
    checkTile(px, top, 1, frameColour(2), GREEN, `${what}: target 2`);
    assert.ok(image.caption.some((l) => caption.test(l)), `${what}: ${image.caption.join(" | ")}`);
    assert.ok(image.caption.some((l) => l.includes("success: no")), what);
  }
});

test("a malformed detail is recomputed from a well-formed answer", async () => {
  const result = { id: roomItem.id, task: roomItem.task, cluster: roomItem.cluster, status: "scored", answer: { status: "ok", value: { reply_index: 2, frame: 2, rule: "json" } }, detail: { frame: "x", success: "maybe", chance: "?" } };
  const image = await vcnOverlay(roomItem, result as unknown as ItemResult);
  checkTile(await pixels(image), rowGeometry(3), 0, frameColour(2), GREEN, "chosen");
  assert.ok(image.caption.some((l) => /success: yes/.test(l)));
});

test("shuffled frames: the caption maps the shown position back to the tour frame", async () => {
  const shown = [5, 11, 0, 7, 2, 9, 3, 1, 10, 4, 8, 6];
  const prompt = { variant: "shuffled-frames", labels: "shown-position", shown, tour_frames: 12, dropped: 0, note: null };
  const answer = vcn.readReply(roomItem, '{"frame": 6}', prompt); // position 6 = tour frame 3
  const result = JSON.parse(JSON.stringify({ id: roomItem.id, task: roomItem.task, cluster: roomItem.cluster, status: "scored", answer, detail: vcn.scoreItem(roomItem, answer, prompt), prompt }));
  const image = await vcnOverlay(roomItem, result);
  checkTile(await pixels(image), rowGeometry(3), 0, frameColour(3), GREEN, "chosen");
  assert.ok(image.caption.some((l) => l.includes("shown position 6 = tour frame 3")), image.caption.join("\n"));
  assert.ok(image.caption.some((l) => l.includes("2→4") && l.includes("3→6")), "targets at their shown positions");
  assert.ok(image.caption.some((l) => l.startsWith("shown position → tour frame: 0→5, 1→11")));
});

test("missing media: an Error naming the folder or file", async () => {
  const gone = path.join(tmp, "no-such-tour");
  await assert.rejects(vcnOverlay({ ...roomItem, tour: { ...roomItem.tour, source: { dir: gone } } }, scored(roomItem, 3)), (e: Error) => e.message.includes(gone));
  const view = path.join(tmp, "no-such-view.png");
  await assert.rejects(vcnOverlay({ ...roomItem, views: { ...roomItem.views, back: view } }, scored(roomItem, 3)), (e: Error) => e.message.includes(view));
  // Without the views row the missing view is not needed.
  await vcnOverlay({ ...roomItem, views: { ...roomItem.views, back: view } }, scored(roomItem, 3), { reference: false });
});

test("end to end: every item of the example runs (plain, shuffled, counterfactual, thinned) gets an overlay that tells its outcome", async () => {
  const example = path.resolve(import.meta.dirname, "../../../test/fixtures/vcn-legacy-mini");
  const runs: Array<[string, Record<string, unknown>]> = [["plain", {}], ["shuffled-frames", {}], ["counterfactual", {}], ["plain", { max_images: 10 }]];
  for (const [source, flags] of runs) {
    const out = mkdtempSync(path.join(tmp, "run-"));
    await executeRun({ benchmark: "vcn", data: example, out, model: "random:1", bootstrapResamples: 50, bootstrapSeed: 1, quiet: true, promptSource: source, control: "none", seed: 3, flags, retryErrors: false });
    const results = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as ItemResult);
    const items = vcn.deriveItems!(vcn.load(example).items, { source, control: "none", seed: 3 });
    const byId = new Map(items.map((i) => [i.id, i]));
    assert.equal(results.length, items.length);
    for (const result of results) {
      const item = byId.get(result.id);
      assert.ok(item, result.id);
      const image = await vcnOverlay(item, result, { maxSide: 512 });
      assert.ok(image.width <= 512 && image.height <= 512);
      const detail = result.detail!;
      const where = `${source} ${result.id}`;
      assert.ok(image.caption.some((l) => l.includes(`success: ${detail["success"] ? "yes" : "no"}`)), where);
      if (detail["frame"] !== null) assert.ok(image.caption.some((l) => l.startsWith(`chosen: frame ${detail["frame"]}`)), where);
      if (detail["error"]) assert.ok(image.caption.some((l) => l.includes(`error: ${detail["error"]}`)), where);
      if (source === "shuffled-frames") assert.ok(image.caption.some((l) => l.includes(`the reply named shown position ${detail["reply_index"]}`)), where);
      if (source === "counterfactual") assert.ok(image.caption.some((l) => l.startsWith(`counterfactual of ${item.derivation!.of}`)), where);
      if (flags["max_images"]) assert.ok(image.caption.some((l) => /^the prompt showed 6 of \d+ tour frames/.test(l)), where);
    }
  }
});
