/** Anthropic Messages API wire format. */
import type { GenerationSettings, ModelRequest, Usage } from "../core/types.js";
import { applyCapabilities, capabilitiesFor, tokenLimitError } from "./capabilities.js";
import { ProviderError } from "./errors.js";
import { mergeBody, systemText, wireReply } from "./http.js";
import type { ParseContext, WireFormat, WireReply } from "./provider.js";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

/** Request body for `POST {baseUrl}/v1/messages`. */
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
  const { max_tokens, ...sampling } = anthropicSettings(model, s);
  const body: Record<string, unknown> = { model, max_tokens };
  const system = systemText(request.messages);
  if (system) body.system = system;
  body.messages = messages;
  return mergeBody({ ...body, ...sampling }, s.extraBody);
}

/**
 * The generation fields after the model's quirks (capabilities.ts): top_p only when it is not
 * 1; one sampler for the models that refuse both; with `thinking` on, no temperature.
 */
export function anthropicSettings(model: string, s: GenerationSettings): Record<string, unknown> {
  const w = applyCapabilities(capabilitiesFor("anthropic", model, s.capabilities), s);
  const fields: Record<string, unknown> = { max_tokens: w.maxTokens };
  if (w.temperature !== undefined) fields.temperature = w.temperature;
  if (w.topP !== undefined) fields.top_p = w.topP;
  if (w.thinkingBudget !== undefined) fields.thinking = { type: "enabled", budget_tokens: w.thinkingBudget };
  return fields;
}

interface MessagesReply {
  content?: { type?: unknown; text?: unknown; thinking?: unknown }[];
  stop_reason?: unknown;
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

/**
 * Reply text (all text blocks joined), the thinking blocks' text beside it (redacted_thinking
 * blocks carry none), token usage, and whether stop_reason "max_tokens" cut it.
 */
export function anthropicReply(json: unknown, context: ParseContext = {}): WireReply {
  const reply = (json ?? {}) as MessagesReply;
  if (!Array.isArray(reply.content)) throw new ProviderError("malformed", "reply has no content array");
  let text = "";
  const thoughts: string[] = [];
  for (const b of reply.content) {
    if (!b || typeof b !== "object") continue;
    if (b.type === "text" && typeof b.text === "string") text += b.text;
    else if (b.type === "thinking" && typeof b.thinking === "string" && b.thinking) thoughts.push(b.thinking);
  }
  const tokenLimited = reply.stop_reason === "max_tokens";
  if (!text) {
    if (reply.stop_reason === "refusal") throw new ProviderError("refused", "model refused to answer", { retryable: false });
    if (tokenLimited) throw tokenLimitError(context.maxTokens);
    throw new ProviderError("malformed", `reply has no text (stop_reason ${String(reply.stop_reason)})`);
  }
  const usage: Usage = {};
  if (typeof reply.usage?.input_tokens === "number") usage.inputTokens = reply.usage.input_tokens;
  if (typeof reply.usage?.output_tokens === "number") usage.outputTokens = reply.usage.output_tokens;
  const reasoning = thoughts.join("\n\n");
  return wireReply(text, usage, reasoning, tokenLimited);
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
  settings: anthropicSettings,
  parse: anthropicReply,
};
