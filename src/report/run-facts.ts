/**
 * What every table says about a run besides its scores: who it is (name, model, prompt variant,
 * control, benchmark options), how much of it was scored (N scored / N total, errors, missing
 * predictions, the first error), whether its overall number covers every task it averages, and
 * what it cost (tokens, latency, truncation, price) when scores.json has `usage`.
 *
 * The facts are computed once from the results when scores.json is written (`resultFacts`,
 * `scoreCoverage`) and read back by the terminal, Markdown, HTML and viewer renderings, so all
 * of them say the same thing.
 */
import path from "node:path";
import type { ItemResult, ScoresDocument } from "../core/benchmark.js";
import { BENCHMARKS } from "../registry.js";
import { mdText, table } from "./markdown.js";

// ------------------------------------------------------------------ facts from the results

export interface FirstError {
  id: string;
  kind: string;
  message: string;
}

export interface ResultFacts {
  n_total: number;
  /** Items scored with a prediction: status "scored" and an answer whose status is not "missing". */
  n_scored: number;
  /** Every item scored with a prediction: no error, nothing missing. */
  complete: boolean;
  first_error?: FirstError;
  /** Per task (in the order given, then any others): items without a prediction. */
  missing_by_task: Record<string, number>;
}

const hasPrediction = (result: ItemResult) => result.status === "scored" && result.answer !== undefined && result.answer.status !== "missing";

/** The first error in item order, as items.jsonl records it. */
function firstError(results: ItemResult[]): FirstError | undefined {
  const failed = results.find((r) => r.status === "error");
  if (!failed) return undefined;
  const error = failed.response?.error;
  return { id: String(failed.id), kind: error?.kind ?? "other", message: error?.message ?? "the request failed" };
}

/** `nTotal`: the items asked (a result list shorter than that leaves the rest unscored). */
export function resultFacts(results: ItemResult[], nTotal: number, tasks: readonly string[]): ResultFacts {
  const scored = results.filter(hasPrediction).length;
  const missing: Record<string, number> = Object.fromEntries(tasks.map((t) => [t, 0]));
  for (const result of results) {
    if (result.status === "scored" && !hasPrediction(result)) missing[result.task] = (missing[result.task] ?? 0) + 1;
  }
  const error = firstError(results);
  return { n_total: nTotal, n_scored: scored, complete: scored === nTotal && !error, ...(error ? { first_error: error } : {}), missing_by_task: missing };
}

export interface ScoreCoverage {
  /** The tasks the overall number averages. */
  tasks: string[];
  /** Those of them with no item scored from a prediction (not asked, all errors, or all missing). */
  without_predictions: string[];
}

/** Which of the tasks behind the overall number have predictions. */
export function scoreCoverage(benchmark: string, results: ItemResult[]): ScoreCoverage {
  const asked = [...new Set(results.map((r) => r.task))];
  const answered = new Set(results.filter(hasPrediction).map((r) => r.task));
  const tasks = [...(BENCHMARKS[benchmark]?.scoreTasks(asked) ?? asked)];
  return { tasks, without_predictions: tasks.filter((t) => !answered.has(t)) };
}

// ------------------------------------------------------------------ reading them back

const numberOr = (value: unknown, fallback: number) => (typeof value === "number" && Number.isFinite(value) ? value : fallback);
const record = (value: unknown) => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

export interface RunCounts {
  total: number;
  scored: number;
  errors: number;
  missing: number;
  complete: boolean;
}

/** N scored / N total and why they differ; scores.json from before these fields falls back to its counts. */
export function runCounts(run: ScoresDocument): RunCounts {
  const counts = (run.counts ?? {}) as Record<string, unknown>;
  const errors = numberOr(counts["errors"], 0);
  const missing = numberOr(counts["missing"], 0);
  const total = numberOr(run["n_total"], numberOr(counts["items"], numberOr(run.n, 0) + errors));
  const scored = numberOr(run["n_scored"], Math.max(total - errors - missing, 0));
  const complete = typeof run["complete"] === "boolean" ? (run["complete"] as boolean) : scored === total && errors === 0;
  return { total, scored, errors, missing, complete };
}

export function firstErrorOf(run: ScoresDocument): FirstError | undefined {
  const e = record(run["first_error"]);
  return e && typeof e["message"] === "string" ? { id: String(e["id"] ?? ""), kind: String(e["kind"] ?? "other"), message: e["message"] } : undefined;
}

export interface RunLimit {
  /** --limit: the first N items of each task were asked. */
  perTask: number;
  /** The items of the asked tasks before the limit. */
  available: number;
}

