/**
 * VCN-Bench charts: goal-identification success per task type (Rid-SR / Oid-SR) with intervals and
 * the exact chance levels (complete, category) as dashed reference ticks; the error taxonomy as
 * stacked bars (R2O types and Instance apart); navigation metrics when a run carries them.
 */
import type { ChartFigure, ScoresDocument } from "../../core/benchmark.js";
import { chartLabels } from "../../report/run-facts.js";
import { asInterval, asNumber, asRecord, barChart, stackedBars, type ReferenceLevel, type StackedRow } from "../../report/svg.js";
import { VCN_DEFAULTS } from "./report.js";
import { R2O_TASKS, TASK_CODES, TASK_NAMES } from "./schema.js";
import { OBJECT_ERRORS, R2O_ERRORS } from "./taxonomy.js";

interface Labelled {
  run: ScoresDocument;
  name: string;
}

/** The bars: the five types, then the two averages as the paper reports them (mean of the per-type rates). */
const COLUMNS = [
  ...TASK_CODES.map((t) => ({ key: t, title: `${TASK_NAMES[t]} (${t === "instance" ? "Oid-SR" : "Rid-SR"})`, task: t as string | null, average: null as string | null })),
  { key: "Rid-SR", title: "Rid-SR (mean of R2O types)", task: null, average: "Rid-SR" },
  { key: "average", title: "Avg. (mean of all types)", task: null, average: "average" },
];

/** [key in the run's `chance` block, per-task field, its sub-key, legend name]. */
const CHANCE_KINDS = [
  ["complete", "chance", "complete", "chance: complete"],
  ["category", "chance", "category", "chance: category"],
  ["complete_shown", "chance_shown", "complete", "chance: complete, shown frames"],
  ["category_shown", "chance_shown", "category", "chance: category, shown frames"],
] as const;

const taskOf = (run: ScoresDocument, task: string) => asRecord(run.tasks[task]);

function successValue(run: ScoresDocument, column: (typeof COLUMNS)[number]): number | null {
  if (column.task) return asNumber(taskOf(run, column.task)?.["SR"]);
  return asNumber(asRecord(run[column.average!])?.["mean_of_types"]);
}

function successInterval(run: ScoresDocument, column: (typeof COLUMNS)[number]): [number, number] | null {
  if (column.task) return asInterval(asRecord(taskOf(run, column.task)?.["ci"])?.["SR"]);
  return asInterval(asRecord(run["ci"])?.[`${column.average}.mean_of_types`]);
}

/** One chance level per column: per type from the task, averages from the run's `chance` block. */
function chanceValues(run: ScoresDocument, kind: (typeof CHANCE_KINDS)[number]): Array<number | null> {
  const [group, perTask, field] = kind;
  return COLUMNS.map((c) => {
    if (c.task) return asNumber(asRecord(taskOf(run, c.task)?.[perTask])?.[field]);
    return asNumber(asRecord(asRecord(asRecord(run["chance"])?.[group])?.[c.average!])?.["mean_of_types"]);
  });
}

/** Chance rows depend on the questions only: one reference per distinct row, named by the run when they differ. */
function chanceReferences(runs: Labelled[]): ReferenceLevel[] {
  return CHANCE_KINDS.flatMap((kind) => {
    const distinct = new Map<string, { values: Array<number | null>; name: string }>();
    for (const { run, name } of runs) {
      const values = chanceValues(run, kind);
      const key = JSON.stringify(values);
      if (values.some((v) => v !== null) && !distinct.has(key)) distinct.set(key, { values, name });
    }
    const base = kind[3];
    return [...distinct.values()].map(({ values, name }) => ({ name: distinct.size > 1 ? `${base} · ${name}` : base, values }));
  });
}

