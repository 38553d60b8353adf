/**
 * Gemini batch mode (ai.google.dev/gemini-api/docs/batch-mode, api/batch-mode) with inlined
 * requests: POST /v1beta/models/{model}:batchGenerateContent {batch: {display_name, input_config:
 * {requests: {requests: [{request, metadata: {key}}]}}}} returns an operation named batches/{id};
 * GET /v1beta/batches/{id} is polled (JOB_STATE_PENDING / RUNNING / SUCCEEDED / FAILED / CANCELLED
 * / EXPIRED, spelled BATCH_STATE_* in newer docs: both accepted) and the inlined responses read
 * from it. Inline requests are limited to 20 MB in all; larger input needs the File API, which is
 * not supported here (those requests get an error naming the limit). The batch's display_name
 * (batch.displayName, required) carries our intent id: spatialprobe-<16 hex>. GET /v1beta/batches
 * lists the batches as operations, `pageSize`, the next page by `pageToken` = nextPageToken; the
 * order is not documented.
 */
import type { ResponseError } from "../../core/types.js";
import { ProviderError } from "../errors.js";
import { callJson } from "./http.js";
import { MB, type BatchApi, type BatchContext, type BatchLine, type BatchPage, type BatchStatus, type LineResult, type ListedBatch } from "./types.js";

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const obj = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
/** Counts come as int64 strings in JSON ("12"). */
const count = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : undefined);

const root = (baseUrl: string) => baseUrl.replace(/\/v1beta$/, "");
const TERMINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"]);

/** JOB_STATE_RUNNING and BATCH_STATE_RUNNING alike -> RUNNING. */
export function geminiState(state: string): string {
  return state.replace(/^(JOB|BATCH)_STATE_/, "");
}

export function geminiBatchRequest(line: BatchLine): { request: Record<string, unknown>; metadata: { key: string } } {
  return { request: line.body, metadata: { key: line.customId } };
}

/** The display name of a batch submitted under `intent`; the intent read back from one. */
export const geminiDisplayName = (intent?: string) => (intent ? `spatialprobe-${intent}` : "spatialprobe");
const intentOf = (displayName: string | undefined) => /^spatialprobe-([0-9a-f]{16})$/.exec(displayName ?? "")?.[1];

/** The envelope of the create request. */
function envelope(requests: unknown[], intent?: string): unknown {
  return { batch: { display_name: geminiDisplayName(intent), input_config: { requests: { requests } } } };
}

/** The batch resource in an operation ({name, metadata: batch, done, response}) or given bare. */
function batchOf(raw: Record<string, unknown>): Record<string, unknown> {
  const meta = obj(raw.metadata);
  return meta && (meta.state !== undefined || meta.batchStats !== undefined) ? meta : raw;
}

/** The inlined responses, wherever the reply puts them (operation.response, or batch.output). */
export function inlinedResponses(raw: Record<string, unknown>): unknown[] {
  const holders = [obj(raw.response), obj(batchOf(raw).output), obj(raw.output)];
  for (const holder of holders) {
    const inlined = holder?.inlinedResponses;
    if (Array.isArray(inlined)) return inlined;
    const inner = obj(inlined)?.inlinedResponses;
    if (Array.isArray(inner)) return inner;
  }
  return [];
}

/**
 * An inlined response as a result: matched by metadata.key, else by its place among the batch's
 * requests (`customIds`, in the order sent).
 */
export function geminiLineResult(row: unknown, index: number, customIds: readonly string[]): LineResult | undefined {
  const r = obj(row);
  if (!r) return undefined;
  const customId = str(obj(r.metadata)?.key) ?? customIds[index];
  if (!customId) return undefined;
  if (r.response !== undefined) return { customId, ok: true, json: r.response };
  const e = obj(r.error);
  const code = count(e?.code);
  const error: ResponseError = {
    kind: code !== undefined ? "http" : "other",
    ...(code !== undefined && { status: code }),
    message: `${str(e?.status) ? `${str(e?.status)}: ` : ""}${str(e?.message) ?? "the request failed"} (batch request)`,
  };
  return { customId, ok: false, error };
}

