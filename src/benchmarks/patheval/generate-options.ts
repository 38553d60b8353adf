import { MAX_CONCURRENCY, MAX_TIMEOUT_MS } from "../../core/limits.js";
import { UsageError } from "../../core/problems.js";
import type { PlannerName } from "./plan.js";
import { DESCRIPTORS, PAPER_THRESHOLDS, type DescriptorName, type Descriptors } from "./scenarios.js";
import type { Dim } from "./types.js";
import type { GenerateSummary } from "./generate.js";
import type { EnvironmentSource } from "./environment-job.js";

/** Options of `generatePathEval`, apart from the generator so the CLI can read them without loading it. */
export interface GenerateOptions {
  outDir: string;
  seed: number;
  /** Number of environments (the release has 1,149; spread over the four families). */
  environments: number;
  /**
   * A folder of the user's environment files in the release's format (`*.txt`): planned instead of
   * generated ones (at most `environments` of them, a seeded choice when there are more).
   */
  environmentsDir?: string;
  runsPerEnvironment?: number;
  /** Pairs per environment: 5 (paper, default) or 6 (release). */
  pairsPerEnvironment?: number;
  /**
   * Which pairs get labelled: "all" (the paper's method, default) or "last" (what the released
   * generate_samples.py actually writes: only each environment's last, i.e. least distant, pair;
   * this is what gives the paper's 14,550 instances over 1,150 environments).
   */
  labelledPairs?: "all" | "last";
  planner?: PlannerName;
  simplify?: boolean;
  /** State validity: "release" (20 points on the robot's circle, default) or "exact" (the analytic disc, with exact motion checks). */
  validity?: "release" | "exact";
  /** Labelling thresholds, one per descriptor (default the paper's, §3.5). */
  thresholds?: Descriptors;
  /** The user's scenario texts (ids 1..15), replacing our wording; directions stay Table 7's. */
  scenarioTexts?: { file: string; sha256: string; texts: Record<number, string> };
  /** Equal Path 1 / Path 2 labels per scenario in the test split, by swapping the sides of some pairs. */
  balance?: boolean;
  /** "scenario" (default: test pairs drawn per scenario from all environments) or "environment" (no environment in both splits). */
  split?: "scenario" | "environment";
  /** Test pairs per scenario (paper 70); "release" = 34 for the five most frequent scenarios, 33 otherwise. */
  testPerScenario?: number | "release";
  dims?: Dim[];
  trainImages?: boolean;
  /** Same/different pairs of single-path pictures for the encoder probe (paper §5.2, Table 4); 0 = none. */
  probingPairs?: number;
  /** Iterations per plan (default 50,000); optional wall-time cap (machine-dependent when it triggers). */
  maxIterations?: number;
  timeLimitMs?: number;
  workers?: number;
  /** Where the environments come from (in task order): made here on threads by default; a queued run's stored jobs at its assembly (queue/generators/patheval.ts). */
  environmentSource?: EnvironmentSource;
  /** The preset the options came from, for the output's README. */
  preset?: string;
  log?: (line: string) => void;
}

/** Paper Table 10 (average descriptor differences of the paper's test pairs), for comparison. */
export const PAPER_TABLE_10: Descriptors = {
  "Minimum clearance": 0.593, "Maximum clearance": 0.124, "Average clearance": 1.31, "Path length": 19.72,
  "Smoothness": 140.93, "Sharp turns": 0.582, "Maximum angle": 32.31,
};

/** Short names of the descriptors for `thresholds=key:value,...`. */
export const THRESHOLD_KEYS: Readonly<Record<string, DescriptorName>> = {
  "min-clearance": "Minimum clearance", "max-clearance": "Maximum clearance", "avg-clearance": "Average clearance",
  "length": "Path length", "smoothness": "Smoothness", "sharp-turns": "Sharp turns", "max-angle": "Maximum angle",
};

