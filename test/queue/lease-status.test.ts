import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { claimItems, completeItem, enqueueRun, heldItems, liveWorkers, openItems, registerWorker, releaseHeld, releaseItems, renewLeases, runStatuses } from "../../src/queue/queue.js";
import { ensureSchema } from "../../src/queue/schema.js";
import type { RunSpec } from "../../src/queue/spec.js";
import { PostgresStore } from "../../src/store/postgres.js";
import type { ModelResponse } from "../../src/core/types.js";
import { cli, exited, freshSchema } from "./helpers.js";

/** The queue's statements against the real server: claims, leases, completion, status counts, the store. */

let db: Awaited<ReturnType<typeof freshSchema>>;
before(async () => {
  db = await freshSchema();
  await ensureSchema(db.pool);
});
after(() => db.drop());

const SPEC: RunSpec = { version: 1, benchmark: "egopath", benchmarkOptions: {}, data: "/data/egopath", model: "openai:mock-vlm", settings: {}, promptSource: "release", control: "none", seed: 1, retryErrors: false };
const IDS = Array.from({ length: 10 }, (_, i) => `q${i}`);

test("leases: claims skip each other, an expired lease returns the items, status counts them exactly", async () => {
  assert.equal(await enqueueRun(db.pool, "run-a", SPEC, IDS), true);
  assert.equal(await enqueueRun(db.pool, "run-a", SPEC, IDS), false, "enqueueing the same run again adds nothing");
  await registerWorker(db.pool, "A", 4, 60);
  await registerWorker(db.pool, "B", 2, 30);

  const a = await claimItems(db.pool, "A", 60, 4);
  assert.deepEqual(a.map((c) => [c.index, c.itemId, c.attempts]), [[0, "q0", 1], [1, "q1", 1], [2, "q2", 1], [3, "q3", 1]]);
  const b = await claimItems(db.pool, "B", 30, 2);
  assert.deepEqual(b.map((c) => c.index), [4, 5]);
  await completeItem(db.pool, "run-a", 4, false);
  await completeItem(db.pool, "run-a", 5, true);

  const [live] = await runStatuses(db.pool);
  assert.deepEqual({ ...live, createdAt: undefined }, { runId: "run-a", kind: "run", benchmark: "egopath", model: "openai:mock-vlm", createdAt: undefined, total: 10, done: 2, inFlight: 4, pending: 4, errors: 1, held: 0, workers: 1, lastMinute: 2 });

  // The table `status` prints, from another process.
  const shown = await exited(cli(["status", "--queue", db.url]));
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(
    shown.stdout,
    [
      "run    benchmark  model            total  done  in flight  pending  errors  workers  rate/min",
      "run-a  egopath    openai:mock-vlm     10     2          4        4       1        1         2",
      "live workers: 2 (" + (await liveWorkers(db.pool)).map((w) => `${w.host}:${w.pid} x${w.concurrency}`).join(", ") + ")",
      "",
    ].join("\n"),
  );

  // A dies: no heartbeat for longer than its 60 s lease, which is what moving its last heartbeat
  // (last_seen, and the lease it set) 61 s into the past stands for. Its four items are claimable again.
  await db.pool.query("UPDATE workers SET last_seen = last_seen - interval '61 seconds' WHERE id = 'A'");
  await db.pool.query("UPDATE work_items SET lease_until = lease_until - interval '61 seconds' WHERE claimed_by = 'A'");
  const [expired] = await runStatuses(db.pool);
  assert.deepEqual([expired!.done, expired!.inFlight, expired!.pending, expired!.workers], [2, 0, 8, 0]);
  assert.deepEqual((await liveWorkers(db.pool)).map((w) => w.id), ["B"]);
  const again = await claimItems(db.pool, "B", 30, 10);
  assert.deepEqual(again.map((c) => [c.index, c.attempts]), [[0, 2], [1, 2], [2, 2], [3, 2], [6, 1], [7, 1], [8, 1], [9, 1]]);
  assert.deepEqual(await claimItems(db.pool, "A", 60, 10), [], "nothing is left to claim");

  // A heartbeat keeps B's leases alive; a clean stop gives them back.
  await renewLeases(db.pool, "B", 30);
  await releaseItems(db.pool, "B", [{ runId: "run-a", index: 9 }]);
  const [released] = await runStatuses(db.pool);
  assert.deepEqual([released!.inFlight, released!.pending], [7, 1]);
  await releaseItems(db.pool, "B");
  const [all] = await runStatuses(db.pool);
  assert.deepEqual([all!.inFlight, all!.pending], [0, 8]);
});

