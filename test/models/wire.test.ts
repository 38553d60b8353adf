/** Each provider's wire format against the mock server: body fields, images, headers, auth, usage. */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { anthropicReply } from "../../src/models/anthropic.js";
import { geminiReply } from "../../src/models/gemini.js";
import { openaiReply } from "../../src/models/openai.js";
import { createProviderModel, parseProviderSpec } from "../../src/models/provider.js";
import { makeRequest, startMockServer, type MockServer } from "../helpers/mock-server.js";

const KEYS = { OPENAI_API_KEY: "sk-openai-SECRET-1111", ANTHROPIC_API_KEY: "sk-ant-SECRET-2222", GEMINI_API_KEY: "AIza-SECRET-3333" };
const never = new AbortController().signal;
let mock: MockServer;

before(async () => {
  mock = await startMockServer({ recordRequests: true, reply: (r) => `{"echo":${JSON.stringify(r.texts.join("|"))}}` });
});
after(() => mock.close());

const last = () => mock.stats.seen.at(-1)!;
const request = () =>
  makeRequest([{ image: "AAAA", mediaType: "image/png" }, "Which way?", { image: "BBBB", mediaType: "image/jpeg" }], {
    system: "You are a navigator.",
    settings: { extraBody: { seed: 7 }, jsonOutput: true },
  });

test("spec parsing splits on the first ':' only", () => {
  assert.deepEqual(parseProviderSpec("openai:meta-llama/Llama-3.2-11B:free"), { provider: "openai", model: "meta-llama/Llama-3.2-11B:free" });
  assert.deepEqual(parseProviderSpec("gemini:gemini-2.5-flash"), { provider: "gemini", model: "gemini-2.5-flash" });
  assert.equal(parseProviderSpec("oracle"), undefined);
  assert.equal(parseProviderSpec("replay:preds.jsonl"), undefined);
  assert.throws(() => createProviderModel("mystery:model", { env: {} }), /unknown model spec/);
  assert.throws(() => createProviderModel("openai:", { env: {}, baseUrl: mock.url }), /names no model/);
});

test("openai: body, image encoding, auth header, reply and usage", async () => {
  const model = createProviderModel("openai:gpt-4o", { baseUrl: `${mock.url}/v1/`, env: KEYS });
  assert.deepEqual(model.identity, { provider: "openai", endpoint: `${mock.url}/v1`, model: "gpt-4o" });
  assert.equal(model.local, false);
  const res = await model.generate(request(), never);
  assert.equal(res.outcome, "ok");
  assert.equal(res.text, '{"echo":"Which way?"}');
  assert.equal(res.attempts, 1);
  assert.ok(res.latencyMs >= 0);
  assert.ok(res.usage && res.usage.inputTokens! > 0 && res.usage.outputTokens! > 0);
  const seen = last();
  assert.equal(seen.path, "/v1/chat/completions");
  assert.equal(seen.headers.authorization, `Bearer ${KEYS.OPENAI_API_KEY}`);
  assert.deepEqual(seen.body, {
    model: "gpt-4o",
    messages: [
      { role: "system", content: "You are a navigator." },
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", detail: "high" } },
          { type: "text", text: "Which way?" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,BBBB", detail: "high" } },
        ],
      },
    ],
    temperature: 0,
    top_p: 1,
    max_completion_tokens: 8192,
    response_format: { type: "json_object" },
    seed: 7,
  });
  assert.equal(seen.imageCount, 2);
});

test("openai: local server without key, OPENAI_BASE_URL, max_tokens option, no json mode", async () => {
  const model = createProviderModel("openai:qwen2.5-vl:7b", {
    env: { OPENAI_BASE_URL: mock.url },
    maxTokensField: "max_tokens",
  });
  assert.equal(model.identity.endpoint, mock.url);
  const res = await model.generate(makeRequest(["hi"], { settings: { jsonOutput: false, maxTokens: 64 } }), never);
  assert.equal(res.outcome, "ok");
  const seen = last();
  assert.equal(seen.path, "/chat/completions");
  assert.equal(seen.headers.authorization, undefined);
  assert.equal(seen.body.model, "qwen2.5-vl:7b");
  assert.equal(seen.body.max_tokens, 64);
  assert.equal("max_completion_tokens" in seen.body, false);
  assert.equal("response_format" in seen.body, false);
});

