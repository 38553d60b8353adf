import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import type { AuditDocument } from "../../../src/audit/audit.js";
import type { ItemResult, ScoresDocument } from "../../../src/core/benchmark.js";
import { setMetrics } from "../../../src/benchmarks/egopath/aggregate.js";
import { egopathBaselines } from "../../../src/benchmarks/egopath/baselines.js";
import { egopath } from "../../../src/benchmarks/egopath/index.js";
import { normalizeReply } from "../../../src/benchmarks/egopath/parse.js";
import { egopathMarkdown, egopathTerminal, LABEL_FREE_ROW } from "../../../src/benchmarks/egopath/report.js";
import { labelFreeRouteExpectation, labelFreeSetBA } from "../../../src/benchmarks/egopath/route-chance.js";
import { scoreRouteItem, scoreSetItem } from "../../../src/benchmarks/egopath/score.js";
import type { EgoPathItem, RouteItem, SetItem } from "../../../src/benchmarks/egopath/types.js";
import { blindMarkdown, blindReferences } from "../../../src/report/blind-rows.js";
import { leaderboard } from "../../../src/report/export/leaderboard.js";

const CONFORMANCE = path.resolve(import.meta.dirname, "../../fixtures/egopath/conformance");

const graph = (edges: Array<[number, number]>) => {
  const out = new Map<bigint, Map<bigint, number>>();
  for (const [a, b] of edges) (out.get(BigInt(a)) ?? out.set(BigInt(a), new Map()).get(BigInt(a))!).set(BigInt(b), 1);
  return out;
};
function route(id: string, displayed: number[], start: number, goals: number[], edges: Array<[number, number]>, extra: Partial<RouteItem> = {}): RouteItem {
  return {
    kind: "route", id, rawId: id, task: "a2", sceneId: "s", cluster: "s", viewId: "0", imagePath: "", imageRef: "",
    systemPrompt: "", userPrompt: "", waypoints: [], groundTruth: {}, source: { file: "f", line: 1 },
    displayed: displayed.map(BigInt), startId: BigInt(start), acceptableGoals: goals.map(BigInt), optimalLengthM: 1,
    adjacency: graph(edges), graph: "direct_pairs", referenceRoute: [], ...extra,
  };
}
function setItem(id: string, candidates: number[], positives: number[]): SetItem {
  return {
    kind: "set", id, rawId: id, task: "a1", sceneId: "s", cluster: "s", viewId: "0", imagePath: "", imageRef: "",
    systemPrompt: "", userPrompt: "", waypoints: [], groundTruth: {}, source: { file: "f", line: 1 },
    candidates: candidates.map(BigInt), positives: positives.map(BigInt),
  };
}

// A: start 1, goal 3; 1->3 directly, 1->2->3, 3->4. Hand count (n - 1 = 3 choices a step):
// goal walks W = [1, 1, 0, 0], all legal walks [2, 2, 1, 0]:
// SR = (1/3 + 1/9)/4 = 1/9, VPR = (2/3 + 2/9 + 1/27)/4 = 25/108.
const ONE_STEP = route("one", [1, 2, 3, 4], 1, [3], [[1, 3], [1, 2], [2, 3], [3, 4]]);
// B: start 1, goal 4, no 1->4: the goal needs 2 legal steps (1->2->4). A sidecar self-loop 2->2 and
// a step to the undisplayed 9 are never drawn. Hand count (4 choices a step): goal walks
// [0, 1, 0, 3], all legal walks [2, 3, 5, 8]: SR = (1/16 + 3/256)/4 = 19/1024,
// VPR = (2/4 + 3/16 + 5/64 + 8/256)/4 = 51/256.
const TWO_STEPS = route("two", [1, 2, 3, 4, 5], 1, [4], [[1, 2], [1, 5], [2, 1], [2, 4], [4, 2], [5, 1], [2, 2], [1, 9]]);
// ONE_STEP on the legacy contract: display ids -> graph waypoints 101..104, display 5 unmapped.
const LEGACY = route("legacy", [1, 2, 3, 4, 5], 1, [3], [[101, 103], [101, 102], [102, 103], [103, 104]], {
  graph: "waypoint_graph", displayToGraph: new Map([[1n, 101n], [2n, 102n], [3n, 103n], [4n, 104n]]),
});

/** Every answer the label-free guess can give, with its probability, scored by the scorer: expected SR and VPR. */
function bruteForce(item: RouteItem): { SR: number; VPR: number } {
  const ids = [...new Set(item.displayed)];
  let SR = 0;
  let VPR = 0;
  const walk = (sequence: bigint[], left: number, p: number) => {
    if (left === 0) {
      const outcome = scoreRouteItem(item, sequence);
      if (outcome.success) SR += p;
      if (outcome.validPath) VPR += p;
      return;
    }
    const choices = ids.filter((id) => id !== sequence[sequence.length - 1]);
    for (const id of choices) walk([...sequence, id], left - 1, p / choices.length);
  };
  for (let steps = 1; steps <= 4; steps++) walk([item.startId], steps, 1 / 4);
  return { SR, VPR };
}

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);

