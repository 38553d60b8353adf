/**
 * The challenge selection (src/benchmarks/egopath/construct/selection.ts) on hand-made facts: the
 * view and route facts worked out by hand, every axis level at and beside its thresholds, the
 * eligibility rules, and the kept set of a small made-up split (ranking, per-view cap, view quota,
 * whole bundles).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  boundaryLevel, capOneEdge, clearanceFacts, clutterLevel, embodimentGapLevel, embodimentLevel, geometryLevel, pathOverlap, polylineSamples,
  referenceLevel, routeChallenge, routeFacts, routeRejections, selectChallenge, turnsOf, viewChallenge, viewFacts, viewRejections,
  type RouteFacts, type SelectableRow, type ViewFacts,
} from "../../../../src/benchmarks/egopath/construct/selection.js";
import type { Candidate, ViewTarget } from "../../../../src/benchmarks/egopath/construct/types.js";
import type { OccupancyGrid } from "../../../../src/world/space/index.js";
import type { TaskCode } from "../../../../src/benchmarks/egopath/tasks.js";

const candidate = (x: number, y: number, pointWalkable: boolean, embodiedFeasible: boolean, pointClearanceM: number): Candidate => ({
  key: 0, source: "floor_grid", world: [0, 0, 0], image: [x, y], depth: 1, pointWalkable, embodiedFeasible,
  onObjectPixel: false, onStructuralPixel: false, occluded: false, pointClearanceM, embodiedClearanceM: 0,
});

// A(0,0) B(20,0) C(60,0) D(60,40): nearest neighbours 20, 20, 40, 40 px.
// A walkable, 0.10 m clear (near the point boundary; body margin -0.20: not near the body's), body no -> disagrees.
// B walkable, 0.35 m (margin +0.05: near the body's boundary), body yes.
// C walkable, 0.25 m (margin -0.05: near the body's boundary), body no -> disagrees, a hard negative.
// D blocked.
const SHEET = [candidate(0, 0, true, false, 0.1), candidate(20, 0, true, true, 0.35), candidate(60, 0, true, false, 0.25), candidate(60, 40, false, false, 0)];

test("view facts of a hand-made sheet: spacing at 1024 px, boundary, disagreement and hard-negative shares", () => {
  assert.deepEqual(viewFacts(SHEET, 1024), {
    candidates: 4, nnP25Px: 20, labelOverlap: 0.5, nearPointBoundary: 0.25, nearEmbodiedBoundary: 0.5, disagreement: 0.5, hardNegative: 0.25,
  });
  // At 512 px every distance counts double at the official 1024 px: 40, 40, 80, 80; none under 24 px.
  const half = viewFacts(SHEET, 512);
  assert.equal(half.nnP25Px, 40);
  assert.equal(half.labelOverlap, 0);
});

const VIEW: ViewFacts = { candidates: 50, nnP25Px: 35, labelOverlap: 0.1, nearPointBoundary: 0.2, nearEmbodiedBoundary: 0.2, disagreement: 0.2, hardNegative: 0.1 };

test("clutter, boundary and gap levels at their thresholds", () => {
  assert.equal(clutterLevel(VIEW), "medium");
  assert.equal(clutterLevel({ ...VIEW, candidates: 66 }), "high");
  assert.equal(clutterLevel({ ...VIEW, candidates: 65 }), "medium");
  assert.equal(clutterLevel({ ...VIEW, nnP25Px: 27.9 }), "high");
  assert.equal(clutterLevel({ ...VIEW, labelOverlap: 0.16 }), "high");
  assert.equal(clutterLevel({ ...VIEW, candidates: 35, nnP25Px: 42, labelOverlap: 0.05 }), "low");
  assert.equal(clutterLevel({ ...VIEW, candidates: 36, nnP25Px: 42, labelOverlap: 0.05 }), "medium");

  assert.equal(boundaryLevel(VIEW), "medium");
  assert.equal(boundaryLevel({ ...VIEW, nearPointBoundary: 0.26 }), "high");
  assert.equal(boundaryLevel({ ...VIEW, nearEmbodiedBoundary: 0.26 }), "high");
  assert.equal(boundaryLevel({ ...VIEW, nearPointBoundary: 0.25, nearEmbodiedBoundary: 0.25 }), "medium");
  assert.equal(boundaryLevel({ ...VIEW, nearPointBoundary: 0.1, nearEmbodiedBoundary: 0.1 }), "low");

  assert.equal(embodimentGapLevel(VIEW), "medium");
  assert.equal(embodimentGapLevel({ ...VIEW, disagreement: 0.31 }), "high");
  assert.equal(embodimentGapLevel({ ...VIEW, hardNegative: 0.21 }), "high");
  assert.equal(embodimentGapLevel({ ...VIEW, disagreement: 0.1, hardNegative: 0 }), "low");
});

test("a view bundle is eligible with high clutter and a high boundary or gap", () => {
  assert.deepEqual(viewRejections({ clutter: "high", boundary: "high", gap: "low" }), []);
  assert.deepEqual(viewRejections({ clutter: "high", boundary: "medium", gap: "high" }), []);
  assert.deepEqual(viewRejections({ clutter: "high", boundary: "medium", gap: "medium" }), ["boundary_and_gap_not_high"]);
  assert.deepEqual(viewRejections({ clutter: "medium", boundary: "low", gap: "low" }), ["clutter_not_high", "boundary_and_gap_not_high"]);
});

test("path helpers: length-weighted samples, turns of 20 degrees, 0.25 m cell overlap", () => {
  assert.deepEqual(polylineSamples([[0, 0], [1, 0]], 0.4), [{ p: [1 / 6, 0], w: 1 / 3 }, { p: [0.5, 0], w: 1 / 3 }, { p: [5 / 6, 0], w: 1 / 3 }]);
  assert.equal(turnsOf([[0, 0], [3, 0], [3, 4]]), 1);
  // A 19-degree bend is not a turn; a 21-degree one is.
  const bend = (deg: number): [number, number][] => [[0, 0], [1, 0], [1 + Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]];
  assert.equal(turnsOf(bend(19)), 0);
  assert.equal(turnsOf(bend(21)), 1);
  // Point path along x then y; embodied along y then x: 29 cells each, sharing only the start and goal cells.
  assert.equal(pathOverlap([[0, 0], [3, 0], [3, 4]], [[0, 0], [0, 4], [3, 4]]), Math.round((2 / 56) * 1e4) / 1e4);
  assert.equal(pathOverlap([[0, 0], [3, 0]], [[0, 0], [3, 0]]), 1);
});

/** A free 0.05 m grid from (-1, -1), 100 x 120 cells: body margin 0.10 m where the cell centre has x < 1.5, else 0.50 m. */
function margins(): { grid: OccupancyGrid; clearance: Float64Array } {
  const grid: OccupancyGrid = { origin: [-1, -1], cellSize: 0.05, width: 100, height: 120, occupied: new Uint8Array(100 * 120) };
  const clearance = new Float64Array(100 * 120);
  for (let j = 0; j < 120; j++) for (let i = 0; i < 100; i++) clearance[j * 100 + i] = -1 + 0.05 * (i + 0.5) < 1.5 ? 0.1 : 0.5;
  return { grid, clearance };
}

