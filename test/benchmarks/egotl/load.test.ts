import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { egotl } from "../../../src/benchmarks/egotl/index.js";
import { loadEgoTL } from "../../../src/benchmarks/egotl/load.js";
import { EgoTLItemSchema, egotlItemJsonSchema, egotlItemJsonSchemaText, SCHEMA_FILE } from "../../../src/benchmarks/egotl/schema.js";
import { DataError, problemCount, UsageError } from "../../../src/core/problems.js";
import { TINY_PNG } from "../../helpers/media.js";

const EXAMPLE = path.resolve("test/fixtures/egotl-legacy-mini");

test("the committed JSON Schema is the one exported from the zod schema", () => {
  assert.equal(readFileSync(SCHEMA_FILE, "utf8"), egotlItemJsonSchemaText(), "run: node --import tsx src/benchmarks/egotl/schema.ts --write");
  const schema = egotlItemJsonSchema();
  assert.equal(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
  assert.equal((schema["oneOf"] as unknown[]).length, 6);
});

test("the example set loads clean: 30 questions, 5 per task, every media file present", () => {
  const { items, problems, tasks } = loadEgoTL(EXAMPLE);
  assert.deepEqual(problems, []);
  assert.deepEqual(tasks, ["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"]);
  assert.equal(items.length, 30);
  for (const task of tasks) assert.equal(items.filter((i) => i.task === task).length, 5, task);
  // Direction covers the five labels; distance has turns on the spot (0 m) and moves.
  assert.deepEqual(new Set(items.filter((i) => i.task === "direction").map((i) => (i.truth as { label: string }).label)), new Set(["Turn left", "Turn right", "Move forward", "Going up", "Going down"]));
  const metres = items.filter((i) => i.task === "distance").map((i) => (i.truth as { metres: number }).metres);
  assert.ok(metres.includes(0) && metres.some((m) => m > 0));
  // Clusters are the walkthroughs (source videos).
  assert.ok(new Set(items.map((i) => i.cluster)).size >= 5);
  assert.ok(items.every((i) => /^w\d\d$/.test(i.cluster)));
  // Every row also passes the zod schema directly (as the JSON Schema would).
  for (const line of readFileSync(path.join(EXAMPLE, "test.jsonl"), "utf8").trim().split("\n")) assert.ok(EgoTLItemSchema.safeParse(JSON.parse(line)).success);
});

test("the training file loads for its answers (its frames are not shipped)", () => {
  const answersOnly = loadEgoTL(path.join(EXAMPLE, "train.jsonl"), { checkMedia: false });
  assert.deepEqual(answersOnly.problems, []);
  assert.equal(answersOnly.items.length, 60);
  const strict = loadEgoTL(path.join(EXAMPLE, "train.jsonl"));
  assert.ok(strict.problems.length > 0 && strict.problems.every((p) => /not found/.test(p.message)));
});

test("every bad line is reported with its file, line and field", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "egotl-load-"));
  mkdirSync(path.join(dir, "clip"));
  for (const f of ["a.png", "b.png"]) writeFileSync(path.join(dir, "clip", f), TINY_PNG);
  mkdirSync(path.join(dir, "empty"));
  const frames = { frames: ["clip/a.png", "clip/b.png"] };
  const opts = ["turn left", "turn right", "walk ahead", "climb the stairs"];
  const rows: unknown[] = [
    { id: "ok", task: "direction", media: frames, answer: "Turn left" }, // 1
    "{not json", // 2
    { id: "t", task: "flying", media: frames, answer: 1 }, // 3
    { id: "d", task: "direction", media: frames, answer: "Turn around" }, // 4
    { id: "m", task: "distance", media: frames, answer: -1 }, // 5
    { id: "r", task: "action_recognition", media: frames, options: opts.slice(0, 3), answer: "A" }, // 6
    { id: "f", task: "direction", media: { frames: ["clip/a.png", "clip/missing.png"] }, answer: "Going up" }, // 7
    { id: "ok", task: "direction", media: frames, answer: "Turn right" }, // 8
    { id: "s", task: "scene_action", abstract_task: "go", options: opts, answer: "A" }, // 9
    { id: "n", task: "next_action", media: frames, chain_of_thought: "so", options: opts, answer: "fly away" }, // 10
    { id: "two", task: "direction", media: { video: "v.mp4", dir: "clip" }, answer: "Going up" }, // 11
    { id: "u", task: "direction", media: frames, answer: "Going up", foo: 1 }, // 12
    { id: "dup", task: "action_recognition", media: frames, options: ["Turn left", "turn left!", "x", "y"], answer: "A" }, // 13
    { id: "nodir", task: "direction", media: { dir: "nowhere" }, answer: "Going up" }, // 14
    { id: "q#r2", task: "direction", media: frames, answer: "Going up" }, // 15
    { id: "ix", task: "direction", media: { ...frames, spec: { mode: "indices", indices: [5, 1] } }, answer: "Going up" }, // 16
    [1, 2], // 17
    { id: "nt", media: frames, answer: "Going up" }, // 18
    { id: "vid", task: "distance", media: { video: "clip.mp4" }, answer: 2 }, // 19
    { id: "emp", task: "distance", media: { dir: "empty" }, answer: 2 }, // 20
    { id: "cf", task: "scene_action", current_frame: "now.png", abstract_task: "go", options: opts, answer: "climb the stairs" }, // 21
    { id: "sp", task: "direction", media: { ...frames, spec: { mode: "uniform", count: 0 } }, answer: "Going up" }, // 22
  ];
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  const { items, problems } = loadEgoTL(dir);
  assert.deepEqual(items.map((i) => i.id), ["ok"]);
  const at = (line: number) => problems.filter((p) => p.line === line).map((p) => ({ field: p.field, message: p.message }));
  assert.ok(problems.every((p) => p.file === "test.jsonl"));
  assert.match(at(2)[0]!.message, /^invalid JSON/);
  assert.deepEqual(at(3), [{ field: "task", message: 'must be one of planning, scene_action, next_action, action_recognition, direction, distance (got "flying")' }]);
  assert.equal(at(4)[0]!.field, "answer");
  assert.equal(at(5)[0]!.field, "answer");
  assert.equal(at(6)[0]!.field, "options");
  assert.deepEqual(at(7), [{ field: "media.frames[1]", message: `file not found: ${path.join(dir, "clip", "missing.png")}` }]);
  assert.deepEqual(at(8), [{ field: "id", message: 'duplicate id "ok" (first at test.jsonl line 1)' }]);
  assert.deepEqual(at(9), [{ field: "current_frame", message: "scene_action needs current_frame, media (a clip of the current state), or both" }]);
  assert.deepEqual(at(10), [{ field: "answer", message: "must be a letter A-D or the text of one of the four options (compared after normalisation: case, spaces, punctuation)" }]);
  assert.deepEqual(at(11), [{ field: "media", message: "gives video and dir; give exactly one of video, frames or dir" }]);
  assert.deepEqual(at(12), [{ field: "foo", message: 'unknown field (put extra data under "meta")' }]);
  assert.equal(at(13)[0]!.field, "options[1]");
  assert.deepEqual(at(14), [{ field: "media.dir", message: `folder not found: ${path.join(dir, "nowhere")}` }]);
  assert.equal(at(15)[0]!.field, "id");
  assert.deepEqual(at(16), [{ field: "media.spec.indices[0]", message: "frame 5 is beyond the 2 frames" }]);
  assert.deepEqual(at(17), [{ field: undefined, message: "expected a JSON object" }]);
  assert.deepEqual(at(18), [{ field: "task", message: "must be one of planning, scene_action, next_action, action_recognition, direction, distance (missing)" }]);
  assert.deepEqual(problems.map((p) => p.line), [...problems.map((p) => p.line)].sort((a, b) => a! - b!), "problems in line order");
  assert.deepEqual(at(19), [{ field: "media.video", message: `file not found: ${path.join(dir, "clip.mp4")}` }]);
  assert.match(at(20)[0]!.message, /no frame images/);
  assert.deepEqual(at(21), [{ field: "current_frame", message: `file not found: ${path.join(dir, "now.png")}` }]);
  assert.equal(at(22)[0]!.field, "media.spec.count");
  assert.equal(problems.filter((p) => p.line === 1).length, 0);
});

