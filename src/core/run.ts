import { setMaxListeners } from "node:events";
import type { Benchmark, BenchItem, BuiltPrompt, ItemResult, PromptBuilder } from "./benchmark.js";
import { canonicalJson, sha256 } from "./hash.js";
import { UsageError } from "./problems.js";
import type { Progress } from "./progress.js";
import type { GenerationSettings, Message, Model, ModelResponse } from "./types.js";
import type { ResponseStore } from "../store/store.js";

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
  store?: ResponseStore;
  concurrency: number;
  /** Ask again for items whose stored reply is an error. */
  retryErrors: boolean;
  signal: AbortSignal;
  progress?: Progress;
  /** Called with each result the moment it is ready (the live file a viewer follows). */
  onResult?: (result: ItemResult) => void;
}

export class RunInterrupted extends Error {
  constructor(readonly completed: number) {
    super(`interrupted after ${completed} items; run the same command again to resume`);
  }
}

/**
 * The store key: provider, endpoint, model, settings and what is sent (text and image bytes).
 * An image's `source` path is left out, since it is not sent: a run folder moved to another
 * machine (other absolute paths, same files) resumes from its stored replies.
 */
export function requestKey(model: Model, settings: GenerationSettings, messages: Message[]): string {
  return sha256(canonicalJson({ identity: model.identity, settings, messages: messages.map(withoutSources) }));
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
  const results: Array<ItemResult | undefined> = new Array(items.length);
  let next = 0;
  let completed = 0;
  const worker = async () => {
    while (!signal.aborted) {
      const index = next++;
      if (index >= items.length) return;
      const result = await answerItem(items[index]!, options);
      if (!result) return; // aborted mid-request
      results[index] = result;
      completed++;
      options.onResult?.(result);
      options.progress?.tick({ error: result.status === "error", cached: result.response?.cached });
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, worker);
  await Promise.all(workers);
  options.progress?.finish();
  if (signal.aborted) throw new RunInterrupted(completed);
  return results as ItemResult[];
}

async function answerItem<I extends BenchItem>(item: I, options: RunOptions<I>): Promise<ItemResult | undefined> {
  const base = { id: item.id, task: item.task, cluster: item.cluster };
  const { responder, benchmark } = options;
  const prompt = await buildPrompt(options.build, item);
  if (responder.kind === "baseline") {
    // Built-ins answer from the item; they only need what the prompt would show (e.g. path names).
    const info = "error" in prompt ? {} : prompt.info;
    const reply = responder.reply(item, info);
    return finish(benchmark, item, base, reply, { latency_ms: 0, attempts: 1, cached: false }, info);
  }
  if ("error" in prompt) {
    return { ...base, status: "error", response: { latency_ms: 0, attempts: 0, cached: false, error: { kind: "prompt", message: prompt.error } } };
  }
  const key = requestKey(responder.model, options.settings, prompt.messages);
  let response = options.store?.get(key);
  const cached = response !== undefined && !(response.outcome === "error" && options.retryErrors);
  if (!cached) {
    try {
      response = await responder.model.generate({ itemId: item.id, messages: prompt.messages, settings: options.settings }, options.signal);
    } catch (error) {
      if (options.signal.aborted) return undefined;
      response = { outcome: "error", text: "", latencyMs: 0, attempts: 1, error: { kind: "other", message: (error as Error).message } };
    }
    options.store?.put(key, item.id, responder.model.spec, response);
  }
  const meta = responseMeta(response!, cached);
  if (response!.outcome === "error") return { ...base, status: "error", response: meta, prompt: prompt.info };
  return finish(benchmark, item, base, response!.text, meta, prompt.info);
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

/** Score stored predictions (`score` and `replay:`): no model call, the official reading of each row. */
export function scorePredictions<I extends BenchItem>(
  benchmark: Benchmark<I>,
  items: I[],
  lookup: (item: I) => import("./pycompat/json.js").PyDict | undefined,
): ItemResult[] {
  return items.map((item) => {
    const answer = benchmark.readPrediction(item, lookup(item));
    return { id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer, detail: benchmark.scoreItem(item, answer) };
  });
}