test("random-route replies: the start, then 1-4 displayed ids, never the same id twice in a row; seeded; sets as random", () => {
  const seen = new Set<number>();
  for (let seed = 0; seed < 300; seed++) {
    const text = egopathBaselines["random-route"]!.reply(TWO_STEPS, seed);
    assert.equal(text, egopathBaselines["random-route"]!.reply(TWO_STEPS, seed));
    const read = normalizeReply(text, undefined);
    assert.ok(read.ok);
    const ids = read.ids;
    assert.equal(ids[0], 1n);
    assert.ok(ids.length >= 2 && ids.length <= 5, `length ${ids.length}`);
    seen.add(ids.length);
    for (let i = 1; i < ids.length; i++) {
      assert.notEqual(ids[i], ids[i - 1]);
      assert.ok(TWO_STEPS.displayed.includes(ids[i]!));
    }
  }
  assert.deepEqual([...seen].sort(), [2, 3, 4, 5]);
  const set = setItem("s", [1, 2, 3, 4, 5, 6], [1, 2]);
  for (const seed of [0, 1, 7]) assert.equal(egopathBaselines["random-route"]!.reply(set, seed), egopathBaselines["random"]!.reply(set, seed));
  // Only the start displayed: nothing to step to, an answer of one id.
  assert.equal(egopathBaselines["random-route"]!.reply(route("alone", [1], 1, [1], []), 3), JSON.stringify({ display_ids: [1] }));
});

test("expected SR and VPR: the hand counts and brute-force enumeration of every answer", () => {
  const one = labelFreeRouteExpectation(ONE_STEP);
  close(one.SR, 1 / 9);
  close(one.VPR, 25 / 108);
  const two = labelFreeRouteExpectation(TWO_STEPS);
  close(two.SR, 19 / 1024);
  close(two.VPR, 51 / 256);
  for (const item of [ONE_STEP, TWO_STEPS, LEGACY]) {
    const brute = bruteForce(item);
    const exact = labelFreeRouteExpectation(item);
    close(exact.SR, brute.SR);
    close(exact.VPR, brute.VPR);
  }
  // Legacy: 4 choices a step now (5 displayed), goal walks [1, 1, 0, 0]: (1/4 + 1/16)/4 = 5/64.
  close(labelFreeRouteExpectation(LEGACY).SR, 5 / 64);
  // A start that is not displayed fails at its first id.
  assert.deepEqual(labelFreeRouteExpectation({ ...ONE_STEP, id: "gone", startId: 7n }), { VPR: 0, SR: 0 });
});

test("expected traversability BA: every subset of the candidates, scored and pooled", () => {
  // One walkable id (7) is not a candidate, so recall tops out at 2/3 and the BA chance is below 0.5.
  const items = [setItem("p", [1, 2, 3, 4], [1, 2, 7]), setItem("q", [5, 6, 8], [5])];
  const candidates = items.flatMap((item) => item.candidates.map((id) => ({ item, id })));
  let expected = 0;
  const all = 2 ** candidates.length;
  for (let mask = 0; mask < all; mask++) {
    const picked = candidates.filter((_, k) => (mask >> k) & 1);
    const c = { tp: 0, fp: 0, fn: 0, tn: 0, invalid: 0 };
    for (const item of items) {
      const o = scoreSetItem(item, picked.filter((p) => p.item === item).map((p) => p.id));
      c.tp += o.tp; c.fp += o.fp; c.fn += o.fn; c.tn += o.tn;
    }
    expected += setMetrics("a1", items.length, c).BA / all;
  }
  // By hand: recall (3 of 4 positives pickable) 3/8, TNR 1/2: BA 7/16.
  close(expected, 7 / 16);
  close(labelFreeSetBA(items), expected);
});

/** A run on the conformance fixture, every question answered with `answer`. */
function runOf(items: EgoPathItem[], tasks: string[], model: string, answer: (item: EgoPathItem) => bigint[]): ScoresDocument {
  const results: ItemResult[] = items.map((item) => ({ id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer: { status: "ok", value: answer(item) } }));
  const summary = egopath.summarize(items, results, tasks, { bootstrapResamples: 0, bootstrapSeed: 1 });
  return { benchmark: "egopath", model, name: model, n_total: items.length, data: CONFORMANCE, ...summary } as unknown as ScoresDocument;
}

