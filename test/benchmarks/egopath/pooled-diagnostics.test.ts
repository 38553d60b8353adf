import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import type { ItemResult, ScoresDocument } from "../../../src/core/benchmark.js";
import { UsageError } from "../../../src/core/problems.js";
import { routeDiagnostics, scoreVariants } from "../../../src/benchmarks/egopath/aggregate.js";
import { emptyTally, paperFlags, poolRouteCounts, referenceBucket, routeCounts, strictVisibility } from "../../../src/benchmarks/egopath/diagnostics.js";
import { egopath, splitName } from "../../../src/benchmarks/egopath/index.js";
import { egopathMarkdown } from "../../../src/benchmarks/egopath/report.js";
import { scoreRouteItem } from "../../../src/benchmarks/egopath/score.js";
import type { RouteItem } from "../../../src/benchmarks/egopath/types.js";

// The graph of diagnostics.test.ts: 1->2, 2->3, 1->3 (one way), 3->4. Start 1, goals {3}.
const adjacency = new Map([
  [1n, new Map([[2n, 1], [3n, 3]])],
  [2n, new Map([[3n, 1]])],
  [3n, new Map([[4n, 1]])],
]);
const range = (k: number) => Array.from({ length: k }, (_, i) => BigInt(i + 1));
function route(id: string, displayed: number, referenceRoute: bigint[], groundTruth: Record<string, unknown>): RouteItem {
  return {
    kind: "route", id, rawId: id, task: "b2", sceneId: "s", cluster: "s", viewId: "0", imagePath: "", imageRef: "",
    systemPrompt: "", userPrompt: "", waypoints: [], groundTruth, source: { file: "f", line: 1 },
    displayed: range(displayed), startId: 1n, acceptableGoals: [3n], optimalLengthM: 2, adjacency, graph: "direct_pairs", referenceRoute,
  };
}
const STRICT_RELEASE = {
  routing_complexity: { path_visible_point_fraction: 1, path_projection_safe: true, dense_path_projection_safe: true, target_bbox_short_side_px: 64.9, target_visible_surface_ratio: 0.5 },
  human_visible_legality: "legal", human_visible_uniqueness: "unique", prompt_answer_leakage: false,
  navigation_validity: { check_results: { start_in_bottom_band: true, start_in_forward_sector: true, goal_in_target_zone: true } },
};
const items = [
  route("q1", 5, [1n, 2n, 3n], { target_bbox_px: [0, 0, 100, 80], target_visible_fraction: 0.6 }), // strict (short side 80)
  route("q2", 6, [1n, 3n], { target_bbox_px: [0, 0, 100, 50], target_visible_fraction: 0.9 }), // short side 50: not strict
  route("q3", 7, [1n, 2n, 3n, 4n], {}), // no visibility fields
  route("q4", 5, [1n], { target_bbox_px: [10, 10, 80, 90], target_visible_fraction: 0.5 }), // strict; 0 reference edges
  route("q5", 8, [1n, 2n], STRICT_RELEASE),
];
const answers: Array<bigint[] | null> = [[1n, 2n, 3n], [1n, 2n, 4n, 3n], [2n, 3n], [1n, 9n, 3n], null];
const questions = items.map((item, i) => ({ item, outcome: scoreRouteItem(item, answers[i]!) }));

test("paper flags: endpoint hit needs no valid ids; illegal edge needs valid ids; full success needs the start", () => {
  const f = items.map((item, i) => paperFlags(item, answers[i]!));
  assert.deepEqual(f.map((x) => x.endpointHit), [true, true, true, true, false]);
  assert.deepEqual(f.map((x) => x.candidateValid && !x.edgeLegal), [false, true, false, false, false]);
  assert.deepEqual(f.map((x) => x.fullSuccess), [true, false, false, false, false]);
  // One id that is both the start and a goal: a full success for the table script (the evaluator needs 2 ids).
  const single = route("s", 5, [1n], {});
  assert.equal(paperFlags({ ...single, acceptableGoals: [1n] }, [1n]).fullSuccess, true);
  assert.equal(scoreRouteItem({ ...single, acceptableGoals: [1n] }, [1n]).success, false);
});

