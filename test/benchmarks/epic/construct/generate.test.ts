/**
 * The generated EPIC-Bench set (src/benchmarks/epic/construct/) checked apart from the generator:
 * every mask is re-derived from a fresh render of the recorded camera in the rebuilt house (instance
 * pixels of the recorded ids; ground from the floor and rug ids; free floor from each pixel's floor
 * point on a freshly built robot grid; goal areas by the front-zone rule written out here; parts and
 * tops from the mesh-group id arithmetic written out here); the oracle's score equals the value
 * computed here from the masks (box union vs mask: the official localization score cannot reach 1
 * on non-rectangular masks); RelativePerception and ObjectProjections answers are decided again
 * from catalogue sizes and a fresh render's pixel boxes; the set loads with no problem;
 * examples/epic-mini is what its README's command makes, byte for byte (images: pixel for pixel).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { listFiles } from "../../../helpers/files.js";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import { epicBaselines } from "../../../../src/benchmarks/epic/baselines.js";
import { buildEpicHouse } from "../../../../src/benchmarks/epic/construct/house.js";
import { generateEpicRelease, generateOptions } from "../../../../src/benchmarks/epic/construct/index.js";
import { formatReply } from "../../../../src/benchmarks/epic/format.js";
import { stdFields } from "../../../../src/benchmarks/epic/index.js";
import { loadEpic } from "../../../../src/benchmarks/epic/load.js";
import { scoreSample } from "../../../../src/benchmarks/epic/score.js";
import { agentGrids } from "../../../../src/benchmarks/egopath/construct/grids.js";
import { decodeRle } from "../../../../src/geometry/rle.js";
import { createRng } from "../../../../src/stats/rng.js";
import { readLibraries } from "../../../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../../../src/world/assets/models.js";
import { floorPointAt, type PinholeCamera } from "../../../../src/world/camera.js";
import { TextureCache } from "../../../../src/world/meshes.js";
import { renderView } from "../../../../src/world/render/index.js";
import { isFreePoint } from "../../../../src/world/space/index.js";
import type { SceneObject } from "../../../../src/world/types.js";

type Json = Record<string, any>;
const MINI = { seed: 9, houses: 2, extra: { views: "1" } };
const MINI_COMMAND = "spatialprobe generate epic --out examples/epic-mini --seed 9 --count 2 --set views=1";
let work: string;
let root: string;
let records: Json[];

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "epic-construct-"));
  root = path.join(work, "mini");
  await generateEpicRelease({ outDir: root, seed: MINI.seed, houses: MINI.houses, ...generateOptions(MINI.extra), command: MINI_COMMAND });
  records = (await readFile(path.join(root, "construction/samples.jsonl"), "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l));
});
after(async () => rm(work, { recursive: true, force: true }));

test("the set loads with the existing loader without a problem, one record per sample", () => {
  const { items, problems } = loadEpic(root);
  assert.deepEqual(problems, []);
  assert.equal(items.length, records.length);
  assert.deepEqual(items.map((i) => i.id).sort(), records.map((r) => r.gt).sort());
  assert.ok(new Set(items.map((i) => i.task)).size >= 15, "most task types are present");
});

/** Pixels of a fresh buffer where the test holds, as a 0/1 array in row-major order. */
function pixels(ids: Uint32Array, test: (id: number) => boolean): Uint8Array {
  return Uint8Array.from(ids, (id) => (test(id) ? 1 : 0));
}

function decoded(rle: unknown, width: number, height: number): Uint8Array {
  const m = decodeRle(rle);
  assert.equal(m.width, width);
  assert.equal(m.height, height);
  const out = new Uint8Array(width * height);
  m.forEachPixel((x, y) => (out[y * width + x] = 1));
  return out;
}

function sameBits(a: Uint8Array, b: Uint8Array, what: string): void {
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  assert.equal(diff, 0, `${what}: ${diff} pixels differ`);
}

/** The goal-area rule, written out here: ahead of the front face by at most 0.8 m, within half the width plus 0.1 m. */
function inFront(o: SceneObject, x: number, y: number): boolean {
  const f = [Math.sin(o.yaw), -Math.cos(o.yaw)];
  const dx = x - o.position[0], dy = y - o.position[1];
  const along = dx * f[0]! + dy * f[1]!;
  const lateral = Math.abs(-dx * f[1]! + dy * f[0]!);
  return along >= o.size.depth / 2 && along <= o.size.depth / 2 + 0.8 && lateral <= o.size.width / 2 + 0.1;
}

