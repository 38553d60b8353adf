import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import { pyRound } from "../../core/pycompat/round.js";
import type { RouteOutcome, RouteStage, SetOutcome } from "./score.js";
import { taskInfo, TASK_CODES, type TaskCode } from "./tasks.js";
import type { EgoPathItem, RouteItem } from "./types.js";
import { routeCounts, type RouteCounts, type Tally } from "./diagnostics.js";

/** One scored question (errored items are left out before aggregation). */
export interface ScoredQuestion {
  item: EgoPathItem;
  outcome: SetOutcome | RouteOutcome;
}

export interface SetMetrics {
  code: TaskCode;
  n: number;
  BA: number;
  F1: number;
  precision: number;
  recall: number;
  TNR: number;
  accuracy: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  invalid: number;
}

export interface RouteMetrics {
  code: TaskCode;
  n: number;
  VPR: number;
  SR: number;
  /** The paper's SPL: the evaluator's spl_all (sum over successes / N). */
  SPL: number;
  valid_id_rate: number;
  /** The evaluator's `spl` key: mean SPL over successful routes only. */
  SPL_success_only: number;
  successes: number;
}

/** Traversability metrics from pooled counts (official formulas, including the max(.,1) guards). */
export function setMetrics(code: TaskCode, n: number, c: { tp: number; fp: number; fn: number; tn: number; invalid: number }): SetMetrics {
  const precision = c.tp / Math.max(c.tp + c.fp, 1);
  const recall = c.tp / Math.max(c.tp + c.fn, 1);
  const F1 = (2 * precision * recall) / Math.max(precision + recall, 1e-9);
  const accuracy = (c.tp + c.tn) / Math.max(c.tp + c.tn + c.fp + c.fn, 1);
  const TNR = c.tn / Math.max(c.tn + c.fp, 1);
  const BA = (recall + TNR) / 2;
  return { code, n, BA, F1, precision, recall, TNR, accuracy, ...c };
}

export function routeMetrics(code: TaskCode, c: { n: number; validIds: number; validPaths: number; successes: number; splSum: number }): RouteMetrics {
  const total = Math.max(c.n, 1);
  return {
    code,
    n: c.n,
    VPR: c.validPaths / total,
    SR: c.successes / total,
    SPL: c.splSum / total,
    valid_id_rate: c.validIds / total,
    SPL_success_only: c.splSum / Math.max(c.successes, 1),
    successes: c.successes,
  };
}

/** The evaluator's printed metrics: its key names, rounded to 4 decimals with Python's round(). */
export function officialView(m: SetMetrics | RouteMetrics): Record<string, number> {
  if ("BA" in m) {
    return {
      tp: m.tp, fp: m.fp, fn: m.fn, tn: m.tn,
      precision: pyRound(m.precision, 4),
      recall: pyRound(m.recall, 4),
      f1: pyRound(m.F1, 4),
      accuracy: pyRound(m.accuracy, 4),
      balanced_accuracy: pyRound(m.BA, 4),
      invalid_ids: m.invalid,
    };
  }
  return {
    total: m.n,
    success: m.successes,
    valid_id_rate: pyRound(m.valid_id_rate, 4),
    valid_path_rate: pyRound(m.VPR, 4),
    valid_edge_rate: pyRound(m.VPR, 4),
    success_rate: pyRound(m.SR, 4),
    spl: pyRound(m.SPL_success_only, 4),
    spl_all: pyRound(m.SPL, 4),
  };
}

/**
 * EgoPath Score as a fraction: mean of chance-adjusted traversability BA (2·BA − 1) for a1, b1
 * and route SR for a2, b2, c (paper §4; the paper prints 100× this). Undefined unless all five
 * tasks are present.
 */
export function egoPathScore(v: { a1: number; b1: number; a2: number; b2: number; c: number }): number {
  return (2 * v.a1 - 1 + (2 * v.b1 - 1) + v.a2 + v.b2 + v.c) / 5;
}

/** The tasks the EgoPath Score averages (paper §4): all five, whichever were asked; over fewer it is not the EgoPath Score. */
export function scoreTasks(_asked: readonly string[]): readonly string[] {
  return TASK_CODES;
}

/**
 * The score-sensitivity alternatives of the paper's supplement ("Aggregate-score sensitivity"):
 * route SR replaced by SPL (spl_all), and family weighting (traversability and routes each averaged
 * first, the two families weighted equally). Fractions, like `egoPathScore`.
 */
