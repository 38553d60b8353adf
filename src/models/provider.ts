/**
 * Model specs "openai:<model>", "anthropic:<model>", "gemini:<model>" turned into Models that
 * retry, rate limit and time out on their own, and report failures as data, never as throws.
 */
import type { GenerationSettings, Model, ModelRequest, ModelResponse, Usage } from "../core/types.js";
import { anthropicWire } from "./anthropic.js";
import { ProviderError, classifyError, scrub } from "./errors.js";
import type { Secrets } from "./secrets.js";
import { geminiWire } from "./gemini.js";
import { bodyJson, DEFAULT_MAX_REPLY_BYTES, mergeBody, postJson, truncateUtf8 } from "./http.js";
import { PROVIDER_LIMITS } from "./limits.js";
import { openaiWire } from "./openai.js";
import { AdaptiveConcurrency, rateLimitHeadroom, sharedConcurrency, type Slot, type SlotOutcome } from "./concurrency.js";
import { EndpointPool, isEndpointFailure, type Endpoint } from "./endpoints.js";
import { RateLimiter, systemClock, type Clock } from "./ratelimit.js";
import { RETRY_DEFAULTS, formatSeconds, withRetries, type RetryPolicy, type SleepFn } from "./retry.js";
import { registerTraffic } from "./traffic.js";
import { endpointTarget, urlCredentials, withQuery } from "./url-secrets.js";

