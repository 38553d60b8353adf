/**
 * What a run's replies used and how they came back: token totals, latency percentiles, how many
 * replies were cut short, and their cost at the model's configured price. The `usage` block of
 * scores.json; pure, computed from the items' `response` (items.jsonl) alone.
 *
 * Replies reused from the response store count like fresh ones (they are part of the run's
 * results); their `latency_ms` is the one measured when they were first asked.
 */
import type { ItemResult } from "./benchmark.js";

/** USD per million tokens (config `price:` per model). */
export interface Price {
  input_per_mtok: number;
  output_per_mtok: number;
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export interface UsageSummary {
  /** Items that got a model reply (not an error), asked this run or reused from the store. */
  requests: number;
  input_tokens: number;
  /** As billed: reasoning tokens are part of it (Usage.reasoningTokens is already included). */
  output_tokens: number;
  reasoning_tokens: number;
  /** Responses that reported usage (a reply cut at the token limit with no text is an error, and still billed). */
  with_usage: number;
  /** Over the replies counted in `requests`; null when there are none. */
  latency_ms: LatencySummary | null;
  /** Replies cut by the reply cap (--max-reply-bytes) or by the token limit; rate = n / items in the run. */
  truncated: { n: number; rate: number };
  /** Replies cut by the token limit only. */
  token_limited: { n: number; rate: number };
  /** input_tokens and output_tokens at the price, rounded to a millionth of a dollar. */
  cost?: { usd: number; price: Price };
}

/** The response fields this module reads (ItemResult.response plus H3's token_limited flag). */
type ResponseMeta = NonNullable<ItemResult["response"]> & { token_limited?: boolean };

/**
 * The p-th percentile (0 < p <= 100) by the nearest-rank rule: the value at 1-based rank
 * ceil(p/100 * n) of the values sorted ascending. Always one of the values; `sorted` must be
 * sorted ascending and not empty.
 */
export function nearestRank(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function latencySummary(latencies: readonly number[]): LatencySummary | null {
  if (latencies.length === 0) return null;
  const sorted = [...latencies].sort((a, b) => a - b);
  const sum = sorted.reduce((total, x) => total + x, 0);
  return {
    p50: nearestRank(sorted, 50),
    p90: nearestRank(sorted, 90),
    p99: nearestRank(sorted, 99),
    mean: sum / sorted.length,
    max: sorted[sorted.length - 1]!,
  };
}

/** USD for a number of input and output tokens at a price, rounded to a millionth of a dollar. */
export function costUsd(inputTokens: number, outputTokens: number, price: Price): number {
  const usd = (inputTokens * price.input_per_mtok + outputTokens * price.output_per_mtok) / 1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
}

/** A finite, non-negative token count, or 0 (usage comes from a server and is not trusted). */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function reportsUsage(usage: Record<string, number> | undefined): boolean {
  return usage !== undefined && (typeof usage["inputTokens"] === "number" || typeof usage["outputTokens"] === "number");
}

/** A model reply that was read and scored (not an infrastructure error). */
function isReply(result: ItemResult): boolean {
  return result.status === "scored" && result.response !== undefined && result.response.error === undefined;
}

/**
 * The usage block for a run's results; `nTotal` is the number of items in the run (the
 * denominator of the rates, so a reply that never came lowers no rate).
 */
export function usageSummary(results: readonly ItemResult[], nTotal: number, price?: Price): UsageSummary {
  let input = 0;
  let output = 0;
  let reasoning = 0;
  let withUsage = 0;
  let truncated = 0;
  let tokenLimited = 0;
  const latencies: number[] = [];
  for (const result of results) {
    const response = result.response as ResponseMeta | undefined;
    if (!response) continue;
    if (reportsUsage(response.usage)) {
      withUsage++;
      input += count(response.usage!["inputTokens"]);
      output += count(response.usage!["outputTokens"]);
      reasoning += count(response.usage!["reasoningTokens"]);
    }
    if (response.token_limited === true) tokenLimited++;
    if (response.token_limited === true || response.truncated !== undefined) truncated++;
    if (isReply(result)) latencies.push(count(response.latency_ms));
  }
  const rate = (n: number) => (nTotal > 0 ? n / nTotal : 0);
  return {
    requests: latencies.length,
    input_tokens: input,
    output_tokens: output,
    reasoning_tokens: reasoning,
    with_usage: withUsage,
    latency_ms: latencySummary(latencies),
    truncated: { n: truncated, rate: rate(truncated) },
    token_limited: { n: tokenLimited, rate: rate(tokenLimited) },
    ...(price ? { cost: { usd: costUsd(input, output, price), price: { input_per_mtok: price.input_per_mtok, output_per_mtok: price.output_per_mtok } } } : {}),
  };
}
