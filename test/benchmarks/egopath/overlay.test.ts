import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadRelease } from "../../../src/benchmarks/egopath/load.js";
import { egopathOverlay } from "../../../src/benchmarks/egopath/overlay.js";
import type { Adjacency, EgoPathItem, RouteItem, SetItem } from "../../../src/benchmarks/egopath/types.js";
import type { ItemResult } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { assertColour, countNear, decodeOverlay, writePng, type RGB } from "../../helpers/pixels.js";

/**
 * Golden pixel checks on hand-built items over a plain dark background. Mark geometry, as the
 * overlay documents it, for images whose longest side is at most 640 px at scale 1: ring radius
 * 15 px, mark stroke 3.5 px, reference stroke 3 px; dashes are 3 × the stroke long with gaps of
 * 2 × the stroke, starting where the ring (angle 0, clockwise) or the polyline starts. Waypoints
 * sit on pixel centres (x.5) so a ring of radius 15 passes through the centres of the pixels 15
 * columns or rows away.
 */

const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egopath-overlay-"));
const BACKGROUND: RGB = [60, 60, 60];

const GREEN: RGB = [0x1a, 0x98, 0x50];
const RED: RGB = [0xd7, 0x30, 0x27];
const ORANGE: RGB = [0xf2, 0x8e, 0x2b];
const BLUE: RGB = [0x25, 0x63, 0xeb];
const GREY: RGB = [0x9c, 0xa3, 0xaf];

function plainImage(name: string, width: number, height: number): Promise<string> {
  return writePng(path.join(tmp, name), width, height, () => BACKGROUND);
}

const base = (imagePath: string, task: "a1" | "a2", waypoints: Array<[number, number, number]>) => ({
  id: `hand_${task}`,
  rawId: `hand_${task}`,
  task,
  sceneId: "hand",
  cluster: "hand",
  viewId: "0",
  imagePath,
  imageRef: path.basename(imagePath),
  systemPrompt: "",
  userPrompt: "",
  waypoints: waypoints.map(([id, x, y]) => ({ displayId: id, imageXY: [x, y] as [number, number] })),
  groundTruth: {},
  source: { file: "hand.jsonl", line: 1 },
});

/** a1 item: candidates 1..5 at known pixels; 1 and 3 traversable. */
async function setItem(): Promise<SetItem> {
  const image = await plainImage("set.png", 400, 300);
  const waypoints: Array<[number, number, number]> = [[1, 100.5, 100.5], [2, 200.5, 100.5], [3, 300.5, 100.5], [4, 100.5, 200.5], [5, 300.5, 200.5]];
  return { ...base(image, "a1", waypoints), kind: "set", candidates: [1n, 2n, 3n, 4n, 5n], positives: [1n, 3n] };
}

function adjacency(edges: Array<[number, number, number]>): Adjacency {
  const out: Adjacency = new Map();
  for (const [a, b, m] of edges) {
    if (!out.has(BigInt(a))) out.set(BigInt(a), new Map());
    out.get(BigInt(a))!.set(BigInt(b), m);
  }
  return out;
}

/**
 * a2 item: bottom row 1 (60.5, 250.5) 2 (160.5, 250.5) 3 (260.5, 250.5) 4 (360.5, 250.5), top row
 * 5 (160.5, 100.5) 6 (260.5, 100.5). Start 1, goal 4, reference 1 → 5 → 6 → 4. Legal steps:
 * 1→2, 1→5, 2→1, 3→4, 5→6, 6→4 (2→3 is not one).
 */
async function routeItem(): Promise<RouteItem> {
  const image = await plainImage("route.png", 400, 300);
  const waypoints: Array<[number, number, number]> = [[1, 60.5, 250.5], [2, 160.5, 250.5], [3, 260.5, 250.5], [4, 360.5, 250.5], [5, 160.5, 100.5], [6, 260.5, 100.5]];
  return {
    ...base(image, "a2", waypoints),
    kind: "route",
    displayed: [1n, 2n, 3n, 4n, 5n, 6n],
    startId: 1n,
    acceptableGoals: [4n],
    optimalLengthM: 3,
    adjacency: adjacency([[1, 2, 1], [1, 5, 1], [2, 1, 1], [3, 4, 1], [5, 6, 1], [6, 4, 1.5]]),
    referenceRoute: [1n, 5n, 6n, 4n],
  };
}

