/** Anthropic Messages API wire format. */
import type { ModelRequest, Usage } from "../core/types.js";
import { ProviderError } from "./errors.js";
import { mergeBody, systemText } from "./http.js";
import type { WireFormat, WireReply } from "./provider.js";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

/** Request body for `POST {baseUrl}/v1/messages`. top_p is sent only when it is not 1. */
export function anthropicBody(model: string, request: ModelRequest): Record<string, unknown> {
  const messages = request.messages
    .filter((m) => m.role !== "system")
    .map((m) => ({
      role: m.role,
      content: m.content.map((p) =>
        p.type === "text"
          ? { type: "text", text: p.text }
          : { type: "image", source: { type: "base64", media_type: p.mediaType, data: p.base64 } },
      ),
    }));
  const s = request.settings;
  const body: Record<string, unknown> = { model, max_tokens: s.maxTokens };
  const system = systemText(request.messages);
  if (system) body.system = system;
  body.messages = messages;
  body.temperature = s.temperature;
  if (s.topP !== 1) body.top_p = s.topP;
  return mergeBody(body, s.extraBody);
}

interface MessagesReply {
  content?: { type?: unknown; text?: unknown }[];
  stop_reason?: unknown;
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

/** Reply text (all text blocks joined) and token usage. */
export function anthropicReply(json: unknown): WireReply {
  const reply = (json ?? {}) as MessagesReply;
  if (!Array.isArray(reply.content)) throw new ProviderError("malformed", "reply has no content array");
  const text = reply.content
    .map((b) => (b && b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("");
  if (!text) {
    if (reply.stop_reason === "refusal") throw new ProviderError("refused", "model refused to answer", { retryable: false });
    throw new ProviderError("malformed", `reply has no text (stop_reason ${String(reply.stop_reason)})`);
  }
  const usage: Usage = {};
  if (typeof reply.usage?.input_tokens === "number") usage.inputTokens = reply.usage.input_tokens;
  if (typeof reply.usage?.output_tokens === "number") usage.outputTokens = reply.usage.output_tokens;
  return Object.keys(usage).length ? { text, usage } : { text };
}

export const anthropicWire: WireFormat = {
  provider: "anthropic",
  defaultBaseUrl: ANTHROPIC_DEFAULT_BASE_URL,
  baseUrlEnv: "ANTHROPIC_BASE_URL",
  keyEnv: "ANTHROPIC_API_KEY",
  keyRequired: () => true,
  // Tolerate a base URL given with the version suffix.
  url: (baseUrl) => `${baseUrl.replace(/\/v1$/, "")}/v1/messages`,
  headers: (apiKey) => ({ "x-api-key": apiKey ?? "", "anthropic-version": ANTHROPIC_VERSION }),
  body: anthropicBody,
  parse: anthropicReply,
};
