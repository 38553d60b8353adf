/**
 * The three batch APIs for the mock server (mock-server.ts wires them in): OpenAI Batch (files +
 * batches), Anthropic Message Batches and Gemini batch mode with inlined requests. Each request of
 * a batch is answered by the mock's own normal route (an HTTP call to itself), so replies, faults
 * and the strict rules are those of the normal endpoints. The batch APIs' documented rules are
 * enforced: custom ids, endpoint, sizes and counts, unknown ids, OpenAI metadata (at most 16
 * pairs, keys up to 64 and values up to 512 characters, strings), Anthropic's create body (no
 * field besides `requests`), Gemini's required display_name. The list endpoints page as
 * documented: OpenAI GET /v1/batches (newest first, limit 1-100, after = an id, has_more /
 * first_id / last_id), Anthropic GET /v1/messages/batches (newest first, limit 1-1000, after_id /
 * before_id, has_more / first_id / last_id), Gemini GET /v1beta/batches (operations, pageSize,
 * pageToken / nextPageToken). A batch ends after a number of polls (default 1); per-request
 * errors and expired/failed batches can be injected.
 *
 * Sources: platform.openai.com/docs/guides/batch and api-reference/batch, api-reference/files;
 * docs.anthropic.com/en/docs/build-with-claude/batch-processing, api/creating-message-batches;
 * ai.google.dev/gemini-api/docs/batch-mode, ai.google.dev/api/batch-mode.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type BatchProvider = "openai" | "anthropic" | "gemini";

/** An injected per-request failure (an error result in the provider's shape). */
export interface InjectedError {
  status: number;
  message: string;
}

export interface MockBatchOptions {
  /** Polls that still see the batch running; the next one ends it (default 1). */
  pollsToEnd?: number;
  /** A per-request error instead of the answer, by provider and custom id (Gemini: metadata.key). */
  requestError?: (provider: BatchProvider, customId: string) => InjectedError | undefined;
  /** End a batch (the n-th created, from 1) expired, or failed (OpenAI, Gemini), instead of processing it. */
  endState?: (provider: BatchProvider, n: number) => "expired" | "failed" | undefined;
  /** Gemini's state spelling: JOB_STATE_* (default) or BATCH_STATE_* (newer docs). */
  geminiStatePrefix?: "JOB_STATE_" | "BATCH_STATE_";
  /** An HTTP error for a batch route call (`attempt` counts calls of that route and id, from 1). */
  routeFault?: (route: string, attempt: number) => { status: number; retryAfter?: string } | undefined;
  /**
   * A create call carried out (the batch exists) whose reply is lost: this status is sent instead
   * (`attempt` as for routeFault). What a client sees when a gateway times out after the provider acted.
   */
  lostReply?: (route: string, attempt: number) => number | undefined;
  /** Tighter limits than the documented ones (to test the rules without 200 MB bodies). */
  limits?: Partial<typeof BATCH_LIMITS>;
  /** The most batches one list page returns, whatever the limit asked (servers may return fewer): to exercise paging. */
  maxPageSize?: number;
}

/** The documented limits. */
export const BATCH_LIMITS = {
  openaiMaxRequests: 50_000,
  openaiMaxFileBytes: 200 * 1024 * 1024,
  anthropicMaxRequests: 100_000,
  anthropicMaxBytes: 256 * 1024 * 1024,
  geminiMaxBytes: 20 * 1024 * 1024,
};

export interface MockBatchStats {
  /** Every batch created, in order, with the label it was given (OpenAI metadata, Gemini display name). */
  created: Array<{ provider: BatchProvider; id: string; customIds: string[]; metadata?: Record<string, string> | null; displayName?: string }>;
  /** Custom id -> how many batches carried it. */
  submitted: Map<string, number>;
  polls: number;
  /** Calls refused by a batch rule (rule id, status, message). */
  rejected: Array<{ rule: string; status: number; message: string }>;
  /** Request bodies of every batch line, by custom id (the last one sent). */
  bodies: Map<string, unknown>;
  /** Calls of the list endpoints, by provider. */
  lists: Record<BatchProvider, number>;
}

interface Line {
  customId: string;
  body: unknown;
}

