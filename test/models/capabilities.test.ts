/**
 * Model quirks as data (models/capabilities.ts): the table by model name, config overrides, the
 * exact body each provider gets, settings_sent, and replies with reasoning or cut by the token
 * limit. Expected bodies are written out by hand from the provider documentation cited in the
 * table, not computed by the code under test.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { vcn } from "../../src/benchmarks/vcn/index.js";
import { readConfigFile, settingsFor } from "../../src/core/config.js";
import { UsageError } from "../../src/core/problems.js";
import { requestKey, runItems } from "../../src/core/run.js";
import type { GenerationSettings, ModelRequest } from "../../src/core/types.js";
import { anthropicBody, anthropicReply } from "../../src/models/anthropic.js";
import { capabilitiesFor, claudeVersion, settingsProblem } from "../../src/models/capabilities.js";
import { generationSettings, providerSettings } from "../../src/models/factory.js";
import { geminiBody, geminiReply } from "../../src/models/gemini.js";
import { openaiBody, openaiReply, splitThinkPrefix } from "../../src/models/openai.js";
import { createProviderModel } from "../../src/models/provider.js";
import { ResponseStore } from "../../src/store/store.js";

const BASE: GenerationSettings = { temperature: 0, topP: 1, maxTokens: 8192, jsonOutput: false };
const USER = { role: "user" as const, content: [{ type: "text" as const, text: "Which way?" }] };
const request = (settings: Partial<GenerationSettings> = {}): ModelRequest => ({ itemId: "i1", messages: [USER], settings: { ...BASE, ...settings } });
const OPENAI_MESSAGES = [{ role: "user", content: [{ type: "text", text: "Which way?" }] }];
const ANTHROPIC_MESSAGES = OPENAI_MESSAGES;
const GEMINI_CONTENTS = [{ role: "user", parts: [{ text: "Which way?" }] }];

/** The settings resolveModel would give `spec` for these config keys. */
const configured = (spec: string, keys: Parameters<typeof generationSettings>[0]) => providerSettings(spec, { ...generationSettings(keys), jsonOutput: false }, keys);

// ---------------------------------------------------------------------------------------------
// The table

test("openai: o-series and the gpt-5 family are reasoning models, gpt-5-chat and gpt-4o are not", () => {
  const reasoning = { reasoning: true, temperature: false, topP: false, temperatureWithTopP: true, thinking: true };
  const standard = { reasoning: false, temperature: true, topP: true, temperatureWithTopP: true, thinking: false };
  const flags = (model: string) => {
    const { provider: _p, entry: _e, thinkingBudget: _b, ...rest } = capabilitiesFor("openai", model);
    return rest;
  };
  for (const model of ["gpt-5", "gpt-5-mini", "gpt-5-mini-2025-08-07", "gpt-5-nano", "gpt-5.1", "gpt-5.1-2025-11-13", "gpt-5-pro", "o3", "o3-mini", "o4-mini", "o4-mini-2025-04-16", "o1", "openai/gpt-5-mini"])
    assert.deepEqual(flags(model), reasoning, model);
  for (const model of ["gpt-4o", "gpt-4o-2024-08-06", "gpt-4.1-mini", "gpt-5-chat-latest", "gpt-5.1-chat-latest", "qwen2.5-vl:7b", "omni-moderation"])
    assert.deepEqual(flags(model), standard, model);
  // o1-mini / o1-preview: reasoning rules, but no reasoning_effort.
  assert.deepEqual(flags("o1-mini"), { ...reasoning, thinking: false });
  assert.equal(capabilitiesFor("openai", "gpt-5-mini-2025-08-07").entry, "openai gpt-5 family");
  assert.equal(capabilitiesFor("openai", "o4-mini").entry, "openai o-series");
  assert.equal(capabilitiesFor("openai", "gpt-5-chat-latest").entry, "openai gpt-5 chat");
  assert.equal(capabilitiesFor("openai", "gpt-4o").entry, "default");
  // The table is per provider: the same name elsewhere matches nothing.
  assert.equal(capabilitiesFor("gemini", "gpt-5-mini").entry, "default");
});

