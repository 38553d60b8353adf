/**
 * The plain data that flows through every benchmark:
 * Item -> Request -> Response -> Answer -> ItemResult -> Scores.
 */

/** One piece of a chat message. Images travel inline as base64 so the request hash covers their bytes. */
export type Part =
  | { type: "text"; text: string }
  | { type: "image"; mediaType: string; base64: string; source?: string };

export interface Message {
  role: "system" | "user" | "assistant";
  content: Part[];
}

/** Generation settings sent with every request. */
export interface GenerationSettings {
  temperature: number;
  topP: number;
  maxTokens: number;
  /** Ask the provider for a JSON object reply where it supports that. */
  jsonOutput: boolean;
  /** Provider-specific fields merged into the request body as given (from the config file). */
  extraBody?: Record<string, unknown>;
}

export const DEFAULT_SETTINGS: GenerationSettings = {
  temperature: 0,
  topP: 1,
  maxTokens: 8192,
  jsonOutput: true,
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
}

/** Anything that answers requests: provider adapters, baselines, replay files. */
export interface Model {
  /** The spec the user gave, e.g. "openai:gpt-4o" or "oracle". */
  readonly spec: string;
  /** Identity used in the response-store key: provider, endpoint, model name and settings. */
  readonly identity: { provider: string; endpoint: string; model: string };
  /** Built-in models answer from the item itself and are not cached or rate limited. */
  readonly local: boolean;
  generate(request: ModelRequest, signal: AbortSignal): Promise<ModelResponse>;
}
