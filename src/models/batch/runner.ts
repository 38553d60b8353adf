/**
 * `run --batch`: the pass before the normal one. Every request the run would send and the store
 * cannot answer (found exactly as the run finds them: core/run.ts runItems with beforeSend, which
 * shapes and keys them as askModel does) goes to the provider's batch API, in batches within its
 * limits; each batch is written as an intent before it is submitted (intent.ts), recorded in the
 * store's `batches` table the moment it is accepted, polled until it ends, and its results are
 * stored under the same keys as normal replies. A run stopped after submitting polls the same
 * batches on restart and never resubmits their requests, even when it was stopped before the
 * batch id was stored. The normal pass then finds every reply in the store and scores as usual.
 */
import type { BenchItem } from "../../core/benchmark.js";
import { CostLimitReached, estimateInputTokens, requestSize, type CostBudget } from "../../core/cost.js";
import { UsageError } from "../../core/problems.js";
import { runItems, RunInterrupted, type RunOptions } from "../../core/run.js";
import type { ModelRequest, ModelResponse, ResponseError } from "../../core/types.js";
import { costUsd } from "../../core/usage.js";
import { ResponseStore, type BatchIntent, type BatchRecord, type ReplyStore } from "../../store/store.js";
import { MAX_MESSAGE, ProviderError, classifyError } from "../errors.js";
import { answeredReply } from "../provider.js";
import { backoffDelay, RETRY_DEFAULTS, sleep as defaultSleep, type SleepFn } from "../retry.js";
import { snippet } from "../secrets.js";
import { chunkLines } from "./chunk.js";
import { locateIntent, newIntentId, testKillPoint } from "./intent.js";
import type { BatchClient } from "./client.js";
import { CUSTOM_ID, MB, type BatchContext, type BatchLine, type BatchLimits, type BatchStatus, type LineResult } from "./types.js";

/** --batch-poll default: seconds between two polls of the open batches. */
export const DEFAULT_BATCH_POLL_SECONDS = 30;

export interface BatchPassOptions {
  client: BatchClient;
  /** Milliseconds between polls. */
  pollMs: number;
  /** Progress lines (batch id, state, counts); stderr in the CLI, nothing under --quiet. */
  log?: (line: string) => void;
  /** --max-cost under --batch (its price is the batch price: core/cost.ts costBudget). */
  budget?: CostBudget;
  /** Tighter limits than the provider's (tests). */
  limits?: Partial<BatchLimits>;
  sleep?: SleepFn;
  now?: () => number;
}

export interface BatchPassSummary {
  /** Batches found open in the store (or found at the provider for an intent the store kept) and polled to their end. */
  resumed: number;
  /** Batches submitted by this pass. */
  submitted: number;
  /** Requests submitted by this pass. */
  requests: number;
}

interface Pending {
  itemId: string;
  /** The item's place in the run: batches follow the run's item order. */
  index: number;
  request: ModelRequest;
}

/** The SQLite store is the one that keeps batches; a queued run's store does not. */
function batchStore(store: ReplyStore | undefined): ResponseStore {
  if (store instanceof ResponseStore) return store;
  throw new UsageError("--batch keeps its batch ids in the SQLite response store (--store); it cannot be used with this store");
}