test("anthropic: Sonnet/Haiku 4.5+ and Opus 4.1+ take one sampler; Claude 3.7 and 4 think", () => {
  for (const model of ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-haiku-4-5-20251001", "claude-opus-4-1", "claude-opus-4-1-20250805", "claude-opus-4-5", "claude-sonnet-4-6", "claude-opus-5"]) {
    const c = capabilitiesFor("anthropic", model);
    assert.equal(c.temperatureWithTopP, false, model);
    assert.equal(c.thinking, true, model);
    assert.equal(c.entry, "anthropic one sampler", model);
  }
  for (const model of ["claude-sonnet-4-20250514", "claude-opus-4-20250514", "claude-opus-4-0", "claude-3-7-sonnet-20250219", "claude-3-7-sonnet-latest"]) {
    const c = capabilitiesFor("anthropic", model);
    assert.equal(c.temperatureWithTopP, true, model);
    assert.equal(c.thinking, true, model);
  }
  for (const model of ["claude-3-5-sonnet-20241022", "claude-3-5-haiku-latest", "claude-3-opus-20240229"]) {
    const c = capabilitiesFor("anthropic", model);
    assert.equal(c.entry, "default", model);
    assert.equal(c.temperatureWithTopP, true, model);
    assert.equal(c.thinking, false, model);
  }
  assert.deepEqual(capabilitiesFor("anthropic", "claude-sonnet-4-5").thinkingBudget, { min: 1024, off: true, dynamic: false, belowMaxTokens: true });
  // A date after the major version is not a minor version.
  assert.deepEqual(claudeVersion("claude-sonnet-4-20250514"), { family: "sonnet", version: 4 });
  assert.deepEqual(claudeVersion("claude-opus-4-1-20250805"), { family: "opus", version: 4.1 });
  assert.deepEqual(claudeVersion("claude-3-7-sonnet-20250219"), { family: "sonnet", version: 3.7 });
  assert.equal(claudeVersion("claude-instant-1.2"), undefined);
});

test("gemini: 2.5 models take thinkingConfig within their documented budgets", () => {
  assert.deepEqual(capabilitiesFor("gemini", "gemini-2.5-flash").thinkingBudget, { min: 1, max: 24576, off: true, dynamic: true, belowMaxTokens: false });
  assert.deepEqual(capabilitiesFor("gemini", "models/gemini-2.5-flash-preview-05-20").thinkingBudget, { min: 1, max: 24576, off: true, dynamic: true, belowMaxTokens: false });
  assert.deepEqual(capabilitiesFor("gemini", "gemini-2.5-flash-lite").thinkingBudget, { min: 512, max: 24576, off: true, dynamic: true, belowMaxTokens: false });
  assert.deepEqual(capabilitiesFor("gemini", "gemini-2.5-pro").thinkingBudget, { min: 128, max: 32768, off: false, dynamic: true, belowMaxTokens: false });
  for (const model of ["gemini-2.0-flash", "gemini-2.5-flash-image-preview", "gemini-1.5-pro"]) assert.equal(capabilitiesFor("gemini", model).thinking, false, model);
  for (const model of ["gemini-2.5-flash", "gemini-2.5-pro"]) {
    const c = capabilitiesFor("gemini", model);
    assert.equal(c.temperature && c.topP && c.temperatureWithTopP, true, model);
  }
});

test("overrides: reasoning turns both samplers off (or on) and, for OpenAI, reasoning_effort on, unless given; each flag wins", () => {
  const proxy = capabilitiesFor("openai", "my-proxy-o-model", { reasoning: true });
  assert.deepEqual([proxy.reasoning, proxy.temperature, proxy.topP, proxy.thinking], [true, false, false, true]);
  assert.equal(capabilitiesFor("openai", "my-proxy-o-model", { reasoning: true, thinking: false }).thinking, false);
  const mixed = capabilitiesFor("openai", "my-proxy-o-model", { reasoning: true, temperature: true, thinking: true });
  assert.deepEqual([mixed.temperature, mixed.topP, mixed.thinking], [true, false, true]);
  const relaxed = capabilitiesFor("openai", "gpt-5-mini", { reasoning: false });
  assert.deepEqual([relaxed.reasoning, relaxed.temperature, relaxed.topP, relaxed.thinking], [false, true, true, true]);
  assert.equal(capabilitiesFor("anthropic", "claude-sonnet-4-5", { temperatureWithTopP: true }).temperatureWithTopP, true);
  // Forcing thinking on an unknown Claude name still applies Anthropic's budget rules.
  assert.equal(capabilitiesFor("anthropic", "claude-next", { thinking: true }).thinkingBudget?.min, 1024);
});

