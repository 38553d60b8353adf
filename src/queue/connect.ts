import pg from "pg";
import { UsageError } from "../core/problems.js";

/**
 * The connection to the queue server (PostgreSQL, docs/queue.md). Every failure to reach or log in
 * becomes a one-line UsageError that names the server (password hidden), never a stack trace.
 */

const SCHEMES = new Set(["postgres:", "postgresql:"]);

/** The URL with its password replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** Refuse what is not a PostgreSQL URL before trying to connect. */
export function checkQueueUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--queue ${JSON.stringify(url)} is not a URL; give postgres://user:password@host:5432/database (scripts/queue-server.sh prints one)`);
  }
  if (!SCHEMES.has(parsed.protocol)) {
    throw new UsageError(`--queue must be a PostgreSQL URL (postgres://user:password@host:5432/database), not ${parsed.protocol}//...`);
  }
  if (!parsed.hostname) throw new UsageError(`--queue ${redactUrl(url)} names no host`);
}

/** A readable reason from what pg throws (Node 20's connect errors can be AggregateErrors without a message). */
export function errorReason(error: unknown): string {
  const e = error as { message?: string; code?: string; errors?: Array<{ message?: string }> };
  if (e?.message) return e.message;
  if (Array.isArray(e?.errors) && e.errors.length > 0) return e.errors.map((inner) => inner.message ?? String(inner)).join("; ");
  return e?.code ?? String(error);
}

/**
 * SQLSTATEs after which PostgreSQL expects the client to try again (deadlock_detected,
 * serialization_failure, too_many_connections, admin_shutdown, connection failures).
 */
const TRANSIENT_SQLSTATES = new Set(["40P01", "40001", "53300", "57P01", "08000", "08003", "08006"]);
/** What pg and Node say when a connection is lost, refused or cannot be made in time. */
const TRANSIENT_MESSAGE = /connection terminated|connection timeout|timeout exceeded when trying to connect|connection error and is not queryable|ECONNRESET|ECONNREFUSED|EPIPE/i;

/**
 * True for a queue server failure that a retry can outlive: a deadlock between two workers'
 * statements, a lost or slow connection (a worker that renders for seconds misses its connect
 * timeout). Anything else (a broken statement, a missing table) is not.
 */
export function isTransientQueueError(error: unknown): boolean {
  const e = error as { code?: unknown } | null;
  if (e && typeof e.code === "string" && TRANSIENT_SQLSTATES.has(e.code)) return true;
  return TRANSIENT_MESSAGE.test(errorReason(error));
}

export interface QueueConnection {
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

/** A pool of `max` connections, checked with one query; a server that cannot be used is a UsageError. */
export async function connectQueue(url: string, max = 4): Promise<QueueConnection> {
  checkQueueUrl(url);
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops must not crash the process; the next query reports it.
  pool.on("error", () => {});
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw new UsageError(`cannot use the queue server at ${redactUrl(url)}: ${errorReason(error)} (start one with scripts/queue-server.sh)`);
  }
  let closed = false;
  return {
    pool,
    url,
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
