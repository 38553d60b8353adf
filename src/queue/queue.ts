import os from "node:os";
import type pg from "pg";
import { isGenerateSpec, isNavigationSpec, type QueuedSpec } from "./spec.js";

/**
 * The work queue's statements (docs/queue.md). Claims use FOR UPDATE SKIP LOCKED inside one
 * statement (one transaction), so two workers never claim the same row, and a claim whose lease
 * ran out is claimable again. Times are the server's clock (now()), never a worker's.
 */

export interface ClaimedItem {
  runId: string;
  index: number;
  itemId: string;
  attempts: number;
}

/**
 * Enqueue a run and its items unless a run with this id exists; true when this call created it.
 * `held`: the items start held (not claimable) until releaseHeld lets them go (a --max-cost run).
 */
export async function enqueueRun(pool: pg.Pool, runId: string, spec: QueuedSpec, itemIds: readonly string[], held = false): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // A second coordinator inserting the same id waits here for the first to commit, then inserts nothing.
    const inserted = await client.query(
      "INSERT INTO runs (id, kind, benchmark, model, n_items, spec) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
      [runId, isNavigationSpec(spec) ? "navigation" : isGenerateSpec(spec) ? "generate" : "run", spec.benchmark, spec.model, itemIds.length, JSON.stringify(spec)],
    );
    if (inserted.rowCount === 1) {
      await client.query(
        "INSERT INTO work_items (run_id, idx, item_id, state) SELECT $1, t.idx - 1, t.item_id, $3 FROM unnest($2::text[]) WITH ORDINALITY AS t(item_id, idx) ORDER BY t.idx",
        [runId, itemIds, held ? "held" : "pending"],
      );
    }
    await client.query("COMMIT");
    return inserted.rowCount === 1;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Held items of a run become claimable (those already released or done are left as they are). */
export async function releaseHeld(pool: pg.Pool, runId: string, indices: readonly number[]): Promise<void> {
  await pool.query("UPDATE work_items SET state = 'pending' WHERE run_id = $1 AND idx = ANY($2::int[]) AND state = 'held'", [runId, indices]);
}

export async function runSpec(pool: pg.Pool, runId: string): Promise<{ spec: QueuedSpec; itemIds: string[] } | undefined> {
  const run = await pool.query<{ spec: QueuedSpec }>("SELECT spec FROM runs WHERE id = $1", [runId]);
  if (!run.rows[0]) return undefined;
  const items = await pool.query<{ item_id: string }>("SELECT item_id FROM work_items WHERE run_id = $1 ORDER BY idx", [runId]);
  return { spec: run.rows[0].spec, itemIds: items.rows.map((r) => r.item_id) };
}

/**
 * Claim up to `limit` items, oldest first: pending ones, or claimed ones whose lease has expired (a
 * worker that died). `onlyRun` restricts to one run; `excluded` runs (this worker cannot rebuild
 * them) are skipped.
 */
export async function claimItems(pool: pg.Pool, workerId: string, leaseSeconds: number, limit: number, options: { onlyRun?: string; excluded?: readonly string[] } = {}): Promise<ClaimedItem[]> {
  const { rows } = await pool.query<{ id: string; run_id: string; idx: number; item_id: string; attempts: number }>(
    `WITH picked AS (
       SELECT id FROM work_items
       WHERE (state = 'pending' OR (state = 'claimed' AND lease_until < now()))
         AND ($4::text IS NULL OR run_id = $4)
         AND NOT (run_id = ANY($5::text[]))
       ORDER BY id
       LIMIT $3
       FOR UPDATE SKIP LOCKED
     )
     UPDATE work_items w
        SET state = 'claimed', claimed_by = $1, lease_until = now() + make_interval(secs => $2),
            attempts = w.attempts + 1, started_at = now()
       FROM picked WHERE w.id = picked.id
     RETURNING w.id, w.run_id, w.idx, w.item_id, w.attempts`,
    [workerId, leaseSeconds, limit, options.onlyRun ?? null, options.excluded ?? []],
  );
  // RETURNING follows no order: hand the claims back in queue order.
  return rows
    .map((r) => ({ runId: r.run_id, index: r.idx, itemId: r.item_id, attempts: r.attempts, id: Number(r.id) }))
    .sort((x, y) => x.id - y.id)
    .map(({ id: _id, ...claim }) => claim);
}

/** Done: written after the item's reply is in the store (so a worker killed before this leaves a reply the next claimer reuses). */
export async function completeItem(pool: pg.Pool, runId: string, index: number, error: boolean): Promise<void> {
  await pool.query("UPDATE work_items SET state = 'done', error = $3, lease_until = NULL, finished_at = now() WHERE run_id = $1 AND idx = $2 AND state <> 'done'", [runId, index, error]);
}

