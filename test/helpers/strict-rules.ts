/**
 * What the real OpenAI Chat Completions, Anthropic Messages and Gemini generateContent APIs
 * reject, for the strict mock server (`startMockServer({ strict: true })`): each rule answers with
 * the real status code and error body shape and, where the wording is documented or reported from
 * the real API, with that wording. Sources are cited per rule; "our wording" marks a documented
 * limit whose real error text we could not find.
 *
 * This file knows nothing of src/: its model table is its own, so the mock is an independent check
 * of the capability table and request shaping in src/models/.
 *
 * Image sizes are read from the PNG/JPEG/GIF/WebP header bytes (no pixel decoding), so 40 MB
 * bodies are checked in milliseconds. Every check is linear in the body size.
 */

export type StrictProvider = "openai" | "anthropic" | "gemini";

/** One violated rule: the id names it in test output, status/body are what the real API sends. */
export interface Rejection {
  rule: string;
  status: number;
  message: string;
  body: unknown;
}

// ---------------------------------------------------------------------------------------------
// Model table (ours, independent of src/models/capabilities.ts).

/** The model name without a routing prefix such as "openai/" or "models/". */
function bareModel(model: string): string {
  const lower = model.toLowerCase();
  return lower.slice(lower.lastIndexOf("/") + 1);
}

/**
 * OpenAI reasoning models: the o-series and the gpt-5 family, but not the chat snapshots
 * (gpt-5-chat-latest), which are not reasoning models. Source: platform.openai.com/docs/guides/reasoning
 * and the per-model pages (gpt-5-chat-latest lists temperature support).
 */
export function isOpenAIReasoningModel(model: string): boolean {
  const m = bareModel(model);
  if (/^o\d+(-|$)/.test(m)) return true;
  return /^gpt-5(\.\d+)?(-|$)/.test(m) && !/-chat(-|$)/.test(m);
}

/**
 * gpt-5.1 and later accept temperature and top_p when `reasoning_effort` is "none" (OpenAI's
 * GPT-5.1/5.2 guides: "only supported when using ... reasoning effort none"); gpt-5 and the
 * o-series never do.
 */
function openAISamplingAllowed(model: string, body: Record<string, unknown>): boolean {
  return /^gpt-5\.\d+/.test(bareModel(model)) && body.reasoning_effort === "none";
}

/**
 * Anthropic models that refuse `temperature` together with `top_p`: Claude Opus 4.1 and every
 * later Claude (Sonnet 4.5, Haiku 4.5, Opus 4.5, 4.6 ...). Claude Sonnet 4 / Opus 4 (the 2025-05
 * snapshots) still take both. Reported: github.com/langfuse/langfuse/issues/9882 (Sonnet 4.5),
 * github.com/Vali-98/ChatterUI/issues/564 (Sonnet 4.6).
 */
export function anthropicRefusesTemperatureWithTopP(model: string): boolean {
  const m = bareModel(model);
  const four = /^claude-(opus|sonnet|haiku)-4-(\d)(-|$)/.exec(m);
  if (four) return Number(four[2]) >= 1;
  const later = /^claude-(opus|sonnet|haiku)-(\d+)(-|$)/.exec(m);
  return later ? Number(later[2]) >= 5 : false;
}

/** Most output tokens per model (Anthropic models overview page). Unknown models: no check. */
const ANTHROPIC_MAX_OUTPUT: [RegExp, number][] = [
  [/^claude-opus-4-1(-|$)/, 32000],
  [/^claude-opus-4(-\d{8})?$/, 32000],
  [/^claude-(sonnet|haiku)-4-5(-|$)/, 64000],
  [/^claude-opus-4-5(-|$)/, 64000],
  [/^claude-sonnet-4(-\d{8})?$/, 64000],
  [/^claude-3-7-sonnet(-|$)/, 64000],
  [/^claude-3-5-haiku(-|$)/, 8192],
];

