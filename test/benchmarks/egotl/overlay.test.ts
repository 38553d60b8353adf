import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { egotl, loadEgoTL, readAnswer, rotateItems, scoreDetail, type EgoTLItem } from "../../../src/benchmarks/egotl/index.js";
import { egotlOverlay, wrapText } from "../../../src/benchmarks/egotl/overlay.js";
import type { ItemResult } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { hasFont } from "../../../src/media/draw.js";
import { assertNear, decodeOverlay, frameColour, pixels, writePng, type RGB } from "../../helpers/pixels.js";

/**
 * The EgoTL-Bench overlay on hand-made clips: uniform-colour frames whose colour encodes the frame
 * number. Positions follow the drawing kit's tileGrid rule (6 px padding, a 20 px title band when a
 * font is installed) and the overlay's documented layout: 4 tiles a row, 192 px tiles (small frames
 * enlarged), at most 8 tiles; below, the panel: 8 px padding, 20 px per text line, line 0 the
 * header, then one line per option; 12 px marker squares at x 8 (chosen) and x 26 (truth), 4 px
 * below the line's top.
 */
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egotl-overlay-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(tmp, "frame-cache");

const W = 40;
const H = 30;
const CURRENT: RGB = [250, 120, 10];
const GREEN: RGB = [0x1a, 0x98, 0x50];
const RED: RGB = [0xd7, 0x30, 0x27];
const PURPLE: RGB = [0x7c, 0x3a, 0xed];
const WHITE: RGB = [255, 255, 255];
const TITLE = hasFont() ? 20 : 0;

const solidPng = (file: string, colour: RGB) => writePng(file, W, H, () => colour);

const OPTIONS = ["walk forward", "turn left", "turn right", "climb the stairs"];

