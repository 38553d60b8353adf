/**
 * Markdown tables of closed-loop navigation runs (`spatialprobe navigate vcn`): report.md, the
 * navigation section of `spatialprobe report` and, through markdown-html.ts, of report.html and
 * the viewer. Rates are percentages with one decimal, as the paper prints them.
 *
 * - Table 1's shape (VCN-Bench §6.1): SR and SPL per instruction type and their average (the mean
 *   of the per-type values over the types the run holds).
 * - RSR over the R2O tasks and SSR over Instance (§6.3), soft SPL, final distance, steps and
 *   collisions per episode, and how many episodes ran, failed or were not run.
 * - Navigation given goal identification at the first step, P(N|G), P(N|¬G) and RSR|G (§6.3).
 * - Goal identification at the first and last step, and the Pearson correlations of success with
 *   the prior video's frames, rooms and area (Fig. 7), when scores.json has them.
 *
 * scores.json is read defensively (fields of the wrong type count as absent), so a run written by
 * an older or newer version still gets every table it has the numbers for. An incomplete run
 * (episodes that ended in errors or were not run) says "incomplete" in every table, as item runs
 * do (report/run-facts.ts nScoredCell).
 */
import type { EnvInfo } from "../../../sim/types.js";
import type { EpisodeRunScores } from "../../../report/episode-runs.js";
import { mdText, table } from "../../../report/markdown.js";
import { uniqueLabels } from "../../../report/svg.js";
import { reasonsText, skipReasons } from "../interventions.js";
import type { NavigationReport, NavSummary } from "../navigation.js";
import { R2O_TASKS, TASK_CODES, TASK_NAMES } from "../schema.js";

/** scores.json of a navigation run, as far as the tables read it. */
export interface NavigationRunScores extends EpisodeRunScores {
  agent?: string;
  mode?: string;
  intervention?: string;
  simulator?: EnvInfo;
  settings?: Record<string, unknown>;
  complete?: boolean;
  counts?: { episodes?: number; done?: number; error?: number; not_run?: number };
  navigation?: Partial<NavigationReport>;
}

type Loose = Record<string, unknown>;

const record = (value: unknown): Loose | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : undefined);
const finite = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const pct = (value: unknown) => (finite(value) === undefined ? "–" : (100 * (value as number)).toFixed(1));
const fixed = (value: unknown, digits: number) => (finite(value) === undefined ? "–" : (value as number).toFixed(digits));
const signed = (value: unknown) => (finite(value) === undefined ? "–" : `${(value as number) >= 0 ? "+" : "−"}${Math.abs(value as number).toFixed(2)}`);
const mean = (values: number[]): number | undefined => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : undefined);

// ------------------------------------------------------------------ counts and labels

export interface NavigationCounts {
  episodes: number;
  done: number;
  error: number;
  notRun: number;
  complete: boolean;
}

/** Episodes asked, done, failed (provider errors) and not run; complete unless scores.json says otherwise or some did not finish. */
export function navigationCounts(run: NavigationRunScores): NavigationCounts {
  const c = record(run.counts) ?? {};
  const done = finite(c["done"]) ?? 0;
  const error = finite(c["error"]) ?? 0;
  const notRun = finite(c["not_run"]) ?? 0;
  const episodes = finite(c["episodes"]) ?? done + error + notRun;
  const complete = typeof run.complete === "boolean" ? run.complete && error === 0 && notRun === 0 : error === 0 && notRun === 0 && done === episodes;
  return { episodes, done, error, notRun, complete };
}

/** "14/15" (and " incomplete" when it is): the cell every navigation table shows. */
export function episodesCell(run: NavigationRunScores): string {
  const c = navigationCounts(run);
  return `${c.done}/${c.episodes}${c.complete ? "" : " incomplete"}`;
}