export function scoreVariants(sets: { a1: number; b1: number }, routes: { a2: number; b2: number; c: number }, spl: { a2: number; b2: number; c: number }) {
  const skill = (ba: number) => 2 * ba - 1;
  return {
    primary: egoPathScore({ ...sets, ...routes }),
    spl_based: egoPathScore({ ...sets, ...spl }),
    family_weighted: 0.5 * ((skill(sets.a1) + skill(sets.b1)) / 2) + 0.5 * ((routes.a2 + routes.b2 + routes.c) / 3),
  };
}

function headline(m: SetMetrics | RouteMetrics): number {
  return "BA" in m ? m.BA : m.SR;
}

// ------------------------------------------------------------------ per task

function sumSet(questions: ScoredQuestion[]) {
  const c = { tp: 0, fp: 0, fn: 0, tn: 0, invalid: 0 };
  for (const q of questions) {
    const o = q.outcome as SetOutcome;
    c.tp += o.tp; c.fp += o.fp; c.fn += o.fn; c.tn += o.tn; c.invalid += o.invalid;
  }
  return c;
}

function sumRoute(questions: ScoredQuestion[]) {
  const c = { n: 0, validIds: 0, validPaths: 0, successes: 0, splSum: 0 };
  for (const q of questions) {
    const o = q.outcome as RouteOutcome;
    c.n++;
    if (o.validIds) c.validIds++;
    if (o.validPath) c.validPaths++;
    if (o.success) c.successes++;
    c.splSum += o.spl;
  }
  return c;
}

export function taskMetrics(code: TaskCode, questions: ScoredQuestion[]): SetMetrics | RouteMetrics {
  return taskInfo(code).kind === "set" ? setMetrics(code, questions.length, sumSet(questions)) : routeMetrics(code, sumRoute(questions));
}

// ------------------------------------------------------------------ route diagnostics (Fig. 3, Tables S11-S12)

export interface RouteDiagnostics {
  stages: Record<RouteStage | "success_shortest", number>;
  evaluable: number;
  /** Paper's endpoint hit (its table script's flag: the last id is an acceptable goal). */
  goal_consistent_endpoint: number;
  legal_first_edge: number;
  full_legality: number;
  /** Paper's full success (valid ids, right start, every step legal, endpoint hit). */
  joint_success: number;
  /** Table S7 "Illegal": valid ids and some step not legal, over all questions. */
  illegal_edge: number;
  /** Fig. 3's text: of the predictions with a legal first edge, the share with an illegal later edge. */
  illegal_later_edge_given_legal_first_edge: { n: number; rate: number | null };
  /** Table S11(a). */
  illegal_later_edge_given_legal_first_edge_and_goal: { n: number; rate: number | null };
  /** Table S12 (rates within each bucket; `n` = questions). */
  by_reference_edges: Array<{ edges: string; n: number; goal_consistent_endpoint: number; full_legality: number; joint_success: number; illegal_edge: number }>;
  fewer_waypoints_half: {
    n: number; max_waypoints: number | null; evaluable: number; goal_consistent_endpoint: number; legal_first_edge: number; full_legality: number; joint_success: number;
    /** Table S11(b). */
    illegal_later_edge_given_legal_first_edge_and_goal: { n: number; rate: number | null };
  };
  /** Table S7 "Strict" (questions whose rows say how visible the target is; see diagnostics.ts). */
  strict_visibility: { n: number; questions_unknown: number; rule: string; goal_consistent_endpoint: number; joint_success: number; gap: number; illegal_edge: number };
  /** The counts all of the above come from, for pooling runs (report.ts). */
  counts: RouteCounts;
}

const rate = (k: number, n: number) => (n > 0 ? k / n : 0);
const conditional = (k: number, n: number) => ({ n, rate: n > 0 ? k / n : null });

/** Rates of one tally, as the report shows them. */
export function tallyRates(t: Tally) {
  return {
    evaluable: rate(t.evaluable, t.n),
    goal_consistent_endpoint: rate(t.endpoint_hit, t.n),
    legal_first_edge: rate(t.legal_first_edge, t.n),
    full_legality: rate(t.full_legality, t.n),
    joint_success: rate(t.full_success, t.n),
    illegal_edge: rate(t.illegal_edge, t.n),
    illegal_later_edge_given_legal_first_edge: conditional(t.later_illegal_after_legal_first, t.legal_first_edge),
    illegal_later_edge_given_legal_first_edge_and_goal: conditional(t.later_illegal_after_legal_first_and_endpoint, t.legal_first_and_endpoint),
  };
}