interface MockBatch {
  provider: BatchProvider;
  id: string;
  n: number;
  model: string;
  lines: Line[];
  polls: number;
  state: string;
  createdAt: number;
  /** Filled when the batch ends. */
  results?: Array<{ customId: string; ok: boolean; status: number; body: unknown; expired?: boolean }>;
  outputFileId?: string;
  errorFileId?: string;
  failure?: { code: string; message: string };
  headers: Record<string, string>;
  /** OpenAI metadata / Gemini display name, as given. */
  metadata?: Record<string, string> | null;
  displayName?: string;
}

const ANTHROPIC_CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const OPENAI_ENDPOINTS = new Set(["/v1/responses", "/v1/chat/completions", "/v1/embeddings", "/v1/completions"]);

export interface MockBatchHandler {
  stats: MockBatchStats;
  /** True when the call was a batch route (answered here). */
  handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<boolean>;
}

/** `selfUrl` gives the mock server's own URL, where each request of a batch is answered. */
export function createMockBatch(options: MockBatchOptions, selfUrl: () => string): MockBatchHandler {
  const limits = { ...BATCH_LIMITS, ...options.limits };
  const stats: MockBatchStats = { created: [], submitted: new Map(), polls: 0, rejected: [], bodies: new Map(), lists: { openai: 0, anthropic: 0, gemini: 0 } };
  const files = new Map<string, { bytes: number; content: string; purpose: string }>();
  const batches = new Map<string, MockBatch>();
  const routeCalls = new Map<string, number>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${(++counter).toString(36).padStart(6, "0")}`;
  const geminiPrefix = options.geminiStatePrefix ?? "JOB_STATE_";

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
    return true;
  };
  const text = (res: ServerResponse, body: string) => {
    res.writeHead(200, { "content-type": "application/binary" });
    res.end(body);
    return true;
  };
  /** A refusal in the provider's error shape, kept in stats.rejected. */
  const refuse = (res: ServerResponse, provider: BatchProvider, rule: string, status: number, message: string) => {
    stats.rejected.push({ rule, status, message });
    if (provider === "anthropic") return json(res, status, { type: "error", error: { type: status === 404 ? "not_found_error" : status === 413 ? "request_too_large" : "invalid_request_error", message } });
    if (provider === "gemini") return json(res, status, { error: { code: status, message, status: status === 404 ? "NOT_FOUND" : "INVALID_ARGUMENT" } });
    return json(res, status, { error: { message, type: "invalid_request_error", param: null, code: null } });
  };

  /** Answer one line through the mock's normal route, with the batch's credential headers. */
  async function answer(provider: BatchProvider, model: string, line: Line, headers: Record<string, string>) {
    const injected = options.requestError?.(provider, line.customId);
    if (injected) return { customId: line.customId, ok: false, status: injected.status, body: errorShape(provider, injected.status, injected.message) };
    const path = provider === "openai" ? "/v1/chat/completions" : provider === "anthropic" ? "/v1/messages" : `/v1beta/models/${encodeURIComponent(model)}:generateContent`;
    try {
      const res = await fetch(`${selfUrl()}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(line.body) });
      const body = JSON.parse(await res.text()) as unknown;
      return { customId: line.customId, ok: res.ok, status: res.status, body };
    } catch (err) {
      return { customId: line.customId, ok: false, status: 500, body: errorShape(provider, 500, `mock batch: ${String(err)}`) };
    }
  }

  /** Process a batch (answer every line) or end it as injected. */
  async function finish(batch: MockBatch) {
    const forced = options.endState?.(batch.provider, batch.n);
    if (forced === "failed" && batch.provider !== "anthropic") {
      batch.failure = { code: "invalid_request", message: "mock: the batch failed" };
      batch.results = [];
    } else if (forced === "expired") {
      batch.results = batch.lines.map((line) => ({ customId: line.customId, ok: false, status: 0, body: null, expired: true }));
    } else {
      batch.results = await Promise.all(batch.lines.map((line) => answer(batch.provider, batch.model, line, batch.headers)));
    }
    batch.state = endStateName(batch.provider, forced, geminiPrefix);
    if (batch.provider === "openai") writeOpenAIFiles(batch);
  }

  function writeOpenAIFiles(batch: MockBatch) {
    const ok = batch.results!.filter((r) => r.ok);
    const failed = batch.results!.filter((r) => !r.ok);
    const line = (r: NonNullable<MockBatch["results"]>[number]) =>
      JSON.stringify(
        r.expired
          ? { id: nextId("batch_req_"), custom_id: r.customId, response: null, error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." } }
          : { id: nextId("batch_req_"), custom_id: r.customId, response: { status_code: r.status, request_id: nextId("req_"), body: r.body }, error: null },
      ) + "\n";
    if (ok.length > 0) {
      batch.outputFileId = nextId("file-");
      files.set(batch.outputFileId, { bytes: 0, content: ok.map(line).join(""), purpose: "batch_output" });
    }
    if (failed.length > 0) {
      batch.errorFileId = nextId("file-");
      files.set(batch.errorFileId, { bytes: 0, content: failed.map(line).join(""), purpose: "batch_output" });
    }
  }

  function record(batch: MockBatch) {
    batches.set(batch.id, batch);
    stats.created.push({ provider: batch.provider, id: batch.id, customIds: batch.lines.map((l) => l.customId), ...(batch.metadata !== undefined && { metadata: batch.metadata }), ...(batch.displayName !== undefined && { displayName: batch.displayName }) });
    for (const line of batch.lines) {
      stats.submitted.set(line.customId, (stats.submitted.get(line.customId) ?? 0) + 1);
      stats.bodies.set(line.customId, line.body);
    }
  }

  /** A poll: the batch advances one step; the pollsToEnd-th poll after creation ends it. */
  async function advance(batch: MockBatch) {
    stats.polls++;
    if (batch.results) return;
    batch.polls++;
    if (batch.polls > (options.pollsToEnd ?? 1)) await finish(batch);
    else batch.state = runningStateName(batch.provider, batch.polls, geminiPrefix);
  }

  function credentialHeaders(req: IncomingMessage): Record<string, string> {
    const out: Record<string, string> = {};
    for (const h of ["authorization", "x-api-key", "x-goog-api-key", "anthropic-version"]) {
      const v = req.headers[h];
      if (typeof v === "string") out[h] = v;
    }
    return out;
  }

  // ------------------------------------------------------------------ OpenAI

  function openaiBatchObject(batch: MockBatch) {
    const results = batch.results ?? [];
    return {
      id: batch.id,
      object: "batch",
      endpoint: "/v1/chat/completions",
      errors: batch.failure ? { object: "list", data: [{ code: batch.failure.code, message: batch.failure.message, param: null, line: null }] } : null,
      input_file_id: "file-input",
      completion_window: "24h",
      status: batch.state,
      output_file_id: batch.outputFileId ?? null,
      error_file_id: batch.errorFileId ?? null,
      created_at: Math.floor(batch.createdAt / 1000),
      request_counts: { total: batch.lines.length, completed: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length },
      metadata: batch.metadata ?? null,
    };
  }

  function openaiValidate(content: string): { lines: Line[]; model: string } | { error: string } {
    const rows = content.split("\n").filter((l) => l.trim());
    if (rows.length === 0) return { error: "The input file is empty." };
    if (rows.length > limits.openaiMaxRequests) return { error: `The input file has ${rows.length} requests; the limit is ${limits.openaiMaxRequests}.` };
    const lines: Line[] = [];
    const seen = new Set<string>();
    let model: string | undefined;
    for (const [i, row] of rows.entries()) {
      let parsed: any;
      try {
        parsed = JSON.parse(row);
      } catch {
        return { error: `Line ${i + 1} is not valid JSON.` };
      }
      if (typeof parsed.custom_id !== "string" || !parsed.custom_id) return { error: `Line ${i + 1}: custom_id is required.` };
      if (seen.has(parsed.custom_id)) return { error: `Line ${i + 1}: the custom_id '${parsed.custom_id}' is duplicated; custom_id must be unique within the file.` };
      seen.add(parsed.custom_id);
      if (parsed.method !== "POST") return { error: `Line ${i + 1}: method must be POST.` };
      if (parsed.url !== "/v1/chat/completions") return { error: `Line ${i + 1}: the url '${String(parsed.url)}' does not match the batch's endpoint /v1/chat/completions.` };
      if (!parsed.body || typeof parsed.body !== "object") return { error: `Line ${i + 1}: body is required.` };
      if (model !== undefined && parsed.body.model !== model) return { error: `Line ${i + 1}: all requests of a batch must use the same model.` };
      model = parsed.body.model;
      lines.push({ customId: parsed.custom_id, body: parsed.body });
    }
    return { lines, model: model ?? "" };
  }

  /** A provider's batches, newest first (ties: the later created first). */
  function newestFirst(provider: BatchProvider): MockBatch[] {
    return [...batches.values()].filter((b) => b.provider === provider).sort((a, b) => b.createdAt - a.createdAt || b.n - a.n);
  }

  async function openai(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer, query: URLSearchParams): Promise<boolean> {
    if (req.method === "POST" && path === "/v1/files") {
      const form = parseMultipart(req.headers["content-type"], raw);
      if (!form) return refuse(res, "openai", "openai.files.multipart", 400, "The request must be multipart/form-data with 'file' and 'purpose'.");
      if (form.fields.purpose !== "batch") return refuse(res, "openai", "openai.files.purpose", 400, `Invalid value for 'purpose': '${form.fields.purpose ?? ""}' (this mock takes 'batch').`);
      if (!form.file) return refuse(res, "openai", "openai.files.missing", 400, "Missing required parameter: 'file'.");
      if (form.file.length > limits.openaiMaxFileBytes) return refuse(res, "openai", "openai.files.too_large", 400, `File is ${form.file.length} bytes; the limit for batch input files is ${limits.openaiMaxFileBytes} bytes.`);
      const id = nextId("file-");
      files.set(id, { bytes: form.file.length, content: form.file.toString("utf8"), purpose: "batch" });
      return json(res, 200, { id, object: "file", bytes: form.file.length, created_at: Math.floor(Date.now() / 1000), filename: form.filename ?? "input.jsonl", purpose: "batch" });
    }
    if (req.method === "POST" && path === "/v1/batches") {
      let body: any;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return refuse(res, "openai", "openai.batches.json", 400, "The body is not JSON.");
      }
      if (!OPENAI_ENDPOINTS.has(body.endpoint)) return refuse(res, "openai", "openai.batches.endpoint", 400, `Invalid value for 'endpoint': '${String(body.endpoint)}'.`);
      if (body.endpoint !== "/v1/chat/completions") return refuse(res, "openai", "openai.batches.endpoint_unsupported", 400, `This mock serves only /v1/chat/completions batches, not ${body.endpoint}.`);
      if (body.completion_window !== "24h") return refuse(res, "openai", "openai.batches.window", 400, `Invalid value for 'completion_window': '${String(body.completion_window)}'. Supported values are: '24h'.`);
      const metadataError = openaiMetadataError(body.metadata);
      if (metadataError) return refuse(res, "openai", "openai.batches.metadata", 400, metadataError);
      const file = files.get(body.input_file_id);
      if (!file || file.purpose !== "batch") return refuse(res, "openai", "openai.batches.unknown_file", 404, `No such File object: ${String(body.input_file_id)}`);
      const checked = openaiValidate(file.content);
      const batch: MockBatch = { provider: "openai", id: nextId("batch_"), n: stats.created.length + 1, model: "lines" in checked ? checked.model : "", lines: "lines" in checked ? checked.lines : [], polls: 0, state: "validating", createdAt: Date.now(), headers: credentialHeaders(req), metadata: body.metadata ?? null };
      record(batch);
      // Validation fails the batch at its first poll, as OpenAI reports it (status failed, errors.data).
      if ("error" in checked) {
        batch.failure = { code: "invalid_input", message: checked.error };
        batch.results = [];
        batch.state = "failed";
        stats.rejected.push({ rule: "openai.batches.invalid_file", status: 200, message: checked.error });
      }
      return json(res, 200, openaiBatchObject(batch));
    }
    if (req.method === "GET" && path === "/v1/batches") {
      stats.lists.openai++;
      const limit = pageLimit(query.get("limit"), 20, 100);
      if (limit === undefined) return refuse(res, "openai", "openai.batches.list_limit", 400, `Invalid 'limit': '${query.get("limit")}'. Expected an integer between 1 and 100.`);
      const all = newestFirst("openai");
      const after = query.get("after");
      const start = after === null ? 0 : all.findIndex((b) => b.id === after) + 1;
      if (start === 0 && after !== null) return refuse(res, "openai", "openai.batches.list_after", 400, `No such object: '${after}' (after).`);
      const page = all.slice(start, start + Math.min(limit, options.maxPageSize ?? limit));
      return json(res, 200, { object: "list", data: page.map(openaiBatchObject), first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: start + page.length < all.length });
    }
    const get = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (req.method === "GET" && get) {
      const batch = batches.get(decodeURIComponent(get[1]!));
      if (!batch || batch.provider !== "openai") return refuse(res, "openai", "openai.batches.unknown", 404, `No batch found with id '${get[1]}'.`);
      await advance(batch);
      return json(res, 200, openaiBatchObject(batch));
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (req.method === "GET" && content) {
      const file = files.get(decodeURIComponent(content[1]!));
      if (!file) return refuse(res, "openai", "openai.files.unknown", 404, `No such File object: ${content[1]}`);
      return text(res, file.content);
    }
    return false;
  }

  // ------------------------------------------------------------------ Anthropic

  function anthropicBatchObject(batch: MockBatch) {
    const ended = batch.results !== undefined;
    const results = batch.results ?? [];
    const count = (pick: (r: (typeof results)[number]) => boolean) => results.filter(pick).length;
    return {
      id: batch.id,
      type: "message_batch",
      processing_status: batch.state,
      request_counts: {
        processing: ended ? 0 : batch.lines.length,
        succeeded: count((r) => r.ok),
        errored: count((r) => !r.ok && !r.expired),
        canceled: 0,
        expired: count((r) => r.expired === true),
      },
      ended_at: ended ? new Date().toISOString() : null,
      created_at: new Date(batch.createdAt).toISOString(),
      expires_at: new Date(batch.createdAt + 24 * 3600 * 1000).toISOString(),
      cancel_initiated_at: null,
      results_url: ended ? `${selfUrl()}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  async function anthropic(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer, query: URLSearchParams): Promise<boolean> {
    if (req.method === "POST" && path === "/v1/messages/batches") {
      if (raw.length > limits.anthropicMaxBytes) return refuse(res, "anthropic", "anthropic.batches.too_large", 413, `Request exceeds the maximum size: ${raw.length} bytes > ${limits.anthropicMaxBytes} bytes for a message batch.`);
      let body: any;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return refuse(res, "anthropic", "anthropic.batches.json", 400, "The body is not JSON.");
      }
      const extra = body && typeof body === "object" ? Object.keys(body).filter((k) => k !== "requests") : [];
      if (extra.length > 0) return refuse(res, "anthropic", "anthropic.batches.extra_field", 400, `${extra[0]}: Extra inputs are not permitted`);
      const requests = Array.isArray(body.requests) ? body.requests : undefined;
      if (!requests || requests.length === 0) return refuse(res, "anthropic", "anthropic.batches.requests", 400, "requests: List should have at least 1 item after validation, not 0");
      if (requests.length > limits.anthropicMaxRequests) return refuse(res, "anthropic", "anthropic.batches.too_many", 400, `requests: List should have at most ${limits.anthropicMaxRequests} items after validation, not ${requests.length}`);
      const seen = new Set<string>();
      for (const [i, r] of requests.entries()) {
        if (typeof r?.custom_id !== "string" || !ANTHROPIC_CUSTOM_ID.test(r.custom_id))
          return refuse(res, "anthropic", "anthropic.batches.custom_id", 400, `requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
        if (seen.has(r.custom_id)) return refuse(res, "anthropic", "anthropic.batches.duplicate_custom_id", 400, `Duplicate custom_id: ${r.custom_id}. custom_id must be unique within a batch.`);
        seen.add(r.custom_id);
        if (!r.params || typeof r.params !== "object") return refuse(res, "anthropic", "anthropic.batches.params", 400, `requests.${i}.params: Field required`);
      }
      const batch: MockBatch = { provider: "anthropic", id: nextId("msgbatch_"), n: stats.created.length + 1, model: "", lines: requests.map((r: any) => ({ customId: r.custom_id, body: r.params })), polls: 0, state: "in_progress", createdAt: Date.now(), headers: credentialHeaders(req) };
      record(batch);
      return json(res, 200, anthropicBatchObject(batch));
    }
    if (req.method === "GET" && path === "/v1/messages/batches") {
      stats.lists.anthropic++;
      const limit = pageLimit(query.get("limit"), 20, 1000);
      if (limit === undefined) return refuse(res, "anthropic", "anthropic.batches.list_limit", 400, `limit: Input should be between 1 and 1000`);
      const afterId = query.get("after_id");
      const beforeId = query.get("before_id");
      if (afterId !== null && beforeId !== null) return refuse(res, "anthropic", "anthropic.batches.list_cursor", 400, "Only one of after_id and before_id may be given.");
      const all = newestFirst("anthropic");
      const cursor = afterId ?? beforeId;
      const at = cursor === null ? -1 : all.findIndex((b) => b.id === cursor);
      if (cursor !== null && at < 0) return refuse(res, "anthropic", "anthropic.batches.list_cursor", 400, `No message batch found with id '${cursor}'.`);
      const size = Math.min(limit, options.maxPageSize ?? limit);
      // after_id: the page just after (older than) the cursor; before_id: the page just before (newer).
      const [from, to] = beforeId !== null ? [Math.max(0, at - size), at] : [at + 1, at + 1 + size];
      const page = all.slice(from, to);
      const hasMore = beforeId !== null ? from > 0 : to < all.length;
      return json(res, 200, { data: page.map(anthropicBatchObject), has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
    }
    const results = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(path);
    if (req.method === "GET" && results) {
      const batch = batches.get(decodeURIComponent(results[1]!));
      if (!batch || batch.provider !== "anthropic") return refuse(res, "anthropic", "anthropic.batches.unknown", 404, `No message batch found with id '${results[1]}'.`);
      if (!batch.results) return refuse(res, "anthropic", "anthropic.batches.not_ended", 400, `Message batch ${batch.id} has not finished processing: its results are not available yet.`);
      const rows = batch.results.map((r) =>
        JSON.stringify({
          custom_id: r.customId,
          result: r.expired ? { type: "expired" } : r.ok ? { type: "succeeded", message: r.body } : { type: "errored", error: r.body },
        }),
      );
      return text(res, rows.map((row) => row + "\n").join(""));
    }
    const get = /^\/v1\/messages\/batches\/([^/]+)$/.exec(path);
    if (req.method === "GET" && get) {
      const batch = batches.get(decodeURIComponent(get[1]!));
      if (!batch || batch.provider !== "anthropic") return refuse(res, "anthropic", "anthropic.batches.unknown", 404, `No message batch found with id '${get[1]}'.`);
      await advance(batch);
      return json(res, 200, anthropicBatchObject(batch));
    }
    return false;
  }

  // ------------------------------------------------------------------ Gemini

  function geminiOperation(batch: MockBatch) {
    const results = batch.results;
    const done = results !== undefined;
    const metadata = {
      "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch",
      model: `models/${batch.model}`,
      displayName: batch.displayName ?? "",
      createTime: new Date(batch.createdAt).toISOString(),
      state: batch.state,
      name: batch.id,
      batchStats: {
        requestCount: String(batch.lines.length),
        ...(done ? { successfulRequestCount: String(results.filter((r) => r.ok).length), failedRequestCount: String(results.filter((r) => !r.ok).length) } : { pendingRequestCount: String(batch.lines.length) }),
      },
    };
    const succeeded = batch.state.endsWith("SUCCEEDED");
    return {
      name: batch.id,
      metadata,
      done,
      ...(done && succeeded
        ? {
            response: {
              "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatchOutput",
              inlinedResponses: {
                inlinedResponses: results.map((r) => (r.ok ? { response: r.body, metadata: { key: r.customId } } : { error: (r.body as { error?: unknown })?.error ?? { code: r.status, message: "error" }, metadata: { key: r.customId } })),
              },
            },
          }
        : {}),
      ...(done && batch.failure ? { error: { code: 3, message: batch.failure.message } } : {}),
    };
  }

  async function gemini(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer, query: URLSearchParams): Promise<boolean> {
    const create = /^\/v1beta\/models\/(.+):batchGenerateContent$/.exec(path);
    if (req.method === "POST" && create) {
      if (raw.length > limits.geminiMaxBytes) return refuse(res, "gemini", "gemini.batch.too_large", 400, `Request payload size exceeds the limit: ${limits.geminiMaxBytes} bytes.`);
      let body: any;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return refuse(res, "gemini", "gemini.batch.json", 400, "Invalid JSON payload received.");
      }
      const config = body?.batch?.input_config ?? body?.batch?.inputConfig;
      const requests = config?.requests?.requests;
      const displayName = body?.batch?.display_name ?? body?.batch?.displayName;
      if (!body?.batch || displayName === undefined) return refuse(res, "gemini", "gemini.batch.display_name", 400, "* BatchGenerateContentRequest.batch.display_name: field is required\n");
      if (typeof displayName !== "string") return refuse(res, "gemini", "gemini.batch.display_name", 400, `Invalid value at 'batch.display_name' (TYPE_STRING)`);
      if (!Array.isArray(requests) || requests.length === 0) return refuse(res, "gemini", "gemini.batch.requests", 400, "* BatchGenerateContentRequest.batch.input_config: inlined requests are empty\n");
      for (const [i, r] of requests.entries()) {
        if (!r?.request || typeof r.request !== "object") return refuse(res, "gemini", "gemini.batch.request", 400, `* requests[${i}].request: field is required\n`);
        const unknown = Object.keys(r).filter((k) => k !== "request" && k !== "metadata");
        if (unknown.length > 0) return refuse(res, "gemini", "gemini.batch.unknown_field", 400, `Invalid JSON payload received. Unknown name "${unknown[0]}" at 'batch.input_config.requests.requests[${i}]': Cannot find field.`);
      }
      const model = decodeURIComponent(create[1]!);
      const batch: MockBatch = {
        provider: "gemini",
        id: nextId("batches/mock"),
        n: stats.created.length + 1,
        model,
        lines: requests.map((r: any, i: number) => ({ customId: typeof r.metadata?.key === "string" ? r.metadata.key : `#${i}`, body: r.request })),
        polls: 0,
        state: `${geminiPrefix}PENDING`,
        createdAt: Date.now(),
        headers: credentialHeaders(req),
        displayName,
      };
      record(batch);
      return json(res, 200, geminiOperation(batch));
    }
    if (req.method === "GET" && path === "/v1beta/batches") {
      stats.lists.gemini++;
      const size = pageLimit(query.get("pageSize"), 50, 1000);
      if (size === undefined) return refuse(res, "gemini", "gemini.batch.list_page_size", 400, `Invalid value at 'page_size' (TYPE_INT32), "${query.get("pageSize")}"`);
      const all = newestFirst("gemini");
      // A page token is opaque: here the name of the last batch of the previous page, encoded.
      const token = query.get("pageToken");
      const last = token ? Buffer.from(token, "base64url").toString("utf8") : undefined;
      const start = last === undefined ? 0 : all.findIndex((b) => b.id === last) + 1;
      if (last !== undefined && start === 0) return refuse(res, "gemini", "gemini.batch.list_page_token", 400, "Invalid page token.");
      const page = all.slice(start, start + Math.min(size, options.maxPageSize ?? size));
      const more = start + page.length < all.length;
      return json(res, 200, { operations: page.map((b) => {
        const { response: _response, ...op } = geminiOperation(b) as Record<string, unknown>;
        return op;
      }), ...(more && { nextPageToken: Buffer.from(page.at(-1)!.id).toString("base64url") }) });
    }
    const get = /^\/v1beta\/(batches\/[^/:]+)$/.exec(path);
    if (req.method === "GET" && get) {
      const batch = batches.get(get[1]!);
      if (!batch || batch.provider !== "gemini") return refuse(res, "gemini", "gemini.batch.unknown", 404, `Batch ${get[1]} not found.`);
      await advance(batch);
      return json(res, 200, geminiOperation(batch));
    }
    return false;
  }

  return {
    stats,
    async handle(req, res, raw) {
      const [path, search] = (req.url ?? "/").split("?") as [string, string | undefined];
      const query = new URLSearchParams(search ?? "");
      const provider: BatchProvider | undefined =
        path === "/v1/files" || path.startsWith("/v1/files/") || path === "/v1/batches" || path.startsWith("/v1/batches/")
          ? "openai"
          : path.startsWith("/v1/messages/batches")
            ? "anthropic"
            : path.endsWith(":batchGenerateContent") || path === "/v1beta/batches" || path.startsWith("/v1beta/batches/")
              ? "gemini"
              : undefined;
      if (!provider) return false;
      const routeKey = `${req.method} ${path}`;
      const attempt = (routeCalls.get(routeKey) ?? 0) + 1;
      routeCalls.set(routeKey, attempt);
      const fault = options.routeFault?.(routeKey, attempt);
      if (fault) return json(res, fault.status, errorShape(provider, fault.status, `mock fault ${fault.status}`), fault.retryAfter !== undefined ? { "retry-after": fault.retryAfter } : {});
      const lost = options.lostReply?.(routeKey, attempt);
      // The route runs against a response that goes nowhere; the client gets the lost reply's status.
      const target = lost === undefined ? res : ({ writeHead: () => target, end: () => target } as unknown as ServerResponse);
      const handled = provider === "openai" ? await openai(req, target, path, raw, query) : provider === "anthropic" ? await anthropic(req, target, path, raw, query) : await gemini(req, target, path, raw, query);
      if (lost !== undefined) return json(res, lost, errorShape(provider, lost, `mock lost reply ${lost}`));
      if (!handled) return refuse(res, provider, "batch.no_route", 404, `no route ${req.method} ${path}`);
      return true;
    },
  };
}