/** "complete", or "incomplete: 1 error, 3 not run". */
export function navigationStatusCell(run: NavigationRunScores): string {
  const c = navigationCounts(run);
  if (c.complete) return "complete";
  const parts = [...(c.error > 0 ? [`${c.error} error${c.error === 1 ? "" : "s"}`] : []), ...(c.notRun > 0 ? [`${c.notRun} not run`] : [])];
  return `incomplete: ${parts.join(", ") || "the run did not finish"}`;
}

const pct1 = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const metres = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(2) : "–");

/**
 * What `navigate` prints when it is done (as `run` prints a summary, not the report): SR, SPL,
 * RSR and DTG pooled and per instruction type, then the episodes done and the status.
 */
export function navigationTerminal(run: NavigationRunScores): string {
  const nav = record(run.navigation) ?? {};
  const row = (name: string, summary: unknown) => {
    const s = record(summary) ?? {};
    return `${name.padEnd(12)} ${String(finite(s["n"]) ?? 0).padStart(4)}   SR ${pct1(s["SR"]).padStart(5)}   SPL ${pct1(s["SPL"]).padStart(5)}   RSR ${pct1(s["RSR"]).padStart(5)}   DTG ${metres(s["DTG"]).padStart(6)} m`;
  };
  const byTask = record(nav["by_task"]) ?? {};
  return [
    `VCN-Bench navigation: ${navigationRunLabel(run)} (percentages; DTG: mean final distance to the goal)`,
    ...Object.keys(byTask).map((task) => row(task, byTask[task])),
    row("all", nav["summary"]),
    `episodes ${episodesCell(run)} · ${navigationStatusCell(run)}`,
  ].join("\n");
}

const DEFAULT_MODE = "action";
const DEFAULT_INTERVENTION = "none";

/** The run's name, else its model with what differs from the defaults: "openai:gpt-4o (waypoint, shuffled-prior)". */
export function navigationRunLabel(run: NavigationRunScores): string {
  const name = text(run.name);
  if (name) return name;
  const extras = [
    ...(text(run.agent) && run.agent !== run.model ? [run.agent!] : []),
    ...(text(run.mode) && run.mode !== DEFAULT_MODE ? [run.mode!] : []),
    ...(text(run.intervention) && run.intervention !== DEFAULT_INTERVENTION ? [run.intervention!] : []),
  ];
  return extras.length > 0 ? `${run.model} (${extras.join(", ")})` : String(run.model);
}

/** Labels of runs shown together; a repeated label gets " (2)", " (3)"... */
export const navigationRunLabels = (runs: NavigationRunScores[]): string[] => uniqueLabels(runs.map(navigationRunLabel));

/** "model oracle · agent oracle · mode action · intervention none": every identity field, for filters and titles. */
export function navigationIdentityText(run: NavigationRunScores): string {
  return [
    ...(text(run.name) ? [`name ${run.name}`] : []),
    `model ${run.model}`,
    ...(text(run.agent) ? [`agent ${run.agent}`] : []),
    ...(text(run.mode) ? [`mode ${run.mode}`] : []),
    ...(text(run.intervention) ? [`intervention ${run.intervention}`] : []),
  ].join(" · ");
}

// ------------------------------------------------------------------ reading the metrics

type Summary = Partial<NavSummary> & Loose;

const byTaskOf = (run: NavigationRunScores): Record<string, Summary> => (record(run.navigation?.by_task) ?? {}) as Record<string, Summary>;
const summaryOf = (run: NavigationRunScores): Summary | undefined => record(run.navigation?.summary) as Summary | undefined;
/** Episodes of a summary scored from a trajectory (n minus those without one). */
const scoredIn = (s: Summary | undefined) => (finite(s?.n) ?? 0) - (finite(s?.missing) ?? 0);

/** The instruction types the run holds, in the paper's order (others after, sorted). */
function typesOf(run: NavigationRunScores): string[] {
  const present = Object.keys(byTaskOf(run));
  return [...TASK_CODES.filter((t) => present.includes(t)), ...present.filter((t) => !(TASK_CODES as readonly string[]).includes(t)).sort()];
}

/**
 * The mean of a metric over the instruction types of the run, formatted; "— (k of n types)" when
 * some type has no episode scored from a trajectory (the average would not cover it).
 */
