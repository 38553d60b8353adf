/** EgoPathBench charts: headline metric per task with intervals, the five-task radar, route failure stages. */
import type { ChartFigure, ScoresDocument } from "../../core/benchmark.js";
import { chartLabels } from "../../report/run-facts.js";
import { asInterval, asNumber, asRecord, barChart, radarChart, stackedBars, type StackedRow } from "../../report/svg.js";
import { EGOPATH_DEFAULTS } from "./report.js";
import { TASKS } from "./tasks.js";

/** The headline metric of each task: BA for traversability (a1, b1), SR for routes (a2, b2, c). */
const HEADLINE = TASKS.map((t) => ({ ...t, metric: t.kind === "set" ? "BA" : "SR", axis: `${t.code} ${t.kind === "set" ? "BA" : "SR"}` }));

/** Failure stages in the order the scorer checks them (paper Table S4); success last. */
const STAGES = [
  ["parse", "Format (parse)"],
  ["invalid_id", "Invalid ID"],
  ["wrong_start", "Wrong start"],
  ["illegal_edge", "Illegal edge"],
  ["wrong_goal", "Wrong goal"],
  ["success", "Success"],
] as const;
const STAGE_COLORS = ["#9c755f", "#b07aa1", "#f28e2b", "#e15759", "#edc948", "#59a14f"];

const taskOf = (run: ScoresDocument, name: string) => asRecord(run.tasks[name]);

function headlineValue(run: ScoresDocument, name: string, metric: string): number | null {
  return asNumber(taskOf(run, name)?.[metric]);
}

function headlineInterval(run: ScoresDocument, name: string, metric: string): [number, number] | null {
  return asInterval(asRecord(taskOf(run, name)?.["ci"])?.[metric]);
}

function taskBars(runs: ScoresDocument[], names: string[]): ChartFigure | null {
  const series = runs.map((run, i) => ({
    name: names[i]!,
    values: HEADLINE.map((t) => headlineValue(run, t.name, t.metric)),
    intervals: HEADLINE.map((t) => headlineInterval(run, t.name, t.metric)),
    notes: HEADLINE.map((t) => {
      const n = asNumber(taskOf(run, t.name)?.["n"]);
      return n === null ? null : `n = ${n}`;
    }),
  }));
  if (series.every((s) => s.values.every((v) => v === null))) return null;
  const title = "EgoPathBench: headline metric per task (95% scene-cluster CI)";
  return { title, svg: barChart({ title, groups: HEADLINE.map((t) => `${t.title} (${t.axis.replace(" ", "\u00a0")})`), series, axisLabel: "BA / SR (%)" }) };
}

function radar(runs: ScoresDocument[], names: string[]): ChartFigure | null {
  const series = runs.map((run, i) => ({ name: names[i]!, values: HEADLINE.map((t) => headlineValue(run, t.name, t.metric)) }));
  if (series.every((s) => s.values.every((v) => v === null))) return null;
  // The paper prints its human profile's per-task values only in the figure, not as numbers, so
  // the human reference is the separate same-question chart (Table S9's numbers), not a radar series.
  const title = "EgoPathBench: the five tasks (Fig. 4 layout; human reference: see the same-question chart)";
  return { title, svg: radarChart({ title, axes: HEADLINE.map((t) => t.axis), series }) };
}

function stageRows(runs: ScoresDocument[], names: string[]): StackedRow[] {
  return runs.flatMap((run, i) =>
    TASKS.filter((t) => t.kind === "route").flatMap((t) => {
      const stages = asRecord(taskOf(run, t.name)?.["stages"]);
      if (!stages) return [];
      return [{ label: `${names[i]} · ${t.title} (${t.code})`, counts: STAGES.map(([key]) => asNumber(stages[key]) ?? 0) }];
    }),
  );
}

function stages(runs: ScoresDocument[], names: string[]): ChartFigure | null {
  const rows = stageRows(runs, names);
  if (rows.length === 0) return null;
  const title = "EgoPathBench: where routes fail (first failing stage)";
  return { title, svg: stackedBars({ title, categories: STAGES.map(([, name]) => name), rows, colors: STAGE_COLORS }) };
}

/**
 * The paper's same-question human reference (supplement, "Same-question human reference" and
 * Table S9): 50 questions, 10 per task, one volunteer. EgoPath Score 54.2 against 28.6 for the
 * strongest VLM (GPT-5.5) on the same questions; mean route valid-path rate 70.0% vs 26.7%; mean
 * route success rate 46.7% vs 13.3%. Fractions.
 */
export const PAPER_SAME_QUESTION_REFERENCE = [
  { name: "Human (paper, 50-question subset)", score: 0.542, vpr: 0.7, sr: 0.467 },
  { name: "GPT-5.5 (paper, same 50 questions)", score: 0.286, vpr: 0.267, sr: 0.133 },
] as const;

const ROUTE_CODES = TASKS.filter((t) => t.kind === "route");

/** Mean of a metric over the three route tasks; null unless all three have it. */
function routeMean(run: ScoresDocument, metric: string): number | null {
  const values = ROUTE_CODES.map((t) => headlineValue(run, t.name, metric));
  return values.every((v): v is number => v !== null) ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** The paper's human and strongest-VLM numbers beside each run scored on all five tasks (runs: its whole split). */
function humanReference(runs: ScoresDocument[], names: string[]): ChartFigure | null {
  const allTasks = (run: ScoresDocument) => asNumber(run.score) !== null && HEADLINE.every((t) => headlineValue(run, t.name, t.metric) !== null);
  const complete = runs.flatMap((run, i) => (allTasks(run) ? [{ run, name: names[i]! }] : []));
  if (complete.length === 0) return null;
  const series = [
    ...PAPER_SAME_QUESTION_REFERENCE.map((r) => ({ name: r.name, values: [r.score, r.vpr, r.sr] })),
    ...complete.map(({ run, name }) => ({ name: `${name} (this run, all its questions)`, values: [asNumber(run.score), routeMean(run, "VPR"), routeMean(run, "SR")] })),
  ];
  const title = "EgoPathBench: same-question human reference (paper Table S9) beside these runs";
  return { title, svg: barChart({ title, groups: ["EgoPath Score", "Route VPR (mean of 3 tasks)", "Route SR (mean of 3 tasks)"], series, axisLabel: "%" }) };
}

/** Charts for EgoPathBench runs side by side (named as the report's tables name them); charts without data are left out. */
export function egopathCharts(runs: ScoresDocument[]): ChartFigure[] {
  const names = chartLabels(runs, EGOPATH_DEFAULTS);
  return [taskBars(runs, names), radar(runs, names), humanReference(runs, names), stages(runs, names)].filter((c): c is ChartFigure => c !== null);
}