/** Most completion tokens per model (OpenAI model pages). Unknown models: no check. */
const OPENAI_MAX_OUTPUT: [RegExp, number][] = [
  [/^gpt-4o(-mini)?(-\d{4}-\d{2}-\d{2})?$/, 16384],
  [/^gpt-4\.1(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/, 32768],
  [/^gpt-5(\.\d+)?(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/, 128000],
  [/^o[34](-mini)?(-\d{4}-\d{2}-\d{2})?$/, 100000],
];

function maxOutputOf(table: [RegExp, number][], model: string): number | undefined {
  const m = bareModel(model);
  return table.find(([pattern]) => pattern.test(m))?.[1];
}

/**
 * Gemini models whose thinking cannot be turned off (thinkingBudget 0 is refused):
 * ai.google.dev/gemini-api/docs/thinking ("You cannot turn off thinking for Gemini 2.5 Pro").
 */
function geminiAlwaysThinks(model: string): boolean {
  return /^gemini-2\.5-pro(-|$)/.test(bareModel(model));
}

// ---------------------------------------------------------------------------------------------
// Image headers.

export type HeaderType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export interface ImageHeader {
  type: HeaderType;
  width: number;
  height: number;
}

const ascii = (b: Buffer, start: number, end: number) => (b.length >= end ? b.toString("latin1", start, end) : "");

/** The type a file's bytes are, from the magic number alone (undefined for other formats). */
export function sniffImageType(b: Buffer): HeaderType | undefined {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a") return "image/gif";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return "image/webp";
  return undefined;
}

/** PNG: the IHDR chunk follows the 8-byte signature (width, height: big-endian u32 at 16 and 20). */
function pngSize(b: Buffer): [number, number] | undefined {
  if (b.length < 24 || ascii(b, 12, 16) !== "IHDR") return undefined;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

/** GIF: the logical screen descriptor (little-endian u16 width, height at 6 and 8). */
function gifSize(b: Buffer): [number, number] | undefined {
  return b.length >= 10 ? [b.readUInt16LE(6), b.readUInt16LE(8)] : undefined;
}

/** WebP (RFC 9649): the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webpSize(b: Buffer): [number, number] | undefined {
  const chunk = ascii(b, 12, 16);
  if (chunk === "VP8 " && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === "VP8X" && b.length >= 30) return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
  return undefined;
}

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walk the marker segments up to the first SOFn (height, width: big-endian u16 at +5, +7). */
function jpegSize(b: Buffer): [number, number] | undefined {
  let i = 2;
  while (i + 9 <= b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // standalone markers: no length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data, before any frame header
    if (isStartOfFrame(marker)) return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
    i += 2 + b.readUInt16BE(i + 2);
  }
  return undefined;
}

/** The type and pixel size from an image's header bytes, or undefined when they are not a readable PNG/JPEG/GIF/WebP. */
export function readImageHeader(b: Buffer): ImageHeader | undefined {
  const type = sniffImageType(b);
  if (!type) return undefined;
  const size = type === "image/png" ? pngSize(b) : type === "image/jpeg" ? jpegSize(b) : type === "image/gif" ? gifSize(b) : webpSize(b);
  if (!size || size[0] <= 0 || size[1] <= 0) return undefined;
  return { type, width: size[0], height: size[1] };
}

/** Base64 characters decoded first: headers sit near the start (a JPEG's EXIF can push its SOF further, then all is decoded). */
const HEADER_PREFIX_CHARS = 64 * 1024;

/** The header of a base64 image, decoding only a prefix unless the header lies beyond it. */
export function headerOfBase64(data: string): ImageHeader | undefined {
  const head = readImageHeader(Buffer.from(data.slice(0, HEADER_PREFIX_CHARS), "base64"));
  if (head || data.length <= HEADER_PREFIX_CHARS) return head;
  return readImageHeader(Buffer.from(data, "base64"));
}

/** The type of a base64 image's bytes (magic number only). */
function typeOfBase64(data: string): HeaderType | undefined {
  return sniffImageType(Buffer.from(data.slice(0, 64), "base64"));
}

// ---------------------------------------------------------------------------------------------
// Shared helpers.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o: Json, key: string) => Object.prototype.hasOwnProperty.call(o, key) && o[key] !== undefined;

/** Binary megabytes, as Google's error text shows them (20 MB = 20971520 bytes). */
const MB = 1024 * 1024;

/** Text of a string-or-parts content (OpenAI and Anthropic). */
function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((p) => (isObject(p) && typeof p.text === "string" ? [p.text] : []));
}

/** "0" for 0, "0.2" for 0.2: how the API echoes a number in its messages. */
const num = (v: unknown) => (typeof v === "number" ? String(v) : JSON.stringify(v));

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions (platform.openai.com/docs/api-reference/chat/create).

function openaiError(rule: string, status: number, message: string, param: string | null, code: string | null, type = "invalid_request_error"): Rejection {
  return { rule, status, message, body: { error: { message, type, param, code } } };
}

/** Request parameters of POST /v1/chat/completions (API reference, 2025). Anything else is "Unrecognized". */
const OPENAI_PARAMS = new Set([
  "model", "messages", "audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
  "max_completion_tokens", "max_tokens", "metadata", "modalities", "n", "parallel_tool_calls", "prediction",
  "presence_penalty", "prompt_cache_key", "prompt_cache_retention", "reasoning_effort", "response_format",
  "safety_identifier", "seed", "service_tier", "stop", "store", "stream", "stream_options", "temperature",
  "tool_choice", "tools", "top_logprobs", "top_p", "user", "verbosity", "web_search_options",
]);

/** Parameters only reasoning models take: sent to gpt-4o they are "Unrecognized" (github.com/coroot/coroot/issues/698). */
const OPENAI_REASONING_ONLY = new Set(["reasoning_effort"]);

const OPENAI_ROLES = ["system", "assistant", "user", "function", "tool", "developer"];

/** Image formats the vision guide lists (platform.openai.com/docs/guides/images-vision). */
const OPENAI_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** 50 MB total payload and 500 images per request (images-vision guide, "Image input requirements"). */
export const OPENAI_MAX_REQUEST_BYTES = 50 * MB;
export const OPENAI_MAX_IMAGES = 500;

const DATA_URL = /^data:([^;,]*)(;base64)?,/;

function openaiViolations(model: string, body: Json, rawBytes: number): Rejection[] {
  const out: Rejection[] = [];
  // Our wording: the limit is documented, the server's text for it is not.
  if (rawBytes > OPENAI_MAX_REQUEST_BYTES)
    out.push(openaiError("openai.request_too_large", 413, `Request too large: the body is ${rawBytes} bytes; the limit is ${OPENAI_MAX_REQUEST_BYTES} bytes (50 MB).`, null, "request_too_large"));

  const reasoning = isOpenAIReasoningModel(model);
  const unknown = Object.keys(body).filter((k) => !OPENAI_PARAMS.has(k) || (!reasoning && OPENAI_REASONING_ONLY.has(k)));
  if (unknown.length)
    out.push(openaiError("openai.unrecognized_argument", 400, `Unrecognized request argument${unknown.length > 1 ? "s" : ""} supplied: ${unknown.join(", ")}`, null, null));

  const messages = Array.isArray(body.messages) ? body.messages : [];
  if (!Array.isArray(body.messages)) out.push(openaiError("openai.messages_missing", 400, "Missing required parameter: 'messages'.", "messages", "missing_required_parameter"));
  else if (messages.length === 0) out.push(openaiError("openai.messages_empty", 400, "[] is too short - 'messages'", "messages", "empty_array"));
  messages.forEach((m, i) => {
    const role = isObject(m) ? m.role : undefined;
    if (typeof role !== "string" || !OPENAI_ROLES.includes(role))
      out.push(openaiError("openai.role", 400, `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, "invalid_value"));
  });

  // JSON mode needs the word "json" somewhere in the messages (reported wording; the JSON-mode guide states the rule).
  const format = isObject(body.response_format) ? body.response_format.type : undefined;
  if (format === "json_object") {
    const said = messages.some((m) => isObject(m) && contentTexts(m.content).some((t) => /json/i.test(t)));
    if (!said)
      out.push(openaiError("openai.json_without_json_word", 400, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", "messages", null));
  }

  // Reasoning models (reasoning guide; wording as the API returns it, e.g. github.com/tmc/langchaingo/issues/1355).
  if (reasoning) {
    if (has(body, "max_tokens"))
      out.push(openaiError("openai.reasoning.max_tokens", 400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter"));
    const samplingOk = openAISamplingAllowed(model, body);
    if (has(body, "temperature") && body.temperature !== 1 && !samplingOk)
      out.push(openaiError("openai.reasoning.temperature", 400, `Unsupported value: 'temperature' does not support ${num(body.temperature)} with this model. Only the default (1) value is supported.`, "temperature", "unsupported_value"));
    if (has(body, "top_p") && !samplingOk)
      out.push(openaiError("openai.reasoning.top_p", 400, "Unsupported parameter: 'top_p' is not supported with this model.", "top_p", "unsupported_parameter"));
  }

  const limit = maxOutputOf(OPENAI_MAX_OUTPUT, model);
  for (const field of ["max_tokens", "max_completion_tokens"]) {
    const v = body[field];
    if (limit !== undefined && typeof v === "number" && v > limit)
      out.push(openaiError("openai.max_output_tokens", 400, `${field} is too large: ${v}. This model supports at most ${limit} completion tokens, whereas you provided ${v}.`, field, "invalid_value"));
  }

  out.push(...openaiImageViolations(messages));
  return out;
}

function openaiImageViolations(messages: unknown[]): Rejection[] {
  const out: Rejection[] = [];
  let images = 0;
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const part of m.content) {
      if (!isObject(part) || part.type !== "image_url") continue;
      images++;
      const url = isObject(part.image_url) ? part.image_url.url : undefined;
      if (typeof url !== "string") continue;
      const data = DATA_URL.exec(url);
      if (!data) continue; // a web URL: the mock does not fetch it
      const declared = data[1]!.toLowerCase();
      const payload = url.slice(data[0].length);
      // Reported wording: github.com/STranslate/STranslate/issues/277 (invalid_image_format).
      if (!OPENAI_IMAGE_TYPES.has(declared) || !data[2]) {
        out.push(openaiError("openai.image_format", 400, "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].", null, "invalid_image_format"));
        continue;
      }
      const header = headerOfBase64(payload);
      if (!header || header.type !== declared)
        out.push(openaiError("openai.image_invalid", 400, "You uploaded an unsupported image. Please make sure your image is valid.", null, "invalid_image"));
    }
  }
  // Our wording (limit from the images-vision guide).
  if (images > OPENAI_MAX_IMAGES)
    out.unshift(openaiError("openai.too_many_images", 400, `Invalid 'messages': the request has ${images} images; at most ${OPENAI_MAX_IMAGES} are allowed per request.`, "messages", null));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages (docs.anthropic.com/en/api/messages, /en/docs/build-with-claude/vision).

function anthropicError(rule: string, message: string, status = 400, type = "invalid_request_error"): Rejection {
  return { rule, status, message, body: { type: "error", error: { type, message } } };
}

/** Top-level fields of POST /v1/messages; anything else is "Extra inputs are not permitted". */
const ANTHROPIC_FIELDS = new Set([
  "model", "messages", "max_tokens", "system", "temperature", "top_p", "top_k", "stop_sequences", "stream",
  "metadata", "tools", "tool_choice", "thinking", "service_tier", "container", "mcp_servers",
  "context_management", "output_format", "output_config",
]);

const ANTHROPIC_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** Vision guide limits: 5 MB per image (base64), 8000 px per side, 2000 px when a request has more than 20 images, 100 images; 32 MB per request (API overview, request size limits). */
export const ANTHROPIC_MAX_IMAGE_BASE64 = 5 * MB;
export const ANTHROPIC_MAX_SIDE = 8000;
export const ANTHROPIC_MANY_IMAGES = 20;
export const ANTHROPIC_MANY_IMAGES_MAX_SIDE = 2000;
export const ANTHROPIC_MAX_IMAGES = 100;
export const ANTHROPIC_MAX_REQUEST_BYTES = 32 * MB;

const THINKING_DOCS = "https://platform.claude.com/docs/en/build-with-claude/extended-thinking";

function anthropicViolations(model: string, body: Json, rawBytes: number): Rejection[] {
  const out: Rejection[] = [];
  // The gateway's 413 carries no top-level "type" (as reported: github.com/anthropics/anthropic-sdk-python/issues/938).
  if (rawBytes > ANTHROPIC_MAX_REQUEST_BYTES)
    out.push({ rule: "anthropic.request_too_large", status: 413, message: "Request exceeds the maximum size", body: { error: { type: "request_too_large", message: "Request exceeds the maximum size" } } });

  for (const key of Object.keys(body)) if (!ANTHROPIC_FIELDS.has(key)) out.push(anthropicError("anthropic.extra_field", `${key}: Extra inputs are not permitted`));

  // Reported: github.com/tickernelz/opencode-mem/issues/50.
  if (!has(body, "max_tokens")) out.push(anthropicError("anthropic.max_tokens_missing", "max_tokens: Field required"));
  const maxOut = maxOutputOf(ANTHROPIC_MAX_OUTPUT, model);
  if (maxOut !== undefined && typeof body.max_tokens === "number" && body.max_tokens > maxOut)
    out.push(anthropicError("anthropic.max_output_tokens", `max_tokens: ${body.max_tokens} > ${maxOut}, which is the maximum allowed number of output tokens for ${model}`));

  const messages = Array.isArray(body.messages) ? body.messages : [];
  if (!Array.isArray(body.messages)) out.push(anthropicError("anthropic.messages_missing", "messages: Field required"));
  else if (messages.length === 0) out.push(anthropicError("anthropic.messages_empty", "messages: at least one message is required"));
  messages.forEach((m, i) => {
    const role = isObject(m) ? m.role : undefined;
    // Reported: github.com/sgl-project/sglang/issues/367.
    if (role === "system")
      out.push(anthropicError("anthropic.system_role", 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.'));
    else if (role !== "user" && role !== "assistant") out.push(anthropicError("anthropic.role", `messages.${i}.role: Input should be 'user' or 'assistant'`));
    // Reported: github.com/anthropics/claude-code/issues/59812.
    const content = isObject(m) ? m.content : undefined;
    const blocks = Array.isArray(content) ? content : [];
    if (content === "" || blocks.some((b) => isObject(b) && b.type === "text" && b.text === ""))
      out.push(anthropicError("anthropic.empty_text", "messages: text content blocks must be non-empty"));
  });

  // Reported: github.com/fwdai/reticle/issues/7 (Sonnet 4.5).
  if (has(body, "temperature") && has(body, "top_p") && anthropicRefusesTemperatureWithTopP(model))
    out.push(anthropicError("anthropic.temperature_and_top_p", "`temperature` and `top_p` cannot both be specified for this model. Please use only one."));

  // Extended thinking (guide, "important considerations"): temperature only 1, budget >= 1024 and below max_tokens.
  const thinking = isObject(body.thinking) ? body.thinking : undefined;
  if (thinking && (thinking.type === "enabled" || thinking.type === "adaptive")) {
    if (has(body, "temperature") && body.temperature !== 1)
      out.push(anthropicError("anthropic.thinking_temperature", `\`temperature\` may only be set to 1 when thinking is enabled or in adaptive mode. Please consult our documentation at ${THINKING_DOCS}`));
    const budget = thinking.budget_tokens;
    if (thinking.type === "enabled" && typeof budget === "number") {
      if (budget < 1024) out.push(anthropicError("anthropic.thinking_budget_min", "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"));
      else if (typeof body.max_tokens === "number" && body.max_tokens <= budget)
        out.push(anthropicError("anthropic.thinking_budget_max", `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`));
    }
  }

  out.push(...anthropicImageViolations(messages));
  return out;
}

interface AnthropicImage {
  path: string;
  source: Json;
}

function anthropicImages(messages: unknown[]): AnthropicImage[] {
  const images: AnthropicImage[] = [];
  messages.forEach((m, i) => {
    if (!isObject(m) || !Array.isArray(m.content)) return;
    m.content.forEach((b, j) => {
      if (isObject(b) && b.type === "image" && isObject(b.source)) images.push({ path: `messages.${i}.content.${j}.image.source`, source: b.source });
    });
  });
  return images;
}

function anthropicImageViolations(messages: unknown[]): Rejection[] {
  const images = anthropicImages(messages);
  const out: Rejection[] = [];
  // Reported: github.com/anthropics/claude-code/issues/19822.
  if (images.length > ANTHROPIC_MAX_IMAGES)
    out.push(anthropicError("anthropic.too_many_images", `Too much media: 0 document pages + ${images.length} images > ${ANTHROPIC_MAX_IMAGES}`));
  const maxSide = images.length > ANTHROPIC_MANY_IMAGES ? ANTHROPIC_MANY_IMAGES_MAX_SIDE : ANTHROPIC_MAX_SIDE;
  for (const { path, source } of images) {
    if (source.type !== "base64") continue;
    const declared = source.media_type;
    const data = typeof source.data === "string" ? source.data : "";
    // Reported: github.com/anthropics/claude-code/issues/8184.
    if (typeof declared !== "string" || !ANTHROPIC_IMAGE_TYPES.includes(declared)) {
      out.push(anthropicError("anthropic.image_media_type", `${path}.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`));
      continue;
    }
    // The limit counts base64 characters. Reported: github.com/anthropics/claude-code/issues/10612.
    if (data.length > ANTHROPIC_MAX_IMAGE_BASE64) {
      out.push(anthropicError("anthropic.image_too_large", `${path}.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${ANTHROPIC_MAX_IMAGE_BASE64} bytes`));
      continue;
    }
    const actual = typeOfBase64(data);
    // Reported (2026 wording): github.com/BerriAI/litellm/issues/24900; earlier replies said
    // "...base64.data: Image does not match the provided media type image/png".
    if (actual && actual !== declared) {
      out.push(anthropicError("anthropic.image_media_mismatch", `${path}.base64: The image was specified using the ${declared} media type, but the image appears to be a ${actual} image`));
      continue;
    }
    const header = headerOfBase64(data);
    // Reported: github.com/anthropics/claude-code/issues/1747.
    if (!header) {
      out.push(anthropicError("anthropic.image_unreadable", "Could not process image"));
      continue;
    }
    // Reported: github.com/anthropics/claude-code/issues/4778 and /14412.
    if (Math.max(header.width, header.height) > maxSide)
      out.push(
        maxSide === ANTHROPIC_MAX_SIDE
          ? anthropicError("anthropic.image_dimensions", `${path}.base64.data: At least one of the image dimensions exceed max allowed size: ${ANTHROPIC_MAX_SIDE} pixels`)
          : anthropicError("anthropic.image_dimensions_many", `${path}.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: ${ANTHROPIC_MANY_IMAGES_MAX_SIDE} pixels`),
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Gemini generateContent (ai.google.dev/api/generate-content).

function geminiError(rule: string, message: string, code = 400, status = "INVALID_ARGUMENT"): Rejection {
  return { rule, status: code, message, body: { error: { code, message, status } } };
}

/** GenerateContentRequest fields, in the JSON (camelCase) and proto (snake_case) spellings the API accepts. */
const GEMINI_FIELDS = new Set([
  "contents", "systemInstruction", "system_instruction", "generationConfig", "generation_config",
  "safetySettings", "safety_settings", "tools", "toolConfig", "tool_config", "cachedContent", "cached_content",
]);

/** GenerationConfig fields (ai.google.dev/api/generate-content#generationconfig), camelCase or snake_case. */
const GEMINI_GENERATION_FIELDS = new Set(
  [
    "stopSequences", "responseMimeType", "responseSchema", "responseJsonSchema", "responseModalities", "candidateCount",
    "maxOutputTokens", "temperature", "topP", "topK", "seed", "presencePenalty", "frequencyPenalty", "responseLogprobs",
    "logprobs", "enableEnhancedCivicAnswers", "speechConfig", "thinkingConfig", "imageConfig", "mediaResolution",
  ].flatMap((k) => [k, k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
);

/** Image types of the image-understanding guide (PNG, JPEG, WebP, HEIC, HEIF) plus GIF, which inline data takes. */
const GEMINI_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif", "image/gif"]);

/** Inline data: "the total request size must be under 20 MB" (image-understanding guide). */
export const GEMINI_MAX_REQUEST_BYTES = 20 * MB;

function geminiViolations(model: string, body: Json, rawBytes: number): Rejection[] {
  const out: Rejection[] = [];
  // Wording as the API returns it for its other limits, e.g. github.com/MaKTaiL/gemini-srt-translator/issues/63.
  if (rawBytes > GEMINI_MAX_REQUEST_BYTES) out.push(geminiError("gemini.request_too_large", `Request payload size exceeds the limit: ${GEMINI_MAX_REQUEST_BYTES} bytes.`));

  for (const key of Object.keys(body))
    if (!GEMINI_FIELDS.has(key)) out.push(geminiError("gemini.unknown_field", `Invalid JSON payload received. Unknown name "${key}": Cannot find field.`));
  const config = isObject(body.generationConfig) ? body.generationConfig : isObject(body.generation_config) ? body.generation_config : undefined;
  for (const key of Object.keys(config ?? {}))
    if (!GEMINI_GENERATION_FIELDS.has(key)) out.push(geminiError("gemini.unknown_field", `Invalid JSON payload received. Unknown name "${key}" at 'generation_config': Cannot find field.`));

  const thinking = config && (isObject(config.thinkingConfig) ? config.thinkingConfig : isObject(config.thinking_config) ? config.thinking_config : undefined);
  const budget = thinking?.thinkingBudget ?? thinking?.thinking_budget;
  // Reported: github.com/vercel/ai/issues/8027.
  if (budget === 0 && geminiAlwaysThinks(model)) out.push(geminiError("gemini.thinking_budget_zero", "Budget 0 is invalid. This model only works in thinking mode."));

  const contents = Array.isArray(body.contents) ? body.contents : [];
  if (contents.length === 0) out.push(geminiError("gemini.contents_missing", "* GenerateContentRequest.contents: contents is not specified\n"));
  for (const c of contents) {
    // Reported: github.com/langgenius/dify-official-plugins/issues/566.
    if (isObject(c) && c.role !== undefined && c.role !== "user" && c.role !== "model") out.push(geminiError("gemini.role", "Please use a valid role: user, model."));
    for (const part of isObject(c) && Array.isArray(c.parts) ? c.parts : []) {
      const inline = isObject(part) ? (isObject(part.inlineData) ? part.inlineData : isObject(part.inline_data) ? part.inline_data : undefined) : undefined;
      if (!inline) continue;
      const mime = String(inline.mimeType ?? inline.mime_type ?? "");
      // Reported: github.com/ogkalu2/comic-translate/pull/399.
      if (!GEMINI_IMAGE_TYPES.has(mime)) {
        if (mime.startsWith("image/")) out.push(geminiError("gemini.image_mime", `Unsupported MIME type: ${mime}`));
        continue;
      }
      if (mime === "image/heic" || mime === "image/heif") continue; // no header reader for these
      const header = headerOfBase64(typeof inline.data === "string" ? inline.data : "");
      // Reported: github.com/google-gemini/gemini-cli/issues/5064.
      if (!header || header.type !== mime)
        out.push(geminiError("gemini.image_invalid", "Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

/** Every rule a request breaks, in the order the checks run (size, fields, shape, sampling, images). */
export function findViolations(provider: StrictProvider, model: string, body: unknown, rawBytes: number): Rejection[] {
  if (!isObject(body)) {
    const message = "request body must be a JSON object";
    if (provider === "anthropic") return [anthropicError("anthropic.body", message)];
    if (provider === "gemini") return [geminiError("gemini.body", message)];
    return [openaiError("openai.body", 400, message, null, null)];
  }
  if (provider === "openai") return openaiViolations(model, body, rawBytes);
  if (provider === "anthropic") return anthropicViolations(model, body, rawBytes);
  return geminiViolations(model, body, rawBytes);
}

/** The rejection the real API would answer with (the first rule broken), or undefined when it would accept the request. */
export function checkRequest(provider: StrictProvider, model: string, body: unknown, rawBytes: number): Rejection | undefined {
  return findViolations(provider, model, body, rawBytes)[0];
}
