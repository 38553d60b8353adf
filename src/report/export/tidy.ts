/**
 * The tidy table: one row per run x task x metric (plus one "overall" row per run for its headline
 * score), with the interval scores.json records for that metric, N and N total. Values are exactly
 * scores.json's (fractions as stored, every digit), so the CSV can be checked against it.
 *
 * - metric: a top-level finite number of the task's block that measures rather than counts
 *   (counts such as n, tp, correct, parse_failures are N-like, not metrics, and are left out;
 *   nested blocks such as EgoPath's `official` or EgoTL's `per_direction` are left out too).
 * - ci_low, ci_high: the block's `ci[metric]` when it has one (the overall row: `score_ci`).
 * - n: the items the task's metrics are computed over (the block's n_scored, else n, else EPIC's
 *   total_processed; EgoTL's accuracy_counted: n, every question); the overall row: items scored
 *   from a prediction (n_scored).
 * - n_total: the task's questions in items.jsonl (empty when the run has no items.jsonl beside it);
 *   the overall row: the run's n_total.
 * - folder, created_at: where the run was read from and when its scores.json was written, so runs
 *   of one model stay apart.
 * - navigation runs (`navigate vcn`): benchmark "vcn-navigation", rows as navigationRows says.
 */
import type { ItemResult, ScoresDocument } from "../../core/benchmark.js";
import { episodeRunsOf, isEpisodeRunScores, type EpisodeRunScores } from "../episode-runs.js";
import { runCounts, runFolderOf } from "../run-facts.js";
import { csvTable } from "./csv.js";
import { reportLabels } from "./labels.js";

export interface TidyRow {
  run: string;
  benchmark: string;
  model: string;
  task: string;
  metric: string;
  value: number | null;
  ci_low: number | null;
  ci_high: number | null;
  n: number | null;
  n_total: number | null;
  /** Where the run was read from (relative to the working folder when inside it) and when its scores were written. */
  folder: string | null;
  created_at: string | null;
}

export const TIDY_COLUMNS = ["run", "benchmark", "model", "task", "metric", "value", "ci_low", "ci_high", "n", "n_total", "folder", "created_at"] as const;

/** The columns every row of a run shares: its label, benchmark, model, folder and date. */
function runColumns(run: { benchmark: string; model: unknown; created_at?: unknown }, label: string, benchmark: string) {
  return { run: label, benchmark, model: String(run.model), folder: runFolderOf(run) ?? null, created_at: typeof run.created_at === "string" ? run.created_at : null };
}

/** Keys of a task's block that count things (N-like) rather than measure them. */
const COUNT_KEY = /^(n|n_.*|.*_n|tp|fp|fn|tn|invalid|correct|successes|unreadable|excluded|zero_truth|total|total_processed|num_.*|parse_failures|chose_.*|errors|missing|scored|code|count.*|.*_count)$/;

type Loose = Record<string, unknown>;
const record = (value: unknown): Loose | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : undefined);
const finite = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** A [low, high] pair of finite numbers, else nulls. */
function interval(value: unknown): { ci_low: number | null; ci_high: number | null } {
  if (Array.isArray(value) && value.length === 2 && finite(value[0]) !== null && finite(value[1]) !== null) return { ci_low: value[0] as number, ci_high: value[1] as number };
  return { ci_low: null, ci_high: null };
}

/** The metrics of one task block, in the block's key order. */
export function blockMetrics(block: unknown): Array<[string, number]> {
  const b = record(block) ?? {};
  return Object.entries(b).filter(([key, value]) => finite(value) !== null && !COUNT_KEY.test(key)) as Array<[string, number]>;
}

/** The items a block's metrics are computed over. */
function blockN(block: Loose): number | null {
  return finite(block["n_scored"]) ?? finite(block["n"]) ?? finite(block["total_processed"]);
}

/** EgoTL-Bench's accuracy_counted divides by every question (unreadable letters counted wrong), not by the scored ones. */
const metricN = (metric: string, block: Loose, n: number | null) => (metric === "accuracy_counted" ? (finite(block["n"]) ?? n) : n);

/** Questions per task key in items.jsonl (a block is keyed by its task name; EgoPath's items carry its code). */
function taskTotal(results: ItemResult[] | null, key: string, block: Loose): number | null {
  if (!results) return null;
  const code = typeof block["code"] === "string" ? block["code"] : undefined;
  return results.filter((r) => r.task === key || (code !== undefined && r.task === code)).length;
}

function itemRunRows(run: ScoresDocument, label: string, results: ItemResult[] | null): TidyRow[] {
  const base = runColumns(run, label, run.benchmark);
  const counts = runCounts(run);
  const overallName = typeof run["score_name"] === "string" ? (run["score_name"] as string) : "score";
  const rows: TidyRow[] = [{ ...base, task: "overall", metric: overallName, value: finite(run.score), ...interval(run["score_ci"]), n: counts.scored, n_total: counts.total }];
  for (const [task, raw] of Object.entries(run.tasks ?? {})) {
    const block = record(raw);
    if (!block) continue;
    const ci = record(block["ci"]) ?? {};
    const n = blockN(block);
    const nTotal = taskTotal(results, task, block);
    for (const [metric, value] of blockMetrics(block)) rows.push({ ...base, task, metric, value, ...interval(ci[metric]), n: metricN(metric, block, n), n_total: nTotal });
  }
  return rows;
}

/** A run of episodes: its benchmark's metrics (episode-runs.ts metricRows), under "<benchmark>-navigation". */
function navigationRows(run: EpisodeRunScores, label: string): TidyRow[] {
  const base = runColumns(run, label, `${run.benchmark}-navigation`);
  return episodeRunsOf(run.benchmark).metricRows(run).map((row) => ({ ...base, task: row.task, metric: row.metric, value: row.value, ci_low: null, ci_high: null, n: row.n, n_total: row.nTotal }));
}

export function tidyRows(runs: Array<{ scores: ScoresDocument; results: ItemResult[] | null }>): TidyRow[] {
  const labels = reportLabels(runs.map((r) => r.scores));
  return runs.flatMap((run, i) => (isEpisodeRunScores(run.scores) ? navigationRows(run.scores, labels[i]!) : itemRunRows(run.scores, labels[i]!, run.results)));
}

export function tidyCsv(rows: TidyRow[]): string {
  return csvTable(TIDY_COLUMNS, rows.map((row) => TIDY_COLUMNS.map((column) => row[column])));
}