export function routeDiagnostics(questions: ScoredQuestion[], task: TaskCode = (questions[0]?.item.task as TaskCode | undefined) ?? "a2"): RouteDiagnostics {
  const stages = { parse: 0, invalid_id: 0, wrong_start: 0, illegal_edge: 0, wrong_goal: 0, success: 0, success_shortest: 0 };
  for (const q of questions) {
    const o = q.outcome as RouteOutcome;
    stages[o.stage]++;
    // A success no longer than the reference (1 mm tolerance, as the paper's decomposition).
    if (o.success && (o.lengthM ?? Infinity) <= (q.item as RouteItem).optimalLengthM + 1e-3) stages.success_shortest++;
  }
  const counts = routeCounts(task, questions as Array<{ item: RouteItem; outcome: RouteOutcome }>);
  const all = tallyRates(counts.all);
  const half = counts.fewer_waypoints_half;
  const halfRates = tallyRates(half);
  const strict = counts.strict_visibility;
  const strictRates = tallyRates(strict);
  return {
    stages,
    evaluable: all.evaluable,
    goal_consistent_endpoint: all.goal_consistent_endpoint,
    legal_first_edge: all.legal_first_edge,
    full_legality: all.full_legality,
    joint_success: all.joint_success,
    illegal_edge: all.illegal_edge,
    illegal_later_edge_given_legal_first_edge: all.illegal_later_edge_given_legal_first_edge,
    illegal_later_edge_given_legal_first_edge_and_goal: all.illegal_later_edge_given_legal_first_edge_and_goal,
    by_reference_edges: counts.by_reference_edges.filter((b) => b.n > 0).map((b) => {
      const r = tallyRates(b);
      return { edges: b.edges, n: b.questions, goal_consistent_endpoint: r.goal_consistent_endpoint, full_legality: r.full_legality, joint_success: r.joint_success, illegal_edge: r.illegal_edge };
    }),
    fewer_waypoints_half: {
      n: half.n,
      max_waypoints: half.max_waypoints,
      evaluable: halfRates.evaluable,
      goal_consistent_endpoint: halfRates.goal_consistent_endpoint,
      legal_first_edge: halfRates.legal_first_edge,
      full_legality: halfRates.full_legality,
      joint_success: halfRates.joint_success,
      illegal_later_edge_given_legal_first_edge_and_goal: halfRates.illegal_later_edge_given_legal_first_edge_and_goal,
    },
    strict_visibility: {
      n: strict.n,
      questions_unknown: strict.questions_unknown,
      rule: strict.rule,
      goal_consistent_endpoint: strictRates.goal_consistent_endpoint,
      joint_success: strictRates.joint_success,
      gap: strictRates.goal_consistent_endpoint - strictRates.joint_success,
      illegal_edge: strictRates.illegal_edge,
    },
    counts,
  };
}

// ------------------------------------------------------------------ the whole run

export interface AggregateOptions {
  bootstrapResamples: number;
  bootstrapSeed: number;
}

export interface EgoPathAggregate {
  tasks: Partial<Record<TaskCode, { metrics: SetMetrics | RouteMetrics; official: Record<string, number>; ci: Record<string, Interval>; diagnostics?: RouteDiagnostics }>>;
  score: number | null;
  official_rounding: number | null;
  score_ci: Interval | null;
  /** scoreVariants from full-precision metrics; null unless all five tasks were scored. */
  score_variants: { primary: number; spl_based: number; family_weighted: number } | null;
}

/** Layout of one cluster's statistics vector: 5 slots per task. */
const SLOT = 5;

