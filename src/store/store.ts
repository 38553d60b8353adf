import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ModelResponse } from "../core/types.js";

/**
 * What a run needs of a response store: the SQLite one below, or the PostgreSQL one of a queued run
 * (store/postgres.ts), whose calls return promises. Same key, same contract.
 */
export interface ReplyStore {
  get(key: string): ModelResponse | undefined | Promise<ModelResponse | undefined>;
  put(key: string, itemId: string, model: string, response: ModelResponse): void | Promise<void>;
  /**
   * False when the store was made after the endpoint left the request key, so it holds no reply
   * under the older per-endpoint keys and a miss needs no second lookup (core/run.ts); unset: look.
   */
  readonly mayHoldEndpointKeys?: boolean;
}

/** store_meta key_scheme of a store that has only ever held keys without the endpoint (core/run.ts requestKey). */
const ENDPOINT_FREE = "endpoint-free";

/** One provider batch (`run --batch`, models/batch/): which requests it covers, and how far it got. */
export interface BatchRecord {
  /** The provider's batch id (OpenAI batch_..., Anthropic msgbatch_..., Gemini batches/...). */
  id: string;
  provider: string;
  /** The model spec (openai:gpt-4o). */
  model: string;
  /** The provider's last reported state (validating, in_progress, ended, JOB_STATE_RUNNING, ...). */
  state: string;
  /** The store key, the custom id sent, and the item id (for the responses log column) of each request. */
  requests: Array<{ key: string; custom_id: string; item_id: string }>;
  created_at: string;
  updated_at: string;
  /** Its results (or their errors) are in the responses table: never polled again. */
  collected: boolean;
  /** The client-generated id it was submitted under (BatchIntent), when it had one. */
  intent?: string;
}

/**
 * A batch about to be submitted, written before the submit call (models/batch/intent.ts): a run
 * killed between the provider's acceptance and saveBatch finds it on restart and looks for the
 * batch at the provider by `intent` instead of submitting its requests again.
 */
export interface BatchIntent {
  /** Random, 16 hex characters; sent with the batch where the provider keeps it (OpenAI metadata, Gemini display_name). */
  intent: string;
  provider: string;
  model: string;
  requests: BatchRecord["requests"];
  created_at: string;
  /**
   * For an API that keeps no label on a batch (Anthropic): the newest batch the provider listed
   * just before the submit (null: none). Its batch is among those listed above this one.
   */
  listed_after?: string | null;
}

/**
 * Model replies on disk (SQLite, WAL), keyed by a hash of (provider, endpoint, model, settings,
 * request bytes). Each reply is committed as soon as it arrives, so a run killed at any moment
 * keeps every finished reply and the same command resumes where it stopped.
 */