test("every mask equals the pixels of a fresh render of the recorded camera", async () => {
  const catalogue = readLibraries();
  const library = new ModelLibrary();
  const byHouse = new Map<number, Json[]>();
  for (const r of records) byHouse.set(r.house, [...(byHouse.get(r.house) ?? []), r]);
  let checked = 0;
  try {
    for (const [, rs] of byHouse) {
      const first = rs[0]!;
      const house = await buildEpicHouse(catalogue, library, new TextureCache(), first.house_seed, createRng(first.rng_seed), first.people);
      const rugs = new Set(house.scene.objects.filter((o) => o.category === "rug").map((o) => o.id));
      const grid = agentGrids(house.scene, house.meshes, undefined, 0.3).embodied;
      const objects = new Map(house.scene.objects.map((o) => [o.id, o]));
      for (const r of rs) {
        const gt = JSON.parse(await readFile(path.join(root, r.gt), "utf8"));
        const p = r.provenance;
        const renderIds = (camera: PinholeCamera, split: boolean) => renderView(split ? house.splitMeshes : house.meshes, camera, { shading: "unlit", antialias: false, shadows: false }).instance;
        const cam: PinholeCamera = r.camera;
        const { width, height } = cam;
        const ids = renderIds(cam, false);
        for (const [field, list] of Object.entries((p.instances ?? {}) as Record<string, number[]>)) {
          const buffer = field === "masklet_matching_area" ? renderIds(p.secondCamera, false) : ids;
          assert.equal(gt.mask_annotation[field].length, list.length, `${r.gt} ${field}`);
          list.forEach((id, k) => sameBits(decoded(gt.mask_annotation[field][k], width, height), pixels(buffer, (v) => v === id), `${r.gt} ${field}[${k}] id ${id}`));
          checked++;
        }
        for (const [field, list] of Object.entries((p.parts ?? {}) as Record<string, Array<{ objectId: number; groups: number[]; top: boolean | null }>>)) {
          const split = renderIds(cam, true);
          list.forEach((part, k) => {
            // Part ids: 100,000,000 + object id x 10,000 + 2 x mesh group + 1 for top faces.
            const want = pixels(split, (v) => {
              if (v < 100_000_000) return false;
              const rest = v - 100_000_000, objectId = Math.floor(rest / 10_000), g = (rest % 10_000) >> 1, top = (rest % 2) === 1;
              return objectId === part.objectId && (part.top === true ? top : part.groups.includes(g));
            });
            sameBits(decoded(gt.mask_annotation[field][k], width, height), want, `${r.gt} ${field}[${k}]`);
            checked++;
          });
        }
        if (p.kind === "ground") {
          const present = [...new Set(ids)].filter((v) => (v >= 1_000_000 && v < 2_000_000) || rugs.has(v)).sort((a, b) => a - b);
          assert.deepEqual(p.instances.masklet_ground, present, `${r.gt}: every floor and rug instance in view`);
        }
        if (p.floor) {
          const free = new Uint8Array(width * height);
          const floorAt: Array<[number, number] | null> = [];
          for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
            const id = ids[y * width + x]!;
            const q = floorPointAt(cam, x + 0.5, y + 0.5, 0);
            floorAt.push(q ? [q[0], q[1]] : null);
            if (((id >= 1_000_000 && id < 2_000_000) || rugs.has(id)) && q && isFreePoint(grid, [q[0], q[1]])) free[y * width + x] = 1;
          }
          sameBits(decoded(gt.mask_annotation.masklet_path[0], width, height), free, `${r.gt} masklet_path`);
          p.zones.forEach((z: { objectId: number }, k: number) => {
            const o = objects.get(z.objectId)!;
            const zone = Uint8Array.from(free, (f, i) => (f && floorAt[i] && inFront(o, floorAt[i]![0], floorAt[i]![1]) ? 1 : 0));
            sameBits(decoded(gt.mask_annotation.masklet_target_area[k], width, height), zone, `${r.gt} masklet_target_area[${k}]`);
          });
          checked += 1 + p.zones.length;
        }
      }
    }
  } finally {
    library.close();
  }
  assert.ok(checked >= records.length, `${checked} masks checked`);
});

/** Boxes around the 4-connected components of a mask, found here by flood fill; the IoU of their union with the mask. */
function componentBoxIou(mask: Uint8Array, width: number, height: number): number {
  const seen = new Uint8Array(mask.length);
  const boxes: number[][] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || seen[s]) continue;
    let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const c = stack.pop()!;
      const x = c % width, y = (c - x) / width;
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
        if (nx! < 0 || ny! < 0 || nx! >= width || ny! >= height) continue;
        const k = ny! * width + nx!;
        if (mask[k] && !seen[k]) { seen[k] = 1; stack.push(k); }
      }
    }
    boxes.push([x0, y0, x1, y1]);
  }
  const boxed = new Uint8Array(mask.length);
  for (const [x0, y0, x1, y1] of boxes) for (let y = y0!; y <= y1!; y++) for (let x = x0!; x <= x1!; x++) boxed[y * width + x] = 1;
  let inMask = 0, inBoxes = 0;
  for (let i = 0; i < mask.length; i++) { inMask += mask[i]!; inBoxes += boxed[i]!; }
  return inMask / inBoxes;
}

