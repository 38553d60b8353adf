import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { TASKS } from "./tasks.js";

/** Percent with one decimal, as the paper's tables print. */
const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) && v.length === 2 ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

type TaskScores = Record<string, unknown>;
const task = (run: ScoresDocument, name: string): TaskScores | undefined => run.tasks[name] as TaskScores | undefined;

/** Table 2 layout: Score, then BA/F1 for the traversability tasks and VPR/SR/SPL for the routes. */
function leaderboard(runs: ScoresDocument[]): string {
  const header = ["Model", "Score", ...TASKS.flatMap((t) => (t.kind === "set" ? [`${t.title} BA`, "F1"] : [`${t.title} VPR`, "SR", "SPL"]))];
  const rows = runs.map((run) => [
    run.model,
    pct(run.score),
    ...TASKS.flatMap((t) => {
      const s = task(run, t.name);
      return t.kind === "set" ? [pct(s?.["BA"]), pct(s?.["F1"])] : [pct(s?.["VPR"]), pct(s?.["SR"]), pct(s?.["SPL"])];
    }),
  ]);
  return table(header, rows);
}

function intervals(runs: ScoresDocument[]): string {
  const header = ["Model", "Score", ...TASKS.map((t) => `${t.title} ${t.kind === "set" ? "BA" : "SR"}`)];
  const rows = runs.map((run) => [
    run.model,
    ci(run["score_ci"]),
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


export function egopathMarkdown(runs: ScoresDocument[]): string {
  const parts = [
    "## EgoPathBench",
    "",
    "Percentages. Score = EgoPath Score (chance-adjusted traversability BA and route SR); SPL = `spl_all` (failures count 0).",
    "",
    leaderboard(runs),
    "",
    "### 95% scene-cluster bootstrap intervals",
    "",
    intervals(runs),
  ];
  for (const run of runs) {
    const counts = run.counts;
    parts.push(
      "",
      `### ${mdText(run.model)}: where routes fail`,
      "",
      mdText(`N = ${run.n} scored questions; parse failures ${counts.parse_failures}, missing ${counts.missing}, errors ${counts.errors}. ` +
        `Official rounding of the score (from 4-decimal task metrics): ${pct(run["official_rounding"])}.`),
      "",
      "Failure stage (first failing check, paper Table S4):",
      "",
      stageTable(run),
      "",
      "Route diagnostics (order-independent checks, Fig. 3 / Table S11):",
      "",
      diagnosticsTable(run),
      "",
      "By reference route length:",
      "",
      byEdgesTable(run),
      "",
      "On the half of the questions with fewer displayed waypoints (Table S12):",
      "",
      halfTable(run),
    );
  }
  return parts.join("\n") + "\n";
}

export function egopathTerminal(run: ScoresDocument): string {
  const rows = TASKS.filter((t) => run.tasks[t.name]).map((t) => {
    const s = task(run, t.name)!;
    return t.kind === "set"
      ? [t.title, String(s["n"]), `BA ${pct(s["BA"])}`, `F1 ${pct(s["F1"])}`, ""]
      : [t.title, String(s["n"]), `VPR ${pct(s["VPR"])}`, `SR ${pct(s["SR"])}`, `SPL ${pct(s["SPL"])}`];
  });
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]!.length), 4));
  const lines = rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
  const c = run.counts;
  lines.push(`EgoPath Score ${pct(run.score)}  (official rounding ${pct(run["official_rounding"])})  ·  parse failures ${c.parse_failures} · missing ${c.missing} · errors ${c.errors}`);
  return lines.join("\n");
}