export class ResponseStore implements ReplyStore {
  readonly mayHoldEndpointKeys: boolean;
  private readonly db: Database.Database;
  private readonly getStatement: Database.Statement;
  private readonly putStatement: Database.Statement;

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(`CREATE TABLE IF NOT EXISTS responses (
      key TEXT PRIMARY KEY,
      item_id TEXT NOT NULL,
      model TEXT NOT NULL,
      outcome TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    // Batches submitted by `run --batch`: a run killed after submitting polls the same ones again.
    this.db.exec(`CREATE TABLE IF NOT EXISTS batches (
      id TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      state TEXT NOT NULL,
      requests TEXT NOT NULL,
      collected INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`);
    // Added later: stores written before keep working (no intent table, no intent column until opened here).
    this.db.exec(`CREATE TABLE IF NOT EXISTS batch_intents (
      intent TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      requests TEXT NOT NULL,
      created_at TEXT NOT NULL,
      listed_after TEXT
    )`);
    const columns = this.db.prepare("PRAGMA table_info(batches)").all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === "intent")) this.db.exec("ALTER TABLE batches ADD COLUMN intent TEXT");
    this.mayHoldEndpointKeys = this.keyScheme() !== ENDPOINT_FREE;
    this.getStatement = this.db.prepare("SELECT body FROM responses WHERE key = ?");
    this.putStatement = this.db.prepare(
      "INSERT OR REPLACE INTO responses (key, item_id, model, outcome, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
  }

  /**
   * The store's key scheme, recorded once: a store that is empty when first opened by this version
   * only ever gets endpoint-free keys; one that already holds replies (written before the scheme was
   * recorded) may hold per-endpoint keys and keeps no record, so it is looked up both ways.
   */
  private keyScheme(): string | undefined {
    this.db.exec("CREATE TABLE IF NOT EXISTS store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const empty = (this.db.prepare("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n === 0;
    if (empty) this.db.prepare("INSERT OR IGNORE INTO store_meta (name, value) VALUES ('key_scheme', ?)").run(ENDPOINT_FREE);
    return (this.db.prepare("SELECT value FROM store_meta WHERE name = 'key_scheme'").get() as { value: string } | undefined)?.value;
  }

  get(key: string): ModelResponse | undefined {
    const row = this.getStatement.get(key) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as ModelResponse) : undefined;
  }

  put(key: string, itemId: string, model: string, response: ModelResponse): void {
    this.putStatement.run(key, itemId, model, response.outcome, JSON.stringify(response), new Date().toISOString());
  }

  /** Record a batch the moment the provider has accepted it; the intent it was submitted under, if any, is resolved in the same transaction. */
  saveBatch(batch: BatchRecord): void {
    this.db.transaction(() => {
      this.db
        .prepare("INSERT OR REPLACE INTO batches (id, provider, model, state, requests, collected, created_at, updated_at, intent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .run(batch.id, batch.provider, batch.model, batch.state, JSON.stringify(batch.requests), batch.collected ? 1 : 0, batch.created_at, batch.updated_at, batch.intent ?? null);
      if (batch.intent) this.db.prepare("DELETE FROM batch_intents WHERE intent = ?").run(batch.intent);
    })();
  }

  /** Record a batch about to be submitted (committed before the submit call). */
  saveIntent(intent: BatchIntent): void {
    this.db
      .prepare("INSERT INTO batch_intents (intent, provider, model, requests, created_at, listed_after) VALUES (?, ?, ?, ?, ?, ?)")
      .run(intent.intent, intent.provider, intent.model, JSON.stringify(intent.requests), intent.created_at, intent.listed_after ?? null);
  }

  /** Forget an intent whose submit is known not to have created a batch. */
  dropIntent(intent: string): void {
    this.db.prepare("DELETE FROM batch_intents WHERE intent = ?").run(intent);
  }

  /** The intents of a model spec that have no batch recorded, oldest first. */
  intents(model: string): BatchIntent[] {
    const rows = this.db.prepare("SELECT * FROM batch_intents WHERE model = ? ORDER BY created_at, rowid").all(model) as Array<Omit<BatchIntent, "requests"> & { requests: string }>;
    return rows.map(({ listed_after, ...row }) => ({ ...row, requests: JSON.parse(row.requests) as BatchIntent["requests"], ...(listed_after !== undefined && listed_after !== null && { listed_after }) }));
  }

  /** Every provider batch id this store has recorded, of any model. */
  batchIds(): Set<string> {
    return new Set((this.db.prepare("SELECT id FROM batches").all() as Array<{ id: string }>).map((r) => r.id));
  }

  /** A batch's new state; `collected` once its results are stored. */
  updateBatch(id: string, state: string, collected: boolean): void {
    this.db.prepare("UPDATE batches SET state = ?, collected = ?, updated_at = ? WHERE id = ?").run(state, collected ? 1 : 0, new Date().toISOString(), id);
  }

  /** The batches of a model spec, oldest first; only those whose results are not stored yet unless `all`. */
  batches(model: string, all = false): BatchRecord[] {
    const rows = this.db
      .prepare(`SELECT * FROM batches WHERE model = ?${all ? "" : " AND collected = 0"} ORDER BY created_at, rowid`)
      .all(model) as Array<Omit<BatchRecord, "requests" | "collected" | "intent"> & { requests: string; collected: number; intent: string | null }>;
    return rows.map(({ intent, ...row }) => ({ ...row, requests: JSON.parse(row.requests) as BatchRecord["requests"], collected: row.collected === 1, ...(intent ? { intent } : {}) }));
  }

  count(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