/** A list page size: `fallback` when not given, undefined when not an integer in 1..max. */
function pageLimit(given: string | null, fallback: number, max: number): number | undefined {
  if (given === null) return fallback;
  if (!/^\d+$/.test(given)) return undefined;
  const n = Number(given);
  return n >= 1 && n <= max ? n : undefined;
}

/** Why OpenAI would refuse a batch's metadata (api-reference: 16 pairs, keys <= 64, values <= 512 characters, strings), or undefined. */
export function openaiMetadataError(metadata: unknown): string | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== "object" || Array.isArray(metadata)) return "Invalid type for 'metadata': expected an object.";
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > 16) return `Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got ${entries.length} instead.`;
  for (const [key, value] of entries) {
    if (key.length > 64) return `Invalid 'metadata': string too long. Expected a key of at most 64 characters, but got one of ${key.length} characters instead.`;
    if (typeof value !== "string") return `Invalid type for 'metadata.${key}': expected a string.`;
    if (value.length > 512) return `Invalid 'metadata.${key}': string too long. Expected a string with maximum length 512, but got a string with length ${value.length} instead.`;
  }
  return undefined;
}

function errorShape(provider: BatchProvider, status: number, message: string): unknown {
  if (provider === "anthropic") return { type: "error", error: { type: status === 429 ? "rate_limit_error" : "invalid_request_error", message } };
  if (provider === "gemini") return { error: { code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : "INVALID_ARGUMENT" } };
  return { error: { message, type: "invalid_request_error", param: null, code: null } };
}

