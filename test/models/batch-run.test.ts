/**
 * `run --batch` against the mock's batch APIs (test/helpers/mock-batch.ts), for each provider: the
 * same scores as a normal run, the same request bodies, a restart between submit and results that
 * resubmits nothing, per-request errors as errors, and the cost at the batch price.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { executeRun, type RunCommandOptions } from "../../src/core/session.js";
import { RunInterrupted } from "../../src/core/run.js";
import { ResponseStore } from "../../src/store/store.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import type { InjectedError, MockBatchOptions } from "../helpers/mock-batch.js";
import { EXAMPLE, exampleItems, replyTable, requestSignature } from "../helpers/egopath-replies.js";

const KEY = "sk-test-batch-DO-NOT-LEAK-7d2a";
/** The tasks these runs ask (see options()). */
const TASKS = ["a1", "b1", "a2", "b2"];
const items = exampleItems().filter((i) => TASKS.includes(i.task));
const table = replyTable(items);
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-batch-"));

/** The batch behaviour of the current test (the mock reads it through these closures). */
let batchPlan: MockBatchOptions = {};
let server: MockServer;

before(async () => {
  server = await startMockServer({
    strict: true,
    recordRequests: true,
    reply: (req) => table.get(requestSignature(req)) ?? "no match",
    batch: {
      pollsToEnd: 2,
      requestError: (provider, id) => batchPlan.requestError?.(provider, id),
      endState: (provider, n) => batchPlan.endState?.(provider, n),
      routeFault: (route, attempt) => batchPlan.routeFault?.(route, attempt),
    },
  });
});
after(() => server.close());

const MODELS = { openai: "openai:gpt-4o-mini", anthropic: "anthropic:claude-sonnet-4-5", gemini: "gemini:gemini-2.5-flash" } as const;
type Provider = keyof typeof MODELS;

function options(provider: Provider, out: string, extra: Partial<RunCommandOptions> = {}, flags: RunCommandOptions["flags"] = {}): RunCommandOptions {
  const model = MODELS[provider];
  return {
    // a1, b1, a2 and b2 of the example set: 46 requests whose pictures (about 18 MiB in base64) fit
    // one Gemini inline batch (20 MB in all), as these tests assume; with c they would not.
    benchmark: "egopath", data: EXAMPLE, tasks: TASKS, out, model, bootstrapResamples: 200, bootstrapSeed: 3, quiet: true,
    concurrency: 4, promptSource: "release", control: "none", seed: 1, retryErrors: false,
    flags: { base_url: provider === "openai" ? `${server.url}/v1` : server.url, timeout_ms: 5000, max_attempts: 4, backoff_base_ms: 5, backoff_cap_ms: 20, batch_poll: 0.01, ...flags },
    env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY },
    ...extra,
  };
}

/**
 * scores.json without what differs between a batch run and a normal one by nature: the time, the
 * usage block (latencies; its tokens are compared below) and the normal endpoint's traffic counters.
 */
function comparable(scores: Record<string, unknown>) {
  const { created_at, usage, traffic, ...rest } = scores;
  return rest;
}

/** Every request body the mock's normal routes received since `from` (requests of batches included: the mock answers them there). */
function bodiesSince(from: number): string[] {
  return server.stats.seen.slice(from).map((r) => JSON.stringify(r.body)).sort();
}

