/**
 * The HTTP calls of the batch APIs (JSON, multipart upload, JSONL download), with the adapters'
 * rules: a per-call timeout, failures as ProviderError (status, Retry-After hint), every message
 * scrubbed of the keys, and retries with backoff through withRetries (models/retry.ts).
 */
import { ProviderError, classifyError } from "../errors.js";
import { errorDetail, readBody, MAX_ERROR_BODY_BYTES } from "../http.js";
import { parseRetryAfter, withRetries, type RetryPolicy } from "../retry.js";
import { snippet, type Secrets } from "../secrets.js";
import { withQuery } from "../url-secrets.js";

export interface BatchHttp {
  headers: Record<string, string>;
  /** The base URL's own query (`?api-key=...` of a proxy), added to every call's URL. */
  query?: string;
  secrets: Secrets;
  timeoutMs: number;
  policy: RetryPolicy;
}

export type CallBody = { json: unknown } | { form: FormData };

/**
 * One call, retried as the adapters retry; resolves with the body text of a 2xx reply, rejects
 * with the last ProviderError (or the signal's reason when aborted).
 */
export async function call(http: BatchHttp, method: "GET" | "POST", url: string, body: CallBody | undefined, signal: AbortSignal, creates = false): Promise<string> {
  const attempt = (sig: AbortSignal) => once(http, method, url, body, sig);
  const outcome = await withRetries((_attempt, sig) => (creates ? onlyWhenNothingMade(attempt(sig ?? signal)) : attempt(sig ?? signal)), http.policy, signal);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/**
 * A call that creates a batch is retried here only when the provider certainly made nothing (429,
 * 408: the request was turned away). A timeout, a dropped connection or a 5xx may have created the
 * batch all the same: the runner then looks for it by its intent (intent.ts) before sending again.
 */
async function onlyWhenNothingMade<T>(attempt: Promise<T>): Promise<T> {
  try {
    return await attempt;
  } catch (err) {
    const e = classifyError(err);
    if (e.retryable && e.status !== 429 && e.status !== 408) throw new ProviderError(e.kind, e.message, { ...(e.status !== undefined && { status: e.status }), retryable: false });
    throw err;
  }
}

/** A call whose 2xx body must be a JSON object; `creates`: it creates a batch (see onlyWhenNothingMade). */
export async function callJson(http: BatchHttp, method: "GET" | "POST", url: string, body: CallBody | undefined, signal: AbortSignal, creates = false): Promise<Record<string, unknown>> {
  const text = await call(http, method, url, body, signal, creates);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError("malformed", `${method} ${pathOf(url)}: reply is not JSON: ${snippet(text, http.secrets, 200)}`, { retryable: false });
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new ProviderError("malformed", `${method} ${pathOf(url)}: reply is not a JSON object`, { retryable: false });
  return json as Record<string, unknown>;
}

/** The lines of a JSONL body, each parsed; a line that is not JSON is skipped (its request then has no result). */
export function parseJsonl(text: string): unknown[] {
  const rows: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      rows.push(JSON.parse(line));
    } catch {
      /* a broken line: its request is reported as having no result */
    }
  }
  return rows;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

async function once(http: BatchHttp, method: "GET" | "POST", url: string, body: CallBody | undefined, signal: AbortSignal): Promise<string> {
  if (signal.aborted) throw signal.reason;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, http.timeoutMs);
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const headers: Record<string, string> = { accept: "application/json", ...http.headers };
    // FormData sets its own multipart content type (with the boundary).
    if (body && "json" in body) headers["content-type"] = "application/json";
    const res = await fetch(withQuery(url, http.query ?? ""), {
      method,
      headers,
      ...(body ? { body: "json" in body ? JSON.stringify(body.json) : body.form } : {}),
      signal: controller.signal,
    });
    if (!res.ok) {
      const { bytes } = await readBody(res, MAX_ERROR_BODY_BYTES);
      const detail = snippet(errorDetail(bytes.toString("utf8")), http.secrets, 500);
      const retryAfterMs = parseRetryAfter(res.headers);
      throw new ProviderError("http", `${method} ${pathOf(url)}: HTTP ${res.status}${detail ? `: ${detail}` : ""}`, {
        status: res.status,
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      });
    }
    return await res.text();
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (timedOut) throw new ProviderError("timeout", `${method} ${pathOf(url)}: no complete reply within ${http.timeoutMs} ms`);
    throw classifyError(err, http.secrets);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}
