import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadEpic } from "../../../src/benchmarks/epic/load.js";
import { epicOverlay } from "../../../src/benchmarks/epic/overlay.js";
import { LEAF_TASKS } from "../../../src/benchmarks/epic/taxonomy.js";
import type { EpicItem, RleJson } from "../../../src/benchmarks/epic/types.js";
import type { ItemResult } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { decodeRgb, encodePng } from "../../../src/media/png.js";

/**
 * Expected colours, worked out by hand from the MARK hex codes and the 35% fill:
 * fill = round(under · 0.65 + colour · 0.35) per channel.
 */
const GREY: Rgb = [200, 200, 200];
const WHITE: Rgb = [255, 255, 255];
const GREEN: Rgb = [26, 152, 80]; // #1a9850
const RED: Rgb = [215, 48, 39]; // #d73027
const ORANGE: Rgb = [242, 142, 43]; // #f28e2b
const BLUE: Rgb = [37, 99, 235]; // #2563eb
const PURPLE: Rgb = [124, 58, 237]; // #7c3aed
// Grey under green: 200·0.65 = 130; 130 + 26·0.35 = 139.1, 130 + 152·0.35 = 183.2, 130 + 80·0.35 = 158.
const GREY_UNDER_GREEN: Rgb = [139, 183, 158];
// That under orange: 139·0.65 + 242·0.35 = 175.05, 183·0.65 + 142·0.35 = 168.65, 158·0.65 + 43·0.35 = 117.75.
const GREY_UNDER_GREEN_ORANGE: Rgb = [175, 169, 118];

type Rgb = readonly [number, number, number];

const CONFORMANCE = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-overlay-"));

/** A PNG of one colour. */
async function uniformPng(file: string, width: number, height: number, rgb: Rgb): Promise<string> {
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) pixels.set(rgb, i * 3);
  writeFileSync(file, await encodePng(pixels, width, height, 3));
  return file;
}

/** COCO list RLE of the rectangle x1 <= x < x2, y1 <= y < y2 (column-major runs, zeros first), written out run by run. */
function rectRle(height: number, width: number, [x1, y1, x2, y2]: [number, number, number, number]): RleJson {
  const counts: number[] = [];
  let zeros = x1 * height + y1;
  for (let x = x1; x < x2; x++) {
    counts.push(zeros, y2 - y1);
    zeros = height - y2 + (x + 1 < x2 ? y1 : 0);
  }
  counts.push(zeros + (width - x2) * height);
  return { size: [height, width], counts };
}

function leaf(name: string) {
  const found = LEAF_TASKS.find((l) => l.leaf === name);
  assert.ok(found, name);
  return found;
}

function item(leafName: string, images: string[], masks: Record<string, RleJson[]>, width: number, height: number, text: Record<string, unknown> = {}): EpicItem {
  const l = leaf(leafName);
  return { id: `EPIC_Bench/test/${leafName}/0001_mask_rle.json`, task: l.byType, cluster: "c", leaf: l, images, imageRefs: images, text, masks, height, width, gtFile: "" };
}

function scored(it: EpicItem, detail: Record<string, unknown>, value: Record<string, unknown> = {}): ItemResult {
  return { id: it.id, task: it.task, cluster: it.cluster, status: "scored", answer: { status: "ok", value, stored: "" }, detail };
}

async function pixels(png: Buffer) {
  const { data, width, height } = await decodeRgb(png);
  return { width, height, at: (x: number, y: number): Rgb => [data[(y * width + x) * 3]!, data[(y * width + x) * 3 + 1]!, data[(y * width + x) * 3 + 2]!] };
}

// ---------------------------------------------------------------- a box task by hand

/** 120×80 grey image; ground mask x 60..99, y 40..69; one box on it, one off it. */
async function groundCase() {
  const dir = tmp();
  const image = await uniformPng(path.join(dir, "0001_image.png"), 120, 80, GREY);
  const it = item("GroundDetection", [image], { masklet_ground: [rectRle(80, 120, [60, 40, 100, 70])] }, 120, 80);
  // IoU by hand: box 1 covers 30×30 = 900 mask pixels; union = 1200 (mask) + 15×25 (box 2) = 1575; 900 / 1575.
  const iou = 900 / 1575;
  const result = scored(it, {
    score: iou, components: { localization: iou, count: 0, path: 0, binary: 0 }, weights: { localization: 1, count: 0, path: 0, binary: 0 },
    error: null, invalid: false, coordMode: "absolute", gtCount: null, predCount: null, boxes: [[60, 40, 90, 70], [5, 50, 20, 75]],
  });
  return { it, result };
}