for (const provider of Object.keys(MODELS) as Provider[]) {
  test(`${provider}: --batch gives the scores of a normal run, from the same request bodies, at the batch price`, async () => {
    batchPlan = {};
    const price = { input_per_mtok: 2, output_per_mtok: 8 };
    const seen0 = server.stats.seen.length;
    const normal = await executeRun(options(provider, tmp(), {}, { price }));
    const normalBodies = bodiesSince(seen0);
    assert.equal(normal.scores.counts.errors, 0);

    const created0 = server.batchStats.created.length;
    const seen1 = server.stats.seen.length;
    const batched = await executeRun(options(provider, tmp(), {}, { price, batch: true }));
    assert.deepEqual(server.stats.rejected, []);
    assert.deepEqual(server.batchStats.rejected, []);
    assert.deepEqual(comparable(batched.scores as never), comparable(normal.scores as never));
    // One batch (well within the limits), every request in it once, and nothing sent outside it.
    const created = server.batchStats.created.slice(created0);
    assert.equal(created.length, 1);
    assert.equal(created[0]!.provider, provider);
    assert.equal(new Set(created[0]!.customIds).size, created[0]!.customIds.length);
    const batchBodies = bodiesSince(seen1);
    assert.equal(batchBodies.length, created[0]!.customIds.length);
    // Each line's body is byte for byte what the normal adapter sent.
    assert.deepEqual(batchBodies, normalBodies);
    assert.deepEqual(created[0]!.customIds.map((id) => JSON.stringify(server.batchStats.bodies.get(id))).sort(), normalBodies);

    // The cost: the same tokens, at half the listed price (1 and 4 USD per million tokens).
    const nu = (normal.scores as any).usage;
    const bu = (batched.scores as any).usage;
    assert.equal(bu.input_tokens, nu.input_tokens);
    assert.equal(bu.output_tokens, nu.output_tokens);
    assert.deepEqual(bu.cost.price, { input_per_mtok: 1, output_per_mtok: 4 });
    assert.deepEqual(bu.cost.list_price, price);
    assert.equal(bu.cost.batch, true);
    assert.equal(nu.cost.batch, undefined);
    assert.equal(bu.cost.usd, Math.round(bu.input_tokens * 1 + bu.output_tokens * 4) / 1_000_000);
    assert.equal(nu.cost.usd, Math.round(nu.input_tokens * 2 + nu.output_tokens * 8) / 1_000_000);
  });

  test(`${provider}: a run stopped after submitting resumes the same batch and resubmits nothing`, async () => {
    const controller = new AbortController();
    // The first poll of the new batch stops the run (as a kill would, after the batch is recorded);
    // a list call (Anthropic lists before it submits: intent.ts) is not a poll.
    const isList = (route: string) => /^GET \/v1(beta)?\/(messages\/)?batches$/.test(route);
    batchPlan = { routeFault: (route) => (route.startsWith("GET") && !isList(route) ? (controller.abort(new Error("stopped")), undefined) : undefined) };
    const out = tmp();
    const created0 = server.batchStats.created.length;
    await assert.rejects(executeRun(options(provider, out, { signal: controller.signal }, { batch: true })), RunInterrupted);
    assert.equal(server.batchStats.created.length, created0 + 1);
    const store = new ResponseStore(path.join(out, "responses.sqlite"));
    const open = store.batches(MODELS[provider]);
    assert.equal(open.length, 1);
    assert.equal(open[0]!.id, server.batchStats.created[created0]!.id);
    assert.equal(store.count(), 0);
    store.close();

    batchPlan = {};
    const resumed = await executeRun(options(provider, out, {}, { batch: true }));
    assert.equal(resumed.scores.counts.errors, 0);
    assert.equal(resumed.results.length, items.length);
    // No second batch, and every request went in exactly one.
    const created = server.batchStats.created.slice(created0);
    assert.equal(created.length, 1);
    const carried = created.flatMap((b) => b.customIds);
    assert.equal(new Set(carried).size, carried.length);
    const after = new ResponseStore(path.join(out, "responses.sqlite"));
    // Every stored reply came from that one batch.
    assert.equal(after.count(), carried.length);
    assert.deepEqual(after.batches(MODELS[provider]), []);
    assert.equal(after.batches(MODELS[provider], true)[0]!.collected, true);
    after.close();
  });

  test(`${provider}: a per-request error is an error reply, counted in counts.errors, and --retry-errors asks it again in a new batch`, async () => {
    let failing: string | undefined;
    const created0 = server.batchStats.created.length;
    batchPlan = {
      requestError: (_p, id): InjectedError | undefined => {
        failing ??= server.batchStats.created[created0]!.customIds[0];
        return id === failing ? { status: 400, message: "mock: this request is refused" } : undefined;
      },
    };
    const out = tmp();
    const first = await executeRun(options(provider, out, {}, { batch: true }));
    assert.equal(first.scores.counts.errors, 1);
    const errored = first.results.filter((r) => r.status === "error");
    assert.equal(errored.length, 1);
    assert.match(errored[0]!.response!.error!.message, /mock: this request is refused/);

    batchPlan = {};
    const again = await executeRun(options(provider, out, { retryErrors: true }, { batch: true }));
    assert.equal(again.scores.counts.errors, 0);
    const created = server.batchStats.created.slice(created0);
    assert.equal(created.length, 2);
    assert.deepEqual(created[1]!.customIds, [failing]);
  });

  test(`${provider}: an expired batch leaves its requests as errors that --retry-errors asks again`, async () => {
    const created0 = server.batchStats.created.length;
    batchPlan = { endState: (_p, n) => (n === created0 + 1 ? "expired" : undefined) };
    const out = tmp();
    const first = await executeRun(options(provider, out, {}, { batch: true }));
    assert.equal(first.scores.counts.errors, items.length);
    assert.ok(first.results.every((r) => r.status === "error"));
    batchPlan = {};
    const again = await executeRun(options(provider, out, { retryErrors: true }, { batch: true }));
    assert.equal(again.scores.counts.errors, 0);
    assert.equal(server.batchStats.created.length, created0 + 2);
  });
}
