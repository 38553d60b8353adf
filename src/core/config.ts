import { readFileSync } from "node:fs";
import YAML from "yaml";
import { z } from "zod";
import { MAX_ATTEMPTS, MAX_CONCURRENCY, MAX_COST_USD, MAX_FRAMES_PER_SPEC, MAX_IMAGE_PIXELS, MAX_OUTPUT_TOKENS, MAX_REPLY_BYTES, MAX_RPM, MAX_TIMEOUT_MS, MAX_WAIT_SECONDS, wholeNumber } from "./limits.js";
import { UsageError } from "./problems.js";

/**
 * Optional YAML config (`--config file.yaml`). Command-line flags win over it. `models` holds
 * per-model overrides keyed by the model spec. API keys are never read from here: only from the
 * environment.
 */
/** OpenAI's `reasoning_effort` levels (https://platform.openai.com/docs/api-reference/chat/create). */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

const ModelSettings = z
  .object({
    /** One base URL, or several serving the same model (requests spread over them, models/endpoints.ts). */
    base_url: z.union([z.string().url(), z.array(z.string().url()).min(1)]).optional(),
    /** Adaptive concurrency below --concurrency (models/concurrency.ts; default true). */
    adaptive_concurrency: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    max_tokens: wholeNumber(1, MAX_OUTPUT_TOKENS).optional(),
    /** JSON output mode for every item (true) or none (false); unset = per task, where the output contract is JSON. */
    json_output: z.boolean().optional(),
    /** USD per million tokens, from the provider's price page: gives usage.cost in scores.json and makes --max-cost possible. */
    price: z.object({ input_per_mtok: z.number().min(0).max(MAX_COST_USD), output_per_mtok: z.number().min(0).max(MAX_COST_USD) }).strict().optional(),
    /** Stop before a run whose projected cost in USD exceeds this (`--max-cost`; needs `price`). */
    max_cost: z.number().positive().max(MAX_COST_USD).optional(),
    extra_body: z.record(z.string(), z.unknown()).optional(),
    timeout_ms: wholeNumber(1, MAX_TIMEOUT_MS).optional(),
    max_attempts: wholeNumber(1, MAX_ATTEMPTS).optional(),
    rpm: z.number().positive().max(MAX_RPM).optional(),
    backoff_base_ms: wholeNumber(0, MAX_TIMEOUT_MS).optional(),
    backoff_cap_ms: wholeNumber(0, MAX_TIMEOUT_MS).optional(),
    max_tokens_field: z.enum(["max_completion_tokens", "max_tokens"]).optional(),
    /** Overrides of the model capability table by model name (models/capabilities.ts). */
    capabilities: z
      .object({
        reasoning: z.boolean().optional(),
        temperature: z.boolean().optional(),
        top_p: z.boolean().optional(),
        temperature_with_top_p: z.boolean().optional(),
        thinking: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** OpenAI reasoning models: `reasoning_effort`. */
    reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
    /** Thinking tokens: Anthropic `budget_tokens` (0 off, else >= 1024), Gemini `thinkingBudget` (-1 dynamic, 0 off). */
    thinking_budget: wholeNumber(-1, MAX_OUTPUT_TOKENS).optional(),
    /** Gemini: return thought summaries, stored beside the reply. */
    include_thoughts: z.boolean().optional(),
    /** Cap on a reply's text in bytes (default 4 MiB): longer replies are cut to it and marked truncated. */
    max_reply_bytes: wholeNumber(1, MAX_REPLY_BYTES).optional(),
    /** Longest server-asked wait (Retry-After) honoured, in seconds (default 120); a longer one ends the request as an error. */
    max_retry_wait: z.number().positive().max(MAX_WAIT_SECONDS).optional(),
    /** Most images per request this provider accepts (video frames are thinned evenly to fit). */
    max_images: wholeNumber(1, MAX_FRAMES_PER_SPEC).optional(),
    /** Largest image area in pixels (width x height) sent, for pictures and video frames alike (overrides the benchmark's default). */
    max_pixels: wholeNumber(1, MAX_IMAGE_PIXELS).optional(),
    /** Encoding of sent images (png | jpeg; overrides the benchmark's default, which may keep the file's own). */
    image_format: z.enum(["png", "jpeg"]).optional(),
    /** JPEG quality 1-100 when images are sent as JPEG (default 85). */
    jpeg_quality: z.number().int().min(1).max(100).optional(),
    /** Send the run's requests through the provider's batch API (`--batch`; models/batch/): half the price, results within 24 h. */
    batch: z.boolean().optional(),
    /** Seconds between polls of open batches (`--batch-poll`, default 30). */
    batch_poll: z.number().positive().max(MAX_WAIT_SECONDS).optional(),
    /** EPIC-Bench: the coordinate system this model answers in (auto | absolute | 0-1 | 0-1000). */
    coords: z.enum(["auto", "absolute", "0-1", "0-1000", "normalized_0_1", "normalized_0_1000"]).optional(),
  })
  .strict();

const ConfigFile = ModelSettings.extend({
  concurrency: wholeNumber(1, MAX_CONCURRENCY).optional(),
  /** The run's label in reports (a run key like concurrency, not a model setting); --name wins. */
  name: z.string().trim().min(1).max(200).optional(),
  models: z.record(z.string(), ModelSettings).optional(),
}).strict();

export type ModelSettingsConfig = z.infer<typeof ModelSettings>;
export type ConfigFileContent = z.infer<typeof ConfigFile>;

export function readConfigFile(file: string): ConfigFileContent {
  let data: unknown;
  try {
    data = YAML.parse(readFileSync(file, "utf8")) ?? {};
  } catch (error) {
    throw new UsageError(`cannot read config ${file}: ${(error as Error).message}`);
  }
  for (const key of ["api_key", "apiKey", "key"]) {
    if (data && typeof data === "object" && key in data) {
      throw new UsageError(`config ${file}: API keys belong in environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY), not in files`);
    }
  }
  const parsed = ConfigFile.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new UsageError(`config ${file}: ${issues}`);
  }
  return parsed.data;
}

/** The settings for one model: config top level, then the model's own entry, then flags. */
export function settingsFor(spec: string, config: ConfigFileContent | undefined, flags: ModelSettingsConfig): ModelSettingsConfig {
  const { models, concurrency: _c, name: _n, ...top } = config ?? {};
  const defined = (o: ModelSettingsConfig) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return { ...defined(top), ...defined(models?.[spec] ?? {}), ...defined(flags) };
}
