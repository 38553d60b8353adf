/**
 * A local HTTP server that speaks the OpenAI Chat Completions, Anthropic Messages and Gemini
 * generateContent formats, with scripted faults, so adapters can be tested without the network.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_SETTINGS, type ModelRequest } from "../../src/core/types.js";
import { checkRequest } from "./strict-rules.js";
import { createMockBatch, type MockBatchOptions, type MockBatchStats } from "./mock-batch.js";

export type MockProvider = "openai" | "anthropic" | "gemini";

export type Fault =
  | { type: "status"; status: number; retryAfter?: string }
  | { type: "slow"; delayMs: number }
  | { type: "reset" }
  | { type: "malformed" }
  | { type: "empty" }
  /**
   * Echo the request's credential headers and URL (echoText) back, cut to its first `cut`
   * characters: as the error message of a JSON error body, as a plain-text error body, as the
   * reply text of a 200, or as a 200 body that is not JSON. Status 400 for the error forms unless
   * given. Tests that keys never reach our outputs sweep `cut` across the key.
   */
  | { type: "echo"; into: EchoTarget; cut?: number; status?: number }
  /** A 200 whose reply carries reasoning text beside the answer, in the provider's field for it. */
  | { type: "reasoning"; text: string }
  /**
   * A 200 cut by the token limit (finish_reason "length", stop_reason "max_tokens", finishReason
   * "MAX_TOKENS"). Its text is `text` when given ("" for none), else the first half of the reply.
   */
  | { type: "length"; text?: string };

export type EchoTarget = "error-message" | "error-text" | "reply" | "malformed";
export const ECHO_TARGETS: readonly EchoTarget[] = ["error-message", "error-text", "reply", "malformed"];

const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "x-goog-api-key"] as const;

/** What an echo fault sends back (before cutting): one `name: value` line per credential header, then the URL. */
export function echoText(req: { path: string; headers: IncomingMessage["headers"] }): string {
  const lines: string[] = [];
  for (const h of CREDENTIAL_HEADERS) {
    const v = req.headers[h];
    if (typeof v === "string") lines.push(`${h}: ${v}`);
  }
  lines.push(`url: ${req.path}`);
  return lines.join("\n");
}

/** What the server understood of one request. */
export interface MockRequest {
  provider: MockProvider;
  model: string;
  system: string;
  /** Text parts of non-system messages, in order. */
  texts: string[];
  imageCount: number;
  body: any;
  path: string;
  headers: IncomingMessage["headers"];
  /** Stable hash of the raw body: identical requests (retries) share it. */
  key: string;
}

export interface MockServerOptions {
  port?: number;
  /** Reply text (default `{"display_ids":[1]}`). */
  reply?: (req: MockRequest) => string;
  /** Fixed delay before every answer. */
  latencyMs?: number;
  /** Fault to inject; `attempt` counts requests with this body's key, from 1. */
  faults?: (req: MockRequest, attempt: number) => Fault | undefined;
  /** Keep every parsed request in stats.seen (off by default to save memory in benches). */
  recordRequests?: boolean;
  /**
   * Reject what the real APIs reject (strict-rules.ts), with their status and error body, before
   * any fault; each rejection is kept in stats.rejected. Off by default.
   */
  strict?: boolean;
  /** Called with each strict rejection as it happens. */
  onReject?: (rejected: RejectedRequest) => void;
  /** Extra response headers (rate-limit headers, say) on every answer after the strict check; `attempt` as for faults. */
  replyHeaders?: (req: MockRequest, attempt: number) => Record<string, string> | undefined;
  /** The batch APIs (mock-batch.ts): how batches advance, injected per-request errors, tighter limits. */
  batch?: MockBatchOptions;
  /** Called with every request as it arrives (batch routes included), before anything is answered. */
  onRequest?: (req: IncomingMessage) => void;
}

/** One request the strict server refused. */
export interface RejectedRequest {
  status: number;
  message: string;
  provider: MockProvider;
  model: string;
  /** The strict rule that answered (strict-rules.ts ids, e.g. "openai.json_without_json_word"). */
  rule: string;
}

export interface MockStats {
  requests: number;
  attempts: Map<string, number>;
  inFlight: number;
  maxInFlight: number;
  /** Every distinct Authorization / x-api-key / x-goog-api-key value received. */
  credentials: Set<string>;
  /** Every distinct request URL (path and query). */
  urls: Set<string>;
  seen: MockRequest[];
  /** Requests refused by the strict rules (always empty when strict is off). */
  rejected: RejectedRequest[];
}

export interface MockServer {
  url: string;
  port: number;
  stats: MockStats;
  /** What the batch routes saw (mock-batch.ts). */
  batchStats: MockBatchStats;
  close(): Promise<void>;
}

export const DEFAULT_REPLY = '{"display_ids":[1]}';

const GEMINI_ROUTE = /^\/v1beta\/models\/(.+):generateContent$/;