function typeAverageCell(run: NavigationRunScores, pick: (s: Summary) => unknown): string {
  const byTask = byTaskOf(run);
  const types = typesOf(run);
  const covered = types.filter((t) => scoredIn(byTask[t]) > 0);
  if (covered.length < types.length) return `— (${covered.length} of ${types.length} types)`;
  return pct(mean(types.map((t) => finite(pick(byTask[t]!))).filter((v): v is number => v !== undefined)));
}

/** RSR pooled over the R2O types (each type's RSR weighted by its rsr_n). */
function r2oRsr(run: NavigationRunScores): { value: number | undefined; n: number } {
  let hits = 0;
  let n = 0;
  for (const [task, s] of Object.entries(byTaskOf(run))) {
    const k = finite(s.rsr_n) ?? 0;
    const rate = finite(s.RSR);
    if (!(R2O_TASKS as readonly string[]).includes(task) || k === 0 || rate === undefined) continue;
    hits += rate * k;
    n += k;
  }
  return { value: n > 0 ? hits / n : undefined, n };
}

/** A mean per episode: the summary's own figure (a number, or {mean}) when it has one, else over per_episode. */
function perEpisodeMean(run: NavigationRunScores, field: string): number | undefined {
  const own = summaryOf(run)?.[field];
  if (finite(own) !== undefined) return own as number;
  const ownMean = finite(record(own)?.["mean"]);
  if (ownMean !== undefined) return ownMean;
  const episodes = Array.isArray(run.navigation?.per_episode) ? (run.navigation!.per_episode as unknown[]) : [];
  return mean(episodes.map(record).filter((e) => e && e["has_trajectory"] !== false).map((e) => finite(e![field])).filter((v): v is number => v !== undefined));
}

/** The metric variant scores.json names (navigation.ts metric_variant and its note) and the distances in force. */
export function metricVariantText(run: NavigationRunScores): string {
  const nav = (run.navigation ?? {}) as Loose;
  const options = record(nav["options"]);
  const variant = text(nav["metric_variant"]);
  const note = text(nav["metric_variant_note"]);
  const distances = options
    ? `${text(options["distance"]) ?? "euclidean"} distances${options["ignore_height"] === true ? " on the floor plane" : ""}, success < ${fixed(options["success_distance"], 2)} m, SSR < ${fixed(options["ssr_distance"], 2)} m`
    : "";
  return [...(variant ? [`metric variant ${variant}${note ? ` (${note.replace(/\.$/, "")})` : ""}`] : []), ...(distances ? [distances] : [])].join("; ");
}

// ------------------------------------------------------------------ the tables

const TYPE_HEADER = TASK_CODES.flatMap((t) => [`${TASK_NAMES[t]} SR`, `${TASK_NAMES[t]} SPL`]);

function table1Row(run: NavigationRunScores, label: string): string[] {
  const byTask = byTaskOf(run);
  return [
    label,
    episodesCell(run),
    ...TASK_CODES.flatMap((t) => [pct(byTask[t]?.SR), pct(byTask[t]?.SPL)]),
    typeAverageCell(run, (s) => s.SR),
    typeAverageCell(run, (s) => s.SPL),
  ];
}

function detailRow(run: NavigationRunScores, label: string): string[] {
  const s = summaryOf(run);
  const c = navigationCounts(run);
  const rsr = r2oRsr(run);
  const instance = byTaskOf(run)["instance"];
  return [
    label,
    episodesCell(run),
    pct(s?.SR),
    pct(s?.SPL),
    pct(s?.soft_SPL),
    rsr.n > 0 ? `${pct(rsr.value)} (${rsr.n})` : "–",
    instance && finite(instance.n) ? `${pct(instance.SSR)} (${instance.n})` : "–",
    fixed(s?.DTG, 2),
    fixed(perEpisodeMean(run, "steps"), 1),
    fixed(perEpisodeMean(run, "collisions"), 1),
    String(c.done),
    String(c.error),
    String(c.notRun),
    navigationStatusCell(run),
  ];
}