/** Give claimed items back (a worker stopping cleanly, or one that cannot rebuild their run). */
export async function releaseItems(pool: pg.Pool, workerId: string, items?: ReadonlyArray<Pick<ClaimedItem, "runId" | "index">>): Promise<void> {
  if (items) {
    for (const item of items) {
      await pool.query("UPDATE work_items SET state = 'pending', claimed_by = NULL, lease_until = NULL WHERE run_id = $1 AND idx = $2 AND state = 'claimed' AND claimed_by = $3", [item.runId, item.index, workerId]);
    }
    return;
  }
  await releaseClaimsExcept(pool, workerId, []);
}

/**
 * Give back this worker's claims other than `held` (all of them when it is empty): a claim the
 * server made but whose answer a lost connection never brought back would otherwise be renewed
 * by the heartbeat for ever.
 */
export async function releaseClaimsExcept(pool: pg.Pool, workerId: string, held: ReadonlyArray<Pick<ClaimedItem, "runId" | "index">>): Promise<number> {
  const { rowCount } = await pool.query(
    "UPDATE work_items SET state = 'pending', claimed_by = NULL, lease_until = NULL WHERE state = 'claimed' AND claimed_by = $1 AND NOT ((run_id || '#' || idx) = ANY($2::text[]))",
    [workerId, held.map((c) => `${c.runId}#${c.index}`)],
  );
  return rowCount ?? 0;
}

/** Heartbeat: extend the leases of this worker's claimed items and mark it seen. */
export async function renewLeases(pool: pg.Pool, workerId: string, leaseSeconds: number): Promise<void> {
  await pool.query("UPDATE work_items SET lease_until = now() + make_interval(secs => $2) WHERE state = 'claimed' AND claimed_by = $1", [workerId, leaseSeconds]);
  await pool.query("UPDATE workers SET last_seen = now() WHERE id = $1", [workerId]);
}

export async function registerWorker(pool: pg.Pool, workerId: string, concurrency: number, leaseSeconds: number): Promise<void> {
  await pool.query(
    `INSERT INTO workers (id, host, pid, concurrency, lease_seconds) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET last_seen = now()`,
    [workerId, os.hostname(), process.pid, concurrency, leaseSeconds],
  );
}

/** A worker stopping cleanly leaves the table (a killed one just stops being seen). */
export async function unregisterWorker(pool: pg.Pool, workerId: string): Promise<void> {
  await pool.query("DELETE FROM workers WHERE id = $1", [workerId]);
}

/** Items a worker may still get (pending or claimed, by anyone; held ones are not), in one run or in every run but the excluded. */
export async function openItems(pool: pg.Pool, options: { onlyRun?: string; excluded?: readonly string[] } = {}): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    "SELECT COUNT(*) AS n FROM work_items WHERE state IN ('pending', 'claimed') AND ($1::text IS NULL OR run_id = $1) AND NOT (run_id = ANY($2::text[]))",
    [options.onlyRun ?? null, options.excluded ?? []],
  );
  return Number(rows[0]!.n);
}

/** Items held by a --max-cost coordinator, in one run or in every run but the excluded. */
export async function heldItems(pool: pg.Pool, options: { onlyRun?: string; excluded?: readonly string[] } = {}): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    "SELECT COUNT(*) AS n FROM work_items WHERE state = 'held' AND ($1::text IS NULL OR run_id = $1) AND NOT (run_id = ANY($2::text[]))",
    [options.onlyRun ?? null, options.excluded ?? []],
  );
  return Number(rows[0]!.n);
}

/** One run's progress as `status` shows it. */
export interface RunStatus {
  runId: string;
  /** "run" (questions) or "navigation" (episodes). */
  kind: string;
  benchmark: string;
  model: string;
  createdAt: Date;
  total: number;
  done: number;
  /** Claimed with a live lease. */
  inFlight: number;
  /** Pending, plus claimed whose lease expired (claimable again). */
  pending: number;
  errors: number;
  /** Held back by --max-cost until the projection allows them (queue/coordinator.ts). */
  held: number;
  /** Workers holding a live lease on this run's items. */
  workers: number;
  /** Items finished in the last 60 seconds. */
  lastMinute: number;
}

export async function runStatuses(pool: pg.Pool, onlyRun?: string): Promise<RunStatus[]> {
  const { rows } = await pool.query<Record<string, string | Date>>(
    `SELECT r.id, r.kind, r.benchmark, r.model, r.created_at, r.n_items,
            COUNT(*) FILTER (WHERE w.state = 'done') AS done,
            COUNT(*) FILTER (WHERE w.state = 'claimed' AND w.lease_until >= now()) AS in_flight,
            COUNT(*) FILTER (WHERE w.state = 'pending' OR (w.state = 'claimed' AND w.lease_until < now())) AS pending,
            COUNT(*) FILTER (WHERE w.state = 'done' AND w.error) AS errors,
            COUNT(*) FILTER (WHERE w.state = 'held') AS held,
            COUNT(DISTINCT w.claimed_by) FILTER (WHERE w.state = 'claimed' AND w.lease_until >= now()) AS workers,
            COUNT(*) FILTER (WHERE w.state = 'done' AND w.finished_at > now() - interval '60 seconds') AS last_minute
       FROM runs r LEFT JOIN work_items w ON w.run_id = r.id
      WHERE ($1::text IS NULL OR r.id = $1)
      GROUP BY r.id ORDER BY r.created_at, r.id`,
    [onlyRun ?? null],
  );
  return rows.map((r) => ({
    runId: String(r["id"]),
    kind: String(r["kind"]),
    benchmark: String(r["benchmark"]),
    model: String(r["model"]),
    createdAt: r["created_at"] as Date,
    total: Number(r["n_items"]),
    done: Number(r["done"]),
    inFlight: Number(r["in_flight"]),
    pending: Number(r["pending"]),
    errors: Number(r["errors"]),
    held: Number(r["held"]),
    workers: Number(r["workers"]),
    lastMinute: Number(r["last_minute"]),
  }));
}