/** The --limit a run was made with (scores.json `limit`), undefined for a run of every item. */
export function limitOf(run: ScoresDocument): RunLimit | undefined {
  const l = record(run["limit"]);
  const perTask = numberOr(l?.["per_task"], NaN), available = numberOr(l?.["n_available"], NaN);
  return Number.isInteger(perTask) && Number.isInteger(available) ? { perTask, available } : undefined;
}

export interface RunSelection {
  /** --items: how many ids were named. */
  items?: number;
  /** --sample N and its seed. */
  sample?: { n: number; seed: number };
  /** The items of the asked tasks before they were chosen. */
  available: number;
}

/** The --items / --sample choice a run was made with (scores.json `selection`), undefined for none. */
export function selectionOf(run: ScoresDocument): RunSelection | undefined {
  const s = record(run["selection"]);
  const available = numberOr(s?.["n_available"], NaN);
  if (!s || !Number.isInteger(available)) return undefined;
  const items = numberOr(s["items"], NaN), sample = numberOr(s["sample"], NaN), seed = numberOr(s["seed"], NaN);
  return { ...(Number.isInteger(items) ? { items } : {}), ...(Number.isInteger(sample) ? { sample: { n: sample, seed: Number.isInteger(seed) ? seed : 1 } } : {}), available };
}

/** Short words for a chosen subset, for labels and cells: "items 3", "sample 20", "limit 3". */
function subsetWords(run: ScoresDocument): string[] {
  const s = selectionOf(run), l = limitOf(run);
  return [...(s?.items !== undefined ? [`items ${s.items}`] : []), ...(s?.sample ? [`sample ${s.sample.n}`] : []), ...(l ? [`limit ${l.perTask}`] : [])];
}

/** The items of the asked tasks before a subset was chosen, undefined for a run of every item. */
const availableOf = (run: ScoresDocument) => selectionOf(run)?.available ?? limitOf(run)?.available;

/** "first 3 per task, 15 of 41 items" (or "3 items chosen by id", "a random sample of 20 (seed 1)"): what a run of a subset asked; undefined for a full run. */
export function subsetText(run: ScoresDocument): string | undefined {
  const available = availableOf(run);
  if (available === undefined) return undefined;
  const s = selectionOf(run), l = limitOf(run);
  const how = [
    ...(s?.items !== undefined ? [`${s.items} item${s.items === 1 ? "" : "s"} chosen by id`] : []),
    ...(s?.sample ? [`a random sample of ${s.sample.n} (seed ${s.sample.seed})`] : []),
    ...(l ? [`first ${l.perTask} per task`] : []),
  ];
  return `${how.join(", then ")}, ${runCounts(run).total} of ${available} items`;
}

