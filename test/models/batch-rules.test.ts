/**
 * The batch pieces one by one: chunking within limits, reading each API's result lines, the mock's
 * enforcement of the documented batch rules, each API driven directly against the mock (submit,
 * poll through a 429 with Retry-After, results), and --max-cost at the batch price.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { batchPrice, costBudget, CostLimitReached } from "../../src/core/cost.js";
import { executeRun } from "../../src/core/session.js";
import { readConfigFile, settingsFor } from "../../src/core/config.js";
import { chunkLines } from "../../src/models/batch/chunk.js";
import { createBatchClient } from "../../src/models/batch/client.js";
import { openaiBatchFailure, openaiLineResult } from "../../src/models/batch/openai.js";
import { anthropicLineResult } from "../../src/models/batch/anthropic.js";
import { geminiLineResult, geminiState, inlinedResponses } from "../../src/models/batch/gemini.js";
import type { BatchContext, BatchLine, BatchStatus } from "../../src/models/batch/types.js";
import { createProviderModel } from "../../src/models/provider.js";
import { makeRequest, startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE } from "../helpers/egopath-replies.js";

const KEY = "sk-test-batch-rules-91c3";
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY };
let server: MockServer;
let batchFault: ((route: string, attempt: number) => { status: number; retryAfter?: string } | undefined) | undefined;

before(async () => {
  server = await startMockServer({
    strict: true,
    reply: (req) => `answer to ${req.texts[0]}`,
    batch: {
      pollsToEnd: 1,
      geminiStatePrefix: "BATCH_STATE_",
      limits: { openaiMaxFileBytes: 2000, geminiMaxBytes: 3000 },
      routeFault: (route, attempt) => batchFault?.(route, attempt),
    },
  });
});
after(() => server.close());

// ------------------------------------------------------------------ chunking

test("chunkLines: envelope + sizes + one separator byte between lines, within the count and byte limits", () => {
  const sizes = new Map([["a", 3], ["b", 3], ["c", 3], ["d", 3], ["big", 9], ["e", 1]]);
  // Envelope 2: a (2+3=5), b (5+1+3=9), c would make 13 > 10: new batch; d (9); big alone is 2+9=11 > 10: too big; e (9+1+1=11 > 10): new batch.
  const { chunks, tooBig } = chunkLines(["a", "b", "c", "d", "big", "e"], (l) => sizes.get(l)!, { maxRequests: 3, maxBytes: 10 }, 2);
  assert.deepEqual(chunks, [["a", "b"], ["c", "d"], ["e"]]);
  assert.deepEqual(tooBig, ["big"]);
  // The count limit alone.
  assert.deepEqual(chunkLines([1, 2, 3, 4, 5], () => 1, { maxRequests: 2, maxBytes: 1000 }, 0).chunks, [[1, 2], [3, 4], [5]]);
});

// ------------------------------------------------------------------ result lines

test("OpenAI result lines: a 200 response's body, an HTTP error with its message, an expired request, a failed batch's reason", () => {
  assert.deepEqual(openaiLineResult({ custom_id: "k1", response: { status_code: 200, body: { choices: [] } }, error: null }), { customId: "k1", ok: true, json: { choices: [] } });
  assert.deepEqual(openaiLineResult({ custom_id: "k2", response: { status_code: 400, body: { error: { message: "bad image" } } }, error: null }), {
    customId: "k2",
    ok: false,
    error: { kind: "http", status: 400, message: "HTTP 400: bad image (batch request)" },
  });
  assert.deepEqual(openaiLineResult({ custom_id: "k3", response: null, error: { code: "batch_expired", message: "not run in time" } }), {
    customId: "k3",
    ok: false,
    error: { kind: "other", message: "batch_expired: not run in time" },
  });
  assert.equal(openaiLineResult({ response: null }), undefined);
  assert.equal(openaiBatchFailure({ errors: { data: [{ code: "invalid_json", message: "bad line", line: 3 }] } }), "invalid_json: bad line (line 3)");
});

test("Anthropic result lines: succeeded, errored (nested or flat), expired, canceled", () => {
  assert.deepEqual(anthropicLineResult({ custom_id: "a", result: { type: "succeeded", message: { content: [] } } }), { customId: "a", ok: true, json: { content: [] } });
  const nested = { custom_id: "b", result: { type: "errored", error: { type: "error", error: { type: "invalid_request_error", message: "max_tokens: Field required" } } } };
  assert.deepEqual(anthropicLineResult(nested), { customId: "b", ok: false, error: { kind: "other", message: "invalid_request_error: max_tokens: Field required (batch request)" } });
  const flat = { custom_id: "c", result: { type: "errored", error: { type: "overloaded_error", message: "busy" } } };
  assert.deepEqual(anthropicLineResult(flat), { customId: "c", ok: false, error: { kind: "other", message: "overloaded_error: busy (batch request)" } });
  assert.deepEqual(anthropicLineResult({ custom_id: "d", result: { type: "expired" } }), { customId: "d", ok: false, error: { kind: "other", message: "batch request expired" } });
  assert.deepEqual(anthropicLineResult({ custom_id: "e", result: { type: "canceled" } }), { customId: "e", ok: false, error: { kind: "other", message: "batch request canceled" } });
});

test("Gemini: both state spellings, inlined responses in an operation or a bare batch, matched by key or by order", () => {
  assert.equal(geminiState("JOB_STATE_SUCCEEDED"), "SUCCEEDED");
  assert.equal(geminiState("BATCH_STATE_RUNNING"), "RUNNING");
  const rows = [{ response: { candidates: [] }, metadata: { key: "k1" } }, { error: { code: 400, message: "bad", status: "INVALID_ARGUMENT" } }];
  assert.deepEqual(inlinedResponses({ response: { inlinedResponses: { inlinedResponses: rows } } }), rows);
  assert.deepEqual(inlinedResponses({ state: "JOB_STATE_SUCCEEDED", output: { inlinedResponses: { inlinedResponses: rows } } }), rows);
  assert.deepEqual(geminiLineResult(rows[0], 0, ["x", "y"]), { customId: "k1", ok: true, json: { candidates: [] } });
  // No metadata: the second request sent.
  assert.deepEqual(geminiLineResult(rows[1], 1, ["x", "y"]), { customId: "y", ok: false, error: { kind: "http", status: 400, message: "INVALID_ARGUMENT: bad (batch request)" } });
});

// ------------------------------------------------------------------ the mock's rules

async function post(pathname: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${pathname}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}
const lastRule = () => server.batchStats.rejected.at(-1)?.rule;

test("mock: Anthropic refuses bad and duplicate custom ids and empty batches; unknown batch ids are 404", async () => {
  const params = { model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
  let r = await post("/v1/messages/batches", { requests: [{ custom_id: "has space", params }] });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.type, "invalid_request_error");
  assert.equal(lastRule(), "anthropic.batches.custom_id");
  r = await post("/v1/messages/batches", { requests: [{ custom_id: "x".repeat(65), params }] });
  assert.equal(lastRule(), "anthropic.batches.custom_id");
  r = await post("/v1/messages/batches", { requests: [{ custom_id: "same", params }, { custom_id: "same", params }] });
  assert.equal(r.status, 400);
  assert.equal(lastRule(), "anthropic.batches.duplicate_custom_id");
  r = await post("/v1/messages/batches", { requests: [] });
  assert.equal(lastRule(), "anthropic.batches.requests");
  const unknown = await fetch(`${server.url}/v1/messages/batches/msgbatch_nope`);
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as any).error.type, "not_found_error");
});

test("mock: OpenAI refuses a wrong endpoint or window, an unknown file, an over-limit file; unknown batch and file ids are 404", async () => {
  let r = await post("/v1/batches", { input_file_id: "file-x", endpoint: "/v1/chat/complete", completion_window: "24h" });
  assert.equal(r.status, 400);
  assert.equal(lastRule(), "openai.batches.endpoint");
  r = await post("/v1/batches", { input_file_id: "file-x", endpoint: "/v1/chat/completions", completion_window: "1h" });
  assert.equal(lastRule(), "openai.batches.window");
  r = await post("/v1/batches", { input_file_id: "file-x", endpoint: "/v1/chat/completions", completion_window: "24h" });
  assert.equal(r.status, 404);
  assert.equal(lastRule(), "openai.batches.unknown_file");
  const form = new FormData();
  form.append("purpose", "batch");
  form.append("file", new Blob(["x".repeat(2001)]), "big.jsonl");
  const big = await fetch(`${server.url}/v1/files`, { method: "POST", body: form });
  assert.equal(big.status, 400);
  assert.equal(lastRule(), "openai.files.too_large");
  assert.equal((await fetch(`${server.url}/v1/batches/batch_nope`)).status, 404);
  assert.equal((await fetch(`${server.url}/v1/files/file-nope/content`)).status, 404);
});

test("mock: a Gemini batch over the inline limit is refused; unknown batch names are 404", async () => {
  const request = { contents: [{ role: "user", parts: [{ text: "y".repeat(3000) }] }] };
  const r = await post("/v1beta/models/gemini-2.5-flash:batchGenerateContent", { batch: { display_name: "t", input_config: { requests: { requests: [{ request, metadata: { key: "k" } }] } } } });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.status, "INVALID_ARGUMENT");
  assert.equal(lastRule(), "gemini.batch.too_large");
  assert.equal((await fetch(`${server.url}/v1beta/batches/nope`)).status, 404);
});

// ------------------------------------------------------------------ each API against the mock

const SPECS = { openai: "openai:gpt-4o-mini", anthropic: "anthropic:claude-sonnet-4-5", gemini: "gemini:gemini-2.5-flash" } as const;

for (const provider of Object.keys(SPECS) as Array<keyof typeof SPECS>) {
  test(`${provider}: submit, poll through a 429 with Retry-After, read results; each line's body is the adapter's own`, async () => {
    const spec = SPECS[provider];
    const client = createBatchClient(spec, { base_url: provider === "openai" ? `${server.url}/v1` : server.url, backoff_base_ms: 1, backoff_cap_ms: 5 }, env);
    const context: BatchContext = { http: client.http, baseUrl: client.baseUrl, model: client.model, signal: new AbortController().signal };
    const lines: BatchLine[] = ["first question", "second question"].map((q, i) => ({ key: `k${i}`, customId: `k${i}`, itemId: `item-${i}`, body: client.body(makeRequest([q])) }));
    const { id } = await client.api.submit(lines, context);
    assert.ok(id);
    // The first poll answers 429 (Retry-After 0): the poll is retried, as the adapters retry.
    let faults = 0;
    batchFault = (route, attempt) => (route.startsWith("GET") && !route.includes("/content") && !route.endsWith("/results") && attempt === 1 ? (faults++, { status: 429, retryAfter: "0" }) : undefined);
    let status: BatchStatus;
    try {
      do status = await client.api.poll(id, context);
      while (!status.terminal);
    } finally {
      batchFault = undefined;
    }
    assert.equal(faults, 1);
    if (provider === "gemini") assert.equal(status.state, "BATCH_STATE_SUCCEEDED");
    const results = await client.api.results(id, status, context, lines.map((l) => l.customId));
    assert.deepEqual(results.map((r) => r.customId).sort(), ["k0", "k1"]);
    for (const r of results) {
      assert.equal(r.ok, true);
      const reply = client.wire.parse((r as { json: unknown }).json);
      assert.equal(reply.text, `answer to ${r.customId === "k0" ? "first" : "second"} question`);
    }
    // What the mock received for each line is what the normal adapter's body builder gives (batch-run.test.ts compares with a normal run's bodies).
    for (const line of lines) assert.deepEqual(server.batchStats.bodies.get(line.customId), line.body);
  });
}

test("createBatchClient refuses several base URLs and non-provider models", () => {
  assert.throws(() => createBatchClient("openai:gpt-4o", { base_url: ["http://a.test/v1", "http://b.test/v1"] }, env), /one server and polls it there; openai:gpt-4o has 2 base URLs: give one/);
  assert.throws(() => createBatchClient("oracle", {}, env), /--batch needs an openai:, anthropic: or gemini: model/);
});

// ------------------------------------------------------------------ cost

test("batch price: half the listed input and output price; --max-cost budgets use it under --batch", () => {
  assert.deepEqual(batchPrice({ input_per_mtok: 2.5, output_per_mtok: 10 }), { input_per_mtok: 1.25, output_per_mtok: 5 });
  const model = createProviderModel("openai:gpt-4o", { env });
  assert.deepEqual(costBudget("openai:gpt-4o", 1, { input_per_mtok: 2.5, output_per_mtok: 10 }, model, 100, true)?.price, { input_per_mtok: 1.25, output_per_mtok: 5 });
  assert.deepEqual(costBudget("openai:gpt-4o", 1, { input_per_mtok: 2.5, output_per_mtok: 10 }, model, 100)?.price, { input_per_mtok: 2.5, output_per_mtok: 10 });
});

test("--max-cost under --batch: the input projection is at the batch price, and stops before any batch is submitted", async () => {
  const run = (batch: boolean) =>
    executeRun({
      benchmark: "egopath", data: EXAMPLE, out: mkdtempSync(path.join(os.tmpdir(), "spatialprobe-batch-cost-")), model: "anthropic:claude-sonnet-4-5",
      bootstrapResamples: 10, bootstrapSeed: 1, quiet: true, concurrency: 2, promptSource: "release", control: "none", seed: 1, retryErrors: false,
      flags: { base_url: server.url, price: { input_per_mtok: 3, output_per_mtok: 15 }, max_cost: 0.000001, ...(batch ? { batch: true, batch_poll: 0.01 } : {}) },
      env,
    });
  const created = server.batchStats.created.length;
  const batched = await run(true).then(() => undefined, (e: unknown) => e);
  assert.ok(batched instanceof CostLimitReached);
  assert.equal(batched.answered, 0);
  assert.equal(server.batchStats.created.length, created);
  const normal = await run(false).then(() => undefined, (e: unknown) => e);
  assert.ok(normal instanceof CostLimitReached);
  // Same estimated input tokens: the batch projection is half the normal one (each rounded to a millionth of a dollar).
  assert.ok(Math.abs(normal.projectedUsd - 2 * batched.projectedUsd) <= 2e-6, `${normal.projectedUsd} vs ${batched.projectedUsd}`);
});

test("config: batch and batch_poll are read, at the top level or per model; flags win", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-batch-config-"));
  const file = path.join(dir, "c.yaml");
  writeFileSync(file, 'batch: true\nbatch_poll: 5\nmodels:\n  "openai:gpt-4o":\n    batch_poll: 120\n');
  const config = readConfigFile(file);
  assert.deepEqual({ batch: settingsFor("gemini:x", config, {}).batch, poll: settingsFor("gemini:x", config, {}).batch_poll }, { batch: true, poll: 5 });
  assert.equal(settingsFor("openai:gpt-4o", config, {}).batch_poll, 120);
  assert.equal(settingsFor("openai:gpt-4o", config, { batch_poll: 0.5 }).batch_poll, 0.5);
  writeFileSync(file, "batch: yes-please\n");
  assert.throws(() => readConfigFile(file));
});
