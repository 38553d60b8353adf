import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, beforeEach, test } from "node:test";
import { executeRun, type RunCommandOptions } from "../../src/core/session.js";
import { startMockServer, type Fault, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, itemSignature, replyTable, requestSignature } from "../helpers/egopath-replies.js";

const KEY = "sk-test-DO-NOT-LEAK-4f1c2e";
const items = exampleItems();
const table = replyTable(items);
let server: MockServer;
/** Per-question fault plans, keyed by question signature; set by each test. */
let plan = new Map<string, (attempt: number) => Fault | undefined>();
const attempts = new Map<string, number>();
beforeEach(() => attempts.clear());

before(async () => {
  server = await startMockServer({
    reply: (req) => table.get(requestSignature(req)) ?? "no match",
    faults: (req) => {
      // Attempts are counted per test (the server's own count spans tests that resend the same body).
      const signature = requestSignature(req);
      const attempt = (attempts.get(signature) ?? 0) + 1;
      attempts.set(signature, attempt);
      return plan.get(signature)?.(attempt);
    },
  });
});
after(() => server.close());

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-run-"));

function options(model: string, out: string, extra: Partial<RunCommandOptions> = {}): RunCommandOptions {
  const baseUrl = model.startsWith("openai:") ? `${server.url}/v1` : server.url;
  return {
    benchmark: "egopath", data: EXAMPLE, out, model, bootstrapResamples: 200, bootstrapSeed: 3, quiet: true,
    concurrency: 6, promptSource: "release", control: "none", seed: 1, retryErrors: false,
    flags: { base_url: baseUrl, timeout_ms: 400, max_attempts: 5, backoff_base_ms: 5, backoff_cap_ms: 20 },
    env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY },
    ...extra,
  };
}

/**
 * The parts of scores.json that must not depend on faults, retries or the provider: not the
 * time, the endpoint, the provider's wire settings, the measured latencies and usage, or the
 * traffic (requests this process sent per endpoint, and the concurrency the limiter settled on).
 */
function comparable(scores: Record<string, unknown>) {
  const { created_at, endpoint, settings_sent, usage, traffic, ...rest } = scores;
  return rest;
}

let reference: Record<string, unknown>;

test("fault-free run against the OpenAI wire format", async () => {
  plan = new Map();
  const { scores, results } = await executeRun(options("openai:mock-vlm", tmp()));
  assert.equal(results.length, items.length);
  assert.equal(scores.counts.errors, 0);
  assert.ok((scores.counts.parse_failures as number) > 0); // the junk replies
  assert.ok(scores.score !== null && scores.score > 0 && scores.score < 1);
  reference = comparable(scores as never);
});

test("transient faults (429 + Retry-After, 500, slow past the timeout, reset, malformed, empty) are retried and change nothing", async () => {
  const faults: Array<(attempt: number) => Fault | undefined> = [
    (a) => (a === 1 ? { type: "status", status: 429, retryAfter: "1" } : undefined),
    (a) => (a <= 2 ? { type: "status", status: 500 } : undefined),
    (a) => (a === 1 ? { type: "slow", delayMs: 1500 } : undefined),
    (a) => (a <= 2 ? { type: "reset" } : undefined),
    (a) => (a === 1 ? { type: "malformed" } : undefined),
    (a) => (a === 1 ? { type: "empty" } : undefined),
    (a) => (a <= 4 ? { type: "status", status: 503, retryAfter: "0" } : undefined),
  ];
  plan = new Map(items.slice(0, 21).map((item, i) => [itemSignature(item), faults[i % faults.length]!]));
  const started = Date.now();
  const { scores, results } = await executeRun(options("openai:mock-vlm", tmp()));
  assert.equal(scores.counts.errors, 0);
  assert.deepEqual(comparable(scores as never), reference);
  const retried = results.filter((r) => (r.response?.attempts ?? 0) > 1).length;
  assert.equal(retried, 21);
  // scores.json `traffic`: every attempt was one request to the one endpoint. Answered with 2xx: each
  // item's last attempt, and the first attempt of the 3 items whose fault is a malformed 200 body.
  const attempts = results.reduce((sum, r) => sum + r.response!.attempts, 0);
  const [endpoint] = (scores as unknown as { traffic: { endpoints: Array<{ requests: number; ok: number }> } }).traffic.endpoints;
  assert.equal(endpoint!.requests, attempts);
  assert.equal(endpoint!.ok, items.length + 3);
  assert.ok(Math.max(...results.map((r) => r.response!.attempts)) <= 5);
  assert.ok(Date.now() - started >= 1000, "Retry-After: 1 was honoured");
});

test("a fault that persists ends as a recorded error after the attempt limit, and --retry-errors asks again", async () => {
  const broken = items[3]!;
  let calls = 0;
  plan = new Map([[itemSignature(broken), () => (calls++, { type: "status", status: 500 } as Fault)]]);
  const out = tmp();
  const first = await executeRun(options("openai:mock-vlm", out));
  assert.equal(calls, 5); // max_attempts, no more
  assert.equal(first.scores.counts.errors, 1);
  assert.equal(first.scores.n, items.length - 1);
  const failed = first.results.find((r) => r.id === broken.id)!;
  assert.equal(failed.status, "error");
  assert.equal(failed.response?.error?.status, 500);
  assert.equal(failed.answer, undefined); // never scored as a wrong answer

  // Same command: the stored error is reused, nothing is asked.
  const before = server.stats.requests;
  const again = await executeRun(options("openai:mock-vlm", out));
  assert.equal(server.stats.requests, before);
  assert.equal(again.scores.counts.errors, 1);

  // --retry-errors once the provider is healthy: only that question is asked again.
  plan = new Map();
  const healed = await executeRun(options("openai:mock-vlm", out, { retryErrors: true }));
  assert.equal(server.stats.requests, before + 1);
  assert.deepEqual(comparable(healed.scores as never), reference);
});

test("Anthropic and Gemini wire formats give the same scores", async () => {
  plan = new Map();
  for (const model of ["anthropic:mock-claude", "gemini:mock-gemini"]) {
    const { scores } = await executeRun(options(model, tmp()));
    const { model: _m, ...rest } = comparable(scores as never);
    const { model: _r, ...want } = reference;
    assert.deepEqual(rest, want, model);
  }
});

test("the API key is sent only as a header and never written to any file", async () => {
  plan = new Map([[itemSignature(items[0]!), (a: number) => (a === 1 ? ({ type: "status", status: 401 } as Fault) : undefined)]]);
  const out = tmp();
  const { results } = await executeRun(options("openai:mock-vlm", out));
  assert.match(results[0]!.response!.error!.message, /401/);
  assert.ok(server.stats.credentials.has(`Bearer ${KEY}`));
  for (const url of server.stats.urls) assert.ok(!url.includes(KEY));
  const files = readdirSync(out, { recursive: true }).map(String).filter((f) => statSync(path.join(out, f)).isFile());
  assert.ok(files.includes("scores.json") && files.includes("items.jsonl") && files.some((f) => f.endsWith(".sqlite")));
  for (const file of files) {
    const bytes = readFileSync(path.join(out, file));
    assert.equal(bytes.includes(KEY), false, `${file} contains the key`);
  }
});
