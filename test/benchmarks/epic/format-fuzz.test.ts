import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatReply,
  formattableTaskTypes,
  NO_VALID_RESPONSE,
  NOT_REQUIRED,
  requiredFields,
  type FormattedReply,
} from "../../../src/benchmarks/epic/format.js";
import { createRng, type Rng } from "../../../src/stats/rng.js";

/** Property: formatReply never throws, whatever the text, and its records are well-formed. */

const TASKS = [...formattableTaskTypes(), "NotATask", ""];
const FRAGMENTS = [
  ..."[]{}(),:;'\"`\\ \n\t\r-+_.0123456789eExX#/",
  "true", "false", "null", "None", "True", "False", "NaN", "Infinity", "-Infinity", "1e400", "1_0", "0x1F",
  "```", "```json", "```python", "```js", "<think>", "</think>", "\u00b2", "\u0663", "\u00a0", "\u3000", "\ufeff",
  "\ud800", "\udc00", "\u{1d7d5}", "\u{105c0}", "\u00e9",
  "bounding_boxes", '"bounding_boxes": ', "number_of_objects", '"number_of_objects": ', "number_of_instances",
  '"number_of_instances": ', "points", '"points": ', "placement_feasibility", '"placement_feasibility": ', "yes",
];

function randomText(rng: Rng, max = 60): string {
  let out = "";
  for (let i = rng.int(0, max); i > 0; i--) out += rng.pick(FRAGMENTS);
  return out;
}

/** A JSON-ish / Python-ish value as text. */
function randomValueText(rng: Rng, depth = 0): string {
  switch (rng.int(0, depth > 3 ? 6 : 9)) {
    case 0: return rng.pick(["null", "None", "true", "True", "false", "False"]);
    case 1: return String(rng.int(-5, 2000));
    case 2: return rng.pick(["0.5", "-0.0", "2.7", "1e3", "NaN", "Infinity", "-Infinity", "1e400", "9".repeat(rng.int(1, 400))]);
    case 3: return JSON.stringify(randomText(rng, 8));
    case 4: return `'${randomText(rng, 6).replaceAll("'", "")}'`;
    case 5: return rng.pick(['"3"', '" 2 "', '"yes"', '"3.0"', '"\\u0663"', "''"]);
    case 6: return randomText(rng, 5);
    case 7: {
      const items = Array.from({ length: rng.int(0, 5) }, () => randomValueText(rng, depth + 1));
      return rng.chance(0.2) ? `(${items.join(", ")})` : `[${items.join(rng.pick([", ", ",", " ,\n"]))}${rng.chance(0.1) ? "," : ""}]`;
    }
    default: {
      const keys = ["bounding_boxes", "number_of_objects", "number_of_instances", "points", "placement_feasibility", "note"];
      const entries = Array.from({ length: rng.int(0, 4) }, () => `${rng.chance(0.7) ? `"${rng.pick(keys)}"` : `'${rng.pick(keys)}'`}: ${randomValueText(rng, depth + 1)}`);
      return `{${entries.join(", ")}}`;
    }
  }
}

function randomReply(rng: Rng): string {
  const parts: string[] = [];
  for (let i = rng.int(1, 4); i > 0; i--) {
    const r = rng.next();
    if (r < 0.4) parts.push(randomValueText(rng));
    else if (r < 0.6) parts.push(`${rng.pick(["```json\n", "```\n", "```python\n", "```JSON\n"])}${randomValueText(rng)}${rng.pick(["\n```", "```", ""])}`);
    else if (r < 0.7) parts.push(`<think>${randomText(rng, 10)}${rng.chance(0.7) ? "</think>" : ""}`);
    else parts.push(randomText(rng, 20));
  }
  return parts.join(rng.pick(["", " ", "\n"]));
}

const FIELDS = ["localization", "count", "points", "feasibility"] as const;

function assertWellFormed(taskType: string, r: FormattedReply): void {
  const required = requiredFields(taskType);
  for (const f of FIELDS) {
    const v = r[f];
    if (!required.includes(f)) {
      assert.equal(v, NOT_REQUIRED, f);
      continue;
    }
    if (v === NO_VALID_RESPONSE) continue;
    if (f === "count") assert.equal(typeof v, "bigint");
    else if (f === "feasibility") assert.equal(typeof v, "boolean");
    else {
      assert.ok(Array.isArray(v));
      const width = f === "localization" ? 4 : 2;
      for (const item of v as number[][]) {
        assert.equal(item.length, width);
        for (const x of item) assert.ok(Number.isFinite(x) && !Object.is(x, -0), `coordinate ${x}`);
      }
      if (f === "points") assert.ok((v as number[][]).length >= 3);
    }
  }
  const missing = required.some((f) => r[f] === NO_VALID_RESPONSE);
  assert.equal(r.status, missing || required.length === 0 ? "no_valid_response" : "ok");
  if (r.status === "no_valid_response") assert.equal(typeof r.reason, "string");
  if (r.officialCrash) assert.equal(r.status, "no_valid_response");
}

test("random fragment strings never make formatReply throw", () => {
  const rng = createRng(20260301);
  for (let i = 0; i < 20000; i++) {
    const task = rng.pick(TASKS);
    assertWellFormed(task, formatReply(task, randomText(rng)));
  }
});

test("random JSON-ish and Python-ish replies never make formatReply throw", () => {
  const rng = createRng(99);
  for (let i = 0; i < 20000; i++) {
    const task = rng.pick(TASKS);
    assertWellFormed(task, formatReply(task, randomReply(rng)));
  }
});

test("non-text replies and extreme inputs are read without throwing", () => {
  for (const task of formattableTaskTypes()) {
    for (const raw of [undefined, null, 42, {}, [], true] as unknown[]) {
      const r = formatReply(task, raw as string);
      assertWellFormed(task, r);
      assert.equal(r.status, "no_valid_response");
    }
  }
  const extremes = [
    "[".repeat(100000),
    "{".repeat(100000) + '"bounding_boxes"',
    '{"bounding_boxes": ' + "[".repeat(50000) + "]".repeat(50000) + "}",
    '{"points": [' + "(1, 2), ".repeat(20000) + "(3, 4)]}",
    "```".repeat(10001),
    "<think>".repeat(1000) + "</think>",
    '{"number_of_objects": ' + "9".repeat(100000) + ', "bounding_boxes": []}',
    '{"number_of_instances": 1, "bounding_boxes": [' + "[1, 2, 3, 4], ".repeat(20000) + "[1, 2, 3, 4]]}",
    "'".repeat(50001) + "True",
  ];
  for (const raw of extremes) {
    for (const task of ["Color", "VisualMatching", "FeasiblePath_Ego", "PlacementRegion", "GroundDetection"]) {
      assertWellFormed(task, formatReply(task, raw));
    }
  }
});