/** "75/79" (and " incomplete" when it is, " of 41 (limit 3)" when a subset was chosen): the cell every table shows. */
export function nScoredCell(run: ScoresDocument): string {
  const c = runCounts(run);
  const available = availableOf(run);
  return `${c.scored}/${c.total}${available !== undefined ? ` of ${available} (${subsetWords(run).join(", ")})` : ""}${c.complete ? "" : " incomplete"}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "complete", or "incomplete: 4 errors, 2 missing"; a run of a subset adds "(limited: first 3 per task, 15 of 41 items)" (subsetText). */
export function statusCell(run: ScoresDocument): string {
  const c = runCounts(run);
  const limited = subsetText(run);
  const suffix = limited ? ` (limited: ${limited})` : "";
  if (c.complete) return `complete${suffix}`;
  const parts = [...(c.errors > 0 ? [plural(c.errors, "error", "errors")] : []), ...(c.missing > 0 ? [`${c.missing} missing`] : [])];
  const rest = c.total - c.scored - c.errors - c.missing;
  if (rest > 0) parts.push(`${rest} not scored`);
  return `incomplete: ${parts.join(", ") || "not every item scored"}${suffix}`;
}

/** The one-line reason `run` and `score` print before exiting 3; undefined for a complete run. */
export function incompleteReason(run: ScoresDocument, allowed: boolean): string | undefined {
  const c = runCounts(run);
  if (c.complete) return undefined;
  const errors = c.errors > 0 ? `${c.errors} of ${c.total} items ended in ${c.errors === 1 ? "an error" : "errors"}` : "";
  const missing = c.missing > 0 ? `${errors ? c.missing : `${c.missing} of ${c.total} items`} ${c.missing === 1 ? "has" : "have"} no prediction` : "";
  const why = [errors, missing].filter(Boolean).join(", ") || `${c.scored} of ${c.total} items scored`;
  return `incomplete: ${why}; ${allowed ? "exit 0 (--allow-incomplete)" : "exit 3 (--allow-incomplete to exit 0)"}`;
}

const clip = (message: string, max = 300) => (message.length > max ? `${message.slice(0, max)}…` : message);

/** When requests failed: how many, and the first error's message (untrusted text: callers escape it). */
export function errorNote(run: ScoresDocument): string | undefined {
  const c = runCounts(run);
  const first = firstErrorOf(run);
  if (!first) return c.total > 0 && c.scored === 0 && c.missing === c.total ? "no item has a prediction" : undefined;
  const head = c.errors >= c.total && c.total > 0 ? "every request failed" : `${c.errors} of ${c.total} requests failed`;
  return `${head}; the first error, on item ${first.id} (${first.kind}): ${clip(first.message)}`;
}

/** `score`'s missing predictions per task, "b1 12, a2 20" (tasks with none left out); undefined when nothing is missing. */
export function missingByTaskText(run: ScoresDocument): string | undefined {
  const byTask = record(run["missing_by_task"]);
  const parts = Object.entries(byTask ?? {}).filter(([, n]) => typeof n === "number" && n > 0).map(([task, n]) => `${task} ${n}`);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** `score --restrict-to-predictions`: "restricted to the 2 of 6 questions the predictions answer"; undefined otherwise. */
export function restrictionNote(run: ScoresDocument): string | undefined {
  const r = record(run["restricted_to_predictions"]);
  if (!r || typeof r["n_scored_items"] !== "number" || typeof r["n_in_data"] !== "number") return undefined;
  return `restricted to the ${r["n_scored_items"]} of ${r["n_in_data"]} questions the predictions answer (--restrict-to-predictions)`;
}

/** What a table's status cell leaves out: a restriction to the predictions, missing predictions per task, failed requests and the first error. */
export function runNotes(run: ScoresDocument): string[] {
  const restricted = restrictionNote(run);
  const missing = missingByTaskText(run);
  const note = errorNote(run);
  return [...(restricted ? [restricted] : []), ...(missing ? [`no prediction for ${missing}`] : []), ...(note && !(missing && !firstErrorOf(run)) ? [note] : [])];
}

/** Lines each benchmark's terminal table ends with: N scored / N total, the status, then runNotes. */
export function terminalStatusLines(run: ScoresDocument): string[] {
  const c = runCounts(run);
  return [`scored ${c.scored} of ${c.total} items · ${statusCell(run)}`, ...runNotes(run)];
}

// ------------------------------------------------------------------ the overall number

export interface Coverage {
  complete: boolean;
  /** Tasks with predictions, of `of`. */
  with: number;
  of: number;
}

/** Whether the overall number (or the part of it over `subset`) covers every task it averages. */
export function coverageOf(run: ScoresDocument, subset?: readonly string[]): Coverage {
  const cov = record(run["score_coverage"]);
  const tasks = Array.isArray(cov?.["tasks"]) ? (cov!["tasks"] as unknown[]).map(String) : undefined;
  const without = Array.isArray(cov?.["without_predictions"]) ? new Set((cov!["without_predictions"] as unknown[]).map(String)) : new Set<string>();
  if (!tasks) return { complete: run["score_complete"] !== false, with: 0, of: 0 };
  const shown = subset ? tasks.filter((t) => subset.includes(t)) : tasks;
  const lacking = shown.filter((t) => without.has(t)).length;
  return { complete: lacking === 0, with: shown.length - lacking, of: shown.length };
}

/** An overall value as a table cell: formatted when it covers every task, else "— (k of n tasks)". */
export function overallCell(run: ScoresDocument, formatted: string, subset?: readonly string[]): string {
  const c = coverageOf(run, subset);
  return c.complete ? formatted : `— (${c.with} of ${c.of} tasks)`;
}

/** The terminal's words for an incomplete overall: "— (incomplete: predictions for 1 of 5 tasks; as computed 20.3)". */
export function overallTerminal(run: ScoresDocument, formatted: string, computed: boolean): string {
  const c = coverageOf(run);
  if (c.complete) return formatted;
  return `— (incomplete: predictions for ${c.with} of ${c.of} tasks${computed ? `; as computed ${formatted}` : ""})`;
}

// ------------------------------------------------------------------ where and when

const FOLDERS = new WeakMap<object, string>();

/** Remembers the folder a scores document was read from (the report's inputs), shown beside its label. */
export function noteRunFolder(run: object, dir: string): void {
  FOLDERS.set(run, displayFolder(dir));
}

/** A folder as a reader types it: relative to the working folder when inside it, else absolute. */
export function displayFolder(dir: string): string {
  const relative = path.relative(process.cwd(), path.resolve(dir));
  return relative === "" ? "." : relative.startsWith("..") || path.isAbsolute(relative) ? path.resolve(dir) : relative;
}

/** The folder the run was read from (noteRunFolder), or undefined for a document from elsewhere. */
export function runFolderOf(run: object): string | undefined {
  return FOLDERS.get(run);
}

/** "2026-12-07 11:45 UTC": when scores.json was written (created_at), or undefined. */
export function runDate(run: ScoresDocument): string | undefined {
  const at = text(run["created_at"]);
  const date = at ? new Date(at) : undefined;
  return date && Number.isFinite(date.getTime()) ? `${date.toISOString().slice(0, 16).replace("T", " ")} UTC` : undefined;
}

// ------------------------------------------------------------------ identity

export interface RunDefaults {
  /** The benchmark's default prompt variant (promptSources[0]). */
  prompt?: string;
  /** Its default control (promptControls[0]). */
  control?: string;
}

export interface RunIdentity {
  name?: string;
  model: string;
  prompt?: string;
  control?: string;
  /** Benchmark options as short words: "coords 0-1000", "strict", "circular", "train train.jsonl". */
  options: string[];
}

function optionWords(options: Record<string, unknown> | undefined, circular: boolean): string[] {
  const o = options ?? {};
  const words: string[] = [];
  if (typeof o["coords"] === "string") words.push(`coords ${o["coords"]}`);
  if (o["strict"] === true) words.push("strict");
  if (o["circular"] === true || circular) words.push("circular");
  if (typeof o["train"] === "string") words.push(`train ${String(o["train"]).split(/[\\/]/).pop()}`);
  if (o["allowOutsideRoot"] === true) words.push("outside root allowed");
  // The options that change what is asked or how it is scored name the run too (two runs differing only there stay apart).
  if (o["rules"] === "paper") words.push("paper rules");
  if (typeof o["split"] === "string") words.push(`${o["split"]} split`);
  if (typeof o["frames"] === "number") words.push(`${o["frames"]} frames`);
  if (typeof o["fps"] === "number") words.push(`${o["fps"]} fps`);
  return words;
}

export function runIdentity(run: ScoresDocument): RunIdentity {
  const options = record(run["run_options"]);
  const prompt = record(run["prompt"]);
  const source = text(options?.["prompt_source"]) ?? text(prompt?.["source"]) ?? text(prompt?.["variant"]) ?? text(run["probe"]);
  const control = text(run["control"]) ?? text(prompt?.["control"]);
  const name = text(run["name"]);
  return {
    ...(name ? { name } : {}),
    model: String(run.model),
    ...(source ? { prompt: source } : {}),
    ...(control ? { control } : {}),
    // A run of a subset (--limit, --items, --sample) is named by it too, so it is never taken for a run of the whole set.
    options: [...optionWords(record(options?.["benchmark_options"]), run["circular"] === true), ...subsetWords(run)],
  };
}

/** The run's name when it has one, else the model with what differs from the defaults: "random:1 (flipped, strict)". */
export function runLabel(run: ScoresDocument, defaults: RunDefaults = {}): string {
  const id = runIdentity(run);
  if (id.name) return id.name;
  const extras = [
    ...(id.prompt && defaults.prompt && id.prompt !== defaults.prompt ? [id.prompt] : []),
    ...(id.control && defaults.control && id.control !== defaults.control ? [id.control] : []),
    ...id.options.filter((o) => o !== "outside root allowed"),
  ];
  return extras.length > 0 ? `${id.model} (${extras.join(", ")})` : id.model;
}

/** Labels for runs shown together; a repeated label gets " (2)", " (3)"... so every run keeps its row. */
export function runLabels(runs: ScoresDocument[], defaults: RunDefaults = {}): string[] {
  const seen = new Map<string, number>();
  return runs.map((run) => {
    const label = runLabel(run, defaults);
    const k = (seen.get(label) ?? 0) + 1;
    seen.set(label, k);
    return k === 1 ? label : `${label} (${k})`;
  });
}

/** Chart legend names: the labels, marked "(75/79 scored)" when the run is incomplete. */
export function chartLabels(runs: ScoresDocument[], defaults: RunDefaults = {}): string[] {
  return runLabels(runs, defaults).map((label, i) => {
    const c = runCounts(runs[i]!);
    return c.complete ? label : `${label} (${c.scored}/${c.total} scored)`;
  });
}

/** "model random:1 · prompt plain · control none · coords 0-1000": every identity field, for filters and titles. */
export function identityText(run: ScoresDocument): string {
  const id = runIdentity(run);
  return [
    ...(id.name ? [`name ${id.name}`] : []),
    `model ${id.model}`,
    ...(id.prompt ? [`prompt ${id.prompt}`] : []),
    ...(id.control ? [`control ${id.control}`] : []),
    ...id.options,
  ].join(" · ");
}

// ------------------------------------------------------------------ usage (H6 computes it in scores.json)

export interface UsageFacts {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  with_usage: number;
  latency_ms: { p50: number; p90: number; p99: number; mean: number; max: number } | null;
  truncated: { n: number; rate: number };
  token_limited: { n: number; rate: number };
  cost?: { usd: number; price: { input_per_mtok: number; output_per_mtok: number } };
}

export function usageOf(run: ScoresDocument): UsageFacts | undefined {
  const u = record(run["usage"]);
  return u && typeof u["input_tokens"] === "number" ? (u as unknown as UsageFacts) : undefined;
}

const integer = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
const seconds = (ms: unknown) => (typeof ms === "number" && Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "–");
const share = (rate: unknown) => (typeof rate === "number" && Number.isFinite(rate) ? `${(100 * rate).toFixed(1)}%` : "–");

/** Dollars: cents for amounts of a cent or more, else four decimals. */
export function dollars(usd: unknown): string {
  if (typeof usd !== "number" || !Number.isFinite(usd)) return "–";
  return `$${usd >= 0.01 || usd === 0 ? usd.toFixed(2) : usd.toFixed(4)}`;
}

function usageCells(u: UsageFacts | undefined): string[] {
  if (!u) return ["–", "–", "–", "–", "–", "–"];
  const latency = u.latency_ms ? `${seconds(u.latency_ms.p50)} / ${seconds(u.latency_ms.p90)}` : "–";
  return [integer(u.input_tokens), integer(u.output_tokens), integer(u.reasoning_tokens), latency, `${u.truncated?.n ?? 0} (${share(u.truncated?.rate)})`, u.cost ? dollars(u.cost.usd) : "–"];
}

const USAGE_HEADER = ["Input tokens", "Output tokens", "Reasoning tokens", "Latency p50 / p90", "Truncated", "Cost"];

/** The `run` summary line: tokens, latency, truncation and cost; undefined without usage. */
export function usageLine(run: ScoresDocument): string | undefined {
  const u = usageOf(run);
  if (!u) return undefined;
  const [input, output, reasoning, latency, truncated, cost] = usageCells(u);
  const parts = [
    `usage: ${input} input, ${output} output, ${reasoning} reasoning tokens over ${u.requests} replies (${u.with_usage} reported usage)`,
    `latency p50 / p90 ${latency}`,
    `truncated ${truncated}`,
    ...(u.cost ? [`cost ${cost}`] : []),
  ];
  return parts.join(" · ");
}

// ------------------------------------------------------------------ the Runs table

/** One row per run: label, model, prompt, control, options, N scored / N total, status, folder, date (and usage when any run has it). */
export function runIdentityRows(runs: ScoresDocument[], defaults: RunDefaults = {}): { header: string[]; rows: string[][] } {
  const labels = runLabels(runs, defaults);
  const withUsage = runs.some((r) => usageOf(r));
  const header = ["Run", "Model", "Prompt", "Control", "Options", "Scored", "Status", "Folder", "Date", ...(withUsage ? USAGE_HEADER : [])];
  const rows = runs.map((run, i) => {
    const id = runIdentity(run);
    const c = runCounts(run);
    return [labels[i]!, id.model, id.prompt ?? "–", id.control ?? "–", id.options.join(", ") || "–", `${c.scored}/${c.total}`, statusCell(run), runFolderOf(run) ?? "–", runDate(run) ?? "–", ...(withUsage ? usageCells(usageOf(run)) : [])];
  });
  return { header, rows };
}

/** The "Runs" section of a benchmark's Markdown: the table, then each incomplete run's notes (missing per task, first error). */
export function runsMarkdown(runs: ScoresDocument[], defaults: RunDefaults = {}): string {
  const { header, rows } = runIdentityRows(runs, defaults);
  const labels = runLabels(runs, defaults);
  // Notes carry untrusted text (server error messages): table() escapes the cells, mdText the notes.
  const notes = runs.flatMap((run, i) => runNotes(run).map((note) => `- ${mdText(`${labels[i]}: ${note}`)}`));
  return ["### Runs", "", table(header, rows), ...(notes.length > 0 ? ["", ...notes] : [])].join("\n");
}
