/**
 * OpenAI Batch API (platform.openai.com/docs/guides/batch, api-reference/batch): the requests go
 * as a JSONL file (POST /v1/files, purpose "batch"; one line {custom_id, method, url, body}), then
 * POST /v1/batches {input_file_id, endpoint, completion_window: "24h"}; GET /v1/batches/{id} is
 * polled (validating -> in_progress -> finalizing -> completed | failed | expired | cancelled);
 * the output and error files are read from GET /v1/files/{id}/content. At most 50,000 requests
 * and 200 MB per input file. The batch carries our intent id in `metadata` (at most 16 pairs,
 * keys up to 64 and values up to 512 characters); GET /v1/batches lists batches newest first,
 * `limit` 1-100, the next page `after` the last id while `has_more`.
 */
import type { ResponseError } from "../../core/types.js";
import { ProviderError } from "../errors.js";
import { errorDetail } from "../http.js";
import { call, callJson, parseJsonl } from "./http.js";
import { MB, type BatchApi, type BatchContext, type BatchLine, type BatchPage, type BatchStatus, type LineResult, type ListedBatch } from "./types.js";

export const OPENAI_BATCH_ENDPOINT = "/v1/chat/completions";
const TERMINAL = new Set(["completed", "failed", "expired", "cancelled"]);
/** The metadata key of our intent id. */
export const OPENAI_INTENT_KEY = "spatialprobe_intent";

/** One line of the input file. */
export function openaiBatchLine(line: BatchLine): string {
  return JSON.stringify({ custom_id: line.customId, method: "POST", url: OPENAI_BATCH_ENDPOINT, body: line.body });
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

/** One line of an output or error file as a result: a 200 response's body, else an error. */
export function openaiLineResult(row: unknown): LineResult | undefined {
  if (!row || typeof row !== "object") return undefined;
  const r = row as { custom_id?: unknown; response?: { status_code?: unknown; body?: unknown } | null; error?: { code?: unknown; message?: unknown } | null };
  const customId = str(r.custom_id);
  if (!customId) return undefined;
  const status = num(r.response?.status_code);
  if (status !== undefined && status >= 200 && status < 300) return { customId, ok: true, json: r.response!.body };
  let error: ResponseError;
  if (status !== undefined) {
    const detail = errorDetail(typeof r.response!.body === "string" ? r.response!.body : JSON.stringify(r.response!.body ?? ""));
    error = { kind: "http", status, message: `HTTP ${status}${detail ? `: ${detail}` : ""} (batch request)` };
  } else {
    const code = str(r.error?.code);
    error = { kind: "other", message: `${code ? `${code}: ` : ""}${str(r.error?.message) ?? "the batch returned no response for this request"}` };
  }
  return { customId, ok: false, error };
}

export const openaiBatchApi: BatchApi = {
  provider: "openai",
  limits: { maxRequests: 50_000, maxBytes: 200 * MB },
  // JSONL: each line and its newline.
  lineBytes: (line) => Buffer.byteLength(openaiBatchLine(line)) + 1,
  envelopeBytes: 0,

  findBy: "tag",
  newestFirst: true,

  async submit(lines: BatchLine[], context: BatchContext, intent?: string) {
    const jsonl = lines.map((line) => openaiBatchLine(line) + "\n").join("");
    const form = new FormData();
    form.append("purpose", "batch");
    form.append("file", new Blob([jsonl], { type: "application/jsonl" }), "spatialprobe-batch.jsonl");
    const file = await callJson(context.http, "POST", `${context.baseUrl}/files`, { form }, context.signal);
    const fileId = str(file.id);
    if (!fileId) throw new ProviderError("malformed", "POST /files: reply has no file id", { retryable: false });
    const batch = await callJson(
      context.http,
      "POST",
      `${context.baseUrl}/batches`,
      { json: { input_file_id: fileId, endpoint: OPENAI_BATCH_ENDPOINT, completion_window: "24h", ...(intent && { metadata: { [OPENAI_INTENT_KEY]: intent } }) } },
      context.signal,
      true,
    );
    const id = str(batch.id);
    if (!id) throw new ProviderError("malformed", "POST /batches: reply has no batch id", { retryable: false });
    return { id, state: str(batch.status) ?? "validating" };
  },

  async list(context: BatchContext, cursor?: string, limit = 100): Promise<BatchPage> {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor && { after: cursor }) });
    const raw = await callJson(context.http, "GET", `${context.baseUrl}/batches?${query}`, undefined, context.signal);
    const data = Array.isArray(raw.data) ? (raw.data as Array<Record<string, unknown>>) : [];
    const batches = data.flatMap((b): ListedBatch[] => {
      const id = str(b?.id);
      if (!id) return [];
      const created = num(b.created_at);
      const intent = str((b.metadata as Record<string, unknown> | null | undefined)?.[OPENAI_INTENT_KEY]);
      const total = num((b.request_counts as Record<string, unknown> | undefined)?.total);
      return [{ id, state: str(b.status) ?? "unknown", ...(created !== undefined && { createdMs: created * 1000 }), ...(intent && { intent }), ...(total !== undefined && { requests: total }) }];
    });
    const next = raw.has_more === true ? (str(raw.last_id) ?? batches.at(-1)?.id) : undefined;
    return { batches, ...(next && { next }) };
  },

  async poll(id: string, context: BatchContext): Promise<BatchStatus> {
    const raw = await callJson(context.http, "GET", `${context.baseUrl}/batches/${encodeURIComponent(id)}`, undefined, context.signal);
    const state = str(raw.status) ?? "unknown";
    const counts = (raw.request_counts ?? {}) as { total?: unknown; completed?: unknown; failed?: unknown };
    return {
      state,
      terminal: TERMINAL.has(state),
      counts: { ...(num(counts.total) !== undefined && { total: num(counts.total) }), ...(num(counts.completed) !== undefined && { done: num(counts.completed) }), ...(num(counts.failed) !== undefined && { failed: num(counts.failed) }) },
      raw,
    };
  },

  async results(_id: string, status: BatchStatus, context: BatchContext): Promise<LineResult[]> {
    const out: LineResult[] = [];
    // An expired batch still has files: its finished requests in the output, the rest as batch_expired errors.
    for (const field of ["output_file_id", "error_file_id"]) {
      const fileId = str(status.raw[field]);
      if (!fileId) continue;
      const text = await call(context.http, "GET", `${context.baseUrl}/files/${encodeURIComponent(fileId)}/content`, undefined, context.signal);
      for (const row of parseJsonl(text)) {
        const result = openaiLineResult(row);
        if (result) out.push(result);
      }
    }
    return out;
  },

  failure: (status) => openaiBatchFailure(status.raw),
};

/** Why a batch failed as a whole (validation errors.data[].message), for its requests' errors. */
export function openaiBatchFailure(raw: Record<string, unknown>): string | undefined {
  const data = (raw.errors as { data?: Array<{ code?: unknown; message?: unknown; line?: unknown }> } | undefined)?.data;
  if (!Array.isArray(data) || data.length === 0) return undefined;
  return data
    .slice(0, 3)
    .map((e) => `${str(e.code) ? `${str(e.code)}: ` : ""}${str(e.message) ?? "error"}${num(e.line) !== undefined ? ` (line ${num(e.line)})` : ""}`)
    .join("; ");
}