test("clearance facts: least margin, margin at the goal, narrow share of the length", () => {
  // 4 m at x = 0 (narrow), then 1.5 of 3 m with x < 1.5 (narrow): 5.5 of 7 m.
  assert.deepEqual(clearanceFacts([[0, 0], [0, 4], [3, 4]], margins()), { min: 0.1, goal: 0.5, narrow: Math.round((5.5 / 7) * 1e4) / 1e4 });
  assert.deepEqual(clearanceFacts([[2, 0], [3, 0]], margins()), { min: 0.5, goal: 0.5, narrow: 0 });
});

const shown = (id: number, category: string, distanceM: number): ViewTarget => ({ object: { id, category }, distanceM } as unknown as ViewTarget);

test("route facts of a hand-made unit", () => {
  const target = shown(1, "chair", 4);
  // Chairs 1-3 and an armchair share the seating family; the table does not.
  const facts = routeFacts({
    target, shown: [target, shown(2, "chair", 4.5), shown(3, "chair", 3.8), shown(4, "table", 4), shown(5, "armchair", 6)], cueType: "side",
    point: { path: [[0, 0], [3, 0], [3, 4]], keys: [10, 11, 12, 13] },
    embodied: { path: [[0, 0], [0, 4], [3, 4]], keys: [10, 14, 15] },
    embodiedMargins: margins(),
  });
  assert.deepEqual(facts, {
    resolution: "relation", cohort: 3, familyCohort: 4, runnerUpGapM: 0.2, pointLengthM: 7, detourRatio: 1.4, turns: 1, decisions: 2,
    embodiedMinMarginM: 0.1, embodiedGoalMarginM: 0.5, narrowFraction: 0.7857, extraLengthM: 0, extraDecisions: -1, overlap: 0.0357,
  });
  assert.deepEqual(routeChallenge(facts).axes, { reference: "high", geometry: "high", embodiment: "high" });
});

const ROUTE: RouteFacts = {
  resolution: "distance", cohort: 2, familyCohort: 2, runnerUpGapM: 0.5, pointLengthM: 3, detourRatio: 1.08, turns: 0, decisions: 0,
  embodiedMinMarginM: 0.07, embodiedGoalMarginM: 0.07, narrowFraction: 0.12, extraLengthM: 0.3, extraDecisions: 0, overlap: 0.9,
};

