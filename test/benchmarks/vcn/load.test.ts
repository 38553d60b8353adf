import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { chanceLevels, deriveCounterfactuals, loadVcn, successFrames, vcnItemJsonSchema } from "../../../src/benchmarks/vcn/index.js";

const root = path.resolve(import.meta.dirname, "../../..");
const example = path.join(root, "test/fixtures/vcn-legacy-mini");

test("schemas/vcn-item.schema.json is up to date with the zod schema (VCN_UPDATE_SCHEMA=1 rewrites it)", () => {
  const file = path.join(root, "schemas/vcn-item.schema.json");
  const expected = `${JSON.stringify(vcnItemJsonSchema(), null, 2)}\n`;
  if (process.env["VCN_UPDATE_SCHEMA"] === "1") writeFileSync(file, expected);
  assert.equal(readFileSync(file, "utf8"), expected, "run VCN_UPDATE_SCHEMA=1 node --import tsx --test test/benchmarks/vcn/load.test.ts");
});

test("the example set loads clean: 19 questions over the five types, consistent answers and counterfactuals", () => {
  const { items, problems, tasks } = loadVcn(example);
  assert.deepEqual(problems, []);
  assert.deepEqual(tasks, ["count", "order", "distance", "orientation", "instance"]);
  assert.equal(items.length, 19);
  assert.deepEqual(Object.fromEntries(tasks.map((t) => [t, items.filter((i) => i.task === t).length])), { count: 3, order: 6, distance: 3, orientation: 3, instance: 4 });
  for (const item of items) {
    assert.ok(successFrames(item).length > 0, item.id);
    const chance = chanceLevels(item);
    assert.ok(chance.complete > 0 && chance.complete <= chance.category && chance.category <= 1, item.id);
  }
  // Position errors are possible: some frame of every house sees another room through a doorway.
  assert.ok(items.every((i) => i.annotations.some((a) => a.visible_rooms.length > 0)));
  const cf = deriveCounterfactuals(items);
  assert.equal(cf.items.length + cf.skipped.length, 19);
  assert.ok(cf.skipped.some((s) => s.reason === "no query structure"));
});

// A hand-made data folder: a 3-frame tour and four views, then lines with one defect each.
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-load-"));
const png = path.join(example, "houses/house_1/tour/000.png");
mkdirSync(path.join(tmp, "tour"));
mkdirSync(path.join(tmp, "views"));
for (const k of [0, 1, 2]) copyFileSync(png, path.join(tmp, "tour", `${k}.png`));
for (const v of ["front", "left", "back", "right"]) copyFileSync(png, path.join(tmp, "views", `${v}.png`));

const good = {
  id: "q1",
  task: "order",
  scene: "h",
  instruction: "Go to the first bedroom you entered.",
  tour: { dir: "tour" },
  annotations: [
    { index: 0, room: "K", room_category: "kitchen", objects: [{ id: "chair_1", category: "chair" }], visible_rooms: ["B"] },
    { index: 1, room: "B", room_category: "bedroom", objects: [] },
    { index: 2, room: "C", room_category: "bedroom", objects: [{ id: "bed_1", category: "bed" }] },
  ],
  target: { room: "B" },
  initial_views: { front: "views/front.png", left: "views/left.png", back: "views/back.png", right: "views/right.png" },
  query: { relation: "first", candidates: ["B", "C"], template: "Go to the {relation} bedroom you entered." },
  answers: [1],
};

