import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { createRng } from "../../src/stats/rng.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, itemSignature, replyTable, requestSignature } from "../helpers/egopath-replies.js";
import { cli, exited, freshSchema, sleep, storedReplies, waitForRun, type Exit } from "./helpers.js";

/**
 * A queued run (run --queue + worker processes, PostgreSQL) against the mock gives the scores of a
 * local run of the same command; workers killed with SIGKILL lose nothing and repeat nothing
 * beyond the requests they had in flight.
 */

const items = exampleItems();
const table = replyTable(items);
const itemOfSignature = new Map(items.map((item) => [itemSignature(item), item.id]));
/** Requests the mock has received per item id (counted when each request arrives). */
const asked = new Map<string, number>();
let server: MockServer;
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-"));
const ENV = { OPENAI_API_KEY: "sk-queue-test" };

before(async () => {
  server = await startMockServer({
    latencyMs: 150,
    reply: (req) => table.get(requestSignature(req)) ?? "no match",
    faults: (req) => {
      const id = itemOfSignature.get(requestSignature(req)) ?? "?";
      asked.set(id, (asked.get(id) ?? 0) + 1);
      return undefined;
    },
  });
});
after(() => server.close());

function runArgs(out: string): string[] {
  return ["run", "egopath", "--data", EXAMPLE, "--model", "openai:mock-vlm", "--base-url", `${server.url}/v1`, "--concurrency", "4", "--bootstrap", "300", "--out", out];
}

/**
 * scores.json without the fields that differ by nature between two runs of the same command: when
 * it was written (created_at), the measured request latencies (usage.latency_ms), and the requests
 * the scoring process itself sent per endpoint (traffic.endpoints[].requests, ok, failures,
 * cool_downs: the workers sent a queued run's, as a resumed local run's were sent before; the
 * endpoint URLs and the concurrency stay). Everything else (scores, counts, tokens, settings,
 * endpoint, data path) must be equal.
 */
function comparableScores(out: string): Record<string, unknown> {
  const { created_at: _t, usage, traffic, ...rest } = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  const { latency_ms: _l, ...tokens } = usage;
  const endpoints = traffic?.endpoints?.map((e: { url: string }) => e.url);
  return { ...rest, usage: tokens, traffic: { endpoints, concurrency: traffic?.concurrency } };
}

/** items.jsonl rows without their latency and whether the reply came from the store (every one does in a queued run). */
function comparableItems(out: string): unknown[] {
  return readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((line) => {
    const row = JSON.parse(line);
    const { latency_ms: _l, cached: _c, ...response } = row.response;
    return { ...row, response };
  });
}

let reference: string;

async function localReference(): Promise<string> {
  if (!reference) {
    reference = path.join(tmp, "local");
    const run = await exited(cli(runArgs(reference), ENV));
    assert.equal(run.code, 0, run.stderr);
  }
  return reference;
}

function worker(url: string, extra: string[] = []) {
  return cli(["worker", "--queue", url, "--concurrency", "2", "--lease", "2", ...extra], ENV);
}

test("a queued run answered by 4 worker processes: the same scores.json and items.jsonl as a local run", async () => {
  const local = await localReference();
  const db = await freshSchema();
  try {
    const out = path.join(tmp, "queued");
    const before = server.stats.requests;
    const coordinator = exited(cli([...runArgs(out), "--queue", db.url, "--no-work"], ENV));
    await waitForRun(db.pool);
    const workers = Array.from({ length: 4 }, () => exited(worker(db.url, ["--exit-when-idle"])));
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    const ends = await Promise.all(workers);
    for (const end of ends) assert.equal(end.code, 0, end.stderr);
    // Every item asked once, by the workers (none by the coordinator: --no-work, and its scoring pass reads the store).
    assert.equal(server.stats.requests - before, items.length);
    const answered = ends.map((end) => Number(/(\d+) items answered/.exec(end.stderr)?.[1]));
    assert.equal(answered.reduce((a, b) => a + b, 0), items.length);
    assert.ok(answered.filter((n) => n > 0).length >= 2, `work was shared: ${answered.join(", ")}`);
    assert.deepEqual(comparableScores(out), comparableScores(local));
    assert.deepEqual(comparableItems(out), comparableItems(local));

    // The same command again attaches to the finished run: nothing is asked, the outputs are the same.
    const again = await exited(cli([...runArgs(path.join(tmp, "queued-again")), "--queue", db.url, "--no-work"], ENV));
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /attached to run [0-9a-f]{16} \(53 items\)/);
    assert.equal(server.stats.requests - before, items.length);
    assert.deepEqual(comparableScores(path.join(tmp, "queued-again")), comparableScores(local));
  } finally {
    await db.drop();
  }
});

