import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import { generateSyntheticRelease, TASK_CODES } from "../../../src/benchmarks/egopath/synthetic/index.js";

type Json = Record<string, any>;

const EXAMPLE = path.resolve("examples/egopath-mini");
let work: string;
let dirA: string;
let counts: Record<string, number>;

async function listFiles(root: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(root, r)));
    else out.push(r);
  }
  return out.sort();
}

const readJson = async (file: string): Promise<Json> => JSON.parse(await readFile(file, "utf8"));
const readJsonl = async (file: string): Promise<Json[]> =>
  (await readFile(file, "utf8")).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

/** The official evaluator's edge table: distance_m, else the 3-D distance of the two world_xyz. */
function edgeTable(sidecar: Json, waypoints: Json[]): Map<number, Map<number, number>> {
  const xyz = new Map<number, number[]>(waypoints.map((w) => [w.display_id, w.world_xyz]));
  const adj = new Map<number, Map<number, number>>();
  for (const [src, entries] of Object.entries(sidecar.direct_neighbors as Record<string, Json[]>)) {
    const m = new Map<number, number>();
    for (const e of entries) {
      let d = e.distance_m;
      if (d === undefined) {
        const a = xyz.get(Number(src))!;
        const b = xyz.get(e.display_id)!;
        const [dx, dy, dz] = [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
        d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      }
      m.set(e.display_id, d);
    }
    adj.set(Number(src), m);
  }
  return adj;
}

/** Bellman-Ford shortest distances from `start` (an independent check on the generator's Dijkstra). */
function bellmanFord(adj: Map<number, Map<number, number>>, start: number): Map<number, number> {
  const dist = new Map<number, number>([[start, 0]]);
  for (let round = 0; round < adj.size + 1; round++) {
    for (const [u, out] of adj) {
      const du = dist.get(u);
      if (du === undefined) continue;
      for (const [v, w] of out) if (du + w < (dist.get(v) ?? Infinity)) dist.set(v, du + w);
    }
  }
  return dist;
}

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "egopath-synthetic-"));
  dirA = path.join(work, "a");
  counts = (await generateSyntheticRelease({ outDir: dirA, seed: 11, scenes: 3, viewsPerScene: 2 })).questions;
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

test("the same seed gives byte-identical files; another seed does not", async () => {
  const dirB = path.join(work, "b");
  await generateSyntheticRelease({ outDir: dirB, seed: 11, scenes: 3, viewsPerScene: 2 });
  const files = await listFiles(dirA);
  assert.deepEqual(await listFiles(dirB), files);
  for (const f of files) {
    assert.ok((await readFile(path.join(dirA, f))).equals(await readFile(path.join(dirB, f))), `${f} differs`);
  }
  const dirC = path.join(work, "c");
  await generateSyntheticRelease({ outDir: dirC, seed: 12, scenes: 3, viewsPerScene: 2 });
  const vqa = "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl";
  assert.notEqual(await readFile(path.join(dirA, vqa), "utf8"), await readFile(path.join(dirC, vqa), "utf8"));
});

test("every task file exists, row counts match the result, gt rows mirror vqa rows", async () => {
  for (const task of TASK_CODES) {
    const vqa = await readJsonl(path.join(dirA, `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`));
    const gt = await readJsonl(path.join(dirA, `benchmark_evalfix/benchmark/gt/gt_next_${task}.jsonl`));
    assert.equal(vqa.length, counts[task]);
    assert.ok(vqa.length > 0, `no ${task} questions`);
    assert.equal(gt.length, vqa.length);
    const ids = new Set(vqa.map((r) => r.question_id));
    assert.equal(ids.size, vqa.length, "question ids are unique");
    vqa.forEach((row, i) => {
      const g = gt[i]!;
      assert.equal(row.task, task);
      assert.match(row.question_id, new RegExp(`^syn_s\\d\\d_v\\d+_${task}_\\d\\d$`));
      for (const k of ["question_id", "task", "scene_id", "view_id"]) assert.equal(g[k], row[k]);
      for (const [k, v] of Object.entries(row.ground_truth)) assert.deepEqual(g[k], v, `${row.question_id} gt.${k}`);
      assert.equal(row.image_path, `assets/${row.scene_id}/view_${row.view_id}/rgb_overlay_${task}.png`);
      assert.equal(row.visible_waypoints_path, `assets/${row.scene_id}/view_${row.view_id}/visible_waypoints_${task}.json`);
      assert.ok(row.system_prompt.includes("JSON array"));
    });
  }
});

