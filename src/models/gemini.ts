/** Gemini generateContent wire format (Google AI Studio API). */
import type { GenerationSettings, ModelRequest, Usage } from "../core/types.js";
import { applyCapabilities, capabilitiesFor, tokenLimitError } from "./capabilities.js";
import { ProviderError } from "./errors.js";
import { mergeBody, systemText, wireReply } from "./http.js";
import type { ParseContext, WireFormat, WireReply } from "./provider.js";

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

/** Request body for `POST {baseUrl}/v1beta/models/{model}:generateContent`. */
export function geminiBody(model: string, request: ModelRequest): Record<string, unknown> {
  const contents = request.messages
    .filter((m) => m.role !== "system")
    .map((m) => ({
      role: m.role === "assistant" ? "model" : "user",
      parts: m.content.map((p) =>
        p.type === "text" ? { text: p.text } : { inlineData: { mimeType: p.mediaType, data: p.base64 } },
      ),
    }));
  const s = request.settings;
  const generationConfig = geminiSettings(model, s).generationConfig as Record<string, unknown>;
  if (s.jsonOutput) generationConfig.responseMimeType = "application/json";
  const body: Record<string, unknown> = {};
  const system = systemText(request.messages);
  if (system) body.systemInstruction = { parts: [{ text: system }] };
  body.contents = contents;
  body.generationConfig = generationConfig;
  return mergeBody(body, s.extraBody);
}

/**
 * The generation fields after the model's quirks (capabilities.ts): `generationConfig` with the
 * sampling fields and, when a switch is set, `thinkingConfig` (thinkingBudget, includeThoughts).
 */
export function geminiSettings(model: string, s: GenerationSettings): Record<string, unknown> {
  const w = applyCapabilities(capabilitiesFor("gemini", model, s.capabilities), s);
  const generationConfig: Record<string, unknown> = {};
  if (w.temperature !== undefined) generationConfig.temperature = w.temperature;
  if (w.topP !== undefined) generationConfig.topP = w.topP;
  generationConfig.maxOutputTokens = w.maxTokens;
  if (w.thinkingBudget !== undefined || w.includeThoughts !== undefined)
    generationConfig.thinkingConfig = {
      ...(w.thinkingBudget !== undefined && { thinkingBudget: w.thinkingBudget }),
      ...(w.includeThoughts !== undefined && { includeThoughts: w.includeThoughts }),
    };
  return { generationConfig };
}

interface GenerateReply {
  candidates?: { content?: { parts?: { text?: unknown; thought?: unknown }[] }; finishReason?: unknown }[];
  promptFeedback?: { blockReason?: unknown };
  usageMetadata?: { promptTokenCount?: unknown; candidatesTokenCount?: unknown; thoughtsTokenCount?: unknown };
}

const BLOCKED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);

/**
 * Reply text (candidate 0's text parts joined), the thought parts' text beside it, usage, and
 * whether finishReason "MAX_TOKENS" cut it. Output tokens include thinking tokens, as billed;
 * reasoningTokens repeats the thinking share. No candidates (a blocked prompt) is "refused".
 */
export function geminiReply(json: unknown, context: ParseContext = {}): WireReply {
  const reply = (json ?? {}) as GenerateReply;
  const candidate = Array.isArray(reply.candidates) ? reply.candidates[0] : undefined;
  if (!candidate) {
    const reason = reply.promptFeedback?.blockReason;
    throw new ProviderError("refused", `no candidates${reason ? ` (blockReason ${String(reason)})` : ""}`, { retryable: false });
  }
  const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
  let text = "";
  const thoughts: string[] = [];
  for (const p of parts) {
    if (!p || typeof p !== "object" || typeof p.text !== "string") continue;
    if (p.thought === true) {
      if (p.text) thoughts.push(p.text);
    } else text += p.text;
  }
  const meta = reply.usageMetadata;
  const usage: Usage = {};
  const thinking = typeof meta?.thoughtsTokenCount === "number" ? meta.thoughtsTokenCount : undefined;
  if (typeof meta?.promptTokenCount === "number") usage.inputTokens = meta.promptTokenCount;
  if (typeof meta?.candidatesTokenCount === "number") usage.outputTokens = meta.candidatesTokenCount + (thinking ?? 0);
  if (thinking !== undefined) usage.reasoningTokens = thinking;
  const tokenLimited = candidate.finishReason === "MAX_TOKENS";
  if (!text) {
    if (BLOCKED.has(String(candidate.finishReason)))
      throw new ProviderError("refused", `reply blocked (finishReason ${String(candidate.finishReason)})`, { retryable: false });
    if (tokenLimited) throw tokenLimitError(context.maxTokens, thinking);
    throw new ProviderError("malformed", `reply has no text (finishReason ${String(candidate.finishReason)})`);
  }
  const reasoning = thoughts.join("\n\n");
  return wireReply(text, usage, reasoning, tokenLimited);
}

export const geminiWire: WireFormat = {
  provider: "gemini",
  defaultBaseUrl: GEMINI_DEFAULT_BASE_URL,
  baseUrlEnv: "GEMINI_BASE_URL",
  keyEnv: "GEMINI_API_KEY",
  keyRequired: () => true,
  url: (baseUrl, model) =>
    `${baseUrl.replace(/\/v1beta$/, "")}/v1beta/models/${encodeURIComponent(model.replace(/^models\//, ""))}:generateContent`,
  headers: (apiKey) => ({ "x-goog-api-key": apiKey ?? "" }),
  body: geminiBody,
  settings: geminiSettings,
  parse: geminiReply,
};
