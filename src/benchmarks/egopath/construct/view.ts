/**
 * One view of a scene turned into questions: render, targets, candidates, paired point and
 * embodied routes, the two waypoint sheets, the feasibility graphs and the question rows' facts.
 */
import { shortestPathToAny, type WeightedDigraph } from "../../../geometry/dijkstra.js";
import type { Rng } from "../../../stats/rng.js";
import type { PinholeCamera } from "../../../world/camera.js";
import { lineOfSight, shortestPathTree } from "../../../world/space/index.js";
import type { Vec2 } from "../../../world/types.js";
import { bottomCenterStart, floorGridCandidates, type ViewInputs } from "./candidates.js";
import { markerSpacing } from "./markers.js";
import { balanceKinds, matchTriples, surroundings, visibleFloorLattice } from "./matched-floor.js";
import { explicitIdentity, intentIdentity, type Identity, type IntentIdentity } from "./identity.js";
import { footprintDistance, goalRing, objectFootprint, planAgentRoute, denseGoalCells, type AgentRoute, type RoutePool } from "./routes.js";
import { byDepth, displayIds, labelSheet, numberSheet, routeSheet, type LabelledSheet, type Numbering, type Sheet } from "./sheets.js";
import { EGOPATH_PARAMS as P, round4 } from "./params.js";
import { routeFacts, viewFacts, type RouteFacts, type ViewFacts } from "./selection.js";
import { routingTargets, shownObjects, viewTargets } from "./targets.js";
import type { Agent, Candidate, ViewTarget } from "./types.js";

export interface RouteUnit {
  index: number;
  target: ViewTarget;
  identity: Identity;
  intent: IntentIdentity | null;
  point: AgentRoute;
  embodied: AgentRoute;
  /** What the challenge selection reads of this route bundle (selection.ts). */
  facts: RouteFacts;
}

/** Legal direct steps of one agent on a sheet: display id -> [display id, planar length rounded to 0.1 mm]. */
export type DirectPairs = Map<number, Array<{ displayId: number; distance: number }>>;

export interface RouteQuestion {
  unit: RouteUnit;
  agent: Agent;
  startId: number;
  answer: number[];
  pathIds: number[];
  acceptable: number[];
  optimalLength: number;
  canonicalLength: number;
  ringMin: number;
  ringThreshold: number;
}

export interface BuiltView {
  camera: PinholeCamera;
  /** Every object the view shows (the universe of identity cues). */
  shown: ViewTarget[];
  traversability: Sheet;
  /** What the challenge selection reads of the view bundle (selection.ts). */
  viewFacts: ViewFacts;
  route: Sheet;
  units: RouteUnit[];
  pairs: Record<Agent, DirectPairs>;
  questions: { a2: RouteQuestion[]; b2: RouteQuestion[]; c: RouteQuestion[] };
  /** What legible numbering cost: markers left off the sheets, route units dropped because a waypoint they need could not be numbered legibly. */
  labelling: { markersDropped: number; unitsDropped: number };
}


const feasible = (agent: Agent, c: Candidate): boolean => (agent === "point" ? c.pointWalkable : c.embodiedFeasible);

/** The sidecar graph: every pair of feasible displayed waypoints in straight sight on the agent's grid (symmetric, no length cap). */
export function directPairs(v: ViewInputs, sheet: Sheet, agent: Agent): DirectPairs {
  const grid = v.grids[agent];
  const nodes = sheet.candidates.map((c, k) => ({ c, id: k + 1 })).filter((n) => feasible(agent, n.c));
  const pairs: DirectPairs = new Map(nodes.map((n) => [n.id, []]));
  for (let a = 0; a < nodes.length; a++) {
    for (let b = a + 1; b < nodes.length; b++) {
      const pa = nodes[a]!.c.world, pb = nodes[b]!.c.world;
      if (!lineOfSight(grid, [pa[0], pa[1]], [pb[0], pb[1]])) continue;
      const d = round4(Math.hypot(pa[0] - pb[0], pa[1] - pb[1]));
      pairs.get(nodes[a]!.id)!.push({ displayId: nodes[b]!.id, distance: d });
      pairs.get(nodes[b]!.id)!.push({ displayId: nodes[a]!.id, distance: d });
    }
  }
  for (const list of pairs.values()) list.sort((x, y) => x.displayId - y.displayId);
  return pairs;
}

