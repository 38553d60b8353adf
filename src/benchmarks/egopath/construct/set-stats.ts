/**
 * The benchmark split's scale and route structure beside the paper's (App. C, Table S10 a-b; the
 * one-edge shares of Table S12), with the tolerances issue 27 sets, for stats.json and the README.
 */
import { quantile } from "../../../stats/bootstrap.js";
import type { TaskCode } from "../tasks.js";
import type { RouteFacts } from "./selection.js";

/** The rows' fields the statistics read. */
export interface StatsRow {
  task: TaskCode;
  scene_id: string;
  view_id: number;
  routing_id?: string;
  ground_truth: Record<string, unknown>;
}

export interface Distribution { n: number; median: number | null; p90: number | null; max: number | null }

/** Median and P90 by linear interpolation between order statistics (numpy's default); values rounded to 0.0001. */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { n: 0, median: null, p90: null, max: null };
  const sorted = values.slice().sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 1e4) / 1e4 + 0;
  return { n: sorted.length, median: r(quantile(sorted, 0.5)), p90: r(quantile(sorted, 0.9)), max: r(sorted[sorted.length - 1]!) };
}

export interface SetStats {
  scale: { scenes: number; views: number; routes: number; targets: number; questions: number; byTask: Record<TaskCode, number> };
  /** Same-category objects the view shows, the target included, over every route question. */
  ambiguity: Distribution;
  /** Same-family objects the view shows (the paper's definition of same-type ambiguity), over every route question. */
  familyAmbiguity: Distribution;
  /** Edges of the reference answer, and the share of one-edge answers, per route task. */
  segments: Record<"a2" | "b2" | "c", Distribution & { oneEdge: number | null }>;
  /** optimal_length_m over every route question. */
  referenceLengthM: Distribution;
  /** Share of the embodied path's length in narrow passages, over b2 and c. */
  narrowFraction: Distribution;
}

const ROUTE_TASKS = ["a2", "b2", "c"] as const;

export function setStats(rows: Record<TaskCode, readonly StatsRow[]>): SetStats {
  const all = (["a1", "b1", "a2", "b2", "c"] as const).flatMap((t) => rows[t]);
  const routeRows = ROUTE_TASKS.flatMap((t) => rows[t]);
  const num = (r: StatsRow, key: string): number => Number(r.ground_truth[key]);
  const edges = (r: StatsRow): number => (r.ground_truth["answer"] as number[]).length - 1;
  const segments = Object.fromEntries(ROUTE_TASKS.map((t) => {
    const e = rows[t].map(edges);
    return [t, { ...distribution(e), oneEdge: e.length > 0 ? Math.round((e.filter((x) => x === 1).length / e.length) * 1e4) / 1e4 : null }];
  })) as SetStats["segments"];
  const narrow = [...rows.b2, ...rows.c].map((r) => ((r.ground_truth["challenge"] as { facts: RouteFacts }).facts.narrowFraction));
  return {
    scale: {
      scenes: new Set(all.map((r) => r.scene_id)).size,
      views: new Set(all.map((r) => `${r.scene_id}/${r.view_id}`)).size,
      routes: new Set(routeRows.map((r) => `${r.scene_id}/${r.view_id}/${r.routing_id}`)).size,
      targets: new Set(routeRows.map((r) => `${r.scene_id}/${num(r, "target_id")}`)).size,
      questions: all.length,
      byTask: { a1: rows.a1.length, b1: rows.b1.length, a2: rows.a2.length, b2: rows.b2.length, c: rows.c.length },
    },
    ambiguity: distribution(routeRows.map((r) => num(r, "ambiguity_count_H_view"))),
    familyAmbiguity: distribution(routeRows.map((r) => (r.ground_truth["challenge"] as { facts: RouteFacts }).facts.familyCohort)),
    segments,
    referenceLengthM: distribution(routeRows.map((r) => num(r, "optimal_length_m"))),
    narrowFraction: distribution(narrow),
  };
}

