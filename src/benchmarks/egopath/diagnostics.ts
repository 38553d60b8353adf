/**
 * Per-question counts behind the paper's route diagnostics (Fig. 3, Tables S7, S11, S12), kept as
 * counts so several runs can be pooled as the paper pools its nine models. The paper's tables come
 * from its own table script (EgoPathBench paper/scripts/build_paper_assets.py), whose route flags
 * differ from the evaluator's ladder in small ways; `paperFlags` follows that script:
 * - endpoint hit: the answer parses and its last id is an acceptable goal (ids need not be valid);
 * - illegal edge: every id is displayed and some consecutive pair is not a legal step, wherever it
 *   starts (the start is not required);
 * - full success: valid ids, right start (one id is enough), every step legal, endpoint hit.
 */
import { stepLength, type RouteOutcome } from "./score.js";
import type { TaskCode } from "./tasks.js";
import type { RouteItem } from "./types.js";

export interface PaperFlags {
  parseable: boolean;
  candidateValid: boolean;
  startCorrect: boolean;
  edgeLegal: boolean;
  endpointHit: boolean;
  fullSuccess: boolean;
}

export function paperFlags(item: RouteItem, ids: bigint[] | null): PaperFlags {
  const route = ids ?? [];
  const flags = { parseable: route.length > 0, candidateValid: false, startCorrect: false, edgeLegal: false, endpointHit: false, fullSuccess: false };
  if (!flags.parseable) return flags;
  const displayed = new Set(item.displayed);
  flags.candidateValid = route.every((id) => displayed.has(id));
  flags.startCorrect = route[0] === item.startId;
  flags.endpointHit = item.acceptableGoals.includes(route[route.length - 1]!);
  if (flags.candidateValid) {
    flags.edgeLegal = true;
    for (let i = 0; i + 1 < route.length && flags.edgeLegal; i++) flags.edgeLegal = stepLength(item, route[i]!, route[i + 1]!) !== undefined;
  }
  flags.fullSuccess = flags.candidateValid && flags.startCorrect && flags.edgeLegal && flags.endpointHit;
  return flags;
}

/** Counts over a group of predictions (one per question per run). */
export interface Tally {
  /** Predictions in the group. */
  n: number;
  /** Every id displayed (an evaluable route). */
  evaluable: number;
  /** Paper's endpoint hit ("goal-consistent endpoint", Table S7/S12 "End"). */
  endpoint_hit: number;
  /** Evaluator ladder: right start, at least 2 ids, and the first step legal. */
  legal_first_edge: number;
  /** Evaluator's valid path (VPR). */
  full_legality: number;
  /** Paper's full success (Table S7/S12 "Full"/"Success"; Fig. 3 joint success). */
  full_success: number;
  /** Paper's illegal-edge incidence (Table S7 "Illegal", S12 "Illegal edge"). */
  illegal_edge: number;
  /** Legal first edge and later illegal step (Fig. 3's conditional given a legal first edge). */
  later_illegal_after_legal_first: number;
  /** Table S11's selection: legal first edge and endpoint hit ... */
  legal_first_and_endpoint: number;
  /** ... of which a later step is illegal (the rest have a complete legal route). */
  later_illegal_after_legal_first_and_endpoint: number;
}

export type RefBucket = { edges: string; questions: number } & Tally;

export interface RouteCounts {
  all: Tally;
  /** Table S12: by the reference route's edge count (Point: 1, >=2; Embodied and Intent: 1, 2, >=3). */
  by_reference_edges: RefBucket[];
  /** Table S11(b): the half of the questions with the fewest displayed waypoints (ties by file order). */
  fewer_waypoints_half: Tally & { max_waypoints: number | null };
  /** Table S7 "Strict": target bbox short side >= 64 px and visible surface >= 50% (see strictVisibility). */
  strict_visibility: Tally & { questions_unknown: number; rule: VisibilityRule | "mixed" | "none" };
}

export type VisibilityRule = "release" | "generator";

