import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadRelease } from "../../../src/benchmarks/egopath/load.js";
import { formatProblem } from "../../../src/core/problems.js";

const BROKEN = path.resolve(import.meta.dirname, "../../fixtures/egopath/broken");
const VQA = "benchmark_evalfix/benchmark/vqa";

test("validate lists every defect of the broken set with file, line and field", () => {
  const { problems } = loadRelease(BROKEN);
  const located = problems.map((p) => [p.file, p.line, p.field ?? null]);
  // Defects and their places are listed in test/fixtures/egopath/broken/EXPECTED.md.
  assert.deepEqual(located, [
    [`${VQA}/vqa_next_a1.jsonl`, 2, "image_path"],
    [`${VQA}/vqa_next_b1.jsonl`, 2, null],
    [`${VQA}/vqa_next_a2.jsonl`, 2, "ground_truth.direct_pairs_ref"],
    [`${VQA}/vqa_next_b2.jsonl`, 1, "visible_waypoints_path"],
    [`${VQA}/vqa_next_b2.jsonl`, 2, "ground_truth.acceptable_goal_ids"],
    [`${VQA}/vqa_next_c.jsonl`, 1, "ground_truth.optimal_length_m"],
    [`${VQA}/vqa_next_c.jsonl`, 2, "ground_truth.optimal_length_m"],
  ]);
  assert.match(formatProblem(problems[1]!), /vqa_next_b1\.jsonl, line 2: invalid JSON/);
  assert.match(formatProblem(problems[3]!), /visible-waypoints file not found: assets\/s1\/view_0\/visible_waypoints_missing\.json/);
  assert.match(formatProblem(problems[6]!), /must be a positive number of metres up to 100000, found 0/);
});

test("the conformance set, the holdout set and the bundled example are clean", () => {
  for (const root of ["../../fixtures/egopath/conformance", "../../fixtures/egopath/holdout", "../../../examples/egopath-mini"]) {
    const { problems, items, tasks } = loadRelease(path.resolve(import.meta.dirname, root));
    assert.deepEqual(problems, [], root);
    assert.deepEqual(tasks, ["a1", "b1", "a2", "b2", "c"]);
    assert.ok(items.length > 0);
  }
});

test("a missing folder or an empty root is a clear problem", () => {
  assert.match(loadRelease("/nonexistent/egopath").problems[0]!.message, /does not exist/);
  assert.match(loadRelease(import.meta.dirname).problems[0]!.message, /no vqa files found/);
});

test("issue 25: sizes and distances out of range are problems: a negative robot_diameter_m (which once passed), an edge of NaN metres, a waypoint 1e16 m away", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egopath-bounds-"));
  cpSync(path.resolve(import.meta.dirname, "../../../examples/egopath-mini"), root, { recursive: true });
  const vqa = `${VQA}/vqa_next_b2.jsonl`;
  const rows = readFileSync(path.join(root, vqa), "utf8").trim().split("\n").map((r) => JSON.parse(r));
  rows[0].ground_truth.robot_diameter_m = -0.6;
  rows[1].ground_truth.goal_ring_threshold_m = "HUGE";
  // 1e400 is valid JSON text that reads as Infinity.
  writeFileSync(path.join(root, vqa), rows.map((r) => JSON.stringify(r).replace('"HUGE"', "1e400")).join("\n") + "\n");
  const waypointsRef = rows[2].visible_waypoints_path as string;
  const waypoints = JSON.parse(readFileSync(path.join(root, waypointsRef), "utf8"));
  waypoints.visible_waypoints[0].world_xyz = [1e16, 0, 0];
  writeFileSync(path.join(root, waypointsRef), JSON.stringify(waypoints));
  const { problems } = loadRelease(root, { tasks: ["b2"] });
  assert.deepEqual(problems.slice(0, 2), [
    { file: vqa, line: 1, field: "ground_truth.robot_diameter_m", message: "must be between 0 and 10 (metres), found -0.6" },
    { file: vqa, line: 2, field: "ground_truth.goal_ring_threshold_m", message: "must be between 0 and 100000 (metres), found Infinity" },
  ]);
  assert.ok(problems.some((p) => p.file === waypointsRef && p.field === "visible_waypoints[0].world_xyz[0]" && p.message === "must be between -10000 and 10000 (metres), found 10000000000000000"), JSON.stringify(problems));
});

test("issue 25: a waypoint id beyond a safe integer is a problem on its field (ids are read as Python ints, so 1e16 once passed)", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-egopath-ids-"));
  cpSync(path.resolve(import.meta.dirname, "../../../examples/egopath-mini"), root, { recursive: true });
  const vqa = `${VQA}/vqa_next_b2.jsonl`;
  const rows = readFileSync(path.join(root, vqa), "utf8").trim().split("\n").map((r) => JSON.parse(r));
  rows[0].ground_truth.start_id = 1e16;
  // 2^53 + 1 written as JSON text: JSON.parse would round it, Python's json keeps it exact.
  rows[1].ground_truth.acceptable_goal_ids = ["SAFE_PLUS_ONE"];
  writeFileSync(path.join(root, vqa), rows.map((r) => JSON.stringify(r).replace('"SAFE_PLUS_ONE"', "9007199254740993")).join("\n") + "\n");
  const { problems } = loadRelease(root, { tasks: ["b2"] });
  assert.deepEqual(problems.slice(0, 2), [
    { file: vqa, line: 1, field: "ground_truth.start_id", message: "must be an integer within ±(2^53 - 1), found 10000000000000000" },
    { file: vqa, line: 2, field: "ground_truth.acceptable_goal_ids", message: "must hold integers within ±(2^53 - 1), found 9007199254740992" },
  ]);
});