/**
 * One row per run and instruction type (the shape of Table 4 and App. D.2's oracle-frame table:
 * SPL, SR and RSR per type, here with soft SPL, SSR and the final distance too). RSR is over the
 * type's episodes with a known target room (their count in parentheses), Instance included.
 */
function perTypeRows(run: NavigationRunScores, label: string): string[][] {
  const byTask = byTaskOf(run);
  return typesOf(run).map((t) => {
    const s = byTask[t]!;
    const name = (TASK_NAMES as Record<string, string>)[t] ?? t;
    return [label, name, fixed(s.n, 0), pct(s.SR), pct(s.SPL), pct(s.soft_SPL), finite(s.rsr_n) ? `${pct(s.RSR)} (${s.rsr_n})` : "–", pct(s.SSR), fixed(s.DTG, 2)];
  });
}

const rateCell = (value: unknown, n: unknown) => (finite(n) ? `${pct(value)} (${n})` : "–");

/**
 * P(N|G) and P(N|¬G) over all episodes, RSR|G and RSR|¬G over the R2O tasks (§6.3), G being
 * goal identification at the first step; with their episode counts.
 */
function conditionalRow(run: NavigationRunScores, label: string): string[] | undefined {
  const nav = (run.navigation ?? {}) as Loose;
  const all = record(nav["conditional"]);
  if (!all) return undefined;
  // Older scores.json files have no R2O split: their RSR is over every episode with a target room.
  const r2o = record(nav["conditional_r2o"]) ?? all;
  const part = (table: Loose, key: string) => record(table[key]) as Summary | undefined;
  const g = part(all, "correct");
  const notG = part(all, "wrong");
  return [
    label,
    episodesCell(run),
    rateCell(g?.SR, g?.n),
    rateCell(notG?.SR, notG?.n),
    rateCell(part(r2o, "correct")?.RSR, part(r2o, "correct")?.rsr_n),
    rateCell(part(r2o, "wrong")?.RSR, part(r2o, "wrong")?.rsr_n),
    String(finite(part(all, "no_result")?.n) ?? 0),
  ];
}

/**
 * Goal identification at the first and last steps beside the navigation metric the paper sets
 * against it (§6.3, Fig. 7): per type (Rid-SR beside RSR, Oid-SR beside SSR), then the R2O mean of
 * types and Instance (navigation.ts GoalIdentificationTable).
 */
function goalRows(run: NavigationRunScores, label: string): string[][] {
  const gid = record(((run.navigation ?? {}) as Loose)["goal_identification"]);
  if (!gid) return [];
  const byTask = record(gid["by_task"]) ?? {};
  const rows: string[][] = [];
  for (const t of TASK_CODES) {
    const row = record(byTask[t]);
    if (!row) continue;
    const first = record(row["first"]);
    const last = record(row["last"]);
    const beside = record(row["navigation"]);
    rows.push([label, TASK_NAMES[t], text(row["metric"]) ?? "–", rateCell(first?.["value"], first?.["n"]), rateCell(last?.["value"], last?.["n"]), `${text(beside?.["metric"]) ?? "–"} ${rateCell(beside?.["value"], beside?.["n"])}`]);
  }
  // The R2O mean of types (Oid-SR has one type: its row is Instance's).
  const r2o = record(gid["Rid-SR"]);
  const beside = record(r2o?.["navigation"]);
  const value = (v: unknown) => rateCell(record(v)?.["mean_of_types"], record(v)?.["n"]);
  if (r2o && finite(record(r2o["first"])?.["n"])) rows.push([label, "R2O, mean of types", "Rid-SR", value(r2o["first"]), value(r2o["last"]), `${text(beside?.["metric"]) ?? "–"} ${value(beside?.["value"])}`]);
  return rows;
}

const OUTCOME_WORDS: Record<string, string> = { success: "navigation success", goal_first: "Gid at start", goal_last: "Gid at end" };

