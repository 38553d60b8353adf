/**
 * Provider failures as one typed error, plus the rules that decide whether a failure is worth
 * another attempt. Nothing here ever carries an API key: callers pass their secrets, and every
 * message is scrubbed (secrets.ts) before it is cut.
 */
import type { ErrorKind, ResponseError } from "../core/types.js";
import { snippet, type Secrets } from "./secrets.js";

export { scrub } from "./secrets.js";

/** Longest error message kept (after scrubbing, so a cut never leaves part of a key). */
export const MAX_MESSAGE = 1000;

export interface ProviderErrorInit {
  status?: number;
  /** Server hint (Retry-After / retry-after-ms) for the wait before the next attempt. */
  retryAfterMs?: number;
  /** Defaults to what `isRetryableKind` / `isRetryableStatus` say. */
  retryable?: boolean;
}

/** A failed provider call: what kind of failure, whether retrying can help, and a key-free message. */
export class ProviderError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;

  constructor(kind: ErrorKind, message: string, init: ProviderErrorInit = {}) {
    super(message);
    this.name = "ProviderError";
    this.kind = kind;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.retryable =
      init.retryable ??
      (init.status !== undefined ? isRetryableStatus(init.status) : isRetryableKind(kind));
  }

  /** The plain shape stored in a ModelResponse. */
  toResponseError(): ResponseError {
    return this.status === undefined
      ? { kind: this.kind, message: this.message }
      : { kind: this.kind, status: this.status, message: this.message };
  }
}

/** Statuses that a later attempt may get past: timeouts, conflicts, rate limits, server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/** Default retryability for failures without an HTTP status. */
export function isRetryableKind(kind: ErrorKind): boolean {
  return kind === "timeout" || kind === "network" || kind === "malformed";
}

/** A copy of `err` with its message scrubbed of the secrets, then cut to MAX_MESSAGE. */
export function scrubError(err: ProviderError, secrets: Secrets): ProviderError {
  const message = snippet(err.message, secrets, MAX_MESSAGE);
  if (message === err.message) return err;
  return new ProviderError(err.kind, message, {
    ...(err.status !== undefined && { status: err.status }),
    ...(err.retryAfterMs !== undefined && { retryAfterMs: err.retryAfterMs }),
    retryable: err.retryable,
  });
}

/** Socket-level codes that mean "the connection failed; try again". */
const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
]);
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
const RETRYABLE_MESSAGES = /socket hang up|other side closed|terminated|fetch failed|network|ECONNRESET|EPIPE/i;

/** Collect `code` values and messages along an error's `cause` chain. */
function causeChain(err: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 6; depth++) {
    if (typeof cur === "object") {
      const o = cur as { code?: unknown; message?: unknown; cause?: unknown };
      if (typeof o.code === "string") codes.push(o.code);
      if (typeof o.message === "string" && o.message) messages.push(o.message);
      cur = o.cause;
    } else {
      messages.push(String(cur));
      break;
    }
  }
  return { codes, messages };
}

/** Turn anything thrown by a request into a ProviderError with the right kind and retryability. */
export function classifyError(err: unknown, secrets: Secrets = []): ProviderError {
  if (err instanceof ProviderError) return scrubError(err, secrets);
  const { codes, messages } = causeChain(err);
  const detail = snippet([...new Set(messages)].join(": ") || "unknown error", secrets, MAX_MESSAGE);
  const code = codes.find((c) => RETRYABLE_CODES.has(c) || c.startsWith("UND_ERR_")) ?? codes[0];
  const name = err instanceof Error ? err.name : "";
  const label = code ? `${detail} (${code})` : detail;

  if (name === "TimeoutError" || (code && TIMEOUT_CODES.has(code))) return new ProviderError("timeout", label);
  if (name === "SyntaxError") return new ProviderError("malformed", label);
  if (code && (RETRYABLE_CODES.has(code) || code.startsWith("UND_ERR_"))) return new ProviderError("network", label);
  if (code === "ENOTFOUND") return new ProviderError("network", label, { retryable: false });
  if (RETRYABLE_MESSAGES.test(detail)) return new ProviderError("network", label);
  return new ProviderError("other", label, { retryable: false });
}
