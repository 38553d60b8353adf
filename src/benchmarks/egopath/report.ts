import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { coverageOf, nScoredCell, overallCell, overallTerminal, restrictionNote, runIdentity, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import { countsOf, diagnosticsSection, pooledCounts, sensitivitySection } from "./report-diagnostics.js";
import { PROMPT_CONTROLS, PROMPT_SOURCES } from "./prompt.js";
import type { LabelFreeChance } from "./route-chance.js";
import { TASKS } from "./tasks.js";

/** What a run label leaves out: the release prompt and no control. */
export const EGOPATH_DEFAULTS: RunDefaults = { prompt: PROMPT_SOURCES[0], control: PROMPT_CONTROLS[0] };

/** Percent with one decimal, as the paper's tables print. */
const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) && v.length === 2 ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

type TaskScores = Record<string, unknown>;
const task = (run: ScoresDocument, name: string): TaskScores | undefined => run.tasks[name] as TaskScores | undefined;
/** A task metric in percent; "–" when no question of the task was scored (all failed or missing), never a 0.0. */
const metric = (s: TaskScores | undefined, key: string) => (s?.["n"] === 0 ? "–" : pct(s?.[key]));

/** scores.json `label_free_chance` (route-chance.ts), when the run recorded it. */
function labelFreeOf(run: ScoresDocument): LabelFreeChance | undefined {
  const value = run["label_free_chance"] as LabelFreeChance | undefined;
  return value && typeof value === "object" && value.headline && typeof value.headline === "object" ? value : undefined;
}

/**
 * The label-free chance row(s) under the runs: one when the runs asked the same questions, else
 * one per distinct set of questions, naming its runs. Routes show the expected VPR and SR (SPL is
 * not computed); traversability the expected BA (its F1 has no exact chance level here).
 */
function chanceRows(runs: ScoresDocument[], labels: string[]): string[][] {
  const groups = new Map<string, { chance: LabelFreeChance; members: string[] }>();
  runs.forEach((run, i) => {
    const chance = labelFreeOf(run);
    if (!chance) return;
    const key = JSON.stringify(chance);
    const group = groups.get(key) ?? groups.set(key, { chance, members: [] }).get(key)!;
    group.members.push(labels[i]!);
  });
  return [...groups.values()].map(({ chance, members }) => [
    `${LABEL_FREE_ROW}${groups.size > 1 ? ` (questions of ${members.join(", ")})` : ""}`,
    "–",
    pct(chance.overall),
    ...TASKS.flatMap((t) => {
      const headline = chance.headline[t.code];
      return t.kind === "set" ? [pct(headline), "–"] : [pct(chance.VPR[t.code]), pct(headline), "–"];
    }),
  ]);
}

/** Label of the chance row in every EgoPath table that shows scores. */
export const LABEL_FREE_ROW = "label-free route chance (random-route, expected)";

/** Table 2 layout: Score, then BA/F1 for the traversability tasks and VPR/SR/SPL for the routes. */
function leaderboard(runs: ScoresDocument[], labels: string[]): string {
  const header = ["Run", "Scored", "Score", ...TASKS.flatMap((t) => (t.kind === "set" ? [`${t.title} BA`, "F1"] : [`${t.title} VPR`, "SR", "SPL"]))];
  const rows = runs.map((run, i) => [
    labels[i]!,
    nScoredCell(run),
    overallCell(run, pct(run.score)),
    ...TASKS.flatMap((t) => {
      const s = task(run, t.name);
      return t.kind === "set" ? [metric(s, "BA"), metric(s, "F1")] : [metric(s, "VPR"), metric(s, "SR"), metric(s, "SPL")];
    }),
  ]);
  return table(header, [...rows, ...chanceRows(runs, labels)]);
}

function intervals(runs: ScoresDocument[], labels: string[]): string {
  const header = ["Run", "Score", ...TASKS.map((t) => `${t.title} ${t.kind === "set" ? "BA" : "SR"}`)];
  const rows = runs.map((run, i) => [
    labels[i]!,
    overallCell(run, ci(run["score_ci"])),
    ...TASKS.map((t) => {
      const s = task(run, t.name);
      const c = s?.["ci"] as Record<string, unknown> | undefined;
      return ci(c?.[t.kind === "set" ? "BA" : "SR"]);
    }),
  ]);
  return table(header, rows);
}

function stageTable(run: ScoresDocument): string {
  const header = ["Task", "N", "Format", "Invalid ID", "Wrong start", "Illegal edge", "Wrong goal", "Success", "of which shortest"];
  const rows = TASKS.filter((t) => t.kind === "route").flatMap((t) => {
    const s = task(run, t.name);
    const stages = s?.["stages"] as Record<string, number> | undefined;
    const n = s?.["n"] as number | undefined;
    if (!stages || !n) return [];
    const f = (k: string) => pct((stages[k] ?? 0) / n);
    return [[t.title, String(n), f("parse"), f("invalid_id"), f("wrong_start"), f("illegal_edge"), f("wrong_goal"), f("success"), f("success_shortest")]];
  });
  return table(header, rows);
}