test("kill -9 of random workers at random moments, then new workers: every item done, nothing asked twice beyond what was in flight", async () => {
  const local = await localReference();
  const db = await freshSchema();
  const rng = createRng(20261202);
  try {
    const out = path.join(tmp, "killed");
    asked.clear();
    const coordinator = exited(cli([...runArgs(out), "--queue", db.url, "--no-work"], ENV));
    const runId = await waitForRun(db.pool);
    const first = Array.from({ length: 3 }, () => {
      const child = worker(db.url);
      return { child, exit: exited(child) };
    });
    // Until the first reply is stored (the workers are up and answering).
    let stored = 0;
    for (let i = 0; i < 2400 && stored === 0; i++) {
      stored = await storedReplies(db.pool);
      if (stored === 0) await sleep(25);
    }
    assert.ok(stored > 0 && stored < items.length, `the kills come mid-run (${stored} replies stored)`);
    // Items each kill left in flight: claimed by the killed worker, its request received by the mock, no reply stored.
    const lostInFlight = new Map<string, number>();
    let kills = 0;
    for (const victim of rng.shuffle(first).slice(0, 2)) {
      await sleep(rng.int(100, 400));
      const pid = victim.child.pid!;
      victim.child.kill("SIGKILL");
      const end: Exit = await victim.exit;
      assert.equal(end.signal, "SIGKILL");
      kills++;
      const { rows } = await db.pool.query<{ item_id: string }>(
        `SELECT w.item_id FROM work_items w WHERE w.run_id = $1 AND w.state = 'claimed' AND w.claimed_by LIKE $2
           AND NOT EXISTS (SELECT 1 FROM responses r WHERE r.item_id = w.item_id)`,
        [runId, `%:${pid}:%`],
      );
      for (const { item_id } of rows) if ((asked.get(item_id) ?? 0) > 0) lostInFlight.set(item_id, (lostInFlight.get(item_id) ?? 0) + 1);
    }
    assert.equal(kills, 2);
    // The third first-generation worker keeps going; two new ones join and stay until nothing is left.
    const fresh = Array.from({ length: 2 }, () => exited(worker(db.url, ["--exit-when-idle"])));
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    for (const end of await Promise.all(fresh)) assert.equal(end.code, 0, end.stderr);
    const survivor = first.find((w) => w.child.exitCode === null && w.child.signalCode === null);
    survivor?.child.kill("SIGTERM");
    if (survivor) assert.equal((await survivor.exit).code, 130);

    const { rows: states } = await db.pool.query<{ state: string; n: string }>("SELECT state, COUNT(*) AS n FROM work_items GROUP BY state");
    assert.deepEqual(states.map((r) => [r.state, Number(r.n)]), [["done", items.length]]);
    for (const item of items) {
      const times = asked.get(item.id) ?? 0;
      assert.ok(times >= 1 && times <= 1 + (lostInFlight.get(item.id) ?? 0), `${item.id} asked ${times} times, in flight at ${lostInFlight.get(item.id) ?? 0} kills`);
    }
    const total = [...asked.values()].reduce((a, b) => a + b, 0);
    const allowed = [...lostInFlight.values()].reduce((a, b) => a + b, 0);
    assert.ok(total <= items.length + allowed, `${total} requests for ${items.length} items, ${allowed} in flight at the kills`);
    assert.deepEqual(comparableScores(out), comparableScores(local));
  } finally {
    await db.drop();
  }
});

/**
 * A TCP relay to the queue server whose open connections the test can cut at once. With
 * `loseReplyTo`, the first statement containing that text reaches the server, but its reply never
 * comes back: the connection is cut once the server has had time to carry it out.
 */
