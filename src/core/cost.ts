/**
 * `--max-cost`: project what a run will cost before asking it all, and stop when the projection is
 * over the limit. Input tokens come from each request's size (text and the images as sent, by each
 * provider's documented image-token rule); output tokens from the first replies' usage.
 *
 * The run goes: size every request the store cannot answer (built and shaped exactly as it would be
 * sent, then held back); stop at once if their input alone is over the limit; ask the first
 * `concurrency` of them; project = their cost (as reported) + the rest's estimated input + the
 * first replies' mean output per request; stop if over, else ask the rest. Stored replies cost
 * nothing, so a second run resumes where a stopped one ended.
 */
import sharp from "sharp";
import type { BenchItem, ItemResult } from "./benchmark.js";
import { runItems, RunInterrupted, type RunOptions } from "./run.js";
import { UsageError } from "./problems.js";
import type { Model, ModelRequest } from "./types.js";
import { costUsd, usageSummary, type Price, type UsageSummary } from "./usage.js";

/** Text tokens from characters: about 4 characters a token (ai.google.dev/gemini-api/docs/tokens; OpenAI's tokenizer guide says the same for English). */
export function textTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * OpenAI, detail "high" (what we send): scale to fit a 2048 x 2048 square, then scale down so the
 * shortest side is 768 px; 170 tokens per 512 px tile plus 85
 * (platform.openai.com/docs/guides/images-vision, "Calculating costs"; e.g. 1024x1024 -> 765,
 * 2048x4096 -> 1105). Images are never scaled up.
 */
export function openaiImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  // Multiply before dividing, so that a side landing on a whole number comes out exact.
  const long = Math.max(w, h);
  if (long > 2048) [w, h] = [(w * 2048) / long, (h * 2048) / long];
  const short = Math.min(w, h);
  if (short > 768) [w, h] = [(w * 768) / short, (h * 768) / short];
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/**
 * Anthropic: tokens = width * height / 750, after an image whose long edge is over 1568 px or that
 * would be over about 1600 tokens is scaled down, keeping its aspect ratio
 * (docs.anthropic.com/en/docs/build-with-claude/vision, "Evaluate image size"). Rounded up.
 */
export function anthropicImageTokens(width: number, height: number): number {
  const area = width * height;
  const longEdge = Math.max(width, height);
  // Scaling keeps the aspect ratio, so it scales the area by the square of the side's factor.
  const scaledArea = Math.min(area, longEdge > 1568 ? area * (1568 / longEdge) ** 2 : area, 1600 * 750);
  return Math.ceil(scaledArea / 750);
}

/**
 * Gemini: an image with both sides at most 384 px is 258 tokens; a larger one is cut into
 * 768 x 768 tiles of 258 tokens each (ai.google.dev/gemini-api/docs/tokens, "Multimodal tokens").
 */
export function geminiImageTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

/** One image's input tokens for a provider; servers speaking the OpenAI format are counted as OpenAI. */
export function imageTokens(provider: string, width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 0;
  if (provider === "anthropic") return anthropicImageTokens(width, height);
  if (provider === "gemini") return geminiImageTokens(width, height);
  return openaiImageTokens(width, height);
}

/** A request's size: characters of text and the pixel size of each image, as sent. */
export interface RequestSize {
  textChars: number;
  images: Array<{ width: number; height: number }>;
}

export function estimateInputTokens(provider: string, size: RequestSize): number {
  return textTokens(size.textChars) + size.images.reduce((sum, image) => sum + imageTokens(provider, image.width, image.height), 0);
}

/** An image whose size cannot be read is counted as 2048 x 2048 (it would not go out smaller). */
const UNREADABLE_IMAGE = { width: 2048, height: 2048 };

/** The size of a request as it would be sent (image sizes read from the image headers). */
export async function requestSize(request: ModelRequest): Promise<RequestSize> {
  let textChars = 0;
  const images: RequestSize["images"] = [];
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === "text") {
        textChars += part.text.length;
        continue;
      }
      try {
        const meta = await sharp(Buffer.from(part.base64, "base64")).metadata();
        images.push(meta.width && meta.height ? { width: meta.width, height: meta.height } : UNREADABLE_IMAGE);
      } catch {
        images.push(UNREADABLE_IMAGE);
      }
    }
  }
  return { textChars, images };
}

