import assert from "node:assert/strict";
import { test } from "node:test";
import {
  canonicalCoordMode,
  COORD_DEFAULTS,
  coordModeForModel,
  isOfficialRaise,
  officialCoordModeForFamily,
  resolveCoordMode,
  scaleFactors,
} from "../../../src/benchmarks/epic/coords.js";

// Expected values read off epic_eval/run_batch_evaluation.py (MODEL_COORD_MODES, resolve_coord_mode)
// and epic_eval/utils/coords.py by hand.

test("COORD_DEFAULTS is the official MODEL_COORD_MODES table", () => {
  assert.deepEqual({ ...COORD_DEFAULTS }, {
    "Qwen2.5-VL": "absolute",
    "Qwen3-VL": "normalized_0_1000",
    "Qwen3.5-VL": "normalized_0_1000",
    InternVL3: "normalized_0_1000",
    "InternVL3.5": "normalized_0_1000",
    LLaVA: "normalized_0_1",
    Claude: "absolute",
    Gemini: "normalized_0_1000",
  });
  assert.ok(Object.isFrozen(COORD_DEFAULTS));
});

test("official family rule: override first, exact directory name, else the per-sample field", () => {
  assert.equal(officialCoordModeForFamily("Qwen3-VL"), "normalized_0_1000");
  assert.equal(officialCoordModeForFamily("Qwen3-VL", "absolute"), "absolute");
  assert.equal(officialCoordModeForFamily("Qwen3_VL"), undefined); // no fuzzy matching
  assert.equal(officialCoordModeForFamily("Qwen3_5"), undefined); // the official Qwen3.5 output folder
  assert.equal(officialCoordModeForFamily("RoboBrain"), undefined);
  assert.equal(officialCoordModeForFamily("toString"), undefined);
  assert.equal(officialCoordModeForFamily("Gemma", ""), undefined); // an empty override is no override
});

test("our model-name mapping onto the families", () => {
  const cases: Array<[string, string]> = [
    ["openai:Qwen/Qwen2.5-VL-72B-Instruct", "absolute"],
    ["qwen2.5-vl-7b", "absolute"],
    ["Qwen2_5_VL", "absolute"],
    ["openai:Qwen/Qwen3-VL-235B-A22B-Thinking", "normalized_0_1000"],
    ["qwen3-vl-plus", "normalized_0_1000"],
    ["Qwen3.5-397B-A17B", "normalized_0_1000"],
    ["OpenGVLab/InternVL3-78B", "normalized_0_1000"],
    ["InternVL3.5-241B-A28B", "normalized_0_1000"],
    ["llava-next-72b-hf", "normalized_0_1"],
    ["anthropic:claude-sonnet-4-5", "absolute"],
    ["gemini:gemini-2.5-pro", "normalized_0_1000"],
    ["openai:gpt-4o", "auto"],
    ["RoboBrain2.0-32B", "auto"],
    ["Gemma-3-12B-IT", "auto"],
    ["internvl30", "auto"],
    ["qwen3-32b", "auto"],
  ];
  for (const [spec, mode] of cases) assert.equal(coordModeForModel(spec), mode, spec);
});

test("mode names: aliases, empty, unknown", () => {
  assert.equal(canonicalCoordMode(undefined), "auto");
  assert.equal(canonicalCoordMode(null), "auto");
  assert.equal(canonicalCoordMode(""), "auto");
  assert.equal(canonicalCoordMode("normalized"), "normalized_0_1");
  assert.equal(canonicalCoordMode("normalized_1000"), "normalized_0_1000");
  assert.equal(canonicalCoordMode("constructor"), "constructor");
  assert.equal(canonicalCoordMode("Absolute"), "Absolute"); // case-sensitive; then behaves as auto
  assert.equal(resolveCoordMode("Absolute", [0.5], 10, 10), "normalized_0_1");
  assert.equal(resolveCoordMode("absolute", [0.5], 10, 10), "absolute");
});

test("auto detection boundaries", () => {
  assert.equal(resolveCoordMode("auto", [], 480, 640), "absolute");
  assert.equal(resolveCoordMode("auto", [0, 1], 480, 640), "normalized_0_1");
  assert.equal(resolveCoordMode("auto", [0, 1.0000000000000002], 480, 640), "absolute");
  assert.equal(resolveCoordMode("auto", [-1e-9, 0.5], 480, 640), "absolute");
  assert.equal(resolveCoordMode("auto", [0, 640], 480, 640), "absolute");
  assert.equal(resolveCoordMode("auto", [0, 640.0001], 480, 640), "normalized_0_1000");
  assert.equal(resolveCoordMode("auto", [0, 700], 720, 480), "absolute"); // max(h, w) whatever the order
  assert.deepEqual(scaleFactors("normalized_0_1000", 480, 640), [0.64, 0.48]);
  assert.deepEqual(scaleFactors("normalized_0_1", 480, 640), [640, 480]);
  assert.deepEqual(scaleFactors("absolute", 480, 640), [1, 1]);
});

test("isOfficialRaise tells raises from values", () => {
  assert.equal(isOfficialRaise({ raises: "ValueError" }), true);
  assert.equal(isOfficialRaise(3n), false);
  assert.equal(isOfficialRaise(null), false);
  assert.equal(isOfficialRaise([]), false);
});
