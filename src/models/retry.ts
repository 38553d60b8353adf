/**
 * Bounded retries with exponential backoff and full jitter, honouring server wait hints in full
 * up to a limit (a longer hint ends the request as an error rather than being shortened).
 * Randomness and sleeping are injectable so tests can check every wait without real time.
 */
import { ProviderError, classifyError } from "./errors.js";

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryPolicy {
  /** Total attempts including the first (default 6). */
  maxAttempts?: number;
  /** Backoff base for the first retry (default 1000 ms); doubles each retry. */
  baseMs?: number;
  /** Ceiling of the computed backoff (default 60 000 ms). */
  capMs?: number;
  /**
   * Ceiling of any wait (default 120 000 ms). A computed backoff is clamped to it; a server hint
   * (Retry-After) over it is not shortened: the request ends there as an error saying so.
   */
  maxDelayMs?: number;
  /** Uniform random in [0, 1) (default Math.random). */
  random?: () => number;
  /** Abortable sleep (default: a timer that rejects with the signal's reason). */
  sleep?: SleepFn;
  /**
   * True for a failure whose next attempt can start at once, without backoff (a failed endpoint
   * when another one of the list is in service); the attempt still counts toward maxAttempts.
   */
  immediateRetry?: (error: ProviderError) => boolean;
  /** Called before each wait, e.g. for progress logs. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
}

export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: ProviderError; attempts: number };

export const RETRY_DEFAULTS = { maxAttempts: 6, baseMs: 1000, capMs: 60_000, maxDelayMs: 120_000 } as const;

/** Sleep for `ms`; rejects at once with the signal's reason when it aborts. */
export const sleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Wait before attempt `attempt + 1` after `attempt` failures: full jitter over
 * min(cap, base * 2^(attempt-1)), at most maxDelayMs; a server hint larger than that is
 * returned in full (withRetries refuses hints over maxDelayMs before waiting).
 */
export function backoffDelay(attempt: number, policy: RetryPolicy = {}, hintMs?: number): number {
  const base = policy.baseMs ?? RETRY_DEFAULTS.baseMs;
  const cap = policy.capMs ?? RETRY_DEFAULTS.capMs;
  const maxDelay = policy.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
  const random = policy.random ?? Math.random;
  const computed = Math.min(maxDelay, random() * Math.min(cap, base * 2 ** Math.max(0, attempt - 1)));
  const wanted = hintMs !== undefined && hintMs > computed ? hintMs : computed;
  return Math.max(0, Math.round(wanted));
}

/** Milliseconds as seconds for messages: 300000 -> "300 s", 1500 -> "1.5 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * The failure to record when the server asks for a longer wait than `maxDelayMs` allows:
 * same kind and status, not retryable, its message naming the asked wait and the limit.
 */
export function waitRefused(error: ProviderError, maxDelayMs: number): ProviderError {
  const asked = error.retryAfterMs ?? 0;
  return new ProviderError(
    error.kind,
    `server asked to retry after ${formatSeconds(asked)}, over the ${formatSeconds(maxDelayMs)} limit (--max-retry-wait); ${error.message}`,
    { ...(error.status !== undefined && { status: error.status }), retryAfterMs: asked, retryable: false },
  );
}

type HeaderSource = Headers | Record<string, string | null | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const rec = headers as Record<string, string | null | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : (rec[key] ?? undefined);
}

/**
 * The server's requested wait in ms from `retry-after-ms` (preferred) or `Retry-After`
 * (delta seconds or an HTTP date); undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderSource, nowMs: number = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms")?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const ra = header(headers, "retry-after")?.trim();
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra)) return Math.ceil(Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Run `fn` until it succeeds, fails with a non-retryable error, `maxAttempts` is reached, or the
 * server asks for a wait over maxDelayMs.
 * Failures are returned (never thrown) with the attempt count; only an abort rejects,
 * with the signal's reason, and it interrupts a pending wait at once.
 */
export async function withRetries<T>(
  fn: (attempt: number, signal?: AbortSignal) => Promise<T>,
  policy: RetryPolicy = {},
  signal?: AbortSignal,
): Promise<RetryOutcome<T>> {
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts ?? RETRY_DEFAULTS.maxAttempts));
  const wait = policy.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw signal.reason;
    try {
      return { ok: true, value: await fn(attempt, signal), attempts: attempt };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const error = classifyError(err);
      if (!error.retryable || attempt >= maxAttempts) return { ok: false, error, attempts: attempt };
      if (policy.immediateRetry?.(error)) continue;
      const maxDelay = policy.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > maxDelay)
        return { ok: false, error: waitRefused(error, maxDelay), attempts: attempt };
      const delayMs = backoffDelay(attempt, policy, error.retryAfterMs);
      policy.onRetry?.({ attempt, delayMs, error });
      await wait(delayMs, signal);
    }
  }
}