test("data paths: a folder's test.jsonl, else its *.jsonl except train*; a missing path is a problem", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "egotl-files-"));
  writeFileSync(path.join(dir, "a.jsonl"), "");
  writeFileSync(path.join(dir, "train.jsonl"), "{bad\n");
  assert.deepEqual(loadEgoTL(dir).problems, []);
  assert.equal(loadEgoTL(path.join(dir, "nope")).problems[0]!.message, "data path does not exist");
  const empty = mkdtempSync(path.join(os.tmpdir(), "egotl-none-"));
  assert.match(loadEgoTL(empty).problems[0]!.message, /no EgoTL JSONL files/);
});

test("tasks resolve by id or title; unknown ones are a usage error", () => {
  assert.deepEqual(egotl.resolveTasks(["distance", "Action recognition", "scene-action"]), ["distance", "action_recognition", "scene_action"]);
  assert.throws(() => egotl.resolveTasks(["counting"]), UsageError);
  const { items, tasks } = egotl.load(EXAMPLE, ["direction"]);
  assert.deepEqual(tasks, ["direction"]);
  assert.equal(items.length, 5);
});

test("a clip span inside a longer video: the frame spec applies to the span, as frame numbers of the whole video", async () => {
  const { spanFrameSpec } = await import("../../../src/benchmarks/egotl/load.js");
  const span = { first_frame: 100, last_frame: 129 };
  // Uniform 4 over 30 frames: trunc(k * 29 / 3) = 0, 9, 19, then the last (29); shifted by 100.
  assert.deepEqual(spanFrameSpec({ mode: "uniform", count: 4 }, span, null), { spec: { mode: "indices", indices: [100, 109, 119, 129] } });
  assert.deepEqual(spanFrameSpec({ mode: "all" }, { first_frame: 5, last_frame: 7 }, null), { spec: { mode: "indices", indices: [5, 6, 7] } });
  assert.deepEqual(spanFrameSpec({ mode: "indices", indices: [0, 29] }, span, null), { spec: { mode: "indices", indices: [100, 129] } });
  assert.deepEqual(spanFrameSpec({ mode: "indices", indices: [0, 30] }, span, null), { field: "media.spec.indices[1]", problem: "frame 30 is beyond the span's 30 frames" });
  // 2 fps over 30 frames captured at 10 fps (3 s): t = 0, 0.5, ..., 2.5 s -> every 5th frame.
  assert.deepEqual(spanFrameSpec({ mode: "fps", fps: 2 }, span, 10), { spec: { mode: "indices", indices: [100, 105, 110, 115, 120, 125] } });
  assert.match((spanFrameSpec({ mode: "fps", fps: 2 }, span, null) as { problem: string }).problem, /needs the capture rate/);
});