export function emptyTally(): Tally {
  return {
    n: 0, evaluable: 0, endpoint_hit: 0, legal_first_edge: 0, full_legality: 0, full_success: 0, illegal_edge: 0,
    later_illegal_after_legal_first: 0, legal_first_and_endpoint: 0, later_illegal_after_legal_first_and_endpoint: 0,
  };
}

function add(t: Tally, o: RouteOutcome, f: PaperFlags): void {
  t.n++;
  if (o.validIds) t.evaluable++;
  if (f.endpointHit) t.endpoint_hit++;
  if (o.firstEdgeLegal) t.legal_first_edge++;
  if (o.validPath) t.full_legality++;
  if (f.fullSuccess) t.full_success++;
  if (f.candidateValid && !f.edgeLegal) t.illegal_edge++;
  if (o.firstEdgeLegal && o.laterEdgeIllegal) t.later_illegal_after_legal_first++;
  if (o.firstEdgeLegal && f.endpointHit) {
    t.legal_first_and_endpoint++;
    if (o.laterEdgeIllegal) t.later_illegal_after_legal_first_and_endpoint++;
  }
}

const TALLY_KEYS = Object.keys(emptyTally()) as (keyof Tally)[];

/** Adds the tally fields only (buckets also carry their label and question count). */
function sumInto(into: Tally, t: Tally): void {
  for (const key of TALLY_KEYS) into[key] += t[key];
}

/** The reference-length buckets of the paper's table script: a reference of 0 edges falls in the top bucket, as there. */
export function referenceBucket(task: TaskCode, referenceRoute: readonly bigint[]): string {
  const edges = Math.max(referenceRoute.length - 1, 0);
  if (task === "a2") return edges === 1 ? "1" : ">=2";
  return edges === 1 ? "1" : edges === 2 ? "2" : ">=3";
}

export function referenceBuckets(task: TaskCode): string[] {
  return task === "a2" ? ["1", ">=2"] : ["1", "2", ">=3"];
}

/**
 * Table S7's strict view, per question: true/false, or undefined when the row carries neither
 * layout. Release rows (ground_truth.routing_complexity present) use the table script's rule:
 * every admission check passes (whole path visible, sparse and dense projection safe, target
 * human-visible and unique, no prompt leakage, start in the bottom band and forward sector, goal in
 * the target zone) and target_bbox_short_side_px >= 64 and target_visible_surface_ratio >= 0.5.
 * Rows of sets made by `generate egopath` carry target_bbox_px [x0, y0, x1, y1] and
 * target_visible_fraction instead; there only the two thresholds are applied.
 */
export function strictVisibility(gt: Record<string, unknown>): { strict: boolean; rule: VisibilityRule } | undefined {
  const complexity = asRecord(gt["routing_complexity"]);
  if (complexity) {
    const checks = asRecord(asRecord(gt["navigation_validity"])?.["check_results"]) ?? {};
    const number = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    const strict =
      Math.abs(number(complexity["path_visible_point_fraction"]) - 1) <= 1e-9 &&
      complexity["path_projection_safe"] === true &&
      complexity["dense_path_projection_safe"] === true &&
      gt["human_visible_legality"] === "legal" &&
      gt["human_visible_uniqueness"] === "unique" &&
      gt["prompt_answer_leakage"] === false &&
      checks["start_in_bottom_band"] === true &&
      checks["start_in_forward_sector"] === true &&
      checks["goal_in_target_zone"] === true &&
      Math.trunc(number(complexity["target_bbox_short_side_px"])) >= 64 &&
      number(complexity["target_visible_surface_ratio"]) >= 0.5;
    return { strict, rule: "release" };
  }
  const box = gt["target_bbox_px"];
  const fraction = gt["target_visible_fraction"];
  if (Array.isArray(box) && box.length === 4 && box.every((v) => typeof v === "number" && Number.isFinite(v)) && typeof fraction === "number") {
    const [x0, y0, x1, y1] = box as number[];
    return { strict: Math.min(x1! - x0!, y1! - y0!) >= 64 && fraction >= 0.5, rule: "generator" };
  }
  return undefined;
}

