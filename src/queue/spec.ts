import path from "node:path";
import type { BenchmarkOptions } from "../core/benchmark.js";
import type { ModelSettingsConfig } from "../core/config.js";
import { canonicalJson, sha256 } from "../core/hash.js";
import { UsageError } from "../core/problems.js";
import { baseUrlEnv, parseProviderSpec } from "../models/provider.js";
import type { ImageBudgets } from "../models/shape.js";
import { urlCredentials } from "../models/url-secrets.js";

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
  /** --items and --sample, as CommonOptions has them. */
  items?: string[];
  sample?: { n: number; seed: number };
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
 * A queued navigation run (`navigate vcn --queue`, queue/navigation.ts): the navigate options a
 * worker needs to rebuild its agent, episodes and simulator, paths absolute and the model settings
 * already merged (config file and flags), so a worker needs neither. Work items are episodes.
 */
export interface NavigationSpec {
  version: 1;
  kind: "navigation";
  benchmark: "vcn";
  model: string;
  /** Absolute, like data. */
  data: string;
  mode: string;
  intervention: string;
  history: number;
  priorFrames: number;
  seed: number;
  tasks?: string[];
  limit?: number;
  assetsDir?: string;
  depth: boolean;
  /** Model agents: the prompt's observation (vcn/navigate/prompt.ts OBSERVATIONS). */
  observation?: string;
  saveViews: boolean;
  maxActions: number;
  templateFile?: string;
  retryErrors: boolean;
  allowOutsideRoot: boolean;
  settings: ModelSettingsConfig;
}

/**
 * A queued generator run (`generate <benchmark> --queue`, queue/generate.ts): one work item per job
 * (a house, an episode's renders), each made from the spec alone. `model` is "-" (the runs table's column).
 */
export interface GenerateSpec {
  version: 1;
  kind: "generate";
  benchmark: string;
  model: "-";
  seed: number;
  count: number;
  /** The --set options as given. */
  extra: Record<string, string>;
  /** Absolute. */
  assetsDir?: string;
  /** The command recorded in the set's README (it names the coordinator's --out). */
  command: string;
  /** What the coordinator planned that every job needs (queue/generators/), when the options alone do not say. */
  plan?: unknown;
}

/** What a run on the queue is: a run of questions (no kind, as before), a navigation run or a generator run. */
export type QueuedSpec = RunSpec | NavigationSpec | GenerateSpec;

export function isGenerateSpec(spec: QueuedSpec): spec is GenerateSpec {
  return (spec as { kind?: string }).kind === "generate";
}

export function isNavigationSpec(spec: QueuedSpec): spec is NavigationSpec {
  return (spec as { kind?: string }).kind === "navigation";
}

/**
 * The run id: a hash of the spec and the item ids, so the same command enqueues (or attaches to) the
 * same run, and changed data at the same path makes a new run.
 */
export function runIdOf(spec: QueuedSpec, itemIds: readonly string[]): string {
  return sha256(canonicalJson({ spec, items: itemIds })).slice(0, 16);
}

/**
 * A spec is stored in the queue's rows and read by every worker, so a base URL carrying credentials
 * (user info, ?api-key=...) is refused, as keys are: the workers are to read it from their own
 * environment (OPENAI_BASE_URL, ...), where the spec without a base URL sends them.
 */
export function refuseUrlCredentials(spec: QueuedSpec): void {
  if (isGenerateSpec(spec)) return;
  const given = spec.settings.base_url;
  const urls = (typeof given === "string" ? [given] : (given ?? [])).flatMap((u) => u.split(",")).map((u) => u.trim());
  for (const url of urls) {
    const { shown } = urlCredentials(url);
    if (shown === url) continue;
    const provider = parseProviderSpec(spec.model)?.provider;
    const variable = provider ? baseUrlEnv(provider) : "OPENAI_BASE_URL, ANTHROPIC_BASE_URL or GEMINI_BASE_URL";
    throw new UsageError(`the base URL ${shown} carries credentials, which --queue would store in the queue server's rows: export it as ${variable} on this machine and on every worker instead of giving --base-url or base_url`);
  }
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

/** `worker --path-map FROM=TO`: where this machine keeps what the coordinator saw under FROM. */
export interface PathMapping {
  from: string;
  to: string;
}

/** Parses FROM=TO (both absolute; trailing slashes dropped). */
export function parsePathMapping(text: string): PathMapping {
  const i = text.indexOf("=");
  const [from, to] = i > 0 ? [text.slice(0, i), text.slice(i + 1)] : ["", ""];
  if (!path.isAbsolute(from) || !path.isAbsolute(to)) throw new Error(`--path-map expects FROM=TO with two absolute paths, got "${text}"`);
  return { from: path.resolve(from), to: path.resolve(to) };
}

/** An absolute path under a mapping's FROM (the folder itself or anything inside it), moved to its TO; the first mapping that applies wins. */
export function mapPath(file: string, mappings: readonly PathMapping[]): string {
  for (const { from, to } of mappings) {
    if (file === from) return to;
    if (file.startsWith(from.endsWith(path.sep) ? from : from + path.sep)) return path.join(to, file.slice(from.length));
  }
  return file;
}

/**
 * A queued spec with every path the worker reads moved by the mappings: the data, a template, the
 * EgoTL --train file, the furniture libraries, and --set values that are absolute paths (PathEval's
 * environments= and scenarios=). The item ids are checked afterwards as always, so a mapping to
 * other data is refused rather than answered.
 */
export function mapSpecPaths<S extends QueuedSpec>(spec: S, mappings: readonly PathMapping[]): S {
  if (mappings.length === 0) return spec;
  const move = (file: string | undefined) => (file === undefined ? undefined : mapPath(file, mappings));
  const moved: Record<string, unknown> = { ...spec };
  for (const key of ["data", "templateFile", "assetsDir"]) {
    const value = moved[key];
    if (typeof value === "string") moved[key] = move(value);
  }
  if (isGenerateSpec(spec)) {
    moved["extra"] = Object.fromEntries(Object.entries(spec.extra).map(([k, v]) => [k, path.isAbsolute(v) ? mapPath(v, mappings) : v]));
  } else if (!isNavigationSpec(spec) && spec.benchmarkOptions.train) {
    moved["benchmarkOptions"] = { ...spec.benchmarkOptions, train: move(spec.benchmarkOptions.train) };
  }
  return moved as unknown as S;
}