function graphOf(pairs: DirectPairs): WeightedDigraph {
  return new Map([...pairs].map(([id, list]) => [id, new Map(list.map((e) => [e.displayId, e.distance]))]));
}

/**
 * A route question's facts on the displayed sheet (build_benchmark_evalfix_package.py): the ring
 * again over the displayed feasible waypoints, the acceptable goals, and the shortest legal route
 * over the sidecar graph to any of them (its length is optimal_length_m).
 */
function routeQuestion(unit: RouteUnit, agent: Agent, sheet: Sheet, ids: Map<number, number>, pairs: DirectPairs, startKey: number): RouteQuestion | null {
  const f = objectFootprint(unit.target.object);
  const dist = (c: Candidate): number => footprintDistance(f, [c.world[0], c.world[1]]);
  const shown = sheet.candidates.map((c, k) => ({ c, id: k + 1 }));
  const embodiedRing = goalRing(shown.filter((s) => s.c.embodiedFeasible).map((s) => dist(s.c)));
  const ring = goalRing(shown.filter((s) => feasible(agent, s.c)).map((s) => dist(s.c)), agent === "point" ? embodiedRing?.minDistance ?? 0 : 0);
  if (!ring) return null;
  const acceptable = shown.filter((s) => feasible(agent, s.c) && dist(s.c) <= ring.threshold + 1e-9).map((s) => s.id);
  const startId = ids.get(startKey)!;
  const best = shortestPathToAny(graphOf(pairs), startId, acceptable);
  if (!best || best.path.length < 2) return null;
  const route = agent === "point" ? unit.point : unit.embodied;
  const pathIds = route.keys.map((k) => ids.get(k)!);
  let canonical = 0;
  for (let k = 1; k < route.keys.length; k++) {
    const a = sheet.candidates[pathIds[k - 1]! - 1]!.world, b = sheet.candidates[pathIds[k]! - 1]!.world;
    canonical += Math.hypot(a[0] - b[0], a[1] - b[1]);
  }
  return {
    unit, agent, startId, answer: best.path, pathIds, acceptable,
    optimalLength: round4(best.length), canonicalLength: round4(canonical),
    ringMin: round4(ring.minDistance), ringThreshold: round4(ring.threshold),
  };
}

/**
 * Builds a view, or returns the reason it is rejected (no start, no target that the view names
 * and both agents reach). `maxRoutes` caps the route units kept (paper: at most 10 per view);
 * `numbering` orders the markers' numbers (sheets.ts).
 */