function route(path: string): { provider: MockProvider; model?: string } | undefined {
  if (path === "/v1/chat/completions" || path === "/chat/completions") return { provider: "openai" };
  if (path === "/v1/messages") return { provider: "anthropic" };
  const g = GEMINI_ROUTE.exec(path);
  if (g) return { provider: "gemini", model: decodeURIComponent(g[1]!) };
  return undefined;
}

/** Text of a string-or-parts content field. */
function textOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((p) => p && typeof p.text === "string" && p.type !== "image").map((p) => p.text as string);
}

function describe(provider: MockProvider, model: string | undefined, body: any): Omit<MockRequest, "path" | "headers" | "key"> {
  let system = "";
  const texts: string[] = [];
  let imageCount = 0;
  if (provider === "openai") {
    for (const m of body.messages ?? []) {
      if (m.role === "system") system += textOf(m.content).join("\n");
      else texts.push(...textOf(m.content));
      if (Array.isArray(m.content)) imageCount += m.content.filter((p: any) => p?.type === "image_url").length;
    }
  } else if (provider === "anthropic") {
    system = textOf(body.system).join("\n");
    for (const m of body.messages ?? []) {
      texts.push(...textOf(m.content));
      if (Array.isArray(m.content)) imageCount += m.content.filter((p: any) => p?.type === "image").length;
    }
  } else {
    system = (body.systemInstruction?.parts ?? []).map((p: any) => p.text ?? "").join("\n");
    for (const c of body.contents ?? []) {
      for (const p of c.parts ?? []) {
        if (typeof p.text === "string") texts.push(p.text);
        if (p.inlineData) imageCount++;
      }
    }
  }
  return { provider, model: model ?? String(body.model ?? ""), system, texts, imageCount, body };
}

function tokens(s: string): number {
  return Math.ceil(s.length / 4);
}

function okBody(req: MockRequest, text: string): unknown {
  const input = tokens(req.system + req.texts.join("")) + 85 * req.imageCount;
  const output = tokens(text);
  if (req.provider === "openai")
    return {
      id: "chatcmpl-mock",
      object: "chat.completion",
      model: req.model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    };
  if (req.provider === "anthropic")
    return {
      id: "msg_mock",
      type: "message",
      role: "assistant",
      model: req.model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage: { input_tokens: input, output_tokens: output },
    };
  return {
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
  };
}

/**
 * An ok body with reasoning text beside the answer: OpenAI-compatible servers (vLLM, DeepSeek) put
 * it in message.reasoning_content, Anthropic in a thinking block before the text block, Gemini in
 * a part marked thought: true. Reasoning tokens are reported where the provider reports them.
 */
function withReasoning(ok: unknown, provider: MockProvider, reasoning: string): unknown {
  const body = ok as any;
  const extra = tokens(reasoning);
  if (provider === "openai") {
    body.choices[0].message.reasoning_content = reasoning;
    body.usage.completion_tokens += extra;
    body.usage.total_tokens += extra;
    body.usage.completion_tokens_details = { reasoning_tokens: extra };
  } else if (provider === "anthropic") {
    body.content.unshift({ type: "thinking", thinking: reasoning, signature: "mock-signature" });
    body.usage.output_tokens += extra;
  } else {
    body.candidates[0].content.parts.unshift({ text: reasoning, thought: true });
    body.usageMetadata.thoughtsTokenCount = extra;
    body.usageMetadata.totalTokenCount += extra;
  }
  return body;
}

/** An ok body cut by the token limit, with the partial text given. */
function tokenLimited(req: MockRequest, text: string): unknown {
  const body = okBody(req, text) as any;
  if (req.provider === "openai") body.choices[0].finish_reason = "length";
  else if (req.provider === "anthropic") {
    body.stop_reason = "max_tokens";
    if (!text) body.content = [];
  } else {
    body.candidates[0].finishReason = "MAX_TOKENS";
    if (!text) body.candidates[0].content.parts = [];
  }
  return body;
}

function emptyBody(provider: MockProvider): unknown {
  if (provider === "openai") return { choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "stop" }] };
  if (provider === "anthropic") return { type: "message", content: [], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 0 } };
  return { candidates: [{ content: { role: "model", parts: [] }, finishReason: "STOP" }] };
}

/** An error body in the provider's shape. It echoes the credential, as careless servers do, to test scrubbing. */
function errorBody(provider: MockProvider, status: number, credential: string, message = `mock error ${status} for credential ${credential || "(none)"}`): unknown {
  if (provider === "anthropic") return { type: "error", error: { type: "mock_error", message } };
  if (provider === "gemini") return { error: { code: status, message, status: "MOCK" } };
  return { error: { message, type: "mock_error", code: status } };
}