const scored = (item: EgoPathItem, ids: number[] | null, detail: Record<string, unknown>): ItemResult => ({
  id: item.id, task: item.task, cluster: item.cluster, status: "scored",
  answer: ids ? { status: "ok", value: ids, stored: JSON.stringify(ids) } : { status: "unparseable", value: null, reason: "no JSON array of display ids found in the reply" },
  detail,
});

async function render(item: EgoPathItem, result: ItemResult, options = {}) {
  const overlay = await egopathOverlay(item, result, options);
  return { overlay, image: await decodeOverlay(overlay) };
}

const setDetail = { kind: "set", parsedIds: [1, 2, 9], tp: 1, fp: 1, fn: 1, tn: 2, invalid: 1, invalidIds: [9] };

test("traversability: green ring on a traversable pick, red cross on a blocked pick, dashed orange ring on a missed one", async () => {
  const item = await setItem();
  const { overlay, image } = await render(item, scored(item, [1, 2, 9], setDetail));
  assert.deepEqual([overlay.width, overlay.height], [400, 300]);
  // 1: picked and traversable -> ring of radius 15, at its right, top and left extremes.
  assertColour(image, 115, 100, GREEN, "ring of 1, right");
  assertColour(image, 100, 85, GREEN, "ring of 1, top");
  assertColour(image, 85, 100, GREEN, "ring of 1, left");
  assertColour(image, 100, 100, BACKGROUND, "a ring is not filled");
  // 2: picked, not traversable -> cross centred on it, arms along the diagonals.
  assertColour(image, 200, 100, RED, "cross of 2, centre");
  assertColour(image, 206, 106, RED, "cross of 2, lower-right arm");
  assertColour(image, 215, 100, BACKGROUND, "no ring around a blocked pick");
  // 3: traversable, not picked -> dashed ring (stroke 3.5: dash 10.5 px of arc, gap 7 px).
  // Middle of the first dash: arc 5.25 px, angle 0.35 rad -> (300.5 + 14.1, 100.5 + 5.1).
  assertColour(image, 314, 105, ORANGE, "dashed ring of 3, inside the first dash");
  // Middle of the first gap: arc 14 px, angle 0.93 rad -> (300.5 + 9, 100.5 + 12).
  assertColour(image, 309, 112, BACKGROUND, "dashed ring of 3, inside the first gap");
  // 4 and 5: neither picked nor traversable -> untouched.
  assertColour(image, 115, 200, BACKGROUND, "nothing at 4");
  assertColour(image, 315, 200, BACKGROUND, "nothing at 5");
  assertColour(image, 10, 10, BACKGROUND, "background corner");
  const text = overlay.caption.join("\n");
  assert.match(text, /a1 \(Point Traversability\)/);
  assert.match(text, /answer: \[1, 2, 9\]/);
  assert.match(text, /traversable \[1, 3\] of candidates \[1, 2, 3, 4, 5\]/);
  assert.match(text, /\(TP\) 1 .*\(FP\) 1 .*\(FN\) 1 .*\(TN\) 2/);
  assert.match(text, /invalid ids.*: 9$/m);
  assert.match(text, /recall 1\/2 = 0\.500 · TNR 2\/3 = 0\.667/);
});

const illegalDetail = {
  kind: "route", parsedIds: [1, 2, 3, 4], stage: "illegal_edge", validIds: true, validPath: false, success: false, spl: 0,
  illegalStep: { index: 1, from: 2, to: 3 }, endpointAcceptable: true, firstEdgeLegal: true, laterEdgeIllegal: true,
};

