/**
 * OpenAI-compatible Chat Completions wire format (OpenAI, vLLM, SGLang, Ollama, LM Studio,
 * OpenRouter). Authorization is sent only when a key is configured.
 */
import { randomBytes } from "node:crypto";
import type { GenerationSettings, ModelRequest, Usage } from "../core/types.js";
import { isPlainJsonString, needsNoEscaping } from "../core/hash.js";
import { applyCapabilities, capabilitiesFor, tokenLimitError } from "./capabilities.js";
import { ProviderError } from "./errors.js";
import { joinText, mergeBody, wireReply } from "./http.js";
import type { ParseContext, WireFormat, WireOptions, WireReply } from "./provider.js";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** Request body for `POST {baseUrl}/chat/completions`. */
export function openaiBody(model: string, request: ModelRequest, options: WireOptions = {}): Record<string, unknown> {
  return chatBody(model, request, options, (p) => `data:${p.mediaType};base64,${p.base64}`);
}

type ImagePart = Extract<ModelRequest["messages"][number]["content"][number], { type: "image" }>;

/** Stands for an image's data URL while the rest of the body is serialized (openaiBodyText). */
const IMAGE_SLOT = `\u0000spatialprobe-image-${randomBytes(8).toString("hex")}\u0000`;
const IMAGE_SLOT_JSON = JSON.stringify(IMAGE_SLOT);

/**
 * JSON.stringify(openaiBody(...)), the same text, built without serializing the images: the body
 * is stringified with a marker in place of each data URL, and each marker is then replaced by
 * `"data:<type>;base64,<base64>"`, base64 that needs no escaping (core/hash.ts isPlainJsonString:
 * the store key of the request usually left the verdict). When a marker is not found exactly
 * once per image (extra_body replaced the messages, say) or an image needs escaping, the body is
 * stringified whole.
 */
export function openaiBodyText(model: string, request: ModelRequest, options: WireOptions = {}): string {
  const images: ImagePart[] = [];
  const marked = JSON.stringify(
    chatBody(model, request, options, (p) => {
      images.push(p);
      return IMAGE_SLOT;
    }),
  );
  const pieces = marked.split(IMAGE_SLOT_JSON);
  const plain = images.every((p) => needsNoEscaping(p.mediaType) && isPlainJsonString(p.base64));
  if (pieces.length !== images.length + 1 || !plain) return JSON.stringify(openaiBody(model, request, options));
  let text = pieces[0]!;
  images.forEach((p, i) => {
    text += `"data:${p.mediaType};base64,${p.base64}"${pieces[i + 1]!}`;
  });
  return text;
}

function chatBody(model: string, request: ModelRequest, options: WireOptions, imageUrl: (p: ImagePart) => string): Record<string, unknown> {
  const messages = request.messages.map((m) => {
    if (m.role !== "user") return { role: m.role, content: joinText(m) };
    return {
      role: "user",
      content: m.content.map((p) =>
        p.type === "text"
          ? { type: "text", text: p.text }
          : { type: "image_url", image_url: { url: imageUrl(p), detail: "high" } },
      ),
    };
  });
  const s = request.settings;
  const body: Record<string, unknown> = { model, messages, ...openaiSettings(model, s, options) };
  if (s.jsonOutput) body.response_format = { type: "json_object" };
  return mergeBody(body, s.extraBody);
}

/**
 * The generation fields of the body after the model's quirks (capabilities.ts): reasoning models
 * get no temperature or top_p, and `reasoning_effort` when it is set.
 */
export function openaiSettings(model: string, s: GenerationSettings, options: WireOptions = {}): Record<string, unknown> {
  const w = applyCapabilities(capabilitiesFor("openai", model, s.capabilities), s);
  const fields: Record<string, unknown> = {};
  if (w.temperature !== undefined) fields.temperature = w.temperature;
  if (w.topP !== undefined) fields.top_p = w.topP;
  fields[options.maxTokensField ?? "max_completion_tokens"] = w.maxTokens;
  if (w.reasoningEffort !== undefined) fields.reasoning_effort = w.reasoningEffort;
  return fields;
}

interface ChatReply {
  choices?: {
    message?: { content?: unknown; refusal?: unknown; reasoning_content?: unknown; reasoning?: unknown };
    finish_reason?: unknown;
  }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; completion_tokens_details?: { reasoning_tokens?: unknown } };
}

