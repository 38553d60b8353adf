/**
 * Model quirks as data: which generation fields a model accepts, looked up by model name, and
 * the pure rule that turns GenerationSettings into the fields one request carries. The wire
 * formats (openai.ts, anthropic.ts, gemini.ts) read only the result of `applyCapabilities`, so
 * what is sent, what `sentSettings` reports and what the request hash covers never disagree.
 * Any entry can be overridden per model in the config (`capabilities:`).
 */
import type { CapabilityOverrides, GenerationSettings } from "../core/types.js";
import { ProviderError } from "./errors.js";

export type CapabilityProvider = "openai" | "anthropic" | "gemini";

/** Documented bounds of a thinking budget in tokens. */
export interface ThinkingBudgetRange {
  min: number;
  /** Inclusive upper bound; absent = only the request's own token limit bounds it. */
  max?: number;
  /** 0 turns thinking off. */
  off: boolean;
  /** -1 lets the model choose (Gemini's dynamic thinking). */
  dynamic: boolean;
  /** The budget must stay below the request's max_tokens (Anthropic). */
  belowMaxTokens: boolean;
}

/** What one model accepts, after the table and the config's overrides. */
export interface Capabilities {
  provider: CapabilityProvider;
  /** The table entry that matched ("default" when none did). */
  entry: string;
  /** A reasoning model that takes only its default sampling (no temperature, no top_p). */
  reasoning: boolean;
  /** The request may carry a sampling temperature. */
  temperature: boolean;
  /** The request may carry top_p. */
  topP: boolean;
  /** Both may be sent in one request; when false only one goes (temperature, unless it is off). */
  temperatureWithTopP: boolean;
  /**
   * The model takes this provider's thinking switch: OpenAI `reasoning_effort`, Anthropic
   * `thinking.budget_tokens`, Gemini `generationConfig.thinkingConfig`.
   */
  thinking: boolean;
  thinkingBudget?: ThinkingBudgetRange;
}

type Flags = Omit<Capabilities, "provider" | "entry">;

interface TableEntry {
  provider: CapabilityProvider;
  entry: string;
  /** Provider documentation the entry follows. */
  source: string;
  matches: (name: string) => boolean;
  flags: Partial<Flags>;
}

const STANDARD: Flags = { reasoning: false, temperature: true, topP: true, temperatureWithTopP: true, thinking: false };
const REASONING: Partial<Flags> = { reasoning: true, temperature: false, topP: false };

/** Anthropic: budget_tokens >= 1024 and below max_tokens (extended-thinking guide). */
const ANTHROPIC_BUDGET: ThinkingBudgetRange = { min: 1024, off: true, dynamic: false, belowMaxTokens: true };

/** "claude-sonnet-4-5-20250929" -> {family: "sonnet", version: 4.5}; also "claude-3-7-sonnet-…". */
export function claudeVersion(name: string): { family: string; version: number } | undefined {
  const modern = /^claude-(opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2}))?(?!\d)/.exec(name);
  if (modern) return { family: modern[1]!, version: Number(modern[2]) + Number(modern[3] ?? 0) / 10 };
  const legacy = /^claude-(\d{1,2})(?:[-.](\d{1,2}))?-(opus|sonnet|haiku)/.exec(name);
  if (legacy) return { family: legacy[3]!, version: Number(legacy[1]) + Number(legacy[2] ?? 0) / 10 };
  return undefined;
}

/** Claude Sonnet 4.5+, Haiku 4.5+ and Opus 4.1+ refuse temperature and top_p together. */
function claudeOneSampler(name: string): boolean {
  const v = claudeVersion(name);
  if (!v) return false;
  return v.family === "opus" ? v.version >= 4.1 : v.version >= 4.5;
}

/** Claude 3.7 Sonnet and every Claude 4 model take extended thinking. */
function claudeThinks(name: string): boolean {
  const v = claudeVersion(name);
  return v !== undefined && (v.version >= 4 || (v.family === "sonnet" && v.version >= 3.7));
}