test("route: legal steps green, red from the first illegal step on, start blue, acceptable endpoint green, reference grey and dashed", async () => {
  const item = await routeItem();
  const { overlay, image } = await render(item, scored(item, [1, 2, 3, 4], illegalDetail));
  assertColour(image, 110, 250, GREEN, "middle of step 1 → 2 (legal)");
  assertColour(image, 210, 250, RED, "middle of step 2 → 3 (the first illegal step)");
  assertColour(image, 310, 250, RED, "middle of step 3 → 4 (after the first illegal step)");
  assertColour(image, 45, 250, BLUE, "start ring around 1, left extreme");
  assertColour(image, 375, 250, GREEN, "endpoint ring around 4 (an acceptable goal), right extreme");
  assertColour(image, 360, 265, GREEN, "endpoint ring around 4, bottom extreme");
  // Reference 1 → 5 → 6 → 4, stroke 3: dashes of 9 px every 15 px along the polyline. Step 1 → 5
  // is 180.28 px long; on 5 → 6 (y = 100.5) the pixel x = 209 is 229.28 px along (229.28 mod 15 =
  // 4.28: in a dash) and x = 217 is 237.28 px along (12.28: in a gap).
  assertColour(image, 209, 100, GREY, "reference inside a dash, where only the reference passes");
  assertColour(image, 217, 100, BACKGROUND, "reference inside a gap");
  assertColour(image, 200, 200, BACKGROUND, "background between the routes");
  const text = overlay.caption.join("\n");
  assert.match(text, /answer: 1 → 2 → 3 → 4/);
  assert.match(text, /start 1 · acceptable goals 4 · reference 1 → 5 → 6 → 4 \(optimal 3\.00 m\)/);
  assert.match(text, /outcome: illegal_edge – step 2 \(2 → 3\) is not a direct pair/);
  assert.match(text, /VPR\) no · success \(SR\) no · SPL 0\.000/);
});

test("route: reference: false leaves the reference out", async () => {
  const item = await routeItem();
  const { image } = await render(item, scored(item, [1, 2, 3, 4], illegalDetail), { reference: false });
  assertColour(image, 209, 100, BACKGROUND, "no reference dash");
  assertColour(image, 110, 250, GREEN, "the model's route is still drawn");
  assertColour(image, 45, 250, BLUE, "the start is still drawn");
});

test("route: a successful route is all green and its SPL is in the caption", async () => {
  const item = await routeItem();
  // Length 1 + 1 + 1.5 = 3.5 m against an optimal 3 m: SPL = 3 / 3.5 = 0.857.
  const detail = {
    kind: "route", parsedIds: [1, 5, 6, 4], stage: "success", validIds: true, validPath: true, success: true, spl: 3 / 3.5,
    lengthM: 3.5, endpointAcceptable: true, firstEdgeLegal: true, laterEdgeIllegal: false,
  };
  const { overlay, image } = await render(item, scored(item, [1, 5, 6, 4], detail));
  assertColour(image, 210, 100, GREEN, "middle of step 5 → 6");
  assertColour(image, 375, 250, GREEN, "endpoint ring around 4");
  assert.equal(countNear(image, RED), 0, "nothing red");
  const text = overlay.caption.join("\n");
  assert.match(text, /outcome: success – reaches acceptable goal 4/);
  assert.match(text, /VPR\) yes · success \(SR\) yes · SPL 0\.857 · length 3\.50 m of optimal 3\.00 m/);
});

test("route: an endpoint that is not an acceptable goal is orange", async () => {
  const item = await routeItem();
  const detail = {
    kind: "route", parsedIds: [1, 2], stage: "wrong_goal", validIds: true, validPath: true, success: false, spl: 0,
    lengthM: 1, endpointAcceptable: false, firstEdgeLegal: true, laterEdgeIllegal: false,
  };
  const { overlay, image } = await render(item, scored(item, [1, 2], detail));
  assertColour(image, 160, 235, ORANGE, "endpoint ring around 2, top extreme");
  assertColour(image, 110, 250, GREEN, "the legal step");
  assert.match(overlay.caption.join("\n"), /outcome: wrong_goal – every step legal, but it ends at 2/);
});