test("overrides from the config file reach the settings in camelCase; bad keys are refused", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-caps-"));
  const file = path.join(dir, "config.yaml");
  writeFileSync(
    file,
    [
      "models:",
      "  openai:my-o-proxy:",
      "    capabilities: { reasoning: true, top_p: true }",
      "    reasoning_effort: low",
      "  anthropic:claude-sonnet-4-5:",
      "    capabilities: { temperature_with_top_p: true }",
      "    top_p: 0.97",
      "    thinking_budget: 2048",
      "",
    ].join("\n"),
  );
  const config = readConfigFile(file);
  const proxy = configured("openai:my-o-proxy", settingsFor("openai:my-o-proxy", config, {}));
  assert.deepEqual(proxy.capabilities, { reasoning: true, topP: true });
  assert.equal(proxy.reasoningEffort, "low");
  // reasoning: true turned temperature off, top_p: true kept it; reasoning_effort goes too.
  assert.deepEqual(openaiBody("my-o-proxy", { ...request(), settings: proxy }), { model: "my-o-proxy", messages: OPENAI_MESSAGES, top_p: 1, max_completion_tokens: 8192, reasoning_effort: "low" });

  const claude = configured("anthropic:claude-sonnet-4-5", settingsFor("anthropic:claude-sonnet-4-5", config, {}));
  assert.deepEqual(claude.capabilities, { temperatureWithTopP: true });
  assert.deepEqual(anthropicBody("claude-sonnet-4-5", { ...request(), settings: claude }), {
    model: "claude-sonnet-4-5",
    max_tokens: 8192,
    messages: ANTHROPIC_MESSAGES,
    top_p: 0.97,
    thinking: { type: "enabled", budget_tokens: 2048 },
  });
  // With thinking on, a top_p under 0.95 stops the run before any request.
  assert.throws(
    () => configured("anthropic:claude-sonnet-4-5", { ...settingsFor("anthropic:claude-sonnet-4-5", config, {}), top_p: 0.9 }),
    (e: any) => e instanceof UsageError && /^anthropic:claude-sonnet-4-5: with thinking on, Anthropic allows top_p only from 0.95 to 1 \(got 0.9\)/.test(e.message),
  );

  writeFileSync(file, "capabilities: { temprature: false }\n");
  assert.throws(() => readConfigFile(file), /capabilities/);
  writeFileSync(file, "reasoning_effort: extreme\n");
  assert.throws(() => readConfigFile(file), /reasoning_effort/);
});

// ---------------------------------------------------------------------------------------------
// Exact bodies

test("openai gpt-4o default body: temperature, top_p and max_completion_tokens", () => {
  assert.deepEqual(openaiBody("gpt-4o", request()), { model: "gpt-4o", messages: OPENAI_MESSAGES, temperature: 0, top_p: 1, max_completion_tokens: 8192 });
  assert.deepEqual(openaiBody("gpt-4o", request({ jsonOutput: true })), {
    model: "gpt-4o",
    messages: OPENAI_MESSAGES,
    temperature: 0,
    top_p: 1,
    max_completion_tokens: 8192,
    response_format: { type: "json_object" },
  });
});