test("reference buckets as the paper's table script: Point 1 / >=2; others 1 / 2 / >=3; 0 edges in the top bucket", () => {
  assert.deepEqual([[1n, 2n], [1n, 2n, 3n], [1n]].map((r) => referenceBucket("a2", r)), ["1", ">=2", ">=2"]);
  assert.deepEqual([[1n, 2n], [1n, 2n, 3n], [1n, 2n, 3n, 4n, 5n], []].map((r) => referenceBucket("c", r)), ["1", "2", ">=3", ">=3"]);
});

test("strict visibility: the release rule needs every admission check; generated sets use the two thresholds", () => {
  assert.deepEqual(strictVisibility(STRICT_RELEASE), { strict: true, rule: "release" });
  assert.deepEqual(strictVisibility({ ...STRICT_RELEASE, prompt_answer_leakage: undefined }), { strict: false, rule: "release" });
  const small = { ...STRICT_RELEASE, routing_complexity: { ...STRICT_RELEASE.routing_complexity, target_bbox_short_side_px: 63.99 } };
  assert.deepEqual(strictVisibility(small), { strict: false, rule: "release" }); // int(63.99) = 63
  assert.deepEqual(strictVisibility({ target_bbox_px: [0, 0, 64, 64], target_visible_fraction: 0.49 }), { strict: false, rule: "generator" });
  assert.equal(strictVisibility({}), undefined);
});

test("route counts of one run (hand-counted)", () => {
  const c = routeCounts("b2", questions);
  // evaluable q1 q2 q3; endpoint q1-q4; legal first edge q1 q2; VPR q1; full success q1; illegal edge q2;
  // S11: legal first edge and endpoint q1 q2, later illegal q2.
  assert.deepEqual(c.all, {
    n: 5, evaluable: 3, endpoint_hit: 4, legal_first_edge: 2, full_legality: 1, full_success: 1, illegal_edge: 1,
    later_illegal_after_legal_first: 1, legal_first_and_endpoint: 2, later_illegal_after_legal_first_and_endpoint: 1,
  });
  const b = Object.fromEntries(c.by_reference_edges.map((x) => [x.edges, [x.questions, x.n, x.endpoint_hit, x.full_success, x.illegal_edge]]));
  assert.deepEqual(b, { "1": [2, 2, 1, 0, 1], "2": [1, 1, 1, 1, 0], ">=3": [2, 2, 2, 0, 0] }); // 1: q2 q5; 2: q1; >=3: q3 q4
  // Fewest displayed waypoints: q1 (5) and q4 (5).
  assert.deepEqual(c.fewer_waypoints_half, {
    n: 2, evaluable: 1, endpoint_hit: 2, legal_first_edge: 1, full_legality: 1, full_success: 1, illegal_edge: 0,
    later_illegal_after_legal_first: 0, legal_first_and_endpoint: 1, later_illegal_after_legal_first_and_endpoint: 0, max_waypoints: 5,
  });
  // Strict: q1, q4 (generated-set fields) and q5 (release fields); q3 unknown.
  assert.deepEqual({ ...c.strict_visibility }, {
    ...emptyTally(), n: 3, evaluable: 1, endpoint_hit: 2, legal_first_edge: 1, full_legality: 1, full_success: 1,
    legal_first_and_endpoint: 1, questions_unknown: 1, rule: "mixed",
  });
  const d = routeDiagnostics(questions, "b2");
  assert.deepEqual(d.illegal_later_edge_given_legal_first_edge_and_goal, { n: 2, rate: 0.5 }); // Table S11(a)
  assert.deepEqual(d.fewer_waypoints_half.illegal_later_edge_given_legal_first_edge_and_goal, { n: 1, rate: 0 }); // S11(b)
  assert.deepEqual(d.illegal_later_edge_given_legal_first_edge, { n: 2, rate: 0.5 });
  assert.equal(d.illegal_edge, 1 / 5); // Table S7 "Illegal"
  assert.equal(d.strict_visibility.gap, 2 / 3 - 1 / 3);
});

test("pooling adds predictions; question counts stay per question only when the runs agree", () => {
  const one = routeCounts("b2", questions);
  const pooled = poolRouteCounts([one, one]);
  assert.equal(pooled.same_questions, true);
  assert.equal(pooled.all.n, 10);
  assert.equal(pooled.all.later_illegal_after_legal_first_and_endpoint, 2);
  assert.deepEqual(pooled.by_reference_edges.map((x) => [x.edges, x.questions, x.n]), [["1", 2, 4], ["2", 1, 2], [">=3", 2, 4]]);
  assert.equal(pooled.fewer_waypoints_half.max_waypoints, 5);
  assert.equal(pooled.strict_visibility.questions_unknown, 2);
  assert.equal(one.all.n, 5); // the inputs are not changed
  const fewer = poolRouteCounts([one, routeCounts("b2", questions.slice(0, 4))]);
  assert.equal(fewer.same_questions, false);
  assert.equal(fewer.all.n, 9);
});