async function makeSet(): Promise<string> {
  const root = path.join(tmp, "data");
  mkdirSync(path.join(root, "clip"), { recursive: true });
  for (let i = 0; i < 12; i++) await solidPng(path.join(root, "clip", `f${i}.png`), frameColour(i));
  await solidPng(path.join(root, "current.png"), CURRENT);
  const media = { dir: "clip", fps: 2, spec: { mode: "all" } };
  const rows = [
    { id: "ar", task: "action_recognition", media, options: OPTIONS, answer: "B" },
    { id: "scene", task: "scene_action", media, current_frame: "current.png", abstract_task: "Reach the door.", options: OPTIONS, answer: "turn left" },
    { id: "dir", task: "direction", media, answer: "Going up" },
    { id: "dist", task: "distance", media, answer: 4 },
  ];
  writeFileSync(path.join(root, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return root;
}

const data = await makeSet();
const loaded = loadEgoTL(data);
assert.deepEqual(loaded.problems, []);
const item = (id: string): EgoTLItem => loaded.items.find((i) => i.id === id)!;

/** A scored result as `run` writes it (JSON round-tripped), optionally with prompt info. */
function scored(it: EgoTLItem, reply: string, prompt?: Record<string, unknown>): ItemResult {
  const answer = readAnswer(it, reply);
  return JSON.parse(JSON.stringify({ id: it.id, task: it.task, cluster: it.cluster, status: "scored", answer, detail: scoreDetail(it, answer), reply, ...(prompt ? { prompt } : {}) }));
}

/** 40x30 frames enlarged to 192x144 tiles, 4 a row: tile k's centre, and the grid's height for n tiles. */
const TILE_W = 192;
const TILE_H = 144;
const tileCentre = (k: number): [number, number] => [6 + (k % 4) * (TILE_W + 6) + TILE_W / 2, 6 + Math.floor(k / 4) * (TILE_H + TITLE + 6) + TITLE + TILE_H / 2];
const gridHeight = (tiles: number) => 6 + Math.ceil(tiles / 4) * (TILE_H + TITLE + 6);

function checkTiles(px: (x: number, y: number) => RGB, colours: RGB[], what: string): void {
  colours.forEach((colour, k) => assertNear(px(...tileCentre(k)), colour, `${what} tile ${k}`));
}

/** Centre of the marker square of panel line `line` (0 = header) in slot x (8 chosen, 26 truth). */
const marker = (gridH: number, line: number, slot: "chosen" | "truth"): [number, number] => [(slot === "chosen" ? 8 : 26) + 6, gridH + 8 + line * 20 + 4 + 6];

test("action recognition, wrong answer: the frames thinned to 8, the chosen option red, the true one green", async () => {
  const image = await egotlOverlay(item("ar"), scored(item("ar"), "C"));
  const px = await pixels(image);
  // 12 frames to 8: round(i * 11 / 7), halves up = 0, 2, 3, 5, 6, 8, 9, 11.
  checkTiles(px, [0, 2, 3, 5, 6, 8, 9, 11].map(frameColour), "ar");
  const gridH = gridHeight(8);
  // Options A-D on panel lines 1-4: C chosen (wrong, red), B true (green).
  assertNear(px(...marker(gridH, 3, "chosen")), RED, "C chosen");
  assertNear(px(...marker(gridH, 2, "truth")), GREEN, "B truth");
  assertNear(px(...marker(gridH, 2, "chosen")), WHITE, "B not chosen");
  assertNear(px(...marker(gridH, 3, "truth")), WHITE, "C not true");
  for (const line of [1, 4]) for (const slot of ["chosen", "truth"] as const) assertNear(px(...marker(gridH, line, slot)), WHITE, `line ${line} ${slot}`);
  assert.equal(image.width, 800);
  assert.equal(image.height, gridH + 2 * 8 + 5 * 20);
  assert.ok(image.caption.includes("chosen: C (turn right)"));
  assert.ok(image.caption.includes("truth: B (turn left)"));
  assert.ok(image.caption.includes("outcome: wrong"));
  assert.ok(image.caption.some((l) => l.startsWith("frames: 12 sampled from the item (no prompt info)")));
});

test("right answer: chosen marker purple next to the green truth; reference=false leaves the truth unmarked", async () => {
  const right = await egotlOverlay(item("ar"), scored(item("ar"), "B"));
  const px = await pixels(right);
  const gridH = gridHeight(8);
  assertNear(px(...marker(gridH, 2, "chosen")), PURPLE, "B chosen");
  assertNear(px(...marker(gridH, 2, "truth")), GREEN, "B truth");
  assert.ok(right.caption.includes("outcome: correct"));
  const hidden = await pixels(await egotlOverlay(item("ar"), scored(item("ar"), "B"), { reference: false }));
  assertNear(hidden(...marker(gridH, 2, "chosen")), PURPLE, "B chosen");
  assertNear(hidden(...marker(gridH, 2, "truth")), WHITE, "no truth marker");
});

test("prompt info: exactly the frames the model was sent are drawn", async () => {
  const prompt = { task: "action_recognition", frames: { source: "clip", indices: [0, 3, 5, 8, 11], timestamps: [0, 1.5, 2.5, 4, 5.5], thinning: "12 frames thinned to 5 (provider limit)" } };
  const image = await egotlOverlay(item("ar"), scored(item("ar"), "B", prompt));
  const px = await pixels(image);
  checkTiles(px, [0, 3, 5, 8, 11].map(frameColour), "sent");
  assert.equal(image.height, gridHeight(5) + 2 * 8 + 5 * 20);
  assert.ok(image.caption.some((l) => l.startsWith("frames: 5 shown to the model (of 12 sampled): 0, 3, 5, 8, 11; 5 drawn; 12 frames thinned to 5")), image.caption.join("\n"));
});

test("scene-aware action: seven clip frames and the current view as the eighth tile; the option text answer is marked", async () => {
  const image = await egotlOverlay(item("scene"), scored(item("scene"), "Turn left."));
  const px = await pixels(image);
  // 12 frames to 7: round(i * 11 / 6), halves up = 0, 2, 4, 6, 7, 9, 11; then the current view.
  checkTiles(px, [...[0, 2, 4, 6, 7, 9, 11].map(frameColour), CURRENT], "scene");
  const gridH = gridHeight(8);
  assertNear(px(...marker(gridH, 2, "chosen")), PURPLE, "turn left chosen and right");
  assertNear(px(...marker(gridH, 2, "truth")), GREEN, "turn left true");
  assert.ok(image.caption.includes("abstract task: Reach the door."));
  assert.ok(image.caption.includes("current view: current.png"));
});

test("direction: the five labels, chosen and true marked", async () => {
  const image = await egotlOverlay(item("dir"), scored(item("dir"), "The camera turns left."));
  const px = await pixels(image);
  const gridH = gridHeight(8);
  // Lines 1-5: Turn left, Turn right, Move forward, Going up, Going down.
  assertNear(px(...marker(gridH, 1, "chosen")), RED, "Turn left chosen");
  assertNear(px(...marker(gridH, 4, "truth")), GREEN, "Going up true");
  assertNear(px(...marker(gridH, 4, "chosen")), WHITE, "Going up not chosen");
  assert.equal(image.height, gridH + 2 * 8 + 6 * 20);
  assert.ok(image.caption.includes("chosen: Turn left") && image.caption.includes("truth: Going up"));
});

test("distance: predicted and true metres on a scale, and the MRA", async () => {
  const image = await egotlOverlay(item("dist"), scored(item("dist"), "about 2 meters"));
  const px = await pixels(image);
  const gridH = gridHeight(8);
  // Lines: header, predicted (chosen marker; MRA > 0 so purple), truth (green), MRA; then the scale.
  assertNear(px(...marker(gridH, 1, "chosen")), PURPLE, "predicted");
  assertNear(px(...marker(gridH, 2, "truth")), GREEN, "truth");
  // |2 - 4| / 4 = 0.5 passes only the threshold 0.5: MRA 1/10.
  assert.ok(image.caption.includes("outcome: MRA 0.1"), image.caption.join("\n"));
  // Scale from x 46 to 800 - 24 = 776 for 0..5 m (1.25 x the larger value); axis 20 px into the 40 px band after 4 lines.
  const axis = gridH + 8 + 4 * 20 + 20;
  assertNear(px(46 + Math.round((730 * 4) / 5), axis - 10), GREEN, "truth tick at 4 m");
  assertNear(px(46 + Math.round((730 * 2) / 5), axis), PURPLE, "prediction tick at 2 m");
  assertNear(px(46 + Math.round((730 * 2) / 5), axis - 10), WHITE, "the prediction tick is the short one");
  assert.equal(image.height, gridH + 2 * 8 + 4 * 20 + 40);
  const none = await egotlOverlay(item("dist"), scored(item("dist"), "no idea"));
  assert.ok(none.caption.includes("outcome: MRA 0 (no number read)"), none.caption.join("\n"));
});

test("maxSide: the whole picture is scaled down to fit", async () => {
  const full = await egotlOverlay(item("ar"), scored(item("ar"), "C"));
  const small = await egotlOverlay(item("ar"), scored(item("ar"), "C"), { maxSide: 200 });
  assert.equal(small.width, 200);
  assert.equal(small.height, Math.round((full.height * 200) / full.width));
  await decodeOverlay(small); // the PNG is as large as recorded
  for (const maxSide of [64, 333, 5000]) {
    const image = await egotlOverlay(item("scene"), scored(item("scene"), "walk forward"), { maxSide });
    assert.ok(Math.max(image.width, image.height) <= maxSide, String(maxSide));
  }
});

test("no usable answer: frames and options still drawn, no chosen marker, never a throw", async () => {
  const ar = item("ar");
  const base = { id: ar.id, task: ar.task, cluster: ar.cluster };
  const cases: Array<[string, unknown, string]> = [
    ["call failed", { ...base, status: "error", response: { latency_ms: 1, attempts: 6, cached: false, error: { kind: "timeout", message: "timed out after 60000 ms" } } }, "outcome: not scored (the model call failed)"],
    ["unreadable", scored(ar, "I cannot tell."), "outcome: unreadable, excluded from the paper's accuracy (counted wrong in accuracy_counted)"],
    ["garbage", { ...base, status: "scored", answer: "B", detail: [1, 2], prompt: { frames: "all" }, reply: 7 }, "outcome: no prediction, counted wrong"],
    ["wrong types", { ...base, status: "scored", answer: { status: "ok", value: { index: "1" } }, detail: { predicted: 1, correct: "yes" } }, "outcome: unreadable, excluded from the paper's accuracy (counted wrong in accuracy_counted)"],
    ["not an object", "oops", "outcome: no prediction, counted wrong"],
  ];
  const gridH = gridHeight(8);
  for (const [what, result, outcome] of cases) {
    const image = await egotlOverlay(ar, result as ItemResult);
    const px = await pixels(image);
    checkTiles(px, [0, 2, 3, 5, 6, 8, 9, 11].map(frameColour), what);
    for (const line of [1, 2, 3, 4]) assertNear(px(...marker(gridH, line, "chosen")), WHITE, `${what}: no chosen marker on line ${line}`);
    assertNear(px(...marker(gridH, 2, "truth")), GREEN, `${what}: truth still marked`);
    assert.ok(image.caption.includes(outcome), `${what}: ${image.caption.join(" | ")}`);
  }
  const failed = await egotlOverlay(ar, cases[0]![1] as ItemResult);
  assert.ok(failed.caption.includes("chosen: none: model call failed: timed out after 60000 ms"));
});

test("missing media: an Error naming the folder or file", async () => {
  const ar = item("ar");
  const gone = path.join(tmp, "no-such-clip");
  await assert.rejects(egotlOverlay({ ...ar, media: { ...ar.media!, source: { dir: gone } } }, scored(ar, "B")), (e: Error) => e.message.includes(gone));
  const scene = item("scene");
  const view = path.join(tmp, "no-such-view.png");
  await assert.rejects(egotlOverlay({ ...scene, currentFrame: { path: view, display: "no-such-view.png" } }, scored(scene, "turn left")), (e: Error) => e.message.includes(view));
});

test("wrapText: at spaces, long words split, at most max lines with an ellipsis", () => {
  assert.deepEqual(wrapText("aa bb cc", 5, 3), ["aa bb", "cc"]);
  assert.deepEqual(wrapText("abcdefgh", 3, 5), ["abc", "def", "gh"]);
  assert.deepEqual(wrapText("one two three four", 7, 2), ["one two", "three…"]);
  assert.deepEqual(wrapText("", 5, 2), [""]);
});

test("end to end: every item of the example runs (plain and circular) gets an overlay that tells its outcome", async () => {
  const example = path.resolve(import.meta.dirname, "../../../test/fixtures/egotl-legacy-mini");
  for (const circular of [false, true]) {
    const out = mkdtempSync(path.join(tmp, "run-"));
    await executeRun({ benchmark: "egotl", data: example, out, model: "random:1", bootstrapResamples: 50, bootstrapSeed: 1, quiet: true, promptSource: "templates", control: "none", seed: 1, flags: { max_images: 6 }, retryErrors: false, benchmarkOptions: { circular } });
    const results = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as ItemResult);
    const base = egotl.load(example).items;
    const items = circular ? rotateItems(base) : base;
    const byId = new Map(items.map((i) => [i.id, i]));
    assert.equal(results.length, circular ? 90 : 30);
    for (const result of results) {
      const it = byId.get(result.id);
      assert.ok(it, result.id);
      const image = await egotlOverlay(it, result, { maxSide: 600 });
      assert.ok(image.width <= 600 && image.height <= 600);
      const detail = result.detail!;
      const where = `${circular ? "circular" : "plain"} ${result.id}`;
      if (it.task === "distance") assert.ok(image.caption.some((l) => l.startsWith(`outcome: MRA ${detail["MRA"]}`)), where);
      else if (detail["predicted"] !== null) assert.ok(image.caption.includes(`outcome: ${detail["correct"] ? "correct" : "wrong"}`), where);
      if (detail["predicted"] !== null) assert.ok(image.caption.some((l) => l.startsWith(`chosen: ${detail["predicted"]}`)), where);
      assert.ok(image.caption.some((l) => l.startsWith(`truth: ${detail["truth"]}`)), where);
      if (it.rotation) assert.ok(image.caption[0]!.includes(`rotation ${it.rotation.k} of ${it.rotation.base}`), where);
      // --max-images 6: at most 6 images a request (5 frames next to a current view).
      if (it.media) assert.ok(image.caption.some((l) => /^frames: [1-6] shown to the model/.test(l)), `${where}: ${image.caption.join(" | ")}`);
    }
  }
});
