/** What the three batch APIs have in common, as the batch pass (runner.ts) drives them. */
import type { ResponseError } from "../../core/types.js";
import type { ProviderName } from "../provider.js";
import type { BatchHttp } from "./http.js";

/** One request of a batch: its store key, the custom id it is sent under, and the body the normal adapter would POST. */
export interface BatchLine {
  key: string;
  customId: string;
  itemId: string;
  body: Record<string, unknown>;
}

/** A batch as the provider reports it. */
export interface BatchStatus {
  /** The provider's own word (in_progress, ended, JOB_STATE_RUNNING, ...). */
  state: string;
  /** No further change will come: its results (or errors) can be read. */
  terminal: boolean;
  counts: { total?: number; done?: number; failed?: number };
  /** The status reply, for reading results. */
  raw: Record<string, unknown>;
}

/** One request's outcome: the provider's normal reply body, or an error. */
export type LineResult = { customId: string; ok: true; json: unknown } | { customId: string; ok: false; error: ResponseError };

/** A batch as the provider's list endpoint shows it (intent.ts looks for a submitted batch among them). */
export interface ListedBatch {
  id: string;
  state: string;
  /** When the provider created it (ms since the epoch), if it says. */
  createdMs?: number;
  /** The intent id it was submitted under, read back from where the API keeps it (OpenAI metadata, Gemini display_name). */
  intent?: string;
  /** How many requests it holds, if it says. */
  requests?: number;
}

/** One page of a listing; `next` is the cursor of the following page, absent on the last. */
export interface BatchPage {
  batches: ListedBatch[];
  next?: string;
}

/** The documented limits of one batch. */
export interface BatchLimits {
  maxRequests: number;
  /** Most bytes of what is sent for one batch (the JSONL file, or the create request's body). */
  maxBytes: number;
}

export interface BatchContext {
  http: BatchHttp;
  /** The base URL, as for the normal adapter (trailing slash dropped). */
  baseUrl: string;
  /** The model name (the spec without its provider). */
  model: string;
  signal: AbortSignal;
}

export interface BatchApi {
  readonly provider: ProviderName;
  readonly limits: BatchLimits;
  /** What the line adds to a batch's size (bytes), for chunking within limits.maxBytes. */
  lineBytes(line: BatchLine): number;
  /** Bytes of a batch's envelope besides its lines. */
  readonly envelopeBytes: number;
  /**
   * Submit one batch (within the limits); resolves with the provider's batch id and first state.
   * `intent` (16 hex characters) goes with the batch where the API keeps a client's label for it.
   */
  submit(lines: BatchLine[], context: BatchContext, intent?: string): Promise<{ id: string; state: string }>;
  /** One page of the provider's batches (the first without `cursor`), of up to `limit` (default 100). */
  list(context: BatchContext, cursor?: string, limit?: number): Promise<BatchPage>;
  /**
   * How a submitted batch is found again: by the intent the API returns with it ("tag"), or, for
   * an API that keeps no client label on a batch (Anthropic), by creation order and request count.
   */
  readonly findBy: "tag" | "created";
  /** The listing is newest first (documented), so it can stop at the first batch older than an intent. */
  readonly newestFirst: boolean;
  poll(id: string, context: BatchContext): Promise<BatchStatus>;
  /**
   * The results of a terminal batch, given its custom ids in the order sent; requests it says
   * nothing of are errors (runner.ts).
   */
  results(id: string, status: BatchStatus, context: BatchContext, customIds: readonly string[]): Promise<LineResult[]>;
  /** Why a terminal batch failed as a whole, when its status says (the message its requests' errors carry). */
  failure?(status: BatchStatus): string | undefined;
}

/** A custom id every API takes: Anthropic's rule, 1-64 characters of [a-zA-Z0-9_-]. */
export const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

export const MB = 1024 * 1024;
