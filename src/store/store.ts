import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ModelResponse } from "../core/types.js";

/**
 * Model replies on disk (SQLite, WAL), keyed by a hash of (provider, endpoint, model, settings,
 * request bytes). Each reply is committed as soon as it arrives, so a run killed at any moment
 * keeps every finished reply and the same command resumes where it stopped.
 */
export class ResponseStore {
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
    this.getStatement = this.db.prepare("SELECT body FROM responses WHERE key = ?");
    this.putStatement = this.db.prepare(
      "INSERT OR REPLACE INTO responses (key, item_id, model, outcome, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
  }

  get(key: string): ModelResponse | undefined {
    const row = this.getStatement.get(key) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as ModelResponse) : undefined;
  }

  put(key: string, itemId: string, model: string, response: ModelResponse): void {
    this.putStatement.run(key, itemId, model, response.outcome, JSON.stringify(response), new Date().toISOString());
  }

  count(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
