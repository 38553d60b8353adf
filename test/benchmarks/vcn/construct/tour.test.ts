/**
 * VCN-Bench tours on a generated 3-room house: the route covers every room, the motion keeps its
 * documented step and turn cap in free space, visits follow the camera's room, every annotated
 * object passes App. B.3 against this test's own renders (and objects surely within 3 m that are
 * not annotated fail it), and a seed gives the same Tour and the same bytes.
 * Free space, rooms, visits and the B.3 counts are recomputed here from the engine's primitives.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { buildTour, planTourPoses, tourCamera, tourGrids, type TourGrids } from "../../../../src/benchmarks/vcn/construct/tour.js";
import type { Tour } from "../../../../src/benchmarks/vcn/construct/tour-types.js";
import { probeVideo } from "../../../../src/media/ffmpeg.js";
import { readLibraries } from "../../../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../../../src/world/assets/models.js";
import { generateHouse } from "../../../../src/world/house/index.js";
import { sceneMeshes } from "../../../../src/world/meshes.js";
import { renderView } from "../../../../src/world/render/index.js";
import { inflate, isFreePoint, occupancyForScene, roomAt } from "../../../../src/world/space/index.js";
import { depthAgreement } from "./depth-check.js";
import { STRUCTURE_ID_BASE, type Scene, type WorldMesh } from "../../../../src/world/types.js";

// The documented motion: 0.8 m/s at 10 fps, at most 9 degrees of yaw per frame, poses rounded to
// 1e-4 m and 1e-6 rad (so a step may exceed 0.08 m by at most 2 * sqrt(2) * 5e-5 m).
const STEP_M = 0.08 + 1.5e-4;
const TURN_CAP = (9 * Math.PI) / 180 + 1e-6;
const SEED = 5;

let scene: Scene;
let meshes: WorldMesh[];
let grids: TourGrids;
let tmp: string;

before(async () => {
  const catalogue = readLibraries();
  const library = new ModelLibrary();
  scene = await generateHouse({ catalogue, library, seed: 3, rooms: 3 });
  meshes = await sceneMeshes(scene, library, catalogue);
  grids = tourGrids(scene, meshes);
  tmp = await mkdtemp(path.join(os.tmpdir(), "vcn-tour-"));
});

after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Free space at the documented sample clearance: geometry 0.1-1.8 m above the floor blocks (not rugs, towels), inflated by 0.2 m. */
function clearanceGrid() {
  const point = occupancyForScene(scene, meshes, { cellSize: 0.05, zMin: 0.1, zMax: 1.8, skip: (m) => ["floor", "ceiling", "rug", "towel"].includes(m.category) });
  return inflate(point, 0.2);
}

function yawStep(a: number, b: number): number {
  const d = Math.atan2(Math.sin(b - a), Math.cos(b - a));
  return Math.abs(d);
}

/** Visits by the documented rule, written apart: runs of one room over the frames, room-less frames skipped. */
function visitsOf(rooms: Array<string | null>): Array<{ room: string; first: number; last: number }> {
  const out: Array<{ room: string; first: number; last: number }> = [];
  for (let k = 0; k < rooms.length; k++) {
    const r = rooms[k];
    if (r === null || r === undefined) continue;
    if (out.length > 0 && out[out.length - 1]!.room === r) out[out.length - 1]!.last = k;
    else out.push({ room: r, first: k, last: k });
  }
  return out;
}

