import type pg from "pg";
import type { ModelResponse } from "../core/types.js";
import type { ReplyStore } from "./store.js";
import { connectQueue, type QueueConnection } from "../queue/connect.js";
import { ensureSchema } from "../queue/schema.js";

/**
 * The response store of a queued run: the `responses` table on the queue server, with the SQLite
 * store's key and contract (store/store.ts): one row per request key, the reply body as JSON text,
 * replaced when asked again. Each put is its own committed statement, so a reply is durable the
 * moment put resolves, before the worker marks its item done.
 */
export class PostgresStore implements ReplyStore {
  /** The queue's store came after the endpoint left the request key: it holds no per-endpoint keys. */
  readonly mayHoldEndpointKeys = false;

  constructor(private readonly pool: pg.Pool, private readonly owned?: QueueConnection) {}

  /** A store on its own connection pool (closed with the store). */
  static async open(url: string): Promise<PostgresStore> {
    const connection = await connectQueue(url, 4);
    await ensureSchema(connection.pool);
    return new PostgresStore(connection.pool, connection);
  }

  async get(key: string): Promise<ModelResponse | undefined> {
    const { rows } = await this.pool.query<{ body: string }>("SELECT body FROM responses WHERE key = $1", [key]);
    return rows[0] ? (JSON.parse(rows[0].body) as ModelResponse) : undefined;
  }

  async put(key: string, itemId: string, model: string, response: ModelResponse): Promise<void> {
    await this.pool.query(
      `INSERT INTO responses (key, item_id, model, outcome, body, created_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (key) DO UPDATE SET item_id = EXCLUDED.item_id, model = EXCLUDED.model, outcome = EXCLUDED.outcome, body = EXCLUDED.body, created_at = EXCLUDED.created_at`,
      [key, itemId, model, response.outcome, JSON.stringify(response)],
    );
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM responses");
    return Number(rows[0]!.n);
  }

  async close(): Promise<void> {
    await this.owned?.close();
  }
}
