/**
 * One JSON POST over global fetch (undici, keep-alive) with a hard per-request timeout that
 * covers connecting, waiting and reading the body, and a hard limit on the bytes of body read.
 * Failures surface as ProviderError, their text scrubbed of the secrets before it is cut.
 */
import type { WireReply } from "./provider.js";
import type { Message, Usage } from "../core/types.js";
import { ProviderError, classifyError } from "./errors.js";
import { parseRetryAfter } from "./retry.js";
import { snippet, type Secrets } from "./secrets.js";
import { isPlainJsonString, LONG_STRING } from "../core/hash.js";

/** Default cap on a reply's text (bytes of UTF-8): 4 MiB. */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** Most bytes of an error body read (only a short message is kept from it). */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Most bytes of a reply body read for a text cap of `maxReplyBytes`: the JSON envelope of such a
 * text can be several times larger (escaped non-ASCII or control characters, usage, ids), so
 * four times the cap plus 1 MiB.
 */
export function bodyLimit(maxReplyBytes: number): number {
  return 4 * maxReplyBytes + 1024 * 1024;
}

export interface PostOptions {
  timeoutMs: number;
  /** Caller's cancellation; when it fires, its reason is thrown as is (not a ProviderError). */
  signal?: AbortSignal;
  /** Strings (API keys) to scrub from any error text. */
  secrets?: Secrets;
  /** Cap on the reply text; the body read stops at bodyLimit(maxReplyBytes) (default 4 MiB). */
  maxReplyBytes?: number;
}

export interface JsonReply {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

const SNIPPET = 500;

/** Pull a readable message out of an error body ({error:{message}} in all three APIs); uncut. */
export function errorDetail(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === "string" ? j.error : (j.error?.message ?? j.message);
    if (typeof m === "string" && m) return m;
  } catch {
    /* not JSON: fall through to the raw text */
  }
  return text.replace(/\s+/g, " ").trim();
}

/** The body's bytes, at most `limit`; `complete` is false when more was left unread. */
export async function readBody(res: Response, limit: number): Promise<{ bytes: Buffer; complete: boolean }> {
  if (!res.body) return { bytes: Buffer.alloc(0), complete: true };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks, total), complete: true };
    if (total + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - total));
      total = limit;
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks, total), complete: false };
    }
    chunks.push(value);
    total += value.byteLength;
  }
}

/**
 * POST `body` (an object, or a pre-serialised JSON string) and parse the JSON reply.
 * Non-2xx -> kind "http" (with status and Retry-After hint); timer -> "timeout";
 * socket trouble -> "network"; 2xx without valid JSON -> "malformed"; a 2xx body over
 * bodyLimit(maxReplyBytes) -> "other", not retryable (reading stops at the limit).
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: PostOptions,
): Promise<JsonReply> {
  const { timeoutMs, signal, secrets = [], maxReplyBytes = DEFAULT_MAX_REPLY_BYTES } = options;
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
    if (!res.ok) {
      // An error body is read only as far as a message needs; scrubbed whole, then cut.
      const { bytes } = await readBody(res, MAX_ERROR_BODY_BYTES);
      const detail = snippet(errorDetail(bytes.toString("utf8")), secrets, SNIPPET);
      const retryAfterMs = parseRetryAfter(res.headers);
      throw new ProviderError("http", `HTTP ${res.status}${detail ? `: ${detail}` : ""}`, {
        status: res.status,
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      });
    }
    const limit = bodyLimit(maxReplyBytes);
    // A body announced as too big is not read at all; any other stops being read at the limit.
    const declared = Number(res.headers.get("content-length") ?? Number.NaN);
    if (declared > limit) await res.body?.cancel().catch(() => undefined);
    const { bytes, complete } = declared > limit ? { bytes: Buffer.alloc(0), complete: false } : await readBody(res, limit);
    if (!complete)
      throw new ProviderError(
        "other",
        `reply exceeded the size limit: body over ${limit} bytes (4 × --max-reply-bytes ${maxReplyBytes} + 1 MiB); stopped reading`,
        { retryable: false },
      );
    const text = bytes.toString("utf8");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderError("malformed", `reply is not valid JSON: ${snippet(text, secrets, 200)}`);
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

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8, never inside a character; `bytes` is the full
 * text's UTF-8 length, `cut` whether anything was dropped.
 */
export function truncateUtf8(text: string, maxBytes: number): { text: string; bytes: number; cut: boolean } {
  // Cheap exit: every UTF-16 unit is at most 3 bytes of UTF-8.
  if (text.length * 3 <= maxBytes) return { text, bytes: Buffer.byteLength(text, "utf8"), cut: false };
  const encoded = Buffer.from(text, "utf8");
  if (encoded.length <= maxBytes) return { text, bytes: encoded.length, cut: false };
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to the start of the character being cut.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return { text: encoded.subarray(0, end).toString("utf8"), bytes: encoded.length, cut: true };
}

/** Values bodyJson hands to JSON.stringify whole (a Date, a class instance, a toJSON, a cycle). */
class NotPlainBody extends Error {}

/**
 * JSON.stringify(body), the same text, without the serializer's escaping scan of long strings
 * that need none (raw base64 image data, as Anthropic and Gemini take it): their verdict is
 * memoized (core/hash.ts isPlainJsonString; the store key usually left it) and they are joined in
 * as they are. Plain objects, arrays and primitives only; anything else
 * (a Date or class instance in extra_body, a toJSON, a cycle) sends the whole body through
 * JSON.stringify, errors included.
 */
export function bodyJson(body: unknown): string {
  const ancestors = new Set<object>();
  const write = (v: unknown): string => {
    if (typeof v === "string") return v.length >= LONG_STRING && isPlainJsonString(v) ? `"${v}"` : JSON.stringify(v);
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
    if (ancestors.has(v)) throw new NotPlainBody();
    const proto = Object.getPrototypeOf(v) as unknown;
    const array = Array.isArray(v);
    if (!array && proto !== Object.prototype && proto !== null) throw new NotPlainBody();
    if (typeof (v as { toJSON?: unknown }).toJSON === "function") throw new NotPlainBody();
    ancestors.add(v);
    let out: string;
    if (array) {
      out = "[";
      for (let i = 0; i < v.length; i++) out += (i > 0 ? "," : "") + (omitted(v[i]) ? "null" : write(v[i]));
      out += "]";
    } else {
      out = "{";
      for (const [k, e] of Object.entries(v)) {
        if (omitted(e)) continue;
        out += `${out.length > 1 ? "," : ""}${JSON.stringify(k)}:${write(e)}`;
      }
      out += "}";
    }
    ancestors.delete(v);
    return out;
  };
  if (body === null || typeof body !== "object") return JSON.stringify(body);
  try {
    return write(body);
  } catch (error) {
    if (error instanceof NotPlainBody) return JSON.stringify(body);
    throw error;
  }
}

/** What JSON.stringify leaves out of an object and writes as null in an array. */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
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

/** A parsed reply as the wire formats return it: only the fields the reply really has. */
export function wireReply(text: string, usage: Usage | undefined, reasoning: string, tokenLimited: boolean): WireReply {
  return {
    text,
    ...(usage && Object.keys(usage).length > 0 && { usage }),
    ...(reasoning && { reasoning }),
    ...(tokenLimited && { tokenLimited: true }),
  };
}