/** One run's counts for one route task, from its scored questions in file order. */
export function routeCounts(task: TaskCode, questions: ReadonlyArray<{ item: RouteItem; outcome: RouteOutcome }>): RouteCounts {
  const all = emptyTally();
  const buckets = new Map(referenceBuckets(task).map((edges) => [edges, { edges, questions: 0, ...emptyTally() } as RefBucket]));
  const strict = { ...emptyTally(), questions_unknown: 0 };
  const rules = new Set<VisibilityRule>();
  const flags = questions.map((q) => paperFlags(q.item, q.outcome.parsedIds));
  questions.forEach((q, i) => {
    add(all, q.outcome, flags[i]!);
    const bucket = buckets.get(referenceBucket(task, q.item.referenceRoute))!;
    bucket.questions++;
    add(bucket, q.outcome, flags[i]!);
    const view = strictVisibility(q.item.groundTruth);
    if (!view) strict.questions_unknown++;
    else {
      rules.add(view.rule);
      if (view.strict) add(strict, q.outcome, flags[i]!);
    }
  });
  const order = questions
    .map((q, i) => ({ i, k: q.item.displayed.length }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .slice(0, Math.floor(questions.length / 2));
  const half = emptyTally();
  for (const { i } of order) add(half, questions[i]!.outcome, flags[i]!);
  return {
    all,
    by_reference_edges: [...buckets.values()],
    fewer_waypoints_half: { ...half, max_waypoints: order.length > 0 ? order[order.length - 1]!.k : null },
    strict_visibility: { ...strict, rule: rules.size === 0 ? "none" : rules.size === 1 ? [...rules][0]! : "mixed" },
  };
}

/**
 * Several runs' counts added up (predictions pooled over runs, as the paper pools nine models).
 * `questions` per bucket and `max_waypoints` are per-question facts: kept when every run agrees,
 * otherwise null (the runs did not score the same questions).
 */
export function poolRouteCounts(list: readonly RouteCounts[]): RouteCounts & { same_questions: boolean } {
  const pooled = structuredClone(list[0]!) as RouteCounts;
  let same = true;
  for (const other of list.slice(1)) {
    sumInto(pooled.all, other.all);
    for (const bucket of pooled.by_reference_edges) {
      const match = other.by_reference_edges.find((b) => b.edges === bucket.edges);
      if (!match) { same = false; continue; }
      if (match.questions !== bucket.questions) same = false;
      sumInto(bucket, match);
      bucket.questions = Math.max(bucket.questions, match.questions);
    }
    const half = other.fewer_waypoints_half;
    if (half.max_waypoints !== pooled.fewer_waypoints_half.max_waypoints) { same = false; pooled.fewer_waypoints_half.max_waypoints = null; }
    sumInto(pooled.fewer_waypoints_half, half);
    const strict = other.strict_visibility;
    sumInto(pooled.strict_visibility, strict);
    pooled.strict_visibility.questions_unknown += strict.questions_unknown;
    if (strict.rule !== pooled.strict_visibility.rule) pooled.strict_visibility.rule = "mixed";
  }
  return { ...pooled, same_questions: same };
}

/** Read back counts written to scores.json (undefined when the run predates them or they are malformed). */
export function readRouteCounts(value: unknown): RouteCounts | undefined {
  const v = asRecord(value);
  if (!v || !isTally(v["all"]) || !Array.isArray(v["by_reference_edges"]) || !isTally(v["fewer_waypoints_half"]) || !isTally(v["strict_visibility"])) return undefined;
  if (!(v["by_reference_edges"] as unknown[]).every((b) => isTally(b) && typeof asRecord(b)!["edges"] === "string" && typeof asRecord(b)!["questions"] === "number")) return undefined;
  return v as unknown as RouteCounts;
}

function isTally(value: unknown): boolean {
  const v = asRecord(value);
  return !!v && TALLY_KEYS.every((k) => typeof v[k] === "number" && Number.isFinite(v[k]));
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