test("reference, geometry and embodiment levels at their thresholds", () => {
  assert.equal(referenceLevel(ROUTE), "medium");
  assert.equal(referenceLevel({ ...ROUTE, resolution: "category_only", cohort: 1, runnerUpGapM: null }), "low");
  assert.equal(referenceLevel({ ...ROUTE, cohort: 3 }), "high");
  assert.equal(referenceLevel({ ...ROUTE, runnerUpGapM: 0.39 }), "high");
  assert.equal(referenceLevel({ ...ROUTE, runnerUpGapM: 0.4 }), "medium");

  assert.equal(geometryLevel(ROUTE), "low");
  assert.equal(geometryLevel({ ...ROUTE, pointLengthM: 3.01 }), "medium");
  assert.equal(geometryLevel({ ...ROUTE, decisions: 1 }), "medium");
  assert.equal(geometryLevel({ ...ROUTE, turns: 2, decisions: 1 }), "high");
  assert.equal(geometryLevel({ ...ROUTE, turns: 2, decisions: 0 }), "medium");
  assert.equal(geometryLevel({ ...ROUTE, pointLengthM: 3.6, detourRatio: 1.06, turns: 1 }), "high");
  assert.equal(geometryLevel({ ...ROUTE, pointLengthM: 3.5, detourRatio: 1.06, turns: 1 }), "medium");

  assert.equal(embodimentLevel(ROUTE), "low");
  assert.equal(embodimentLevel({ ...ROUTE, narrowFraction: 0.13 }), "medium");
  assert.equal(embodimentLevel({ ...ROUTE, narrowFraction: 0.36 }), "medium", "tight but the same route");
  assert.equal(embodimentLevel({ ...ROUTE, narrowFraction: 0.36, extraDecisions: 1 }), "high");
  assert.equal(embodimentLevel({ ...ROUTE, embodiedMinMarginM: 0.04, overlap: 0.49 }), "high");
});

test("a route bundle needs a competing target (reference high) named by more than its category, and geometry at least medium", () => {
  assert.deepEqual(routeRejections(ROUTE, { reference: "high", geometry: "low", embodiment: "low" }), ["geometry_low"]);
  assert.deepEqual(routeRejections(ROUTE, { reference: "medium", geometry: "medium", embodiment: "low" }), ["reference_not_high"]);
  const cat = { ...ROUTE, resolution: "category_only" as const, cohort: 1, familyCohort: 1, runnerUpGapM: null };
  assert.deepEqual(routeChallenge({ ...cat, turns: 2, decisions: 1 }).rejections, ["reference_category_only"]);
  assert.deepEqual(routeChallenge({ ...ROUTE, turns: 2, decisions: 1 }).rejections, ["reference_not_high"]);
  assert.deepEqual(routeChallenge({ ...ROUTE, cohort: 3, turns: 2, decisions: 1 }).rejections, []);
  assert.deepEqual(routeChallenge({ ...ROUTE, runnerUpGapM: 0.39, turns: 2, decisions: 1 }).rejections, []);
});

type Row = SelectableRow;
function splitRows(): Record<TaskCode, Row[]> {
  const rows: Record<TaskCode, Row[]> = { a1: [], b1: [], a2: [], b2: [], c: [] };
  const view = (v: number, f: ViewFacts) => {
    for (const task of ["a1", "b1"] as const) rows[task].push({ question_id: `s_v${v}_${task}`, task, scene_id: "s", view_id: v, ground_truth: { challenge: viewChallenge(f) } });
  };
  const route = (v: number, r: number, f: RouteFacts, tasks: readonly ("a2" | "b2" | "c")[]) => {
    // Two-edge references: the one-edge caps have nothing to hold here (their own test is below).
    for (const task of tasks) rows[task].push({ question_id: `s_v${v}_${task}_${r}`, task, scene_id: "s", view_id: v, routing_id: `r${r}`, ground_truth: { answer: [1, 2, 3], challenge: routeChallenge(f) } });
  };
  const cluttered = { ...VIEW, candidates: 70 };
  view(0, { ...cluttered, nearPointBoundary: 0.3, disagreement: 0.4 }); // both high: first
  view(1, { ...cluttered, disagreement: 0.4 }); // gap high: eligible, second
  view(2, { ...VIEW, disagreement: 0.4 }); // clutter medium
  // Competing targets (three of the category in view): the reference is high.
  const high = { ...ROUTE, cohort: 3, turns: 2, decisions: 1 }, medium = { ...ROUTE, cohort: 3, pointLengthM: 4 };
  route(0, 0, { ...high, pointLengthM: 5 }, ["a2", "b2", "c"]);
  route(0, 1, medium, ["a2", "b2", "c"]); // third eligible of view 0: over the cap of 2
  route(0, 2, { ...high, resolution: "category_only", cohort: 1, runnerUpGapM: null }, ["a2", "b2"]);
  route(0, 3, high, ["a2", "b2"]);
  route(1, 4, medium, ["a2", "b2", "c"]);
  route(1, 5, high, ["a2"]); // no b2: incomplete
  route(2, 6, high, ["b2", "c"]); // no a2: incomplete
  route(2, 7, ROUTE, ["a2", "b2"]); // geometry low, reference medium
  return rows;
}

