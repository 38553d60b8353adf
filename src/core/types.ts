import type { RequestLimits } from "../models/limits.js";

/**
 * The plain data that flows through every benchmark:
 * Item -> Request -> Response -> Answer -> ItemResult -> Scores.
 */

/** One piece of a chat message. Images travel inline as base64 so the request hash covers their bytes. */
export type Part =
  | { type: "text"; text: string }
  | { type: "image"; mediaType: string; base64: string; source?: string; kind?: "picture" | "frame" };

/**
 * What was sent for one image part (items.jsonl response.images): its size as read and as sent,
 * and the transform from one to the other (models/shape.ts). `bytes` are raw file bytes.
 * `kind`: "frame" for video frames, "picture" for everything else. Neither it nor `source` is
 * sent or hashed.
 */
export interface SentImage {
  source?: string;
  kind: "picture" | "frame";
  original: { width: number; height: number; bytes: number; media_type: string };
  sent: { width: number; height: number; bytes: number; media_type: string };
  transform: string;
}

export interface Message {
  role: "system" | "user" | "assistant";
  content: Part[];
}

/** Generation settings sent with every request. */
export interface GenerationSettings {
  temperature: number;
  topP: number;
  maxTokens: number;
  /**
   * Ask the provider for a JSON object reply where it supports that. A run sets it per item: on where
   * the item's output contract is JSON (BuiltPrompt.json), unless --json-output / --no-json-output force it.
   */
  jsonOutput: boolean;
  /** Provider-specific fields merged into the request body as given (from the config file). */
  extraBody?: Record<string, unknown>;
  /** OpenAI reasoning models: `reasoning_effort` (config `reasoning_effort`). */
  reasoningEffort?: string;
  /** Thinking tokens: Anthropic `thinking.budget_tokens`, Gemini `thinkingBudget` (config `thinking_budget`). */
  thinkingBudget?: number;
  /** Gemini: return thought summaries beside the reply (config `include_thoughts`). */
  includeThoughts?: boolean;
  /** Overrides of the model capability table, models/capabilities.ts (config `capabilities`). */
  capabilities?: CapabilityOverrides;
}

/** What a model accepts, where the built-in table by model name is wrong for it. */
export interface CapabilityOverrides {
  reasoning?: boolean;
  temperature?: boolean;
  topP?: boolean;
  temperatureWithTopP?: boolean;
  thinking?: boolean;
}

export const DEFAULT_SETTINGS: GenerationSettings = {
  temperature: 0,
  topP: 1,
  maxTokens: 8192,
  jsonOutput: false,
};

export interface ModelRequest {
  /** The item id this request belongs to (for logs; not part of the hash). */
  itemId: string;
  messages: Message[];
  settings: GenerationSettings;
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /** Reasoning/thinking tokens, already included in outputTokens (as billed). */
  reasoningTokens?: number;
}

export type ErrorKind = "http" | "timeout" | "network" | "malformed" | "refused" | "other";

export interface ResponseError {
  kind: ErrorKind;
  /** HTTP status when the provider answered with one. */
  status?: number;
  message: string;
}

/**
 * What a model call produced. `outcome: "error"` is an infrastructure failure (after retries);
 * it is never scored as a wrong answer.
 */
export interface ModelResponse {
  outcome: "ok" | "error";
  text: string;
  usage?: Usage;
  latencyMs: number;
  attempts: number;
  error?: ResponseError;
  /**
   * Set when the reply text was longer than the reply cap (--max-reply-bytes): `text` holds its
   * first cap bytes (cut at a UTF-8 character boundary); `bytes` is the full text's UTF-8 length.
   */
  truncated?: { bytes: number };
  /** Reasoning text returned beside the answer (never parsed as the answer). */
  reasoning?: string;
  /** The reply was cut by the token limit (finish_reason length, stop_reason max_tokens, MAX_TOKENS). */
  tokenLimited?: boolean;
}

/** Anything that answers requests: provider adapters, baselines, replay files. */
export interface Model {
  /** The spec the user gave, e.g. "openai:gpt-4o" or "oracle". */
  readonly spec: string;
  /** Identity used in the response-store key: provider, endpoint, model name and settings. */
  readonly identity: { provider: string; endpoint: string; model: string };
  /** Built-in models answer from the item itself and are not cached or rate limited. */
  readonly local: boolean;
  /** The provider's documented request limits (models/limits.ts); undefined for built-ins. */
  readonly limits?: RequestLimits;
  generate(request: ModelRequest, signal: AbortSignal): Promise<ModelResponse>;
  /** The generation fields actually put on the wire for `settings`, after model quirks. */
  sentSettings?(settings: GenerationSettings): Record<string, unknown>;
}
