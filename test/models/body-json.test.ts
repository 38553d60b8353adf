import assert from "node:assert/strict";
import { test } from "node:test";
import { bodyJson } from "../../src/models/http.js";
import { openaiBody, openaiBodyText } from "../../src/models/openai.js";
import { DEFAULT_SETTINGS } from "../../src/core/types.js";

test("bodyJson writes exactly what JSON.stringify writes", () => {
  const base64 = "iVBORw0KGgo".repeat(600); // 6,600 characters: over the long-string threshold
  const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { z: 1, a: [2] });
  const values: unknown[] = [
    { a: 1, b: [1, undefined, () => 0, Symbol("s"), null, "x"], c: undefined, d: { e: "é\n\"", f: -0, g: 1e21, h: NaN } },
    { url: `data:image/png;base64,${base64}`, detail: "high" },
    [`${base64}\u0001`, `${base64}"`, `${base64}\\`, `${base64}é`, `${base64}\ud800`],
    { "10": 1, "2": 2, b: 3, a: 4 },
    nullProto,
    [],
    {},
    [[[]]],
    "plain",
    12,
    null,
  ];
  for (const v of values) assert.equal(bodyJson(v), JSON.stringify(v));
});

test("bodyJson of a long plain string is the string in quotes", () => {
  const s = "A".repeat(5000);
  assert.equal(bodyJson({ s }), `{"s":"${s}"}`);
});

test("bodyJson hands what is not plain data to JSON.stringify", () => {
  const date = new Date(Date.UTC(2024, 0, 2));
  assert.equal(bodyJson({ when: date, n: new Number(3), b: Buffer.from("hi") }), '{"when":"2024-01-02T00:00:00.000Z","n":3,"b":{"type":"Buffer","data":[104,105]}}');
  assert.equal(bodyJson({ x: { toJSON: () => "y" } }), '{"x":"y"}');
  const cycle: Record<string, unknown> = { a: 1 };
  cycle["self"] = cycle;
  assert.throws(() => bodyJson(cycle), TypeError);
  assert.throws(() => bodyJson({ n: 1n }), TypeError);
  // The same object twice (not a cycle) is written twice, as JSON.stringify does.
  const shared = { k: 1 };
  assert.equal(bodyJson([shared, shared]), '[{"k":1},{"k":1}]');
});

test("an OpenAI body with an image: bodyJson equals JSON.stringify", () => {
  const base64 = "QUJD".repeat(4000);
  const body = openaiBody("m", {
    itemId: "i",
    settings: { ...DEFAULT_SETTINGS, jsonOutput: true },
    messages: [
      { role: "system", content: [{ type: "text", text: "Be brief." }] },
      { role: "user", content: [{ type: "image", mediaType: "image/png", base64 }, { type: "text", text: "JSON please" }] },
    ],
  });
  assert.equal(bodyJson(body), JSON.stringify(body));
});

test("openaiBodyText is JSON.stringify(openaiBody(...)), images joined in or not", () => {
  const a = "QUJD".repeat(3000);
  const b = "iVBORw0KGgo".repeat(900);
  const request = (images: string[], text = "Which one? Answer in JSON.", extraBody?: Record<string, unknown>) => ({
    itemId: "i",
    settings: { ...DEFAULT_SETTINGS, jsonOutput: true, ...(extraBody ? { extraBody } : {}) },
    messages: [
      { role: "system" as const, content: [{ type: "text" as const, text: "Be brief." }] },
      { role: "user" as const, content: [...images.map((base64) => ({ type: "image" as const, mediaType: "image/png", base64 })), { type: "text" as const, text }] },
    ],
  });
  const cases = [
    request([a, b]),
    request([a, a]),
    request([]),
    request([`${a}\n`]), // needs escaping: stringified whole
    request([a], "a marker look-alike: \u0000spatialprobe-image-0\u0000"),
    request([a], "x", { messages: [{ role: "user", content: "replaced" }] }), // no marker left: stringified whole
    request([a], "x", { temperature: 0.5, stop: ["\n"] }),
  ];
  for (const r of cases) assert.equal(openaiBodyText("m", r), JSON.stringify(openaiBody("m", r)));
  assert.equal(openaiBodyText("m", request([a]), { maxTokensField: "max_tokens" }), JSON.stringify(openaiBody("m", request([a]), { maxTokensField: "max_tokens" })));
});
