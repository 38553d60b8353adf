import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bracketTuplesIn,
  fencedBlocks,
  fieldValue,
  formatReply,
  formattableTaskTypes,
  NO_VALID_RESPONSE,
  NOT_REQUIRED,
  pythonLiteralsToJson,
  requiredFields,
  withoutThinking,
} from "../../../src/benchmarks/epic/format.js";
import { LEAF_TASKS } from "../../../src/benchmarks/epic/taxonomy.js";

// Small hand-worked examples of the building blocks (the golden tests cover the official outputs).

test("formatReply knows the 23 leaf task types plus the bases FeasiblePath and ContactRelationship", () => {
  assert.equal(LEAF_TASKS.length, 23);
  assert.deepEqual(new Set(formattableTaskTypes()), new Set([...LEAF_TASKS.map((t) => t.leaf), "FeasiblePath", "ContactRelationship"]));
});

test("required fields per task", () => {
  assert.deepEqual(requiredFields("Color"), ["localization", "count"]);
  assert.deepEqual(requiredFields("VisualMatching"), ["localization", "count"]);
  assert.deepEqual(requiredFields("ContactRelationship_TypeOne"), ["localization", "count"]);
  assert.deepEqual(requiredFields("GroundDetection"), ["localization"]);
  assert.deepEqual(requiredFields("AffordanceRegion"), ["localization"]);
  assert.deepEqual(requiredFields("PlacementRegion"), ["localization", "feasibility"]);
  assert.deepEqual(requiredFields("FeasiblePath_Exo"), ["points"]);
  assert.deepEqual(requiredFields("nope"), []);
});

test("think spans", () => {
  assert.equal(withoutThinking("a <think>x</think> b"), "a  b");
  assert.equal(withoutThinking(" <think>x</think>\n{}"), "{}");
  assert.equal(withoutThinking("<think>x"), undefined);
  assert.equal(withoutThinking("x</think>y"), "x</think>y");
});

test("fenced blocks pair left to right and keep unknown labels", () => {
  assert.deepEqual(fencedBlocks("```json\n{a}\n``` and ```python\n{b}```"), ["{a}", "{b}"]);
  assert.deepEqual(fencedBlocks("```JSON\n{a}\n```"), ["JSON\n{a}"]);
  assert.deepEqual(fencedBlocks("``` x ``` y ```"), ["x"]);
  assert.deepEqual(fencedBlocks("```json {a}```"), ["{a}"]);
});

test("Python literal rewriting", () => {
  assert.equal(pythonLiteralsToJson("{'a': True, 'b': None, 'c': False}"), '{"a": true, "b": null, "c": false}');
  assert.equal(pythonLiteralsToJson("{'a': 'x \"y\"'}"), '{"a": "x "y""}'); // inner quotes left raw
  assert.equal(pythonLiteralsToJson("{\"a\": \"it's\"}"), '{"a": "it\'s"}');
  assert.equal(pythonLiteralsToJson("NotTrue Truex True_"), "Nottrue Truex true_");
  assert.equal(pythonLiteralsToJson("'it\\'s'"), '"it"s"');
});

test("tuple rewriting stops at the first closing bracket followed by , or }", () => {
  assert.equal(bracketTuplesIn('{"bounding_boxes": [(1, 2, 3, 4), (5, 6, 7, 8)]}', "bounding_boxes"), '{"bounding_boxes": [[1, 2, 3, 4], [5, 6, 7, 8]]}');
  assert.equal(bracketTuplesIn('{"bounding_boxes": [[(1,2),(3,4)], [(5,6)]]}', "bounding_boxes"), '{"bounding_boxes": [[[1,2],[3,4]], [(5,6)]]}');
  assert.equal(bracketTuplesIn('{"points": [(1, 2)], "x": (3, 4)}', "points"), '{"points": [[1, 2]], "x": (3, 4)}');
});

test("records: sentinels, counts as bigint, fieldValue", () => {
  const r = formatReply("Color", "```json\n{\"number_of_objects\": 2.9, \"bounding_boxes\": [[1, 2, 3, 4], [1, 2, 3]]}\n```");
  assert.deepEqual(r, { localization: [[1, 2, 3, 4]], count: 2n, points: NOT_REQUIRED, feasibility: NOT_REQUIRED, status: "ok" });
  assert.equal(fieldValue(r.count), 2n);
  assert.equal(fieldValue(r.points), undefined);

  const vm = formatReply("VisualMatching", '{"bounding_boxes": []}');
  assert.deepEqual(vm.localization, []);
  assert.equal(vm.count, NO_VALID_RESPONSE);
  assert.equal(vm.status, "no_valid_response");

  const pr = formatReply("PlacementRegion", "{'bounding_boxes': [(0.1, 0.2, 0.3, 0.4)], 'placement_feasibility': 'Yes'}");
  assert.deepEqual([pr.localization, pr.feasibility, pr.status], [[[0.1, 0.2, 0.3, 0.4]], true, "ok"]);

  const crash = formatReply("Color", '{"number_of_objects": -Infinity, "bounding_boxes": []}');
  assert.equal(crash.officialCrash?.error, "OverflowError");
  assert.equal(crash.localization, NO_VALID_RESPONSE);
});
