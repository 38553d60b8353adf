import type { ScoresDocument } from "../../core/benchmark.js";
import { table } from "../../report/markdown.js";
import { nScoredCell, overallCell, overallTerminal, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import type { ChoiceTaskSummary, DirectionBreakdown, DistanceSummary } from "./aggregate.js";
import { CHOICE_TASKS, DIRECTION_LABELS } from "./schema.js";

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
  for (const f of frequencyRows(runs, label)) {
    const tasks = f.chance.tasks;
    const avg = present.length === 0 ? "–" : present.every((t) => tasks[t]) ? pct(f.chance["Avg."]) : "—";
    rows.push([f.label, "–", ...present.map((t) => pct(tasks[t]?.["accuracy"])), avg, ...(hasDistance ? [pct(tasks["distance"]?.["MRA"])] : [])]);
  }
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
  if (runs.some((r) => r.tasks["direction"])) parts.push("", ...directionSection(runs, label));
  if (hasDistance) parts.push("", ...distanceSection(runs, label));
  parts.push("", runsMarkdown(runs, EGOTL_DEFAULTS));
  return parts.join("\n") + "\n";
}

interface FrequencyChance {
  train: string;
  "Avg.": number | null;
  tasks: Record<string, Record<string, unknown> | undefined>;
}

/**
 * The frequency-chance rows (scores.json `frequency_chance`, present when --train was given): one
 * row when every run that has it agrees, else one per run, named after it.
 */
function frequencyRows(runs: ScoresDocument[], label: (run: ScoresDocument) => string): Array<{ label: string; chance: FrequencyChance }> {
  const withChance = runs.filter((r) => r["frequency_chance"]);
  const distinct = new Set(withChance.map((r) => JSON.stringify(r["frequency_chance"])));
  const name = (c: FrequencyChance) => `frequency chance (train ${c.train.split(/[\\/]/).pop()})`;
  if (distinct.size === 1) {
    const chance = withChance[0]!["frequency_chance"] as FrequencyChance;
    return [{ label: name(chance), chance }];
  }
  return withChance.map((r) => {
    const chance = r["frequency_chance"] as FrequencyChance;
    return { label: `${name(chance)}, items of ${label(r)}`, chance };
  });
}

const share = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : "–");
const metres = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(2) : "–");

/** H.2.5: accuracy per direction and the share of replies read as each label. */
function directionSection(runs: ScoresDocument[], label: (run: ScoresDocument) => string): string[] {
  const rowsOf = (name: string, d: Partial<DirectionBreakdown> | undefined): string[][] => {
    if (!d?.per_direction) return [];
    return [
      ...DIRECTION_LABELS.map((l) => {
        const x = d.per_direction![l];
        return [name, l, String(x.n), pct(x.accuracy), String(x.predicted), share(x.predicted_share)];
      }),
      [name, "no label (unreadable or missing)", "", "", "", share(d.no_label_share)],
    ];
  };
  const rows = runs.flatMap((run) => rowsOf(label(run), run.tasks["direction"] as Partial<DirectionBreakdown> | undefined));
  for (const f of frequencyRows(runs, label)) rows.push(...rowsOf(f.label, f.chance.tasks["direction"] as Partial<DirectionBreakdown> | undefined));
  return [
    "### Direction recognition by label",
    "",
    "Accuracy per true direction (N questions with that truth), and how many replies were read as each label, as a share of all direction questions (App. H.2.5).",
    "",
    table(["Run", "Direction", "N", "Accuracy", "Answered", "Share of replies"], rows),
  ];
}

