/**
 * App. B.3 object visibility and the seen-room rule on a hand-built two-room scene of boxes, with
 * one fixed camera. The expected sets and distances come from the geometry by hand; pixel counts and
 * shares are recomputed here from this test's own renders (the scene and each object alone, with
 * the renderer's default options, not the annotator's), by the rule as the paper states it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { annotateFrame, indexTourScene } from "../../../../src/benchmarks/vcn/construct/tour.js";
import { horizontalSurfaceDistance, visibleRooms } from "../../../../src/benchmarks/vcn/construct/tour-visibility.js";
import { minVisiblePixelsFor } from "../../../../src/benchmarks/vcn/construct/tour-params.js";
import type { PinholeCamera } from "../../../../src/world/camera.js";
import { renderView } from "../../../../src/world/render/index.js";
import { depthAgreement } from "./depth-check.js";
import { STRUCTURE_ID_BASE, type Scene, type SceneObject, type Vec2, type Vec3, type WorldMesh } from "../../../../src/world/types.js";

/** A closed box as one mesh: 8 corners (bit 0 = x, 1 = y, 2 = z), two triangles per face. */
function boxMesh(instanceId: number, lo: Vec3, hi: Vec3, category: WorldMesh["category"] = "cabinet"): WorldMesh {
  const corners: number[] = [];
  for (let k = 0; k < 8; k++) corners.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
  const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const indices = faces.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]);
  return { instanceId, category, parts: [{ positions: new Float32Array(corners), normals: new Float32Array(24), uvs: null, indices: Uint32Array.from(indices), diffuse: [0.6, 0.5, 0.4], opacity: 1, texture: null }] };
}

function floorMesh(roomIndex: number, x0: number, x1: number): WorldMesh {
  const positions = new Float32Array([x0, 0, 0, x1, 0, 0, x1, 6, 0, x0, 6, 0]);
  return { instanceId: STRUCTURE_ID_BASE.floor + roomIndex, category: "floor", parts: [{ positions, normals: new Float32Array(12), uvs: null, indices: Uint32Array.from([0, 1, 2, 0, 2, 3]), diffuse: [0.5, 0.5, 0.5], opacity: 1, texture: null }] };
}

function sceneObject(id: number, name: string, lo: Vec3, hi: Vec3): SceneObject {
  return {
    id, name, category: "cabinet", catalogId: "test#1", room: "room_a",
    position: [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]], yaw: 0,
    size: { width: hi[0] - lo[0], depth: hi[1] - lo[1], height: hi[2] - lo[2] },
    bbox: { min: lo, max: hi }, color: { name: "brown", rgb: [150, 120, 90] }, materials: [], supportId: null, inWall: false,
  };
}

// Room A: x 0-8, room B: x 8-12 (no wall between them), both y 0-6. The camera stands in A at
// (1, 3), 1.4 m high, looking along +x (image right = -y, image left = +y).
const BOXES: Array<[id: number, name: string, lo: Vec3, hi: Vec3]> = [
  [1, "near_1", [3, 2.6, 0], [3.6, 3.4, 1]], // straight ahead, nearest face x = 3: 2.0 m
  [2, "far_2", [4.2, 1.2, 0], [4.8, 3.0, 1.6]], // corner (4.2, 3.0) nearest: exactly 3.2 m
  [3, "hidden_3", [2.5, 4.2, 0], [3.1, 4.8, 1.2]], // corner (2.5, 4.2): hypot(1.5, 1.2) m, behind the panel
  [4, "panel_4", [1.8, 3.6, 0], [1.9, 4.8, 1.8]], // corner (1.8, 3.6): hypot(0.8, 0.6) = 1.0 m
  [5, "small_5", [2.9, 1.7, 0], [3.0, 1.8, 0.1]], // a 10 cm cube on the floor, 2 m ahead: too few pixels
];

function buildScene(without: readonly number[] = []): { scene: Scene; meshes: WorldMesh[] } {
  const kept = BOXES.filter(([id]) => !without.includes(id));
  const rooms = [
    { id: "room_a", type: "living room" as const, polygon: [[0, 0], [8, 0], [8, 6], [0, 6]] as Vec2[], floorMaterial: "wood", wallMaterial: "paint" },
    { id: "room_b", type: "kitchen" as const, polygon: [[8, 0], [12, 0], [12, 6], [8, 6]] as Vec2[], floorMaterial: "tile", wallMaterial: "paint" },
  ];
  const scene: Scene = {
    id: "boxes", seed: 0, rooms, walls: [], doors: [], objects: kept.map(([id, name, lo, hi]) => sceneObject(id, name, lo, hi)),
    ceilingHeight: 2.6, bounds: { min: [0, 0], max: [12, 6] }, lights: [],
  };
  const meshes = [floorMesh(0, 0, 8), floorMesh(1, 8, 12), ...kept.map(([id, , lo, hi]) => boxMesh(id, lo, hi))];
  return { scene, meshes };
}

const camera: PinholeCamera = { position: [1, 3, 1.4], yaw: 0, pitch: 0, vfovDeg: 90, width: 384, height: 384 };

/** The B.3 rule recomputed from this test's renders: [front-surface pixels, pixels within 0.1 m of the scene depth]. */
function depthTest(meshes: WorldMesh[], id: number): { front: number; visible: number } {
  return depthAgreement(renderView(meshes, camera).depth, renderView(meshes.filter((m) => m.instanceId === id), camera).depth);
}