test("box task: mask blended at 35% with a solid outline, hit box purple, missed box red, rest untouched", async () => {
  const { it, result } = await groundCase();
  const out = await epicOverlay(it, result);
  assert.equal(out.width, 120);
  assert.equal(out.height, 80);
  const p = await pixels(out.png);
  assert.deepEqual([p.width, p.height], [120, 80]);
  assert.deepEqual(p.at(95, 55), GREY_UNDER_GREEN); // mask interior
  assert.deepEqual(p.at(99, 55), GREEN); // mask's right outline
  assert.deepEqual(p.at(100, 55), GREY); // just right of the mask
  assert.deepEqual(p.at(110, 75), GREY); // far outside
  // Box 1 [60, 40, 90, 70): a 1 px stroke on its own edge pixels (x 60 and 89, y 40 and 69).
  assert.deepEqual(p.at(89, 55), PURPLE);
  assert.deepEqual(p.at(75, 69), PURPLE);
  assert.deepEqual(p.at(88, 55), GREY_UNDER_GREEN); // one pixel inside the box: mask only
  // Box 2 [5, 50, 20, 75) misses the mask: red, its inside untouched.
  assert.deepEqual(p.at(5, 60), RED);
  assert.deepEqual(p.at(19, 60), RED);
  assert.deepEqual(p.at(12, 62), GREY);
  const caption = out.caption.join("\n");
  assert.match(caption, /^task: Navigation\/GroundDetection$/m);
  assert.match(caption, /^answer: 2 boxes \(absolute\): \[60, 40, 90, 70\] \[5, 50, 20, 75\]$/m);
  assert.match(caption, /^truth: target mask 1 part, 1,200 px$/m);
  assert.match(caption, /^score 0\.5714 = 1 × IoU 0\.5714$/m);
  assert.match(caption, /boxes on the target mask: 1 of 2/);
});

test("reference: false leaves the mask out but keeps the answer", async () => {
  const { it, result } = await groundCase();
  const p = await pixels((await epicOverlay(it, result, { reference: false })).png);
  assert.deepEqual(p.at(95, 55), GREY);
  assert.deepEqual(p.at(99, 55), GREY);
  assert.deepEqual(p.at(89, 55), PURPLE);
  assert.deepEqual(p.at(5, 60), RED);
});

test("several target instances are all drawn", async () => {
  const dir = tmp();
  const image = await uniformPng(path.join(dir, "0001_image.png"), 120, 80, GREY);
  const masks = { masklet_target: [rectRle(80, 120, [10, 30, 30, 60]), rectRle(80, 120, [70, 30, 110, 60])] };
  const it = item("Category", [image], masks, 120, 80, { count_target_instance: 2, precise_count: true });
  const out = await epicOverlay(it, scored(it, { score: 0.5, components: { localization: 0, count: 1 }, weights: { localization: 0.5, count: 0.5 }, coordMode: "absolute", predCount: 2, boxes: [] }));
  const p = await pixels(out.png);
  assert.deepEqual(p.at(20, 45), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(90, 45), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(50, 45), GREY);
  const caption = out.caption.join("\n");
  assert.match(caption, /^truth: target mask 2 parts, 1,800 px, count 2 \(exact count required\)$/m);
  assert.match(caption, /^answer: 0 boxes; count 2$/m);
  assert.match(caption, /^score 0\.5 = 0\.5 × IoU 0 \+ 0\.5 × count 1$/m);
});

// ---------------------------------------------------------------- a path task by hand