test("the kept set: hardest route bundles (two a view), views up to 146/309 of them, whole bundles only", () => {
  const { rows, report } = selectChallenge(splitRows());
  const ids = (t: TaskCode) => rows[t].map((r) => r.question_id);
  assert.deepEqual(ids("a2"), ["s_v0_a2_0", "s_v0_a2_3", "s_v1_a2_4"]);
  assert.deepEqual(ids("b2"), ["s_v0_b2_0", "s_v0_b2_3", "s_v1_b2_4"]);
  assert.deepEqual(ids("c"), ["s_v0_c_0", "s_v1_c_4"]);
  // round(3 x 146 / 309) = 1 view bundle: the one high on both boundary and gap.
  assert.deepEqual(ids("a1"), ["s_v0_a1"]);
  assert.deepEqual(ids("b1"), ["s_v0_b1"]);
  assert.deepEqual(report, {
    bundles: { view: 3, route: 8 },
    removed: {
      view: { clutter_not_high: 1, past_quota: 1 },
      route: { reference_category_only: 1, reference_not_high: 1, geometry_low: 1, view_route_cap: 1 },
    },
    kept: { view: 1, route: 3 },
    incomplete: 2,
  });
});

const ranked = (pattern: ReadonlyArray<[boolean, boolean]>) =>
  pattern.map(([a2, b2], k) => ({ key: `k${k}`, hardness: [pattern.length - k], view: `v${k}`, oneEdge: { a2, b2 } }));

test("one-edge caps at the paper's shares: one multi-edge a2 route lets floor(250/59) = 4 one-edge ones stay, the least hard go", () => {
  const list = ranked(Array.from({ length: 10 }, (_, k) => [k !== 0, false] as [boolean, boolean]));
  const out = capOneEdge(list, { a2: 250 / 309, b2: 135 / 309 });
  assert.deepEqual(out.kept.map((b) => b.key), ["k0", "k1", "k2", "k3", "k4"]);
  assert.equal(out.dropped, 5);
});

test("one-edge caps: a bundle dropped for b2 that was multi-edge in a2 makes a2 drop one more", () => {
  // (a2 one edge, b2 one edge): a2 holds at 2 of 4 (cap 1/2); b2 has 3 one-edge on 1 multi-edge,
  // two allowed (cap 2/3), so k3 goes; a2 is then 2 one-edge on 1 multi-edge and k2 goes.
  const list = ranked([[false, false], [true, true], [true, true], [false, true]]);
  const out = capOneEdge(list, { a2: 0.5, b2: 2 / 3 });
  assert.deepEqual(out.kept.map((b) => b.key), ["k0", "k1"]);
  assert.equal(out.dropped, 2);
});

test("the kept set's one-edge cap is counted in the report", () => {
  const rows: Record<TaskCode, Row[]> = { a1: [], b1: [], a2: [], b2: [], c: [] };
  const f = { ...ROUTE, cohort: 3, turns: 2, decisions: 1 };
  // Six eligible route bundles on six views, a2 one edge in all but the first: floor(250/59) = 4 stay one-edge.
  for (let v = 0; v < 6; v++) {
    rows.a2.push({ question_id: `a2_${v}`, task: "a2", scene_id: "s", view_id: v, routing_id: "r0", ground_truth: { answer: v === 0 ? [1, 4, 2] : [1, 2], challenge: routeChallenge({ ...f, pointLengthM: 6 - v }) } });
    rows.b2.push({ question_id: `b2_${v}`, task: "b2", scene_id: "s", view_id: v, routing_id: "r0", ground_truth: { answer: [1, 4, 2], challenge: routeChallenge({ ...f, pointLengthM: 6 - v }) } });
  }
  const { rows: kept, report } = selectChallenge(rows);
  assert.deepEqual(kept.a2.map((r) => r.question_id), ["a2_0", "a2_1", "a2_2", "a2_3", "a2_4"]);
  assert.deepEqual(report.removed.route, { one_edge_share: 1 });
  assert.equal(report.kept.route, 5);
});
