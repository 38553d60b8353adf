import { egoPathScore } from "./aggregate.js";
import { stepLength } from "./score.js";
import { isRouteTask, TASK_CODES, type TaskCode } from "./tasks.js";
import type { EgoPathItem, RouteItem, SetItem } from "./types.js";

/**
 * The exact expected scores of the label-free guess (the `random-route` built-in): a route is the
 * start, then L ids (L uniform in 1..RANDOM_ROUTE_MAX_STEPS), each uniform among the displayed ids
 * other than the one just before it; a traversability answer picks each candidate with probability
 * 1/2. Nothing here samples: the route expectation counts walks in the legal-step digraph.
 */

/** Longest label-free route, in steps (the `random` built-in's 1-4 steps). */
export const RANDOM_ROUTE_MAX_STEPS = 4;

/** The displayed ids, each once, in display order: the label-free guess chooses among these. */
export function distinctDisplayed(item: RouteItem): bigint[] {
  return [...new Set(item.displayed)];
}

/**
 * Per walk length L (index L-1): how many L-step walks from the start in the legal-step digraph
 * between displayed ids (the scorer's stepLength, so sidecar and legacy rows read as scored; a
 * step never stays in place) end anywhere, and how many end at an acceptable goal.
 */
export function legalWalkCounts(item: RouteItem, maxSteps = RANDOM_ROUTE_MAX_STEPS): { any: number[]; goal: number[] } {
  const ids = distinctDisplayed(item);
  const goals = new Set(item.acceptableGoals);
  const next = new Map(ids.map((from) => [from, ids.filter((to) => to !== from && stepLength(item, from, to) !== undefined)]));
  // A start that is not displayed makes every answer fail at its first id (invalid id).
  let counts = new Map<bigint, number>(ids.includes(item.startId) ? [[item.startId, 1]] : []);
  const any: number[] = [];
  const goal: number[] = [];
  for (let step = 1; step <= maxSteps; step++) {
    const after = new Map<bigint, number>();
    for (const [from, ways] of counts) for (const to of next.get(from)!) after.set(to, (after.get(to) ?? 0) + ways);
    counts = after;
    let total = 0;
    let atGoal = 0;
    for (const [id, ways] of counts) {
      total += ways;
      if (goals.has(id)) atGoal += ways;
    }
    any.push(total);
    goal.push(atGoal);
  }
  return { any, goal };
}

/**
 * One route question's expected VPR and SR under the label-free guess: with n displayed ids every
 * step is one of n − 1 equally likely choices, so P = (1/4) · Σ_L W_L / (n − 1)^L.
 */
export function labelFreeRouteExpectation(item: RouteItem): { VPR: number; SR: number } {
  const known = expectationCache.get(item);
  if (known) return known;
  const value = routeExpectation(item);
  expectationCache.set(item, value);
  return value;
}

/** Items are read once and scored many times (every audit rule summarizes the same items). */
const expectationCache = new WeakMap<RouteItem, { VPR: number; SR: number }>();

function routeExpectation(item: RouteItem): { VPR: number; SR: number } {
  const choices = distinctDisplayed(item).length - 1;
  if (choices < 1) return { VPR: 0, SR: 0 };
  const walks = legalWalkCounts(item);
  const expect = (counts: number[]) => counts.reduce((sum, w, k) => sum + w / choices ** (k + 1), 0) / RANDOM_ROUTE_MAX_STEPS;
  return { VPR: expect(walks.any), SR: expect(walks.goal) };
}

/**
 * A traversability task's expected BA when each candidate is picked with probability 1/2. The
 * pooled recall and TNR have fixed denominators (every positive; every candidate that is not
 * one), so their expectations are exact: recall = |positives among candidates| / (2·|positives|),
 * TNR = 1/2 when some candidate is blocked (aggregate.ts setMetrics, with its max(·, 1) guards).
 */
export function labelFreeSetBA(items: readonly SetItem[]): number {
  let positives = 0;
  let pickable = 0;
  let blocked = 0;
  for (const item of items) {
    const own = new Set(item.positives);
    const candidates = new Set(item.candidates);
    positives += own.size;
    pickable += [...own].filter((id) => candidates.has(id)).length;
    blocked += [...candidates].filter((id) => !own.has(id)).length;
  }
  const recall = pickable / 2 / Math.max(positives, 1);
  const tnr = blocked > 0 ? 0.5 : 0;
  return (recall + tnr) / 2;
}

/** What scores.json carries as `label_free_chance` (fractions; keyed by task code). */
export interface LabelFreeChance {
  model: "random-route";
  /** Each asked task's headline in expectation: BA for a1/b1, SR for a2/b2/c. */
  headline: Partial<Record<TaskCode, number>>;
  /** Route tasks' expected VPR. */
  VPR: Partial<Record<TaskCode, number>>;
  /** The EgoPath Score of the expectations (exact: the score is linear in them); null unless all five tasks are asked. */
  overall: number | null;
}

/** The label-free guess's expected scores over the asked questions (route SR and VPR: the mean over questions). */
export function labelFreeChance(items: readonly EgoPathItem[], tasks: readonly TaskCode[]): LabelFreeChance {
  const headline: Partial<Record<TaskCode, number>> = {};
  const VPR: Partial<Record<TaskCode, number>> = {};
  for (const code of tasks) {
    const own = items.filter((i) => i.task === code);
    if (own.length === 0) continue;
    if (!isRouteTask(code)) {
      headline[code] = labelFreeSetBA(own as SetItem[]);
      continue;
    }
    const each = (own as RouteItem[]).map(labelFreeRouteExpectation);
    headline[code] = each.reduce((s, e) => s + e.SR, 0) / each.length;
    VPR[code] = each.reduce((s, e) => s + e.VPR, 0) / each.length;
  }
  const all = TASK_CODES.every((code) => headline[code] !== undefined);
  const overall = all ? egoPathScore(headline as Record<TaskCode, number>) : null;
  return { model: "random-route", headline, VPR, overall };
}
