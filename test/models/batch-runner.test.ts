/**
 * The batch pass (models/batch/runner.ts) on its own and under --max-cost: splitting into batches
 * within the limits, a request too big for any batch, a batch the provider refuses, and the
 * two-stage cost projection at the batch price.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { CostLimitReached } from "../../src/core/cost.js";
import type { RunOptions } from "../../src/core/run.js";
import type { BenchItem } from "../../src/core/benchmark.js";
import { executeRun } from "../../src/core/session.js";
import { createBatchClient } from "../../src/models/batch/client.js";
import { runBatchPass } from "../../src/models/batch/runner.js";
import { configuredProviderModel } from "../../src/models/factory.js";
import { getBenchmark } from "../../src/registry.js";
import { ResponseStore } from "../../src/store/store.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, itemSignature, replyTable, requestSignature } from "../helpers/egopath-replies.js";

const KEY = "sk-test-batch-runner-55e0";
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY };
const items = exampleItems();
const table = replyTable(items);
let server: MockServer;
let createFault: ((route: string) => { status: number } | undefined) | undefined;

before(async () => {
  server = await startMockServer({
    strict: true,
    reply: (req) => table.get(requestSignature(req)) ?? "no match",
    batch: { routeFault: (route) => createFault?.(route) },
  });
});
after(() => server.close());

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-batch-runner-"));

/** The run options executeRun would build for the egopath example (no image budget). */
function passFor(spec: string, store: ResponseStore): { run: RunOptions<BenchItem>; client: ReturnType<typeof createBatchClient> } {
  const benchmark = getBenchmark("egopath");
  const { items } = benchmark.load(EXAMPLE, undefined, { allowOutsideRoot: false });
  const { build } = benchmark.preparePrompts(items, { source: "release", control: "none", seed: 1 });
  const flags = { base_url: server.url, backoff_base_ms: 1, backoff_cap_ms: 5, max_attempts: 2 };
  const { model, settings } = configuredProviderModel(spec, flags, env);
  const run: RunOptions<BenchItem> = { benchmark, items, responder: { kind: "model", model }, build, settings, store, concurrency: 4, retryErrors: false, signal: new AbortController().signal };
  return { run, client: createBatchClient(spec, flags, env) };
}

test("53 requests (examples/egopath-mini) with at most 10 per batch: 6 batches, each request in one, every reply stored", async () => {
  const store = new ResponseStore(path.join(tmp(), "r.sqlite"));
  const { run, client } = passFor("anthropic:claude-sonnet-4-5", store);
  const created0 = server.batchStats.created.length;
  const summary = await runBatchPass(run, { client, pollMs: 1, limits: { maxRequests: 10 } });
  assert.deepEqual(summary, { resumed: 0, submitted: 6, requests: 53 });
  const created = server.batchStats.created.slice(created0);
  assert.deepEqual(created.map((b) => b.customIds.length), [10, 10, 10, 10, 10, 3]);
  assert.equal(new Set(created.flatMap((b) => b.customIds)).size, 53);
  assert.equal(store.count(), 53);
  assert.equal(store.batches("anthropic:claude-sonnet-4-5").length, 0);
  assert.equal(store.batches("anthropic:claude-sonnet-4-5", true).length, 6);
  // A second pass finds everything stored: nothing is submitted.
  assert.deepEqual(await runBatchPass(run, { client, pollMs: 1 }), { resumed: 0, submitted: 0, requests: 0 });
  store.close();
});

test("a request too big for one batch is an error reply naming the limit, and is not submitted", async () => {
  const store = new ResponseStore(path.join(tmp(), "r.sqlite"));
  const { run, client } = passFor("gemini:gemini-2.5-flash", store);
  const created0 = server.batchStats.created.length;
  const summary = await runBatchPass(run, { client, pollMs: 1, limits: { maxBytes: 1000 } });
  assert.deepEqual(summary, { resumed: 0, submitted: 0, requests: 0 });
  assert.equal(server.batchStats.created.length, created0);
  assert.equal(store.count(), 53);
  const db = store as unknown as { db: { prepare(sql: string): { all(): Array<{ body: string }> } } };
  const bodies = db.db.prepare("SELECT body FROM responses").all().map((r) => JSON.parse(r.body));
  assert.ok(bodies.every((b) => b.outcome === "error" && /^request of \d+ bytes is over the 1000 bytes limit of one gemini batch \(inline requests; larger input needs the File API, which --batch does not use\): run it without --batch$/.test(b.error.message)));
  store.close();
});