test("openai: the public endpoint needs a key, checked before any request", () => {
  assert.throws(() => createProviderModel("openai:gpt-4o", { env: {} }), /OPENAI_API_KEY is not set/);
});

test("openai reply: content parts are joined; empty content is malformed; refusal is refused", () => {
  const parts = openaiReply({ choices: [{ message: { content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] } }], usage: { prompt_tokens: 3, completion_tokens: 4 } });
  assert.deepEqual(parts, { text: "ab", usage: { inputTokens: 3, outputTokens: 4 } });
  assert.throws(() => openaiReply({ choices: [{ message: { content: null } }] }), (e: any) => e.kind === "malformed" && e.retryable);
  assert.throws(() => openaiReply({}), (e: any) => e.kind === "malformed");
  assert.throws(() => openaiReply({ choices: [{ message: { content: null, refusal: "no" } }] }), (e: any) => e.kind === "refused" && !e.retryable);
});

test("anthropic: headers, top-level system, image blocks, one sampler for claude-sonnet-4-5", async () => {
  const model = createProviderModel("anthropic:claude-sonnet-4-5", { baseUrl: mock.url, env: KEYS });
  assert.deepEqual(model.identity, { provider: "anthropic", endpoint: mock.url, model: "claude-sonnet-4-5" });
  const res = await model.generate(request(), never);
  assert.equal(res.outcome, "ok");
  assert.equal(res.text, '{"echo":"Which way?"}');
  assert.ok(res.usage && res.usage.inputTokens! > 0 && res.usage.outputTokens! > 0);
  const seen = last();
  assert.equal(seen.path, "/v1/messages");
  assert.equal(seen.headers["x-api-key"], KEYS.ANTHROPIC_API_KEY);
  assert.equal(seen.headers["anthropic-version"], "2023-06-01");
  assert.equal(seen.headers.authorization, undefined);
  assert.deepEqual(seen.body, {
    model: "claude-sonnet-4-5",
    max_tokens: 8192,
    system: "You are a navigator.",
    messages: [
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          { type: "text", text: "Which way?" },
          { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "BBBB" } },
        ],
      },
    ],
    temperature: 0,
    seed: 7,
  });
  // Sonnet 4.5 refuses temperature with top_p: with both set, temperature alone goes.
  await model.generate(makeRequest(["x"], { settings: { topP: 0.9, temperature: 0.5 } }), never);
  assert.equal("top_p" in last().body, false);
  assert.equal(last().body.temperature, 0.5);
  assert.equal("system" in last().body, false);
});

test("anthropic: older models take both samplers; top_p only when not 1", async () => {
  const model = createProviderModel("anthropic:claude-3-5-sonnet-20241022", { baseUrl: mock.url, env: KEYS });
  await model.generate(makeRequest(["x"], { settings: { topP: 0.9, temperature: 0.5 } }), never);
  assert.equal(last().body.top_p, 0.9);
  assert.equal(last().body.temperature, 0.5);
  await model.generate(makeRequest(["x"]), never);
  assert.equal("top_p" in last().body, false);
  assert.equal(last().body.temperature, 0);
});

test("anthropic: a missing key is a clear error before any request", () => {
  const before = mock.stats.requests;
  assert.throws(() => createProviderModel("anthropic:claude-x", { baseUrl: mock.url, env: {} }), /ANTHROPIC_API_KEY is not set/);
  assert.equal(mock.stats.requests, before);
});

test("anthropic reply: text blocks joined, thinking kept beside them", () => {
  assert.deepEqual(
    anthropicReply({ content: [{ type: "thinking", thinking: "hm" }, { type: "text", text: "x" }, { type: "text", text: "y" }], usage: { input_tokens: 5, output_tokens: 2 } }),
    { text: "xy", usage: { inputTokens: 5, outputTokens: 2 }, reasoning: "hm" },
  );
  assert.throws(() => anthropicReply({ content: [] }), (e: any) => e.kind === "malformed" && e.retryable);
});