export interface LiveWorker {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  secondsSinceSeen: number;
}

/** Workers seen within their lease (a killed worker drops out once its lease would have run out). */
export async function liveWorkers(pool: pg.Pool): Promise<LiveWorker[]> {
  const { rows } = await pool.query<{ id: string; host: string; pid: number; concurrency: number; ago: string }>(
    `SELECT id, host, pid, concurrency, EXTRACT(EPOCH FROM now() - last_seen) AS ago FROM workers
      WHERE last_seen + make_interval(secs => lease_seconds) >= now() ORDER BY started_at, id`,
  );
  return rows.map((r) => ({ id: r.id, host: r.host, pid: r.pid, concurrency: r.concurrency, secondsSinceSeen: Number(r.ago) }));
}

/**
 * The result of a work item whose output is files rather than a reply: a navigation episode (its
 * record, one line of episodes.jsonl, and the views it saved) or a generator job (what it
 * labelled, and the files it rendered). Paths are relative to the output folder.
 */
export interface ItemResult {
  index: number;
  itemId: string;
  /** JSON text. */
  record: string;
  files: Map<string, Buffer>;
}

/**
 * Stores an item's result and marks the item done, in one transaction: a worker killed before the
 * commit leaves nothing (the item runs again; a navigation episode from its stored replies), and
 * after it the item is both stored and done. A result stored before (two workers on one expired
 * lease) is replaced by the same item's.
 */
export async function storeItemResult(pool: pg.Pool, runId: string, result: ItemResult, error: boolean): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("DELETE FROM item_results WHERE run_id = $1 AND idx = $2", [runId, result.index]);
    await client.query("INSERT INTO item_results (run_id, idx, item_id, record) VALUES ($1, $2, $3, $4)", [runId, result.index, result.itemId, result.record]);
    for (const [file, bytes] of result.files) {
      await client.query("INSERT INTO item_files (run_id, idx, path, data) VALUES ($1, $2, $3, $4)", [runId, result.index, file, bytes]);
    }
    await client.query("UPDATE work_items SET state = 'done', error = $3, lease_until = NULL, finished_at = now() WHERE run_id = $1 AND idx = $2", [runId, result.index, error]);
    await client.query("COMMIT");
  } catch (failure) {
    await client.query("ROLLBACK").catch(() => {});
    throw failure;
  } finally {
    client.release();
  }
}

type ResultRow = { idx: number; item_id: string; record: string };
const RESULT_COLUMNS = "SELECT idx, item_id, record FROM item_results WHERE run_id = $1";

/** A stored result row, its files to be read apart (itemFiles). */
function resultOfRow(r: ResultRow): ItemResult {
  return { index: r.idx, itemId: r.item_id, record: r.record, files: new Map() };
}

/** Every stored item result of a run, in item order. */
export async function itemResults(pool: pg.Pool, runId: string): Promise<ItemResult[]> {
  const results = await itemRecords(pool, runId);
  const files = await pool.query<{ idx: number; path: string; data: Buffer }>("SELECT idx, path, data FROM item_files WHERE run_id = $1 ORDER BY idx, path", [runId]);
  const byIndex = new Map<number, ItemResult>(results.map((r) => [r.index, r]));
  for (const f of files.rows) byIndex.get(f.idx)?.files.set(f.path, f.data);
  return results;
}

/** A run's stored item results without their files (itemFiles gives those, one item at a time). */
export async function itemRecords(pool: pg.Pool, runId: string): Promise<ItemResult[]> {
  const { rows } = await pool.query<ResultRow>(`${RESULT_COLUMNS} ORDER BY idx`, [runId]);
  return rows.map(resultOfRow);
}

/** One item's stored result (without its files), or undefined while it has none. */
export async function itemRecord(pool: pg.Pool, runId: string, index: number): Promise<ItemResult | undefined> {
  const { rows } = await pool.query<ResultRow>(`${RESULT_COLUMNS} AND idx = $2`, [runId, index]);
  return rows[0] ? resultOfRow(rows[0]) : undefined;
}

/** The files stored with one item's result. */
export async function itemFiles(pool: pg.Pool, runId: string, index: number): Promise<Map<string, Buffer>> {
  const { rows } = await pool.query<{ path: string; data: Buffer }>("SELECT path, data FROM item_files WHERE run_id = $1 AND idx = $2 ORDER BY path", [runId, index]);
  return new Map(rows.map((r) => [r.path, r.data]));
}