export async function runBatchPass<I extends BenchItem>(run: RunOptions<I>, options: BatchPassOptions): Promise<BatchPassSummary> {
  if (run.responder.kind !== "model") throw new UsageError("--batch needs an openai:, anthropic: or gemini: model");
  const store = batchStore(run.store);
  const { client } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const limits: BatchLimits = { ...client.api.limits, ...options.limits };
  const context: BatchContext = { http: client.http, baseUrl: client.baseUrl, model: client.model, signal: run.signal };
  const interrupted = () => new RunInterrupted(0);
  /** Keys whose result arrived in this pass: never resubmitted by it, even as errors under --retry-errors. */
  const settled = new Set<string>();

  const errorReply = (error: ResponseError): ModelResponse => ({ outcome: "error", text: "", latencyMs: 0, attempts: 0, error: { ...error, message: snippet(error.message, client.secrets, MAX_MESSAGE) } });
  const put = (key: string, itemId: string, response: ModelResponse) => {
    store.put(key, itemId, client.spec, response);
    settled.add(key);
  };

  /** A result as the normal adapter would have stored its reply (models/provider.ts generate: parse, scrub, cap). */
  const toResponse = (result: LineResult | undefined, latencyMs: number, missing: string): ModelResponse => {
    if (!result) return { ...errorReply({ kind: "other", message: missing }), latencyMs };
    if (!result.ok) return { ...errorReply(result.error), latencyMs, attempts: 1 };
    try {
      return answeredReply(client.wire.parse(result.json, { maxTokens: run.settings.maxTokens }), client.secrets, client.maxReplyBytes, latencyMs, 1);
    } catch (err) {
      return { ...errorReply(classifyError(err, client.secrets).toResponseError()), latencyMs, attempts: 1 };
    }
  };

  /** Store a terminal batch's results; requests it has none for are errors saying why. */
  const collect = async (record: BatchRecord, status: BatchStatus) => {
    const customIds = record.requests.map((r) => r.custom_id);
    const results = new Map((await client.api.results(record.id, status, context, customIds)).map((r) => [r.customId, r]));
    const why = client.api.failure?.(status);
    const missing = `no result for this request: batch ${record.id} ended ${status.state}${why ? ` (${why})` : ""}; run again with --retry-errors to ask it again`;
    // A batch has no per-request latency: the time from submission to the batch's results.
    const latencyMs = Math.max(0, now() - Date.parse(record.created_at));
    for (const request of record.requests) put(request.key, request.item_id, toResponse(results.get(request.custom_id), latencyMs, missing));
    store.updateBatch(record.id, status.state, true);
    const failed = record.requests.filter((r) => results.get(r.custom_id)?.ok !== true).length;
    log(`batch ${record.id} (${client.spec}): ${status.state}, results stored for ${record.requests.length} requests${failed ? ` (${failed} errors)` : ""}`);
  };

  /** Poll the batches until every one has ended and its results are stored. */
  const settle = async (records: BatchRecord[]) => {
    const open = new Map(records.map((r) => [r.id, r]));
    while (open.size > 0) {
      for (const record of [...open.values()]) {
        let status: BatchStatus;
        try {
          status = await client.api.poll(record.id, context);
        } catch (err) {
          if (run.signal.aborted) throw interrupted();
          const e = classifyError(err, client.secrets);
          // The batch stays recorded as open: the next run polls it again.
          throw new ProviderError(e.kind, `polling batch ${record.id} failed: ${e.message}; it is kept in the store, run the same command again to resume polling`, { ...(e.status !== undefined && { status: e.status }), retryable: false });
        }
        if (status.state !== record.state) {
          store.updateBatch(record.id, status.state, false);
          record.state = status.state;
        }
        const { total, done, failed } = status.counts;
        log(`batch ${record.id} (${client.spec}): ${status.state}${done !== undefined ? `, ${done}/${total ?? record.requests.length} done` : ""}${failed ? `, ${failed} failed` : ""}`);
        if (!status.terminal) continue;
        try {
          await collect(record, status);
        } catch (err) {
          if (run.signal.aborted) throw interrupted();
          const e = classifyError(err, client.secrets);
          throw new ProviderError(e.kind, `reading the results of batch ${record.id} failed: ${e.message}; it is kept in the store, run the same command again to read them`, { ...(e.status !== undefined && { status: e.status }), retryable: false });
        }
        open.delete(record.id);
      }
      if (open.size > 0) await sleep(options.pollMs, run.signal).catch(() => Promise.reject(interrupted()));
    }
  };

  /** The batch of an intent, found at the provider: recorded as if its submit had returned. */
  const adopt = (intent: BatchIntent, found: { id: string; state: string }): BatchRecord => {
    const record: BatchRecord = { id: found.id, provider: client.provider, model: client.spec, state: found.state, requests: intent.requests, created_at: intent.created_at, updated_at: new Date(now()).toISOString(), collected: false, intent: intent.intent };
    store.saveBatch(record);
    return record;
  };
  const locate = async (intent: BatchIntent) => {
    try {
      return await locateIntent(client.api, context, intent, store.batchIds());
    } catch (err) {
      if (run.signal.aborted) throw interrupted();
      const e = classifyError(err, client.secrets);
      throw new ProviderError(e.kind, `listing batches to find intent ${intent.intent} failed: ${e.message}; it is kept in the store, run the same command again`, { ...(e.status !== undefined && { status: e.status }), retryable: false });
    }
  };

  // 1. Intents a run killed mid-submit left: found at the provider (then polled below) or, once
  //    the listing shows they never got there, dropped, so step 2 finds their requests unanswered.
  for (const intent of store.intents(client.spec)) {
    const located = await locate(intent);
    if (located.kind === "found") {
      adopt(intent, located);
      log(`batch ${located.id} (${client.spec}): found at the provider for intent ${intent.intent} (submitted before the restart), not submitted again`);
    } else if (located.kind === "absent") {
      store.dropIntent(intent.intent);
      log(`intent ${intent.intent} (${client.spec}): no batch of it at the provider; its ${intent.requests.length} requests are submitted again`);
    } else {
      throw new ProviderError("other", `cannot tell whether the batch of intent ${intent.intent} (${intent.requests.length} requests, ${intent.created_at}) reached the provider: ${located.why}; nothing was resubmitted`, { retryable: false });
    }
  }

  // Batches a stopped run left open: polled to their end before anything new is sent.
  const left = store.batches(client.spec);
  if (left.length > 0) {
    log(`resuming ${left.length} batch${left.length === 1 ? "" : "es"} of ${client.spec} kept in ${store.file}`);
    await settle(left);
  }

  // 2. What the run would send: found without sending (beforeSend says no), keyed as askModel keys it.
  const pending = new Map<string, Pending>();
  const indexOf = new Map(run.items.map((item, i) => [item, i]));
  const { progress: _progress, onResult: _onResult, ...quiet } = run;
  await runItems({
    ...quiet,
    beforeSend: (item, request, key) => {
      const index = indexOf.get(item)!;
      const seen = pending.get(key);
      if (!settled.has(key) && (!seen || index < seen.index)) pending.set(key, { itemId: item.id, index, request });
      return false;
    },
  }).catch((error) => Promise.reject(error instanceof RunInterrupted ? interrupted() : error));

  // 3. Each body as the normal adapter builds it; one it cannot build is an error reply, as there.
  const lines: BatchLine[] = [];
  const ordered = [...pending].sort(([, a], [, b]) => a.index - b.index);
  for (const [key, { itemId, request }] of ordered) {
    let body: Record<string, unknown>;
    try {
      body = client.body(request);
    } catch (err) {
      const e = err instanceof ProviderError ? err : new ProviderError("other", `cannot build request: ${String(err)}`, { retryable: false });
      put(key, itemId, errorReply(e.toResponseError()));
      continue;
    }
    // The store key (a SHA-256 in hex, 64 characters) is a valid custom id for all three APIs.
    if (!CUSTOM_ID.test(key)) throw new Error(`internal: store key ${key} is not a valid batch custom id`);
    lines.push({ key, customId: key, itemId, body });
  }
  if (lines.length === 0) return { resumed: left.length, submitted: 0, requests: 0 };

  /**
   * Submit a chunk under its intent. A failure that may have created the batch anyway (no reply, a
   * server error: the create call is not retried by the HTTP layer for those, http.ts) is looked up
   * by the intent first: found, it is that batch; absent, the submit never got there and is sent
   * again, with the same backoff and attempts as any call.
   */
  type Submitted = { kind: "accepted" | "found"; batch: { id: string; state: string }; after?: string } | { kind: "not accepted"; error: ProviderError };
  const submitIntent = async (chunk: BatchLine[], intent: BatchIntent): Promise<Submitted> => {
    const attempts = Math.max(1, context.http.policy.maxAttempts ?? RETRY_DEFAULTS.maxAttempts);
    for (let attempt = 1; ; attempt++) {
      try {
        return { kind: "accepted", batch: await client.api.submit(chunk, context, intent.intent) };
      } catch (err) {
        // Stopped mid-call: the batch may exist; the intent stays for the next run to look for it.
        if (run.signal.aborted) throw interrupted();
        const e = classifyError(err, client.secrets);
        if (refused(e.status)) return { kind: "not accepted", error: e };
        const located = await locate(intent);
        if (located.kind === "found") return { kind: "found", batch: located, after: e.message };
        if (located.kind === "undecided") throw new ProviderError(e.kind, `submitting a batch failed (${e.message}) and ${located.why}: intent ${intent.intent} is kept in the store, run the same command again`, { retryable: false });
        if (attempt >= attempts) return { kind: "not accepted", error: e };
        await sleep(backoffDelay(attempt, context.http.policy, e.retryAfterMs), run.signal).catch(() => Promise.reject(interrupted()));
      }
    }
  };

  const submitted: BatchRecord[] = [];
  let requests = 0;
  /** Submit lines in batches within the limits, record each, then poll them all to their end. */
  const submitAndSettle = async (group: BatchLine[]) => {
    const { chunks, tooBig } = chunkLines(group, (line) => client.api.lineBytes(line), limits, client.api.envelopeBytes);
    for (const line of tooBig) {
      const bytes = client.api.lineBytes(line);
      put(line.key, line.itemId, errorReply({ kind: "other", message: `request of ${bytes} bytes is over the ${limitText(limits.maxBytes)} limit of one ${client.provider} batch${client.provider === "gemini" ? " (inline requests; larger input needs the File API, which --batch does not use): run it without --batch" : ""}` }));
    }
    const records: BatchRecord[] = [];
    for (const chunk of chunks) {
      /** Not accepted: its requests are errors, which --retry-errors asks again. */
      const notAccepted = (e: ProviderError) => {
        for (const line of chunk) put(line.key, line.itemId, errorReply({ ...e.toResponseError(), message: `batch not accepted: ${e.message}` }));
        log(`batch of ${chunk.length} requests (${client.spec}) not accepted: ${e.message}`);
      };
      // An API with no label on a batch: the newest batch listed now marks where ours will appear (intent.ts).
      let listedAfter: string | null | undefined;
      if (client.api.findBy === "created") {
        try {
          listedAfter = (await client.api.list(context, undefined, 1)).batches[0]?.id ?? null;
        } catch (err) {
          if (run.signal.aborted) throw interrupted();
          const e = classifyError(err, client.secrets);
          notAccepted(new ProviderError(e.kind, `listing batches before submitting failed: ${e.message}`, { ...(e.status !== undefined && { status: e.status }), retryable: false }));
          continue;
        }
      }
      const intent: BatchIntent = {
        intent: newIntentId(),
        provider: client.provider,
        model: client.spec,
        requests: chunk.map((line) => ({ key: line.key, custom_id: line.customId, item_id: line.itemId })),
        created_at: new Date(now()).toISOString(),
        ...(listedAfter !== undefined && { listed_after: listedAfter }),
      };
      // Committed before the submit call: a kill from here on leaves the intent for the restart (step 1).
      store.saveIntent(intent);
      testKillPoint("before-submit");
      const outcome = await submitIntent(chunk, intent);
      if (outcome.kind === "found") {
        records.push(adopt(intent, outcome.batch));
        requests += chunk.length;
        log(`batch ${outcome.batch.id} (${client.spec}): submitted ${chunk.length} requests (found at the provider after: ${outcome.after}), ${outcome.batch.state}`);
        continue;
      }
      if (outcome.kind === "not accepted") {
        // A batch the provider refused (or never got, after every attempt).
        store.dropIntent(intent.intent);
        notAccepted(outcome.error);
        continue;
      }
      const accepted = outcome.batch;
      testKillPoint("after-submit");
      const at = new Date(now()).toISOString();
      const record: BatchRecord = { id: accepted.id, provider: client.provider, model: client.spec, state: accepted.state, requests: intent.requests, created_at: intent.created_at, updated_at: at, collected: false, intent: intent.intent };
      // The batch row and the intent's removal in one transaction.
      store.saveBatch(record);
      records.push(record);
      requests += chunk.length;
      log(`batch ${record.id} (${client.spec}): submitted ${chunk.length} requests, ${record.state}`);
    }
    submitted.push(...records);
    await settle(records);
  };

  if (!options.budget) {
    await submitAndSettle(lines);
  } else {
    await withinBudget(lines, pending, options.budget, run.concurrency, store, submitAndSettle);
  }
  return { resumed: left.length, submitted: submitted.length, requests };
}