test("score variants: SR replaced by SPL; families weighted equally", () => {
  const v = scoreVariants({ a1: 0.75, b1: 0.6 }, { a2: 0.3, b2: 0.1, c: 0.2 }, { a2: 0.25, b2: 0.05, c: 0.1 });
  // primary (0.5 + 0.2 + 0.3 + 0.1 + 0.2) / 5 = 0.26; SPL (0.5 + 0.2 + 0.25 + 0.05 + 0.1) / 5 = 0.22;
  // family 0.5·(0.5 + 0.2)/2 + 0.5·(0.6/3) = 0.175 + 0.1 = 0.275
  assert.ok(Math.abs(v.primary - 0.26) < 1e-15);
  assert.ok(Math.abs(v.spl_based - 0.22) < 1e-15);
  assert.ok(Math.abs(v.family_weighted - 0.275) < 1e-15);
});

// ------------------------------------------------------------------ splits and the report

const LEGACY = path.resolve(import.meta.dirname, "../../fixtures/egopath-legacy");

test("--split names: test (default) | val | train", () => {
  assert.equal(splitName(undefined), "test");
  assert.equal(splitName("benchmark"), "test");
  assert.equal(splitName(" Val "), "val");
  assert.equal(splitName("train"), "train");
  assert.throws(() => splitName("dev"), UsageError);
});

function scoresOf(split: string, answer: (id: string) => number[] | null, name: string): ScoresDocument {
  const bench = egopath.configure!({ split });
  const { items, tasks, problems } = bench.load(LEGACY, undefined, {});
  assert.deepEqual(problems, []);
  const results: ItemResult[] = items.map((item) => {
    const ids = answer(item.id);
    return { id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer: ids ? { status: "ok", value: ids.map(BigInt) } : { status: "missing", value: null } };
  });
  return { benchmark: "egopath", model: name, name, ...bench.summarize(items, results, tasks, { bootstrapResamples: 0, bootstrapSeed: 1 }) } as ScoresDocument;
}