/**
 * Pearson r of per-episode success and goal identification (first, last step) with the prior
 * video's frames, rooms and area (Fig. 7): navigation.ts `correlations`, "all" and per type; each
 * cell "r (n)".
 */
function correlationRows(run: NavigationRunScores, label: string): string[][] {
  const corr = record(((run.navigation ?? {}) as Loose)["correlations"]);
  if (!corr) return [];
  const scopes = ["all", ...TASK_CODES, ...Object.keys(corr).filter((k) => k !== "all" && !(TASK_CODES as readonly string[]).includes(k)).sort()];
  const cell = (v: unknown) => (record(v) ? `${signed(record(v)!["r"])} (${finite(record(v)!["n"]) ?? 0})` : "–");
  const rows: string[][] = [];
  for (const scope of scopes) {
    const row = record(corr[scope]);
    if (!row) continue;
    for (const outcome of Object.keys(OUTCOME_WORDS)) {
      const cells = record(row[outcome]);
      if (!cells) continue;
      rows.push([label, scope === "all" ? "all types" : TASK_NAMES[scope as keyof typeof TASK_NAMES] ?? scope, OUTCOME_WORDS[outcome]!, cell(cells["frames"]), cell(cells["rooms"]), cell(cells["area_m2"])]);
    }
  }
  return rows;
}

const integer = (value: unknown) => (finite(value) === undefined ? "–" : Math.round(value as number).toLocaleString("en-US"));

/** Identity of each run: model, agent, mode, intervention, simulator, status; model calls and tokens when a run has usage. */
function runsTable(runs: NavigationRunScores[], labels: string[]): string {
  const withUsage = runs.some((run) => record(run["usage"]));
  const usageCells = (run: NavigationRunScores) => {
    const u = record(run["usage"]);
    return u ? [`${integer(u["decisions"])} (${integer(u["reused"])} reused)`, integer(u["input_tokens"]), integer(u["output_tokens"])] : ["–", "–", "–"];
  };
  return table(
    ["Run", "Model", "Agent", "Mode", "Intervention", "Simulator", "Episodes", "Status", ...(withUsage ? ["Model calls", "Input tokens", "Output tokens"] : [])],
    runs.map((run, i) => [
      labels[i]!, String(run.model), text(run.agent) ?? "–", text(run.mode) ?? "–", text(run.intervention) ?? "–", text(record(run.simulator)?.["simulator"]) ?? "–", episodesCell(run), navigationStatusCell(run),
      ...(withUsage ? usageCells(run) : []),
    ]),
  );
}

/** The skipped episodes' reasons counted by kind (interventions.ts skipReasons), or "" when the run lists none. */
function skippedReasonText(skipped: unknown): string {
  if (!Array.isArray(skipped)) return "";
  const rows = skipped.filter((s): s is { reason: string } => typeof record(s)?.["reason"] === "string");
  return rows.length > 0 ? reasonsText(skipReasons(rows)) : "";
}

/** Episodes an intervention could not be applied to (counterfactual: no relation to swap, or a degenerate or rule-breaking swap), per run, with the reasons. */
function skippedNotes(runs: NavigationRunScores[], labels: string[]): string[] {
  return runs.flatMap((run, i) => {
    const skipped = finite(record(run.counts)?.["skipped"]) ?? 0;
    const why = skippedReasonText(run.skipped);
    return skipped > 0 ? [`- ${mdText(`${labels[i]}: ${skipped} episode${skipped === 1 ? "" : "s"} skipped: the ${run.intervention ?? "intervention"} could not be applied to ${skipped === 1 ? "it" : "them"} (not counted in Episodes)${why ? `; ${why}` : ""}`)}`] : [];
  });
}