const NON_NEGATIVE = /^(?:\d{1,9}(?:\.\d{1,12})?|\.\d{1,12})$/;

/**
 * `thresholds=`: seven non-negative numbers in the release's descriptor order
 * (`0.8,0.8,0.8,50,90,1,30`), or some `key:value` pairs over the paper's values
 * (`length:40,smoothness:60`; keys min-clearance, max-clearance, avg-clearance, length,
 * smoothness, sharp-turns, max-angle).
 */
export function parseThresholds(text: string): Descriptors {
  const parts = text.split(",").map((p) => p.trim());
  const number = (v: string, what: string) => {
    if (!NON_NEGATIVE.test(v)) throw new UsageError(`thresholds: ${what} must be a non-negative number, got "${v.slice(0, 40)}"`);
    return Number(v);
  };
  if (parts.every((p) => !p.includes(":"))) {
    if (parts.length !== DESCRIPTORS.length) throw new UsageError(`thresholds: expected ${DESCRIPTORS.length} numbers (${DESCRIPTORS.join(", ")}) or key:value pairs, got ${parts.length} values`);
    return Object.fromEntries(DESCRIPTORS.map((d, i) => [d, number(parts[i]!, d)])) as Descriptors;
  }
  const out: Descriptors = { ...PAPER_THRESHOLDS };
  for (const part of parts) {
    const i = part.indexOf(":");
    const key = i < 0 ? part : part.slice(0, i);
    const name = Object.hasOwn(THRESHOLD_KEYS, key) ? THRESHOLD_KEYS[key]! : undefined;
    if (!name) throw new UsageError(`thresholds: unknown descriptor "${key.slice(0, 40)}" (use ${Object.keys(THRESHOLD_KEYS).join(", ")})`);
    out[name] = number(part.slice(i + 1), key);
  }
  return out;
}

/**
 * Presets: named settings a user can override key by key. `table10` is what came closest to the
 * paper's Table 10 in our runs (12 environments x 30 plans each, three settings tried; figures in
 * docs/benchmarks/patheval.md): the release's pair handling (6 pairs, only each environment's
 * last, least distant pair labelled, 33/34 test pairs per scenario) with RRT-Connect, the paper's
 * planner (plain RRT, the release's, gave larger length and turn differences).
 */
export const PRESETS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  table10: { planner: "rrt-connect", pairs: "6", "labelled-pairs": "last", "test-per-scenario": "release" },
};

export const GENERATE_KEYS = [
  "preset", "runs", "pairs", "labelled-pairs", "planner", "simplify", "validity", "thresholds", "environments", "scenarios",
  "balance", "split", "test-per-scenario", "dims", "train-images", "probing", "max-iterations", "time-limit-ms", "workers",
] as const;

type Parsed = Omit<GenerateOptions, "outDir" | "seed" | "environments">;

