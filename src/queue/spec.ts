import path from "node:path";
import type { BenchmarkOptions } from "../core/benchmark.js";
import type { ModelSettingsConfig } from "../core/config.js";
import { canonicalJson, sha256 } from "../core/hash.js";
import type { ImageBudgets } from "../models/shape.js";

/**
 * Everything a worker needs to rebuild a queued run's requests (docs/queue.md): the run's
 * benchmark, data, prompt setup and model settings, already resolved (config file and flags merged),
 * so a worker needs neither the coordinator's config file nor its command line. Provider keys are
 * never in it: each worker reads its own environment.
 */
export interface RunSpec {
  version: 1;
  benchmark: string;
  benchmarkOptions: BenchmarkOptions;
  /** Absolute: workers read the data at this path. */
  data: string;
  tasks?: string[];
  limit?: number;
  model: string;
  settings: ModelSettingsConfig;
  promptSource: string;
  control: string;
  /** Absolute, like data. */
  templateFile?: string;
  seed: number;
  maxImages?: number;
  imageBudget?: ImageBudgets;
  retryErrors: boolean;
  /** `run --repeats`: the repeat this run is (its own store keys after the first). */
  repeat?: number;
}

/**
 * The run id: a hash of the spec and the item ids, so the same command enqueues (or attaches to) the
 * same run, and changed data at the same path makes a new run.
 */
export function runIdOf(spec: RunSpec, itemIds: readonly string[]): string {
  return sha256(canonicalJson({ spec, items: itemIds })).slice(0, 16);
}

/** Paths in the spec made absolute (as the coordinator sees them); undefined fields dropped so the hash is stable. */
export function normalizeSpec(spec: RunSpec): RunSpec {
  const benchmarkOptions = { ...spec.benchmarkOptions, ...(spec.benchmarkOptions.train ? { train: path.resolve(spec.benchmarkOptions.train) } : {}) };
  const withPaths: RunSpec = {
    ...spec,
    benchmarkOptions,
    data: path.resolve(spec.data),
    ...(spec.templateFile ? { templateFile: path.resolve(spec.templateFile) } : {}),
  };
  return JSON.parse(JSON.stringify(withPaths)) as RunSpec;
}