/** Gemini 2.5 text models (not the image, TTS, audio or live variants). */
function gemini25(prefix: string): (name: string) => boolean {
  return (name) => name.startsWith(prefix) && !/-(image|tts|audio|live)/.test(name);
}

/** First match wins, so narrower patterns come first. */
export const CAPABILITY_TABLE: readonly TableEntry[] = [
  // https://platform.openai.com/docs/guides/reasoning — o-series: only default sampling,
  // max_completion_tokens; o1-mini and o1-preview predate reasoning_effort.
  { provider: "openai", entry: "openai o1-mini/o1-preview", source: "https://platform.openai.com/docs/guides/reasoning", matches: (n) => /^o1-(mini|preview)/.test(n), flags: { ...REASONING, thinking: false } },
  // https://platform.openai.com/docs/guides/reasoning — o1, o3, o4-mini and later: reasoning_effort.
  { provider: "openai", entry: "openai o-series", source: "https://platform.openai.com/docs/guides/reasoning", matches: (n) => /^o\d/.test(n), flags: { ...REASONING, thinking: true } },
  // https://platform.openai.com/docs/models/gpt-5-chat-latest — the chat snapshots are not
  // reasoning models: sampling works as for gpt-4o.
  { provider: "openai", entry: "openai gpt-5 chat", source: "https://platform.openai.com/docs/models/gpt-5-chat-latest", matches: (n) => /^gpt-5(\.\d+)?-chat/.test(n), flags: {} },
  // https://platform.openai.com/docs/guides/latest-model — gpt-5, -mini, -nano, 5.1, …: reasoning
  // models (temperature, top_p unsupported), with reasoning_effort.
  { provider: "openai", entry: "openai gpt-5 family", source: "https://platform.openai.com/docs/guides/latest-model", matches: (n) => /^gpt-5($|[-.])/.test(n), flags: { ...REASONING, thinking: true } },
  // https://docs.anthropic.com/en/docs/about-claude/models/migrating-to-claude-4 — "use only
  // temperature OR top_p, not both" (Sonnet 4.5; the API says the same for Haiku 4.5, Opus 4.1 and
  // later); https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking for thinking.
  { provider: "anthropic", entry: "anthropic one sampler", source: "https://docs.anthropic.com/en/docs/about-claude/models/migrating-to-claude-4", matches: claudeOneSampler, flags: { temperatureWithTopP: false, thinking: true, thinkingBudget: ANTHROPIC_BUDGET } },
  // https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking — supported models.
  { provider: "anthropic", entry: "anthropic thinking", source: "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking", matches: claudeThinks, flags: { thinking: true, thinkingBudget: ANTHROPIC_BUDGET } },
  // https://ai.google.dev/gemini-api/docs/thinking — budget ranges per model; -1 is dynamic.
  { provider: "gemini", entry: "gemini 2.5 pro", source: "https://ai.google.dev/gemini-api/docs/thinking", matches: gemini25("gemini-2.5-pro"), flags: { thinking: true, thinkingBudget: { min: 128, max: 32768, off: false, dynamic: true, belowMaxTokens: false } } },
  { provider: "gemini", entry: "gemini 2.5 flash-lite", source: "https://ai.google.dev/gemini-api/docs/thinking", matches: gemini25("gemini-2.5-flash-lite"), flags: { thinking: true, thinkingBudget: { min: 512, max: 24576, off: true, dynamic: true, belowMaxTokens: false } } },
  { provider: "gemini", entry: "gemini 2.5 flash", source: "https://ai.google.dev/gemini-api/docs/thinking", matches: gemini25("gemini-2.5-flash"), flags: { thinking: true, thinkingBudget: { min: 1, max: 24576, off: true, dynamic: true, belowMaxTokens: false } } },
];

/**
 * The name the table is matched on: lower case, after any "vendor/" prefix (OpenRouter,
 * LiteLLM) and Gemini's "models/"; names past 200 characters match nothing.
 */
export function normalizeModelName(model: string): string {
  const name = model.trim().toLowerCase();
  if (name.length > 200) return "";
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base.startsWith("anthropic.") ? base.slice("anthropic.".length) : base;
}