export const geminiBatchApi: BatchApi = {
  provider: "gemini",
  limits: { maxRequests: Number.MAX_SAFE_INTEGER, maxBytes: 20 * MB },
  lineBytes: (line) => Buffer.byteLength(JSON.stringify(geminiBatchRequest(line))),
  // With an intent id (16 characters) in the display name.
  envelopeBytes: Buffer.byteLength(JSON.stringify(envelope([], "0".repeat(16)))),
  findBy: "tag",
  newestFirst: false,

  async submit(lines: BatchLine[], context: BatchContext, intent?: string) {
    const model = encodeURIComponent(context.model.replace(/^models\//, ""));
    const reply = await callJson(context.http, "POST", `${root(context.baseUrl)}/v1beta/models/${model}:batchGenerateContent`, { json: envelope(lines.map(geminiBatchRequest), intent) }, context.signal, true);
    const id = str(reply.name) ?? str(obj(reply.metadata)?.name);
    if (!id || !/^batches\/[A-Za-z0-9_-]+$/.test(id)) throw new ProviderError("malformed", `batchGenerateContent: reply has no batch name (batches/...)`, { retryable: false });
    return { id, state: str(batchOf(reply).state) ?? "JOB_STATE_PENDING" };
  },

  async list(context: BatchContext, cursor?: string, limit = 100): Promise<BatchPage> {
    const query = new URLSearchParams({ pageSize: String(limit), ...(cursor && { pageToken: cursor }) });
    const raw = await callJson(context.http, "GET", `${root(context.baseUrl)}/v1beta/batches?${query}`, undefined, context.signal);
    const listed = Array.isArray(raw.operations) ? raw.operations : Array.isArray(raw.batches) ? raw.batches : [];
    const batches = (listed as unknown[]).flatMap((row): ListedBatch[] => {
      const op = obj(row);
      if (!op) return [];
      const batch = batchOf(op);
      const id = str(op.name) ?? str(batch.name);
      if (!id) return [];
      const created = Date.parse(str(batch.createTime) ?? "");
      const intent = intentOf(str(batch.displayName) ?? str(batch.display_name));
      const requests = count(obj(batch.batchStats)?.requestCount);
      return [{ id, state: str(batch.state) ?? "unknown", ...(Number.isFinite(created) && { createdMs: created }), ...(intent && { intent }), ...(requests !== undefined && { requests }) }];
    });
    const next = str(raw.nextPageToken);
    return { batches, ...(next && { next }) };
  },

  async poll(id: string, context: BatchContext): Promise<BatchStatus> {
    if (!/^batches\/[A-Za-z0-9_-]+$/.test(id)) throw new ProviderError("other", `not a Gemini batch name: ${id}`, { retryable: false });
    const raw = await callJson(context.http, "GET", `${root(context.baseUrl)}/v1beta/${id}`, undefined, context.signal);
    const batch = batchOf(raw);
    const state = str(batch.state) ?? "unknown";
    const stats = obj(batch.batchStats) ?? {};
    const total = count(stats.requestCount);
    const ok = count(stats.successfulRequestCount);
    const failed = count(stats.failedRequestCount);
    return {
      state,
      terminal: TERMINAL.has(geminiState(state)),
      counts: { ...(total !== undefined && { total }), ...(ok !== undefined || failed !== undefined ? { done: (ok ?? 0) + (failed ?? 0) } : {}), ...(failed !== undefined && { failed }) },
      raw,
    };
  },

  // The inlined responses come in the status reply itself.
  async results(_id: string, status: BatchStatus, _context: BatchContext, customIds: readonly string[]): Promise<LineResult[]> {
    return inlinedResponses(status.raw).flatMap((row, i) => geminiLineResult(row, i, customIds) ?? []);
  },

  // A failed operation carries a google.rpc.Status in `error`.
  failure: (status) => str(obj(status.raw.error)?.message),
};
