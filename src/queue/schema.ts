import type pg from "pg";

/**
 * The queue's tables (docs/queue.md "Schema"), created in the connection's schema (the first of its
 * search_path) when missing. Many workers may start at once: an advisory lock makes one create them.
 */
const TABLES = `
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY,
  item_id TEXT NOT NULL,
  model TEXT NOT NULL,
  outcome TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  benchmark TEXT NOT NULL,
  model TEXT NOT NULL,
  n_items INTEGER NOT NULL,
  spec JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS work_items (
  id BIGSERIAL PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done', 'held')),
  claimed_by TEXT,
  lease_until TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  error BOOLEAN,
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ,
  UNIQUE (run_id, idx)
);
ALTER TABLE runs ADD COLUMN IF NOT EXISTS kind TEXT NOT NULL DEFAULT 'run';
CREATE TABLE IF NOT EXISTS item_results (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  record TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, idx)
);
CREATE TABLE IF NOT EXISTS item_files (
  run_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  path TEXT NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (run_id, idx, path),
  FOREIGN KEY (run_id, idx) REFERENCES item_results (run_id, idx) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS work_items_open ON work_items (id) WHERE state <> 'done';
-- 'held' (a --max-cost run's items not released yet) came later: a table made before gets the wider check.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'work_items_state_check' AND conrelid = 'work_items'::regclass
             AND pg_get_constraintdef(oid) NOT LIKE '%held%') THEN
    ALTER TABLE work_items DROP CONSTRAINT work_items_state_check;
    ALTER TABLE work_items ADD CONSTRAINT work_items_state_check CHECK (state IN ('pending', 'claimed', 'done', 'held'));
  END IF;
END $$;
CREATE TABLE IF NOT EXISTS workers (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  concurrency INTEGER NOT NULL,
  lease_seconds INTEGER NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_seen TIMESTAMPTZ NOT NULL DEFAULT now()
);
`;

export async function ensureSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('spatialprobe-queue-schema'))");
    await client.query(TABLES);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