/** Corridor x 40..79 over the full height, goal at its top (y 0..9); a path up it with one step outside. */
async function pathCase(factor: number) {
  const dir = tmp();
  const [W, H] = [120 * factor, 80 * factor];
  const image = await uniformPng(path.join(dir, "0001_image.png"), W, H, GREY);
  const f = (box: [number, number, number, number]) => box.map((v) => v * factor) as [number, number, number, number];
  const it = item("FeasiblePath_Ego", [image], { masklet_path: [rectRle(H, W, f([40, 0, 80, 80]))], masklet_target_area: [rectRle(H, W, f([40, 0, 80, 10]))] }, W, H);
  const points = [[60, 75], [60, 40], [100, 40], [60, 5]].map(([x, y]) => [x! * factor, y! * factor]);
  const result = scored(it, {
    score: 0.75, components: { localization: 0, count: 0, path: 0.75, binary: 0 }, weights: { localization: 0, count: 0, path: 1, binary: 0 },
    error: null, invalid: false, coordMode: "absolute", gtCount: null, predCount: null, points,
    path: { perspective: "FirstPerspective", pointsBeforeFilter: 4, pointsAfterFilter: 4, startEnd: 0.9, feasibility: 0.7, awayStart: 1, towardEnd: 2 / 3, continuity: 0.5, perPoint: [], startEndDistance: 70 },
  });
  return { it, result };
}

test("path task: feasible area green, goal orange over it, start point blue, points inside purple and outside red", async () => {
  const { it, result } = await pathCase(1);
  const out = await epicOverlay(it, result);
  const p = await pixels(out.png);
  assert.deepEqual([out.width, out.height], [120, 80]);
  // Points sit at pixel centres: (x + 0.5, y + 0.5) on the canvas.
  assert.deepEqual(p.at(60, 75), BLUE); // first point = start
  assert.deepEqual(p.at(60, 40), PURPLE); // inside the corridor
  assert.deepEqual(p.at(100, 40), RED); // outside it
  assert.deepEqual(p.at(60, 5), PURPLE); // last point, inside
  assert.deepEqual(p.at(90, 40), PURPLE); // the line between (60, 40) and (100, 40), 1 px on row 40
  assert.deepEqual(p.at(60, 60), PURPLE); // the line between (60, 75) and (60, 40), 1 px on column 60
  assert.deepEqual(p.at(61, 60), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(50, 60), GREY_UNDER_GREEN); // corridor interior
  assert.deepEqual(p.at(50, 5), GREY_UNDER_GREEN_ORANGE); // goal over corridor
  assert.deepEqual(p.at(50, 9), ORANGE); // goal outline (its bottom row)
  assert.deepEqual(p.at(40, 60), GREEN); // corridor outline
  assert.deepEqual(p.at(20, 60), GREY);
  const caption = out.caption.join("\n");
  assert.match(caption, /^answer: path of 4 points \(absolute\): \(60, 75\) \(60, 40\) \(100, 40\) \(60, 5\)$/m);
  assert.match(caption, /^truth: feasible area 1 part, 3,200 px; goal area 1 part, 400 px; start at the bottom centre \(60, 79\)$/m);
  assert.match(caption, /^score 0\.75 = 1 × path 0\.75$/m);
  assert.match(caption, /^path parts: start\/end 0\.9, feasibility 0\.7, away from start 1, toward goal 0\.6667, continuity 0\.5; points kept 4 of 4; D_SG 70 px$/m);
  assert.match(caption, /path points in the feasible area: 3 of 4 kept/);
});

test("maxSide: a 240×160 path picture at maxSide 120 is 120×80 with every mark at half its position", async () => {
  const { it, result } = await pathCase(2);
  const out = await epicOverlay(it, result, { maxSide: 120 });
  assert.deepEqual([out.width, out.height], [120, 80]);
  const p = await pixels(out.png);
  // Source point (120, 150) -> canvas ((120 + 0.5) / 2, (150 + 0.5) / 2) = (60.25, 75.25): pixel (60, 75).
  assert.deepEqual(p.at(60, 75), BLUE);
  assert.deepEqual(p.at(60, 40), PURPLE);
  assert.deepEqual(p.at(100, 40), RED);
  // Corridor x 80..159 -> canvas 40..79 (nearest mask pixel of canvas column c is 2c + 1).
  assert.deepEqual(p.at(50, 60), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(40, 60), GREEN);
  assert.deepEqual(p.at(39, 60), GREY);
});