test("a batch the provider refuses: its requests are error replies saying so", async () => {
  const store = new ResponseStore(path.join(tmp(), "r.sqlite"));
  const { run, client } = passFor("anthropic:claude-sonnet-4-5", store);
  createFault = (route) => (route === "POST /v1/messages/batches" ? { status: 400 } : undefined);
  try {
    const summary = await runBatchPass(run, { client, pollMs: 1 });
    assert.deepEqual(summary, { resumed: 0, submitted: 0, requests: 0 });
  } finally {
    createFault = undefined;
  }
  const db = store as unknown as { db: { prepare(sql: string): { all(): Array<{ body: string }> } } };
  const bodies = db.db.prepare("SELECT body FROM responses").all().map((r) => JSON.parse(r.body));
  assert.equal(bodies.length, 53);
  for (const b of bodies) {
    assert.equal(b.outcome, "error");
    assert.equal(b.error.status, 400);
    assert.equal(b.error.message, "batch not accepted: POST /v1/messages/batches: HTTP 400: mock fault 400");
  }
  store.close();
});

test("--max-cost under --batch: a first batch of --concurrency requests, then the projection stops the rest", async () => {
  const options = (maxCost: number) => ({
    benchmark: "egopath", data: EXAMPLE, out: tmp(), model: "anthropic:claude-sonnet-4-5", bootstrapResamples: 10, bootstrapSeed: 1, quiet: true,
    concurrency: 2, promptSource: "release", control: "none", seed: 1, retryErrors: false,
    // Input free, output 1,000,000 USD per million tokens: 0.5 USD per output token at the batch price.
    flags: { base_url: server.url, batch: true, batch_poll: 0.01, price: { input_per_mtok: 0, output_per_mtok: 1_000_000 }, max_cost: maxCost },
    env,
  });
  const created0 = server.batchStats.created.length;
  const stopped = await executeRun(options(1)).then(() => undefined, (e: unknown) => e);
  assert.ok(stopped instanceof CostLimitReached);
  assert.equal(stopped.answered, 2);
  const created = server.batchStats.created.slice(created0);
  assert.deepEqual(created.map((b) => b.customIds.length), [2]);
  // The first batch is the first two items (batches follow item order). The mock bills a reply ceil(chars / 4)
  // output tokens; the projection is their output plus 51 more at their mean, at 0.5 USD a token (input is free).
  const [o0, o1] = items.slice(0, 2).map((item) => Math.ceil(table.get(itemSignature(item))!.length / 4)) as [number, number];
  assert.equal(stopped.projectedUsd, 0.5 * (o0 + o1 + (51 * (o0 + o1)) / 2));

  const done = await executeRun(options(1e9));
  assert.equal(done.scores.counts.errors, 0);
  assert.deepEqual(server.batchStats.created.slice(created0 + 1).map((b) => b.customIds.length), [2, 51]);
});

test("polls that keep failing stop the pass with a message; the batch stays open and the next pass resumes it", async () => {
  const store = new ResponseStore(path.join(tmp(), "r.sqlite"));
  const { run, client } = passFor("anthropic:claude-sonnet-4-5", store);
  const created0 = server.batchStats.created.length;
  createFault = (route) => (route.startsWith("GET /v1/messages/batches/") ? { status: 503 } : undefined);
  try {
    await assert.rejects(runBatchPass(run, { client, pollMs: 1 }), /^ProviderError: polling batch msgbatch_\w+ failed: GET \/v1\/messages\/batches\/msgbatch_\w+: HTTP 503: mock fault 503; it is kept in the store, run the same command again to resume polling$/);
  } finally {
    createFault = undefined;
  }
  const open = store.batches("anthropic:claude-sonnet-4-5");
  assert.equal(open.length, 1);
  assert.equal(store.count(), 0);
  assert.deepEqual(await runBatchPass(run, { client, pollMs: 1 }), { resumed: 1, submitted: 0, requests: 0 });
  assert.equal(server.batchStats.created.length, created0 + 1);
  assert.equal(store.count(), 53);
  store.close();
});