export async function startMockServer(opts: MockServerOptions = {}): Promise<MockServer> {
  const stats: MockStats = {
    requests: 0,
    attempts: new Map(),
    inFlight: 0,
    maxInFlight: 0,
    credentials: new Set(),
    urls: new Set(),
    seen: [],
    rejected: [],
  };
  const timers = new Set<NodeJS.Timeout>();

  /** Resolve after ms unless the client goes away first (then never). */
  const delay = (ms: number, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
      res.once("close", () => {
        clearTimeout(t);
        timers.delete(t);
      });
    });

  const send = (res: ServerResponse, status: number, payload: string, extra: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { "content-type": "application/json", ...extra });
    res.end(payload);
  };

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string, rawBytes: number) {
    const url = req.url ?? "/";
    stats.urls.add(url);
    const credential = [req.headers.authorization, req.headers["x-api-key"], req.headers["x-goog-api-key"]]
      .filter((v): v is string => typeof v === "string")
      .join(" ");
    for (const h of CREDENTIAL_HEADERS) {
      const v = req.headers[h];
      if (typeof v === "string") stats.credentials.add(v);
    }
    const r = route(url.split("?")[0]!);
    if (req.method !== "POST" || !r) return send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${url}` } }));
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(res, 400, JSON.stringify({ error: { message: "request body is not JSON" } }));
    }
    const key = createHash("sha256").update(raw).digest("hex").slice(0, 16);
    const attempt = (stats.attempts.get(key) ?? 0) + 1;
    stats.attempts.set(key, attempt);
    stats.requests++;
    const mreq: MockRequest = { ...describe(r.provider, r.model, body), path: url, headers: req.headers, key };
    if (opts.recordRequests) stats.seen.push(mreq);
    if (opts.strict) {
      const rejection = checkRequest(r.provider, mreq.model, body, rawBytes);
      if (rejection) {
        const rejected = { status: rejection.status, message: rejection.message, provider: r.provider, model: mreq.model, rule: rejection.rule };
        stats.rejected.push(rejected);
        opts.onReject?.(rejected);
        return send(res, rejection.status, JSON.stringify(rejection.body));
      }
    }

    const extraHeaders = opts.replyHeaders?.(mreq, attempt) ?? {};
    const answer = (out: ServerResponse, status: number, payload: string, extra: Record<string, string> = {}) => send(out, status, payload, { ...extraHeaders, ...extra });
    const fault = opts.faults?.(mreq, attempt);
    if (fault?.type === "reset") {
      req.socket.destroy();
      return;
    }
    await delay(Math.max(opts.latencyMs ?? 0, fault?.type === "slow" ? fault.delayMs : 0), res);
    if (fault?.type === "status")
      return answer(
        res,
        fault.status,
        JSON.stringify(errorBody(r.provider, fault.status, credential)),
        fault.retryAfter !== undefined ? { "retry-after": fault.retryAfter } : {},
      );
    if (fault?.type === "echo") {
      const echoed = echoText(mreq).slice(0, fault.cut ?? Infinity);
      const status = fault.status ?? 400;
      if (fault.into === "error-message") return answer(res, status, JSON.stringify(errorBody(r.provider, status, "", echoed)));
      if (fault.into === "error-text") return answer(res, status, echoed, { "content-type": "text/plain" });
      if (fault.into === "malformed") return answer(res, 200, echoed);
      return answer(res, 200, JSON.stringify(okBody(mreq, echoed)));
    }
    if (fault?.type === "malformed") return answer(res, 200, '{"choices":[{"message":{"content":"trunc');
    if (fault?.type === "empty") return answer(res, 200, JSON.stringify(emptyBody(r.provider)));
    const text = opts.reply ? opts.reply(mreq) : DEFAULT_REPLY;
    if (fault?.type === "reasoning") return answer(res, 200, JSON.stringify(withReasoning(okBody(mreq, text), r.provider, fault.text)));
    if (fault?.type === "length") return answer(res, 200, JSON.stringify(tokenLimited(mreq, fault.text ?? text.slice(0, Math.ceil(text.length / 2)))));
    answer(res, 200, JSON.stringify(okBody(mreq, text)));
  }

  let selfUrl = "";
  const batch = createMockBatch(opts.batch ?? {}, () => selfUrl);

  const server = createServer((req, res) => {
    opts.onRequest?.(req);
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.once("close", () => stats.inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      batch
        .handle(req, res, raw)
        .then((handled) => (handled ? undefined : handle(req, res, raw.toString("utf8"), raw.length)))
        .catch((err) => {
          send(res, 500, JSON.stringify({ error: { message: `mock server bug: ${String(err)}` } }));
        });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  selfUrl = `http://127.0.0.1:${port}`;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    batchStats: batch.stats,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A small request for tests: optional system text, then the user parts in the order given. */
export function makeRequest(
  user: (string | { image: string; mediaType?: string })[] = ["Which waypoints are traversable?"],
  options: { system?: string; itemId?: string; settings?: Partial<ModelRequest["settings"]> } = {},
): ModelRequest {
  const messages: ModelRequest["messages"] = [];
  if (options.system !== undefined) messages.push({ role: "system", content: [{ type: "text", text: options.system }] });
  messages.push({
    role: "user",
    content: user.map((u) =>
      typeof u === "string"
        ? { type: "text" as const, text: u }
        : { type: "image" as const, mediaType: u.mediaType ?? "image/png", base64: u.image },
    ),
  });
  return { itemId: options.itemId ?? "item-1", messages, settings: { ...DEFAULT_SETTINGS, ...options.settings } };
}