test("plan: covers every room in free space, steps of at most 0.08 m, turns of at most 9 degrees a frame", () => {
  const plan = planTourPoses({ scene, grids, seed: SEED, tourIndex: 0 });
  const free = clearanceGrid();
  const rooms = plan.poses.map((p) => roomAt(scene, [p.position[0], p.position[1]]));
  assert.deepEqual(new Set(rooms.filter((r) => r !== null)), new Set(scene.rooms.map((r) => r.id)));
  assert.equal(rooms[0], plan.startRoom);
  plan.poses.forEach((p, k) => {
    assert.equal(p.index, k);
    assert.equal(p.room, rooms[k]);
    assert.ok(isFreePoint(free, [p.position[0], p.position[1]]), `pose ${k} at ${p.position} is not free`);
    assert.equal(p.position[2], plan.camera.heightM);
    if (k === 0) return;
    const q = plan.poses[k - 1]!;
    assert.ok(Math.hypot(p.position[0] - q.position[0], p.position[1] - q.position[1]) <= STEP_M, `step ${k}`);
    assert.ok(yawStep(q.yaw, p.yaw) <= TURN_CAP, `turn ${k}: ${q.yaw} -> ${p.yaw}`);
  });
  // Turning on the spot happens (a dead end or doubling back), and so does walking.
  const still = plan.poses.filter((p, k) => k > 0 && p.position[0] === plan.poses[k - 1]!.position[0] && p.position[1] === plan.poses[k - 1]!.position[1]);
  assert.ok(still.length > 0 && still.length < plan.poses.length / 2);
  // Camera and lighting in the documented ranges.
  const c = plan.camera;
  assert.ok(c.heightM >= 1.2 && c.heightM <= 1.6 && c.pitchDeg >= -15 && c.pitchDeg <= 0 && c.vfovDeg >= 75 && c.vfovDeg <= 95);
  assert.ok(plan.lighting.lightScale >= 0.7 && plan.lighting.lightScale <= 1.3 && plan.lighting.ambientScale >= 0.8 && plan.lighting.ambientScale <= 1.2);
  assert.deepEqual([c.width, c.height], [384, 384]);
});

test("plan: the tours of one seed start in different rooms; startRoom is obeyed", () => {
  const starts = [0, 1, 2].map((tourIndex) => planTourPoses({ scene, grids, seed: SEED, tourIndex }).startRoom);
  assert.deepEqual(new Set(starts), new Set(scene.rooms.map((r) => r.id)));
  const forced = planTourPoses({ scene, grids, seed: SEED, tourIndex: 0, startRoom: scene.rooms[1]!.id });
  assert.equal(forced.poses[0]!.room, scene.rooms[1]!.id);
  assert.throws(() => planTourPoses({ scene, grids, seed: SEED, tourIndex: 0, startRoom: "no_such_room" }), /not one of the tour's rooms/);
});

/** Front-surface and depth-consistent pixels of one object, from this test's renders. */
function depthTest(sceneDepth: Float32Array, mesh: WorldMesh, camera: ReturnType<typeof tourCamera>): { front: number; visible: number } {
  return depthAgreement(sceneDepth, renderView([mesh], camera, { shadows: false }).depth);
}

/** Horizontal distance bounds: to the mesh's plan box (a lower bound) and to its nearest vertex (an upper bound). */
function distanceBounds(mesh: WorldMesh, x: number, y: number): [number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, vertex = Infinity;
  for (const part of mesh.parts) {
    for (let v = 0; v < part.positions.length; v += 3) {
      const px = part.positions[v]!, py = part.positions[v + 1]!;
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
      vertex = Math.min(vertex, Math.hypot(px - x, py - y));
    }
  }
  return [Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(y0 - y, 0, y - y1)), vertex];
}

let built: Tour;
const SIDE = 128;
const MIN_PIXELS = Math.ceil(2500 / 9); // 2500 px at 384 x 384, scaled to 128 x 128

test("build: 40 frames at 128 px, frames/NNNN.jpg and tour.mp4, poses of the plan, visits from the camera's room", async () => {
  const outDir = path.join(tmp, "a");
  built = await buildTour({ scene, meshes, grids, seed: SEED, tourIndex: 1, outDir, maxFrames: 40, imageSide: SIDE });
  assert.equal(built.frames.length, 40);
  assert.equal(built.id, `${scene.id}/tour_1`);
  assert.equal(built.fps, 10);
  const files = (await readdir(path.join(outDir, "frames"))).sort();
  assert.deepEqual(files, Array.from({ length: 40 }, (_, k) => `${String(k).padStart(4, "0")}.jpg`));
  const meta = await sharp(path.join(outDir, "frames", "0039.jpg")).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ["jpeg", SIDE, SIDE]);
  const probe = await probeVideo(path.join(outDir, "tour.mp4"));
  assert.ok(probe.ok);
  assert.deepEqual([probe.probe.frameCount, probe.probe.width, probe.probe.height, probe.probe.fps], [40, SIDE, SIDE, 10]);
  const plan = planTourPoses({ scene, grids, seed: SEED, tourIndex: 1, maxFrames: 40, imageSide: SIDE });
  assert.deepEqual(built.frames.map((f) => [f.index, f.position, f.yaw, f.pitch]), plan.poses.map((p) => [p.index, p.position, p.yaw, p.pitch]));
  const rooms = built.frames.map((f) => roomAt(scene, [f.position[0], f.position[1]]));
  assert.deepEqual(built.frames.map((f) => f.room), rooms);
  const visits = visitsOf(rooms);
  assert.deepEqual(built.visits, visits);
  assert.deepEqual(built.roomOrder, [...new Set(visits.map((v) => v.room))]);
  assert.deepEqual(built.camera, plan.camera);
});

