import type { Benchmark, BenchItem } from "../core/benchmark.js";
import { UsageError } from "../core/problems.js";
import type { Responder } from "../core/run.js";
import { DEFAULT_SETTINGS, type CapabilityOverrides, type GenerationSettings, type Model } from "../core/types.js";
import type { ModelSettingsConfig } from "../core/config.js";
import { capabilitiesFor, settingsProblem, withSamplerChoice } from "./capabilities.js";
import { createProviderModel, isProviderSpec, parseProviderSpec } from "./provider.js";

/** What `--model` can name besides a provider: built-ins and replay files. */
export type ModelChoice<I> =
  | { kind: "responder"; responder: Responder<I>; settings: GenerationSettings }
  | { kind: "replay"; file: string };

export function generationSettings(s: ModelSettingsConfig): GenerationSettings {
  return {
    temperature: s.temperature ?? DEFAULT_SETTINGS.temperature,
    topP: s.top_p ?? DEFAULT_SETTINGS.topP,
    maxTokens: s.max_tokens ?? DEFAULT_SETTINGS.maxTokens,
    jsonOutput: s.json_output ?? DEFAULT_SETTINGS.jsonOutput,
    ...(s.extra_body ? { extraBody: s.extra_body } : {}),
    ...(s.reasoning_effort !== undefined ? { reasoningEffort: s.reasoning_effort } : {}),
    ...(s.thinking_budget !== undefined ? { thinkingBudget: s.thinking_budget } : {}),
    ...(s.include_thoughts !== undefined ? { includeThoughts: s.include_thoughts } : {}),
    ...(s.capabilities ? { capabilities: capabilityOverrides(s.capabilities) } : {}),
  };
}

/** The config's snake_case `capabilities:` as the settings' overrides (only keys given). */
export function capabilityOverrides(c: NonNullable<ModelSettingsConfig["capabilities"]>): CapabilityOverrides {
  return {
    ...(c.reasoning !== undefined && { reasoning: c.reasoning }),
    ...(c.temperature !== undefined && { temperature: c.temperature }),
    ...(c.top_p !== undefined && { topP: c.top_p }),
    ...(c.temperature_with_top_p !== undefined && { temperatureWithTopP: c.temperature_with_top_p }),
    ...(c.thinking !== undefined && { thinking: c.thinking }),
  };
}

/**
 * A provider model's settings checked against its capabilities before any request (a UsageError
 * naming the problem), with the sampler chosen for models that take only one.
 */
export function providerSettings(spec: string, generation: GenerationSettings, s: ModelSettingsConfig): GenerationSettings {
  const parsed = parseProviderSpec(spec);
  if (!parsed) return generation;
  const caps = capabilitiesFor(parsed.provider, parsed.model, generation.capabilities);
  const chosen = withSamplerChoice(caps, generation, { temperature: s.temperature !== undefined, topP: s.top_p !== undefined });
  const problem = settingsProblem(capabilitiesFor(parsed.provider, parsed.model, chosen.capabilities), chosen);
  if (problem) throw new UsageError(`${spec}: ${problem}`);
  return chosen;
}

/**
 * Resolve a model spec: `openai:<m>`, `anthropic:<m>`, `gemini:<m>`, `replay:<file>`, or a
 * built-in of the benchmark (`oracle`, `random[:seed]`, ...).
 */
export function resolveModel<I extends BenchItem>(
  spec: string,
  benchmark: Benchmark<I>,
  settings: ModelSettingsConfig,
  env: NodeJS.ProcessEnv = process.env,
): ModelChoice<I> {
  if (spec.startsWith("replay:")) {
    const file = spec.slice("replay:".length);
    if (!file) throw new UsageError("replay: needs a predictions file, e.g. replay:preds.jsonl");
    return { kind: "replay", file };
  }
  if (isProviderSpec(spec)) {
    const { model, settings: checked } = configuredProviderModel(spec, settings, env);
    return { kind: "responder", responder: { kind: "model", model }, settings: checked };
  }
  const generation = generationSettings(settings);
  const [name, seedText] = spec.split(":", 2) as [string, string | undefined];
  const baseline = benchmark.baselines[name];
  if (!baseline) {
    const names = Object.keys(benchmark.baselines).join(", ");
    throw new UsageError(`unknown model "${spec}": use openai:<model>, anthropic:<model>, gemini:<model>, replay:<file>, or a built-in (${names})`);
  }
  const seed = seedText === undefined ? 0 : Number(seedText);
  if (!Number.isInteger(seed)) throw new UsageError(`seed in "${spec}" must be an integer`);
  return { kind: "responder", responder: { kind: "baseline", name: spec, reply: (item, prompt) => baseline.reply(item, seed, prompt) }, settings: generation };
}

/** A provider model (openai:, anthropic:, gemini:) with the config's and flags' settings, and the generation settings checked for it. */
export function configuredProviderModel(spec: string, settings: ModelSettingsConfig, env: NodeJS.ProcessEnv = process.env): { model: Model; settings: GenerationSettings } {
  const checked = providerSettings(spec, generationSettings(settings), settings);
  try {
    const model = createProviderModel(spec, {
      ...(settings.base_url ? { baseUrl: settings.base_url } : {}),
      ...(settings.adaptive_concurrency === false ? { adaptiveConcurrency: false } : { shareConcurrency: true }),
      ...(settings.timeout_ms ? { timeoutMs: settings.timeout_ms } : {}),
      ...(settings.max_attempts ? { maxAttempts: settings.max_attempts } : {}),
      ...(settings.rpm ? { rpm: settings.rpm } : {}),
      ...(settings.backoff_base_ms !== undefined ? { backoffBaseMs: settings.backoff_base_ms } : {}),
      ...(settings.backoff_cap_ms !== undefined ? { backoffCapMs: settings.backoff_cap_ms } : {}),
      ...(settings.max_tokens_field ? { maxTokensField: settings.max_tokens_field } : {}),
      ...(settings.max_reply_bytes !== undefined ? { maxReplyBytes: settings.max_reply_bytes } : {}),
      ...(settings.max_retry_wait !== undefined ? { maxRetryDelayMs: Math.round(settings.max_retry_wait * 1000) } : {}),
      env,
    });
    return { model, settings: checked };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