export function buildView(v: ViewInputs, amodal: ReadonlyMap<number, number>, rng: Rng, maxRoutes: number, numbering: Numbering): BuiltView | string {
  const start = bottomCenterStart(v, 0);
  if (!start) return "no_start";
  const pool: RoutePool = { candidates: [start, ...floorGridCandidates(v, 1)], nextKey: 0 };
  pool.nextKey = pool.candidates.length;
  const shown = shownObjects(v.camera, v.buffers, v.objectsById);
  const all = viewTargets(v.camera, shown, amodal);
  const targets = routingTargets(v.camera, v.buffers, all);
  if (targets.length === 0) return "no_targets";

  const startP: Vec2 = [start.world[0], start.world[1]];
  const trees = { point: shortestPathTree(v.grids.point, startP), embodied: shortestPathTree(v.grids.embodied, startP) };
  const side = v.camera.width;
  const units: RouteUnit[] = [];
  for (const target of targets) {
    if (units.length >= maxRoutes) break;
    const identity = explicitIdentity(target, all, side);
    if (!identity) continue;
    // The point agent's ring is never tighter than the embodied agent's closest approach.
    const embodiedCells = denseGoalCells(v.grids.embodied, objectFootprint(target.object));
    const embodiedRing = goalRing(embodiedCells.map((c) => c.d));
    if (!embodiedRing) continue;
    const point = planAgentRoute(v, pool, "point", trees.point, start, target.object, embodiedRing.minDistance);
    if (!point) continue;
    const embodied = planAgentRoute(v, pool, "embodied", trees.embodied, start, target.object, 0, embodiedCells);
    if (!embodied) continue;
    const facts = routeFacts({ target, shown: all, cueType: identity.cueType, point, embodied, embodiedMargins: { grid: v.grids.embodied, clearance: v.clearances.embodied } });
    units.push({ index: units.length, target, identity, intent: intentIdentity(target, all, side, (n) => rng.below(n)), point, embodied, facts });
  }
  if (units.length === 0) return "no_routes";

  const traversability = matchedTraversabilitySheet(v, pool.nextKey, rng, side);
  const routed = legibleRouteSheet(pool.candidates, units, side);
  if (!routed) return "no_legible_route";
  const travSheet = numberSheet(traversability, numbering, rng, side);
  const route = numberSheet(routed.laid, numbering, rng, side, start);
  const ids = displayIds(route);
  const pairs = { point: directPairs(v, route, "point"), embodied: directPairs(v, route, "embodied") };
  const questions: BuiltView["questions"] = { a2: [], b2: [], c: [] };
  for (const unit of routed.units) {
    const a2 = routeQuestion(unit, "point", route, ids, pairs.point, start.key);
    const b2 = routeQuestion(unit, "embodied", route, ids, pairs.embodied, start.key);
    // a2 and b2 are asked as a pair; c re-words an accepted b2 (same target, start and route).
    if (!a2 || !b2) continue;
    questions.a2.push(a2);
    questions.b2.push(b2);
    if (unit.intent) questions.c.push(b2);
  }
  if (questions.a2.length === 0) return "no_displayed_route";
  const labelling = { markersDropped: traversability.dropped + routed.laid.dropped, unitsDropped: units.length - routed.units.length };
  return { camera: v.camera, shown: all, traversability: travSheet, viewFacts: viewFacts(travSheet.candidates, side), route, units: routed.units, pairs, questions, labelling };
}

/** Matched triples fewer than this leave the view without a1/b1 questions (fewer than 9 markers). */
const MIN_TRIPLES = 3;

/** The a1/b1 sheet of matched floor triples (matched-floor.ts), numbered legibly; empty when the view offers too few. */
function matchedTraversabilitySheet(v: ViewInputs, firstKey: number, rng: Rng, side: number): LabelledSheet {
  const floor = visibleFloorLattice(v, firstKey);
  const b = v.buffers;
  const cues = new Map(floor.map((c) => [c.key, surroundings(b.rgb, b.width, b.height, c.image[0], c.image[1])]));
  const matched = matchTriples(floor, cues, rng, markerSpacing(P.minPixelDistPx, side));
  const none: LabelledSheet = { sheet: { candidates: [], labels: [] }, boxes: [], dropped: 0, failed: [] };
  if (matched.triples < MIN_TRIPLES) return none;
  const laid = labelSheet([], matched.candidates.slice().sort(byDepth), side);
  const balanced = balanceKinds(laid.sheet.candidates);
  if (balanced.length < 3 * MIN_TRIPLES) return none;
  const again = labelSheet([], balanced, side);
  return { ...again, dropped: laid.dropped + (laid.sheet.candidates.length - balanced.length) + again.dropped };
}

/**
 * The route sheet with every number legible: when a waypoint some route needs cannot be numbered
 * where it can be read, the units needing it are dropped (latest first) and the sheet laid out
 * again; null when no unit is left.
 */
function legibleRouteSheet(pool: readonly Candidate[], units: readonly RouteUnit[], side: number): { laid: LabelledSheet; units: RouteUnit[] } | null {
  const byKey = new Map(pool.map((c) => [c.key, c]));
  const keysOf = (u: RouteUnit) => [...u.point.keys, ...u.embodied.keys];
  let kept = units.slice();
  while (kept.length > 0) {
    const laid = routeSheet(pool, kept.flatMap(keysOf).map((k) => byKey.get(k)!), side);
    if (laid.failed.length === 0) return { laid, units: kept };
    const failed = new Set(laid.failed);
    const needs = (u: RouteUnit) => keysOf(u).some((k) => failed.has(k));
    const last = kept.map(needs).lastIndexOf(true);
    kept = kept.filter((_, i) => i !== last);
  }
  return null;
}

