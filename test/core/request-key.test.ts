import assert from "node:assert/strict";
import { test } from "node:test";
import { requestKey } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Message, type Model } from "../../src/core/types.js";

const model = { identity: { provider: "openai", endpoint: "https://api.openai.com/v1", model: "m" } } as unknown as Model;
const ask = (source: string, base64: string, text = "Which frame?"): Message[] => [
  { role: "user", content: [{ type: "image", mediaType: "image/png", base64, source }, { type: "text", text }] },
];

test("the request key covers what is sent, not where an image was read from", () => {
  const here = requestKey(model, DEFAULT_SETTINGS, ask("/home/a/data/tour/000.png", "iVBORw0KGgo="));
  assert.equal(requestKey(model, DEFAULT_SETTINGS, ask("/scratch/b/data/tour/000.png", "iVBORw0KGgo=")), here);
  assert.notEqual(requestKey(model, DEFAULT_SETTINGS, ask("/home/a/data/tour/000.png", "iVBORw0KGgp=")), here);
  assert.notEqual(requestKey(model, DEFAULT_SETTINGS, ask("/home/a/data/tour/000.png", "iVBORw0KGgo=", "Which frame? ")), here);
  assert.notEqual(requestKey(model, { ...DEFAULT_SETTINGS, temperature: 0.5 }, ask("/home/a/data/tour/000.png", "iVBORw0KGgo=")), here);
});