test("traversability: ids cover the markers, b1 walkable is a subset of a1 walkable", async () => {
  const a1 = await readJsonl(path.join(dirA, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl"));
  const b1 = await readJsonl(path.join(dirA, "benchmark_evalfix/benchmark/vqa/vqa_next_b1.jsonl"));
  assert.equal(a1.length, b1.length);
  let negatives = 0;
  for (const [i, row] of a1.entries()) {
    const other = b1[i]!;
    assert.equal(other.scene_id, row.scene_id);
    assert.equal(other.view_id, row.view_id);
    const wps = (await readJson(path.join(dirA, row.visible_waypoints_path))).visible_waypoints as Json[];
    const ids = wps.map((w) => w.display_id);
    assert.deepEqual(ids, Array.from({ length: ids.length }, (_, k) => k + 1));
    assert.ok(ids.length >= 8 && ids.length <= 14);
    assert.deepEqual(row.ground_truth.all_ids, ids);
    assert.deepEqual(other.ground_truth.all_ids, ids);
    assert.deepEqual(row.ground_truth.answer, row.ground_truth.walkable_ids);
    assert.equal(row.ground_truth.robot_diameter_m, 0);
    assert.equal(other.ground_truth.robot_diameter_m, 0.6);
    const a1Set = new Set(row.ground_truth.walkable_ids);
    for (const id of other.ground_truth.walkable_ids) assert.ok(a1Set.has(id), `${other.question_id}: ${id} not in a1`);
    negatives += ids.length - a1Set.size;
    for (const w of wps) {
      assert.equal(w.world_xyz.length, 3);
      assert.equal(w.world_xyz[2], 0);
      assert.deepEqual(w.grid_xy, [Math.round(w.world_xyz[0] / 0.05), Math.round(w.world_xyz[1] / 0.05)]);
      assert.ok(w.image_xy[0] >= 0 && w.image_xy[0] <= 320 && w.image_xy[1] >= 0 && w.image_xy[1] <= 240);
    }
  }
  assert.ok(negatives > 0, "some waypoints are not on free floor");
});

/** Checks every route row of a release against its sidecars the way the official evaluator reads them. */
async function checkRoutes(root: string): Promise<{ oneWay: number; omitted: number; multiHop: number; nonOneStart: number }> {
  let oneWay = 0;
  let omitted = 0;
  let multiHop = 0;
  let nonOneStart = 0;
  for (const task of ["a2", "b2", "c"]) {
    for (const row of await readJsonl(path.join(root, `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`))) {
      const gt = row.ground_truth;
      const qid = row.question_id;
      assert.equal(gt.direct_pairs_ref, `benchmark_evalfix/benchmark/sidecars/${task}/${row.scene_id}/view_${row.view_id}.direct_pairs.json`);
      assert.equal(typeof row.routing_id, "string");
      const sidecar = await readJson(path.join(root, gt.direct_pairs_ref));
      const wps = (await readJson(path.join(root, row.visible_waypoints_path))).visible_waypoints as Json[];
      const adj = edgeTable(sidecar, wps);
      const route: number[] = gt.answer;
      assert.deepEqual(gt.reference_path_display_ids, route);
      assert.ok(route.length >= 2, qid);
      assert.equal(route[0], gt.start_id, `${qid} starts at start_id`);
      assert.ok(gt.acceptable_goal_ids.includes(route[route.length - 1]), `${qid} ends at a goal`);
      assert.ok(!gt.acceptable_goal_ids.includes(gt.start_id), `${qid} start is not a goal`);
      assert.deepEqual(gt.acceptable_goal_ids, [...new Set(gt.acceptable_goal_ids as number[])].sort((a, b) => a - b));
      let length = 0;
      for (let k = 1; k < route.length; k++) {
        const w = adj.get(route[k - 1]!)?.get(route[k]!);
        assert.ok(w !== undefined, `${qid}: step ${route[k - 1]}->${route[k]} is not in the sidecar`);
        length += w;
      }
      assert.equal(length, gt.optimal_length_m, `${qid} length`);
      const best = bellmanFord(adj, gt.start_id);
      const bestGoal = Math.min(...(gt.acceptable_goal_ids as number[]).map((g) => best.get(g) ?? Infinity));
      assert.ok(Math.abs(bestGoal - gt.optimal_length_m) < 1e-9, `${qid} route is shortest`);
      for (const g of gt.acceptable_goal_ids) assert.ok(best.has(g), `${qid}: goal ${g} reachable`);
      assert.equal(gt.robot_diameter_m, task === "a2" ? 0 : 0.6);
      assert.equal(typeof gt.target_category, "string");
      assert.equal(typeof gt.target_color_name, "string");
      assert.ok(row.user_prompt.includes(`waypoint ${gt.start_id}`));
      if (task === "c") {
        assert.equal(typeof gt.intent_text, "string");
        assert.equal(typeof gt.intent_family, "string");
        assert.ok(row.user_prompt.includes(gt.intent_text));
      } else {
        assert.ok(row.user_prompt.includes(`${gt.target_color_name} ${gt.target_category}`));
      }
      if (route.length > 2) multiHop++;
      if (gt.start_id !== 1) nonOneStart++;
    }
    for (const file of await listFiles(path.join(root, "benchmark_evalfix/benchmark/sidecars", task))) {
      const sc = await readJson(path.join(root, "benchmark_evalfix/benchmark/sidecars", task, file));
      const edges = new Set<string>();
      for (const [src, entries] of Object.entries(sc.direct_neighbors as Record<string, Json[]>)) {
        for (const e of entries) {
          edges.add(`${src}>${e.display_id}`);
          if (e.distance_m === undefined) omitted++;
        }
      }
      for (const e of edges) {
        const [a, b] = e.split(">");
        if (!edges.has(`${b}>${a}`)) oneWay++;
      }
    }
  }
  return { oneWay, omitted, multiHop, nonOneStart };
}

test("route answers are legal, start at start_id, end at a goal and have the optimal length", async () => {
  const stats = await checkRoutes(dirA);
  assert.ok(stats.multiHop > 0);
});

test("embodied edges are a subset of point edges", async () => {
  for (const file of await listFiles(path.join(dirA, "benchmark_evalfix/benchmark/sidecars/b2"))) {
    const point = await readJson(path.join(dirA, "benchmark_evalfix/benchmark/sidecars/a2", file));
    const body = await readJson(path.join(dirA, "benchmark_evalfix/benchmark/sidecars/b2", file));
    const c = await readJson(path.join(dirA, "benchmark_evalfix/benchmark/sidecars/c", file));
    assert.deepEqual(c.direct_neighbors, body.direct_neighbors);
    for (const [src, entries] of Object.entries(body.direct_neighbors as Record<string, Json[]>)) {
      const allowed = new Set((point.direct_neighbors[src] ?? []).map((e: Json) => e.display_id));
      for (const e of entries) assert.ok(allowed.has(e.display_id), `${file}: ${src}->${e.display_id}`);
    }
  }
});

test("images decode as 320x240 PNGs and differ between views", async () => {
  const pngs = (await listFiles(dirA)).filter((f) => f.endsWith(".png"));
  assert.equal(pngs.length, 3 * 2 * 5);
  for (const f of pngs) {
    const meta = await sharp(path.join(dirA, f)).metadata();
    assert.equal(meta.format, "png");
    assert.equal(meta.width, 320);
    assert.equal(meta.height, 240);
  }
  const a = await readFile(path.join(dirA, "assets/syn_s01/view_0/rgb_overlay_a1.png"));
  const b = await readFile(path.join(dirA, "assets/syn_s01/view_1/rgb_overlay_a1.png"));
  assert.ok(!a.equals(b));
});

test("refuses to overwrite a folder that is not a synthetic release", async () => {
  const foreign = path.join(work, "foreign");
  await mkdir(foreign, { recursive: true });
  await writeFile(path.join(foreign, "notes.txt"), "keep me");
  await assert.rejects(generateSyntheticRelease({ outDir: foreign, seed: 1, scenes: 1, viewsPerScene: 1 }), /refusing/);
  assert.equal(await readFile(path.join(foreign, "notes.txt"), "utf8"), "keep me");
  // A previous synthetic release is replaced in place.
  const again = await generateSyntheticRelease({ outDir: dirA, seed: 11, scenes: 3, viewsPerScene: 2 });
  assert.deepEqual(again.questions, counts);
});

test("examples/egopath-mini is valid and up to date with its generator", async () => {
  const fresh = path.join(work, "mini");
  const command =
    "node --import tsx src/benchmarks/egopath/synthetic/index.ts --out examples/egopath-mini --seed 7 --scenes 6 --views 2";
  await generateSyntheticRelease({ outDir: fresh, seed: 7, scenes: 6, viewsPerScene: 2, command });
  const files = await listFiles(EXAMPLE);
  assert.deepEqual(await listFiles(fresh), files);
  // Text files must match exactly; PNG bytes depend on the native image libraries, so only their decoded size is checked.
  for (const f of files.filter((name) => !name.endsWith(".png"))) {
    assert.equal(await readFile(path.join(fresh, f), "utf8"), await readFile(path.join(EXAMPLE, f), "utf8"), `${f} is stale`);
  }
  const stats = await checkRoutes(EXAMPLE);
  assert.ok(stats.oneWay > 0, "some edges are one-way");
  assert.ok(stats.omitted > 0, "some entries omit distance_m");
  assert.ok(stats.nonOneStart > 0, "some routes start elsewhere than 1");
});