test("scaling: maxSide fits the picture and the marks move and grow with it", async () => {
  // 1600 × 1200 source, maxSide 800: scale 0.5, canvas 800 × 600. The source is 2.5 × 640 px, so
  // marks are 2.5 × their base size in source pixels, × 0.5 on the canvas: ring radius 18.75,
  // stroke 4.375.
  const image = await plainImage("large.png", 1600, 1200);
  const item: SetItem = { ...base(image, "a1", [[1, 401, 401], [2, 801, 401], [3, 1201, 401]]), kind: "set", candidates: [1n, 2n, 3n], positives: [1n, 3n] };
  const detail = { kind: "set", parsedIds: [1, 2], tp: 1, fp: 1, fn: 1, tn: 0, invalid: 0, invalidIds: [] };
  const { overlay, image: out } = await render(item, scored(item, [1, 2], detail), { maxSide: 800 });
  assert.deepEqual([overlay.width, overlay.height], [800, 600]);
  // 1 lands at (200.5, 200.5): ring through (219.25, 200.5).
  assertColour(out, 219, 200, GREEN, "scaled ring of 1, right");
  assertColour(out, 200, 181, GREEN, "scaled ring of 1, top");
  assertColour(out, 200, 200, BACKGROUND, "centre of the scaled ring");
  assertColour(out, 215, 200, BACKGROUND, "inside the scaled ring (a 15 px ring would be here)");
  // 2 lands at (400.5, 200.5).
  assertColour(out, 400, 200, RED, "scaled cross of 2");
  // A thumbnail: 100 × 75, still drawn.
  const thumb = await egopathOverlay(item, scored(item, [1, 2], detail), { maxSide: 100 });
  assert.deepEqual([thumb.width, thumb.height], [100, 75]);
});

test("errors, unreadable answers and garbage give a picture and a caption, never a throw", async () => {
  const set = await setItem();
  const route = await routeItem();
  const failed: ItemResult = {
    id: set.id, task: set.task, cluster: set.cluster, status: "error",
    response: { latency_ms: 5, attempts: 6, cached: false, error: { kind: "http", status: 503, message: "HTTP 503 Service Unavailable" } },
  };
  // An errored set question: only the reference, the traversable waypoints as grey dashed rings
  // (stroke 3: first dash 9 px of arc; its middle at angle 0.3 rad -> (100.5 + 14.3, 100.5 + 4.4)).
  const errored = await render(set, failed);
  assertColour(errored.image, 114, 104, GREY, "reference ring of 1");
  assert.equal(countNear(errored.image, GREEN) + countNear(errored.image, RED) + countNear(errored.image, ORANGE), 0, "no outcome marks");
  assert.match(errored.overlay.caption.join("\n"), /request failed: HTTP 503 Service Unavailable/);
  assert.match(errored.overlay.caption.join("\n"), /not scored/);

  const erroredRoute = await render(route, { ...failed, id: route.id, task: route.task });
  assertColour(erroredRoute.image, 209, 100, GREY, "reference route");
  assertColour(erroredRoute.image, 45, 250, BLUE, "start");
  assert.equal(countNear(erroredRoute.image, GREEN) + countNear(erroredRoute.image, RED), 0, "no route drawn");

  // Unreadable: scored as an empty answer, so the traversable waypoints are missed (orange).
  const unreadable = await render(set, scored(set, null, { kind: "set", parsedIds: null, tp: 0, fp: 0, fn: 2, tn: 3, invalid: 0, invalidIds: [] }));
  assertColour(unreadable.image, 314, 105, ORANGE, "missed 3");
  assert.match(unreadable.overlay.caption.join("\n"), /unreadable: no JSON array of display ids found in the reply/);
  const unreadableRoute = await render(route, scored(route, null, {
    kind: "route", parsedIds: null, stage: "parse", validIds: false, validPath: false, success: false, spl: 0,
    endpointAcceptable: false, firstEdgeLegal: false, laterEdgeIllegal: false,
  }));
  assert.match(unreadableRoute.overlay.caption.join("\n"), /outcome: parse/);
  assertColour(unreadableRoute.image, 209, 100, GREY, "reference route of an unreadable answer");

  const garbage: unknown[] = [
    {},
    { status: "scored", detail: "not an object", answer: 17 },
    { status: "scored", detail: { kind: "route", stage: "teleported", parsedIds: "1,2", spl: "high" }, answer: { status: "ok", value: { ids: [1] } } },
    { status: "scored", detail: { kind: "set", parsedIds: [1, "two", null], tp: -1 }, answer: { status: "ok", value: [1.5, "x"] } },
    { status: "scored", detail: [1, 2, 3], prompt: "flipped", response: 5 },
    { status: "error", response: { error: "boom" } },
    null,
  ];
  for (const item of [set, route]) {
    for (const result of garbage) {
      const overlay = await egopathOverlay(item, result as ItemResult);
      assert.ok(overlay.png.length > 0 && overlay.caption.length >= 3, `caption for ${JSON.stringify(result)}`);
      assert.ok(overlay.caption.every((line) => typeof line === "string" && !/[<>]/.test(line)), "plain-text caption lines");
    }
  }
  // Malformed detail but a readable answer: the outcome is worked out again (and says so).
  const recomputed = await egopathOverlay(route, { ...scored(route, [1, 2], { kind: "route", stage: "success" }) });
  assert.match(recomputed.caption.join("\n"), /outcome: wrong_goal .*recomputed/);
});

