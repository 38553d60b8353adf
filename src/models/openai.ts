/**
 * OpenAI-compatible Chat Completions wire format (OpenAI, vLLM, SGLang, Ollama, LM Studio,
 * OpenRouter). Authorization is sent only when a key is configured.
 */
import type { ModelRequest, Usage } from "../core/types.js";
import { ProviderError } from "./errors.js";
import { joinText, mergeBody } from "./http.js";
import type { WireFormat, WireOptions, WireReply } from "./provider.js";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** Request body for `POST {baseUrl}/chat/completions`. */
export function openaiBody(model: string, request: ModelRequest, options: WireOptions = {}): Record<string, unknown> {
  const messages = request.messages.map((m) => {
    if (m.role !== "user") return { role: m.role, content: joinText(m) };
    return {
      role: "user",
      content: m.content.map((p) =>
        p.type === "text"
          ? { type: "text", text: p.text }
          : { type: "image_url", image_url: { url: `data:${p.mediaType};base64,${p.base64}`, detail: "high" } },
      ),
    };
  });
  const s = request.settings;
  const body: Record<string, unknown> = {
    model,
    messages,
    temperature: s.temperature,
    top_p: s.topP,
    [options.maxTokensField ?? "max_completion_tokens"]: s.maxTokens,
  };
  if (s.jsonOutput) body.response_format = { type: "json_object" };
  return mergeBody(body, s.extraBody);
}

interface ChatReply {
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/**
 * Reply text (string content, or the joined `text` of content parts) and token usage. Error
 * messages quote the server uncut: the provider scrubs keys from them and then cuts them.
 */
export function openaiReply(json: unknown): WireReply {
  const reply = (json ?? {}) as ChatReply;
  const choice = Array.isArray(reply.choices) ? reply.choices[0] : undefined;
  if (!choice || typeof choice !== "object") {
    const detail = (reply as { error?: { message?: unknown } }).error?.message;
    throw new ProviderError("malformed", `reply has no choices[0]${typeof detail === "string" ? `: ${detail}` : ""}`);
  }
  const content = choice.message?.content;
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content))
    text = content.map((p) => (p && typeof p === "object" && typeof p.text === "string" ? p.text : "")).join("");
  if (!text) {
    const refusal = choice.message?.refusal;
    if (typeof refusal === "string" && refusal)
      throw new ProviderError("refused", `model refused: ${refusal}`, { retryable: false });
    if (choice.finish_reason === "content_filter")
      throw new ProviderError("refused", "reply withheld by the content filter", { retryable: false });
    throw new ProviderError("malformed", `reply has no content (finish_reason ${String(choice.finish_reason)})`);
  }
  const usage: Usage = {};
  if (typeof reply.usage?.prompt_tokens === "number") usage.inputTokens = reply.usage.prompt_tokens;
  if (typeof reply.usage?.completion_tokens === "number") usage.outputTokens = reply.usage.completion_tokens;
  return Object.keys(usage).length ? { text, usage } : { text };
}

export const openaiWire: WireFormat = {
  provider: "openai",
  defaultBaseUrl: OPENAI_DEFAULT_BASE_URL,
  baseUrlEnv: "OPENAI_BASE_URL",
  keyEnv: "OPENAI_API_KEY",
  // Local servers need no key; the public API always does.
  keyRequired: (baseUrl) => /^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl),
  url: (baseUrl) => `${baseUrl}/chat/completions`,
  headers: (apiKey): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  body: openaiBody,
  parse: openaiReply,
};
