/** Load a set, build its audit units (and legibility where the benchmark draws answers), audit it, and write the folder: what `audit` and the demo share. */
import path from "node:path";
import type { Benchmark, BenchItem } from "../core/benchmark.js";
import { DataError, UsageError } from "../core/problems.js";
import { auditUnits, type AuditOptions, type AuditResult } from "./audit.js";
import { writeAudit } from "./outputs.js";
import type { AuditUnit, Legibility } from "./types.js";

export interface LoadedAudit<I extends BenchItem> {
  items: I[];
  units: AuditUnit[];
  legibility?: Record<string, Legibility>;
}

export interface LoadOptions {
  tasks?: string[];
  cues: boolean;
  allowOutsideRoot?: boolean;
  /** A prompt variant whose questions are derived from the loaded items (PathEval's probes): those are audited. */
  prompt?: string;
}

/** `run`'s default seed: derived questions (which path is shown first) come out as a run without --seed asks them. */
export const RUN_DEFAULT_SEED = 20260717;

/**
 * The loaded items of `data` and the ones audited: the same, or the questions `prompt` derives
 * from them. Load problems are a DataError, an empty set a UsageError (nothing is audited).
 */
export function loadAuditItems<I extends BenchItem>(benchmark: Benchmark<I>, data: string, options: Omit<LoadOptions, "cues">): { loaded: I[]; items: I[] } {
  if (!benchmark.audit) throw new UsageError(`${benchmark.title} has no audit yet`);
  if (options.prompt !== undefined && !benchmark.promptSources.includes(options.prompt)) throw new UsageError(`unknown ${benchmark.title} prompt "${options.prompt}" (choose ${benchmark.promptSources.join(", ")})`);
  const loaded = benchmark.load(data, options.tasks, { allowOutsideRoot: options.allowOutsideRoot === true });
  if (loaded.problems.length > 0) throw new DataError(loaded.problems);
  const items = options.prompt && benchmark.deriveItems ? benchmark.deriveItems(loaded.items, { source: options.prompt, control: benchmark.promptControls[0]!, seed: RUN_DEFAULT_SEED }) : loaded.items;
  if (items.length === 0) throw new UsageError(`no ${benchmark.title} items under ${data}`);
  return { loaded: loaded.items, items };
}

/** The audited items of `data` (loadAuditItems) with their audit units and, with cues, legibility. */
export async function loadForAudit<I extends BenchItem>(benchmark: Benchmark<I>, data: string, options: LoadOptions): Promise<LoadedAudit<I>> {
  const { items } = loadAuditItems(benchmark, data, options);
  const units = await benchmark.audit!.units(items, { root: data, cues: options.cues });
  const legibility = options.cues && benchmark.audit!.legibility ? await benchmark.audit!.legibility(items, { root: data }) : undefined;
  return { items, units, ...(legibility ? { legibility } : {}) };
}

/** Audit `data` and write audit.json, items.jsonl and audit.md into `out`. */
export async function auditFolder<I extends BenchItem>(benchmark: Benchmark<I>, data: string, out: string, options: AuditOptions & LoadOptions): Promise<AuditResult> {
  const loaded = await loadForAudit(benchmark, data, options);
  const result = auditUnits(benchmark, loaded.items, loaded.units, options, loaded.legibility);
  if (options.prompt) result.document.prompt = options.prompt;
  writeAudit(out, result, path.resolve(data));
  return result;
}
