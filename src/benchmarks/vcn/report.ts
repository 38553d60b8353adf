/** Markdown and terminal tables for VCN-Bench runs (percentages, as the paper prints them). */
import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import type { Averages, GroupedAverages, TaskSummary } from "./aggregate.js";
import type { NavigationReport, NavSummary } from "./navigation.js";
import { nScoredCell, overallCell, overallTerminal, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import { reasonsText } from "./interventions.js";
import { VARIANTS } from "./prompt.js";
import { R2O_TASKS, TASK_CODES, TASK_NAMES } from "./schema.js";
import { OBJECT_ERRORS, R2O_ERRORS } from "./taxonomy.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const num = (v: unknown, digits = 2) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(digits) : "–");

type Run = ScoresDocument & {
  "Rid-SR"?: Averages;
  "Oid-SR"?: Averages;
  average?: Averages;
  chance?: { complete: GroupedAverages; category: GroupedAverages; complete_shown?: GroupedAverages; category_shown?: GroupedAverages };
  errors?: { r2o: Record<string, number>; object: Record<string, number> };
  counterfactual?: { n: number; skipped: number; total: number; chose_original_target: number; chose_original_rate: number | null; target_unchanged: number; skipped_reasons?: Record<string, number>; skipped_items?: Array<{ id: string; reason: string }>; unchecked?: Record<string, number> };
  navigation?: NavigationReport;
};

/** What a run label leaves out: the plain prompt. */
export const VCN_DEFAULTS: RunDefaults = { prompt: VARIANTS[0], control: "none" };

const variantOf = (run: ScoresDocument) => String((run["prompt"] as Record<string, unknown> | undefined)?.["variant"] ?? "");

/** One row of rates; a run's averages over types without predictions are marked (run-facts overallCell), chance rows never. */
function srRow(tasks: Record<string, Partial<TaskSummary>>, pick: (t: Partial<TaskSummary>) => unknown, groups: GroupedAverages | undefined, run?: ScoresDocument): string[] {
  const mark = (cell: string, types?: readonly string[]) => (run ? overallCell(run, cell, types) : cell);
  return [
    ...TASK_CODES.map((t) => pct(tasks[t] ? pick(tasks[t]!) : undefined)),
    mark(pct(groups?.["Rid-SR"].mean_of_types), R2O_TASKS),
    mark(pct(groups?.["Rid-SR"].pooled), R2O_TASKS),
    mark(pct(groups?.average.mean_of_types)),
    mark(pct(groups?.average.pooled)),
  ];
}

const HEADER = [...TASK_CODES.map((t) => (t === "instance" ? "Instance (Oid-SR)" : `${TASK_NAMES[t]} (Rid-SR)`)), "Rid-SR mean of types", "Rid-SR pooled", "Avg. mean of types", "Avg. pooled"];

export function vcnMarkdown(runs: ScoresDocument[]): string {
  const list = runs as Run[];
  const labels = runLabels(runs, VCN_DEFAULTS);
  const rows = list.map((run, i) => {
    const groups = run["Rid-SR"] && run["Oid-SR"] && run.average ? { "Rid-SR": run["Rid-SR"], "Oid-SR": run["Oid-SR"], average: run.average } : undefined;
    return [labels[i]!, variantOf(run), nScoredCell(run), String(run.n), ...srRow(run.tasks as Record<string, Partial<TaskSummary>>, (t) => t.SR, groups, run)];
  });
  // Chance levels depend on the questions only: one row pair per distinct question set, under the runs.
  const seen = new Set<string>();
  for (const run of list) {
    if (!run.chance) continue;
    const tasks = run.tasks as Record<string, Partial<TaskSummary>>;
    const chance: Array<[string, string[]]> = [
      ["chance: complete", srRow(tasks, (t) => t.chance?.complete, run.chance.complete)],
      ["chance: category", srRow(tasks, (t) => t.chance?.category, run.chance.category)],
    ];
    if (run.chance.complete_shown && run.chance.category_shown) {
      chance.push(["chance: complete, shown frames", srRow(tasks, (t) => t.chance_shown?.complete, run.chance.complete_shown)]);
      chance.push(["chance: category, shown frames", srRow(tasks, (t) => t.chance_shown?.category, run.chance.category_shown)]);
    }
    const key = JSON.stringify([variantOf(run), run.n, chance]);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const [level, cells] of chance) rows.push([level, variantOf(run), "–", String(run.n), ...cells]);
  }
  const parts = [
    "## VCN-Bench goal identification",
    "",
    "Success rate (%) of choosing a tour frame in the target room (Rid-SR) or showing the target instance (Oid-SR). " +
      "\"Mean of types\" averages the per-type rates; \"pooled\" counts every question once. " +
      "Scored = questions scored from a prediction / questions asked; an average is \"—\" when a type it averages has no predictions. " +
      "Chance rows are exact expectations: complete = a uniform random tour frame; category = a uniform random frame among those in a room of the target's category (R2O) or showing an object of the target's category (Instance).",
    "",
    table(["Run", "Variant", "Scored", "N", ...HEADER], rows),
  ];
  // Why an average is "—": instruction types the run asked no question of (counterfactual runs skip episodes).
  const unasked = list.flatMap((run, i) => {
    const tasks = run.tasks as Record<string, Partial<TaskSummary>>;
    const none = TASK_CODES.filter((t) => !((tasks[t]?.n ?? 0) > 0));
    if (none.length === 0) return [];
    const why = run.counterfactual ? ` (a counterfactual instruction could be made for ${run.counterfactual.n} of ${run.counterfactual.total} questions: see "Counterfactual instructions")` : "";
    return [`- ${mdText(labels[i]!)}: no ${none.map((t) => TASK_NAMES[t]).join(", ")} question was asked${why}, so the averages over every type are "—".`];
  });
  if (unasked.length > 0) parts.push("", ...unasked);
  const labelOf = new Map(list.map((run, i) => [run, labels[i]!]));
  const withErrors = list.filter((r) => r.errors);
  if (withErrors.length > 0) {
    parts.push("", "### Error taxonomy (counts)", "");
    parts.push(table(
      ["Run", "Variant", ...R2O_ERRORS.map((e) => `R2O ${e}`), "R2O no answer", ...OBJECT_ERRORS.map((e) => `Instance ${e}`), "Instance no answer"],
      withErrors.map((run) => [
        labelOf.get(run)!, variantOf(run),
        ...[...R2O_ERRORS, "no-answer"].map((e) => String(run.errors!.r2o[e] ?? 0)),
        ...[...OBJECT_ERRORS, "no-answer"].map((e) => String(run.errors!.object[e] ?? 0)),
      ]),
    ));
    parts.push("", "### Error taxonomy per instruction type", "", taxonomyByTypeText, "");
    parts.push(taxonomyByTypeTable(withErrors, labelOf));
  }
  const cf = list.filter((r) => r.counterfactual);
  if (cf.length > 0) {
    parts.push("", "### Counterfactual instructions", "", "The relation swapped (App. D.2: ordinals to the mirrored position, before↔after, nearest↔farthest, north↔south, left↔right, most↔fewest) and the target recomputed; a question is skipped when it has no relation to swap, the swap is degenerate, or the new target is the start room, an ambiguous room type or fails its instruction type's rule (App. B.2, B.4). \"Chose the original target\" means the model answered as if the instruction had not changed.", "");
    parts.push(table(["Run", "Questions", "Skipped", "Skipped, by reason", "Questions with a check not made (their data lacks it)", "Chose the original target", "Target unchanged by the swap"], cf.map((run) => {
      const c = run.counterfactual!;
      return [labelOf.get(run)!, String(c.n), `${c.skipped} of ${c.total}`, reasonsText(c.skipped_reasons), reasonsText(c.unchecked), `${c.chose_original_target} (${pct(c.chose_original_rate)})`, String(c.target_unchanged)];
    })));
  }
  for (const run of list) if (run.navigation) parts.push("", navigationMarkdown(run.navigation, `### ${mdText(labelOf.get(run)!)}: navigation`));
  parts.push("", runsMarkdown(runs, VCN_DEFAULTS));
  return parts.join("\n") + "\n";
}