/** Several navigation runs side by side: Table 1, the detail table, and the conditional, goal-identification and correlation tables when present. */
export function navigationRunsMarkdown(runs: NavigationRunScores[], heading = "## VCN-Bench navigation"): string {
  const labels = navigationRunLabels(runs);
  const variants = [...new Set(runs.map(metricVariantText).filter((v) => v !== ""))];
  const parts = [
    heading,
    "",
    "Closed-loop navigation after the prior video (VCN-Bench §5.1): success (SR) = STOP within 1 m of a goal view point; SPL = success weighted by the shortest path over the path taken; rates in %. " +
      "Avg. is the mean of the per-type values; it is \"—\" when a type has no episode that ran. Episodes = episodes that ran / episodes asked.",
    "",
    table(["Run", "Episodes", ...TYPE_HEADER, "Avg. SR", "Avg. SPL"], runs.map((run, i) => table1Row(run, labels[i]!))),
    "",
    ...variants.map((v) => `Metrics: ${mdText(v)}.`),
    ...(variants.length > 0 ? [""] : []),
    "### Room success, soft success and effort",
    "",
    "All episodes pooled. RSR over the R2O types (Count, Order, Distance, Orientation) and SSR (STOP within 3 m) over Instance, with their episode counts; DTG = mean final distance to the goal (m); steps and collisions per episode.",
    "",
    table(["Run", "Episodes", "SR", "SPL", "soft SPL", "RSR, R2O (n)", "SSR, Instance (n)", "DTG (m)", "Steps", "Collisions", "Done", "Errors", "Not run", "Status"], runs.map((run, i) => detailRow(run, labels[i]!))),
  ];
  const perType = runs.flatMap((run, i) => perTypeRows(run, labels[i]!));
  if (perType.length > 0) {
    parts.push("", "### Per instruction type", "", "SR, SPL, soft SPL, RSR (final position in the target room, over the type's episodes with a known target room, count in parentheses), SSR (STOP within 3 m) and DTG (mean final distance, m) per instruction type: the columns of Table 4 and of App. D.2's oracle-frame comparison; compare runs of different --intervention row by row.", "");
    parts.push(table(["Run", "Type", "N", "SR", "SPL", "soft SPL", "RSR (n)", "SSR", "DTG (m)"], perType));
  }
  const conditional = runs.map((run, i) => conditionalRow(run, labels[i]!)).filter((row): row is string[] => row !== undefined);
  if (conditional.length > 0) {
    parts.push("", "### Navigation given goal identification", "", "G: the goal frame the agent named at its first decision is a success frame (§6.3). P(N|G) = SR among those episodes, P(N|¬G) = SR among the others; RSR|G and RSR|¬G likewise over the R2O types; episode counts in parentheses.", "");
    parts.push(table(["Run", "Episodes", "P(N|G)", "P(N|¬G)", "RSR|G, R2O", "RSR|¬G, R2O", "No goal named"], conditional));
  }
  const goals = runs.flatMap((run, i) => goalRows(run, labels[i]!));
  if (goals.length > 0) {
    parts.push("", "### Goal identification during navigation", "", "The share of episodes whose goal frame, named at the first and at the last decision, is a success frame (Rid-SR for R2O types, Oid-SR for Instance), beside RSR and SSR (§6.3, Fig. 7); episode counts in parentheses.", "");
    parts.push(table(["Run", "Type", "Metric", "Gid at start", "Gid at end", "Navigation"], goals));
  }
  const correlations = runs.flatMap((run, i) => correlationRows(run, labels[i]!));
  if (correlations.length > 0) {
    parts.push("", "### Correlation with the prior video", "", "Pearson r over episodes of each outcome (0/1) with the prior video's frame count, rooms covered and floor area covered (Fig. 7), with the episodes it is over; – with fewer than 3 episodes or a constant column.", "");
    parts.push(table(["Run", "Types", "Outcome", "Frames", "Rooms", "Area"], correlations));
  }
  const notes = skippedNotes(runs, labels);
  parts.push("", "### Runs", "", runsTable(runs, labels), ...(notes.length > 0 ? ["", ...notes] : []));
  return parts.join("\n") + "\n";
}

/** One run's tables (report.md of `navigate vcn`). */
export function navigationRunMarkdown(scores: NavigationRunScores): string {
  return navigationRunsMarkdown([scores], `# VCN-Bench navigation: ${mdText(navigationRunLabel(scores))}`);
}