export const PROVIDERS = ["openai", "anthropic", "gemini"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Per-format knobs that are not generation settings. */
export interface WireOptions {
  /** OpenAI only: the field carrying settings.maxTokens (some servers want "max_tokens"). */
  maxTokensField?: "max_completion_tokens" | "max_tokens";
}

export interface WireReply {
  text: string;
  usage?: Usage;
  /** Reasoning text returned beside the answer (reasoning_content, thinking blocks, thought parts). */
  reasoning?: string;
  /** The token limit cut the reply (it still has text; without text parse throws instead). */
  tokenLimited?: boolean;
}

/** What a reply is read against: the request's token limit, for the token-limit message. */
export interface ParseContext {
  maxTokens?: number;
}

/** Everything that differs between the three HTTP APIs. */
export interface WireFormat {
  readonly provider: ProviderName;
  readonly defaultBaseUrl: string;
  readonly baseUrlEnv: string;
  readonly keyEnv: string;
  /** Whether requests to this base URL need a key (checked before any request). */
  keyRequired(baseUrl: string): boolean;
  url(baseUrl: string, model: string): string;
  headers(apiKey: string | undefined): Record<string, string>;
  /** Throws ProviderError("other") for requests the API cannot express. */
  body(model: string, request: ModelRequest, options: WireOptions): Record<string, unknown>;
  /** The body as JSON text, when the format builds it faster than JSON.stringify(body(...)); the same text. */
  bodyText?(model: string, request: ModelRequest, options: WireOptions): string;
  /**
   * The body's generation fields after the model's quirks (capabilities.ts), before extraBody
   * and without JSON mode (chosen per item). Throws like `body`.
   */
  settings(model: string, settings: GenerationSettings, options: WireOptions): Record<string, unknown>;
  /** Throws ProviderError ("malformed" / "refused") when the reply carries no usable text. */
  parse(json: unknown, context?: ParseContext): WireReply;
}

const WIRES: Record<ProviderName, WireFormat> = { openai: openaiWire, anthropic: anthropicWire, gemini: geminiWire };

export interface ProviderOptions extends WireOptions {
  /**
   * Overrides the provider's base URL env var and default. Several (a list, or one string with
   * commas) spread requests over them (endpoints.ts); the env var may hold a comma list too.
   */
  baseUrl?: string | readonly string[];
  /** Endpoint lists: first cool-down of a failed endpoint (default 2 000 ms) and its cap (60 000 ms). */
  endpointCoolDownBaseMs?: number;
  endpointCoolDownCapMs?: number;
  /** Adaptive concurrency (concurrency.ts; default on). */
  adaptiveConcurrency?: boolean;
  /** A limiter shared with other models (wins over adaptiveConcurrency and shareConcurrency). */
  concurrency?: AdaptiveConcurrency;
  /**
   * Use the process's limiter for this provider, key, endpoint list and model (sharedConcurrency),
   * so that models made again for the same (a run's repeats) keep what it learned. The CLI sets it.
   */
  shareConcurrency?: boolean;
  /** Successes in a row before the limiter adds a slot (default 10). */
  raiseAfter?: number;
  /** Time for cool-downs, the limiter and waits for an endpoint (tests). */
  clock?: Clock;
  /** Per-request timeout covering connect and body read (default 120 000 ms). */
  timeoutMs?: number;
  /** Attempts per request including the first (default 6). */
  maxAttempts?: number;
  /** Backoff base (default 1000 ms) and ceiling (default 60 000 ms). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /**
   * Ceiling on any wait between attempts (default 120 000 ms). A server's Retry-After over it
   * ends the request as an error saying so; raise it to wait such hints in full.
   */
  maxRetryDelayMs?: number;
  /**
   * Cap on a reply's text in bytes of UTF-8 (default 4 MiB): a longer text is cut to it and marked
   * `truncated`; a body over 4 × the cap + 1 MiB is not read further and fails (not retried).
   */
  maxReplyBytes?: number;
  /** Requests per minute for this model (every attempt counts); unset = unlimited. */
  rpm?: number;
  /** A limiter shared with other models (wins over rpm). */
  limiter?: RateLimiter;
  /** Where keys and base URLs are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Called before each backoff wait (progress/logging). Messages are key-free. */
  onRetry?: RetryPolicy["onRetry"];
  /** Test hooks for the backoff. */
  sleep?: SleepFn;
  random?: () => number;
}

/** Split "provider:model" on the first ':' only; undefined when the provider is not one of ours. */
export function parseProviderSpec(spec: string): { provider: ProviderName; model: string } | undefined {
  const i = spec.indexOf(":");
  if (i < 0) return undefined;
  const provider = spec.slice(0, i) as ProviderName;
  if (!PROVIDERS.includes(provider)) return undefined;
  return { provider, model: spec.slice(i + 1) };
}

/** The environment variable a provider's base URL is read from (OPENAI_BASE_URL, ...). */
export function baseUrlEnv(provider: ProviderName): string {
  return WIRES[provider].baseUrlEnv;
}

/** The environment variable holding the provider's key ("OPENAI_API_KEY"), undefined for a name that is no provider. */
export function keyEnvOf(provider: string): string | undefined {
  return (PROVIDERS as readonly string[]).includes(provider) ? WIRES[provider as ProviderName].keyEnv : undefined;
}

export function isProviderSpec(spec: string): boolean {
  return parseProviderSpec(spec) !== undefined;
}

/**
 * Every API key set in `env` for any of the providers, and every credential written into their
 * base-URL variables (url-secrets.ts): all are scrubbed from whatever any model receives (a proxy
 * or a misconfigured base URL may echo another provider's key).
 */
export function configuredKeys(env: NodeJS.ProcessEnv): string[] {
  const inUrls = PROVIDERS.flatMap((p) => urlSecrets(endpointList(undefined, env[WIRES[p].baseUrlEnv], "")));
  return [...new Set([...apiKeys(env), ...inUrls])];
}

/** The API keys set in `env` for any of the providers. */
function apiKeys(env: NodeJS.ProcessEnv): string[] {
  return PROVIDERS.map((p) => env[WIRES[p].keyEnv]?.trim()).filter((k): k is string => Boolean(k));
}

/** The credentials written into base URLs (user info, key parameters), and the Basic header each user info becomes. */
export function urlSecrets(baseUrls: readonly string[]): string[] {
  return baseUrls.flatMap((url) => {
    const basic = URL.canParse(url) ? endpointTarget(url).authorization?.slice("Basic ".length) : undefined;
    return [...urlCredentials(url).secrets, ...(basic ? [basic] : [])];
  });
}

/**
 * Build a Model for `spec`. Throws (before any request) for an unknown provider, an empty
 * model name, a bad base URL, or a missing required API key.
 */
export function createProviderModel(spec: string, options: ProviderOptions = {}): Model {
  const parsed = parseProviderSpec(spec);
  if (!parsed) throw new Error(`unknown model spec "${spec}": expected openai:<model>, anthropic:<model> or gemini:<model>`);
  const { provider, model } = parsed;
  if (!model.trim()) throw new Error(`model spec "${spec}" names no model`);
  const wire = WIRES[provider];
  const env = options.env ?? process.env;

  const baseUrls = endpointList(options.baseUrl, env[wire.baseUrlEnv], wire.defaultBaseUrl);
  const apiKey = env[wire.keyEnv]?.trim() || undefined;
  const secrets = [...new Set([...configuredKeys(env), ...urlSecrets(baseUrls)])];
  // Endpoints are printed and stored: their user info and key parameters are not, nor a key pasted elsewhere in them.
  const shown = baseUrls.map((endpoint) => scrub(urlCredentials(endpoint).shown, secrets));
  const targets = baseUrls.map((endpoint, i) => {
    if (!URL.canParse(endpoint)) throw new Error(`invalid base URL for ${provider}: "${shown[i]}"`);
    const target = endpointTarget(endpoint);
    if (!apiKey && wire.keyRequired(target.base))
      throw new Error(`${wire.keyEnv} is not set: export it to use ${spec} (${shown[i]})`);
    return target;
  });

  const clock = options.clock ?? systemClock;
  const pool = new EndpointPool(
    targets.map((target, i) => ({ url: withQuery(wire.url(target.base, model), target.query), shown: shown[i]! })),
    {
      clock,
      ...(options.endpointCoolDownBaseMs !== undefined && { coolDownBaseMs: options.endpointCoolDownBaseMs }),
      ...(options.endpointCoolDownCapMs !== undefined && { coolDownCapMs: options.endpointCoolDownCapMs }),
    },
  );
  const several = pool.size > 1;
  const adaptive = { clock, ...(options.raiseAfter !== undefined && { raiseAfter: options.raiseAfter }) };
  const concurrency =
    options.concurrency ??
    (options.adaptiveConcurrency === false
      ? undefined
      : options.shareConcurrency
        ? sharedConcurrency({ provider, ...(apiKey && { apiKey }), endpoints: baseUrls, model }, adaptive)
        : new AdaptiveConcurrency(adaptive));
  // User info in a base URL goes as Basic authorization (fetch refuses URLs with credentials), in place of the key's.
  const headers = targets.map((target) => (target.authorization ? { ...wire.headers(apiKey), authorization: target.authorization } : wire.headers(apiKey)));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  if (!(Number.isInteger(maxReplyBytes) && maxReplyBytes > 0)) throw new Error(`the reply cap must be a positive whole number of bytes, got ${maxReplyBytes}`);
  const limiter = options.limiter ?? (options.rpm ? new RateLimiter(options.rpm) : undefined);
  const policy: RetryPolicy = {
    maxAttempts: options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts,
    ...(options.backoffBaseMs !== undefined && { baseMs: options.backoffBaseMs }),
    ...(options.backoffCapMs !== undefined && { capMs: options.backoffCapMs }),
    ...(options.maxRetryDelayMs !== undefined && { maxDelayMs: options.maxRetryDelayMs }),
    ...(options.sleep && { sleep: options.sleep }),
    ...(options.random && { random: options.random }),
    ...(options.onRetry && { onRetry: options.onRetry }),
    // A failed endpoint of a list: the next attempt goes at once to another one in service.
    ...(several && { immediateRetry: (e: ProviderError) => isEndpointFailure(e) && pool.hasHealthy() }),
  };
  const maxWaitMs = options.maxRetryDelayMs ?? RETRY_DEFAULTS.maxDelayMs;

  /** The endpoint for an attempt, counted as sent to; when all are out, wait for the first back within the retry wait limit. */
  async function endpointFor(signal?: AbortSignal): Promise<Endpoint> {
    for (;;) {
      const choice = pool.take();
      if ("endpoint" in choice) return choice.endpoint;
      if (choice.waitMs > maxWaitMs)
        throw new ProviderError(
          "network",
          `all ${pool.size} endpoints are out after failures; the first is back in ${formatSeconds(choice.waitMs)}, over the ${formatSeconds(maxWaitMs)} limit (--max-retry-wait)`,
          { retryable: false },
        );
      await clock.sleep(choice.waitMs, signal);
    }
  }

  /** One attempt: a concurrency slot, an rpm grant, an endpoint, then the POST; what happened is fed back to all three. */
  async function attempt(body: string, request: ModelRequest, sig?: AbortSignal): Promise<WireReply> {
    const slot: Slot | undefined = await concurrency?.acquire(sig);
    let outcome: SlotOutcome = { status: "failed" };
    try {
      await limiter?.acquire(sig);
      const endpoint = await endpointFor(sig);
      let reply: Awaited<ReturnType<typeof postJson>>;
      try {
        reply = await postJson(endpoint.url, headers[endpoint.index]!, body, { timeoutMs, secrets, maxReplyBytes, ...(sig && { signal: sig }) });
      } catch (err) {
        if (sig?.aborted) {
          pool.end(endpoint, "aborted");
          throw err;
        }
        const e = classifyError(err, secrets);
        pool.end(endpoint, isEndpointFailure(e) ? "endpoint-failure" : "answered");
        outcome = { status: e.status === 429 || e.retryAfterMs !== undefined ? "rate-limited" : "failed" };
        throw several ? onEndpoint(endpoint, e) : e;
      }
      pool.end(endpoint, "ok");
      // The server answered: a reply it cannot be read from is no sign of a rate limit.
      outcome = { status: "ok" };
      const parsed = wire.parse(reply.json, { maxTokens: request.settings.maxTokens });
      const headroom = rateLimitHeadroom(reply.headers, parsed.usage);
      outcome = { status: "ok", ...(headroom !== undefined && { headroom }) };
      return parsed;
    } finally {
      slot?.release(outcome);
    }
  }

  async function generate(request: ModelRequest, signal: AbortSignal): Promise<ModelResponse> {
    const started = performance.now();
    if (signal?.aborted) throw signal.reason;
    const failed = (err: unknown, attempts: number): ModelResponse => {
      const e = classifyError(err, secrets);
      return { outcome: "error", text: "", latencyMs: performance.now() - started, attempts, error: e.toResponseError() };
    };

    let body: string;
    try {
      // The same text as JSON.stringify(body), without rescanning megabytes of base64 (http.ts bodyJson, openai.ts openaiBodyText).
      body = wire.bodyText ? wire.bodyText(model, request, options) : bodyJson(wire.body(model, request, options));
    } catch (err) {
      return failed(err instanceof ProviderError ? err : new ProviderError("other", `cannot build request: ${String(err)}`, { retryable: false }), 0);
    }

    const result = await withRetries(
      async (_attempt, sig) => {
        try {
          return await attempt(body, request, sig);
        } catch (err) {
          if (sig?.aborted) throw err;
          throw classifyError(err, secrets); // scrubbed before onRetry or the caller sees it
        }
      },
      policy,
      signal,
    );
    if (!result.ok) return failed(result.error, result.attempts);
    return answeredReply(result.value, secrets, maxReplyBytes, performance.now() - started, result.attempts);
  }

  const created: Model = {
    spec,
    // The store key leaves the endpoint out (core/run.ts requestKey); scores.json shows it.
    identity: { provider, endpoint: shown.join(","), model },
    local: false,
    limits: PROVIDER_LIMITS[provider],
    generate,
    sentSettings: (settings) => sentSettings(wire, model, settings, options),
  };
  // Store keys of old stores hashed each endpoint as it was shown then: keys scrubbed, URL credentials not (core/run.ts endpointRequestKeys).
  const keyEndpoints = baseUrls.map((endpoint) => scrub(endpoint, apiKeys(env)));
  registerTraffic(created, { endpoints: shown, keyEndpoints, pool, ...(concurrency && { concurrency }) });
  return created;
}

/**
 * The base URLs: the option (a list, or a string of comma-separated URLs), else the env var (same
 * form), else the provider's default; trimmed, trailing slashes dropped, repeats dropped.
 */
export function endpointList(option: string | readonly string[] | undefined, envValue: string | undefined, fallback: string): string[] {
  const given = typeof option === "string" ? [option] : (option ?? []);
  const parts = (items: readonly string[]) => items.flatMap((u) => u.split(",")).map((u) => u.trim().replace(/\/+$/, "")).filter(Boolean);
  const fromOption = parts(given);
  const chosen = fromOption.length > 0 ? fromOption : parts([envValue ?? ""]);
  return [...new Set(chosen.length > 0 ? chosen : [fallback.replace(/\/+$/, "")])];
}

/**
 * A failure on one endpoint of a list: its message names the endpoint, and it is worth another
 * attempt (on another endpoint, or this one after its cool-down) even where a single endpoint's
 * would not be (an unknown host name).
 */
function onEndpoint(endpoint: Endpoint, e: ProviderError): ProviderError {
  if (!isEndpointFailure(e)) return e;
  return new ProviderError(e.kind, `${endpoint.shown}: ${e.message}`, {
    ...(e.status !== undefined && { status: e.status }),
    ...(e.retryAfterMs !== undefined && { retryAfterMs: e.retryAfterMs }),
    retryable: true,
  });
}

/**
 * The generation fields a request to `model` carries for `settings`, extraBody merged in as the
 * body does (scores.json `settings_sent`). Settings the model cannot take give `{ error }`.
 */
function sentSettings(wire: WireFormat, model: string, settings: GenerationSettings, options: WireOptions): Record<string, unknown> {
  try {
    return mergeBody(wire.settings(model, settings, options), settings.extraBody);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * A parsed provider answer as the stored reply: the whole text scrubbed of secrets, then cut to the
 * cap (the answer is read from what is kept); reasoning kept beside it under the same rules, never
 * read as the answer. The batch runner (models/batch/) stores its results the same way.
 */
export function answeredReply(
  parsed: { text: string; usage?: ModelResponse["usage"]; reasoning?: string; tokenLimited?: boolean },
  secrets: Secrets,
  maxReplyBytes: number,
  latencyMs: number,
  attempts: number,
): ModelResponse {
  const capped = truncateUtf8(scrub(parsed.text, secrets), maxReplyBytes);
  const thought = parsed.reasoning ? truncateUtf8(scrub(parsed.reasoning, secrets), maxReplyBytes).text : "";
  return {
    outcome: "ok",
    text: capped.text,
    ...(capped.cut && { truncated: { bytes: capped.bytes } }),
    ...(parsed.usage && { usage: parsed.usage }),
    ...(thought && { reasoning: thought }),
    ...(parsed.tokenLimited && { tokenLimited: true }),
    latencyMs,
    attempts,
  };
}
