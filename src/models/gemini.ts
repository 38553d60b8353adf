/** Gemini generateContent wire format (Google AI Studio API). */
import type { ModelRequest, Usage } from "../core/types.js";
import { ProviderError } from "./errors.js";
import { mergeBody, systemText } from "./http.js";
import type { WireFormat, WireReply } from "./provider.js";

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

/** Request body for `POST {baseUrl}/v1beta/models/{model}:generateContent`. */
export function geminiBody(_model: string, request: ModelRequest): Record<string, unknown> {
  const contents = request.messages
    .filter((m) => m.role !== "system")
    .map((m) => ({
      role: m.role === "assistant" ? "model" : "user",
      parts: m.content.map((p) =>
        p.type === "text" ? { text: p.text } : { inlineData: { mimeType: p.mediaType, data: p.base64 } },
      ),
    }));
  const s = request.settings;
  const generationConfig: Record<string, unknown> = {
    temperature: s.temperature,
    topP: s.topP,
    maxOutputTokens: s.maxTokens,
  };
  if (s.jsonOutput) generationConfig.responseMimeType = "application/json";
  const body: Record<string, unknown> = {};
  const system = systemText(request.messages);
  if (system) body.systemInstruction = { parts: [{ text: system }] };
  body.contents = contents;
  body.generationConfig = generationConfig;
  return mergeBody(body, s.extraBody);
}

interface GenerateReply {
  candidates?: { content?: { parts?: { text?: unknown; thought?: unknown }[] }; finishReason?: unknown }[];
  promptFeedback?: { blockReason?: unknown };
  usageMetadata?: { promptTokenCount?: unknown; candidatesTokenCount?: unknown; thoughtsTokenCount?: unknown };
}

const BLOCKED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);

/**
 * Reply text (candidate 0's text parts joined, thought parts skipped) and usage; output tokens
 * include thinking tokens, as billed. No candidates (a blocked prompt) is "refused".
 */
export function geminiReply(json: unknown): WireReply {
  const reply = (json ?? {}) as GenerateReply;
  const candidate = Array.isArray(reply.candidates) ? reply.candidates[0] : undefined;
  if (!candidate) {
    const reason = reply.promptFeedback?.blockReason;
    throw new ProviderError("refused", `no candidates${reason ? ` (blockReason ${String(reason)})` : ""}`, { retryable: false });
  }
  const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
  const text = parts.map((p) => (p && p.thought !== true && typeof p.text === "string" ? p.text : "")).join("");
  if (!text) {
    if (BLOCKED.has(String(candidate.finishReason)))
      throw new ProviderError("refused", `reply blocked (finishReason ${String(candidate.finishReason)})`, { retryable: false });
    throw new ProviderError("malformed", `reply has no text (finishReason ${String(candidate.finishReason)})`);
  }
  const meta = reply.usageMetadata;
  const usage: Usage = {};
  if (typeof meta?.promptTokenCount === "number") usage.inputTokens = meta.promptTokenCount;
  if (typeof meta?.candidatesTokenCount === "number")
    usage.outputTokens = meta.candidatesTokenCount + (typeof meta.thoughtsTokenCount === "number" ? meta.thoughtsTokenCount : 0);
  return Object.keys(usage).length ? { text, usage } : { text };
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
  parse: geminiReply,
};