/** Content part types that carry reasoning rather than answer text. */
const REASONING_PARTS = new Set(["reasoning", "thinking"]);

/**
 * A leading `<think>…</think>` block (some local servers inline reasoning that way) split from
 * the answer. An unclosed block is all reasoning. Linear time: two indexOf scans, no regex.
 */
export function splitThinkPrefix(content: string): { text: string; reasoning?: string } {
  let i = 0;
  while (i < content.length && /\s/.test(content[i]!)) i++;
  if (!content.startsWith("<think>", i)) return { text: content };
  const start = i + "<think>".length;
  const end = content.indexOf("</think>", start);
  if (end < 0) return { text: "", reasoning: content.slice(start).trim() };
  return { text: content.slice(end + "</think>".length).trimStart(), reasoning: content.slice(start, end).trim() };
}

/** Answer and reasoning text of a message: string content, or content parts by type. */
function messageTexts(content: unknown): { text: string; reasoning: string } {
  if (typeof content === "string") {
    const split = splitThinkPrefix(content);
    return { text: split.text, reasoning: split.reasoning ?? "" };
  }
  if (!Array.isArray(content)) return { text: "", reasoning: "" };
  let text = "";
  let reasoning = "";
  for (const p of content) {
    if (!p || typeof p !== "object" || typeof p.text !== "string") continue;
    if (REASONING_PARTS.has(p.type)) reasoning += p.text;
    else text += p.text;
  }
  const split = splitThinkPrefix(text);
  return { text: split.text, reasoning: [reasoning, split.reasoning ?? ""].filter(Boolean).join("\n\n") };
}

/**
 * Reply text (string content, or the joined `text` of content parts), the reasoning returned
 * beside it (vLLM/DeepSeek `reasoning_content`, `reasoning`, a leading `<think>` block), token
 * usage, and whether finish_reason "length" cut it. Error messages quote the server uncut: the
 * provider scrubs keys from them and then cuts them.
 */
export function openaiReply(json: unknown, context: ParseContext = {}): WireReply {
  const reply = (json ?? {}) as ChatReply;
  const choice = Array.isArray(reply.choices) ? reply.choices[0] : undefined;
  if (!choice || typeof choice !== "object") {
    const detail = (reply as { error?: { message?: unknown } }).error?.message;
    throw new ProviderError("malformed", `reply has no choices[0]${typeof detail === "string" ? `: ${detail}` : ""}`);
  }
  const message = choice.message && typeof choice.message === "object" ? choice.message : {};
  const { text, reasoning: inline } = messageTexts(message.content);
  const field = [message.reasoning_content, message.reasoning].find((r): r is string => typeof r === "string" && r.length > 0);
  const reasoning = [field ?? "", inline].filter(Boolean).join("\n\n");
  const usage = openaiUsage(reply.usage);
  const tokenLimited = choice.finish_reason === "length";
  if (!text) {
    const refusal = message.refusal;
    if (typeof refusal === "string" && refusal)
      throw new ProviderError("refused", `model refused: ${refusal}`, { retryable: false });
    if (choice.finish_reason === "content_filter")
      throw new ProviderError("refused", "reply withheld by the content filter", { retryable: false });
    if (tokenLimited) throw tokenLimitError(context.maxTokens, usage?.reasoningTokens);
    const only = reasoning ? " but reasoning" : "";
    throw new ProviderError("malformed", `reply has no content${only} (finish_reason ${String(choice.finish_reason)})`);
  }
  return wireReply(text, usage, reasoning, tokenLimited);
}

/** prompt/completion tokens, and the reasoning tokens counted within completion tokens. */
function openaiUsage(raw: ChatReply["usage"]): Usage | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const usage: Usage = {};
  if (typeof raw.prompt_tokens === "number") usage.inputTokens = raw.prompt_tokens;
  if (typeof raw.completion_tokens === "number") usage.outputTokens = raw.completion_tokens;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number") usage.reasoningTokens = reasoning;
  return Object.keys(usage).length ? usage : undefined;
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
  bodyText: openaiBodyText,
  settings: openaiSettings,
  parse: openaiReply,
};