test("the oracle scores what the official rules give it: box-union IoU on the masks, exact counts and feasibility", () => {
  const { items } = loadEpic(root);
  let paths = 0;
  for (const item of items) {
    const reply = epicBaselines["oracle"]!.reply(item, 0, {});
    const outcome = scoreSample(item, stdFields(formatReply(item.leaf.leaf, reply)), { coordMode: "absolute" });
    const text = item.text;
    if (item.leaf.group === "FeasiblePath") {
      // Path score: the oracle walks the free floor into the goal area; its points all lie in masklet_path.
      const free = decoded(item.masks["masklet_path"]![0], item.width, item.height);
      const points = JSON.parse(reply).points as number[][];
      for (const [x, y] of points) assert.equal(free[y! * item.width + x!], 1, `${item.id}: oracle point (${x}, ${y}) on free floor`);
      assert.ok(outcome.score > 0.6, `${item.id}: path score ${outcome.score}`);
      paths++;
      continue;
    }
    const field = { GroundDetection: "masklet_ground", VisualMatching: "masklet_matching_area", AffordanceRegion: "masklet_affordance_region", PlacementRegion: "masklet_placement_region" }[item.leaf.leaf]
      ?? (item.leaf.group === "ContactRelationship" ? "masklet_contact_target" : "masklet_target");
    const rles = item.masks[field]!;
    const union = new Uint8Array(item.width * item.height);
    for (const rle of rles) decoded(rle, item.width, item.height).forEach((v, i) => (union[i] ||= v));
    const iou = rles.length === 0 ? 1 : componentBoxIou(union, item.width, item.height);
    let expected: number;
    if (item.leaf.category === "TargetLocalization" || item.leaf.group === "ContactRelationship") {
      // Count weight: 0.5 when the count must be exact, else 0.3 (count_in_description is never set).
      const w = text["precise_count"] === true ? 0.5 : 0.3;
      expected = (1 - w) * iou + w;
    } else if (item.leaf.leaf === "VisualMatching") expected = 0.5 * iou + 0.5;
    else if (item.leaf.leaf === "PlacementRegion") expected = 0.5 * iou + 0.5;
    else expected = iou;
    assert.ok(Math.abs(outcome.score - expected) < 1e-12, `${item.id}: oracle ${outcome.score}, expected ${expected}`);
  }
  assert.ok(paths > 0);
});

