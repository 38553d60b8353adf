/**
 * The generated EgoPathBench set (src/benchmarks/egopath/construct/) checked against the rules it
 * promises, each recomputed here from the written files: every question loads and its stored
 * answer scores as correct; every direct pair is legal exactly when the segment stays off the
 * occupied cells of the written occupancy PNG (no length cap, no randomness, symmetric); every
 * acceptable goal lies in the goal ring; every target phrase and intent singles out one shown
 * object; a seed regenerates the same bytes.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { listFiles } from "../../helpers/files.js";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import { assignSplits, generateEgoPathRelease, generateOptions } from "../../../src/benchmarks/egopath/construct/index.js";
import { INTENT_FAMILIES, servingCategories } from "../../../src/benchmarks/egopath/construct/identity.js";
import { checkAnswer } from "../../../src/benchmarks/egopath/export.js";
import { loadRelease } from "../../../src/benchmarks/egopath/load.js";
import { readOccupancyPng } from "../../../src/world/space/index.js";
import { loadForAudit } from "../../../src/audit/run-audit.js";
import { auditUnits, DEFAULT_AUDIT_OPTIONS } from "../../../src/audit/audit.js";
import { egopath } from "../../../src/benchmarks/egopath/index.js";
import { egopathGates } from "../../../src/benchmarks/egopath/gates.js";

type Json = Record<string, any>;
const OPTIONS = { seed: 7, scenes: 2, imageSide: 384, viewsPerScene: 5, splits: { train: 0, val: 0, benchmark: 1 }, selection: "off" as const };
let work: string;
let root: string;

const readJson = async (file: string): Promise<Json> => JSON.parse(await readFile(file, "utf8"));
const readJsonl = async (file: string): Promise<Json[]> => (await readFile(file, "utf8")).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
const rows = (task: string) => readJsonl(path.join(root, `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`));

async function digest(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await listFiles(dir)) out.set(f, createHash("sha256").update(await readFile(path.join(dir, f))).digest("hex"));
  return out;
}

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "egopath-construct-"));
  root = path.join(work, "a");
  await generateEgoPathRelease({ outDir: root, ...OPTIONS });
});
after(async () => rm(work, { recursive: true, force: true }));

test("the set has questions of every task, and every one loads without a problem", async () => {
  const { items, problems } = loadRelease(root);
  assert.deepEqual(problems, []);
  for (const task of ["a1", "b1", "a2", "b2", "c"]) {
    const n = (await rows(task)).length;
    assert.ok(n > 0, `${task} has questions`);
    assert.equal(items.filter((i) => i.task === task).length, n);
  }
});

test("every stored answer scores as correct under the evaluator's rules", () => {
  const { items } = loadRelease(root);
  const refused = items.map((i) => ({ id: i.id, c: checkAnswer(i) })).filter((x) => !x.c.ok);
  assert.deepEqual(refused, []);
});

/** Squared distance from segment a-b to the closed square [x0, x1] x [y0, y1] (0 when they meet). */
function segmentSquareDistance2(a: number[], b: number[], x0: number, y0: number, x1: number, y1: number): number {
  // The segment meets the square when a point of it lies inside; else the distance is the least of
  // segment-to-edge distances (the square is convex).
  const inside = (p: number[]) => p[0]! >= x0 && p[0]! <= x1 && p[1]! >= y0 && p[1]! <= y1;
  if (inside(a) || inside(b)) return 0;
  const corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  let best = Infinity;
  for (let k = 0; k < 4; k++) best = Math.min(best, segSeg2(a, b, corners[k]!, corners[(k + 1) % 4]!));
  return best;
}
function segSeg2(p: number[], q: number[], r: number[], s: number[]): number {
  const cross = (o: number[], a: number[], b: number[]) => (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const d1 = cross(r, s, p), d2 = cross(r, s, q), d3 = cross(p, q, r), d4 = cross(p, q, s);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
  const pt = (x: number[], a: number[], b: number[]) => {
    const dx = b[0]! - a[0]!, dy = b[1]! - a[1]!;
    const t = Math.max(0, Math.min(1, ((x[0]! - a[0]!) * dx + (x[1]! - a[1]!) * dy) / (dx * dx + dy * dy || 1)));
    return (x[0]! - a[0]! - t * dx) ** 2 + (x[1]! - a[1]! - t * dy) ** 2;
  };
  return Math.min(pt(p, r, s), pt(q, r, s), pt(r, p, q), pt(s, p, q));
}

test("a direct pair is listed exactly when its segment stays off every occupied cell of the written grid", async () => {
  let legal = 0, illegal = 0, long = 0;
  for (const task of ["a2", "b2"] as const) {
    for (const row of await rows(task)) {
      const scene = await readJson(path.join(root, `assets/${row.scene_id}/scene.json`));
      const meta = task === "a2" ? scene.occupancy.point : scene.occupancy.embodied;
      const grid = await readOccupancyPng(await readFile(path.join(root, `assets/${row.scene_id}/${meta.file}`)), meta);
      const side = await readJson(path.join(root, row.ground_truth.direct_pairs_ref));
      const wps = (await readJson(path.join(root, row.visible_waypoints_path))).visible_waypoints as Json[];
      const flag = task === "a2" ? "pointmass_walkable" : "embodied_feasible";
      const nodes = wps.filter((w) => w[flag]);
      assert.deepEqual(side.display_ids, nodes.map((w) => w.display_id));
      for (const a of nodes) {
        const listed = new Map((side.direct_neighbors[String(a.display_id)] as Json[]).map((e) => [e.display_id, e.distance_m]));
        for (const b of nodes) {
          if (a === b) continue;
          const p = a.world_xyz, q = b.world_xyz;
          const x0 = Math.min(p[0], q[0]), x1 = Math.max(p[0], q[0]), y0 = Math.min(p[1], q[1]), y1 = Math.max(p[1], q[1]);
          // Blocked for sure when the segment crosses an occupied square shrunk by 1e-7 m; clear for
          // sure when it stays more than 1e-7 m from every occupied square. In between, it grazes a
          // corner or an edge, which floating point decides either way.
          let least = Infinity, crosses = false;
          const c = grid.cellSize, e = 1e-7;
          const i0 = Math.floor((x0 - grid.origin[0]) / c) - 1, i1 = Math.floor((x1 - grid.origin[0]) / c) + 1;
          const j0 = Math.floor((y0 - grid.origin[1]) / c) - 1, j1 = Math.floor((y1 - grid.origin[1]) / c) + 1;
          // A square whose centre is more than a whole cell from the segment's line lies more than
          // 0.29 cells from the segment (its half-diagonal is 0.71 cells): it can neither be crossed
          // nor come within 1e-7 m, so it is skipped without changing the answer (a speed-up only).
          const dx = q[0] - p[0], dy = q[1] - p[1], length = Math.hypot(dx, dy);
          for (let j = j0; j <= j1; j++) {
            for (let i = i0; i <= i1; i++) {
              const occupied = i < 0 || j < 0 || i >= grid.width || j >= grid.height || grid.occupied[j * grid.width + i] !== 0;
              if (!occupied) continue;
              const sx = grid.origin[0] + i * c, sy = grid.origin[1] + j * c;
              if (length > 0 && Math.abs(dx * (sy + c / 2 - p[1]) - dy * (sx + c / 2 - p[0])) > c * length) continue;
              least = Math.min(least, segmentSquareDistance2(p, q, sx, sy, sx + c, sy + c));
              if (segmentSquareDistance2(p, q, sx + e, sy + e, sx + c - e, sy + c - e) === 0) crosses = true;
            }
          }
          if (!crosses && least <= e * e) continue;
          const clear = !crosses;
          assert.equal(listed.has(b.display_id), clear, `${row.question_id}: pair ${a.display_id}-${b.display_id}`);
          if (clear) {
            legal++;
            const planar = Math.round(Math.hypot(p[0] - q[0], p[1] - q[1]) * 1e4) / 1e4;
            assert.equal(listed.get(b.display_id), planar);
            if (planar > 1.8) long++;
          } else illegal++;
        }
      }
    }
  }
  assert.ok(legal > 0 && illegal > 0, `both kinds occur (${legal} legal, ${illegal} illegal)`);
  assert.ok(long > 0, "legal pairs longer than 1.8 m exist (no length cap)");
});

/** Planar distance from p to the object's footprint rectangle (0 inside). */
function footprintDistance(o: Json, p: number[]): number {
  const dx = p[0]! - o.position[0], dy = p[1]! - o.position[1];
  const c = Math.cos(o.yaw), s = Math.sin(o.yaw);
  const u = Math.abs(dx * c + dy * s) - o.size.width / 2, v = Math.abs(-dx * s + dy * c) - o.size.depth / 2;
  return Math.hypot(Math.max(u, 0), Math.max(v, 0));
}

test("acceptable goals are exactly the feasible shown waypoints within 0.10 m of the closest approach to the target", async () => {
  let n = 0;
  for (const task of ["a2", "b2", "c"] as const) {
    for (const row of await rows(task)) {
      const gt = row.ground_truth;
      const scene = await readJson(path.join(root, `assets/${row.scene_id}/scene.json`));
      const target = (scene.objects as Json[]).find((o) => o.id === gt.target_id)!;
      const wps = (await readJson(path.join(root, row.visible_waypoints_path))).visible_waypoints as Json[];
      const d = (w: Json) => footprintDistance(target, w.world_xyz);
      const flag = task === "a2" ? "pointmass_walkable" : "embodied_feasible";
      const feasible = wps.filter((w) => w[flag]);
      const embodiedMin = Math.min(...wps.filter((w) => w.embodied_feasible).map(d));
      // The footprint is read back rounded to 0.1 mm, so compare at that precision.
      const threshold = Math.max(Math.min(...feasible.map(d)) + 0.1, task === "a2" ? embodiedMin : 0);
      assert.ok(Math.abs(threshold - gt.goal_ring_threshold_m) < 1e-3, `${row.question_id}: threshold ${gt.goal_ring_threshold_m} vs ${threshold}`);
      const inRing = feasible.filter((w) => d(w) <= gt.goal_ring_threshold_m + 1e-3).map((w) => w.display_id);
      const clearlyIn = feasible.filter((w) => d(w) <= gt.goal_ring_threshold_m - 1e-3).map((w) => w.display_id);
      for (const id of clearlyIn) assert.ok(gt.acceptable_goal_ids.includes(id), `${row.question_id}: ${id} is in the ring`);
      for (const id of gt.acceptable_goal_ids) assert.ok(inRing.includes(id), `${row.question_id}: ${id} is outside the ring`);
      assert.ok(gt.acceptable_goal_ids.includes(gt.answer.at(-1)), "the answer ends at an acceptable goal");
      n++;
    }
  }
  assert.ok(n > 0);
});

/** The identity-cue rule written out again: does the cue single out the target among the universe? */
function singles(cue: string, target: Json, universe: Json[], side: number): boolean {
  const others = universe.filter((u) => u.id !== target.id);
  const margin = (24 * side) / 1024;
  switch (cue) {
    case "leftmost": return others.every((o) => target.screen_x + margin < o.screen_x);
    case "rightmost": return others.every((o) => target.screen_x - margin > o.screen_x);
    case "nearest": return others.every((o) => target.distance_m + 0.3 < o.distance_m);
    case "farthest": return others.every((o) => target.distance_m - 0.3 > o.distance_m);
    default: return others.every((o) => o.color !== target.color) && target.color === cue;
  }
}

test("every explicit target phrase and every intent picks out exactly one shown object", async () => {
  let cued = 0, intents = 0;
  for (const task of ["a2", "c"] as const) {
    for (const row of await rows(task)) {
      const gt = row.ground_truth;
      const view = await readJson(path.join(root, `assets/${row.scene_id}/view_${row.view_id}/view.json`));
      const shown = view.shown_objects as Json[];
      const target = shown.find((o) => o.id === gt.target_id);
      assert.ok(target, `${row.question_id}: the target is shown`);
      if (task === "a2") {
        const universe = shown.filter((o) => o.category === gt.target_category);
        if (gt.cue_type === "none") assert.equal(universe.length, 1, `${row.question_id}: "${gt.target_phrase}" is the only one`);
        else {
          assert.ok(singles(gt.cue_value, target, universe, view.camera.width), `${row.question_id}: "${gt.target_phrase}"`);
          cued++;
        }
        assert.ok(row.user_prompt.includes(`the ${gt.target_phrase}.`));
      } else {
        const family = INTENT_FAMILIES.find((f) => f.family === gt.intent_family)!;
        assert.ok(family.categories.includes(gt.target_category));
        const request = family.requests.find((r) => gt.generated_question.startsWith(r))!;
        const served = servingCategories(request);
        assert.ok(served.includes(gt.target_category), `${row.question_id}: "${request}" fits a ${gt.target_category}`);
        // Every shown object that serves the request competes with the target.
        const universe = shown.filter((o) => served.includes(o.category));
        for (const word of served) assert.ok(!gt.generated_question.toLowerCase().includes(word), `${row.question_id}: the request names "${word}"`);
        if (gt.residual_cue_type === "none") assert.equal(universe.length, 1, `${row.question_id}: one shown object serves the request`);
        else {
          const cueWord = gt.generated_question.match(/(left|right|closest|farthest from me|The (\w+) one)/)!;
          const cue = cueWord[1] === "left" ? "leftmost" : cueWord[1] === "right" ? "rightmost" : cueWord[1] === "closest" ? "nearest" : cueWord[1] === "farthest from me" ? "farthest" : cueWord[2]!;
          assert.ok(singles(cue, target, universe, view.camera.width), `${row.question_id}: "${gt.generated_question}"`);
        }
        assert.ok(row.user_prompt.includes(gt.generated_question));
        intents++;
      }
    }
  }
  assert.ok(intents > 0);
  void cued;
});

test("c questions re-word an accepted b2: same view, target, start, answer and sidecar graph", async () => {
  const b2 = new Map((await rows("b2")).map((r) => [`${r.scene_id}/${r.routing_id}`, r]));
  for (const c of await rows("c")) {
    const twin = b2.get(`${c.scene_id}/${c.routing_id}`);
    assert.ok(twin, c.question_id);
    for (const k of ["target_id", "start_id", "answer", "acceptable_goal_ids", "optimal_length_m"]) assert.deepEqual(c.ground_truth[k], twin.ground_truth[k], `${c.question_id} ${k}`);
    assert.equal(c.ground_truth.route_source_task, "b2");
  }
});

test("a1/b1 markers all sit on floor the picture shows, in the three kinds about equally (matched triples)", async () => {
  for (const row of await rows("a1")) {
    const gt = row.ground_truth;
    const wps = (await readJson(path.join(root, row.visible_waypoints_path))).visible_waypoints as Json[];
    const kinds = [0, 0, 0];
    for (const w of wps) {
      assert.equal(gt.walkable_ids.includes(w.display_id), w.pointmass_walkable, `${row.question_id} ${w.display_id}`);
      assert.ok(w.candidate_source === "floor_grid" && !w.on_object_pixel && !w.on_structural_pixel && !w.depth_foreground_occluded, `${row.question_id} ${w.display_id}`);
      kinds[!w.pointmass_walkable ? 0 : !w.embodied_feasible ? 1 : 2]!++;
    }
    // Triples of one kind each; the label layout may leave a few markers out.
    for (const n of kinds) assert.ok(n >= 2 && n <= wps.length / 2, `${row.question_id}: kinds ${kinds.join("/")}`);
    const b1 = (await rows("b1")).find((r) => r.view_id === row.view_id && r.scene_id === row.scene_id)!;
    assert.deepEqual(b1.ground_truth.walkable_ids, wps.filter((w) => w.embodied_feasible).map((w) => w.display_id));
  }
});

test("audit gates on the generated set: no number covered and no unreadable answer in any task", async () => {
  // The statistical gates (cue forest, no-model EgoPath Score) need a set of >= 1,000 questions:
  // bench/egopath-validity.ts holds them. This small set holds the exact ones.
  const loaded = await loadForAudit(egopath, root, { cues: true });
  const audit = auditUnits(egopath, loaded.items, loaded.units, { ...DEFAULT_AUDIT_OPTIONS, bootstrap: 0 }, loaded.legibility);
  const gates = egopathGates(audit.document);
  const legible = gates.filter((g) => g.name.includes("unreadable"));
  assert.deepEqual(legible.map((g) => g.name).sort(), ["a1", "a2", "b1", "b2", "c"].map((t) => `${t} questions with an unreadable answer`));
  for (const g of legible) assert.equal(g.value, 0, g.name);
  for (const t of ["a1", "b1", "a2", "b2", "c"]) assert.equal(audit.document.tasks[t]!.legibility!.labels_covered, 0, t);
});

test("the same seed and options give byte-identical files; scene.json, occupancy and ATTRIBUTION are written", async () => {
  const again = path.join(work, "b");
  await generateEgoPathRelease({ outDir: again, ...OPTIONS });
  const a = await digest(root), b = await digest(again);
  assert.deepEqual([...b.keys()], [...a.keys()]);
  for (const [file, hash] of a) assert.equal(b.get(file), hash, file);
  assert.ok(a.has("ATTRIBUTION") && a.has("assets/house_001/scene.json") && a.has("assets/house_001/occupancy.png"));
  const attribution = await readFile(path.join(root, "ATTRIBUTION"), "utf8");
  assert.match(attribution, /CC BY 3\.0/);
});

test("generate options: --set keys are checked", () => {
  assert.deepEqual(generateOptions({ size: "512", views: "3", routes: "2", splits: "0.8,0.1,0.1" }), { imageSide: 512, viewsPerScene: 3, routesPerView: 2, splits: { train: 0.8, val: 0.1, benchmark: 0.1 } });
  assert.throws(() => generateOptions({ size: "100" }), /size must be a whole number from 128 to 2048/);
  assert.throws(() => generateOptions({ splits: "1,1" }), /three non-negative fractions/);
  assert.throws(() => generateOptions({ colour: "red" }), /no --set option "colour"/);
});

test("houses go to splits by the ratios (below 10 houses a split gets one only when n x ratio >= 0.5)", () => {
  const ids = Array.from({ length: 20 }, (_, k) => `h${k}`);
  const count = (m: Map<string, string>) => ({ train: [...m.values()].filter((s) => s === "train").length, val: [...m.values()].filter((s) => s === "val").length, benchmark: [...m.values()].filter((s) => s === "benchmark").length });
  assert.deepEqual(count(assignSplits(ids, { train: 0.8, val: 0.1, benchmark: 0.1 }, 1)), { train: 16, val: 2, benchmark: 2 });
  assert.deepEqual(count(assignSplits(ids.slice(0, 3), { train: 0.8, val: 0.1, benchmark: 0.1 }, 1)), { train: 3, val: 0, benchmark: 0 });
  assert.deepEqual(count(assignSplits(ids.slice(0, 4), { train: 0, val: 0, benchmark: 1 }, 1)), { train: 0, val: 0, benchmark: 4 });
  assert.deepEqual(count(assignSplits(ids.slice(0, 5), { train: 0, val: 1, benchmark: 1 }, 1)), { train: 0, val: 2, benchmark: 3 });
  // The same seed, the same assignment; splits never share a house.
  assert.deepEqual([...assignSplits(ids, { train: 0.8, val: 0.1, benchmark: 0.1 }, 9)], [...assignSplits(ids, { train: 0.8, val: 0.1, benchmark: 0.1 }, 9)]);
});

test("examples/egopath-mini is exactly what its README's command makes", async () => {
  const example = path.resolve(import.meta.dirname, "../../../examples/egopath-mini");
  const fresh = path.join(work, "example");
  await generateEgoPathRelease({ outDir: fresh, seed: 7, scenes: 4, ...generateOptions({ size: "512", views: "4", routes: "2", splits: "0,0,1", selection: "off" }), command: "spatialprobe generate egopath --out examples/egopath-mini --seed 7 --count 4 --set size=512 views=4 routes=2 splits=0,0,1 selection=off" });
  const a = await digest(example), b = await digest(fresh);
  assert.deepEqual([...b.keys()], [...a.keys()]);
  for (const [file, hash] of a) {
    if (!file.endsWith(".png")) assert.equal(b.get(file), hash, file);
    else {
      // PNG bytes depend on the image library's build; the pixels must match.
      const [x, y] = await Promise.all([sharp(path.join(example, file)).raw().toBuffer(), sharp(path.join(fresh, file)).raw().toBuffer()]);
      assert.ok(x.equals(y), file);
    }
  }
});