test("openai gpt-5-mini default body: no temperature, no top_p, max_completion_tokens", () => {
  assert.deepEqual(openaiBody("gpt-5-mini", request()), { model: "gpt-5-mini", messages: OPENAI_MESSAGES, max_completion_tokens: 8192 });
  // Even a temperature the user chose is not sent: the model takes only its default.
  assert.deepEqual(openaiBody("gpt-5-mini-2025-08-07", request({ temperature: 0.7, topP: 0.5, maxTokens: 2000 })), {
    model: "gpt-5-mini-2025-08-07",
    messages: OPENAI_MESSAGES,
    max_completion_tokens: 2000,
  });
  assert.deepEqual(openaiBody("o4-mini", request({ reasoningEffort: "high" })), { model: "o4-mini", messages: OPENAI_MESSAGES, max_completion_tokens: 8192, reasoning_effort: "high" });
  // The existing max_tokens_field option still wins for servers that want max_tokens.
  assert.deepEqual(openaiBody("gpt-5-mini", request(), { maxTokensField: "max_tokens" }), { model: "gpt-5-mini", messages: OPENAI_MESSAGES, max_tokens: 8192 });
  assert.deepEqual(openaiBody("gpt-5-chat-latest", request()), { model: "gpt-5-chat-latest", messages: OPENAI_MESSAGES, temperature: 0, top_p: 1, max_completion_tokens: 8192 });
});

test("openai: reasoning_effort for a model that takes none is refused before sending", () => {
  assert.throws(() => openaiBody("gpt-4o", request({ reasoningEffort: "low" })), (e: any) => e.kind === "other" && e.retryable === false && /reasoning_effort/.test(e.message));
  assert.throws(() => configured("openai:gpt-4o", { reasoning_effort: "low" }), /openai:gpt-4o: reasoning_effort is set but this openai model takes no reasoning_effort/);
  assert.throws(() => configured("openai:o1-mini", { reasoning_effort: "low" }), /takes no reasoning_effort/);
  assert.throws(() => configured("openai:gpt-5-mini", { thinking_budget: 1024 }), /OpenAI reasoning models take reasoning_effort/);
  // Forced on through the config, it is sent.
  assert.equal(openaiBody("gpt-4o", request({ reasoningEffort: "low", capabilities: { thinking: true } })).reasoning_effort, "low");
});

test("anthropic claude-sonnet-4-5 default body: temperature only", () => {
  assert.deepEqual(anthropicBody("claude-sonnet-4-5", request()), { model: "claude-sonnet-4-5", max_tokens: 8192, messages: ANTHROPIC_MESSAGES, temperature: 0 });
  assert.deepEqual(anthropicBody("claude-sonnet-4-5", { ...request(), settings: configured("anthropic:claude-sonnet-4-5", {}) }), {
    model: "claude-sonnet-4-5",
    max_tokens: 8192,
    messages: ANTHROPIC_MESSAGES,
    temperature: 0,
  });
});

test("anthropic claude-sonnet-4-5 with the user's top_p: top_p only; with both set: temperature only", () => {
  const topOnly = configured("anthropic:claude-sonnet-4-5", { top_p: 0.9 });
  assert.deepEqual(topOnly.capabilities, { temperature: false });
  assert.deepEqual(anthropicBody("claude-sonnet-4-5", { ...request(), settings: topOnly }), { model: "claude-sonnet-4-5", max_tokens: 8192, messages: ANTHROPIC_MESSAGES, top_p: 0.9 });
  const both = configured("anthropic:claude-sonnet-4-5-20250929", { top_p: 0.9, temperature: 0.3 });
  assert.equal(both.capabilities, undefined);
  assert.deepEqual(anthropicBody("claude-sonnet-4-5-20250929", { ...request(), settings: both }), {
    model: "claude-sonnet-4-5-20250929",
    max_tokens: 8192,
    messages: ANTHROPIC_MESSAGES,
    temperature: 0.3,
  });
  // Older models take both, top_p only when it is not 1.
  const older = configured("anthropic:claude-sonnet-4-20250514", { top_p: 0.9 });
  assert.deepEqual(anthropicBody("claude-sonnet-4-20250514", { ...request(), settings: older }), {
    model: "claude-sonnet-4-20250514",
    max_tokens: 8192,
    messages: ANTHROPIC_MESSAGES,
    temperature: 0,
    top_p: 0.9,
  });
});

