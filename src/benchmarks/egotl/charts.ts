/**
 * EgoTL-Bench charts: accuracy per multiple-choice task and Avg. (Table 3) with intervals, plus the
 * distance MRA, with uniform chance as dashed ticks; how each task's questions were answered
 * (right, wrong, unreadable, excluded) as stacked bars.
 */
import type { ChartFigure, ScoresDocument } from "../../core/benchmark.js";
import { chartLabels } from "../../report/run-facts.js";
import { asInterval, asNumber, asRecord, barChart, stackedBars, type StackedRow } from "../../report/svg.js";
import { EGOTL_DEFAULTS } from "./report.js";
import { CHOICE_TASKS, DIRECTION_LABELS, LETTERS } from "./schema.js";

interface Labelled {
  run: ScoresDocument;
  name: string;
}

const TITLES: Record<string, string> = {
  planning: "Planning",
  scene_action: "Scene-aware action",
  next_action: "Next action",
  action_recognition: "Action recognition",
  direction: "Direction",
  distance: "Distance (MRA)",
};

/** Uniform guessing: one of four options, or one of the five direction labels. */
const CHANCE: Record<string, number> = Object.fromEntries(CHOICE_TASKS.map((t) => [t, 1 / (t === "direction" ? DIRECTION_LABELS.length : LETTERS.length)]));

const taskOf = (run: ScoresDocument, task: string) => asRecord(run.tasks[task]);
const hasTask = (runs: Labelled[], task: string) => runs.some(({ run }) => taskOf(run, task));

function accuracy(runs: Labelled[]): ChartFigure | null {
  const present = CHOICE_TASKS.filter((t) => hasTask(runs, t));
  const distance = hasTask(runs, "distance");
  if (present.length === 0 && !distance) return null;
  const columns = [...present.map((t) => ({ key: t, metric: "accuracy" })), ...(present.length > 0 ? [{ key: "Avg.", metric: "" }] : []), ...(distance ? [{ key: "distance", metric: "MRA" }] : [])];
  const series = runs.map(({ run, name }) => ({
    name,
    values: columns.map((c) => (c.key === "Avg." ? asNumber(run["Avg."]) : asNumber(taskOf(run, c.key)?.[c.metric]))),
    intervals: columns.map((c) => (c.key === "Avg." ? asInterval(run["score_ci"]) : asInterval(asRecord(taskOf(run, c.key)?.["ci"])?.[c.metric]))),
    notes: columns.map((c) => {
      const n = c.key === "Avg." ? null : asNumber(taskOf(run, c.key)?.["n"]);
      return n === null ? null : `n = ${n}`;
    }),
  }));
  if (series.every((s) => s.values.every((v) => v === null))) return null;
  // Avg.'s chance is the mean over the tasks shown, as the report's chance row; distance has none.
  const avgChance = present.reduce((sum, t) => sum + CHANCE[t]!, 0) / Math.max(present.length, 1);
  const chance = columns.map((c) => (c.key === "Avg." ? avgChance : CHANCE[c.key] ?? null));
  const title = "EgoTL-Bench: accuracy per task, Avg. and distance MRA (95% CI)";
  return {
    title,
    svg: barChart({ title, groups: columns.map((c) => (c.key === "Avg." ? "Avg." : TITLES[c.key]!)), series, references: [{ name: "uniform chance", values: chance }], axisLabel: "accuracy / MRA (%)" }),
  };
}

const OUTCOMES = ["right", "wrong", "unreadable (counted wrong)", "excluded (no letter A-D)"];

/** Right, wrong, unreadable and excluded counts of one task (excluded replies are a part of the unreadable ones). */
function outcomeCounts(s: Record<string, unknown>): number[] {
  const n = asNumber(s["n"]) ?? 0;
  const unreadable = asNumber(s["unreadable"]) ?? 0;
  const right = asNumber(s["correct"]) ?? 0;
  const excluded = asNumber(s["excluded"]) ?? 0;
  const counted = Math.max(unreadable - excluded, 0);
  return [right, Math.max(n - right - counted - excluded, 0), counted, excluded];
}

function outcomes(runs: Labelled[]): ChartFigure | null {
  const rows: StackedRow[] = runs.flatMap(({ run, name }) =>
    CHOICE_TASKS.flatMap((t) => {
      const s = taskOf(run, t);
      return s && asNumber(s["n"]) !== null ? [{ label: `${name} · ${TITLES[t]}`, counts: outcomeCounts(s) }] : [];
    }),
  );
  if (!rows.some((r) => r.counts[2]! + r.counts[3]! > 0)) return null;
  const title = "EgoTL-Bench: answers by outcome (unreadable and excluded replies)";
  return { title, svg: stackedBars({ title, categories: OUTCOMES, rows, colors: ["#59a14f", "#e15759", "#9c755f", "#bab0ac"] }) };
}

/** Charts for EgoTL-Bench runs side by side (named as the report names them); charts without data are left out. */
export function egotlCharts(runs: ScoresDocument[]): ChartFigure[] {
  const names = chartLabels(runs, EGOTL_DEFAULTS);
  const labelled = runs.map((run, i) => ({ run, name: names[i]! }));
  return [accuracy(labelled), outcomes(labelled)].filter((c): c is ChartFigure => c !== null);
}