/** The paper's figures (Table S10 a-b, benchmark; one-edge shares from Table S12: 250/309, 135/309, 91/201). */
export const PAPER_STATS = Object.freeze({
  scale: { scenes: 255, views: 365, routes: 309, targets: 281, questions: 1111, byTask: { a1: 146, b1: 146, a2: 309, b2: 309, c: 201 } },
  ambiguity: { n: 819, median: 4, p90: 8, max: 16 },
  segments: {
    a2: { n: 309, median: 1, p90: 2, max: 3, oneEdge: 0.8091 },
    b2: { n: 309, median: 2, p90: 3, max: 9, oneEdge: 0.4369 },
    c: { n: 201, median: 2, p90: 3, max: 9, oneEdge: 0.4527 },
  },
  referenceLengthM: { n: 819, median: 3.2, p90: 4.8, max: 8.5 },
  narrowFraction: { n: 510, median: 0.4, p90: 0.81, max: 1 },
});

export interface StatsCheck { signal: string; ours: number | null; paper: number; rule: string; pass: boolean }

/** Issue 27's tolerances: one-edge a2 <= 81%, b2 <= 44%, median reference length >= 3 m, median ambiguity >= 3. */
export function statsChecks(s: SetStats): StatsCheck[] {
  const atMost = (signal: string, ours: number | null, paper: number, limit: number): StatsCheck => ({ signal, ours, paper, rule: `<= ${limit}`, pass: ours !== null && ours <= limit });
  const atLeast = (signal: string, ours: number | null, paper: number, limit: number): StatsCheck => ({ signal, ours, paper, rule: `>= ${limit}`, pass: ours !== null && ours >= limit });
  return [
    atMost("one-edge share a2", s.segments.a2.oneEdge, PAPER_STATS.segments.a2.oneEdge, 0.81),
    atMost("one-edge share b2", s.segments.b2.oneEdge, PAPER_STATS.segments.b2.oneEdge, 0.44),
    atLeast("median reference length (m)", s.referenceLengthM.median, PAPER_STATS.referenceLengthM.median, 3),
    atLeast("median same-type ambiguity (same category)", s.ambiguity.median, PAPER_STATS.ambiguity.median, 3),
  ];
}

const fmt = (x: number | null, pct = false): string => (x === null ? "-" : pct ? `${Math.round(x * 1000) / 10}%` : String(x));

/** The README's table: ours beside the paper's, and the tolerances. */
export function statsMarkdown(s: SetStats): string[] {
  const dist = (label: string, d: Distribution, p: { n: number; median: number; p90: number; max: number }, pct = false): string =>
    `| ${label} | ${d.n} | ${fmt(d.median, pct)} / ${fmt(d.p90, pct)} / ${fmt(d.max, pct)} | ${p.n} | ${fmt(p.median, pct)} / ${fmt(p.p90, pct)} / ${fmt(p.max, pct)} |`;
  const sc = s.scale, ps = PAPER_STATS.scale;
  return [
    "| Scale | ours | paper |",
    "|---|---|---|",
    ...(["scenes", "views", "routes", "targets", "questions"] as const).map((k) => `| ${k} | ${sc[k]} | ${ps[k]} |`),
    `| questions a1/b1/a2/b2/c | ${sc.byTask.a1}/${sc.byTask.b1}/${sc.byTask.a2}/${sc.byTask.b2}/${sc.byTask.c} | 146/146/309/309/201 |`,
    "",
    "| Route structure | N | ours median / P90 / max | paper N | paper median / P90 / max |",
    "|---|---|---|---|---|",
    dist("same-type target ambiguity (same category)", s.ambiguity, PAPER_STATS.ambiguity),
    dist("same-type target ambiguity (same family)", s.familyAmbiguity, PAPER_STATS.ambiguity),
    ...ROUTE_TASKS.map((t) => dist(`reference segments (${t})`, s.segments[t], PAPER_STATS.segments[t])),
    dist("reference path length (m)", s.referenceLengthM, PAPER_STATS.referenceLengthM),
    dist("embodied narrow-passage fraction", s.narrowFraction, PAPER_STATS.narrowFraction, true),
    `| one-edge references a2 / b2 / c | | ${fmt(s.segments.a2.oneEdge, true)} / ${fmt(s.segments.b2.oneEdge, true)} / ${fmt(s.segments.c.oneEdge, true)} | | 80.9% / 43.7% / 45.3% |`,
    "",
    "| Tolerance (issue 27) | ours | paper | rule | |",
    "|---|---|---|---|---|",
    ...statsChecks(s).map((c) => `| ${c.signal} | ${fmt(c.ours)} | ${c.paper} | ${c.rule} | ${c.pass ? "met" : "NOT met"} |`),
  ];
}