/** 1200×800 image (no overlay image: only the scene is shown); mask x 300..999, y 300..699; box [400, 400, 800, 600) on it. */
async function bigBoxCase() {
  const dir = tmp();
  const image = await uniformPng(path.join(dir, "0001_image.png"), 1200, 800, GREY);
  const it = item("AffordanceRegion", [image], { masklet_affordance_region: [rectRle(800, 1200, [300, 300, 1000, 700])] }, 1200, 800);
  return { it, result: scored(it, { score: 0.2857, components: { localization: 0.2857 }, weights: { localization: 1 }, coordMode: "absolute", boxes: [[400, 400, 800, 600]] }) };
}

test("maxSide scales the picture and the marks: 2 px strokes at 600, 1 px at 300", async () => {
  const { it, result } = await bigBoxCase();
  const at600 = await epicOverlay(it, result, { maxSide: 600 });
  assert.deepEqual([at600.width, at600.height], [600, 400]);
  let p = await pixels(at600.png);
  // Scale 0.5: box -> [200, 300) × [200, 300); mask -> [150, 500) × [150, 350).
  assert.deepEqual(p.at(200, 250), PURPLE);
  assert.deepEqual(p.at(201, 250), PURPLE);
  assert.deepEqual(p.at(202, 250), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(150, 250), GREEN);
  assert.deepEqual(p.at(151, 250), GREEN);
  assert.deepEqual(p.at(152, 250), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(149, 250), GREY);
  const at300 = await epicOverlay(it, result, { maxSide: 300 });
  assert.deepEqual([at300.width, at300.height], [300, 200]);
  p = await pixels(at300.png);
  // Scale 0.25: box -> [100, 200) × [100, 150); mask -> [75, 250) × [75, 175).
  assert.deepEqual(p.at(100, 125), PURPLE);
  assert.deepEqual(p.at(101, 125), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(75, 125), GREEN);
  assert.deepEqual(p.at(76, 125), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(74, 125), GREY);
  // Default maxSide 1024: 1200 × 1024/1200 = 1024, 800 × 1024/1200 = 682.67 -> 683.
  const full = await epicOverlay(it, result);
  assert.deepEqual([full.width, full.height], [1024, 683]);
});

// ---------------------------------------------------------------- several images

test("visual matching: image a's reference overlay on the left, image b with the marks on the right", async () => {
  const dir = tmp();
  const a = await uniformPng(path.join(dir, "0001_image.png"), 96, 64, [90, 90, 90]);
  const overlayA = await uniformPng(path.join(dir, "0001_reference_area_overlay.png"), 96, 64, [50, 50, 200]);
  const b = await uniformPng(path.join(dir, "0002_image.png"), 80, 60, GREY);
  const it = item("VisualMatching", [a, overlayA, b], { masklet_matching_area: [rectRle(60, 80, [40, 20, 70, 50])] }, 80, 60, { count_matching_area: 1, precise_count: true });
  const out = await epicOverlay(it, scored(it, { score: 0.7222, components: { localization: 0.4444, count: 1 }, weights: { localization: 0.5, count: 0.5 }, coordMode: "absolute", predCount: 1, boxes: [[40, 20, 60, 40]] }));
  // Both at image b's height 60: the overlay 96×64 becomes 90×60; then 8 white columns; then b (80 wide).
  assert.deepEqual([out.width, out.height], [90 + 8 + 80, 60]);
  const p = await pixels(out.png);
  assert.deepEqual(p.at(45, 50), [50, 50, 200]);
  assert.deepEqual(p.at(93, 30), WHITE);
  assert.deepEqual(p.at(98 + 40, 30), PURPLE); // box's left edge on image b
  assert.deepEqual(p.at(98 + 65, 45), GREY_UNDER_GREEN); // mask interior on image b
  assert.deepEqual(p.at(98 + 75, 55), GREY);
  const caption = out.caption.join("\n");
  assert.match(caption, /^answer: 1 box \(absolute\): \[40, 20, 60, 40\]; count 1$/m);
  assert.match(caption, /^truth: target mask 1 part, 900 px, count 1 \(exact count required\)$/m);
  assert.match(caption, /^score 0\.7222 = 0\.5 × IoU 0\.4444 \+ 0\.5 × count 1$/m);
});

