/**
 * The window between a provider accepting a batch and the store recording its id
 * (models/batch/intent.ts). `spatialprobe run --batch` as a process, killed with SIGKILL at
 * exactly that point (SPATIALPROBE_TEST_KILL_AT=after-submit), then the same command: it finds
 * the batch in the provider's listing (by OpenAI metadata, Gemini display_name, Anthropic creation
 * time and request count), polls it, and submits nothing again. Killed before the submit call
 * (before-submit), the restart finds no batch and submits the requests, once. Decoy batches and a
 * page size of 2 make the listing page and the match choose.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { after, before, test } from "node:test";
import { ResponseStore } from "../../src/store/store.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, replyTable, requestSignature } from "../helpers/egopath-replies.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const KEY = "sk-test-batch-window-3c9f";
/** a1, b1, a2 and b2 of the example set: 46 requests whose pictures fit one Gemini inline batch (20 MB in all), as these tests assume. */
const TASKS = ["a1", "b1", "a2", "b2"];
const items = exampleItems().filter((i) => TASKS.includes(i.task));
const table = replyTable(items);
let server: MockServer;

before(async () => {
  server = await startMockServer({
    strict: true,
    reply: (req) => table.get(requestSignature(req)) ?? "no match",
    batch: { pollsToEnd: 2, maxPageSize: 2, lostReply: (route) => once(route, "lost"), routeFault: (route) => (once(route, "fault") ? { status: 503 } : undefined) },
  });
});
after(() => server.close());

/** The next create call of a route that loses its reply (the batch is made) or fails before making anything. */
const planned = new Map<string, "lost" | "fault">();
function once(route: string, what: "lost" | "fault"): 502 | undefined {
  if (planned.get(route) !== what) return undefined;
  planned.delete(route);
  return 502;
}
const CREATE_ROUTES = { openai: "POST /v1/batches", anthropic: "POST /v1/messages/batches", gemini: "POST /v1beta/models/gemini-2.5-flash:batchGenerateContent" } as const;

const MODELS = { openai: "openai:gpt-4o-mini", anthropic: "anthropic:claude-sonnet-4-5", gemini: "gemini:gemini-2.5-flash" } as const;
type Provider = keyof typeof MODELS;
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-batch-window-"));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** `spatialprobe run --batch` (the built CLI: npm test builds dist/ first), with `killAt` set as the test hook. */
function cli(provider: Provider, out: string, killAt?: "before-submit" | "after-submit"): Promise<Exit> {
  const args = ["run", "egopath", "--data", EXAMPLE, "--tasks", TASKS.join(","), "--model", MODELS[provider], "--base-url", provider === "openai" ? `${server.url}/v1` : server.url, "--out", out, "--batch", "--batch-poll", "0.05", "--bootstrap", "100"];
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY };
  delete env.SPATIALPROBE_TEST_KILL_AT;
  if (killAt) env.SPATIALPROBE_TEST_KILL_AT = killAt;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/spatialprobe.js"), ...args], { cwd: ROOT, env });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    child.stdout.resume();
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** scores.json without what differs between two runs by nature: the time, latencies, traffic counters. */
function scores(out: string) {
  const { created_at, usage, traffic, ...rest } = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  return { ...rest, tokens: [usage?.input_tokens, usage?.output_tokens] };
}

/** The scores of an uninterrupted --batch run, once per provider. */
const reference = new Map<Provider, ReturnType<typeof scores>>();
async function referenceScores(provider: Provider) {
  if (!reference.has(provider)) {
    const out = tmp();
    const done = await cli(provider, out);
    assert.equal(done.code, 0, done.stderr);
    reference.set(provider, scores(out));
  }
  return reference.get(provider)!;
}