/**
 * The flags for `model` of `provider`: the first matching table entry over the standard profile,
 * then the overrides. `reasoning: true` in the overrides also turns temperature and top_p off
 * (and `false` back on), and for OpenAI turns reasoning_effort on, unless those are given too.
 */
export function capabilitiesFor(provider: CapabilityProvider, model: string, overrides: CapabilityOverrides = {}): Capabilities {
  const name = normalizeModelName(model);
  const found = CAPABILITY_TABLE.find((e) => e.provider === provider && e.matches(name));
  const flags: Flags = { ...STANDARD, ...found?.flags };
  if (overrides.reasoning !== undefined) {
    flags.reasoning = overrides.reasoning;
    flags.temperature = !overrides.reasoning;
    flags.topP = !overrides.reasoning;
    // OpenAI's reasoning models take reasoning_effort (all but o1-mini/o1-preview).
    if (overrides.reasoning && provider === "openai") flags.thinking = true;
  }
  if (overrides.temperature !== undefined) flags.temperature = overrides.temperature;
  if (overrides.topP !== undefined) flags.topP = overrides.topP;
  if (overrides.temperatureWithTopP !== undefined) flags.temperatureWithTopP = overrides.temperatureWithTopP;
  if (overrides.thinking !== undefined) flags.thinking = overrides.thinking;
  // Anthropic's budget rules hold for every model (extended-thinking guide).
  if (provider === "anthropic" && flags.thinking && !flags.thinkingBudget) flags.thinkingBudget = ANTHROPIC_BUDGET;
  return { provider, entry: found?.entry ?? "default", ...flags };
}

/** The generation fields of one request after the quirks, in neutral names. */
export interface WireSettings {
  temperature?: number;
  topP?: number;
  maxTokens: number;
  /** OpenAI `reasoning_effort`. */
  reasoningEffort?: string;
  /** Anthropic `thinking.budget_tokens` / Gemini `thinkingConfig.thinkingBudget`. */
  thinkingBudget?: number;
  /** Gemini `thinkingConfig.includeThoughts`. */
  includeThoughts?: boolean;
}

/**
 * Why `settings` cannot be sent to a model with `caps`, or undefined when they can. Checked
 * before a run starts (factory.ts) and again by every request body.
 */
export function settingsProblem(caps: Capabilities, settings: GenerationSettings): string | undefined {
  const model = `this ${caps.provider} model`;
  const forceHint = "set capabilities.thinking: true in the config to send it anyway";
  if (settings.reasoningEffort !== undefined) {
    if (caps.provider !== "openai") return "reasoning_effort applies to OpenAI models; use thinking_budget for Anthropic and Gemini";
    if (!caps.thinking) return `reasoning_effort is set but ${model} takes no reasoning_effort (capability table entry "${caps.entry}"); ${forceHint}`;
  }
  if (settings.includeThoughts !== undefined && caps.provider !== "gemini") return "include_thoughts applies to Gemini models only";
  if (settings.thinkingBudget !== undefined) {
    if (caps.provider === "openai") return "thinking_budget applies to Anthropic and Gemini models; OpenAI reasoning models take reasoning_effort";
    if (!caps.thinking && !(caps.provider === "anthropic" && settings.thinkingBudget === 0))
      return `thinking_budget is set but ${model} takes no thinking switch (capability table entry "${caps.entry}"); ${forceHint}`;
    const problem = budgetProblem(caps, settings.thinkingBudget, settings.maxTokens);
    if (problem) return problem;
  }
  if (settings.includeThoughts !== undefined && !caps.thinking)
    return `include_thoughts is set but ${model} takes no thinkingConfig (capability table entry "${caps.entry}"); ${forceHint}`;
  if (anthropicThinking(caps, settings) && caps.topP && settings.topP < 0.95)
    return `with thinking on, Anthropic allows top_p only from 0.95 to 1 (got ${settings.topP}); https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking`;
  return undefined;
}

