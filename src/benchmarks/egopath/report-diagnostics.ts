/**
 * Report tables built from route-diagnostic counts (diagnostics.ts): for one run, or pooled over
 * several runs as the paper pools its nine models (Fig. 3, Tables S7, S11, S12), and the paper's
 * score-sensitivity analysis (rank correlation of the runs across score definitions).
 */
import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { spearman } from "../../stats/spearman.js";
import { tallyRates } from "./aggregate.js";
import { poolRouteCounts, readRouteCounts, type RouteCounts, type Tally } from "./diagnostics.js";
import { TASKS } from "./tasks.js";

const ROUTE_TASKS = TASKS.filter((t) => t.kind === "route");
const pct = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const countCell = (k: number, n: number) => (n > 0 ? `${k} (${pct(k / n)}%)` : "0");

/** A task's counts in one run's scores.json, when it has them. */
export function runCounts(run: ScoresDocument, taskName: string): RouteCounts | undefined {
  const diagnostics = run["diagnostics"] as Record<string, Record<string, unknown>> | undefined;
  return readRouteCounts(diagnostics?.[taskName]?.["counts"]);
}

/** Counts per route task, for one run (`runs` = 1) or pooled over several. */
export interface CountsByTask {
  runs: number;
  byTask: Array<{ title: string; code: string; counts: RouteCounts; sameQuestions: boolean }>;
}

export function countsOf(run: ScoresDocument): CountsByTask {
  return {
    runs: 1,
    byTask: ROUTE_TASKS.flatMap((t) => {
      const counts = runCounts(run, t.name);
      return counts ? [{ title: t.title, code: t.code, counts, sameQuestions: true }] : [];
    }),
  };
}

/** Pool the runs' counts task by task (a task is pooled over the runs that scored it). */
export function pooledCounts(runs: ScoresDocument[]): CountsByTask {
  return {
    runs: runs.length,
    byTask: ROUTE_TASKS.flatMap((t) => {
      const list = runs.map((run) => runCounts(run, t.name)).filter((c): c is RouteCounts => c !== undefined);
      if (list.length !== runs.length || list.length === 0) return [];
      const pooled = poolRouteCounts(list);
      return [{ title: t.title, code: t.code, counts: pooled, sameQuestions: pooled.same_questions }];
    }),
  };
}

/** Questions behind `n` predictions of `runs` runs ("N counts questions before model expansion", Table S12). */
const questionsCell = (n: number, runs: number, same: boolean) => (same && n % runs === 0 ? String(n / runs) : "–");

/** Fig. 3: the order-independent route checks. */
export function figure3Table(c: CountsByTask): string {
  const header = ["Task", "Predictions", "Evaluable", "Endpoint hit", "Legal first edge", "Full legality", "Joint success", "Illegal edge", "Illegal later edge | legal first edge"];
  const rows = c.byTask.map(({ title, counts }) => {
    const r = tallyRates(counts.all);
    const later = r.illegal_later_edge_given_legal_first_edge;
    return [title, String(counts.all.n), pct(r.evaluable), pct(r.goal_consistent_endpoint), pct(r.legal_first_edge), pct(r.full_legality), pct(r.joint_success), pct(r.illegal_edge), `${pct(later.rate)} (n=${later.n})`];
  });
  return table(header, rows);
}

function s11Row(title: string, panel: string, t: Tally): string[] {
  const n = t.legal_first_and_endpoint;
  const later = t.later_illegal_after_legal_first_and_endpoint;
  return [title, panel, String(n), countCell(later, n), countCell(n - later, n)];
}

/** Table S11: (a) all questions, (b) the fewer-waypoint half. */
export function tableS11(c: CountsByTask): string {
  const header = ["Task", "Questions", "First edge legal + endpoint correct", "Illegal later edge", "Complete route legal"];
  const rows = c.byTask.flatMap(({ title, counts, sameQuestions }) => {
    const half = counts.fewer_waypoints_half;
    const limit = half.max_waypoints === null ? "" : `, at most ${half.max_waypoints} waypoints`;
    return [
      s11Row(title, "(a) all", counts.all),
      s11Row(title, `(b) fewer-waypoint half (${questionsCell(half.n, c.runs, sameQuestions)} questions${limit})`, half),
    ];
  });
  return table(header, rows);
}

/** Table S12: by reference length; N = questions, rates over predictions. */
export function tableS12(c: CountsByTask): string {
  const header = ["Task", "Edges", "N", "Predictions", "End hit", "Success", "Illegal edge"];
  const rows = c.byTask.flatMap(({ title, counts, sameQuestions }) =>
    counts.by_reference_edges.filter((b) => b.n > 0).map((b) => {
      const r = tallyRates(b);
      return [title, b.edges.replace(">=", "at least "), sameQuestions ? String(b.questions) : "–", String(b.n), pct(r.goal_consistent_endpoint), pct(r.joint_success), pct(r.illegal_edge)];
    }),
  );
  return table(header, rows);
}