const taxonomyByTypeText =
  "App. D.1 analyses the errors per instruction type: each type's questions split into successes and error categories, as counts with the share of the type's questions in parentheses; – where a category does not apply to the type (R2O categories for Instance, instance and perception for the R2O types).";

const TAXONOMY_COLUMNS = [...R2O_ERRORS.filter((e) => e !== "out-of-range"), ...OBJECT_ERRORS.filter((e) => e !== "out-of-range"), "out-of-range", "no-answer"] as const;

/** One row per run and instruction type: successes and each error category, count (share of the type's questions). */
export function taxonomyByTypeTable(runs: readonly Run[], labelOf: Map<Run, string>): string {
  const rows: string[][] = [];
  for (const run of runs) {
    const tasks = run.tasks as Record<string, Partial<TaskSummary>>;
    for (const task of TASK_CODES) {
      const t = tasks[task];
      if (!t || typeof t.n !== "number") continue;
      const n = t.n;
      const cell = (count: number | undefined) => (count === undefined ? "–" : `${count} (${n > 0 ? ((100 * count) / n).toFixed(1) : "–"})`);
      const successes = typeof t.SR === "number" ? Math.round(t.SR * n) : undefined;
      rows.push([labelOf.get(run)!, variantOf(run), TASK_NAMES[task], String(n), cell(successes), ...TAXONOMY_COLUMNS.map((e) => cell(t.errors?.[e]))]);
    }
  }
  return table(["Run", "Variant", "Type", "N", "Success", ...TAXONOMY_COLUMNS], rows);
}