async function post(pathname: string, body: unknown) {
  const res = await fetch(`${server.url}${pathname}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": KEY }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as any;
}

/**
 * Batches someone else submitted after ours: the restart must page past them (2 per page) and not
 * take them for ours. Anthropic's decoys hold as many requests as ours (46): only the creation
 * time tells them apart.
 */
async function decoys(provider: Provider, count: number) {
  for (let d = 0; d < 3; d++) {
    if (provider === "openai") {
      const form = new FormData();
      form.append("purpose", "batch");
      const line = (i: number) => JSON.stringify({ custom_id: `decoy-${d}-${i}`, method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] } });
      form.append("file", new Blob([`${line(0)}\n`]), "decoy.jsonl");
      const file = (await (await fetch(`${server.url}/v1/files`, { method: "POST", body: form })).json()) as { id: string };
      await post("/v1/batches", { input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { spatialprobe_intent: `${d}`.repeat(16), owner: "someone else" } });
    } else if (provider === "anthropic") {
      const params = { model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
      await post("/v1/messages/batches", { requests: Array.from({ length: count }, (_, i) => ({ custom_id: `decoy-${d}-${i}`, params })) });
    } else {
      const request = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
      await post("/v1beta/models/gemini-2.5-flash:batchGenerateContent", { batch: { display_name: d === 0 ? "someone else" : `spatialprobe-${`${d}`.repeat(16)}`, input_config: { requests: { requests: [{ request, metadata: { key: `decoy-${d}` } }] } } } });
    }
  }
}

function openStore(out: string) {
  return new ResponseStore(path.join(out, "responses.sqlite"));
}

for (const provider of Object.keys(MODELS) as Provider[]) {
  test(`${provider}: killed after the provider accepted the batch and before its id was stored, the restart finds that batch and submits nothing again`, async () => {
    const expected = await referenceScores(provider);
    const out = tmp();
    const created0 = server.batchStats.created.length;
    const killed = await cli(provider, out, "after-submit");
    assert.equal(killed.signal, "SIGKILL", killed.stderr);
    // The provider has the batch; the store has only the intent.
    const ours = server.batchStats.created.slice(created0);
    assert.equal(ours.length, 1);
    const keys = ours[0]!.customIds;
    assert.equal(keys.length, items.length);
    const store = openStore(out);
    const intents = store.intents(MODELS[provider]);
    assert.equal(intents.length, 1);
    assert.match(intents[0]!.intent, /^[0-9a-f]{16}$/);
    assert.deepEqual(intents[0]!.requests.map((r) => r.custom_id), keys);
    assert.deepEqual(store.batches(MODELS[provider], true), []);
    assert.equal(store.count(), 0);
    store.close();
    // The intent went with the batch where the API keeps it.
    if (provider === "openai") assert.deepEqual(ours[0]!.metadata, { spatialprobe_intent: intents[0]!.intent });
    if (provider === "gemini") assert.equal(ours[0]!.displayName, `spatialprobe-${intents[0]!.intent}`);

    await decoys(provider, keys.length);
    const lists0 = server.batchStats.lists[provider];
    const resumed = await cli(provider, out);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`batch ${ours[0]!.id.replace("/", "\\/")} \\(${MODELS[provider]}\\): found at the provider for intent ${intents[0]!.intent}`));
    // The listing was paged (2 per page, past 3 decoys).
    assert.ok(server.batchStats.lists[provider] - lists0 >= 2);
    // Nothing new was submitted: each request went in exactly one batch, ours.
    const since = server.batchStats.created.slice(created0);
    assert.equal(since.length, 1 + 3);
    for (const key of keys) assert.equal(since.filter((b) => b.customIds.includes(key)).length, 1);
    const after = openStore(out);
    assert.deepEqual(after.intents(MODELS[provider]), []);
    const recorded = after.batches(MODELS[provider], true);
    assert.deepEqual(recorded.map((b) => [b.id, b.collected, b.intent]), [[ours[0]!.id, true, intents[0]!.intent]]);
    assert.equal(after.count(), items.length);
    after.close();
    assert.deepEqual(scores(out), expected);
  });

  test(`${provider}: killed after writing the intent and before the submit call, the restart finds no batch and submits the requests once`, async () => {
    const expected = await referenceScores(provider);
    const out = tmp();
    const created0 = server.batchStats.created.length;
    const killed = await cli(provider, out, "before-submit");
    assert.equal(killed.signal, "SIGKILL", killed.stderr);
    assert.equal(server.batchStats.created.length, created0);
    const store = openStore(out);
    const [intent, ...more] = store.intents(MODELS[provider]);
    assert.equal(more.length, 0);
    store.close();

    const resumed = await cli(provider, out);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`intent ${intent!.intent} \\(${MODELS[provider]}\\): no batch of it at the provider; its ${items.length} requests are submitted again`));
    const since = server.batchStats.created.slice(created0);
    assert.equal(since.length, 1);
    assert.deepEqual([...since[0]!.customIds].sort(), intent!.requests.map((r) => r.custom_id).sort());
    assert.equal(new Set(since[0]!.customIds).size, items.length);
    const after = openStore(out);
    assert.deepEqual(after.intents(MODELS[provider]), []);
    assert.equal(after.batches(MODELS[provider], true).length, 1);
    assert.notEqual(after.batches(MODELS[provider], true)[0]!.intent, intent!.intent);
    assert.equal(after.count(), items.length);
    after.close();
    assert.deepEqual(scores(out), expected);
  });
}

for (const provider of Object.keys(MODELS) as Provider[]) {
  test(`${provider}: a create call whose reply is lost (the batch was made): the runner finds the batch by its intent and sends nothing again`, async () => {
    const expected = await referenceScores(provider);
    const out = tmp();
    const created0 = server.batchStats.created.length;
    planned.set(CREATE_ROUTES[provider], "lost");
    const run = await cli(provider, out);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(planned.size, 0, "the lost reply was used");
    const since = server.batchStats.created.slice(created0);
    assert.equal(since.length, 1, "one batch: the create call was not retried");
    assert.match(run.stderr, new RegExp(`batch ${since[0]!.id.replace("/", "\\/")} \\(${MODELS[provider]}\\): submitted ${items.length} requests \\(found at the provider after: [^)]*502`));
    assert.deepEqual(scores(out), expected);
  });

  test(`${provider}: a create call that fails before making anything (503): the listing shows no batch, and it is sent again once`, async () => {
    const expected = await referenceScores(provider);
    const out = tmp();
    const created0 = server.batchStats.created.length;
    planned.set(CREATE_ROUTES[provider], "fault");
    const run = await cli(provider, out);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(planned.size, 0, "the fault was used");
    const since = server.batchStats.created.slice(created0);
    assert.equal(since.length, 1);
    for (const key of since[0]!.customIds) assert.equal(since.filter((b) => b.customIds.includes(key)).length, 1);
    assert.equal(since[0]!.customIds.length, items.length);
    assert.deepEqual(scores(out), expected);
  });
}

test("a store written before intents existed opens, keeps its batches, and takes intents", () => {
  const file = path.join(tmp(), "old.sqlite");
  const db = new Database(file);
  db.exec("CREATE TABLE responses (key TEXT PRIMARY KEY, item_id TEXT NOT NULL, model TEXT NOT NULL, outcome TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)");
  db.exec("CREATE TABLE batches (id TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, state TEXT NOT NULL, requests TEXT NOT NULL, collected INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)");
  const requests = [{ key: "k", custom_id: "k", item_id: "i" }];
  db.prepare("INSERT INTO batches VALUES (?, ?, ?, ?, ?, 0, ?, ?)").run("msgbatch_old", "anthropic", "anthropic:x", "in_progress", JSON.stringify(requests), "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z");
  db.close();
  const store = new ResponseStore(file);
  assert.deepEqual(store.batches("anthropic:x"), [{ id: "msgbatch_old", provider: "anthropic", model: "anthropic:x", state: "in_progress", requests, collected: false, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" }]);
  store.saveIntent({ intent: "0123456789abcdef", provider: "anthropic", model: "anthropic:x", requests, created_at: "2026-01-02T00:00:00.000Z" });
  assert.equal(store.intents("anthropic:x").length, 1);
  // Recording the batch resolves the intent in the same transaction.
  store.saveBatch({ id: "msgbatch_new", provider: "anthropic", model: "anthropic:x", state: "in_progress", requests, collected: false, created_at: "2026-01-02T00:00:00.000Z", updated_at: "2026-01-02T00:00:00.000Z", intent: "0123456789abcdef" });
  assert.deepEqual(store.intents("anthropic:x"), []);
  assert.deepEqual(store.batches("anthropic:x").map((b) => [b.id, b.intent]), [["msgbatch_old", undefined], ["msgbatch_new", "0123456789abcdef"]]);
  assert.deepEqual([...store.batchIds()].sort(), ["msgbatch_new", "msgbatch_old"]);
  store.close();
  // And opens again (the migration is idempotent).
  new ResponseStore(file).close();
});

test("mock: OpenAI metadata is refused past 16 keys, 64-character keys, 512-character or non-string values; list limits are checked", async () => {
  const form = new FormData();
  form.append("purpose", "batch");
  form.append("file", new Blob([`${JSON.stringify({ custom_id: "m", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [] } })}\n`]), "m.jsonl");
  const file = (await (await fetch(`${server.url}/v1/files`, { method: "POST", body: form })).json()) as { id: string };
  const create = async (metadata: unknown) => {
    const res = await fetch(`${server.url}/v1/batches`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata }) });
    return { status: res.status, rule: server.batchStats.rejected.at(-1)?.rule };
  };
  const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
  assert.deepEqual(await create(seventeen), { status: 400, rule: "openai.batches.metadata" });
  const rejected0 = server.batchStats.rejected.length;
  assert.equal((await create({ a: "x".repeat(512), ["k".repeat(64)]: "v" })).status, 200);
  assert.equal(server.batchStats.rejected.length, rejected0);
  assert.deepEqual(await create({ a: "x".repeat(513) }), { status: 400, rule: "openai.batches.metadata" });
  assert.deepEqual(await create({ ["k".repeat(65)]: "v" }), { status: 400, rule: "openai.batches.metadata" });
  assert.deepEqual(await create({ n: 1 }), { status: 400, rule: "openai.batches.metadata" });
  for (const limit of ["0", "101", "x"]) assert.equal((await fetch(`${server.url}/v1/batches?limit=${limit}`)).status, 400);
  assert.equal((await fetch(`${server.url}/v1/messages/batches?limit=1001`)).status, 400);
  assert.equal((await fetch(`${server.url}/v1/messages/batches?after_id=a&before_id=b`)).status, 400);
  assert.equal((await fetch(`${server.url}/v1beta/batches?pageToken=bm9wZQ`)).status, 400);
  // Anthropic takes no field besides requests (no metadata on a message batch).
  const params = { model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
  const extra = await fetch(`${server.url}/v1/messages/batches`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ requests: [{ custom_id: "a", params }], metadata: { x: "y" } }) });
  assert.equal(extra.status, 400);
  assert.equal(server.batchStats.rejected.at(-1)?.rule, "anthropic.batches.extra_field");
});
