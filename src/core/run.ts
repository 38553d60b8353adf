import { setMaxListeners } from "node:events";
import { messagesMentionJson, type Benchmark, type BenchItem, type BuiltPrompt, type ItemResult, type PromptBuilder } from "./benchmark.js";
import { canonicalSha256 } from "./hash.js";
import { UsageError } from "./problems.js";
import type { Progress } from "./progress.js";
import type { GenerationSettings, Message, Model, ModelRequest, ModelResponse, ResponseError, SentImage } from "./types.js";
import type { ReplyStore } from "../store/store.js";
import { shapeMessages, type ImageBudgets } from "../models/shape.js";
import { capConcurrency, modelEndpoints } from "../models/traffic.js";
import { keyEnvOf } from "../models/provider.js";

/** Who answers: a real model (through the store), or a built-in that replies from the item. */
export type Responder<I> =
  | { kind: "model"; model: Model }
  | { kind: "baseline"; name: string; reply: (item: I, prompt: Record<string, unknown>) => string };

export interface RunOptions<I extends BenchItem> {
  benchmark: Benchmark<I>;
  items: I[];
  responder: Responder<I>;
  build: PromptBuilder<I>;
  settings: GenerationSettings;
  store?: ReplyStore;
  concurrency: number;
  /** Ask again for items whose stored reply is an error. */
  retryErrors: boolean;
  signal: AbortSignal;
  progress?: Progress;
  /** Called with each result the moment it is ready (the live file a viewer follows). */
  onResult?: (result: ItemResult) => void;
  /**
   * Image budgets per kind (models/shape.ts): when set, a real model's messages are shaped to them
   * and to the model's limits before the request key is taken; the budgets are part of the key.
   */
  imageBudget?: ImageBudgets;
  /** --json-output / --no-json-output / config json_output: JSON mode for every item; unset = per item (BuiltPrompt.json). */
  jsonOverride?: boolean;
  /**
   * Called with each request about to be sent (never for stored replies); false: it is not sent and
   * the item gets no result. --max-cost sizes a run's requests this way before asking anything;
   * --batch collects them, with their store key, to submit them in batches (models/batch/).
   */
  beforeSend?: (item: I, request: ModelRequest, key: string) => boolean | Promise<boolean>;
  /** `run --repeats`: the repeat this is (1 = the plain run); repeats after the first have their own store keys. */
  repeat?: number;
}

export class RunInterrupted extends Error {
  constructor(readonly completed: number) {
    super(`interrupted after ${completed} items; run the same command again to resume`);
  }
}

/**
 * The store key: provider, model, settings and what is sent (text and image bytes). The endpoint
 * is left out: the same model behind two base URLs (a fleet, a moved server) shares its replies.
 * An image's `source` path is left out, since it is not sent: a run folder moved to another
 * machine (other absolute paths, same files) resumes from its stored replies. Its `kind` is left
 * out too (not sent either); the image budgets, when given, are in.
 */
export function requestKey(model: Model, settings: GenerationSettings, messages: Message[], imageBudget?: ImageBudgets, repeat?: number): string {
  const { provider, model: name } = model.identity;
  return keyFor({ provider, model: name }, settings, messages, imageBudget, repeat);
}

/**
 * The keys replies were stored under before the endpoint left the key (one per endpoint the model
 * may use): askModel reads them when the key finds nothing, so stores written then still resume.
 */
export function endpointRequestKeys(model: Model, settings: GenerationSettings, messages: Message[], imageBudget?: ImageBudgets, repeat?: number): string[] {
  const { provider, model: name } = model.identity;
  const endpoints = modelEndpoints(model) ?? [model.identity.endpoint];
  return endpoints.map((endpoint) => keyFor({ provider, endpoint, model: name }, settings, messages, imageBudget, repeat));
}

/** sha256 of the canonical JSON, hashed in place (canonicalSha256: the image base64 is never stringified or copied). */
function keyFor(identity: Record<string, string>, settings: GenerationSettings, messages: Message[], imageBudget?: ImageBudgets, repeat?: number): string {
  // Without a budget the key is what it always was, so stores written before shaping still resume.
  const budget = imageBudget ? { image_budget: imageBudget } : {};
  // Repeat 1 is the plain run (its replies are the ones a run without --repeats stored); later repeats ask afresh.
  const namespace = repeat !== undefined && repeat > 1 ? { repeat } : {};
  return canonicalSha256({ identity, settings, messages: messages.map(withoutSources), ...budget, ...namespace });
}

function withoutSources(message: Message): Message {
  return { ...message, content: message.content.map((part) => (part.type === "image" ? { type: part.type, mediaType: part.mediaType, base64: part.base64 } : part)) };
}

/**
 * Ask every item with bounded concurrency and turn each reply into an ItemResult. Replies already
 * in the store are reused; new ones are stored the moment they arrive.
 */
