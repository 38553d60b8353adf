import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startMockServer, type MockRequest, type MockServer } from "../helpers/mock-server.js";
import { cli, exited, freshSchema, sleep, storedReplies, waitForRun } from "./helpers.js";

/**
 * `navigate vcn --queue` with worker processes (PostgreSQL) against the mock OpenAI server: the
 * run folder equals a local navigate's (files byte for byte, bar the fields that depend on when it
 * ran), and a worker killed with SIGKILL in the middle of an episode loses nothing: a new worker
 * runs the episode again from its stored replies and asks only what was in flight.
 */

const DATA = path.resolve(import.meta.dirname, "../../examples/vcn-mini");
const ENV = { OPENAI_API_KEY: "sk-navigate-queue-test" };
/** 3 episodes of 5 decisions each (four FORWARDs, then STOP). */
const EPISODES = 3;
const DECISIONS = 5;

/** The mock model's policy: FORWARD until the prompt says four actions were taken, then STOP; frame 3 named throughout. */
function navReply(req: MockRequest): string {
  const taken = /Your four views now, after (\d+) of at most/.exec(req.texts.join("\n"));
  const step = taken ? Number(taken[1]) : -1;
  return JSON.stringify({ frame: 3, action: step >= 4 ? "STOP" : "FORWARD" });
}

let server: MockServer;
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-nav-"));

before(async () => {
  server = await startMockServer({ latencyMs: 150, strict: true, reply: navReply });
});
after(() => server.close());

function navigateArgs(out: string): string[] {
  return ["navigate", "vcn", "--data", DATA, "--model", "openai:mock-nav", "--base-url", `${server.url}/v1`, "--limit", String(EPISODES), "--history", "2", "--prior-frames", "10", "--concurrency", "2", "--out", out];
}

/** Every file of a run folder (relative paths), but the local run's SQLite store (a queued run's replies are on the server). */
function filesOf(out: string, dir = ""): string[] {
  return readdirSync(path.join(out, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(out, rel)).isDirectory()) return filesOf(out, rel);
    return rel.startsWith("responses.sqlite") ? [] : [rel];
  }).sort();
}

/** episodes.jsonl without what depends on when and how it ran: wall_ms, and per decision latency_ms and cached (whether the reply came from the store). */
function comparableEpisodes(out: string): unknown[] {
  return readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => {
    const { wall_ms: _w, ...record } = JSON.parse(line);
    return { ...record, decisions: record.decisions.map(({ latency_ms: _l, cached: _c, ...d }: Record<string, unknown>) => d) };
  });
}

/** scores.json without created_at (when it was written); `usage` is kept or dropped by the caller. */
function scoresOf(out: string): Record<string, unknown> {
  const { created_at: _t, ...rest } = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  return rest;
}

let reference: string | undefined;
async function localReference(): Promise<string> {
  if (!reference) {
    const out = path.join(tmp, "local");
    const run = await exited(cli([...navigateArgs(out), "--quiet"], ENV));
    assert.equal(run.code, 0, run.stderr);
    reference = out;
  }
  return reference;
}

/**
 * The lease of the workers that should not lose their episodes. It must outlast the longest
 * stretch the simulator holds the CPU without a break (loading a house takes seconds on a loaded
 * machine), since the heartbeat runs on the same event loop.
 */
const LEASE = 20;

function worker(url: string, extra: string[] = [], lease = 2) {
  return cli(["worker", "--queue", url, "--concurrency", "1", "--lease", String(lease), ...extra], ENV);
}

test("navigate --queue with 3 worker processes: the run folder a local navigate writes, every decision asked once, leases renewed through long episodes", async () => {
  const local = await localReference();
  const db = await freshSchema();
  try {
    const out = path.join(tmp, "queued");
    const before = server.stats.requests;
    const coordinator = exited(cli([...navigateArgs(out), "--queue", db.url, "--no-work"], ENV));
    const runId = await waitForRun(db.pool);
    const workers = Array.from({ length: 3 }, () => exited(worker(db.url, ["--exit-when-idle"], LEASE)));
    // The longest lease seen on a claimed episode, counted from its claim: above LEASE once the heartbeat renewed it.
    let longestLease = 0;
    let running = true;
    const watching = (async () => {
      while (running) {
        const { rows } = await db.pool.query<{ s: number | null }>("SELECT MAX(EXTRACT(EPOCH FROM lease_until - started_at))::float8 AS s FROM work_items WHERE state = 'claimed'");
        longestLease = Math.max(longestLease, rows[0]?.s ?? 0);
        await sleep(250);
      }
    })();
    const run = await coordinator;
    running = false;
    await watching;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`enqueued run ${runId} \\(3 episodes\\)`));
    assert.match(run.stderr, new RegExp(`\\[queue ${runId} vcn navigate openai:mock-nav\\] 3/3 done · 0 in flight · 0 pending · 0 errors`));
    const ends = await Promise.all(workers);
    for (const end of ends) assert.equal(end.code, 0, end.stderr);
    // Every decision asked once, all by the workers.
    assert.equal(server.stats.requests - before, EPISODES * DECISIONS);
    // Each episode claimed once; one that ran for more than twice the lease had its lease renewed by the heartbeat.
    const { rows } = await db.pool.query<{ attempts: number }>("SELECT attempts FROM work_items WHERE run_id = $1 ORDER BY idx", [runId]);
    assert.deepEqual(rows.map((r) => r.attempts), [1, 1, 1]);
    const walls = readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).wall_ms as number);
    if (Math.max(...walls) > 2 * LEASE * 1000) assert.ok(longestLease > LEASE, `lease renewed (longest ${longestLease} s, episodes ${walls.join(", ")} ms)`);

    // The same files; all but episodes.jsonl and scores.json byte for byte (views, top-down pictures, report.md, navigate.json).
    assert.deepEqual(filesOf(out), filesOf(local));
    for (const file of filesOf(local).filter((f) => f !== "episodes.jsonl" && f !== "scores.json")) {
      assert.ok(readFileSync(path.join(out, file)).equals(readFileSync(path.join(local, file))), `${file} differs`);
    }
    assert.deepEqual(comparableEpisodes(out), comparableEpisodes(local));
    // usage included: 15 decisions, 15 requests, none reused, the same tokens.
    assert.deepEqual(scoresOf(out), scoresOf(local));

    // status shows the navigation run.
    const status = await exited(cli(["status", "--queue", db.url, "--json"]));
    assert.equal(status.code, 0, status.stderr);
    const [shown] = JSON.parse(status.stdout).runs;
    assert.deepEqual({ kind: shown.kind, benchmark: shown.benchmark, total: shown.total, done: shown.done, errors: shown.errors }, { kind: "navigation", benchmark: "vcn", total: 3, done: 3, errors: 0 });

    // The same command again attaches to the finished run: nothing asked, the same outputs.
    const again = path.join(tmp, "queued-again");
    const second = await exited(cli([...navigateArgs(again), "--queue", db.url, "--no-work"], ENV));
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`attached to run ${runId} \\(3 episodes\\)`));
    assert.equal(server.stats.requests - before, EPISODES * DECISIONS);
    assert.deepEqual(comparableEpisodes(again), comparableEpisodes(local));
    assert.deepEqual(scoresOf(again), scoresOf(local));
  } finally {
    await db.drop();
  }
});