test("gemini: route, key header (never in the URL), systemInstruction, inlineData, generationConfig", async () => {
  const model = createProviderModel("gemini:gemini-2.5-flash", { env: { ...KEYS, GEMINI_BASE_URL: mock.url } });
  assert.deepEqual(model.identity, { provider: "gemini", endpoint: mock.url, model: "gemini-2.5-flash" });
  const res = await model.generate(request(), never);
  assert.equal(res.outcome, "ok");
  assert.equal(res.text, '{"echo":"Which way?"}');
  assert.ok(res.usage && res.usage.inputTokens! > 0 && res.usage.outputTokens! > 0);
  const seen = last();
  assert.equal(seen.path, "/v1beta/models/gemini-2.5-flash:generateContent");
  assert.equal(seen.model, "gemini-2.5-flash");
  assert.equal(seen.headers["x-goog-api-key"], KEYS.GEMINI_API_KEY);
  assert.deepEqual(seen.body, {
    systemInstruction: { parts: [{ text: "You are a navigator." }] },
    contents: [
      {
        role: "user",
        parts: [
          { inlineData: { mimeType: "image/png", data: "AAAA" } },
          { text: "Which way?" },
          { inlineData: { mimeType: "image/jpeg", data: "BBBB" } },
        ],
      },
    ],
    generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 8192, responseMimeType: "application/json" },
    seed: 7,
  });
  for (const url of mock.stats.urls) for (const key of Object.values(KEYS)) assert.ok(!url.includes(key));
});

test("gemini: extraBody merges into generationConfig instead of replacing it", async () => {
  const model = createProviderModel("gemini:gemini-2.5-pro", { baseUrl: mock.url, env: KEYS });
  await model.generate(makeRequest(["x"], { settings: { jsonOutput: true, extraBody: { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } } } }), never);
  assert.deepEqual(last().body.generationConfig, {
    temperature: 0,
    topP: 1,
    maxOutputTokens: 8192,
    responseMimeType: "application/json",
    thinkingConfig: { thinkingBudget: 0 },
  });
});

test("gemini: a missing key is a clear error", () => {
  assert.throws(() => createProviderModel("gemini:gemini-2.5-flash", { baseUrl: mock.url, env: {} }), /GEMINI_API_KEY is not set/);
});

test("gemini reply: thought parts kept beside the text, usage counts thinking; no candidates is refused", () => {
  assert.deepEqual(
    geminiReply({
      candidates: [{ content: { parts: [{ text: "plan...", thought: true }, { text: "A" }, { text: "B" }] } }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, thoughtsTokenCount: 5 },
    }),
    { text: "AB", usage: { inputTokens: 10, outputTokens: 7, reasoningTokens: 5 }, reasoning: "plan..." },
  );
  assert.throws(() => geminiReply({ promptFeedback: { blockReason: "SAFETY" } }), (e: any) => e.kind === "refused" && !e.retryable && /SAFETY/.test(e.message));
  assert.throws(() => geminiReply({ candidates: [{ content: { parts: [] }, finishReason: "STOP" }] }), (e: any) => e.kind === "malformed" && e.retryable);
});

test("gemini: a blocked prompt ends after one attempt as refused", async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ promptFeedback: { blockReason: "SAFETY" } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const model = createProviderModel("gemini:gemini-2.5-flash", { baseUrl: url, env: KEYS, backoffBaseMs: 1 });
    const res = await model.generate(makeRequest(), never);
    assert.equal(res.outcome, "error");
    assert.equal(res.attempts, 1);
    assert.equal(hits, 1);
    assert.equal(res.error?.kind, "refused");
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test("concurrent requests share the connection pool and run in parallel", async () => {
  const slow = await startMockServer({ latencyMs: 100 });
  try {
    const model = createProviderModel("openai:m", { baseUrl: slow.url, env: {} });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => model.generate(makeRequest([`q${i}`]), never)));
    assert.ok(results.every((r) => r.outcome === "ok"));
    assert.equal(slow.stats.maxInFlight, 6);
  } finally {
    await slow.close();
  }
});