/**
 * Output tokens to expect per request: the mean of the replies that reported usage, else the
 * token limit (the most a reply can be billed for).
 */
export function expectedOutputTokens(results: readonly ItemResult[], maxTokens: number): number {
  const outputs = results.map((r) => r.response?.usage?.["outputTokens"]).filter((n): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0);
  if (outputs.length === 0) return maxTokens;
  return outputs.reduce((sum, n) => sum + n, 0) / outputs.length;
}

export interface Projection {
  /** Tokens of the replies asked so far (their reported usage; the estimate where none was reported). */
  spent: { input: number; output: number };
  /** Estimated tokens of the requests not asked yet. */
  remaining: { input: number; output: number };
  /** Both at the price, rounded to a millionth of a dollar. */
  usd: number;
}

/**
 * The projected cost of a run: `asked` pairs each reply of this run with its estimated input
 * tokens; `remainingInputs` are the estimated input tokens of the requests still to ask, each
 * expected to produce `outputPerRequest` tokens.
 */
export function projectCost(asked: ReadonlyArray<{ result: ItemResult; inputEstimate: number }>, remainingInputs: readonly number[], outputPerRequest: number, price: Price): Projection {
  const spent = { input: 0, output: 0 };
  for (const { result, inputEstimate } of asked) {
    const usage = result.response?.usage;
    spent.input += typeof usage?.["inputTokens"] === "number" ? usage["inputTokens"] : inputEstimate;
    spent.output += typeof usage?.["outputTokens"] === "number" ? usage["outputTokens"] : outputPerRequest;
  }
  const remaining = { input: remainingInputs.reduce((sum, n) => sum + n, 0), output: remainingInputs.length * outputPerRequest };
  return { spent, remaining, usd: costUsd(spent.input + remaining.input, spent.output + remaining.output, price) };
}

/** Dollars as shown in messages: cents from $0.10 up, two significant digits below. */
export function formatUsd(usd: number): string {
  if (usd >= 0.1 || usd === 0) return `$${usd.toFixed(2)}`;
  return `$${Number(usd.toPrecision(2))}`;
}

/** The run was stopped by --max-cost (exit status 4); every reply received is in the store. */
export class CostLimitReached extends Error {
  constructor(
    readonly projectedUsd: number,
    readonly maxUsd: number,
    readonly answered: number,
  ) {
    super(`projected cost ${formatUsd(projectedUsd)} exceeds --max-cost ${formatUsd(maxUsd)} after ${answered} items; answered items are stored, nothing is lost`);
  }
}

/** An interruption's count of answered items: `count` maps the stage's own count (sizing answers nothing). */
function recountInterruption(count: (completed: number) => number): (error: unknown) => never {
  return (error) => {
    throw error instanceof RunInterrupted ? new RunInterrupted(count(error.completed)) : error;
  };
}

/**
 * The batch APIs' price: half the listed input and output price for all three providers
 * (platform.openai.com/docs/guides/batch, docs.anthropic.com/en/docs/build-with-claude/batch-processing
 * "Pricing", ai.google.dev/gemini-api/docs/batch-mode: "50% of the standard cost").
 */
export const BATCH_DISCOUNT = 0.5;

export function batchPrice(price: Price): Price {
  return { input_per_mtok: price.input_per_mtok * BATCH_DISCOUNT, output_per_mtok: price.output_per_mtok * BATCH_DISCOUNT };
}

/**
 * scores.json `usage` of a run: under --batch its cost is at the batch price, and says so
 * (`batch: true`, with the listed price beside the one applied).
 */