test("build: every annotated object passes B.3 against this test's renders; objects surely within 3 m and not annotated fail it", () => {
  const byId = new Map(meshes.map((m) => [m.instanceId, m]));
  let checked = 0, rejected = 0;
  for (const frame of built.frames.filter((f) => f.index % 8 === 0 || f.objects.length > 0).slice(0, 12)) {
    const camera = tourCamera(frame, built.camera);
    const view = renderView(meshes, camera, { shadows: false, antialias: false });
    const annotated = new Map(frame.objects.map((o) => [o.instance, o]));
    for (const object of scene.objects) {
      if (object.inWall) {
        assert.ok(!annotated.has(object.id), `${object.name} is set into a wall`);
        continue;
      }
      const mesh = byId.get(object.id)!;
      const [lower, upper] = distanceBounds(mesh, frame.position[0], frame.position[1]);
      const seen = annotated.get(object.id);
      if (seen) {
        const { front, visible } = depthTest(view.depth, mesh, camera);
        assert.ok(seen.distance <= 3 && seen.distance >= lower - 1e-4 && seen.distance <= upper + 1e-4, `${object.name} distance ${seen.distance} not in [${lower}, ${upper}]`);
        assert.equal(seen.pixels, visible, object.name);
        assert.equal(seen.unoccluded, Math.round((visible / front) * 1e4) / 1e4, object.name);
        assert.ok(visible / front > 0.6 && visible >= MIN_PIXELS, object.name);
        assert.equal(seen.name, object.name);
        assert.equal(seen.category, object.category);
        checked++;
      } else if (upper <= 3) {
        const { front, visible } = depthTest(view.depth, mesh, camera);
        assert.ok(front === 0 || !(visible / front > 0.6) || visible < MIN_PIXELS, `${object.name} passes B.3 in frame ${frame.index} but is not annotated`);
        rejected++;
      }
    }
    // Seen rooms, recounted from the instance buffer.
    const counts = scene.rooms.map((_, k) => view.instance.filter((id) => id === STRUCTURE_ID_BASE.floor + k).length);
    assert.deepEqual(frame.visibleRooms, scene.rooms.filter((r, k) => r.id !== frame.room && counts[k]! >= 0.01 * SIDE * SIDE).map((r) => r.id));
  }
  assert.ok(checked > 0 && rejected > 0, `checked ${checked}, rejected ${rejected}`);
});

test("build: the same seed gives the same Tour JSON and the same frame and video bytes", async () => {
  const tours: Tour[] = [];
  for (const dir of ["b", "c"]) tours.push(await buildTour({ scene, meshes, grids, seed: SEED, tourIndex: 2, outDir: path.join(tmp, dir), maxFrames: 12, imageSide: 96 }));
  assert.equal(JSON.stringify(tours[0]), JSON.stringify(tours[1]));
  const names = (await readdir(path.join(tmp, "b", "frames"))).sort();
  assert.equal(names.length, 12);
  for (const name of names) assert.ok((await readFile(path.join(tmp, "b", "frames", name))).equals(await readFile(path.join(tmp, "c", "frames", name))), name);
  assert.ok((await readFile(path.join(tmp, "b", "tour.mp4"))).equals(await readFile(path.join(tmp, "c", "tour.mp4"))));
});