test("anthropic thinking: no temperature, budget from 1024 and below max_tokens, top_p only from 0.95", () => {
  assert.deepEqual(anthropicBody("claude-haiku-4-5", request({ thinkingBudget: 1024, maxTokens: 4096, temperature: 0.2 })), {
    model: "claude-haiku-4-5",
    max_tokens: 4096,
    messages: ANTHROPIC_MESSAGES,
    thinking: { type: "enabled", budget_tokens: 1024 },
  });
  assert.deepEqual(anthropicBody("claude-3-7-sonnet-20250219", request({ thinkingBudget: 2000, topP: 0.97 })), {
    model: "claude-3-7-sonnet-20250219",
    max_tokens: 8192,
    messages: ANTHROPIC_MESSAGES,
    top_p: 0.97,
    thinking: { type: "enabled", budget_tokens: 2000 },
  });
  // thinking_budget 0 is "off": nothing is sent, on any model.
  assert.deepEqual(anthropicBody("claude-3-5-sonnet-20241022", request({ thinkingBudget: 0 })), { model: "claude-3-5-sonnet-20241022", max_tokens: 8192, messages: ANTHROPIC_MESSAGES, temperature: 0 });
  const caps = capabilitiesFor("anthropic", "claude-sonnet-4-5");
  assert.equal(settingsProblem(caps, { ...BASE, thinkingBudget: 1023 }), "thinking_budget 1023 is outside 1024..max_tokens for this model");
  assert.equal(settingsProblem(caps, { ...BASE, thinkingBudget: 8192 }), "thinking_budget 8192 must be below max_tokens 8192");
  assert.equal(settingsProblem(caps, { ...BASE, thinkingBudget: 8191 }), undefined);
  assert.equal(settingsProblem(caps, { ...BASE, thinkingBudget: -1 }), "thinking_budget -1 (dynamic) is a Gemini setting; give a number of tokens");
  assert.match(settingsProblem(caps, { ...BASE, thinkingBudget: 2048, topP: 0.9 })!, /top_p only from 0.95 to 1 \(got 0.9\)/);
  assert.throws(() => configured("anthropic:claude-3-5-sonnet-20241022", { thinking_budget: 2048 }), /takes no thinking switch/);
  assert.throws(() => anthropicBody("claude-sonnet-4-5", request({ thinkingBudget: 512 })), (e: any) => e.kind === "other" && !e.retryable);
});

test("gemini gemini-2.5-flash default body, and thinkingConfig when a switch is set", () => {
  assert.deepEqual(geminiBody("gemini-2.5-flash", request()), { contents: GEMINI_CONTENTS, generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 8192 } });
  assert.deepEqual(geminiBody("gemini-2.5-flash", request({ thinkingBudget: 0, includeThoughts: true, jsonOutput: true })), {
    contents: GEMINI_CONTENTS,
    generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 8192, thinkingConfig: { thinkingBudget: 0, includeThoughts: true }, responseMimeType: "application/json" },
  });
  assert.deepEqual(geminiBody("gemini-2.5-pro", request({ includeThoughts: true })), {
    contents: GEMINI_CONTENTS,
    generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 8192, thinkingConfig: { includeThoughts: true } },
  });
  assert.deepEqual(geminiBody("gemini-2.5-pro", request({ thinkingBudget: -1 })).generationConfig, { temperature: 0, topP: 1, maxOutputTokens: 8192, thinkingConfig: { thinkingBudget: -1 } });
  const pro = capabilitiesFor("gemini", "gemini-2.5-pro");
  assert.equal(settingsProblem(pro, { ...BASE, thinkingBudget: 0 }), "thinking cannot be turned off for this model (thinking_budget 0; least 128)");
  assert.equal(settingsProblem(pro, { ...BASE, thinkingBudget: 40000 }), "thinking_budget 40000 is outside 128..32768 for this model");
  assert.equal(settingsProblem(capabilitiesFor("gemini", "gemini-2.5-flash-lite"), { ...BASE, thinkingBudget: 100 }), "thinking_budget 100 is outside 512..24576 for this model");
  assert.throws(() => configured("gemini:gemini-2.0-flash", { thinking_budget: 1024 }), /takes no thinking switch/);
  assert.throws(() => configured("gemini:gemini-2.0-flash", { include_thoughts: true }), /takes no thinkingConfig/);
  assert.throws(() => configured("anthropic:claude-sonnet-4-5", { include_thoughts: true }), /Gemini models only/);
});