/** Table S7: all questions vs the strict-visibility subset. */
export function tableS7(c: CountsByTask): { table: string; notes: string[] } {
  const header = ["Task", "View", "N", "End/Full", "Gap", "Illegal"];
  const notes: string[] = [];
  const rows = c.byTask.flatMap(({ title, counts, sameQuestions }) => {
    const line = (view: string, t: Tally) => {
      const r = tallyRates(t);
      return [title, view, questionsCell(t.n, c.runs, sameQuestions), `${pct(r.goal_consistent_endpoint)}/${pct(r.joint_success)}`, pct(r.goal_consistent_endpoint - r.joint_success), pct(r.illegal_edge)];
    };
    const strict = counts.strict_visibility;
    const unknown = strict.questions_unknown / c.runs;
    if (strict.rule === "none") {
      notes.push(`${title}: no question says how visible its target is, so there is no Strict row.`);
      return [line("All", counts.all)];
    }
    if (unknown > 0) notes.push(`${title}: ${unknown} questions carry no visibility fields and are left out of Strict.`);
    if (strict.rule === "generator") notes.push(`${title}: Strict applies only the bbox (at least 64 px) and visible-fraction (at least 50%) thresholds (generated-set fields; release rows add the admission checks).`);
    return [line("All", counts.all), line("Strict", strict)];
  });
  return { table: table(header, rows), notes };
}

/** The tables above for one set of counts, with their captions. */
export function diagnosticsSection(c: CountsByTask): string[] {
  if (c.byTask.length === 0) return [];
  const s7 = tableS7(c);
  return [
    "Route checks, order-independent (Fig. 3; endpoint hit, full success and illegal edge as the paper's table script defines them):",
    "",
    figure3Table(c),
    "",
    "After a legal first edge and an acceptable endpoint (Table S11):",
    "",
    tableS11(c),
    "",
    "By reference route length (Table S12; N = questions):",
    "",
    tableS12(c),
    "",
    "Visibility sensitivity (Table S7):",
    "",
    s7.table,
    ...(s7.notes.length > 0 ? ["", ...s7.notes.map((n) => `- ${mdText(n)}`)] : []),
  ];
}

// ------------------------------------------------------------------ score sensitivity

export interface Variants {
  primary: number;
  spl_based: number;
  family_weighted: number;
}

export function variantsOf(run: ScoresDocument): Variants | undefined {
  const v = run["score_variants"] as Record<string, unknown> | null | undefined;
  if (!v) return undefined;
  const keys = ["primary", "spl_based", "family_weighted"] as const;
  return keys.every((k) => typeof v[k] === "number" && Number.isFinite(v[k])) ? (v as unknown as Variants) : undefined;
}

/** 1 = best; ties share the best rank ("1, 2, 2, 4"). */
function competitionRanks(values: number[]): number[] {
  return values.map((v) => 1 + values.filter((w) => w > v).length);
}

/**
 * The supplement's aggregate-score sensitivity: each run's score under the three definitions, its
 * rank under each, and Spearman's rho between the primary ranking and each alternative (the paper
 * reports rho = 1.0 for both over nine models).
 */
export function sensitivitySection(runs: ScoresDocument[], labels: string[], group: { split?: string; leftOut?: number } = {}): string[] {
  const usable = runs.map((run, i) => ({ label: labels[i]!, v: variantsOf(run) })).filter((r): r is { label: string; v: Variants } => r.v !== undefined);
  if (usable.length < 2) return [];
  const primary = usable.map((r) => r.v.primary);
  const spl = usable.map((r) => r.v.spl_based);
  const family = usable.map((r) => r.v.family_weighted);
  const [rp, rs, rf] = [primary, spl, family].map(competitionRanks);
  const rows = usable.map((r, i) => [r.label, pct(r.v.primary), String(rp![i]), pct(r.v.spl_based), String(rs![i]), pct(r.v.family_weighted), String(rf![i])]);
  const rho = (x: number[]) => {
    const value = spearman(primary, x);
    return value === null ? "undefined (needs at least 3 runs and scores that are not all tied)" : value.toFixed(3);
  };
  const left = runs.length - usable.length;
  const others = group.leftOut ?? 0;
  return [
    "",
    `### Score sensitivity (supplement, aggregate-score sensitivity)${group.split ? `, ${group.split} split` : ""}`,
    "",
    mdText(`${usable.length} runs with all five tasks scored${left > 0 ? ` (${left} without: left out)` : ""}. ` +
      (others > 0 ? `Left out: ${others} run(s) with a control or another split. ` : "") +
      "SPL-based: route SR replaced by SPL; family-weighted: traversability and routes averaged within each family, the two families weighted equally. Rank 1 = best."),
    "",
    table(["Run", "Score", "Rank", "SPL-based", "Rank", "Family-weighted", "Rank"], rows),
    "",
    `Spearman rho with the primary ranking (average ranks for ties): SPL-based ${rho(spl)}; family-weighted ${rho(family)}.`,
  ];
}