test("held items (a --max-cost run) are not claimable nor open until released; status counts them", async () => {
  await enqueueRun(db.pool, "run-h", SPEC, ["h0", "h1", "h2", "h3"], true);
  assert.deepEqual(await claimItems(db.pool, "H", 30, 10, { onlyRun: "run-h" }), []);
  assert.equal(await openItems(db.pool, { onlyRun: "run-h" }), 0);
  assert.equal(await heldItems(db.pool, { onlyRun: "run-h" }), 4);
  await releaseHeld(db.pool, "run-h", [0, 2]);
  assert.deepEqual((await claimItems(db.pool, "H", 30, 10, { onlyRun: "run-h" })).map((c) => c.itemId), ["h0", "h2"]);
  await completeItem(db.pool, "run-h", 0, false);
  // Releasing again leaves claimed and done items as they are.
  await releaseHeld(db.pool, "run-h", [0, 1, 2]);
  const [status] = await runStatuses(db.pool, "run-h");
  assert.deepEqual([status!.done, status!.inFlight, status!.pending, status!.held], [1, 1, 1, 1]);
  assert.equal(await openItems(db.pool, { onlyRun: "run-h" }), 2);
});

test("a queue made before held items existed gets the wider state check", async () => {
  const old = await freshSchema();
  try {
    await ensureSchema(old.pool);
    await old.pool.query("ALTER TABLE work_items DROP CONSTRAINT work_items_state_check");
    await old.pool.query("ALTER TABLE work_items ADD CONSTRAINT work_items_state_check CHECK (state IN ('pending', 'claimed', 'done'))");
    await assert.rejects(enqueueRun(old.pool, "run-old", SPEC, ["x"], true), /work_items_state_check/);
    await ensureSchema(old.pool);
    assert.equal(await enqueueRun(old.pool, "run-old", SPEC, ["x"], true), true);
    assert.equal(await heldItems(old.pool), 1);
  } finally {
    await old.drop();
  }
});

test("concurrent claims never hand out the same item (FOR UPDATE SKIP LOCKED)", async () => {
  const ids = Array.from({ length: 30 }, (_, i) => `c${i}`);
  await enqueueRun(db.pool, "run-c", SPEC, ids);
  const claims = await Promise.all(Array.from({ length: 15 }, (_, w) => claimItems(db.pool, `W${w}`, 30, 2, { onlyRun: "run-c" })));
  const indices = claims.flat().map((c) => c.index).sort((x, y) => x - y);
  assert.deepEqual(indices, Array.from({ length: 30 }, (_, i) => i));
});

test("the PostgreSQL store keeps the SQLite store's contract: get by key, put replaces", async () => {
  const store = new PostgresStore(db.pool);
  const reply: ModelResponse = { outcome: "ok", text: '{"display_ids":[3]}', latencyMs: 12.5, attempts: 1, usage: { inputTokens: 10, outputTokens: 4 } } as ModelResponse;
  assert.equal(await store.get("k1"), undefined);
  await store.put("k1", "item-1", "openai:m", reply);
  assert.deepEqual(await store.get("k1"), reply);
  const error: ModelResponse = { outcome: "error", text: "", latencyMs: 0, attempts: 6, error: { kind: "http", status: 503, message: "HTTP 503" } };
  await store.put("k1", "item-1", "openai:m", error);
  assert.deepEqual(await store.get("k1"), error);
  assert.equal(await store.count(), 1);
  const { rows } = await db.pool.query("SELECT item_id, model, outcome FROM responses WHERE key = 'k1'");
  assert.deepEqual(rows, [{ item_id: "item-1", model: "openai:m", outcome: "error" }]);
});
