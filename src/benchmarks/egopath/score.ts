import type { RouteItem, SetItem } from "./types.js";

/**
 * Per-question scoring with the official evaluator's rules (reference: egopath.md; paper Table S4
 * for the route stage ladder). `ids` is the parsed answer, or null when there is none (missing,
 * unreadable, recorded failure): the evaluator treats that as an empty answer.
 */

export interface SetOutcome {
  kind: "set";
  parsedIds: bigint[] | null;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Distinct answered ids that are not candidates: dropped, not counted as false positives. */
  invalid: number;
  invalidIds: bigint[];
}

export function scoreSetItem(item: SetItem, ids: bigint[] | null): SetOutcome {
  const candidates = new Set(item.candidates);
  const positives = new Set(item.positives);
  const answered = new Set(ids ?? []);
  const invalidIds = [...answered].filter((id) => !candidates.has(id));
  const picked = new Set([...answered].filter((id) => candidates.has(id)));
  let tp = 0;
  let fp = 0;
  for (const id of picked) positives.has(id) ? tp++ : fp++;
  const fn = [...positives].filter((id) => !picked.has(id)).length;
  const tn = [...candidates].filter((id) => !picked.has(id) && !positives.has(id)).length;
  return { kind: "set", parsedIds: ids, tp, fp, fn, tn, invalid: invalidIds.length, invalidIds };
}

/** The stage a route answer fails at, in the evaluator's order; "success" when it passes all. */
export type RouteStage = "parse" | "invalid_id" | "wrong_start" | "illegal_edge" | "wrong_goal" | "success";

export interface RouteOutcome {
  kind: "route";
  parsedIds: bigint[] | null;
  stage: RouteStage;
  /** Every id is displayed (VPR's first condition; the official valid_id_rate). */
  validIds: boolean;
  /** Starts at start_id with at least 2 ids and every step is a listed direct pair (VPR). */
  validPath: boolean;
  /** validPath and the last id is an acceptable goal (SR). */
  success: boolean;
  /** optimal / max(optimal, length) on success, else 0. */
  spl: number;
  /** Route length in metres when every step is legal. */
  lengthM?: number;
  /**
   * Legacy waypoint-graph rows: a displayed id with no graph waypoint. The evaluator then counts the
   * route as having valid ids but no valid path (stage illegal_edge, no illegalStep).
   */
  unmappedId?: bigint;
  /** The first step not listed in the sidecar (0-based step index), when the route fails there. */
  illegalStep?: { index: number; from: bigint; to: bigint };
  /** Diagnostics that do not depend on the stage order (Fig. 3). */
  endpointAcceptable: boolean;
  firstEdgeLegal: boolean;
  laterEdgeIllegal: boolean;
  /**
   * Some consecutive pair of the answer is not a legal step, wherever the ladder stopped (undisplayed
   * ids included): the paper's "illegal edge" incidence (Tables S7, S12; the obstruction audit's 5,563
   * predictions "containing at least one geometry-defined illegal edge").
   */
  anyEdgeIllegal: boolean;
}

export function scoreRouteItem(item: RouteItem, ids: bigint[] | null): RouteOutcome {
  const route = ids ?? [];
  const goals = new Set(item.acceptableGoals);
  const out: RouteOutcome = {
    kind: "route",
    parsedIds: ids,
    stage: "parse",
    validIds: false,
    validPath: false,
    success: false,
    spl: 0,
    endpointAcceptable: false,
    firstEdgeLegal: false,
    laterEdgeIllegal: false,
    anyEdgeIllegal: false,
  };
  if (route.length === 0) return out;
  for (let i = 0; i + 1 < route.length && !out.anyEdgeIllegal; i++) out.anyEdgeIllegal = stepLength(item, route[i]!, route[i + 1]!) === undefined;

  const displayed = new Set(item.displayed);
  if (route.some((id) => !displayed.has(id))) return { ...out, stage: "invalid_id" };
  out.validIds = true;
  out.endpointAcceptable = goals.has(route[route.length - 1]!);

  const unmapped = item.displayToGraph ? route.find((id) => !item.displayToGraph!.has(id)) : undefined;
  if (unmapped !== undefined) return { ...out, stage: "illegal_edge", unmappedId: unmapped };
  const steps = legalSteps(item, route);
  out.firstEdgeLegal = route.length >= 2 && route[0] === item.startId && steps.legal[0] === true;
  out.laterEdgeIllegal = steps.legal.slice(1).some((legal) => !legal);

  if (route.length < 2 || route[0] !== item.startId) return { ...out, stage: "wrong_start" };
  const firstIllegal = steps.legal.indexOf(false);
  if (firstIllegal >= 0) {
    return {
      ...out,
      stage: "illegal_edge",
      illegalStep: { index: firstIllegal, from: route[firstIllegal]!, to: route[firstIllegal + 1]! },
    };
  }
  out.validPath = true;
  out.lengthM = steps.length;
  if (!out.endpointAcceptable) return { ...out, stage: "wrong_goal" };
  const optimal = item.optimalLengthM;
  return { ...out, stage: "success", success: true, spl: optimal / Math.max(optimal, steps.length) };
}

/**
 * The length of the step from one displayed id to the next, undefined when the step is not legal:
 * looked up in the sidecar, or (legacy rows) between the two ids' graph waypoints.
 */
export function stepLength(item: RouteItem, from: bigint, to: bigint): number | undefined {
  const map = item.displayToGraph;
  const a = map ? map.get(from) : from;
  const b = map ? map.get(to) : to;
  return a === undefined || b === undefined ? undefined : item.adjacency.get(a)?.get(b);
}

/** Legality of each consecutive step, and the summed length (in route order) while all are legal. */
function legalSteps(item: RouteItem, route: bigint[]): { legal: boolean[]; length: number } {
  const legal: boolean[] = [];
  let length = 0;
  let allLegal = true;
  for (let i = 0; i + 1 < route.length; i++) {
    const distance = stepLength(item, route[i]!, route[i + 1]!);
    legal.push(distance !== undefined);
    if (distance === undefined) allLegal = false;
    else if (allLegal) length += distance;
  }
  return { legal, length };
}
