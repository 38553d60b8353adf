/**
 * The challenge selection on a small generated set (3 houses, 512 px, every house in the benchmark
 * split): the benchmark keeps whole bundles only, every kept bundle passed its eligibility rules,
 * and stats.json's Table S10 figures are recomputed here from the written rows. The same houses
 * are put together three times: bias pruning at its default, off, and at 0 (so that it removes).
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { assembleEgoPathRelease, egoPathShared, generateEgoPathHouse, generateOptions, type EgoPathHouse } from "../../../../src/benchmarks/egopath/construct/index.js";

type Json = Record<string, any>;
// Seed 11: its three houses keep four route bundles, one of them multi-edge in a2.
const OPTIONS = { seed: 11, scenes: 3, imageSide: 512, viewsPerScene: 8, splits: { train: 0, val: 0, benchmark: 1 } };
const TASKS = ["a1", "b1", "a2", "b2", "c"];
let work: string;
let root: string;
let rows: Record<string, Json[]> = {};
const variants: Record<"off" | "zero", { root: string; rows: Record<string, Json[]> }> = {} as never;

const readRows = async (dir: string): Promise<Record<string, Json[]>> =>
  Object.fromEntries(await Promise.all(TASKS.map(async (t) => [t, (await readFile(path.join(dir, `benchmark_evalfix/benchmark/vqa/vqa_next_${t}.jsonl`), "utf8")).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l))])));

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "egopath-select-"));
  const shared = egoPathShared();
  const houses: EgoPathHouse[] = [];
  try {
    for (let s = 0; s < OPTIONS.scenes; s++) houses.push(await generateEgoPathHouse({ outDir: "", ...OPTIONS }, s, shared));
  } finally {
    shared.library.close();
  }
  root = path.join(work, "set");
  await assembleEgoPathRelease({ outDir: root, ...OPTIONS }, houses, shared.catalogue);
  rows = await readRows(root);
  for (const [name, prune] of [["off", "off"], ["zero", 0]] as const) {
    const dir = path.join(work, name);
    await assembleEgoPathRelease({ outDir: dir, ...OPTIONS, prune }, houses, shared.catalogue);
    variants[name] = { root: dir, rows: await readRows(dir) };
  }
});
after(async () => rm(work, { recursive: true, force: true }));

const viewKey = (r: Json) => `${r.scene_id}/${r.view_id}`;
const routeKey = (r: Json) => `${r.scene_id}/${r.view_id}/${r.routing_id}`;
const keys = (t: string, key: (r: Json) => string) => new Set(rows[t]!.map(key));

test("the benchmark keeps whole bundles: a2 with its b2, c only with its b2, a1 with b1", () => {
  for (const t of ["a1", "a2", "b2", "c"]) assert.ok(rows[t]!.length > 0, `${t} kept some questions`);
  assert.deepEqual([...keys("a2", routeKey)].sort(), [...keys("b2", routeKey)].sort());
  const b2 = keys("b2", routeKey);
  assert.deepEqual(rows.c!.filter((r) => !b2.has(routeKey(r))).map((r) => r.question_id), []);
  assert.deepEqual([...keys("a1", viewKey)].sort(), [...keys("b1", viewKey)].sort());
});

test("every kept bundle passed its rules; at most two route bundles a view", () => {
  for (const t of ["a1", "b1", "a2", "b2", "c"]) for (const r of rows[t]!) assert.deepEqual(r.ground_truth.challenge.rejections, [], r.question_id);
  for (const r of rows.a1!) assert.equal(r.ground_truth.challenge.axes.clutter, "high");
  for (const r of rows.a2!) {
    assert.notEqual(r.ground_truth.challenge.facts.resolution, "category_only");
    assert.notEqual(r.ground_truth.challenge.axes.geometry, "low");
    assert.equal(r.ground_truth.challenge.axes.reference, "high");
    assert.notEqual(r.ground_truth.cue_type, "none");
  }
  const perView = new Map<string, number>();
  for (const r of rows.a2!) perView.set(viewKey(r), (perView.get(viewKey(r)) ?? 0) + 1);
  assert.ok(Math.max(...perView.values()) <= 2);
});

test("only the views a kept question asks about keep their pictures and sidecars", async () => {
  const asked = new Set(Object.values(rows).flat().map((r) => `${r.scene_id}/view_${r.view_id}`));
  const onDisk: string[] = [];
  for (const scene of await readdir(path.join(root, "assets"))) {
    for (const entry of await readdir(path.join(root, "assets", scene))) if (entry.startsWith("view_")) onDisk.push(`${scene}/${entry}`);
  }
  assert.deepEqual(onDisk.sort(), [...asked].sort());
  for (const task of ["a2", "b2", "c"]) {
    const dir = path.join(root, "benchmark_evalfix/benchmark/sidecars", task);
    for (const scene of await readdir(dir).catch(() => [] as string[])) {
      for (const f of await readdir(path.join(dir, scene))) assert.ok(asked.has(`${scene}/${f.replace(".direct_pairs.json", "")}`), `${task}/${scene}/${f}`);
    }
  }
});

/** numpy's default percentile: linear between the order statistics around (n - 1) q. */
function percentile(values: number[], q: number): number {
  const s = values.slice().sort((a, b) => a - b);
  const at = (s.length - 1) * q, lo = Math.floor(at), hi = Math.ceil(at);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const dist = (v: number[]) => ({ n: v.length, median: r4(percentile(v, 0.5)), p90: r4(percentile(v, 0.9)), max: r4(Math.max(...v)) });

test("stats.json: scale and route structure recomputed from the written rows, the paper's figures and the tolerances beside them", async () => {
  const stats = JSON.parse(await readFile(path.join(root, "stats.json"), "utf8"));
  const route = [...rows.a2!, ...rows.b2!, ...rows.c!];
  const all = [...rows.a1!, ...rows.b1!, ...route];
  const edges = (t: string) => rows[t]!.map((r) => r.ground_truth.answer.length - 1);
  const seg = (t: string) => ({ ...dist(edges(t)), oneEdge: r4(edges(t).filter((e) => e === 1).length / edges(t).length) });
  const expected = {
    scale: {
      scenes: new Set(all.map((r) => r.scene_id)).size,
      views: new Set(all.map(viewKey)).size,
      routes: new Set(route.map(routeKey)).size,
      targets: new Set(route.map((r) => `${r.scene_id}/${r.ground_truth.target_id}`)).size,
      questions: all.length,
      byTask: Object.fromEntries(["a1", "b1", "a2", "b2", "c"].map((t) => [t, rows[t]!.length])),
    },
    ambiguity: dist(route.map((r) => r.ground_truth.ambiguity_count_H_view)),
    familyAmbiguity: dist(route.map((r) => r.ground_truth.challenge.facts.familyCohort)),
    segments: { a2: seg("a2"), b2: seg("b2"), c: seg("c") },
    referenceLengthM: dist(route.map((r) => r.ground_truth.optimal_length_m)),
    narrowFraction: dist([...rows.b2!, ...rows.c!].map((r) => r.ground_truth.challenge.facts.narrowFraction)),
  };
  assert.deepEqual(stats.benchmark, expected);
  assert.equal(stats.paper.segments.a2.oneEdge, 0.8091);
  assert.equal(stats.paper.ambiguity.median, 4);
  // The selection (the set before pruning) holds one-edge references at the paper's shares (Table S12).
  const oneEdge = (t: string) => variants.off.rows[t]!.filter((r) => r.ground_truth.answer.length === 2).length / variants.off.rows[t]!.length;
  assert.ok(oneEdge("a2") <= 250 / 309 && oneEdge("b2") <= 135 / 309, `${oneEdge("a2")} ${oneEdge("b2")}`);
  assert.deepEqual(stats.checks.map((c: Json) => [c.signal, c.ours, c.rule, c.pass]), [
    ["one-edge share a2", expected.segments.a2.oneEdge, "<= 0.81", expected.segments.a2.oneEdge <= 0.81],
    ["one-edge share b2", expected.segments.b2.oneEdge, "<= 0.44", expected.segments.b2.oneEdge <= 0.44],
    ["median reference length (m)", expected.referenceLengthM.median, ">= 3", expected.referenceLengthM.median >= 3],
    ["median same-type ambiguity (same category)", expected.ambiguity.median, ">= 3", expected.ambiguity.median >= 3],
  ]);
  // The pool (before selection) holds at least what was kept, and the selection's counts are those of the set before pruning.
  assert.ok(stats.pool.scale.questions >= all.length);
  assert.equal(stats.selection.kept.route, new Set(variants.off.rows.a2!.map(routeKey)).size);
  assert.equal(stats.selection.kept.view, variants.off.rows.a1!.length);
});

test("the README shows the statistics beside the paper's", async () => {
  const readme = await readFile(path.join(root, "README.md"), "utf8");
  assert.match(readme, /## Benchmark challenge selection and statistics/);
  assert.match(readme, /\| same-type target ambiguity \(same category\) \| \d+ \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| 819 \| 4 \/ 8 \/ 16 \|/);
  assert.match(readme, /\| one-edge share a2 \| [\d.]+ \| 0\.8091 \| <= 0\.81 \| (met|NOT met) \|/);
});

const ids = (r: Record<string, Json[]>, t: string) => r[t]!.map((q) => q.question_id as string);

test("bias pruning: the removed questions leave the set with their bundles and nothing else does (at the default and at 0)", async () => {
  const off = JSON.parse(await readFile(path.join(variants.off.root, "stats.json"), "utf8"));
  assert.equal(off.pruning, null);
  const bundleOf = (r: Json) => (r.task === "a1" || r.task === "b1" ? viewKey(r) : routeKey(r));
  for (const [dir, kept] of [[root, rows], [variants.zero.root, variants.zero.rows]] as const) {
    const stats = JSON.parse(await readFile(path.join(dir, "stats.json"), "utf8"));
    const removed = new Set<string>(stats.pruning.removed);
    const removedBundles = new Set(TASKS.flatMap((t) => variants.off.rows[t]!.filter((r) => removed.has(r.question_id)).map(bundleOf)));
    for (const t of TASKS) {
      assert.deepEqual(ids(kept, t), ids(variants.off.rows, t).filter((id) => !removed.has(id)), t);
      // Whole bundles: a question of a removed bundle is removed too.
      assert.deepEqual(kept[t]!.filter((r) => removedBundles.has(bundleOf(r))).map((r) => r.question_id), [], t);
      const gone = ids(variants.off.rows, t).filter((id) => removed.has(id)).length;
      assert.equal(stats.pruning.tasks[t].n_before - stats.pruning.tasks[t].n_after, gone, t);
      assert.ok(gone <= Math.floor(0.5 * stats.pruning.tasks[t].n_before), `${t}: at most half`);
    }
    assert.equal(stats.benchmark.scale.questions, TASKS.reduce((n, t) => n + kept[t]!.length, 0));
    assert.match(await readFile(path.join(dir, "README.md"), "utf8"), /Bias pruning \(the last step\)/);
  }
  assert.ok(JSON.parse(await readFile(path.join(variants.zero.root, "stats.json"), "utf8")).pruning.removed.length > 0, "prune=0 removes something");
});

test("--set furnishing, selection and prune", () => {
  assert.deepEqual(generateOptions({ furnishing: "standard", selection: "off" }), { furnishing: "standard", selection: "off" });
  assert.deepEqual(generateOptions({ prune: "0.1" }), { prune: 0.1 });
  assert.deepEqual(generateOptions({ prune: "off" }), { prune: "off" });
  assert.throws(() => generateOptions({ prune: "2" }), /prune is a gap over chance between 0 and 1/);
  assert.throws(() => generateOptions({ prune: "" }), /prune is a gap over chance/);
  assert.throws(() => generateOptions({ furnishing: "sparse" }), /furnishing is dense or standard/);
  assert.throws(() => generateOptions({ selection: "all" }), /selection is paper or off/);
});