const navRow = (label: string, s: NavSummary) => [label, String(s.n), pct(s.SR), pct(s.SPL), pct(s.soft_SPL), pct(s.SSR), s.rsr_n > 0 ? `${pct(s.RSR)} (${s.rsr_n})` : "–", num(s.DTG), String(s.missing)];
const NAV_HEADER = ["Episodes", "N", "SR", "SPL", "soft SPL", "SSR", "RSR (n)", "DTG (m)", "No log"];

/** Navigation tables: overall, per task type, and conditional on goal identification. */
export function navigationMarkdown(report: NavigationReport, heading = "## VCN-Bench navigation"): string {
  const o = report.options;
  const parts = [
    heading,
    "",
    `Metric variant ${mdText(report.metric_variant)}: ${mdText(report.metric_variant_note)} Success radius ${mdText(String(o.success_distance))} m (${mdText(String(o.distance))} distances${o.ignore_height ? ", floor plane" : ""}); SSR: < ${mdText(String(o.ssr_distance))} m; metrics in %.`,
    ...(report.imported ? ["", `Imported ${report.imported.logs} released logs; their own logged SR ${pct(report.imported.logged_SR)}, SPL ${pct(report.imported.logged_SPL)}.`] : []),
    "",
    table(NAV_HEADER, [navRow("all", report.summary), ...Object.entries(report.by_task).map(([task, s]) => navRow(task, s))]),
  ];
  if (report.conditional) {
    parts.push("", "Navigation given goal identification (joined by episode id):", "");
    parts.push(table(NAV_HEADER, [
      navRow("goal identified", report.conditional.correct),
      navRow("goal missed", report.conditional.wrong),
      navRow("no goal-identification result", report.conditional.no_result),
    ]));
  }
  if (report.unmatched_trajectories.length > 0) parts.push("", `${report.unmatched_trajectories.length} trajectories name no known episode and were not scored.`);
  return parts.join("\n");
}

export function vcnTerminal(run: ScoresDocument): string {
  const r = run as Run;
  const tasks = run.tasks as unknown as Record<string, TaskSummary>;
  const lines = Object.entries(tasks).map(([task, s]) =>
    `${task.padEnd(12)} n ${String(s.n).padStart(4)}  ${s.metric} ${pct(s.SR).padStart(5)}  chance complete ${pct(s.chance.complete)} / category ${pct(s.chance.category)}`);
  const rid = overallCell(run, `${pct(r["Rid-SR"]?.mean_of_types)} (pooled ${pct(r["Rid-SR"]?.pooled)})`, R2O_TASKS);
  const avg = overallTerminal(run, `${pct(r.average?.mean_of_types)} (pooled ${pct(r.average?.pooled)})`, typeof r.average?.mean_of_types === "number");
  lines.push(`Rid-SR ${rid}  Oid-SR ${pct(r["Oid-SR"]?.pooled)}  Avg ${avg}`);
  lines.push(`unreadable ${run.counts.parse_failures} · missing ${run.counts.missing} · errors ${run.counts.errors}`);
  if (r.counterfactual) {
    lines.push(`counterfactual: ${r.counterfactual.n} questions (${r.counterfactual.skipped} of ${r.counterfactual.total} skipped), chose the original target ${r.counterfactual.chose_original_target}`);
    if (r.counterfactual.skipped > 0) lines.push(`counterfactual skipped: ${reasonsText(r.counterfactual.skipped_reasons)}`);
    if (Object.keys(r.counterfactual.unchecked ?? {}).length > 0) lines.push(`counterfactual checks not made: ${reasonsText(r.counterfactual.unchecked)}`);
  }
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
