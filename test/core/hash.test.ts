import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalJson, canonicalSha256, isPlainJsonString, needsNoEscaping, sha256 } from "../../src/core/hash.js";
import { endpointRequestKeys, requestKey } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Message } from "../../src/core/types.js";
import { createProviderModel } from "../../src/models/provider.js";

// Expected digests: Python's hashlib.sha256 over the canonical text written out by hand
// (json.dumps(..., separators=(",", ":"), ensure_ascii=False), keys in the order shown).

test("canonicalSha256 hashes long strings in place and gives sha256 of the canonical JSON", () => {
  const long = "QUJD".repeat(1500); // 6,000 characters, over LONG_STRING
  const value = { b: { n: 0, img: long }, a: [1, undefined, () => 1, "x"], "10": 1, "2": 2 };
  // {"2":2,"10":1,"a":[1,null,null,"x"],"b":{"img":"QUJD...","n":0}}: integer-like keys first, as Object.fromEntries orders them.
  const expected = "30873f9a08995ba6bc0ce1a3aa4dc0885cce567642cff4029b92a862ab0a5f57";
  assert.equal(canonicalSha256(value), expected);
  assert.equal(sha256(canonicalJson(value)), expected);
});

test("canonicalSha256 escapes long strings that need it, as JSON.stringify does", () => {
  const long = "A".repeat(5000);
  // {"t":"AAAA...\n\"\\\u0001"}
  assert.equal(canonicalSha256({ t: `${long}\n"\\\u0001` }), "8561870098bc371394a09803b7ee38e4e7440f46acd5bfab830ccb40ee12674b");
  // ["AAAA...é→"], hashed as UTF-8
  assert.equal(canonicalSha256([`${long}é→`]), "e7dc2479f4ad04434780cfa122f628905039e5f0164d77a4a58e0fb4bb220dc3");
});

test("canonicalSha256 falls back to the canonical text for what JSON.stringify treats specially", () => {
  const long = "B".repeat(5000);
  for (const value of [{ toJSON: () => "x", a: long }, "short", 3, null, [long, { c: [long] }]]) {
    assert.equal(canonicalSha256(value), sha256(canonicalJson(value)));
  }
  assert.throws(() => canonicalSha256({ n: 1n }), TypeError);
});

test("isPlainJsonString gives needsNoEscaping's verdict, for long strings and equal copies of them", () => {
  const plain = "C".repeat(5000);
  const escaped = `${"C".repeat(5000)}\t`;
  assert.equal(isPlainJsonString(plain), true);
  assert.equal(isPlainJsonString(escaped), false);
  // An equal string made elsewhere (a slice of a data URL) gets the same verdict.
  assert.equal(isPlainJsonString(`data:${plain}`.slice(5)), true);
  assert.equal(isPlainJsonString(`x${escaped}`.slice(1)), false);
  assert.equal(isPlainJsonString('"short"'), false);
  assert.equal(isPlainJsonString("short"), true);
});

test("needsNoEscaping: ASCII without quotes, backslashes or controls", () => {
  assert.equal(needsNoEscaping("iVBORw0KGgo+/="), true);
  assert.equal(needsNoEscaping("del \u007f is not escaped"), true);
  assert.equal(needsNoEscaping('a"b'), false);
  assert.equal(needsNoEscaping("a\\b"), false);
  assert.equal(needsNoEscaping("a\u001fb"), false);
  assert.equal(needsNoEscaping("a\u0000b"), false);
  assert.equal(needsNoEscaping("é"), false);
  assert.equal(needsNoEscaping("\ud83d\ude00"), false);
});

test("request keys of a message with a long image are the canonical-JSON digests (new and legacy)", () => {
  const model = createProviderModel("openai:m", { baseUrl: "http://127.0.0.1:9/v1", env: {} });
  const image = `iVBORw0KGgo${"A".repeat(8000)}=`;
  const messages: Message[] = [
    { role: "user", content: [{ type: "image", mediaType: "image/png", base64: image, source: "/data/a.png" }, { type: "text", text: "Which way?" }] },
  ];
  // {"identity":{"model":"m","provider":"openai"},"messages":[{"content":[{"base64":"iVBOR...","mediaType":"image/png","type":"image"},{"text":"Which way?","type":"text"}],"role":"user"}],"settings":{"jsonOutput":false,"maxTokens":8192,"temperature":0,"topP":1}}
  assert.equal(requestKey(model, DEFAULT_SETTINGS, messages), "abf43e15f5faf5f355219fb7d34503277c6d0d85e61a1ab06633b16b77174e97");
  // The same with "endpoint":"http://127.0.0.1:9/v1" first in identity.
  assert.deepEqual(endpointRequestKeys(model, DEFAULT_SETTINGS, messages), ["75d6d85ce887caceab04b49bca2465f2df1a0ab2f2b74a52fb43c5496f08c18d"]);
});
