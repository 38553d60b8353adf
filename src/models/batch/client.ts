/**
 * A provider model's batch client: the same base URL, key, headers, body builder, reply parser,
 * retry policy and reply cap as the normal adapter (models/provider.ts) would use for this spec and
 * these settings, with the provider's batch API (openai.ts, anthropic.ts, gemini.ts here).
 */
import { UsageError } from "../../core/problems.js";
import type { ModelRequest } from "../../core/types.js";
import type { ModelSettingsConfig } from "../../core/config.js";
import { anthropicWire } from "../anthropic.js";
import { geminiWire } from "../gemini.js";
import { DEFAULT_MAX_REPLY_BYTES } from "../http.js";
import { openaiWire } from "../openai.js";
import { configuredKeys, endpointList, parseProviderSpec, urlSecrets, type ProviderName, type WireFormat, type WireOptions } from "../provider.js";
import { RETRY_DEFAULTS, type RetryPolicy } from "../retry.js";
import type { Secrets } from "../secrets.js";
import { endpointTarget, urlCredentials } from "../url-secrets.js";
import { anthropicBatchApi } from "./anthropic.js";
import { geminiBatchApi } from "./gemini.js";
import type { BatchHttp } from "./http.js";
import { openaiBatchApi } from "./openai.js";
import type { BatchApi } from "./types.js";

const WIRES: Record<ProviderName, WireFormat> = { openai: openaiWire, anthropic: anthropicWire, gemini: geminiWire };
const APIS: Record<ProviderName, BatchApi> = { openai: openaiBatchApi, anthropic: anthropicBatchApi, gemini: geminiBatchApi };

export interface BatchClient {
  spec: string;
  provider: ProviderName;
  /** The model name sent (the spec without its provider). */
  model: string;
  api: BatchApi;
  baseUrl: string;
  http: BatchHttp;
  /** The body the normal adapter POSTs for this request (its own builder); throws as it does. */
  body(request: ModelRequest): Record<string, unknown>;
  wire: WireFormat;
  secrets: Secrets;
  maxReplyBytes: number;
}

/** The batch client for `spec` (openai:, anthropic:, gemini:); a UsageError for anything else or for several base URLs. */
export function createBatchClient(spec: string, settings: ModelSettingsConfig, env: NodeJS.ProcessEnv = process.env): BatchClient {
  const parsed = parseProviderSpec(spec);
  if (!parsed) throw new UsageError(`--batch needs an openai:, anthropic: or gemini: model, not "${spec}"`);
  const { provider, model } = parsed;
  const wire = WIRES[provider];
  const urls = endpointList(settings.base_url, env[wire.baseUrlEnv], wire.defaultBaseUrl);
  // A batch lives on the server that accepted it: polling another endpoint of a list would not find it.
  if (urls.length > 1) throw new UsageError(`--batch sends a batch to one server and polls it there; ${spec} has ${urls.length} base URLs: give one`);
  if (!URL.canParse(urls[0]!)) throw new UsageError(`invalid base URL for ${provider}: "${urlCredentials(urls[0]!).shown}"`);
  // As for the normal adapter: user info goes as Basic authorization, the base URL's query on every call (http.ts).
  const target = endpointTarget(urls[0]!);
  const apiKey = env[wire.keyEnv]?.trim() || undefined;
  if (!apiKey && wire.keyRequired(target.base)) throw new UsageError(`${wire.keyEnv} is not set: export it to use ${spec}`);
  const wireOptions: WireOptions = settings.max_tokens_field ? { maxTokensField: settings.max_tokens_field } : {};
  const policy: RetryPolicy = {
    maxAttempts: settings.max_attempts ?? RETRY_DEFAULTS.maxAttempts,
    ...(settings.backoff_base_ms !== undefined && { baseMs: settings.backoff_base_ms }),
    ...(settings.backoff_cap_ms !== undefined && { capMs: settings.backoff_cap_ms }),
    ...(settings.max_retry_wait !== undefined && { maxDelayMs: Math.round(settings.max_retry_wait * 1000) }),
  };
  const secrets = [...new Set([...configuredKeys(env), ...urlSecrets(urls)])];
  const headers = target.authorization ? { ...wire.headers(apiKey), authorization: target.authorization } : wire.headers(apiKey);
  return {
    spec,
    provider,
    model,
    api: APIS[provider],
    baseUrl: target.base,
    http: { headers, ...(target.query && { query: target.query }), secrets, timeoutMs: settings.timeout_ms ?? 120_000, policy },
    body: (request) => wire.body(model, request, wireOptions),
    wire,
    secrets,
    maxReplyBytes: settings.max_reply_bytes ?? DEFAULT_MAX_REPLY_BYTES,
  };
}
