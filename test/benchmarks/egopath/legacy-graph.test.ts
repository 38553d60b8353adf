import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { aggregate, type ScoredQuestion } from "../../../src/benchmarks/egopath/aggregate.js";
import { scoreItem } from "../../../src/benchmarks/egopath/index.js";
import { loadRelease, type Split } from "../../../src/benchmarks/egopath/load.js";
import { parseStoredOutput, predictionOutput } from "../../../src/benchmarks/egopath/parse.js";
import type { RouteOutcome } from "../../../src/benchmarks/egopath/score.js";
import type { TaskCode } from "../../../src/benchmarks/egopath/tasks.js";
import type { RouteItem } from "../../../src/benchmarks/egopath/types.js";
import { displayToGraph, isEmbodiedRoutingRow, parseWaypointGraph } from "../../../src/benchmarks/egopath/waypoint-graph.js";
import { toIdOrNull } from "../../../src/benchmarks/egopath/load.js";
import { itemKey, readPredictionFile } from "../../../src/core/predictions.js";

/**
 * The official evaluator's legacy waypoint_graph routing path (rows without a direct-pairs sidecar,
 * as train/val rows can be). Every expected value in test/fixtures/egopath-legacy/expected was
 * written by the official evaluate_next.py (commit b30f478, run unmodified with Python 3.11) on the
 * hand-made rows of that folder; see its README.md.
 */
const ROOT = path.resolve(import.meta.dirname, "../../fixtures/egopath-legacy");
const readJsonl = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

const CASES: Array<[Split, TaskCode]> = [["train", "a1"], ["train", "a2"], ["train", "b2"], ["val", "c"]];

for (const [split, task] of CASES) {
  test(`legacy graph: ${split}/${task} matches the official evaluator question by question and in total`, () => {
    const { items, problems } = loadRelease(ROOT, { split, tasks: [task] });
    assert.deepEqual(problems, []);
    const predictions = readPredictionFile(path.join(ROOT, "predictions", split, `${task}.jsonl`), "question_id");
    const expected = readJsonl(path.join(ROOT, "expected", split, `${task}.items.jsonl`));
    assert.equal(items.length, expected.length);
    const scored: ScoredQuestion[] = items.map((item, i) => {
      const want = expected[i];
      assert.equal(item.id, want.question_id);
      const ids = parseStoredOutput(predictionOutput(predictions.get(itemKey(item.rawId))));
      assert.deepEqual(ids?.map(Number) ?? null, want.parsed_ids);
      const outcome = scoreItem(item, ids);
      if (outcome.kind === "set") {
        assert.deepEqual({ tp: outcome.tp, fp: outcome.fp, fn: outcome.fn, tn: outcome.tn, invalid_ids: outcome.invalid },
          { tp: want.tp, fp: want.fp, fn: want.fn, tn: want.tn, invalid_ids: want.invalid_ids }, item.id);
      } else {
        assert.equal((item as RouteItem).graph, "waypoint_graph");
        assert.deepEqual({ valid_ids: +outcome.validIds, valid_path: +outcome.validPath, success: +outcome.success, spl: outcome.spl },
          { valid_ids: want.valid_ids, valid_path: want.valid_path, success: want.success, spl: want.spl_exact }, item.id);
      }
      return { item, outcome };
    });
    const official = JSON.parse(readFileSync(path.join(ROOT, "expected", split, `${task}.json`), "utf8"));
    const agg = aggregate(scored, [task], { bootstrapResamples: 0, bootstrapSeed: 1 });
    assert.deepEqual(agg.tasks[task]!.official, official.metrics);
  });
}

test("legacy graph: the stage each train a2 route stops at (hand-checked against the fixture's graph)", () => {
  const { items } = loadRelease(ROOT, { split: "train", tasks: ["a2"] });
  const predictions = readPredictionFile(path.join(ROOT, "predictions", "train", "a2.jsonl"), "question_id");
  const stages = items.map((item) => (scoreItem(item, parseStoredOutput(predictionOutput(predictions.get(itemKey(item.rawId))))) as RouteOutcome).stage);
  // 01 [1,2,3] legal, goal 3; 02 [1,2,4] 4 maps to graph waypoint 13, goal_id 4; 03 [1,3] 10-12 is
  // not an edge of the point graph (only of waypoint_graph.json, which is not read); 04 [1,6,3] id 6
  // has no waypoint_id (unmapped); 05 [1,2,5] 5 maps to 12 (grid tie with 13, smaller id), goal 3;
  // 06 [7,2] start 7 maps to 10; 07 no goal fields; 08 no prediction; 09 [1] one id; 10 [1,8] 8 not
  // displayed; 11 [2,1,2,3] edges are undirected; 12 [1,2,4,3] optimal_length_m from the gt file.
  assert.deepEqual(stages, ["success", "success", "illegal_edge", "illegal_edge", "wrong_goal", "success", "wrong_goal", "parse", "wrong_start", "invalid_id", "success", "success"]);
  const unmapped = scoreItem(items[3]!, [1n, 6n, 3n]) as RouteOutcome;
  assert.equal(unmapped.unmappedId, 6n);
  // 01: 1.2 (the later 11-10 edge overwrites 1.0) + 1.5 = 2.7 m.
  assert.equal((scoreItem(items[0]!, [1n, 2n, 3n]) as RouteOutcome).lengthM, 2.7);
});

