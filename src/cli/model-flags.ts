import { InvalidArgumentError, type Command } from "commander";
import { REASONING_EFFORTS, type ModelSettingsConfig } from "../core/config.js";
import { MAX_ATTEMPTS, MAX_COST_USD, MAX_FRAMES_PER_SPEC, MAX_IMAGE_PIXELS, MAX_OUTPUT_TOKENS, MAX_REPLY_BYTES, MAX_RPM, MAX_TIMEOUT_MS, MAX_WAIT_SECONDS } from "../core/limits.js";
import { numberIn, wholeIn } from "./main.js";

/** A number of seconds above zero (fractions allowed), at most a day. */
export const positiveSeconds = numberIn(0, MAX_WAIT_SECONDS, { above: true, unit: "seconds" });

/** An amount of US dollars above zero. */
export const positiveUsd = numberIn(0, MAX_COST_USD, { above: true, unit: "US dollars" });

function reasoningEffort(text: string): (typeof REASONING_EFFORTS)[number] {
  if (!(REASONING_EFFORTS as readonly string[]).includes(text)) throw new InvalidArgumentError(`must be one of ${REASONING_EFFORTS.join(", ")}`);
  return text as (typeof REASONING_EFFORTS)[number];
}

function imageFormat(text: string): "png" | "jpeg" {
  if (text !== "png" && text !== "jpeg") throw new InvalidArgumentError("must be png or jpeg");
  return text;
}

const jpegQuality = wholeIn(1, 100);

/** --base-url values: each may hold several URLs separated by commas; repeats add to the list. */
export function baseUrls(text: string, previous: string[] | undefined): string[] {
  const urls = text.split(",").map((u) => u.trim()).filter(Boolean);
  if (urls.length === 0) throw new InvalidArgumentError("must name at least one URL");
  return [...(previous ?? []), ...urls];
}

/** The model-settings flags of every command that asks a model (`run`, `navigate`). */
export function addModelFlags(command: Command): Command {
  return command
    .option("--config <file>", "YAML config with model settings (flags win)")
    .option("--base-url <url>", "API base URL (vLLM, SGLang, Ollama, LM Studio, OpenRouter, or a proxy); several, comma-separated or the flag repeated, spread requests over them (least outstanding; a failing one is taken out for a while)", baseUrls)
    .option("--no-adaptive-concurrency", "keep --concurrency requests in flight even after 429s (default: halve on a 429 or low rate-limit headers, add one back after 10 successes in a row)")
    .option("--temperature <t>", "sampling temperature (default 0)", numberIn(0, 2))
    .option("--top-p <p>", "nucleus sampling (default 1)", numberIn(0, 1, { above: true }))
    .option("--max-tokens <n>", "output token limit (default 8192)", wholeIn(1, MAX_OUTPUT_TOKENS))
    .option("--reasoning-effort <level>", "OpenAI reasoning models (o-series, gpt-5): none | minimal | low | medium | high | xhigh (default: the model's own)", reasoningEffort)
    .option("--thinking-budget <tokens>", "Anthropic extended thinking / Gemini 2.5 thinking budget in tokens (0 = off where the model allows it, -1 = Gemini's dynamic budget)", wholeIn(-1, MAX_OUTPUT_TOKENS))
    .option("--timeout-ms <n>", "per-request timeout (default 120000)", wholeIn(1, MAX_TIMEOUT_MS))
    .option("--max-attempts <n>", "attempts per request including retries (default 6)", wholeIn(1, MAX_ATTEMPTS))
    .option("--max-retry-wait <seconds>", "longest server-asked wait (Retry-After) honoured, in full (default 120); a longer one ends the request as an error", positiveSeconds)
    .option("--max-reply-bytes <n>", "cap on a reply's text (default 4194304 = 4 MiB): longer replies are cut to it and marked truncated in items.jsonl; a body over 4x the cap + 1 MiB fails", wholeIn(1, MAX_REPLY_BYTES))
    .option("--rpm <n>", "requests-per-minute limit for the provider", numberIn(0, MAX_RPM, { above: true }))
    .option("--max-images <n>", "most images per request (default: the provider's limit; video frames are thinned evenly to fit)", wholeIn(1, MAX_FRAMES_PER_SPEC))
    .option("--max-pixels <n>", "largest area (width x height) of each image sent, pictures and video frames alike; overrides the benchmark's default (EPIC pictures keep their size: answers are pixel coordinates)", wholeIn(1, MAX_IMAGE_PIXELS))
    .option("--image-format <format>", "encoding of images sent: png | jpeg (default: the benchmark's, e.g. JPEG for video frames)", imageFormat)
    .option("--jpeg-quality <q>", "JPEG quality 1-100 when images go as JPEG (default 85)", jpegQuality)
    .option("--json-output", "ask for JSON output mode on every item (default: only on tasks whose output contract is a JSON object)")
    .option("--no-json-output", "never ask for JSON output mode");
}

/** The settings the model flags set (unset flags left out by settingsFor). */
export function modelSettingsFlags(opts: Record<string, any>): ModelSettingsConfig {
  return {
    base_url: opts.baseUrl === undefined ? undefined : opts.baseUrl.length === 1 ? opts.baseUrl[0] : opts.baseUrl,
    // Only the --no- form is a flag: left unset otherwise, so the config decides.
    ...(opts.adaptiveConcurrency === false ? { adaptive_concurrency: false } : {}),
    temperature: opts.temperature,
    top_p: opts.topP,
    max_tokens: opts.maxTokens,
    reasoning_effort: opts.reasoningEffort,
    thinking_budget: opts.thinkingBudget,
    timeout_ms: opts.timeoutMs,
    max_attempts: opts.maxAttempts,
    max_retry_wait: opts.maxRetryWait,
    max_reply_bytes: opts.maxReplyBytes,
    rpm: opts.rpm,
    max_images: opts.maxImages,
    max_pixels: opts.maxPixels,
    image_format: opts.imageFormat,
    jpeg_quality: opts.jpegQuality,
    ...(opts.jsonOutput !== undefined ? { json_output: Boolean(opts.jsonOutput) } : {}),
  };
}