const round4 = (v: number): number => Math.round(v * 1e4) / 1e4;

test("B.3 distance: the minimum horizontal distance to the surface, by hand", () => {
  const { meshes } = buildScene();
  const expected = new Map([[1, 2], [2, 3.2], [3, Math.hypot(1.5, 1.2)], [4, 1], [5, Math.hypot(1.9, 1.2)]]);
  for (const [id, d] of expected) assert.ok(Math.abs(horizontalSurfaceDistance(meshes.find((m) => m.instanceId === id)!, [1, 3]) - d) < 1e-6, `box ${id}`);
  // Standing over a box's footprint: 0.
  assert.equal(horizontalSurfaceDistance(meshes.find((m) => m.instanceId === 1)!, [3.3, 3]), 0);
});

test("B.3: within 3 m, > 60% of the front surface within 0.1 m of the scene depth, >= 2500 px; the panel hides the box behind it", () => {
  const { scene, meshes } = buildScene();
  const frame = renderView(meshes, camera, { shadows: false });
  const seen = annotateFrame(indexTourScene(scene, meshes), camera, frame);
  assert.equal(seen.room, "room_a");
  assert.deepEqual(seen.objects.map((o) => o.name), ["near_1", "panel_4"]);
  for (const o of seen.objects) {
    const { front, visible } = depthTest(meshes, o.instance);
    assert.equal(o.pixels, visible, o.name);
    assert.equal(o.unoccluded, round4(visible / front), o.name);
    assert.ok(visible / front > 0.6 && visible >= 2500, o.name);
  }
  assert.equal(seen.objects[0]!.distance, 2);
  assert.equal(seen.objects[1]!.distance, 1);
  // The far box passes the depth and pixel tests: only its 3.2 m distance excludes it.
  const far = depthTest(meshes, 2);
  assert.ok(far.visible / far.front > 0.6 && far.visible >= 2500, JSON.stringify(far));
  // The hidden box is mostly behind the panel.
  const hidden = depthTest(meshes, 3);
  assert.ok(hidden.front >= 2500 && hidden.visible / hidden.front <= 0.6, JSON.stringify(hidden));
  // The small cube is unoccluded but under 2500 px.
  const small = depthTest(meshes, 5);
  assert.ok(small.visible === small.front && small.front > 0 && small.visible < 2500, JSON.stringify(small));
});

test("B.3: without the panel the box behind it becomes visible", () => {
  const { scene, meshes } = buildScene([4]);
  const frame = renderView(meshes, camera, { shadows: false });
  const seen = annotateFrame(indexTourScene(scene, meshes), camera, frame);
  assert.deepEqual(seen.objects.map((o) => [o.name, o.distance]), [["near_1", 2], ["hidden_3", round4(Math.hypot(1.5, 1.2))]]);
  const { front, visible } = depthTest(meshes, 3);
  assert.equal(seen.objects[1]!.pixels, visible);
  assert.equal(seen.objects[1]!.unoccluded, round4(visible / front));
});

test("B.3 pixel threshold: 2500 at 384 x 384, scaled by pixel count for other sizes", () => {
  assert.equal(minVisiblePixelsFor(384, 384), 2500);
  assert.equal(minVisiblePixelsFor(192, 192), 625);
  assert.equal(minVisiblePixelsFor(128, 128), Math.ceil(2500 / 9));
});

test("seen rooms: another room's floor on at least 1% of the pixels; never the camera's own room", () => {
  const { scene, meshes } = buildScene();
  const index = indexTourScene(scene, meshes);
  // From (6, 3) looking along +x and 0.3 rad down, room B's floor (x >= 8) fills the lower middle.
  const toB = { ...camera, position: [6, 3, 1.4] as Vec3, pitch: -0.3 };
  const frame = renderView(meshes, toB, { shadows: false });
  let floorB = 0, floorA = 0;
  for (const id of frame.instance) {
    if (id === STRUCTURE_ID_BASE.floor + 1) floorB++;
    if (id === STRUCTURE_ID_BASE.floor) floorA++;
  }
  assert.ok(floorB >= 0.01 * 384 * 384 && floorA > 0);
  assert.deepEqual(annotateFrame(index, toB, frame).visibleRooms, ["room_b"]);
  // The share threshold decides exactly: B counts at its own share, not just above it.
  const share = floorB / (384 * 384);
  assert.deepEqual(visibleRooms(scene, frame.instance, "room_a", share), ["room_b"]);
  assert.deepEqual(visibleRooms(scene, frame.instance, "room_a", share + 1e-9), []);
  // Looking back (-x) from (1, 3): only room A's floor is drawn, and A is the camera's room.
  const back = { ...camera, yaw: Math.PI };
  assert.deepEqual(annotateFrame(index, back, renderView(meshes, back, { shadows: false })).visibleRooms, []);
  // Standing in B looking at A: A is seen, B is not listed.
  const inB = { ...camera, position: [10, 3, 1.4] as Vec3, yaw: Math.PI, pitch: -0.3 };
  const fromB = annotateFrame(index, inB, renderView(meshes, inB, { shadows: false }));
  assert.equal(fromB.room, "room_b");
  assert.deepEqual(fromB.visibleRooms, ["room_a"]);
});
