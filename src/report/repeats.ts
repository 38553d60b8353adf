/**
 * Repeated runs (`run --repeats K`): the same questions asked K times, each repeat a run folder of its
 * own. Papers report the mean of per-run scores (EPIC-Bench §4: "the average performance across 6
 * independent runs"), so the summary is, for the overall score and every numeric metric of every task,
 * each repeat's value, their mean and their sample standard deviation. Counts (n, tp, ...) are not
 * metrics and are left out; a repeat that is incomplete makes the whole summary incomplete.
 */
import type { ScoresDocument } from "../core/benchmark.js";
import { table } from "./markdown.js";

export interface RepeatInfo {
  index: number;
  of: number;
  /** The folder that holds the repeats (absolute): runs sharing it are one repeated run. */
  group: string;
}

export interface RepeatedMetric {
  /** "score" for the overall number, else "<task>.<metric>". */
  metric: string;
  values: Array<number | null>;
  mean: number | null;
  /** Sample standard deviation (n - 1); null with fewer than two values. */
  sd: number | null;
}

export interface RepeatsSummary {
  benchmark: string;
  model: string;
  repeats: number;
  /** Repeats found, in order of their index. */
  indices: number[];
  complete: boolean;
  metrics: RepeatedMetric[];
}

/** Keys of a task's block that count things rather than measure them. */
const COUNT_KEY = /^(n|n_.*|.*_n|tp|fp|fn|tn|invalid|count.*|.*_count|code|errors|missing|parse_failures|unreadable|correct|excluded|zero_.*|total|total_.*|num_.*|scored)$/;

export function repeatOf(run: ScoresDocument): RepeatInfo | undefined {
  const r = run["repeat"] as Partial<RepeatInfo> | undefined;
  return r && typeof r.index === "number" && typeof r.of === "number" && typeof r.group === "string" ? (r as RepeatInfo) : undefined;
}

/** The mean, and the sample standard deviation, of the values present. */
export function meanAndSd(values: ReadonlyArray<number | null>): { mean: number | null; sd: number | null } {
  const present = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (present.length === 0) return { mean: null, sd: null };
  const mean = present.reduce((s, v) => s + v, 0) / present.length;
  if (present.length < 2) return { mean, sd: null };
  const variance = present.reduce((s, v) => s + (v - mean) ** 2, 0) / (present.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

/** The numeric metrics of one task block (top level only; nested blocks such as intervals are not averaged). */
function taskMetrics(block: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (!block || typeof block !== "object") return out;
  for (const [key, value] of Object.entries(block as Record<string, unknown>)) {
    if (typeof value === "number" && Number.isFinite(value) && !COUNT_KEY.test(key)) out.set(key, value);
  }
  return out;
}

/** The summary of K repeats of one run (their scores.json, any order). */
export function summarizeRepeats(runs: ScoresDocument[]): RepeatsSummary {
  const ordered = [...runs].sort((a, b) => (repeatOf(a)?.index ?? 0) - (repeatOf(b)?.index ?? 0));
  const names: string[] = ["score"];
  const seen = new Set(names);
  for (const run of ordered) {
    for (const [task, block] of Object.entries(run.tasks ?? {})) {
      for (const key of taskMetrics(block).keys()) {
        const name = `${task}.${key}`;
        if (!seen.has(name)) names.push(name), seen.add(name);
      }
    }
  }
  const valueOf = (run: ScoresDocument, name: string): number | null => {
    if (name === "score") return typeof run.score === "number" ? run.score : null;
    const dot = name.indexOf(".");
    return taskMetrics(run.tasks?.[name.slice(0, dot)]).get(name.slice(dot + 1)) ?? null;
  };
  const metrics = names.map((metric) => {
    const values = ordered.map((run) => valueOf(run, metric));
    return { metric, values, ...meanAndSd(values) };
  });
  const first = ordered[0];
  return {
    benchmark: first?.benchmark ?? "",
    model: first?.model ?? "",
    repeats: repeatOf(first ?? ({} as ScoresDocument))?.of ?? ordered.length,
    indices: ordered.map((run) => repeatOf(run)?.index ?? 0),
    complete: ordered.length === (repeatOf(first ?? ({} as ScoresDocument))?.of ?? ordered.length) && ordered.every((run) => run["complete"] !== false),
    metrics,
  };
}

const cell = (value: number | null) => (value === null ? "–" : Number.isInteger(value) ? String(value) : value.toFixed(4));

/** "### Mean over K repeats": one row per metric, a column per repeat, then mean and SD (values as in scores.json). */
export function repeatsMarkdown(summary: RepeatsSummary, label: string): string {
  const header = ["Metric", ...summary.indices.map((i) => `Repeat ${i}`), "Mean", "SD"];
  const rows = summary.metrics.map((m) => [m.metric, ...m.values.map(cell), cell(m.mean), cell(m.sd)]);
  const status = summary.complete
    ? `all ${summary.repeats} repeats complete`
    : `incomplete: ${summary.indices.length} of ${summary.repeats} repeats present, or a repeat has unscored items; the mean covers what was scored`;
  return [`### Mean over ${summary.repeats} repeats: ${label}`, "", `Each repeat asked every question again (its own store keys); ${status}. Values as in scores.json; SD is the sample standard deviation.`, "", table(header, rows)].join("\n");
}

/** Runs grouped by the repeated run they belong to (runs without a repeat are left out). */
export function repeatGroups(runs: ScoresDocument[]): ScoresDocument[][] {
  const groups = new Map<string, ScoresDocument[]>();
  for (const run of runs) {
    const r = repeatOf(run);
    if (r) groups.set(r.group, [...(groups.get(r.group) ?? []), run]);
  }
  return [...groups.values()];
}