test("kill -9 of a worker in the middle of an episode, then a new worker: the episode completes from its stored replies, only the request in flight is asked again", async () => {
  const local = await localReference();
  const db = await freshSchema();
  try {
    const out = path.join(tmp, "killed");
    const before = server.stats.requests;
    const coordinator = exited(cli([...navigateArgs(out), "--queue", db.url, "--no-work", "--quiet"], ENV));
    const runId = await waitForRun(db.pool);
    const victim = worker(db.url);
    const victimExit = exited(victim);
    // Seven replies stored: the first episode is done, the second two decisions in (one slot: episodes in queue order).
    for (let i = 0; i < 6000 && (await storedReplies(db.pool)) < DECISIONS + 2; i++) await sleep(20);
    victim.kill("SIGKILL");
    assert.equal((await victimExit).signal, "SIGKILL");
    const stored = await storedReplies(db.pool);
    const received = server.stats.requests - before;
    const inFlight = received - stored;
    assert.ok(stored >= DECISIONS + 2 && stored < 2 * DECISIONS, `killed mid-episode (${stored} replies stored)`);
    assert.ok(inFlight === 0 || inFlight === 1, `${inFlight} requests in flight at the kill`);
    const { rows: states } = await db.pool.query<{ state: string }>("SELECT state FROM work_items WHERE run_id = $1 ORDER BY idx", [runId]);
    assert.deepEqual(states.map((r) => r.state), ["done", "claimed", "pending"]);

    const fresh = await exited(worker(db.url, ["--exit-when-idle"]));
    assert.equal(fresh.code, 0, fresh.stderr);
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    // Nothing asked twice beyond the request in flight at the kill.
    assert.equal(server.stats.requests - before, EPISODES * DECISIONS + inFlight);
    const { rows: attempts } = await db.pool.query<{ attempts: number }>("SELECT attempts FROM work_items WHERE run_id = $1 ORDER BY idx", [runId]);
    assert.deepEqual(attempts.map((r) => r.attempts), [1, 2, 1]);

    // The interrupted episode's earlier decisions came from the store.
    const second = JSON.parse(readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n")[1]!);
    const reusedCount = stored - DECISIONS;
    assert.deepEqual(second.decisions.map((d: { cached: boolean }) => d.cached), Array.from({ length: DECISIONS }, (_, k) => k < reusedCount));
    assert.deepEqual(comparableEpisodes(out), comparableEpisodes(local));
    const { usage, ...scores } = scoresOf(out);
    const { usage: localUsage, ...localScores } = scoresOf(local);
    assert.deepEqual(scores, localScores);
    assert.deepEqual(usage, { ...(localUsage as object), requests: EPISODES * DECISIONS - reusedCount, reused: reusedCount });
  } finally {
    await db.drop();
  }
});

test("navigate --queue refuses --bridge and --store", async () => {
  const db = await freshSchema();
  try {
    const bridge = await exited(cli([...navigateArgs(path.join(tmp, "bridge")), "--queue", db.url, "--bridge", "http://127.0.0.1:9"], ENV));
    assert.equal(bridge.code, 2, bridge.stderr);
    assert.match(bridge.stderr, /--bridge cannot be used with it/);
    const store = await exited(cli([...navigateArgs(path.join(tmp, "store")), "--queue", db.url, "--store", path.join(tmp, "x.sqlite")], ENV));
    assert.equal(store.code, 2, store.stderr);
    assert.match(store.stderr, /--store is not used with --queue/);
  } finally {
    await db.drop();
  }
});