test("placement: predicted and true feasibility in the caption; overlay image shown beside the scene", async () => {
  const dir = tmp();
  const scene = await uniformPng(path.join(dir, "0001_image.png"), 100, 60, GREY);
  const ref = await uniformPng(path.join(dir, "0001_reference_object_overlay.png"), 100, 60, [10, 120, 10]);
  const it = item("PlacementRegion", [scene, ref], { masklet_placement_region: [rectRle(60, 100, [20, 20, 40, 40])] }, 100, 60, { placement_feasibility: "yes" });
  const out = await epicOverlay(it, scored(it, { score: 0, components: { localization: 0, binary: 0 }, weights: { localization: 0.5, binary: 0.5 }, coordMode: "absolute", boxes: [[60, 20, 80, 40]] }, { binary: [false] }));
  assert.deepEqual([out.width, out.height], [100 + 8 + 100, 60]);
  const p = await pixels(out.png);
  assert.deepEqual(p.at(60, 30), RED); // the box misses the region
  assert.deepEqual(p.at(30, 30), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(150, 50), [10, 120, 10]);
  const caption = out.caption.join("\n");
  assert.match(caption, /^answer: 1 box \(absolute\): \[60, 20, 80, 40\]; feasible: no$/m);
  assert.match(caption, /^truth: target mask 1 part, 400 px, feasible: yes$/m);
  assert.match(caption, /^score 0 = 0\.5 × IoU 0 \+ 0\.5 × feasibility 0$/m);
});

test("normalised coordinates are drawn in image pixels", async () => {
  const { it } = await groundCase();
  // 0-1000 box (500, 500, 750, 875) on 120×80 = pixels [60, 40, 90, 70).
  const out = await epicOverlay(it, scored(it, { score: 0.5, components: { localization: 0.5 }, weights: { localization: 1 }, coordMode: "normalized_0_1000", boxes: [[500, 500, 750, 875]] }));
  const p = await pixels(out.png);
  assert.deepEqual(p.at(89, 55), PURPLE);
  assert.deepEqual(p.at(60, 55), PURPLE);
  assert.deepEqual(p.at(88, 55), GREY_UNDER_GREEN);
});

// ---------------------------------------------------------------- odd results

test("an errored request: mask only, the failure in the caption", async () => {
  const { it } = await groundCase();
  const result: ItemResult = { id: it.id, task: it.task, cluster: it.cluster, status: "error", response: { latency_ms: 0, attempts: 5, cached: false, error: { kind: "http", status: 503, message: "HTTP 503 Service Unavailable" } } };
  const out = await epicOverlay(it, result);
  const p = await pixels(out.png);
  assert.deepEqual(p.at(95, 55), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(89, 55), GREY_UNDER_GREEN);
  assert.deepEqual(p.at(5, 60), GREY);
  assert.ok(out.caption.includes("request failed: HTTP 503 Service Unavailable"), out.caption.join("\n"));
  assert.match(out.caption.join("\n"), /not scored/);
});

test("an unreadable reply: mask only, the reason and the recorded score in the caption", async () => {
  const { it } = await groundCase();
  const result: ItemResult = {
    id: it.id, task: it.task, cluster: it.cluster, status: "scored",
    answer: { status: "unparseable", value: { localization: ["No Valid Response"] }, reason: "no JSON object with the task's keys", stored: "I see a floor." },
    detail: { score: 0, components: { localization: 0 }, weights: { localization: 1 }, error: null, invalid: false, coordMode: "absolute", boxes: [] },
  };
  const out = await epicOverlay(it, result);
  const p = await pixels(out.png);
  assert.deepEqual(p.at(95, 55), GREY_UNDER_GREEN);
  assert.ok(out.caption.includes("unreadable: no JSON object with the task's keys"), out.caption.join("\n"));
  assert.ok(out.caption.includes("score 0 = 1 × IoU 0"), out.caption.join("\n"));
});