async function cuttableRelay(target: URL, loseReplyTo?: string): Promise<{ port: number; cut(): number; lost(): boolean; close(): Promise<void> }> {
  const open = new Set<net.Socket>();
  let lost = false;
  const relay = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    let swallowReplies = false;
    for (const [a, b] of [[client, server], [server, client]] as const) {
      open.add(a);
      a.on("error", () => b.destroy());
      a.on("close", () => { open.delete(a); b.destroy(); });
      a.on("data", (chunk: Buffer) => {
        if (a === server && swallowReplies) return;
        if (a === client && loseReplyTo && !lost && chunk.includes(loseReplyTo)) {
          lost = swallowReplies = true;
          setTimeout(() => { server.destroy(); client.destroy(); }, 300);
        }
        b.write(chunk);
      });
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    port: (relay.address() as net.AddressInfo).port,
    cut: () => {
      const n = open.size;
      for (const socket of open) socket.destroy();
      return n;
    },
    lost: () => lost,
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

test("a worker whose connections to the queue server are cut mid-run pauses, hands back what it held and finishes the run", async () => {
  const local = await localReference();
  const db = await freshSchema();
  const relay = await cuttableRelay(new URL(db.url));
  let coordinatorChild: ReturnType<typeof cli> | undefined;
  try {
    const out = path.join(tmp, "cut");
    const before = server.stats.requests;
    coordinatorChild = cli([...runArgs(out), "--queue", db.url, "--no-work"], ENV);
    const coordinator = exited(coordinatorChild);
    await waitForRun(db.pool);
    const through = new URL(db.url);
    through.port = String(relay.port);
    const workerChild = worker(through.toString(), ["--exit-when-idle"]);
    let said = "";
    workerChild.stderr!.on("data", (d) => (said += d));
    const child = exited(workerChild);
    let stored = 0;
    for (let i = 0; i < 2400 && stored === 0; i++) {
      stored = await storedReplies(db.pool);
      if (stored === 0) await sleep(25);
    }
    assert.ok(stored > 0 && stored < items.length, `the cuts come mid-run (${stored} replies stored)`);
    // Cut until a cut meets a statement in flight (one that meets only idle connections costs the
    // worker nothing to notice) and the worker says it will try again.
    let cuts = 0;
    for (; cuts < 100 && !/trying again/.test(said) && workerChild.exitCode === null; cuts++) {
      relay.cut();
      await sleep(100);
    }
    assert.match(said, /(Connection terminated|ECONNRESET|not queryable)[^\n]*; trying again in 1 s/);
    // The worker first: one that stops on the cut leaves the coordinator waiting for ever.
    const end = await child;
    assert.equal(end.code, 0, end.stderr);
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    const { rows: states } = await db.pool.query<{ state: string; n: string }>("SELECT state, COUNT(*) AS n FROM work_items GROUP BY state");
    assert.deepEqual(states.map((r) => [r.state, Number(r.n)]), [["done", items.length]]);
    // A request a cut interrupted may be asked again (its reply was not stored): at most the two in flight per cut.
    assert.ok(server.stats.requests - before <= items.length + 2 * cuts, `${server.stats.requests - before} requests for ${items.length} items, ${cuts} cuts`);
    assert.deepEqual(comparableScores(out), comparableScores(local));
  } finally {
    coordinatorChild?.kill("SIGKILL");
    await relay.close();
    await db.drop();
  }
});

test("a claim the server made whose reply a cut lost goes back to the queue, and the run finishes", { timeout: 180_000 }, async () => {
  const local = await localReference();
  const db = await freshSchema();
  const relay = await cuttableRelay(new URL(db.url), "FOR UPDATE SKIP LOCKED");
  let coordinatorChild: ReturnType<typeof cli> | undefined;
  try {
    const out = path.join(tmp, "lost-claim");
    coordinatorChild = cli([...runArgs(out), "--queue", db.url, "--no-work"], ENV);
    const coordinator = exited(coordinatorChild);
    await waitForRun(db.pool);
    const through = new URL(db.url);
    through.port = String(relay.port);
    // One slot: the lost claim is the only one, and nothing else holds it.
    const workerChild = cli(["worker", "--queue", through.toString(), "--concurrency", "1", "--lease", "60", "--exit-when-idle"], ENV);
    const end = await exited(workerChild);
    assert.equal(relay.lost(), true, "the first claim's reply was lost");
    assert.equal(end.code, 0, end.stderr);
    assert.match(end.stderr, /claiming work: [^\n]*; trying again in 1 s/);
    assert.match(end.stderr, /handed back 1 claim\(s\) whose answer the lost connection took/);
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(comparableScores(out), comparableScores(local));
  } finally {
    coordinatorChild?.kill("SIGKILL");
    await relay.close();
    await db.drop();
  }
});

test("without --no-work the coordinator answers the run itself when no worker comes", async () => {
  const local = await localReference();
  const db = await freshSchema();
  try {
    const out = path.join(tmp, "alone");
    const before = server.stats.requests;
    const run = await exited(cli([...runArgs(out), "--queue", db.url], ENV));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /enqueued run [0-9a-f]{16} \(53 items\)/);
    assert.match(run.stderr, /53\/53 done · 0 in flight · 0 pending · 0 errors/);
    assert.equal(server.stats.requests - before, items.length);
    assert.deepEqual(comparableScores(out), comparableScores(local));
  } finally {
    await db.drop();
  }
});