/** H.2.6: absolute and relative error beside MRA. */
function distanceSection(runs: ScoresDocument[], label: (run: ScoresDocument) => string): string[] {
  const rowOf = (name: string, d: Partial<DistanceSummary> | undefined): string[][] => {
    if (!d || d.n === undefined) return [];
    const abs = d.abs_error;
    const rel = d.rel_error;
    return [[name, String(d.n), pct(d.MRA), pct(d.MRA_strict), abs ? String(abs.n) : "–", metres(abs?.mean), metres(abs?.median), rel ? String(rel.n) : "–", share(rel?.mean), share(rel?.median)]];
  };
  const rows = runs.flatMap((run) => rowOf(label(run), run.tasks["distance"] as Partial<DistanceSummary> | undefined));
  for (const f of frequencyRows(runs, label)) rows.push(...rowOf(f.label, f.chance.tasks["distance"] as Partial<DistanceSummary> | undefined));
  return [
    "### Distance estimation errors",
    "",
    "MRA (%) as VSI-Bench's code computes it (<=) and with the paper's Eq. 4 (<); absolute error |pred − gt| in metres over the readable replies, relative error |pred − gt| / gt over those with gt > 0 (App. H.2.6).",
    "",
    table(["Run", "N", "MRA", "MRA (Eq. 4 <)", "Readable", "Abs. error mean (m)", "Abs. error median (m)", "gt > 0", "Rel. error mean", "Rel. error median"], rows),
  ];
}

export function egotlTerminal(run: ScoresDocument): string {
  const lines: string[] = [];
  for (const t of CHOICE_TASKS) {
    const s = choice(run, t);
    if (!s) continue;
    const extra = s.excluded > 0 ? `  (counted as wrong ${pct(s.accuracy_counted)}, ${s.excluded} excluded)` : "";
    lines.push(`${t.padEnd(18)} n ${String(s.n).padStart(4)}  accuracy ${pct(s.accuracy).padStart(5)} ${ci(s.ci.accuracy)}${extra}  unreadable ${s.unreadable}`);
  }
  const dir = run.tasks["direction"] as Partial<DirectionBreakdown> | undefined;
  if (dir?.per_direction) {
    const per = DIRECTION_LABELS.filter((l) => dir.per_direction![l].n > 0).map((l) => `${l} ${pct(dir.per_direction![l].accuracy)} (n ${dir.per_direction![l].n})`);
    lines.push(`${"".padEnd(18)} per direction: ${per.join(" · ") || "–"}`);
    const answered = DIRECTION_LABELS.map((l) => `${l} ${share(dir.per_direction![l].predicted_share)}`);
    lines.push(`${"".padEnd(18)} answered as: ${answered.join(" · ")} · no label ${share(dir.no_label_share)}`);
  }
  const d = run.tasks["distance"] as DistanceSummary | undefined;
  if (d) {
    lines.push(`${"distance".padEnd(18)} n ${String(d.n).padStart(4)}  MRA ${pct(d.MRA).padStart(5)} ${ci(d.ci.MRA)}  (Eq. 4 strict ${pct(d.MRA_strict)})  unreadable ${d.unreadable}`);
    if (d.abs_error) lines.push(`${"".padEnd(18)} abs. error mean ${metres(d.abs_error.mean)} m, median ${metres(d.abs_error.median)} m (n ${d.abs_error.n})  ·  rel. error mean ${share(d.rel_error?.mean)}, median ${share(d.rel_error?.median)} (n ${d.rel_error?.n ?? 0}, gt > 0)`);
  }
  const chance = run["frequency_chance"] as FrequencyChance | undefined;
  if (chance) {
    const parts = CHOICE_TASKS.filter((t) => chance.tasks[t]).map((t) => `${t} ${pct(chance.tasks[t]!["accuracy"])}`);
    if (chance.tasks["distance"]) parts.push(`distance MRA ${pct(chance.tasks["distance"]["MRA"])}`);
    lines.push(`frequency chance (train ${chance.train.split(/[\\/]/).pop()}): Avg. ${pct(chance["Avg."])}  ·  ${parts.join(" · ")}`);
  }
  const avg = overallTerminal(run, `${pct(run["Avg."])} ${ci(run["score_ci"])}`.trim(), typeof run["Avg."] === "number");
  lines.push(`Avg. ${avg}${run["circular"] ? "  (circular)" : ""}  ·  errors ${run.counts.errors}  ·  missing ${run.counts.missing}`);
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