test("the chance row of every EgoPath table: report.md, the terminal, the chance-and-blind table, the leaderboard", async () => {
  const { items, tasks, problems } = egopath.load(CONFORMANCE, undefined, {});
  assert.deepEqual(problems, []);
  // Independent expectations: routes by enumerating every answer; sets as the mean of the
  // all-candidates and no-candidate answers' pooled counts (each candidate is picked with
  // probability 1/2 and recall and TNR have fixed denominators).
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const expected: Record<string, number> = {};
  const vpr: Record<string, number> = {};
  for (const code of ["a2", "b2", "c"]) {
    const brute = (items.filter((i) => i.task === code) as RouteItem[]).map(bruteForce);
    expected[code] = mean(brute.map((b) => b.SR));
    vpr[code] = mean(brute.map((b) => b.VPR));
  }
  for (const code of ["a1", "b1"]) {
    const own = items.filter((i) => i.task === code) as SetItem[];
    const pooled = (pick: (item: SetItem) => bigint[]) => {
      const c = { tp: 0, fp: 0, fn: 0, tn: 0, invalid: 0 };
      for (const item of own) {
        const o = scoreSetItem(item, pick(item));
        c.tp += o.tp; c.fp += o.fp; c.fn += o.fn; c.tn += o.tn;
      }
      return c;
    };
    const everything = pooled((item) => item.candidates);
    const nothing = pooled(() => []);
    const recall = everything.tp / Math.max(everything.tp + everything.fn, 1);
    const tnr = nothing.tn / Math.max(nothing.tn + nothing.fp, 1);
    expected[code] = (recall + tnr) / 2 / 2;
  }
  const score = (2 * expected["a1"]! - 1 + (2 * expected["b1"]! - 1) + expected["a2"]! + expected["b2"]! + expected["c"]!) / 5;

  const oracle = runOf(items, tasks, "oracle", (item) => (item.kind === "set" ? item.positives : item.referenceRoute));
  const stay = runOf(items, tasks, "start-only", (item) => (item.kind === "set" ? [] : [item.startId]));
  const recorded = oracle["label_free_chance"] as { headline: Record<string, number>; VPR: Record<string, number>; overall: number };
  for (const code of Object.keys(expected)) close(recorded.headline[code]!, expected[code]!);
  for (const code of Object.keys(vpr)) close(recorded.VPR[code]!, vpr[code]!);
  close(recorded.overall, score);

  const pct = (v: number) => (100 * v).toFixed(1);
  const row = `| ${LABEL_FREE_ROW} | – | ${pct(score)} | ${pct(expected["a1"]!)} | – | ${pct(expected["b1"]!)} | – | ` +
    ["a2", "b2", "c"].map((code) => `${pct(vpr[code]!)} | ${pct(expected[code]!)} | –`).join(" | ") + " |";
  const markdown = egopathMarkdown([oracle, stay]);
  const lines = markdown.split("\n");
  // One row under both runs (they asked the same questions), right after them in the score table.
  assert.deepEqual(lines.filter((l) => l.includes(LABEL_FREE_ROW) && l.startsWith("|")), [row]);
  assert.ok(lines[lines.indexOf(row) - 1]!.startsWith("| start-only |"));
  assert.ok(egopathTerminal(oracle).includes(
    `${LABEL_FREE_ROW}: a1 BA ${pct(expected["a1"]!)} · b1 BA ${pct(expected["b1"]!)} · a2 SR ${pct(expected["a2"]!)} · b2 SR ${pct(expected["b2"]!)} · c SR ${pct(expected["c"]!)} · Score ${pct(score)}`,
  ));

  // The chance-and-blind table and the leaderboard: the label-free value replaces the audit's chance (kept in brackets where it differs).
  const audited: AuditDocument = {
    benchmark: "egopath", n: items.length, folds: 5, seed: 1,
    tasks: Object.fromEntries(["a1", "b1", "a2", "b2", "c"].map((code) => [code, {
      metric: code.endsWith("1") ? "BA" : "SR", n: 1, chance: code.endsWith("1") ? 0.5 : 0.25, answers: {}, blind: [], blind_best: null, blind_selected: null, tst: null, cues: null,
    }])) as unknown as AuditDocument["tasks"],
    overall: { metric: "EgoPath Score", chance: 0.125, blind_best: null, tst: null },
  };
  const references = await blindReferences([oracle, stay], [{ document: { ...audited, data: CONFORMANCE } as AuditDocument & { data: string } }]);
  assert.equal(references.length, 1);
  const blind = blindMarkdown(references, [oracle, stay], (run) => String(run.model));
  assert.ok(blind.includes(`| a1 | BA | ${pct(expected["a1"]!)} |`));
  for (const code of ["a2", "b2", "c"]) assert.ok(blind.includes(`| ${code} | SR | ${pct(expected[code]!)} (audit chance 25.0) |`), code);
  const board = leaderboard([oracle, stay], references);
  assert.equal(board.rows.find((r) => r.run === "chance")!.cells.get("egopath")!.text, pct(score));
  // A run that asked fewer questions than the audit leaves the audit's chance in place.
  const partial = await blindReferences([{ ...stay, n_total: items.length - 1 } as ScoresDocument], [{ document: { ...audited, data: CONFORMANCE } as AuditDocument & { data: string } }]);
  assert.equal(partial[0]!.labelFree, undefined);
  assert.equal(leaderboard([stay], partial).rows.find((r) => r.run === "chance")!.cells.get("egopath")!.text, "12.5");
});