/** An HTTP 4xx other than 408/409/429: the provider answered that it did not take the batch. */
function refused(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429;
}

function limitText(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`;
}

/**
 * --max-cost under --batch, by the rule of core/cost.ts at the batch price: stop if the estimated
 * input alone is over the limit; else submit a first batch of `concurrency` requests, project the
 * rest from their replies' mean output, and stop there if the projection is over.
 */
async function withinBudget(lines: BatchLine[], pending: Map<string, Pending>, budget: CostBudget, concurrency: number, store: ResponseStore, submit: (group: BatchLine[]) => Promise<void>): Promise<void> {
  const inputs = new Map<string, number>();
  for (const line of lines) inputs.set(line.key, estimateInputTokens(budget.provider, await requestSize(pending.get(line.key)!.request)));
  const inputOf = (line: BatchLine) => inputs.get(line.key)!;
  const inputOnly = costUsd(lines.reduce((sum, line) => sum + inputOf(line), 0), 0, budget.price);
  if (inputOnly > budget.maxUsd) throw new CostLimitReached(inputOnly, budget.maxUsd, 0);
  const first = lines.slice(0, Math.max(1, concurrency));
  const rest = lines.slice(first.length);
  await submit(first);
  if (rest.length === 0) return;
  const replies = first.map((line) => store.get(line.key));
  const outputs = replies.map((r) => r?.usage?.outputTokens).filter((n): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0);
  const outputPer = outputs.length > 0 ? outputs.reduce((a, b) => a + b, 0) / outputs.length : budget.maxTokens;
  let input = 0;
  let output = 0;
  first.forEach((line, i) => {
    const usage = replies[i]?.usage;
    input += typeof usage?.inputTokens === "number" ? usage.inputTokens : inputOf(line);
    output += typeof usage?.outputTokens === "number" ? usage.outputTokens : outputPer;
  });
  input += rest.reduce((sum, line) => sum + inputOf(line), 0);
  output += rest.length * outputPer;
  const projected = costUsd(input, output, budget.price);
  if (projected > budget.maxUsd) throw new CostLimitReached(projected, budget.maxUsd, first.length);
  await submit(rest);
}