function runningStateName(provider: BatchProvider, polls: number, geminiPrefix: string): string {
  if (provider === "openai") return polls === 1 ? "in_progress" : "finalizing";
  if (provider === "anthropic") return "in_progress";
  return `${geminiPrefix}RUNNING`;
}

function endStateName(provider: BatchProvider, forced: "expired" | "failed" | undefined, geminiPrefix: string): string {
  if (provider === "anthropic") return "ended";
  if (provider === "openai") return forced ?? "completed";
  return `${geminiPrefix}${forced === "expired" ? "EXPIRED" : forced === "failed" ? "FAILED" : "SUCCEEDED"}`;
}

/** A multipart/form-data body's text fields and its one file part. */
export function parseMultipart(contentType: string | undefined, raw: Buffer): { fields: Record<string, string>; file?: Buffer; filename?: string } | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? "");
  if (!contentType?.startsWith("multipart/form-data") || !boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  let filename: string | undefined;
  let start = raw.indexOf(delimiter);
  while (start >= 0) {
    const next = raw.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = raw.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after the delimiter and before the next
    const split = part.indexOf("\r\n\r\n");
    if (split >= 0) {
      const head = part.subarray(0, split).toString("utf8");
      const body = part.subarray(split + 4);
      const name = /name="([^"]*)"/.exec(head)?.[1];
      const fileName = /filename="([^"]*)"/.exec(head)?.[1];
      if (fileName !== undefined) {
        file = Buffer.from(body);
        filename = fileName;
      } else if (name) fields[name] = body.toString("utf8");
    }
    start = next;
  }
  return { fields, ...(file ? { file } : {}), ...(filename !== undefined ? { filename } : {}) };
}
