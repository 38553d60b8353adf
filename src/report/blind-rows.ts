/**
 * Chance and blind rows beside the models: for each benchmark and dataset the runs used, the audit
 * of that data (an audit folder among or below the report's inputs whose `data` is the same
 * folder, else computed now when the set is small enough to take seconds: no cues, no intervals).
 * A model's score within 10 points of the best blind rule is marked: that much can be had without
 * looking (issue 26: "blind ceiling").
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { auditUnits, DEFAULT_AUDIT_OPTIONS, type AuditDocument } from "../audit/audit.js";
import { AUDIT_FILE } from "../audit/outputs.js";
import { loadAuditItems } from "../audit/run-audit.js";
import type { ScoresDocument } from "../core/benchmark.js";
import { DataError, UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { readJsonFile } from "./run-folder.js";
import { table } from "./markdown.js";

/** A set this large or smaller is audited on the fly (a few seconds without cues). */
export const AUDIT_ON_THE_FLY_ITEMS = 3000;
/** Points within which a model's score counts as reachable without looking. */
export const BLIND_CEILING_MARGIN = 0.1;
const MAX_SEARCH_DEPTH = 6;

export interface BlindReference {
  benchmark: string;
  /** The prompt variant whose derived questions were audited (PathEval's probes). */
  prompt?: string;
  /** The dataset folder (absolute). */
  data: string;
  document: AuditDocument;
  source: "audit folder" | "computed";
  /**
   * The label-free chance a run of this data recorded (scores.json `label_free_chance`: EgoPath's
   * random-route expectation), when a run asked every audited question: it is the chance shown.
   */
  labelFree?: LabelFreeChance;
}

/** scores.json `label_free_chance`: a guess that reads no labels, scored exactly (headline per task, overall). */
export interface LabelFreeChance {
  model: string;
  headline: Record<string, number>;
  overall: number | null;
}

/** A run's label-free chance, when it records one and asked all `n` audited questions (a --limit or --tasks run asked others). */
function labelFreeOf(run: ScoresDocument, n: number): LabelFreeChance | undefined {
  const value = run["label_free_chance"] as LabelFreeChance | undefined;
  if (!value || typeof value !== "object" || !value.headline || typeof value.headline !== "object") return undefined;
  return run["n_total"] === n ? value : undefined;
}

const keyOf = (benchmark: string, data: string, prompt: string | undefined) => `${benchmark}\u0000${path.resolve(data)}\u0000${prompt ?? ""}`;

/** The prompt variant whose derived questions a run asked (PathEval's probes), or undefined when the run asked the loaded items. */
function derivedPrompt(run: ScoresDocument): string | undefined {
  let benchmark;
  try {
    benchmark = getBenchmark(run.benchmark);
  } catch {
    return undefined;
  }
  const source = (run["run_options"] as { prompt_source?: unknown } | undefined)?.prompt_source;
  return benchmark.deriveItems && typeof source === "string" && source !== benchmark.promptSources[0] ? source : undefined;
}

/** audit.json files at or below the inputs (links not followed, no deeper than MAX_SEARCH_DEPTH). */
export function findAudits(inputs: readonly string[]): Array<{ file: string; document: AuditDocument & { data?: string } }> {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(path.join(dir, AUDIT_FILE))) found.push(path.join(dir, AUDIT_FILE));
    if (depth >= MAX_SEARCH_DEPTH) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "data") walk(path.join(dir, entry.name), depth + 1);
    }
  };
  for (const input of inputs) if (existsSync(input) && statSync(input).isDirectory()) walk(input, 0);
  return found.sort().map((file) => ({ file, document: readJsonFile<AuditDocument & { data?: string }>(file) }));
}

/** The reference of every (benchmark, data) the runs used, where one exists or can be made in seconds. */
export async function blindReferences(runs: readonly ScoresDocument[], audits: ReadonlyArray<{ document: AuditDocument & { data?: string } }>): Promise<BlindReference[]> {
  const given = new Map<string, AuditDocument>();
  for (const a of audits) if (typeof a.document.data === "string") given.set(keyOf(a.document.benchmark, a.document.data, a.document.prompt), a.document);
  const out = new Map<string, BlindReference>();
  for (const run of runs) {
    const data = typeof run["data"] === "string" ? (run["data"] as string) : null;
    if (!data || typeof run.model !== "string") continue;
    const prompt = derivedPrompt(run);
    const key = keyOf(run.benchmark, data, prompt);
    if (out.has(key)) continue;
    const document = given.get(key);
    if (document) {
      out.set(key, { benchmark: run.benchmark, data: path.resolve(data), ...(prompt ? { prompt } : {}), document, source: "audit folder" });
      continue;
    }
    const computed = await auditOnTheFly(run.benchmark, data, run, prompt);
    if (computed) out.set(key, { benchmark: run.benchmark, data: path.resolve(data), ...(prompt ? { prompt } : {}), document: computed, source: "computed" });
  }
  // The chance of the audited questions is the label-free one where a run asked all of them.
  const runKey = (run: ScoresDocument) => (typeof run["data"] === "string" ? keyOf(run.benchmark, run["data"] as string, derivedPrompt(run)) : "");
  return [...out.values()].map((ref) => {
    const key = keyOf(ref.benchmark, ref.data, ref.prompt);
    const labelFree = runs.filter((run) => runKey(run) === key).map((run) => labelFreeOf(run, ref.document.n)).find((v) => v !== undefined);
    return labelFree ? { ...ref, labelFree } : ref;
  });
}

