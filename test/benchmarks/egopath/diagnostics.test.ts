import assert from "node:assert/strict";
import { test } from "node:test";
import { aggregate, egoPathScore, routeDiagnostics, setMetrics } from "../../../src/benchmarks/egopath/aggregate.js";
import { scoreRouteItem, scoreSetItem } from "../../../src/benchmarks/egopath/score.js";
import type { RouteItem, SetItem } from "../../../src/benchmarks/egopath/types.js";

// A hand-made graph: 1->2 (1 m), 2->3 (1 m), 1->3 (3 m, one way), 3->4 (1 m). Start 1, goals {3}.
const adjacency = new Map([
  [1n, new Map([[2n, 1], [3n, 3]])],
  [2n, new Map([[3n, 1]])],
  [3n, new Map([[4n, 1]])],
]);
function route(id: string, extra: Partial<RouteItem> = {}): RouteItem {
  return {
    kind: "route", id, rawId: id, task: "a2", sceneId: "s", cluster: "s", viewId: "0", imagePath: "", imageRef: "",
    systemPrompt: "", userPrompt: "", waypoints: [], groundTruth: {}, source: { file: "f", line: 1 },
    displayed: [1n, 2n, 3n, 4n, 5n], startId: 1n, acceptableGoals: [3n], optimalLengthM: 2, adjacency,
    referenceRoute: [1n, 2n, 3n], ...extra,
  };
}

test("the route stage ladder and SPL", () => {
  const item = route("q");
  const stage = (ids: bigint[] | null) => scoreRouteItem(item, ids).stage;
  assert.equal(stage(null), "parse");
  assert.equal(stage([]), "parse");
  assert.equal(stage([1n, 9n]), "invalid_id");
  assert.equal(stage([1n]), "wrong_start"); // fewer than 2 ids
  assert.equal(stage([2n, 3n]), "wrong_start");
  const illegal = scoreRouteItem(item, [1n, 2n, 4n]);
  assert.equal(illegal.stage, "illegal_edge");
  assert.deepEqual(illegal.illegalStep, { index: 1, from: 2n, to: 4n });
  assert.equal(stage([3n, 1n]), "wrong_start");
  assert.equal(stage([1n, 2n, 3n, 4n]), "wrong_goal");
  const best = scoreRouteItem(item, [1n, 2n, 3n]);
  assert.equal(best.stage, "success");
  assert.equal(best.spl, 1);
  const detour = scoreRouteItem(item, [1n, 3n]); // legal one-way shortcut, 3 m against an optimum of 2 m
  assert.equal(detour.spl, 2 / 3);
  assert.equal(stage([1n, 3n, 2n, 3n]), "illegal_edge"); // 3->2 is not listed (one-way)
});

test("traversability counts: invalid ids dropped, positives outside the candidates count as misses", () => {
  const item: SetItem = {
    kind: "set", id: "t", rawId: "t", task: "a1", sceneId: "s", cluster: "s", viewId: "0", imagePath: "", imageRef: "",
    systemPrompt: "", userPrompt: "", waypoints: [], groundTruth: {}, source: { file: "f", line: 1 },
    candidates: [1n, 2n, 3n, 4n], positives: [1n, 2n, 7n],
  };
  const o = scoreSetItem(item, [1n, 3n, 3n, 9n, 10n]);
  assert.deepEqual([o.tp, o.fp, o.fn, o.tn, o.invalid], [1, 1, 2, 1, 2]);
  const m = setMetrics("a1", 1, o);
  // P = 1/2, R = 1/3, F1 = 2·(1/2)(1/3)/(5/6) = 0.4, TNR = 1/2, BA = (1/3 + 1/2)/2 = 5/12
  assert.equal(m.precision, 0.5);
  assert.equal(m.recall, 1 / 3);
  assert.equal(m.F1, (2 * 0.5 * (1 / 3)) / (0.5 + 1 / 3));
  assert.equal(m.BA, (1 / 3 + 0.5) / 2);
  const empty = setMetrics("a1", 1, scoreSetItem(item, []));
  assert.equal(empty.BA, 0.5);
  assert.equal(empty.F1, 0);
});

test("route diagnostics: order-independent checks, conditional rate, buckets, fewer-waypoint half", () => {
  const items = [
    route("a", { referenceRoute: [1n, 3n] }),
    route("b"),
    route("c", { referenceRoute: [1n, 2n, 3n, 4n], displayed: [1n, 2n, 3n, 4n, 5n, 6n] }),
    route("d", { displayed: [1n, 2n, 3n, 4n, 5n, 6n, 7n] }),
  ];
  const answers: bigint[][] = [[1n, 2n, 3n], [1n, 2n, 4n, 3n], [1n, 3n], [2n, 3n]];
  const questions = items.map((item, i) => ({ item, outcome: scoreRouteItem(item, answers[i]!) }));
  const d = routeDiagnostics(questions);
  assert.deepEqual(d.stages, { parse: 0, invalid_id: 0, wrong_start: 1, illegal_edge: 1, wrong_goal: 0, success: 2, success_shortest: 1 });
  assert.equal(d.evaluable, 1);
  assert.equal(d.goal_consistent_endpoint, 1); // all four end at 3
  assert.equal(d.legal_first_edge, 3 / 4); // d starts at 2
  assert.equal(d.full_legality, 2 / 4);
  assert.equal(d.joint_success, 2 / 4);
  // Legal first edge and acceptable goal: a, b, c; of these only b has an illegal later step.
  assert.deepEqual(d.illegal_later_edge_given_legal_first_edge_and_goal, { n: 3, rate: 1 / 3 });
  // Point Path buckets as the paper's table script forms them (1, >=2): a: 1 reference edge (success);
  // b, d: 2 edges (illegal step, wrong start) and c: 3 edges (success) -> ">=2" with 1 success in 3.
  assert.deepEqual(d.by_reference_edges.map((b) => [b.edges, b.n, b.joint_success]), [["1", 1, 1], [">=2", 3, 1 / 3]]);
  // Fewer-waypoint half: the two questions with 5 waypoints (a, b).
  assert.equal(d.fewer_waypoints_half.n, 2);
  assert.equal(d.fewer_waypoints_half.max_waypoints, 5);
  assert.equal(d.fewer_waypoints_half.joint_success, 0.5);
});

test("EgoPath Score and its official rounding", () => {
  assert.equal(egoPathScore({ a1: 0.75, b1: 0.5, a2: 0.4, b2: 0.2, c: 0.1 }), (0.5 + 0 + 0.4 + 0.2 + 0.1) / 5);
  const q = (id: string, ids: bigint[]) => ({ item: route(id), outcome: scoreRouteItem(route(id), ids) });
  const agg = aggregate([q("x", [1n, 2n, 3n]), q("y", [1n, 3n]), q("z", [])], ["a2"], { bootstrapResamples: 0, bootstrapSeed: 1 });
  assert.equal(agg.score, null); // not all five tasks
  assert.deepEqual(agg.tasks.a2!.official, {
    total: 3, success: 2, valid_id_rate: 0.6667, valid_path_rate: 0.6667, valid_edge_rate: 0.6667,
    success_rate: 0.6667, spl: 0.8333, spl_all: 0.5556,
  });
});
