/** usageSummary: the scores.json usage block from items' responses, checked against hand-computed values. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ItemResult } from "../../src/core/benchmark.js";
import { costUsd, latencySummary, nearestRank, usageSummary } from "../../src/core/usage.js";

const base = { task: "a1", cluster: "s1" };
const reply = (id: string, response: Record<string, unknown>): ItemResult =>
  ({ ...base, id, status: "scored", reply: "{}", response: { attempts: 1, cached: false, ...response } }) as ItemResult;
const failed = (id: string, response: Record<string, unknown>): ItemResult =>
  ({ ...base, id, status: "error", response: { attempts: 1, cached: false, ...response } }) as ItemResult;

/** Ten items in the run; eight have a result. */
const RESULTS: ItemResult[] = [
  reply("r1", { latency_ms: 120, usage: { inputTokens: 1000, outputTokens: 200 } }),
  // Reused from the store: counted like a fresh reply, with the latency measured when it was asked.
  reply("r2", { latency_ms: 80, cached: true, usage: { inputTokens: 1500, outputTokens: 300, reasoningTokens: 100 } }),
  reply("r3", { latency_ms: 300, truncated: { bytes: 5000 } }),
  reply("r4", { latency_ms: 40, usage: { inputTokens: 500, outputTokens: 4096 }, token_limited: true }),
  failed("e1", { latency_ms: 10, attempts: 6, error: { kind: "http", status: 500, message: "HTTP 500" } }),
  // Cut at the token limit with no text: an error, yet billed.
  failed("e2", { latency_ms: 900, usage: { inputTokens: 800, outputTokens: 4096 }, token_limited: true, error: { kind: "malformed", message: "the reply hit the token limit before any text" } }),
  failed("p1", { latency_ms: 0, attempts: 0, error: { kind: "prompt", message: "no partner" } }),
  { ...base, id: "x1", status: "scored", answer: { status: "missing", value: null } },
];

test("totals, latency percentiles, truncation rates and cost of a handmade run", () => {
  assert.deepEqual(usageSummary(RESULTS, 10, { input_per_mtok: 2.5, output_per_mtok: 10 }), {
    requests: 4, // r1..r4
    input_tokens: 3800, // 1000 + 1500 + 500 + 800
    output_tokens: 8692, // 200 + 300 + 4096 + 4096
    reasoning_tokens: 100,
    with_usage: 4, // r1, r2, r4, e2
    // replies r1..r4 sorted: 40, 80, 120, 300; nearest rank ceil(p/100 * 4)
    latency_ms: { p50: 80, p90: 300, p99: 300, mean: 135, max: 300 },
    truncated: { n: 3, rate: 0.3 }, // r3 (reply cap), r4 and e2 (token limit), over 10 items
    token_limited: { n: 2, rate: 0.2 },
    // (3800 * 2.5 + 8692 * 10) / 1e6 = (9500 + 86920) / 1e6
    cost: { usd: 0.09642, price: { input_per_mtok: 2.5, output_per_mtok: 10 } },
  });
});

test("without a price there is no cost; with no replies latency is null and rates are 0", () => {
  const summary = usageSummary(RESULTS, 10);
  assert.equal("cost" in summary, false);
  assert.deepEqual(usageSummary([], 0), {
    requests: 0,
    input_tokens: 0,
    output_tokens: 0,
    reasoning_tokens: 0,
    with_usage: 0,
    latency_ms: null,
    truncated: { n: 0, rate: 0 },
    token_limited: { n: 0, rate: 0 },
  });
  const onlyErrors = usageSummary([RESULTS[4]!, RESULTS[6]!], 4, { input_per_mtok: 1, output_per_mtok: 1 });
  assert.equal(onlyErrors.requests, 0);
  assert.equal(onlyErrors.latency_ms, null);
  assert.deepEqual(onlyErrors.cost, { usd: 0, price: { input_per_mtok: 1, output_per_mtok: 1 } });
});

test("nearest-rank percentiles: always one of the values, rank ceil(p/100 * n)", () => {
  const ten = [7, 3, 10, 1, 9, 2, 8, 5, 4, 6].sort((a, b) => a - b);
  assert.deepEqual([nearestRank(ten, 50), nearestRank(ten, 90), nearestRank(ten, 99), nearestRank(ten, 100)], [5, 9, 10, 10]);
  const many = Array.from({ length: 200 }, (_, i) => i + 1);
  assert.deepEqual([nearestRank(many, 50), nearestRank(many, 90), nearestRank(many, 99)], [100, 180, 198]);
  assert.deepEqual(latencySummary([42]), { p50: 42, p90: 42, p99: 42, mean: 42, max: 42 });
  assert.deepEqual(latencySummary([5, 1, 4, 2, 3]), { p50: 3, p90: 5, p99: 5, mean: 3, max: 5 });
  assert.equal(latencySummary([]), null);
});

test("usage from a server is not trusted: non-numbers, negatives and non-finite counts add nothing", () => {
  const odd = [
    reply("o1", { latency_ms: 5, usage: { inputTokens: -4, outputTokens: Number.NaN } }),
    reply("o2", { latency_ms: 7, usage: { inputTokens: "12", outputTokens: 30 } }),
    reply("o3", { latency_ms: Number.POSITIVE_INFINITY, usage: { reasoningTokens: 9 } }),
  ];
  const summary = usageSummary(odd, 3);
  assert.equal(summary.input_tokens, 0);
  assert.equal(summary.output_tokens, 30);
  assert.equal(summary.reasoning_tokens, 0); // o3 reports neither input nor output: not counted as usage
  assert.equal(summary.with_usage, 2);
  assert.deepEqual(summary.latency_ms, { p50: 5, p90: 7, p99: 7, mean: 4, max: 7 }); // Infinity counts as 0
});

test("cost is rounded to a millionth of a dollar", () => {
  assert.equal(costUsd(1, 1, { input_per_mtok: 0.15, output_per_mtok: 0.6 }), 0.000001); // 0.75e-6 rounds up
  assert.equal(costUsd(1_000_000, 500_000, { input_per_mtok: 3, output_per_mtok: 15 }), 10.5);
  assert.equal(costUsd(1234, 0, { input_per_mtok: 2.5, output_per_mtok: 10 }), 0.003085);
});