export function aggregate(questions: ScoredQuestion[], tasks: TaskCode[], options: AggregateOptions): EgoPathAggregate {
  const byTask = new Map<TaskCode, ScoredQuestion[]>(tasks.map((t) => [t, []]));
  for (const q of questions) byTask.get(q.item.task)?.push(q);

  const out: EgoPathAggregate = { tasks: {}, score: null, official_rounding: null, score_ci: null, score_variants: null };
  for (const code of tasks) {
    const group = byTask.get(code)!;
    const metrics = taskMetrics(code, group);
    out.tasks[code] = {
      metrics,
      official: officialView(metrics),
      ci: {},
      ...(taskInfo(code).kind === "route" ? { diagnostics: routeDiagnostics(group, code) } : {}),
    };
  }
  const hasAll = TASK_CODES.every((t) => tasks.includes(t) && (byTask.get(t)?.length ?? 0) > 0);
  if (hasAll) {
    const h = (t: TaskCode) => headline(out.tasks[t]!.metrics);
    out.score = egoPathScore({ a1: h("a1"), b1: h("b1"), a2: h("a2"), b2: h("b2"), c: h("c") });
    const r = (t: TaskCode) => {
      const o = out.tasks[t]!.official;
      return (taskInfo(t).kind === "set" ? o["balanced_accuracy"] : o["success_rate"])!;
    };
    out.official_rounding = egoPathScore({ a1: r("a1"), b1: r("b1"), a2: r("a2"), b2: r("b2"), c: r("c") });
    const spl = (t: TaskCode) => (out.tasks[t]!.metrics as RouteMetrics).SPL;
    out.score_variants = scoreVariants({ a1: h("a1"), b1: h("b1") }, { a2: h("a2"), b2: h("b2"), c: h("c") }, { a2: spl("a2"), b2: spl("b2"), c: spl("c") });
  }
  if (options.bootstrapResamples > 0 && questions.length > 0) {
    const intervals = bootstrapIntervals(questions, tasks, options);
    for (const code of tasks) out.tasks[code]!.ci = pickPrefixed(intervals, `${code}.`);
    out.score_ci = hasAll ? intervals["score"] ?? null : null;
  }
  return out;
}

/** Scene-cluster bootstrap over all tasks at once, so the score's interval resamples scenes jointly. */
function bootstrapIntervals(questions: ScoredQuestion[], tasks: TaskCode[], options: AggregateOptions): Record<string, Interval> {
  const index = new Map(tasks.map((t, i) => [t, i * SLOT]));
  const clusters = new Map<string, Float64Array>();
  for (const q of questions) {
    const base = index.get(q.item.task);
    if (base === undefined) continue;
    const v = clusters.get(q.item.sceneId) ?? new Float64Array(tasks.length * SLOT);
    clusters.set(q.item.sceneId, v);
    if (q.outcome.kind === "set") {
      v[base]! += q.outcome.tp; v[base + 1]! += q.outcome.fp; v[base + 2]! += q.outcome.fn; v[base + 3]! += q.outcome.tn; v[base + 4]! += 1;
    } else {
      v[base]! += 1; v[base + 1]! += q.outcome.validPath ? 1 : 0; v[base + 2]! += q.outcome.success ? 1 : 0; v[base + 3]! += q.outcome.spl; v[base + 4]! += q.outcome.validIds ? 1 : 0;
    }
  }
  const statistics = (sum: Float64Array) => {
    const values: Record<string, number> = {};
    const headlines: Partial<Record<TaskCode, number>> = {};
    for (const code of tasks) {
      const b = index.get(code)!;
      if (taskInfo(code).kind === "set") {
        if (sum[b + 4] === 0) { values[`${code}.BA`] = NaN; continue; }
        const m = setMetrics(code, sum[b + 4]!, { tp: sum[b]!, fp: sum[b + 1]!, fn: sum[b + 2]!, tn: sum[b + 3]!, invalid: 0 });
        values[`${code}.BA`] = m.BA;
        values[`${code}.F1`] = m.F1;
        headlines[code] = m.BA;
      } else {
        const n = sum[b]!;
        if (n === 0) { values[`${code}.SR`] = NaN; continue; }
        values[`${code}.VPR`] = sum[b + 1]! / n;
        values[`${code}.SR`] = sum[b + 2]! / n;
        values[`${code}.SPL`] = sum[b + 3]! / n;
        headlines[code] = sum[b + 2]! / n;
      }
    }
    const all = TASK_CODES.every((t) => headlines[t] !== undefined);
    values["score"] = all ? egoPathScore(headlines as Record<TaskCode, number>) : NaN;
    return values;
  };
  return clusterBootstrap([...clusters.values()], statistics, { resamples: options.bootstrapResamples, seed: options.bootstrapSeed });
}

function pickPrefixed(intervals: Record<string, Interval>, prefix: string): Record<string, Interval> {
  const out: Record<string, Interval> = {};
  for (const [key, value] of Object.entries(intervals)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}