test("display-to-graph map: own waypoint id, else nearest by world distance, then grid distance, then smaller id", () => {
  const graph = parseWaypointGraph({
    waypoints: [
      { waypoint_id: 10, world_xyz: [0, 0, 0], grid_xy: [0, 0] },
      { waypoint_id: 11, world_xyz: [1, 0, 0], grid_xy: [2, 0] },
      { waypoint_id: 12, grid_xy: [4, 0] },
      { waypoint_id: 13, grid_xy: [4, 2] },
      { waypoint_id: 14, world_xyz: [9, 9, 9] },
    ],
    edges: [{ source: 10, target: 11 }, { source: 12, target: 13, distance: 2 }],
  }, "g.json", toIdOrNull, [])!;
  assert.deepEqual([...graph.adjacency.get(10n)!], [[11n, 1]]); // distance defaults to 1.0
  const mapping = displayToGraph([
    { displayId: 1, waypointId: 11n },
    { displayId: 2, waypointId: 14n, worldXYZ: [0.9, 0, 0] }, // 14 has no edge: nearest is 11 (0.1 m)
    { displayId: 3, waypointId: 99n, gridXY: [4n, 1n] }, // no world point: grid 1 to both 12 and 13 -> 12
    { displayId: 4, waypointId: 98n }, // nothing known: all tie at (inf, 1e9) -> smallest id 10
    { displayId: 5 }, // no waypoint_id: left out
  ], graph);
  assert.deepEqual([...mapping], [[1n, 11n], [2n, 11n], [3n, 12n], [4n, 10n]]);
  // An edgeless graph: every displayed waypoint keeps its own id.
  const empty = parseWaypointGraph({ edges: [] }, "g.json", toIdOrNull, [])!;
  assert.deepEqual([...displayToGraph([{ displayId: 1, waypointId: 7n }], empty)], [[1n, 7n]]);
});

test("embodied graph choice follows the evaluator's rule on the file's first row", () => {
  assert.equal(isEmbodiedRoutingRow({ task: "b2", ground_truth: {} }), true);
  assert.equal(isEmbodiedRoutingRow({ task: " B2 " }), true);
  assert.equal(isEmbodiedRoutingRow({ task: "c", ground_truth: { route_semantics: "Embodied" } }), true);
  assert.equal(isEmbodiedRoutingRow({ task: "c", ground_truth: { route_source_task: "b2" } }), true);
  assert.equal(isEmbodiedRoutingRow({ task: "c", ground_truth: { robot_diameter_m: "0.6" } }), true);
  assert.equal(isEmbodiedRoutingRow({ task: "c", ground_truth: { robot_diameter_m: 0 } }), false);
  assert.equal(isEmbodiedRoutingRow({ task: "c", ground_truth: { robot_diameter_m: "wide" } }), false);
  assert.equal(isEmbodiedRoutingRow({ task: "a2", ground_truth: null }), false);
});

test("legacy graph: data problems name file, line and field", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "egopath-legacy-"));
  try {
    cpSync(ROOT, dir, { recursive: true });
    // A row with acceptable_goal_ids but no sidecar is an eval-fix row missing its sidecar (the evaluator raises).
    const vqa = path.join(dir, "release/train/vqa/vqa_next_b2.jsonl");
    const rows = readJsonl(vqa);
    rows[1].ground_truth.acceptable_goal_ids = [3];
    writeFileSync(vqa, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    // No graph file at all for scene t2.
    rmSync(path.join(dir, "assets/t2/waypoint_graph_embodied.json"));
    rmSync(path.join(dir, "assets/t2/waypoint_graph.json"));
    const { problems } = loadRelease(dir, { split: "train", tasks: ["b2"] });
    const where = problems.map((p) => `${p.file}:${p.line}:${p.field}`);
    assert.deepEqual(where, [
      "release/train/vqa/vqa_next_b2.jsonl:1:image_path",
      "release/train/vqa/vqa_next_b2.jsonl:2:ground_truth.direct_pairs_ref",
      "release/train/vqa/vqa_next_b2.jsonl:3:image_path",
    ]);
    assert.match(problems[0]!.message, /waypoint_graph_embodied\.json or assets\/t2\/waypoint_graph\.json/);
    // A malformed edge.
    cpSync(path.join(ROOT, "assets/t2"), path.join(dir, "assets/t2"), { recursive: true });
    writeFileSync(path.join(dir, "assets/t2/waypoint_graph_embodied.json"), JSON.stringify({ edges: [{ source: 1, target: null }, { source: 1, target: 2, distance: null }] }));
    const again = loadRelease(dir, { split: "train", tasks: ["b2"] }).problems.map((p) => `${p.file}:${p.field}`);
    assert.deepEqual(again.slice(0, 2), ["assets/t2/waypoint_graph_embodied.json:edges[0].target", "assets/t2/waypoint_graph_embodied.json:edges[1].distance"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