function loadLines(lines: unknown[]) {
  writeFileSync(path.join(tmp, "items.jsonl"), lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return loadVcn(tmp);
}

test("a good hand-made line loads; the id keeps its raw form", () => {
  const { items, problems } = loadLines([good, { ...good, id: 12 }]);
  assert.deepEqual(problems, []);
  assert.equal(items[1]!.id, "12");
  assert.equal(items[1]!.rawId, 12);
  assert.equal(items[0]!.tour.spec.mode, "all");
  assert.equal(items[0]!.target.kind === "room" && items[0]!.target.category, "bedroom");
});

test("every defect is reported with file, line and field", () => {
  const annotations = good.annotations;
  const { items, problems } = loadLines([
    good,
    { ...good, id: "q2", task: "route" },
    "{broken",
    { ...good, id: "q4", annotations: [annotations[0], annotations[1], { ...annotations[2], index: 3 }] },
    { ...good, id: "q5", annotations: [annotations[0], annotations[1], { ...annotations[2], room: "K" }] },
    { ...good, id: "q6", target: { room: "Z" } },
    { ...good, id: "q7", instruction: "Go to the last bedroom you entered.", query: { ...good.query, relation: "last" } },
    { ...good, id: "q8", query: { ...good.query, template: "Go to the {relation} room." } },
    { ...good, id: "q9", answers: [1, 2] },
    { ...good, id: "q10", initial_views: { ...good.initial_views, left: "views/missing.png" } },
    { ...good, id: "q11", tour: { dir: "tour", frames: ["tour/0.png", "tour/1.png", "tour/2.png"] } },
    { ...good, id: "q12", task: "instance", target: { room: "B" } },
    { ...good, id: "q13", task: "instance", target: { object: "bed_1" }, query: undefined, answers: undefined },
    { ...good, id: "q1" },
    { ...good, id: "q15", tour: { frames: ["tour/0.png", "tour/1.png"] } },
    { ...good, id: "q16", extra: 1 },
    { ...good, id: "q17", annotations: [annotations[0], annotations[1], { ...annotations[2], visible_rooms: ["C"] }] },
    { ...good, id: "q18", tour: { video: "tour.mp4" } },
  ]);
  const where = problems.map((p) => [p.line, p.field ?? null]);
  assert.deepEqual(where, [
    [2, "task"],
    [3, null],
    [4, "annotations"],
    [5, "annotations[2].room_category"],
    [5, "query.candidates[1]"], // C no longer appears anywhere
    [6, "target.room"],
    [7, "query"],
    [8, "query.template"],
    [9, "answers"],
    [10, "initial_views.left"],
    [11, "tour"],
    [12, "target.room"],
    [12, "target.object"],
    [14, "id"],
    [15, "tour.frames"],
    [16, "extra"],
    [17, "annotations[2].visible_rooms"],
    [18, "tour.spec"],
    [18, "tour.video"],
  ].map(([line, field]) => [line, field === "" ? null : field]));
  assert.ok(problems.every((p) => p.file === "items.jsonl"));
  assert.match(problems.find((p) => p.line === 7)!.message, /resolves to C, but the target is B/);
  assert.match(problems.find((p) => p.line === 9)!.message, /\[1, 2\] differs from the success frames .* \[1\]/);
  assert.match(problems.find((p) => p.line === 4)!.message, /missing 2/);
  assert.match(problems.find((p) => p.line === 15)!.message, /takes 2 of the 2 frames but 3 tour frames are annotated/);
  assert.deepEqual(items.map((i) => i.id), ["q1", "q13"]);
});

test("a data path without items.jsonl, or missing, is one clear problem", () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-empty-"));
  assert.match(loadVcn(empty).problems[0]!.message, /no items\.jsonl/);
  assert.match(loadVcn(path.join(empty, "nope")).problems[0]!.message, /does not exist/);
});

test("issue 25: out-of-range numbers are problems on their line and field: a tour spec of 1e300 fps (which once hung validate), 2^53 + 1 ids, coordinates past 10 km", () => {
  const frames = ["tour/0.png", "tour/1.png", "tour/2.png"];
  const lines = [
    { ...good, id: "fast", tour: { frames, spec: { mode: "fps", fps: 1e300 } } }, // 1
    { ...good, id: 2 ** 53 + 2 }, // 2
    { ...good, id: "far", layout: { rooms: [{ id: "K", category: "kitchen", center: [1e16, 0] }] } }, // 3
    { ...good, id: "cap", tour: { prior: { hkey: "h", start_idx: 0, end_idx: 3, video_max_frame: 1e9 } } }, // 4
  ];
  writeFileSync(path.join(tmp, "items.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const started = performance.now();
  const { items, problems } = loadVcn(tmp, { requests: { source: "default" } });
  assert.ok(performance.now() - started < 5000);
  assert.deepEqual(items, []);
  assert.deepEqual(problems.map((p) => [p.file, p.line, p.field, p.message]), [
    ["items.jsonl", 1, "tour.spec.fps", "must be above 0 and at most 1000 frames per second"],
    ["items.jsonl", 2, "id", "must be a whole number within ±(2^53 - 1) (a safe integer)"],
    ["items.jsonl", 3, "layout.rooms[0].center[0]", "must be between -10000 and 10000 (metres)"],
    ["items.jsonl", 4, "tour.prior.video_max_frame", "must be a whole number from 1 to 10000"],
  ]);
});