test("a route through an id that is not displayed, and a missing image", async () => {
  const route = await routeItem();
  const detail = {
    kind: "route", parsedIds: [1, 99, 4], stage: "invalid_id", validIds: false, validPath: false, success: false, spl: 0,
    endpointAcceptable: false, firstEdgeLegal: false, laterEdgeIllegal: false,
  };
  const { overlay } = await render(route, scored(route, [1, 99, 4], detail));
  assert.match(overlay.caption.join("\n"), /outcome: invalid_id – ids not displayed in the image: 99/);
  assert.match(overlay.caption.join("\n"), /not drawn \(no image position\): 99/);

  const missing = path.join(tmp, "no-such-view.png");
  await assert.rejects(egopathOverlay({ ...route, imagePath: missing }, scored(route, [1, 2], {})), (error: Error) => error instanceof Error && error.message.includes(missing));
});

test("end to end: every item of a run on the bundled example gets a picture whose caption carries the recorded outcome", async () => {
  const data = path.resolve("examples/egopath-mini");
  const { items } = loadRelease(data);
  const byId = new Map(items.map((item) => [item.id, item]));
  for (const model of ["random:1", "direct-to-goal"]) {
    const out = path.join(tmp, `run-${model.replace(/\W/g, "_")}`);
    await executeRun({
      benchmark: "egopath", data, out, model, bootstrapResamples: 50, bootstrapSeed: 1, quiet: true,
      promptSource: "release", control: "none", seed: 1, flags: {}, retryErrors: false,
    });
    const results = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as ItemResult);
    assert.equal(results.length, items.length);
    assert.ok(results.length >= 20);
    for (const result of results) {
      const overlay = await egopathOverlay(byId.get(result.id)!, result, { maxSide: 256 });
      assert.ok(overlay.width <= 256 && overlay.height <= 256);
      const text = overlay.caption.join("\n");
      const detail = result.detail as Record<string, unknown>;
      if (detail["kind"] === "route") assert.ok(text.includes(`outcome: ${detail["stage"]} –`), `${result.id}: ${text}`);
      else assert.ok(text.includes(`(TP) ${detail["tp"]} `) && text.includes(`(FN) ${detail["fn"]} `), `${result.id}: ${text}`);
      assert.ok(!text.includes("recomputed"), `${result.id}: the run's detail is read as recorded`);
    }
  }
});