function success(runs: Labelled[]): ChartFigure | null {
  const series = runs.map(({ run, name }) => ({
    name,
    values: COLUMNS.map((c) => successValue(run, c)),
    intervals: COLUMNS.map((c) => successInterval(run, c)),
    notes: COLUMNS.map((c) => {
      const n = c.task ? asNumber(taskOf(run, c.task)?.["n"]) : asNumber(asRecord(run[c.average!])?.["n"]);
      return n === null ? null : `n = ${n}`;
    }),
  }));
  if (series.every((s) => s.values.every((v) => v === null))) return null;
  const title = "VCN-Bench: goal identification per type (95% CI; dashed: chance)";
  return { title, svg: barChart({ title, groups: COLUMNS.map((c) => c.title), series, references: chanceReferences(runs), axisLabel: "success rate (%)" }) };
}

/** Rows of one error family: successes (questions minus failures), then each error category. */
function errorRows(runs: Labelled[], family: "r2o" | "object", tasks: readonly string[], categories: readonly string[]): StackedRow[] {
  return runs.flatMap(({ run, name }) => {
    const errors = asRecord(asRecord(run["errors"])?.[family]);
    const present = tasks.filter((t) => taskOf(run, t));
    if (!errors || present.length === 0) return [];
    const n = present.reduce((sum, t) => sum + (asNumber(taskOf(run, t)?.["n"]) ?? 0), 0);
    const failures = categories.map((c) => asNumber(errors[c]) ?? 0);
    return [{ label: name, counts: [Math.max(n - failures.reduce((a, b) => a + b, 0), 0), ...failures] }];
  });
}

const ERROR_COLORS = ["#59a14f", "#f28e2b", "#b07aa1", "#e15759", "#9c755f", "#bab0ac"];

function taxonomy(runs: Labelled[], family: "r2o" | "object"): ChartFigure | null {
  const categories = [...(family === "r2o" ? R2O_ERRORS : OBJECT_ERRORS), "no-answer"];
  const rows = errorRows(runs, family, family === "r2o" ? R2O_TASKS : ["instance"], categories);
  if (rows.length === 0) return null;
  const title = family === "r2o" ? "VCN-Bench: error taxonomy, R2O types (Rid-SR)" : "VCN-Bench: error taxonomy, Instance (Oid-SR)";
  const colors = family === "r2o" ? ERROR_COLORS : [ERROR_COLORS[0]!, ERROR_COLORS[1]!, ERROR_COLORS[3]!, ERROR_COLORS[4]!, ERROR_COLORS[5]!];
  return { title, svg: stackedBars({ title, categories: ["success", ...categories], rows, colors }) };
}

const NAV_METRICS = [["SR", "SR"], ["SPL", "SPL"], ["soft_SPL", "soft SPL"], ["SSR", "SSR"], ["RSR", "RSR"]] as const;

function navigation(runs: Labelled[]): ChartFigure | null {
  const withNav = runs.flatMap(({ run, name }) => {
    const summary = asRecord(asRecord(run["navigation"])?.["summary"]);
    return summary ? [{ summary, name }] : [];
  });
  if (withNav.length === 0) return null;
  const series = withNav.map(({ summary, name }) => ({ name, values: NAV_METRICS.map(([key]) => asNumber(summary[key])) }));
  const title = "VCN-Bench: navigation (SR, SPL, soft SPL, SSR, RSR)";
  return { title, svg: barChart({ title, groups: NAV_METRICS.map(([, t]) => t), series, axisLabel: "rate (%)" }) };
}

/** Charts for VCN-Bench runs side by side (named as the report names them); charts without data are left out. */
export function vcnCharts(runs: ScoresDocument[]): ChartFigure[] {
  const names = chartLabels(runs, VCN_DEFAULTS);
  const labelled = runs.map((run, i) => ({ run, name: names[i]! }));
  return [success(labelled), taxonomy(labelled, "r2o"), taxonomy(labelled, "object"), navigation(labelled)].filter((c): c is ChartFigure => c !== null);
}
