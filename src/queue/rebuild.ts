import type { Benchmark, BenchItem, PromptBuilder } from "../core/benchmark.js";
import { UsageError } from "../core/problems.js";
import { loadForScoring, repeatedBuiltinSpec } from "../core/session.js";
import type { GenerationSettings, Model } from "../core/types.js";
import { resolveModel } from "../models/factory.js";
import type { ImageBudgets } from "../models/shape.js";
import type { RunSpec } from "./spec.js";

/** What a worker needs to answer one item of a queued run: the same inputs executeRun gives runItems. */
export interface RunContext {
  benchmark: Benchmark<BenchItem>;
  items: BenchItem[];
  model: Model;
  build: PromptBuilder<BenchItem>;
  settings: GenerationSettings;
  jsonOverride?: boolean;
  imageBudget?: ImageBudgets;
  retryErrors: boolean;
  repeat?: number;
}

/**
 * Rebuild a queued run from its spec on this machine, as executeRun (core/session.ts) builds it: load
 * and check the data, resolve the model with this machine's environment (its own provider keys),
 * derive the items and prepare the prompts. The item ids must be the ones the run was enqueued with
 * (the same data at the same path), else the run is refused here rather than answered wrongly.
 */
export function rebuildRun(spec: RunSpec, itemIds: readonly string[], env: NodeJS.ProcessEnv = process.env): RunContext {
  if (spec.version !== 1) throw new UsageError(`queued run spec version ${String(spec.version)} is not one this spatialprobe reads (1)`);
  const common = {
    benchmark: spec.benchmark,
    benchmarkOptions: spec.benchmarkOptions,
    data: spec.data,
    ...(spec.tasks ? { tasks: spec.tasks } : {}),
    ...(spec.limit !== undefined ? { limit: spec.limit } : {}),
    ...(spec.items ? { items: spec.items } : {}),
    ...(spec.sample ? { sample: spec.sample } : {}),
    out: "",
    bootstrapResamples: 0,
    bootstrapSeed: 0,
  };
  const requests = { source: spec.promptSource, control: spec.control, ...(spec.templateFile ? { templateFile: spec.templateFile } : {}) };
  const loaded = loadForScoring(common, spec.model, requests);
  const choice = resolveModel(repeatedBuiltinSpec(spec.model, loaded.benchmark, spec.repeat), loaded.benchmark, spec.settings, env);
  if (choice.kind !== "responder" || choice.responder.kind !== "model") throw new UsageError(`queued run model ${spec.model} is not a provider model`);
  const setup = { ...requests, seed: spec.seed, ...(spec.maxImages ? { maxImages: spec.maxImages } : {}) };
  const items = loaded.benchmark.deriveItems ? loaded.benchmark.deriveItems(loaded.items, setup) : loaded.items;
  const ids = items.map((item) => item.id);
  if (ids.length !== itemIds.length || ids.some((id, i) => id !== itemIds[i])) {
    const first = ids.findIndex((id, i) => id !== itemIds[i]);
    throw new UsageError(
      `the data at ${spec.data} on this machine gives ${ids.length} items where the run was enqueued with ${itemIds.length}` +
        (first >= 0 && first < Math.min(ids.length, itemIds.length) ? ` (item ${first + 1} is ${ids[first]} here, ${itemIds[first]} in the queue)` : "") +
        "; workers need the same data at the same path",
    );
  }
  const { build } = loaded.benchmark.preparePrompts(items, setup);
  return {
    benchmark: loaded.benchmark,
    items,
    model: choice.responder.model,
    build,
    settings: choice.settings,
    ...(spec.settings.json_output !== undefined ? { jsonOverride: spec.settings.json_output } : {}),
    ...(spec.imageBudget ? { imageBudget: spec.imageBudget } : {}),
    retryErrors: spec.retryErrors,
    ...(spec.repeat !== undefined ? { repeat: spec.repeat } : {}),
  };
}