export function runUsage(results: readonly ItemResult[], nTotal: number, price: Price | undefined, batch: boolean): UsageSummary & { cost?: { batch?: true; list_price?: Price } } {
  if (!batch || !price) return usageSummary(results, nTotal, price);
  const summary = usageSummary(results, nTotal, batchPrice(price));
  return { ...summary, ...(summary.cost ? { cost: { ...summary.cost, batch: true as const, list_price: { ...price } } } : {}) };
}

export interface CostBudget {
  maxUsd: number;
  /** The price applied: the batch price under --batch. */
  price: Price;
  /** Model.identity.provider: which image-token rule applies. */
  provider: string;
  /** The token limit, the expected output when no first reply reports usage. */
  maxTokens: number;
}

/**
 * runItems under a cost limit (see the top of this file). Throws CostLimitReached before asking
 * more once the projection is over `budget.maxUsd`; otherwise returns the results in item order.
 */
export async function runWithinBudget<I extends BenchItem>(options: RunOptions<I>, budget: CostBudget, ask: AskItems = runItems): Promise<ItemResult[]> {
  // The sizing pass reports nothing: no progress, no live results.
  const { progress: _progress, onResult: _onResult, ...quiet } = options;
  const inputs = new Map<I, number>();
  await runItems({
    ...quiet,
    beforeSend: async (item, request) => {
      inputs.set(item, estimateInputTokens(budget.provider, await requestSize(request)));
      return false;
    },
  }).catch(recountInterruption(() => 0));
  const toAsk = options.items.filter((item) => inputs.has(item));
  if (toAsk.length === 0) return runItems(options);
  const inputOf = (item: I) => inputs.get(item)!;

  const inputOnly = projectCost([], toAsk.map(inputOf), 0, budget.price);
  if (inputOnly.usd > budget.maxUsd) throw new CostLimitReached(inputOnly.usd, budget.maxUsd, 0);

  const first = toAsk.slice(0, Math.max(1, options.concurrency));
  const firstResults = await ask({ ...options, items: first });
  const rest = toAsk.slice(first.length);
  if (rest.length > 0) {
    const output = expectedOutputTokens(firstResults, budget.maxTokens);
    const asked = first.map((item, i) => ({ result: firstResults[i]!, inputEstimate: inputOf(item) }));
    const projection = projectCost(asked, rest.map(inputOf), output, budget.price);
    if (projection.usd > budget.maxUsd) throw new CostLimitReached(projection.usd, budget.maxUsd, first.length);
  }

  const firstSet = new Set(first);
  const others = options.items.filter((item) => !firstSet.has(item));
  const otherResults = await ask({ ...options, items: others }).catch(recountInterruption((completed) => first.length + completed));
  const byItem = new Map<I, ItemResult>();
  first.forEach((item, i) => byItem.set(item, firstResults[i]!));
  others.forEach((item, i) => byItem.set(item, otherResults[i]!));
  return options.items.map((item) => byItem.get(item)!);
}

/**
 * The budget of a run from --max-cost / config max_cost, or undefined without one. Built-in models
 * (no `model`) cost nothing. A limit without the model's price is a usage error.
 */
export function costBudget(spec: string, maxUsd: number | undefined, price: Price | undefined, model: Model | undefined, maxTokens: number, batch = false): CostBudget | undefined {
  if (maxUsd === undefined || !model) return undefined;
  if (!price) {
    throw new UsageError(`--max-cost needs the price of ${spec}: set price: { input_per_mtok: <USD>, output_per_mtok: <USD> } in the config (--config), at the top level or under models: "${spec}":`);
  }
  return { maxUsd, price: batch ? batchPrice(price) : price, provider: model.identity.provider, maxTokens };
}

/** How the budget asks a set of items: runItems, or a queued run's workers (queue/coordinator.ts). */
export type AskItems = <I extends BenchItem>(options: RunOptions<I>) => Promise<ItemResult[]>;

/** runItems, under the budget when there is one; `ask` in place of runItems for the items the budget lets go. */
export function runItemsWithin<I extends BenchItem>(budget: CostBudget | undefined, options: RunOptions<I>, ask: AskItems = runItems): Promise<ItemResult[]> {
  return budget ? runWithinBudget(options, budget, ask) : runItems(options);
}