test("garbage in the result never throws: it reads as no answer", async () => {
  const { it } = await groundCase();
  const path0 = await pathCase(1);
  const garbage: unknown[] = [
    {},
    null,
    { status: "scored", answer: "yes", detail: "lots" },
    { status: "scored", answer: { status: "ok", value: 7 }, detail: { score: "high", components: [1, 2], weights: "x", boxes: [[1, "a", 3, 4], "box", [null, 1, 2, 3], [1, 2]], points: { x: 1 }, coordMode: 42, path: [1, 2], predCount: "3", error: 5 } },
    { status: "scored", answer: { status: "ok" }, detail: { boxes: [[10, 10, 10, 10], [-50, -50, -10, -10], [1e300, 1e300, 2e300, 2e300]], coordMode: "sideways" } },
    { status: "error", response: "down" },
  ];
  for (const [target, tag] of [[it, "ground"], [path0.it, "path"]] as const) {
    for (const [i, g] of garbage.entries()) {
      const out = await epicOverlay(target, g as ItemResult);
      const p = await pixels(out.png);
      assert.deepEqual([p.width, p.height], [out.width, out.height], `${tag} ${i}`);
      assert.ok(out.caption.length >= 3 && out.caption.every((line) => typeof line === "string" && line.length > 0), `${tag} ${i}: ${out.caption.join(" | ")}`);
    }
  }
  const weird = await epicOverlay(path0.it, { ...path0.result, detail: { points: [["a", "b"], [1, 2, 3], [60, 40]], path: "x", coordMode: null, score: null } } as ItemResult);
  assert.ok(weird.caption.includes("score: none recorded"), weird.caption.join("\n"));
});

test("a missing image is an Error naming the file", async () => {
  const { it, result } = await groundCase();
  const missing = path.join(tmp(), "0042_image.jpg");
  await assert.rejects(epicOverlay({ ...it, images: [missing] }, result), (error: Error) => error instanceof Error && error.message.includes(missing));
});

// ---------------------------------------------------------------- end to end on the golden set

test("end to end: oracle and random:1 runs on the conformance set, every result drawn", async () => {
  const tasks = ["GroundDetection", "FeasiblePath_Ego", "FeasiblePath_Exo", "Category", "VisualMatching", "PlacementRegion"];
  const { items } = loadEpic(CONFORMANCE);
  const byId = new Map(items.map((i) => [i.id, i]));
  const seenTasks = new Set<string>();
  for (const model of ["oracle", "random:1"]) {
    const out = tmp();
    await executeRun({ benchmark: "epic", data: CONFORMANCE, out, model, tasks, bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "mask-overlay", control: "none", seed: 1, flags: {}, retryErrors: false });
    // The results as a reader of the run gets them: lines of items.jsonl.
    const results = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as ItemResult);
    assert.ok(results.length >= 20, String(results.length));
    for (const result of results) {
      const it = byId.get(result.id);
      assert.ok(it, result.id);
      seenTasks.add(it.leaf.leaf);
      for (const maxSide of [1024, 64]) {
        const out = await epicOverlay(it, result, { maxSide });
        const p = await pixels(out.png);
        assert.deepEqual([p.width, p.height], [out.width, out.height]);
        assert.ok(Math.max(out.width, out.height) <= maxSide, `${result.id} at ${maxSide}: ${out.width}×${out.height}`);
        const score = (result.detail as { score: number }).score;
        // The recorded score, to 4 decimals without trailing zeros.
        const shown = String(Math.round(score * 10000) / 10000);
        assert.ok(out.caption.some((line) => line.startsWith(`score ${shown}`)), `${result.id}: ${out.caption.join(" | ")}`);
        assert.ok(out.caption[0] === `task: ${it.task}`);
        const boxes = (result.detail as { boxes?: unknown[] }).boxes ?? [];
        // The oracle's boxes are the ground truth's component boxes: every one lies on the mask.
        if (model === "oracle" && boxes.length > 0) assert.ok(out.caption.includes(`boxes on the target mask: ${boxes.length} of ${boxes.length} (purple overlaps it, red misses)`), out.caption.join(" | "));
      }
    }
  }
  assert.deepEqual([...seenTasks].sort(), [...tasks].sort());
});