test("RelativePerception and ObjectProjections answers are re-decided from the house and a fresh render", async () => {
  const catalogue = readLibraries();
  const library = new ModelLibrary();
  const decided = { relative: 0, silhouette: 0 };
  try {
    const kinds = records.filter((r) => /^(relative|silhouette)-/.test(r.provenance.kind));
    for (const house of new Set(kinds.map((r) => r.house))) {
      const rs = kinds.filter((r) => r.house === house);
      const built = await buildEpicHouse(catalogue, library, new TextureCache(), rs[0]!.house_seed, createRng(rs[0]!.rng_seed), rs[0]!.people);
      const objects = new Map(built.scene.objects.map((o) => [o.id, o]));
      for (const r of rs) {
        const p = r.provenance;
        const cam: PinholeCamera = r.camera;
        const ids = renderView(built.meshes, cam, { shading: "unlit", antialias: false, shadows: false }).instance;
        // Clearly visible (250 pixels or more) objects of the category, with their pixel boxes.
        const boxes = new Map<number, { n: number; x0: number; y0: number; x1: number; y1: number }>();
        ids.forEach((id, i) => {
          if (objects.get(id)?.category !== p.category) return;
          const x = i % cam.width, y = Math.floor(i / cam.width);
          const b = boxes.get(id) ?? { n: 0, x0: x, y0: y, x1: x, y1: y };
          boxes.set(id, { n: b.n + 1, x0: Math.min(b.x0, x), y0: Math.min(b.y0, y), x1: Math.max(b.x1, x), y1: Math.max(b.y1, y) });
        });
        const shown = [...boxes].filter(([, b]) => b.n >= 250).map(([id]) => id).sort((a, b) => a - b);
        let want: number[];
        if (p.kind.startsWith("relative-")) {
          // Taller / shorter: height ratio 1.15 either way; larger / smaller: floor area ratio 1.5.
          const ref = objects.get(p.reference)!;
          const byHeight = /taller|shorter/.test(p.comparison);
          const value = (o: SceneObject) => (byHeight ? o.size.height : o.size.width * o.size.depth);
          const ratio = byHeight ? 1.15 : 1.5;
          const more = /taller|larger/.test(p.comparison);
          for (const id of shown) {
            const q = value(objects.get(id)!) / value(ref);
            assert.ok(q >= ratio || q <= 1 / ratio, `${r.gt}: object ${id} is within the margin of the reference (${q})`);
          }
          want = shown.filter((id) => (value(objects.get(id)!) / value(ref) >= ratio) === more);
          decided.relative++;
        } else {
          // Wider than tall (or taller than wide) by 30%, the box clear of the picture's edge.
          for (const id of shown) {
            const b = boxes.get(id)!;
            assert.ok(b.x0 > 0 && b.y0 > 0 && b.x1 < cam.width - 1 && b.y1 < cam.height - 1, `${r.gt}: object ${id} touches the edge`);
          }
          const label = (id: number) => {
            const b = boxes.get(id)!, w = b.x1 - b.x0 + 1, h = b.y1 - b.y0 + 1;
            return w >= 1.3 * h ? "wide" : h >= 1.3 * w ? "tall" : "neither";
          };
          for (const id of shown) assert.notEqual(label(id), "neither", `${r.gt}: object ${id}`);
          want = shown.filter((id) => label(id) === p.silhouette);
          decided.silhouette++;
        }
        assert.deepEqual(p.instances.masklet_target, want, `${r.gt}: ${p.kind}`);
      }
    }
  } finally {
    library.close();
  }
  assert.ok(decided.relative > 0 && decided.silhouette > 0, JSON.stringify(decided));
});

/** Set pixels of a decoded mask as [x, y] pairs. */
function pixelList(mask: Uint8Array, width: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  mask.forEach((v, i) => v && out.push([i % width, Math.floor(i / width)]));
  return out;
}

test("a Feasible Path goal area lies at least a tenth of the image diagonal from its start (the scorer's diag/30 steps fit)", () => {
  const { items } = loadEpic(root);
  const seen = { FeasiblePath_Ego: 0, FeasiblePath_Exo: 0 } as Record<string, number>;
  for (const item of items.filter((i) => i.leaf.group === "FeasiblePath")) {
    const { width: W, height: H } = item;
    const bound = 0.1 * Math.sqrt(W * W + H * H);
    const areas = item.masks["masklet_target_area"]!.map((rle) => pixelList(decoded(rle, W, H), W));
    // Brute force over every pixel pair: Ego from the scorer's start (W/2, H-1), Exo between the two areas.
    const from = item.leaf.leaf === "FeasiblePath_Ego" ? [[W / 2, H - 1] as [number, number]] : areas[0]!;
    const to = item.leaf.leaf === "FeasiblePath_Ego" ? areas[0]! : areas[1]!;
    assert.equal(areas.length, item.leaf.leaf === "FeasiblePath_Ego" ? 1 : 2, item.id);
    let best = Infinity;
    for (const [ax, ay] of from) for (const [bx, by] of to) best = Math.min(best, (ax - bx) ** 2 + (ay - by) ** 2);
    assert.ok(Math.sqrt(best) >= bound, `${item.id}: start-goal ${Math.sqrt(best).toFixed(1)} px < ${bound.toFixed(1)} px`);
    seen[item.leaf.leaf]!++;
  }
  assert.ok(seen["FeasiblePath_Ego"]! > 0 && seen["FeasiblePath_Exo"]! > 0, JSON.stringify(seen));
});

test("examples/epic-mini is exactly what its README's command makes", async () => {
  const example = path.resolve(import.meta.dirname, "../../../../examples/epic-mini");
  const readme = await readFile(path.join(example, "README.md"), "utf8");
  assert.ok(readme.includes(MINI_COMMAND));
  const a = await listFiles(example), b = await listFiles(root);
  assert.deepEqual(b, a);
  for (const file of a) {
    const [x, y] = await Promise.all([readFile(path.join(example, file)), readFile(path.join(root, file))]);
    if (/\.(png|jpg)$/.test(file)) {
      // Encoded bytes depend on the image library's build; the pixels must match.
      const [px, py] = await Promise.all([sharp(x).raw().toBuffer(), sharp(y).raw().toBuffer()]);
      assert.ok(px.equals(py), file);
    } else assert.equal(createHash("sha256").update(y).digest("hex"), createHash("sha256").update(x).digest("hex"), file);
  }
});
