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

/** The items of `data` with their audit units; load problems are a DataError (nothing is audited). */
export async function loadForAudit<I extends BenchItem>(benchmark: Benchmark<I>, data: string, options: { tasks?: string[]; cues: boolean; allowOutsideRoot?: boolean }): Promise<LoadedAudit<I>> {
  if (!benchmark.audit) throw new UsageError(`${benchmark.title} has no audit yet`);
  const loaded = benchmark.load(data, options.tasks, { allowOutsideRoot: options.allowOutsideRoot === true });
  if (loaded.problems.length > 0) throw new DataError(loaded.problems);
  if (loaded.items.length === 0) throw new UsageError(`no ${benchmark.title} items under ${data}`);
  const units = await benchmark.audit.units(loaded.items, { root: data, cues: options.cues });
  const legibility = options.cues && benchmark.audit.legibility ? await benchmark.audit.legibility(loaded.items, { root: data }) : undefined;
  return { items: loaded.items, units, ...(legibility ? { legibility } : {}) };
}

/** Audit `data` and write audit.json, items.jsonl and audit.md into `out`. */
export async function auditFolder<I extends BenchItem>(benchmark: Benchmark<I>, data: string, out: string, options: AuditOptions & { tasks?: string[]; cues: boolean; allowOutsideRoot?: boolean }): Promise<AuditResult> {
  const loaded = await loadForAudit(benchmark, data, options);
  const result = auditUnits(benchmark, loaded.items, loaded.units, options, loaded.legibility);
  writeAudit(out, result, path.resolve(data));
  return result;
}