export async function runItems<I extends BenchItem>(options: RunOptions<I>): Promise<ItemResult[]> {
  const { items, signal } = options;
  // Every in-flight request listens to the run's signal; more than 10 at once is expected.
  setMaxListeners(0, signal);
  // The workers are the cap; a provider model's adaptive limiter decides how many send at once.
  if (options.responder.kind === "model") capConcurrency(options.responder.model, Math.max(1, Math.floor(options.concurrency)));
  const results: Array<ItemResult | undefined> = new Array(items.length);
  let next = 0;
  let completed = 0;
  const setup = new SetupCheck(Math.min(SETUP_CHECK_REQUESTS, items.length));
  // Results the set-up check holds back until it knows whether the run goes on.
  const held: Array<[number, ItemResult]> = [];
  const keep = (index: number, result: ItemResult) => {
    results[index] = result;
    completed++;
    options.onResult?.(result);
    options.progress?.tick({ error: result.status === "error", cached: result.response?.cached });
  };
  const release = () => {
    for (const [index, result] of held.splice(0)) keep(index, result);
  };
  const worker = async () => {
    while (!signal.aborted && !setup.failed) {
      const index = next++;
      if (index >= items.length) return;
      const result = await answerItem(items[index]!, options);
      if (result === NOT_SENT) continue;
      if (!result) return; // aborted mid-request
      if (setup.observe(result)) {
        held.push([index, result]);
        continue;
      }
      release();
      keep(index, result);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, worker);
  await Promise.all(workers);
  options.progress?.finish();
  // The first requests all refused for the key or model: none of them is a result (nor stored).
  if (setup.failed) throw new SetupFailure(setup.failed, setup.seen, options.responder.kind === "model" ? options.responder.model.identity : undefined);
  release();
  if (signal.aborted) throw new RunInterrupted(completed);
  // Items whose request beforeSend held back have no result.
  return results.filter((result): result is ItemResult => result !== undefined);
}

/**
 * Errors that come from the run's set-up, not from the item: a key the provider refuses (HTTP 401,
 * 403) or a model or endpoint it does not know (404). askModel never stores them as replies, so
 * the same command asks again once the key or the model name is fixed.
 */
export function isSetupError(error: Pick<ResponseError, "status" | "message"> & { kind: string } | undefined): boolean {
  return error?.kind === "http" && (error.status === 401 || error.status === 403 || error.status === 404);
}

/** How many newly sent requests must all fail with one set-up error before a run stops. */
export const SETUP_CHECK_REQUESTS = 3;

type ItemError = NonNullable<NonNullable<ItemResult["response"]>["error"]>;

/**
 * Watches the run's first newly sent requests: when the first `needed` of them all fail with the
 * same set-up error (same HTTP status), the run stops instead of sending every other request to
 * the same refusal. Any other outcome first (a reply, another error) ends the watch.
 */
class SetupCheck {
  failed: ItemError | undefined;
  seen = 0;
  private done = false;
  private status: number | undefined;
  constructor(private readonly needed: number) {}

  /** True when the result is a set-up error the watch holds back (a result only if the run goes on). */
  observe(result: ItemResult): boolean {
    if (this.failed) return true; // a request still in flight when the run stopped
    const response = result.response;
    if (this.done || !response || response.cached || response.attempts === 0) return false;
    const error = response.error;
    if (!isSetupError(error) || (this.status !== undefined && error!.status !== this.status)) {
      this.done = true;
      return false;
    }
    this.status = error!.status;
    this.seen += 1;
    if (this.seen >= this.needed) this.failed = error;
    return true;
  }
}

/** The run's first requests were all refused for the key or the model (SetupCheck); nothing of them was stored. */
export class SetupFailure extends UsageError {
  constructor(readonly error: { status?: number; message: string }, readonly requests: number, model?: { provider: string; model: string }) {
    const keyEnv = model ? keyEnvOf(model.provider) : undefined;
    const why = error.status === 404
      ? `the provider does not know the model${model ? ` "${model.model}"` : ""} (or the endpoint): check --model and --base-url`
      : `the provider refuses the key: check ${keyEnv ?? "the API key"} and the account's access to the model`;
    super(`the first ${requests === 1 ? "request" : `${requests} requests`} all failed with ${error.message}; ${why}. Nothing was stored: the same command asks again once it is fixed.`);
  }
}

/** answerItem's value for an item whose request beforeSend held back. */
const NOT_SENT = Symbol("not sent");

/**
 * The JSON decision for one item: the override when given, else the prompt's own (BuiltPrompt.json).
 * JSON mode on messages that never say "JSON" becomes a prompt error, since OpenAI answers 400 to
 * json_object then (platform.openai.com/docs/guides/structured-outputs, JSON mode); the prompt is never edited to fit.
 */
export function withJsonMode(prompt: BuiltPrompt, override: boolean | undefined): BuiltPrompt {
  if ("error" in prompt) return prompt;
  const json = override ?? prompt.json === true;
  if (json && !messagesMentionJson(prompt.messages)) {
    const why = override === true ? "--json-output (or json_output: true in the config) forces JSON output mode" : "the prompt asks for JSON output mode";
    return { error: `${why}, but this item's messages never contain the word "JSON", and OpenAI rejects response_format json_object without it; drop the override or use a template that asks for JSON` };
  }
  return { ...prompt, json };
}

/** Per task, whether its requests asked for JSON mode (response.json_output): true, false, or "mixed". */
export function jsonModeByTask(results: readonly ItemResult[]): Record<string, boolean | "mixed"> {
  const byTask: Record<string, boolean | "mixed"> = {};
  for (const result of results) {
    const json = result.response?.json_output;
    if (json === undefined) continue;
    const seen = byTask[result.task];
    byTask[result.task] = seen === undefined || seen === json ? json : "mixed";
  }
  return byTask;
}

async function answerItem<I extends BenchItem>(item: I, options: RunOptions<I>): Promise<ItemResult | undefined | typeof NOT_SENT> {
  const base = { id: item.id, task: item.task, cluster: item.cluster };
  const { responder, benchmark } = options;
  const prompt = withJsonMode(await buildPrompt(options.build, item), options.jsonOverride);
  // A prompt that cannot be built is an error for built-ins too: they fail where a real model's run would.
  if ("error" in prompt) {
    return { ...base, status: "error", response: { latency_ms: 0, attempts: 0, cached: false, error: { kind: "prompt", message: prompt.error } } };
  }
  if (responder.kind === "baseline") {
    // Built-ins answer from the item; they only need what the prompt would show (e.g. path names).
    const reply = responder.reply(item, prompt.info);
    return finish(benchmark, item, base, reply, { latency_ms: 0, attempts: 1, cached: false }, prompt.info);
  }
  // The settings actually sent for this item (JSON mode per item), which the store key covers.
  const settings: GenerationSettings = { ...options.settings, jsonOutput: prompt.json === true };
  const asked = await askModel(responder.model, settings, prompt.messages, item.id, {
    ...(options.store ? { store: options.store } : {}),
    retryErrors: options.retryErrors,
    signal: options.signal,
    ...(options.imageBudget ? { imageBudget: options.imageBudget } : {}),
    ...(options.beforeSend ? { beforeSend: (request: ModelRequest, key: string) => options.beforeSend!(item, request, key) } : {}),
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
  });
  if (asked.kind === "aborted") return undefined;
  if (asked.kind === "not-sent") return NOT_SENT;
  const images = asked.images ? { images: asked.images } : undefined;
  if (asked.kind === "unfit") {
    return { ...base, status: "error", response: { latency_ms: 0, attempts: 0, cached: false, error: asked.error, ...images }, prompt: prompt.info };
  }
  const response = asked.response;
  const meta = { ...responseMeta(response, asked.cached), json_output: settings.jsonOutput, ...images };
  if (response.outcome === "error") return { ...base, status: "error", response: meta, prompt: prompt.info };
  return finish(benchmark, item, base, response.text, meta, prompt.info);
}

export interface AskOptions {
  store?: ReplyStore;
  /** Ask again when the stored reply is an error. */
  retryErrors: boolean;
  signal: AbortSignal;
  /** Shape the messages to these budgets and the model's limits before the key is taken (models/shape.ts). */
  imageBudget?: ImageBudgets;
  /** Called with a request about to be sent and its store key (never for stored replies); false: it is not sent. */
  beforeSend?: (request: ModelRequest, key: string) => boolean | Promise<boolean>;
  /** `run --repeats`: repeats after the first are stored under keys of their own (requestKey). */
  repeat?: number;
}

export type Asked =
  | { kind: "answered"; response: ModelResponse; cached: boolean; key: string; images?: SentImage[] }
  /** The messages cannot be shaped to fit the limits; nothing was sent. */
  | { kind: "unfit"; error: { kind: "limit" | "prompt"; message: string }; images?: SentImage[] }
  | { kind: "not-sent" }
  | { kind: "aborted" };

/** What askModel would send, without sending: the messages as shaped, their store key, the images as sent. */
export type PreparedRequest =
  | { kind: "ready"; key: string; messages: Message[]; images?: SentImage[] }
  | { kind: "unfit"; error: { kind: "limit" | "prompt"; message: string }; images?: SentImage[] };

/** Shape the messages to the budgets and the model's limits, then take the store key of what would be sent. */
export async function prepareRequest(model: Model, settings: GenerationSettings, original: Message[], options: Pick<AskOptions, "imageBudget" | "repeat">): Promise<PreparedRequest> {
  let messages = original;
  let images: SentImage[] | undefined;
  if (options.imageBudget) {
    const shaped = await shapeMessages(messages, model.limits, options.imageBudget);
    if ("error" in shaped) return { kind: "unfit", error: shaped.error, ...(shaped.images ? { images: shaped.images } : {}) };
    messages = shaped.messages;
    images = shaped.images;
  }
  const key = requestKey(model, settings, messages, options.imageBudget, options.repeat);
  return { kind: "ready", key, messages, ...(images ? { images } : {}) };
}

/**
 * One request through the response store: a stored reply is reused (an error one only without
 * retryErrors); a new reply is stored the moment it arrives. Shaped bytes are what is hashed and
 * sent. The item id is for the store's log column only.
 */
export async function askModel(model: Model, settings: GenerationSettings, original: Message[], itemId: string, options: AskOptions): Promise<Asked> {
  const prepared = await prepareRequest(model, settings, original, options);
  if (prepared.kind === "unfit") return prepared;
  const { key, messages, images } = prepared;
  let response = (await options.store?.get(key)) ?? (await storedUnderEndpoint(model, settings, messages, options));
  // A set-up error stored by an earlier version is asked again: it says nothing about the item.
  if (response?.outcome === "error" && isSetupError(response.error)) response = undefined;
  const cached = response !== undefined && !(response.outcome === "error" && options.retryErrors);
  if (!cached) {
    const request: ModelRequest = { itemId, messages, settings };
    if (options.beforeSend && !(await options.beforeSend(request, key))) return { kind: "not-sent" };
    try {
      response = await model.generate(request, options.signal);
    } catch (error) {
      if (options.signal.aborted) return { kind: "aborted" };
      response = { outcome: "error", text: "", latencyMs: 0, attempts: 1, error: { kind: "other", message: (error as Error).message } };
    }
    if (!(response.outcome === "error" && isSetupError(response.error))) await options.store?.put(key, itemId, model.spec, response);
  }
  return { kind: "answered", response: response!, cached, key, ...(images ? { images } : {}) };
}

/** A reply stored before the endpoint left the key (endpointRequestKeys), if any. */
async function storedUnderEndpoint(model: Model, settings: GenerationSettings, messages: Message[], options: AskOptions): Promise<ModelResponse | undefined> {
  // A store made after the endpoint left the key holds none of these: skip hashing the request again.
  if (!options.store || options.store.mayHoldEndpointKeys === false) return undefined;
  for (const key of endpointRequestKeys(model, settings, messages, options.imageBudget, options.repeat)) {
    const found = await options.store.get(key);
    if (found) return found;
  }
  return undefined;
}

/**
 * A builder that throws on one item (a media file changed since it was checked, say) gives that
 * item a prompt error, never a crashed run; a usage error (a bad template) still stops the run.
 */
async function buildPrompt<I>(build: PromptBuilder<I>, item: I): Promise<BuiltPrompt> {
  try {
    return await build(item);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function responseMeta(response: ModelResponse, cached: boolean): NonNullable<ItemResult["response"]> {
  return {
    latency_ms: response.latencyMs,
    attempts: response.attempts,
    cached,
    ...(response.usage ? { usage: response.usage as Record<string, number> } : {}),
    ...(response.error ? { error: response.error } : {}),
    ...(response.truncated ? { truncated: { bytes: response.truncated.bytes } } : {}),
    ...(response.reasoning ? { reasoning: response.reasoning } : {}),
    ...(response.tokenLimited ? { token_limited: true as const } : {}),
  };
}

function finish<I extends BenchItem>(
  benchmark: Benchmark<I>,
  item: I,
  base: Pick<ItemResult, "id" | "task" | "cluster">,
  reply: string,
  response: NonNullable<ItemResult["response"]>,
  prompt: Record<string, unknown> | undefined,
): ItemResult {
  const answer = benchmark.readReply(item, reply, prompt);
  return { ...base, status: "scored", answer, detail: benchmark.scoreItem(item, answer, prompt), reply, response, ...(prompt ? { prompt } : {}) };
}

/**
 * Score stored predictions (`score` and `replay:`): no model call, the official reading of each row.
 * `prompt` (`score --prompt <variant>`: `{variant}`) tells scoring which variant the predictions
 * answered where that changes the weights (EPIC-Bench's count-only prompt scores the count alone).
 */
export function scorePredictions<I extends BenchItem>(
  benchmark: Benchmark<I>,
  items: I[],
  lookup: (item: I) => import("./pycompat/json.js").PyDict | undefined,
  prompt?: Record<string, unknown>,
): ItemResult[] {
  return items.map((item) => {
    const answer = benchmark.readPrediction(item, lookup(item));
    return { id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer, detail: benchmark.scoreItem(item, answer, prompt), ...(prompt ? { prompt } : {}) };
  });
}