test("sentSettings: the generation fields on the wire, extraBody merged, errors as data", () => {
  const env = { OPENAI_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "k" };
  const sent = (spec: string, settings: GenerationSettings) => createProviderModel(spec, { env, baseUrl: "http://127.0.0.1:9" }).sentSettings!(settings);
  assert.deepEqual(sent("openai:gpt-5-mini", { ...BASE, jsonOutput: true, extraBody: { seed: 7 } }), { max_completion_tokens: 8192, seed: 7 });
  assert.deepEqual(sent("openai:gpt-4o", BASE), { temperature: 0, top_p: 1, max_completion_tokens: 8192 });
  assert.deepEqual(sent("anthropic:claude-sonnet-4-5", { ...BASE, topP: 0.9 }), { max_tokens: 8192, temperature: 0 });
  assert.deepEqual(sent("gemini:gemini-2.5-flash", { ...BASE, thinkingBudget: 512, extraBody: { generationConfig: { candidateCount: 1 } } }), {
    generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 8192, thinkingConfig: { thinkingBudget: 512 }, candidateCount: 1 },
  });
  const refused = sent("openai:gpt-4o", { ...BASE, reasoningEffort: "low" });
  assert.deepEqual(Object.keys(refused), ["error"]);
  assert.match(String(refused.error), /reasoning_effort/);
});

test("the request key covers the switches and overrides (a changed quirk is a new request)", () => {
  const model = createProviderModel("openai:gpt-5-mini", { env: {}, baseUrl: "http://127.0.0.1:9" });
  const keys = [BASE, { ...BASE, reasoningEffort: "low" }, { ...BASE, capabilities: { reasoning: false } }].map((s) => requestKey(model, s, [USER]));
  assert.equal(new Set(keys).size, 3);
  // Absent switches leave the key of existing stores unchanged.
  assert.equal(requestKey(model, { ...BASE, reasoningEffort: undefined }, [USER]), keys[0]);
});

// ---------------------------------------------------------------------------------------------
// Replies

test("openai reply: reasoning_content and reasoning beside the answer, never as it", () => {
  assert.deepEqual(openaiReply({ choices: [{ message: { content: "Answer: A", reasoning_content: "compare A and B" }, finish_reason: "stop" }] }), {
    text: "Answer: A",
    reasoning: "compare A and B",
  });
  assert.deepEqual(openaiReply({ choices: [{ message: { content: "B", reasoning: "think" }, finish_reason: "stop" }] }), { text: "B", reasoning: "think" });
  // Reasoning without content is not an answer.
  assert.throws(
    () => openaiReply({ choices: [{ message: { content: null, reasoning_content: "only thinking" }, finish_reason: "stop" }] }),
    (e: any) => e.kind === "malformed" && e.message === "reply has no content but reasoning (finish_reason stop)",
  );
});

test("openai reply: a leading <think> block is reasoning; elsewhere it is text", () => {
  assert.deepEqual(openaiReply({ choices: [{ message: { content: "\n <think>\nleft looks clear\n</think>\n\nAnswer: left" } }] }), { text: "Answer: left", reasoning: "left looks clear" });
  assert.deepEqual(openaiReply({ choices: [{ message: { content: "Answer <think>x</think>" } }] }), { text: "Answer <think>x</think>" });
  assert.deepEqual(openaiReply({ choices: [{ message: { content: [{ type: "text", text: "<think>a</think>" }, { type: "text", text: "B" }] } }] }), { text: "B", reasoning: "a" });
  assert.deepEqual(splitThinkPrefix("<think>never closed"), { text: "", reasoning: "never closed" });
  assert.deepEqual(splitThinkPrefix("<think></think>X"), { text: "X", reasoning: "" });
  // Linear on a huge unclosed block and on many openings (no regex backtracking).
  const huge = `<think>${"<think>".repeat(500_000)}${"a".repeat(4_000_000)}`;
  const started = performance.now();
  const split = splitThinkPrefix(huge);
  assert.equal(split.text, "");
  assert.equal(split.reasoning!.length, huge.length - "<think>".length);
  assert.ok(performance.now() - started < 2000);
});