function oneOf<T extends string>(key: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${key} must be ${choices.join(" or ")}, got "${value.slice(0, 40)}"`);
}

function bool(key: string, value: string): boolean {
  return oneOf(key, value, ["true", "false"]) === "true";
}

function dimsOf(text: string): Dim[] {
  const dims = text.split(",").map((t) => {
    const dim = (["2D", "3D"] as const).find((d) => d.toLowerCase() === t.trim().toLowerCase());
    if (!dim) throw new UsageError(`dims: unknown dimension "${t.slice(0, 20)}" (use 2d, 3d)`);
    return dim;
  });
  return [...new Set(dims)];
}

/**
 * `--set` options of `generate patheval` (key=value strings) as generator options. A preset's
 * keys come first; keys given beside it win. File options (environments, scenarios) are read by
 * the generator, which validates them; `readScenarioFile` is given the scenarios file here.
 */
export function parseGenerateSet(extra: Record<string, string>, readScenarios: (file: string) => NonNullable<GenerateOptions["scenarioTexts"]>): Parsed {
  const unknown = Object.keys(extra).filter((k) => !(GENERATE_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new UsageError(`unknown patheval option ${unknown.join(", ")} (known: ${GENERATE_KEYS.join(", ")})`);
  let preset: Record<string, string> = {};
  if (extra["preset"] !== undefined) {
    const name = extra["preset"];
    if (!Object.hasOwn(PRESETS, name)) throw new UsageError(`unknown preset "${name.slice(0, 40)}" (known: ${Object.keys(PRESETS).join(", ")})`);
    preset = { ...PRESETS[name]! };
  }
  const all: Record<string, string> = { ...preset, ...extra };
  // Each count bounded (core/limits.ts): plans per environment (the paper makes 30), pairs, probing
  // pairs and test pairs far above any release, workers as many as requests at once, the planner's
  // time limit a timer Node can keep.
  const int = (key: string, min: number, max: number) => {
    const v = Number(all[key]);
    if (!/^\d{1,9}$/.test(all[key]!) || v < min || v > max) throw new UsageError(`${key} must be an integer from ${min} to ${max}, got "${all[key]!.slice(0, 40)}"`);
    return v;
  };
  const has = (key: string) => all[key] !== undefined && all[key] !== "";
  const out: Parsed = {};
  if (has("preset")) out.preset = all["preset"]!;
  if (has("runs")) out.runsPerEnvironment = int("runs", 1, 10_000);
  if (has("pairs")) out.pairsPerEnvironment = int("pairs", 1, 100_000);
  if (has("time-limit-ms")) out.timeLimitMs = int("time-limit-ms", 1, MAX_TIMEOUT_MS);
  if (has("max-iterations")) out.maxIterations = int("max-iterations", 1, 999_999_999);
  if (has("workers")) out.workers = int("workers", 1, MAX_CONCURRENCY);
  if (has("probing")) out.probingPairs = int("probing", 0, 100_000);
  if (has("planner")) out.planner = oneOf("planner", all["planner"]!, ["rrt-connect", "rrt"] as const);
  if (has("validity")) out.validity = oneOf("validity", all["validity"]!, ["release", "exact"] as const);
  if (has("labelled-pairs")) out.labelledPairs = oneOf("labelled-pairs", all["labelled-pairs"]!, ["all", "last"] as const);
  if (has("split")) out.split = oneOf("split", all["split"]!, ["scenario", "environment"] as const);
  if (has("test-per-scenario")) out.testPerScenario = all["test-per-scenario"] === "release" ? "release" : int("test-per-scenario", 1, 100_000);
  if (has("dims")) out.dims = dimsOf(all["dims"]!);
  if (has("train-images")) out.trainImages = bool("train-images", all["train-images"]!);
  if (has("simplify")) out.simplify = bool("simplify", all["simplify"]!);
  if (has("balance")) out.balance = bool("balance", all["balance"]!);
  if (has("thresholds")) out.thresholds = parseThresholds(all["thresholds"]!);
  if (has("environments")) out.environmentsDir = all["environments"]!;
  if (has("scenarios")) out.scenarioTexts = readScenarios(all["scenarios"]!);
  return out;
}

/** Lines the CLI prints about the options in force beyond the defaults (balance, environment split, probing set). */
export function summaryNotes(summary: Pick<GenerateSummary, "swapped" | "environmentSplit" | "probingPairs">): string[] {
  const lines: string[] = [];
  if (summary.swapped > 0) lines.push(`balance: ${summary.swapped} test pairs shown with their sides swapped (records say "swapped": true)`);
  const split = summary.environmentSplit;
  if (split) lines.push(`split by environment: ${split.test} test and ${split.train} training environments; ${split.unused} labelled pairs of test environments not drawn (in neither split)`);
  if (summary.probingPairs > 0) lines.push(`encoder-probing set: ${summary.probingPairs} same/different picture pairs per dimension in probing/manifest.jsonl (docs/patheval-probing.md)`);
  return lines;
}