test("issue 25: out-of-range numbers are data problems with file, line and field (an fps of 1e300 once hung validate)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "egotl-bounds-"));
  mkdirSync(path.join(dir, "clip"));
  for (const f of ["a.png", "b.png"]) writeFileSync(path.join(dir, "clip", f), TINY_PNG);
  const frames = ["clip/a.png", "clip/b.png"];
  const row = (id: string, media: Record<string, unknown>, answer: unknown = "Turn left") => ({ id, task: id === "far" ? "distance" : "direction", media: { frames, ...media }, answer });
  const rows = [
    row("fast", { fps: 10, spec: { mode: "fps", fps: 1e300 } }), // 1
    row("rate", { fps: 1e300, spec: { mode: "fps", fps: 2 } }), // 2
    row("many", { spec: { mode: "indices", indices: Array.from({ length: 150_000 }, () => 0) } }), // 3
    row("span", { span: { first_frame: 0, last_frame: 2 ** 53 + 1 } }), // 4
    row("count", { spec: { mode: "uniform", count: 1e9 } }), // 5
    row("far", {}, -1), // 6
    row("ok", { fps: 1000, spec: { mode: "fps", fps: 1000 } }), // 7
  ];
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const started = performance.now();
  const { items, problems } = loadEgoTL(dir, { requests: { source: "templates" } });
  assert.ok(performance.now() - started < 5000);
  assert.deepEqual(items.map((i) => i.id), ["ok"]);
  assert.deepEqual(problems.map((p) => [p.file, p.line, p.field, p.message]), [
    ["test.jsonl", 1, "media.spec.fps", "must be above 0 and at most 1000 frames per second"],
    ["test.jsonl", 2, "media.fps", "must be above 0 and at most 1000 frames per second"],
    ["test.jsonl", 3, "media.spec.indices", "must have at most 10000 entries"],
    ["test.jsonl", 4, "media.span.last_frame", "must be a whole number from 0 to 10000000"],
    ["test.jsonl", 5, "media.spec.count", "must be a whole number from 1 to 10000"],
    ["test.jsonl", 6, "answer", "must be between 0 and 100000 (metres)"],
  ]);
});

test("issue 25: 150,000 out-of-range frame indices (once a stack overflow with no file or line) give a bounded list: the first 1,000 problems and the count", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "egotl-many-"));
  mkdirSync(path.join(dir, "clip"));
  for (const f of ["a.png", "b.png"]) writeFileSync(path.join(dir, "clip", f), TINY_PNG);
  // 15 rows of 10,000 indices (the most one spec may list), every one past the clip's 2 frames.
  const indices = Array.from({ length: 10_000 }, (_, k) => 2 + k);
  const rows = Array.from({ length: 15 }, (_, r) => ({ id: `r${r}`, task: "direction", media: { frames: ["clip/a.png", "clip/b.png"], spec: { mode: "indices", indices } }, answer: "Turn left" }));
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const started = performance.now();
  const { items, problems } = loadEgoTL(dir, { requests: { source: "templates" } });
  assert.ok(performance.now() - started < 10_000);
  assert.equal(items.length, 0);
  assert.equal(problems.length, 1000);
  assert.equal(problemCount(problems), 150_000);
  assert.deepEqual(problems[0], { file: "test.jsonl", line: 1, field: "media.spec.indices[0]", message: "frame 2 is beyond the 2 frames" });
  assert.deepEqual(problems[999], { file: "test.jsonl", line: 1, field: "media.spec.indices[999]", message: "frame 1001 is beyond the 2 frames" });
  const error = new DataError(problems);
  assert.ok(error.message.startsWith("150000 problems in the data:\n  - test.jsonl, line 1, field media.spec.indices[0]: frame 2 is beyond the 2 frames\n"));
  assert.ok(error.message.endsWith("\n  ... and 149950 more problems"), error.message.slice(-80));
});
