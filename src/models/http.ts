/**
 * One JSON POST over global fetch (undici, keep-alive) with a hard per-request timeout that
 * covers connecting, waiting and reading the body. Failures surface as ProviderError.
 */
import type { Message } from "../core/types.js";
import { ProviderError, classifyError, scrub } from "./errors.js";
import { parseRetryAfter } from "./retry.js";

export interface PostOptions {
  timeoutMs: number;
  /** Caller's cancellation; when it fires, its reason is thrown as is (not a ProviderError). */
  signal?: AbortSignal;
  /** Strings (API keys) to scrub from any error text. */
  secrets?: readonly (string | undefined)[];
}

export interface JsonReply {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

const SNIPPET = 500;

/** Pull a readable message out of an error body ({error:{message}} in all three APIs). */
function errorDetail(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === "string" ? j.error : (j.error?.message ?? j.message);
    if (typeof m === "string" && m) return m.slice(0, SNIPPET);
  } catch {
    /* not JSON: fall through to the raw text */
  }
  return text.replace(/\s+/g, " ").trim().slice(0, SNIPPET);
}

/**
 * POST `body` (an object, or a pre-serialised JSON string) and parse the JSON reply.
 * Non-2xx -> kind "http" (with status and Retry-After hint); timer -> "timeout";
 * socket trouble -> "network"; 2xx without valid JSON -> "malformed".
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: PostOptions,
): Promise<JsonReply> {
  const { timeoutMs, signal, secrets = [] } = options;
  if (signal?.aborted) throw signal.reason;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });

  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal: controller.signal,
    });
    const text = await res.text();
    if (!res.ok) {
      const detail = scrub(errorDetail(text), secrets);
      const retryAfterMs = parseRetryAfter(res.headers);
      throw new ProviderError("http", `HTTP ${res.status}${detail ? `: ${detail}` : ""}`, {
        status: res.status,
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderError("malformed", `reply is not valid JSON: ${scrub(text.slice(0, 200), secrets)}`);
    }
    return { status: res.status, headers: res.headers, json, text };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) throw new ProviderError("timeout", `no complete reply within ${timeoutMs} ms`);
    throw classifyError(err, secrets);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** True for plain JSON objects (not arrays or null). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Merge `extra` into `base`: nested objects merge key by key, anything else replaces. */
export function mergeBody(base: Record<string, unknown>, extra?: Record<string, unknown>): Record<string, unknown> {
  if (!extra) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const cur = out[k];
    out[k] = isPlainObject(cur) && isPlainObject(v) ? mergeBody(cur, v) : v;
  }
  return out;
}

/** The text of all system messages, joined by blank lines (images there are an error). */
export function systemText(messages: readonly Message[]): string {
  return messages.filter((m) => m.role === "system").map(joinText).join("\n\n");
}

/** Text parts of one message joined with newlines (for roles that take a plain string). */
export function joinText(message: Message): string {
  return message.content
    .map((p) => {
      if (p.type !== "text") throw new ProviderError("other", `image parts in a ${message.role} message are not supported`, { retryable: false });
      return p.text;
    })
    .join("\n");
}