test("a split is loaded, recorded in scores.json and shown in the report; two runs are pooled", () => {
  const val = scoresOf("val", () => [1, 2], "walker");
  assert.equal(val["split"], "val");
  assert.deepEqual(val["routing_contract"], { direct_pairs: 0, waypoint_graph: 2 });
  assert.deepEqual(Object.keys(val.tasks), ["intent_path"]);
  const train = [scoresOf("train", () => [1, 2], "a"), scoresOf("train", (id) => (id.endsWith("01") ? [1, 2, 3] : null), "b")];
  assert.equal(train[0]!["split"], "train");
  const md = egopathMarkdown([...train, val]);
  assert.match(md, /\| a \| train \| 17 \| none \| 0 sidecar, 15 legacy waypoint graph \|/);
  assert.match(md, /\| walker \| val \| 2 \| none \| 0 sidecar, 2 legacy waypoint graph \|/);
  // The two train runs are pooled (same split, no control); the val run is not.
  assert.match(md, /### Route diagnostics pooled over 2 runs \(train split; the paper pools nine models\)/);
  assert.match(md, /Pooled runs: a, b\. Left out: 1 run\(s\)/);
  // Pooled Point Path: 12 questions × 2 runs.
  assert.match(md, /\| Point Path \| 24 \|/);
  // Fewer than two runs with all five tasks: no sensitivity table.
  assert.doesNotMatch(md, /Score sensitivity/);
});

// ------------------------------------------------------------------ score sensitivity and the human reference

function fakeRun(name: string, score: number, variants: { primary: number; spl_based: number; family_weighted: number } | null): ScoresDocument {
  const m = (BA: number) => ({ BA, F1: 0.5, n: 2 });
  const r = (SR: number, VPR: number) => ({ SR, VPR, SPL: SR / 2, n: 3 });
  return {
    benchmark: "egopath", model: name, name, n: 13, score, score_variants: variants, split: "test",
    tasks: { point_traversability: m(0.8), embodied_traversability: m(0.7), point_path: r(0.3, 0.6), embodied_path: r(0.1, 0.3), intent_path: r(0.2, 0.3) },
    counts: { parse_failures: 0, errors: 0, missing: 0 }, n_total: 13, n_scored: 13, complete: true, score_complete: true,
  } as unknown as ScoresDocument;
}

test("score sensitivity: ranks under each definition and Spearman's ρ with the primary ranking", () => {
  const runs = [
    fakeRun("x", 0.3, { primary: 0.3, spl_based: 0.25, family_weighted: 0.1 }),
    fakeRun("y", 0.2, { primary: 0.2, spl_based: 0.22, family_weighted: 0.2 }),
    fakeRun("z", 0.1, { primary: 0.1, spl_based: 0.05, family_weighted: 0.3 }),
    fakeRun("w", 0.1, null), // not all five tasks: left out
  ];
  const md = egopathMarkdown(runs);
  assert.match(md, /3 runs with all five tasks scored \(1 without: left out\)/);
  assert.match(md, /\| x \| 30\.0 \| 1 \| 25\.0 \| 1 \| 10\.0 \| 3 \|/);
  // SPL keeps the order (ρ = 1); family weighting reverses it (ρ = −1).
  assert.match(md, /SPL-based 1\.000; family-weighted -1\.000\./);
  const two = egopathMarkdown(runs.slice(0, 2));
  assert.match(two, /SPL-based undefined \(needs at least 3 runs/);
});

test("score sensitivity: one table per split, runs with a control left out", () => {
  const run = (name: string, primary: number, split: string, control?: string) => ({
    ...fakeRun(name, primary, { primary, spl_based: primary / 2, family_weighted: primary / 4 }),
    split,
    ...(control ? { control } : {}),
  }) as ScoresDocument;
  const md = egopathMarkdown([run("a", 0.3, "test"), run("b", 0.1, "test"), run("c", 0.2, "test", "text-only"), run("d", 0.4, "val"), run("e", 0.5, "val")]);
  // a, b (test) and d, e (val) are ranked apart; c (text-only) is in neither table.
  assert.match(md, /### Score sensitivity \(supplement, aggregate-score sensitivity\), test split\n\n2 runs with all five tasks scored\. Left out: 3 run\(s\) with a control or another split\./);
  assert.match(md, /### Score sensitivity \(supplement, aggregate-score sensitivity\), val split\n/);
  assert.match(md, /\| a \| 30\.0 \| 1 \| 15\.0 \| 1 \| 7\.5 \| 1 \|\n\| b \| 10\.0 \| 2 \|/);
  assert.match(md, /\| d \| 40\.0 \| 2 \| 20\.0 \| 2 \| 10\.0 \| 2 \|\n\| e \| 50\.0 \| 1 \|/);
  assert.doesNotMatch(md, /\| c \| 20\.0 \| \d \|/);
  // One split: the heading names none.
  assert.match(egopathMarkdown([run("a", 0.3, "test"), run("b", 0.1, "test")]), /### Score sensitivity \(supplement, aggregate-score sensitivity\)\n/);
});

test("same-question human reference chart: the paper's numbers (Table S9) beside each complete run", async () => {
  const { egopathCharts, PAPER_SAME_QUESTION_REFERENCE } = await import("../../../src/benchmarks/egopath/charts.js");
  const { assertBar, barSlot, chart } = await import("../../helpers/svg-check.js");
  assert.deepEqual(PAPER_SAME_QUESTION_REFERENCE.map((r) => [r.score, r.vpr, r.sr]), [[0.542, 0.7, 0.467], [0.286, 0.267, 0.133]]);
  const svg = chart(egopathCharts([fakeRun("x", 0.3, null)]), /same-question human reference/);
  // 3 groups × 3 series: human, GPT-5.5, the run (score 0.3; route VPR mean (0.6+0.3+0.3)/3 = 0.4; SR mean 0.2).
  const want = [[0.542, 0.7, 0.467], [0.286, 0.267, 0.133], [0.3, 0.4, 0.2]];
  want.forEach((values, i) => values.forEach((v, g) => assertBar(svg, barSlot(g, 3, i, 3), v)));
  assert.match(svg, /Human \(paper, 50-question subset\)/);
});