/** The chance shown for a task: the label-free one where recorded, with the audit's in brackets when it differs. */
function chanceCell(ref: BlindReference, task: string, audited: number | null): string {
  const free = ref.labelFree?.headline[task];
  if (typeof free !== "number") return pct(audited);
  return audited === null || pct(audited) === pct(free) ? pct(free) : `${pct(free)} (audit chance ${pct(audited)})`;
}

/** The overall chance of a reference: the label-free one where recorded, else the audit's. */
export function overallChance(ref: BlindReference): number | null {
  return ref.labelFree ? ref.labelFree.overall : ref.document.overall.chance;
}

/** A quick audit (no cues, no intervals) of a small set the run read; null when it is large, gone or unreadable. */
async function auditOnTheFly(benchmarkId: string, data: string, run: ScoresDocument, prompt: string | undefined): Promise<AuditDocument | null> {
  let benchmark;
  try {
    benchmark = getBenchmark(benchmarkId);
  } catch {
    return null;
  }
  if (!benchmark.audit || !existsSync(data)) return null;
  const split = typeof run["split"] === "string" ? (run["split"] as string) : undefined;
  const configured = benchmark.configure && split ? benchmark.configure({ split }) : benchmark;
  try {
    const { loaded, items } = loadAuditItems(configured, data, { allowOutsideRoot: run["allow_outside_root"] === true, ...(prompt ? { prompt } : {}) });
    if (loaded.length > AUDIT_ON_THE_FLY_ITEMS) return null;
    const units = await configured.audit!.units(items, { root: data, cues: false });
    return { ...auditUnits(configured, items, units, { ...DEFAULT_AUDIT_OPTIONS, bootstrap: 0 }).document, ...(prompt ? { prompt } : {}) };
  } catch (error) {
    // A set that no longer reads (moved, changed) has no rows; anything else is a bug to see.
    if (error instanceof DataError || error instanceof UsageError) return null;
    throw error;
  }
}

const pct = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "—");

/** The best blind answer of a task: its best rule or TsT, whichever is higher. */
export function blindBest(t: AuditDocument["tasks"][string]): { name: string; score: number } | null {
  const tst = typeof t.tst?.score === "number" ? { name: "TsT forest", score: t.tst.score } : null;
  const rule = t.blind_best;
  if (!tst) return rule;
  if (!rule) return tst;
  return tst.score > rule.score ? tst : rule;
}

/** A model's score with "†" when the best blind answer is within the margin of it (or above it). */
export function ceilingMark(score: number | null, blind: number | null | undefined): string {
  if (score === null) return "—";
  return typeof blind === "number" && blind >= score - BLIND_CEILING_MARGIN ? `${pct(score)} †` : pct(score);
}

/**
 * Per benchmark and dataset: one row per task with its chance, best blind answer, TsT and each
 * run's score on that task in the same metric (the benchmark's audit headline of the run's
 * scores.json), marked where the blind ceiling reaches it.
 */
export function blindMarkdown(references: readonly BlindReference[], runs: readonly ScoresDocument[], label: (run: ScoresDocument) => string): string {
  const sections: string[] = [];
  for (const ref of references) {
    const benchmark = getBenchmark(ref.benchmark);
    const audit = benchmark.audit!;
    const own = runs.filter((r) => r.benchmark === ref.benchmark && typeof r["data"] === "string" && path.resolve(r["data"] as string) === ref.data && derivedPrompt(r) === ref.prompt && typeof r.model === "string");
    const header = ["Task", "Metric", "Chance", "Best blind (no picture)", "TsT", ...own.map(label)];
    const rows = Object.entries(ref.document.tasks).map(([task, t]) => {
      const best = blindBest(t);
      return [task, t.metric, chanceCell(ref, task, t.chance), best ? `${pct(best.score)} (${best.name})` : "—", pct(t.tst?.score), ...own.map((r) => ceilingMark(audit.headline(r, task).score, best?.score))];
    });
    sections.push(
      `### ${benchmark.title}: chance and blind scores (${path.basename(ref.data)}${ref.prompt ? `, ${ref.prompt} questions` : ""}, ${ref.source === "computed" ? "audited now, no cues" : "from its audit"})`,
      "",
      `Percent. Best blind: the highest of the rules that answer without the picture and the cross-validated forest on the prompt text (TsT); † a run within ${100 * BLIND_CEILING_MARGIN} points of it (or below it): that much needs no looking. \`spatialprobe audit ${ref.benchmark} --data <set>\` gives the details.` +
        (ref.labelFree ? ` Chance: the exact expected score of the label-free \`${ref.labelFree.model}\` built-in (the runs' label_free_chance), the audit's chance level in brackets where it differs.` : ""),
      "",
      table(header, rows),
      "",
    );
  }
  return sections.join("\n");
}