function diagnosticsTable(run: ScoresDocument): string {
  const diagnostics = run["diagnostics"] as Record<string, Record<string, unknown>> | undefined;
  const header = ["Task", "Evaluable", "Goal-consistent endpoint", "Legal first edge", "Full legality", "Joint success", "Illegal later edge | legal first edge & goal"];
  const rows = TASKS.filter((t) => t.kind === "route" && diagnostics?.[t.name]).map((t) => {
    const d = diagnostics![t.name]!;
    const later = d["illegal_later_edge_given_legal_first_edge_and_goal"] as { n: number; rate: number | null };
    return [t.title, pct(d["evaluable"]), pct(d["goal_consistent_endpoint"]), pct(d["legal_first_edge"]), pct(d["full_legality"]), pct(d["joint_success"]), `${pct(later.rate)} (n=${later.n})`];
  });
  return table(header, rows);
}

function byEdgesTable(run: ScoresDocument): string {
  const diagnostics = run["diagnostics"] as Record<string, Record<string, unknown>> | undefined;
  const header = ["Task", "Reference edges", "N", "Endpoint hit", "Full legality", "Success", "Illegal edge"];
  const rows = TASKS.filter((t) => t.kind === "route" && diagnostics?.[t.name]).flatMap((t) =>
    (diagnostics![t.name]!["by_reference_edges"] as Array<Record<string, unknown>>).map((b) => [
      t.title, String(b["edges"]), String(b["n"]), pct(b["goal_consistent_endpoint"]), pct(b["full_legality"]), pct(b["joint_success"]), pct(b["illegal_edge"]),
    ]),
  );
  return table(header, rows);
}

function halfTable(run: ScoresDocument): string {
  const diagnostics = run["diagnostics"] as Record<string, Record<string, unknown>> | undefined;
  const header = ["Task", "N", "Max waypoints", "Evaluable", "Endpoint hit", "Legal first edge", "Full legality", "Success"];
  const rows = TASKS.filter((t) => t.kind === "route" && diagnostics?.[t.name]).map((t) => {
    const h = diagnostics![t.name]!["fewer_waypoints_half"] as Record<string, unknown>;
    return [t.title, String(h["n"]), String(h["max_waypoints"] ?? "–"), pct(h["evaluable"]), pct(h["goal_consistent_endpoint"]), pct(h["legal_first_edge"]), pct(h["full_legality"]), pct(h["joint_success"])];
  });
  return table(header, rows);
}

/** The run's split (scores.json `split`; runs written before it was recorded read the test split). */
export function splitOf(run: ScoresDocument): string {
  return typeof run["split"] === "string" ? run["split"] : "test";
}

const SPLIT_WORDS: Record<string, string> = { test: "test (the benchmark split)", val: "val", train: "train" };

/** What each run scored: split, questions scored of those in the data, and the routes' legality contract. */
function scoredTable(runs: ScoresDocument[], labels: string[]): string {
  const header = ["Run", "Split", "Questions scored", "Restriction", "Route legality"];
  const rows = runs.map((run, i) => {
    const contract = (run["routing_contract"] ?? {}) as Record<string, unknown>;
    const graph = typeof contract["waypoint_graph"] === "number" ? contract["waypoint_graph"] : 0;
    const pairs = typeof contract["direct_pairs"] === "number" ? contract["direct_pairs"] : undefined;
    const legality = pairs === undefined ? "–" : graph > 0 ? `${pairs} sidecar, ${graph} legacy waypoint graph` : `${pairs} sidecar`;
    return [labels[i]!, SPLIT_WORDS[splitOf(run)] ?? splitOf(run), String(run.n), restrictionNote(run) ?? "none", legality];
  });
  return table(header, rows);
}

/** Runs the paper would pool: full input (no control), grouped by split. */
function poolGroups(runs: ScoresDocument[]): Array<{ split: string; members: number[] }> {
  const groups = new Map<string, number[]>();
  runs.forEach((run, i) => {
    const control = runIdentity(run).control;
    if (control !== undefined && control !== EGOPATH_DEFAULTS.control) return;
    const split = splitOf(run);
    groups.set(split, [...(groups.get(split) ?? []), i]);
  });
  return [...groups.entries()].filter(([, members]) => members.length >= 2).map(([split, members]) => ({ split, members }));
}

/**
 * The score-sensitivity table per group of runs the paper would rank together (full input, one
 * split): ranking a control run or another split's run beside the models says nothing about the
 * score's definition. The split is named in the heading only when the runs span several.
 */
function sensitivityGroups(runs: ScoresDocument[], labels: string[]): string[] {
  const several = new Set(runs.map(splitOf)).size > 1;
  return poolGroups(runs).flatMap(({ split, members }) =>
    sensitivitySection(members.map((i) => runs[i]!), members.map((i) => labels[i]!), {
      ...(several ? { split } : {}),
      leftOut: runs.length - members.length,
    }),
  );
}

