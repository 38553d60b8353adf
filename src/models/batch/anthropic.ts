/**
 * Anthropic Message Batches (docs.anthropic.com/en/docs/build-with-claude/batch-processing,
 * api/creating-message-batches): POST /v1/messages/batches {requests: [{custom_id, params}]},
 * GET /v1/messages/batches/{id} polled until processing_status "ended", then the JSONL at
 * results_url ({custom_id, result: {type: succeeded | errored | canceled | expired, message |
 * error}}). At most 100,000 requests or 256 MB per batch; custom_id 1-64 chars of [a-zA-Z0-9_-].
 * A batch has no field for a client's label (the create body is {requests} alone), and a custom
 * id is our 64-character store key already: a batch submitted before a kill is found again by
 * its creation time and request count (intent.ts). GET /v1/messages/batches lists batches newest
 * first, `limit` 1-1000, the next page `after_id` the last id while `has_more`.
 */
import type { ResponseError } from "../../core/types.js";
import { ProviderError } from "../errors.js";
import { call, callJson, parseJsonl } from "./http.js";
import { MB, type BatchApi, type BatchContext, type BatchLine, type BatchPage, type BatchStatus, type LineResult, type ListedBatch } from "./types.js";

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The API's root (a base URL given with /v1 is tolerated, as by the normal adapter). */
const root = (baseUrl: string) => baseUrl.replace(/\/v1$/, "");

export function anthropicBatchRequest(line: BatchLine): { custom_id: string; params: Record<string, unknown> } {
  return { custom_id: line.customId, params: line.body };
}

/** One results line as a result. An errored request's error may come nested ({type: "error", error: {...}}) or flat. */
export function anthropicLineResult(row: unknown): LineResult | undefined {
  if (!row || typeof row !== "object") return undefined;
  const r = row as { custom_id?: unknown; result?: { type?: unknown; message?: unknown; error?: { type?: unknown; message?: unknown; error?: { type?: unknown; message?: unknown } } } };
  const customId = str(r.custom_id);
  if (!customId) return undefined;
  const type = str(r.result?.type);
  if (type === "succeeded") return { customId, ok: true, json: r.result!.message };
  let error: ResponseError;
  if (type === "errored") {
    const inner = r.result?.error?.error ?? r.result?.error;
    error = { kind: "other", message: `${str(inner?.type) ?? "error"}: ${str(inner?.message) ?? "the request failed"} (batch request)` };
  } else error = { kind: "other", message: `batch request ${type ?? "without a result"}` };
  return { customId, ok: false, error };
}

export const anthropicBatchApi: BatchApi = {
  provider: "anthropic",
  limits: { maxRequests: 100_000, maxBytes: 256 * MB },
  lineBytes: (line) => Buffer.byteLength(JSON.stringify(anthropicBatchRequest(line))),
  // {"requests":[ ... ]}
  envelopeBytes: Buffer.byteLength('{"requests":[]}'),

  findBy: "created",
  newestFirst: true,

  async submit(lines: BatchLine[], context: BatchContext) {
    const reply = await callJson(context.http, "POST", `${root(context.baseUrl)}/v1/messages/batches`, { json: { requests: lines.map(anthropicBatchRequest) } }, context.signal, true);
    const id = str(reply.id);
    if (!id) throw new ProviderError("malformed", "POST /v1/messages/batches: reply has no batch id", { retryable: false });
    return { id, state: str(reply.processing_status) ?? "in_progress" };
  },

  async list(context: BatchContext, cursor?: string, limit = 100): Promise<BatchPage> {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor && { after_id: cursor }) });
    const raw = await callJson(context.http, "GET", `${root(context.baseUrl)}/v1/messages/batches?${query}`, undefined, context.signal);
    const data = Array.isArray(raw.data) ? (raw.data as Array<Record<string, unknown>>) : [];
    const batches = data.flatMap((b): ListedBatch[] => {
      const id = str(b?.id);
      if (!id) return [];
      const created = Date.parse(str(b.created_at) ?? "");
      const c = (b.request_counts ?? {}) as Record<string, unknown>;
      const counts = ["processing", "succeeded", "errored", "canceled", "expired"].map((k) => num(c[k]));
      const requests = counts.every((n) => n === undefined) ? undefined : counts.reduce<number>((a, n) => a + (n ?? 0), 0);
      return [{ id, state: str(b.processing_status) ?? "unknown", ...(Number.isFinite(created) && { createdMs: created }), ...(requests !== undefined && { requests }) }];
    });
    const next = raw.has_more === true ? (str(raw.last_id) ?? batches.at(-1)?.id) : undefined;
    return { batches, ...(next && { next }) };
  },

  async poll(id: string, context: BatchContext): Promise<BatchStatus> {
    const raw = await callJson(context.http, "GET", `${root(context.baseUrl)}/v1/messages/batches/${encodeURIComponent(id)}`, undefined, context.signal);
    const state = str(raw.processing_status) ?? "unknown";
    const c = (raw.request_counts ?? {}) as Record<string, unknown>;
    const [processing, succeeded, errored, canceled, expired] = ["processing", "succeeded", "errored", "canceled", "expired"].map((k) => num(c[k]) ?? 0) as [number, number, number, number, number];
    const failed = errored + canceled + expired;
    return { state, terminal: state === "ended", counts: { total: processing + succeeded + failed, done: succeeded + failed, failed }, raw };
  },

  async results(id: string, status: BatchStatus, context: BatchContext): Promise<LineResult[]> {
    const base = root(context.baseUrl);
    // The key goes only to the API's own origin: a results_url elsewhere is replaced by the documented path.
    const given = str(status.raw.results_url);
    const url = given && sameOrigin(given, base) ? given : `${base}/v1/messages/batches/${encodeURIComponent(id)}/results`;
    const text = await call(context.http, "GET", url, undefined, context.signal);
    return parseJsonl(text).flatMap((row) => anthropicLineResult(row) ?? []);
  },
};

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