function budgetProblem(caps: Capabilities, budget: number, maxTokens: number): string | undefined {
  const range = caps.thinkingBudget;
  if (budget === 0) return range && !range.off ? `thinking cannot be turned off for this model (thinking_budget 0; least ${range.min})` : undefined;
  if (budget === -1)
    return caps.provider !== "gemini" || (range && !range.dynamic) ? "thinking_budget -1 (dynamic) is a Gemini setting; give a number of tokens" : undefined;
  if (!Number.isInteger(budget) || budget < 0) return `thinking_budget must be a whole number of tokens, got ${budget}`;
  if (!range) return undefined;
  if (budget < range.min || (range.max !== undefined && budget > range.max))
    return `thinking_budget ${budget} is outside ${range.min}..${range.max ?? "max_tokens"} for this model`;
  if (range.belowMaxTokens && budget >= maxTokens) return `thinking_budget ${budget} must be below max_tokens ${maxTokens}`;
  return undefined;
}

/** Anthropic extended thinking is on: a budget above 0. */
function anthropicThinking(caps: Capabilities, settings: GenerationSettings): boolean {
  return caps.provider === "anthropic" && settings.thinkingBudget !== undefined && settings.thinkingBudget > 0;
}

/**
 * The fields one request carries. Rules, per provider documentation:
 * - temperature and top_p go only where the capabilities allow; a model that refuses both
 *   together gets temperature (top_p when temperature is off);
 * - Anthropic sends top_p only when it is not 1 (the API default), and with thinking on sends
 *   no temperature (thinking requires the default) and top_p only from 0.95 up;
 * - the thinking switches go only to models that take them, within the documented budgets.
 * Throws ProviderError("other", not retried) for settings `settingsProblem` rejects.
 */
export function applyCapabilities(caps: Capabilities, settings: GenerationSettings): WireSettings {
  const problem = settingsProblem(caps, settings);
  if (problem) throw new ProviderError("other", `cannot send these settings: ${problem}`, { retryable: false });
  const thinking = anthropicThinking(caps, settings);
  const temperature = caps.temperature && !thinking;
  let topP = caps.topP && !(caps.provider === "anthropic" && settings.topP === 1);
  if (temperature && topP && !caps.temperatureWithTopP) topP = false;
  const out: WireSettings = { maxTokens: settings.maxTokens };
  if (temperature) out.temperature = settings.temperature;
  if (topP) out.topP = settings.topP;
  if (caps.provider === "openai" && settings.reasoningEffort !== undefined) out.reasoningEffort = settings.reasoningEffort;
  if (caps.provider !== "openai" && settings.thinkingBudget !== undefined && !(caps.provider === "anthropic" && settings.thinkingBudget === 0))
    out.thinkingBudget = settings.thinkingBudget;
  if (caps.provider === "gemini" && settings.includeThoughts !== undefined) out.includeThoughts = settings.includeThoughts;
  return out;
}

/**
 * For a model that takes one sampler: when the config gave top_p and not temperature, the
 * user chose top_p, so temperature is turned off (recorded as `capabilities.temperature: false`
 * in the settings, which the request hash covers). Anything else is returned as is.
 */
export function withSamplerChoice(
  caps: Capabilities,
  settings: GenerationSettings,
  given: { temperature: boolean; topP: boolean },
): GenerationSettings {
  const chooses = !caps.temperatureWithTopP && caps.temperature && caps.topP && given.topP && !given.temperature;
  if (!chooses || settings.capabilities?.temperature !== undefined) return settings;
  return { ...settings, capabilities: { ...settings.capabilities, temperature: false } };
}

/**
 * The error for a reply the token limit cut before any answer text: not retried, since the same
 * request would be cut the same way.
 */
export function tokenLimitError(maxTokens: number | undefined, reasoningTokens?: number): ProviderError {
  const limit = maxTokens === undefined ? "" : ` (max_tokens ${maxTokens})`;
  const spent = reasoningTokens ? `; ${reasoningTokens} tokens went to reasoning` : "";
  return new ProviderError("malformed", `the reply hit the token limit${limit} before any answer text${spent}; raise max_tokens`, { retryable: false });
}