test("usage: reasoning tokens are reported beside output tokens, which stay as billed", () => {
  assert.deepEqual(
    openaiReply({ choices: [{ message: { content: "A" } }], usage: { prompt_tokens: 10, completion_tokens: 50, completion_tokens_details: { reasoning_tokens: 40 } } }).usage,
    { inputTokens: 10, outputTokens: 50, reasoningTokens: 40 },
  );
  assert.deepEqual(openaiReply({ choices: [{ message: { content: "A" } }], usage: { prompt_tokens: 1, completion_tokens: 2, completion_tokens_details: null } }).usage, { inputTokens: 1, outputTokens: 2 });
  assert.deepEqual(
    geminiReply({ candidates: [{ content: { parts: [{ text: "A" }] } }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, thoughtsTokenCount: 9 } }).usage,
    { inputTokens: 3, outputTokens: 13, reasoningTokens: 9 },
  );
});

test("anthropic reply: thinking blocks are reasoning, redacted_thinking has none", () => {
  assert.deepEqual(
    anthropicReply({ content: [{ type: "thinking", thinking: "step 1", signature: "s" }, { type: "redacted_thinking", data: "opaque" }, { type: "thinking", thinking: "step 2" }, { type: "text", text: "A" }], stop_reason: "end_turn" }),
    { text: "A", reasoning: "step 1\n\nstep 2" },
  );
  assert.deepEqual(anthropicReply({ content: [{ type: "redacted_thinking", data: "opaque" }, { type: "text", text: "B" }] }), { text: "B" });
});

test("gemini reply: thought parts are reasoning", () => {
  assert.deepEqual(geminiReply({ candidates: [{ content: { parts: [{ text: "weigh", thought: true }, { text: "more", thought: true }, { text: "C" }] }, finishReason: "STOP" }] }), {
    text: "C",
    reasoning: "weigh\n\nmore",
  });
});

test("token limit: a cut reply with text is ok and marked; without text it is a non-retried error", () => {
  const ctx = { maxTokens: 8192 };
  assert.deepEqual(openaiReply({ choices: [{ message: { content: "Answer: le" }, finish_reason: "length" }] }, ctx), { text: "Answer: le", tokenLimited: true });
  assert.deepEqual(anthropicReply({ content: [{ type: "text", text: "Answ" }], stop_reason: "max_tokens" }, ctx), { text: "Answ", tokenLimited: true });
  assert.deepEqual(geminiReply({ candidates: [{ content: { parts: [{ text: "An" }] }, finishReason: "MAX_TOKENS" }] }, ctx), { text: "An", tokenLimited: true });

  const cut = (e: any, message: string) => e.kind === "malformed" && e.retryable === false && e.message === message;
  assert.throws(
    () => openaiReply({ choices: [{ message: { content: "" }, finish_reason: "length" }], usage: { prompt_tokens: 5, completion_tokens: 8192, completion_tokens_details: { reasoning_tokens: 8192 } } }, ctx),
    (e: any) => cut(e, "the reply hit the token limit (max_tokens 8192) before any answer text; 8192 tokens went to reasoning; raise max_tokens"),
  );
  assert.throws(
    () => openaiReply({ choices: [{ message: { content: "<think>still thinking" }, finish_reason: "length" }] }, ctx),
    (e: any) => cut(e, "the reply hit the token limit (max_tokens 8192) before any answer text; raise max_tokens"),
  );
  assert.throws(
    () => anthropicReply({ content: [{ type: "thinking", thinking: "long" }], stop_reason: "max_tokens" }, { maxTokens: 2048 }),
    (e: any) => cut(e, "the reply hit the token limit (max_tokens 2048) before any answer text; raise max_tokens"),
  );
  assert.throws(
    () => geminiReply({ candidates: [{ content: { parts: [{ text: "plan", thought: true }] }, finishReason: "MAX_TOKENS" }], usageMetadata: { thoughtsTokenCount: 100 } }, { maxTokens: 100 }),
    (e: any) => cut(e, "the reply hit the token limit (max_tokens 100) before any answer text; 100 tokens went to reasoning; raise max_tokens"),
  );
  // Gemini may send no content at all when the limit is hit first.
  assert.throws(() => geminiReply({ candidates: [{ finishReason: "MAX_TOKENS" }] }), (e: any) => cut(e, "the reply hit the token limit before any answer text; raise max_tokens"));
});

// ---------------------------------------------------------------------------------------------
// Through the provider, run and store

