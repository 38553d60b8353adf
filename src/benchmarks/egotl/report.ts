import type { ScoresDocument } from "../../core/benchmark.js";
import { table } from "../../report/markdown.js";
import { nScoredCell, overallCell, overallTerminal, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import type { ChoiceTaskSummary, DistanceSummary } from "./aggregate.js";
import { CHOICE_TASKS } from "./schema.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

const HEAD: Record<string, string> = {
  planning: "Planning",
  scene_action: "Scene-aware action",
  next_action: "Next action",
  action_recognition: "Action recog.",
  direction: "Direction",
};

/** Uniform guessing: four options, or five directions. */
const CHANCE: Record<string, number> = { planning: 0.25, scene_action: 0.25, next_action: 0.25, action_recognition: 0.25, direction: 0.2 };

function choice(run: ScoresDocument, task: string): ChoiceTaskSummary | undefined {
  return run.tasks[task] as ChoiceTaskSummary | undefined;
}

/** What a run label leaves out: the one prompt source (egotl/index.ts PROMPT_SOURCES) and no control. */
export const EGOTL_DEFAULTS: RunDefaults = { prompt: "templates", control: "none" };

/** Table 3 layout: the five accuracies, Avg., distance MRA; one row per run, plus uniform chance. */
export function egotlMarkdown(runs: ScoresDocument[]): string {
  const labels = runLabels(runs, EGOTL_DEFAULTS);
  const label = (run: ScoresDocument) => labels[runs.indexOf(run)]!;
  const present = CHOICE_TASKS.filter((t) => runs.some((r) => r.tasks[t]));
  const hasDistance = runs.some((r) => r.tasks["distance"]);
  const header = ["Run", "Scored", ...present.map((t) => HEAD[t]!), "Avg.", ...(hasDistance ? ["Distance (MRA)"] : [])];
  const rows = runs.map((run) => [
    label(run),
    nScoredCell(run),
    ...present.map((t) => pct(choice(run, t)?.accuracy)),
    overallCell(run, pct(run["Avg."]), CHOICE_TASKS),
    ...(hasDistance ? [pct((run.tasks["distance"] as DistanceSummary | undefined)?.MRA)] : []),
  ]);
  const chanceAvg = present.length > 0 ? present.reduce((s, t) => s + CHANCE[t]!, 0) / present.length : null;
  rows.push(["uniform chance", "–", ...present.map((t) => pct(CHANCE[t])), pct(chanceAvg), ...(hasDistance ? ["–"] : [])]);
  const parts = [
    "## EgoTL-Bench",
    "",
    "Accuracy (%) per task and Avg. (the mean of the five multiple-choice accuracies, as the paper's Table 3); distance estimation as MRA (%), reported apart. Action recognition excludes replies without a letter A-D, as the paper does. Scored = questions scored from a prediction / questions asked; Avg. is \"—\" when a task it averages has no predictions.",
    "",
    table(header, rows),
  ];
  parts.push("", "### Readability and intervals", "");
  parts.push(table(
    ["Run", "Task", "N", "Accuracy / MRA", "95% CI", "Counted as wrong", "Unreadable", "Excluded"],
    runs.flatMap((run) => [
      ...present.flatMap((t) => {
        const s = choice(run, t);
        return s ? [[label(run), HEAD[t]!, String(s.n), pct(s.accuracy), ci(s.ci.accuracy), pct(s.accuracy_counted), String(s.unreadable), String(s.excluded)]] : [];
      }),
      ...(run.tasks["distance"] ? (() => {
        const d = run.tasks["distance"] as unknown as DistanceSummary;
        const rows = [[label(run), "Distance (MRA)", String(d.n), pct(d.MRA), ci(d.ci.MRA), "", String(d.unreadable), ""]];
        // The paper's Eq. 4 compares strictly (<); the official VSI-Bench code (the MRA above) uses <=.
        if (d.MRA_strict !== undefined) rows.push([label(run), "Distance (MRA, Eq. 4 <)", String(d.n), pct(d.MRA_strict), "", "", String(d.unreadable), ""]);
        return rows;
      })() : []),
      ...(present.length > 0 ? [[label(run), "Avg.", "", overallCell(run, pct(run["Avg."]), CHOICE_TASKS), overallCell(run, ci(run["score_ci"]), CHOICE_TASKS), overallCell(run, pct(run["avg_counted"]), CHOICE_TASKS), "", ""]] : []),
    ]),
  ));
  parts.push("", runsMarkdown(runs, EGOTL_DEFAULTS));
  return parts.join("\n") + "\n";
}

export function egotlTerminal(run: ScoresDocument): string {
  const lines: string[] = [];
  for (const t of CHOICE_TASKS) {
    const s = choice(run, t);
    if (!s) continue;
    const extra = s.excluded > 0 ? `  (counted as wrong ${pct(s.accuracy_counted)}, ${s.excluded} excluded)` : "";
    lines.push(`${t.padEnd(18)} n ${String(s.n).padStart(4)}  accuracy ${pct(s.accuracy).padStart(5)} ${ci(s.ci.accuracy)}${extra}  unreadable ${s.unreadable}`);
  }
  const d = run.tasks["distance"] as DistanceSummary | undefined;
  if (d) lines.push(`${"distance".padEnd(18)} n ${String(d.n).padStart(4)}  MRA ${pct(d.MRA).padStart(5)} ${ci(d.ci.MRA)}  (Eq. 4 strict ${pct(d.MRA_strict)})  unreadable ${d.unreadable}`);
  const avg = overallTerminal(run, `${pct(run["Avg."])} ${ci(run["score_ci"])}`.trim(), typeof run["Avg."] === "number");
  lines.push(`Avg. ${avg}${run["circular"] ? "  (circular)" : ""}  ·  errors ${run.counts.errors}  ·  missing ${run.counts.missing}`);
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