function pooledSection(runs: ScoresDocument[], labels: string[]): string[] {
  const out: string[] = [];
  for (const { split, members } of poolGroups(runs)) {
    const pooled = pooledCounts(members.map((i) => runs[i]!));
    if (pooled.byTask.length === 0) continue;
    const left = runs.length - members.length;
    const differ = pooled.byTask.filter((t) => !t.sameQuestions).map((t) => t.title);
    out.push(
      "",
      `### Route diagnostics pooled over ${members.length} runs (${SPLIT_WORDS[split] ?? split} split; the paper pools nine models)`,
      "",
      mdText(`Pooled runs: ${members.map((i) => labels[i]).join(", ")}.` +
        (left > 0 ? ` Left out: ${runs.length - members.length} run(s) with a control or another split.` : "") +
        " Predictions = runs x questions; rates are over predictions."),
      ...(differ.length > 0 ? ["", mdText(`The runs did not score the same questions for ${differ.join(", ")}: question counts there are not shown.`)] : []),
      "",
      ...diagnosticsSection(pooled),
    );
  }
  return out;
}

export function egopathMarkdown(runs: ScoresDocument[]): string {
  const labels = runLabels(runs, EGOPATH_DEFAULTS);
  const parts = [
    "## EgoPathBench",
    "",
    "Percentages. Score = EgoPath Score (chance-adjusted traversability BA and route SR), \"—\" when a task has no predictions; it is the mean of (2·BA − 1) for a1 and b1 and SR for a2, b2 and c (supplement, EgoPath Score), so traversability worse than a coin flip counts below 0 and a run can score below 0. Scored = items scored from a prediction / items asked; SPL = `spl_all` (failures count 0). " +
      `The ${LABEL_FREE_ROW} row is exact, not sampled: what the \`random-route\` built-in scores in expectation on the same questions (routes: the start, then 1-4 displayed ids drawn uniformly, blind to the legal steps; traversability: each candidate with probability 1/2).`,
    "",
    leaderboard(runs, labels),
    "",
    "### 95% scene-cluster bootstrap intervals",
    "",
    intervals(runs, labels),
    "",
    runsMarkdown(runs, EGOPATH_DEFAULTS),
    "",
    "### What each run scored",
    "",
    scoredTable(runs, labels),
    ...sensitivityGroups(runs, labels),
    ...pooledSection(runs, labels),
  ];
  for (const [i, run] of runs.entries()) {
    const counts = run.counts;
    parts.push(
      "",
      `### ${mdText(labels[i]!)}: where routes fail`,
      "",
      mdText(`N = ${run.n} scored questions; parse failures ${counts.parse_failures}, missing ${counts.missing}, errors ${counts.errors}. ` +
        `Official rounding of the score (from 4-decimal task metrics): ${pct(run["official_rounding"])}.`),
      "",
      "Failure stage (first failing check, paper Table S4):",
      "",
      stageTable(run),
      "",
    );
    const routeCounts = countsOf(run);
    if (routeCounts.byTask.length > 0) parts.push("", ...diagnosticsSection(routeCounts));
    else {
      parts.push(
        "",
        "Route diagnostics (this scores.json has no per-question counts; score it again for Tables S7, S11 and S12):",
        "",
        diagnosticsTable(run),
        "",
        "By reference route length:",
        "",
        byEdgesTable(run),
        "",
        "On the half of the questions with fewer displayed waypoints:",
        "",
        halfTable(run),
      );
    }
  }
  return parts.join("\n") + "\n";
}

export function egopathTerminal(run: ScoresDocument): string {
  const rows = TASKS.filter((t) => run.tasks[t.name]).map((t) => {
    const s = task(run, t.name)!;
    return t.kind === "set"
      ? [t.title, String(s["n"]), `BA ${metric(s, "BA")}`, `F1 ${metric(s, "F1")}`, ""]
      : [t.title, String(s["n"]), `VPR ${metric(s, "VPR")}`, `SR ${metric(s, "SR")}`, `SPL ${metric(s, "SPL")}`];
  });
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]!.length), 4));
  const lines = rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
  const c = run.counts;
  const score = coverageOf(run).complete
    ? `${pct(run.score)}  (official rounding ${pct(run["official_rounding"])})`
    : overallTerminal(run, `${pct(run.score)}, official rounding ${pct(run["official_rounding"])}`, run.score !== null);
  lines.push(`EgoPath Score ${score}  ·  parse failures ${c.parse_failures} · missing ${c.missing} · errors ${c.errors}`);
  const chance = labelFreeOf(run);
  if (chance) {
    const parts = TASKS.filter((t) => chance.headline[t.code] !== undefined).map((t) => `${t.code} ${t.kind === "set" ? "BA" : "SR"} ${pct(chance.headline[t.code])}`);
    lines.push(`${LABEL_FREE_ROW}: ${[...parts, ...(chance.overall === null ? [] : [`Score ${pct(chance.overall)}`])].join(" · ")}`);
  }
  lines.push(...terminalStatusLines(run));
  if (splitOf(run) !== "test") lines.push(`split ${splitOf(run)}`);
  return lines.join("\n");
}