const SECRET = "sk-openai-SECRET-caps-4242";
let server: Server;
let url = "";
let hits = 0;
/** Reply body chosen by a marker in the request's user text ("*": every request). */
const replies = new Map<string, unknown>();

before(async () => {
  server = createServer((req, res) => {
    hits++;
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as { messages: { content: { type: string; text?: string }[] }[] };
      const texts = body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === "text");
      const key = replies.has("*") ? "*" : [...replies.keys()].find((k) => texts.some((p) => p.text?.includes(k)));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(key ? replies.get(key) : { choices: [{ message: { content: "[1]" }, finish_reason: "stop" }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test("provider: reasoning is scrubbed of keys and capped; a cut reply without text is one attempt", async () => {
  replies.set("case-reasoning", { choices: [{ message: { content: "Answer: A", reasoning_content: `key ${SECRET} then ${"r".repeat(100)}` }, finish_reason: "length" }] });
  replies.set("case-empty", { choices: [{ message: { content: null }, finish_reason: "length" }] });
  const model = createProviderModel("openai:gpt-5-mini", { baseUrl: url, env: { OPENAI_API_KEY: SECRET }, maxReplyBytes: 40, backoffBaseMs: 1 });
  const never = new AbortController().signal;
  const ok = await model.generate({ itemId: "a", messages: [{ role: "user", content: [{ type: "text", text: "case-reasoning" }] }], settings: BASE }, never);
  assert.equal(ok.outcome, "ok");
  assert.equal(ok.text, "Answer: A");
  assert.equal(ok.tokenLimited, true);
  assert.equal(ok.reasoning, "key [redacted] then rrrrrrrrrrrrrrrrrrrrr".slice(0, 40));
  assert.ok(!ok.reasoning!.includes(SECRET));

  const before = hits;
  const cut = await model.generate({ itemId: "b", messages: [{ role: "user", content: [{ type: "text", text: "case-empty" }] }], settings: { ...BASE, maxTokens: 300 } }, never);
  assert.equal(cut.outcome, "error");
  assert.equal(cut.attempts, 1);
  assert.equal(hits - before, 1);
  assert.deepEqual(cut.error, { kind: "malformed", message: "the reply hit the token limit (max_tokens 300) before any answer text; raise max_tokens" });
});

test("run: items.jsonl records reasoning and token_limited, and the store keeps them", async () => {
  const example = path.resolve(import.meta.dirname, "../../test/fixtures/vcn-legacy-mini");
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-caps-run-"));
  process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(dir, "frame-cache");
  const loaded = vcn.load(example);
  const setup = { source: "plain", control: "none", seed: 5 };
  const items = vcn.deriveItems!(loaded.items, setup).slice(0, 2);
  const { build } = vcn.preparePrompts(items, setup);
  // Every request of this run gets the same reply: reasoning beside the answer, cut by the limit.
  replies.clear();
  replies.set("*", { choices: [{ message: { content: "<think>look at the frames</think>[1]" }, finish_reason: "length" }], usage: { prompt_tokens: 7, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 4 } } });
  const model = createProviderModel("openai:gpt-5-mini", { baseUrl: url, env: {} });
  const store = new ResponseStore(path.join(dir, "responses.sqlite"));
  try {
    const results = await runItems({ benchmark: vcn, items, responder: { kind: "model", model }, build, settings: BASE, store, concurrency: 2, retryErrors: false, signal: new AbortController().signal });
    for (const r of results) {
      assert.equal(r.status, "scored");
      assert.equal(r.reply, "[1]");
      assert.equal(r.response?.reasoning, "look at the frames");
      assert.equal(r.response?.token_limited, true);
      assert.deepEqual(r.response?.usage, { inputTokens: 7, outputTokens: 9, reasoningTokens: 4 });
    }
    // A second run reads the same from the store.
    const again = await runItems({ benchmark: vcn, items, responder: { kind: "model", model }, build, settings: BASE, store, concurrency: 2, retryErrors: false, signal: new AbortController().signal });
    for (const r of again) {
      assert.equal(r.response?.cached, true);
      assert.equal(r.response?.reasoning, "look at the frames");
      assert.equal(r.response?.token_limited, true);
    }
  } finally {
    store.close();
    replies.clear();
  }
});
