/**
 * Procedural houses (src/world/house): determinism, and the invariants every generated house
 * must keep, checked here by independent code on seeds 1..20 — rooms reachable through doors,
 * doors 0.8-1.0 m wide away from corners, no interpenetrating furniture, everything inside its
 * room, door clearance zones empty, small objects on their support's top, free floor connected
 * for the 0.30 m agent, windows in exterior walls at their catalogue sill height.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { readLibraries, type CatalogEntry, type Catalogue } from "../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../src/world/assets/models.js";
import { linearToSrgb, meanSurfaceColor, meanTexelLinear, srgbToLinear } from "../../src/world/house/appearance.js";
import { colorName, generateHouse, sceneToJson } from "../../src/world/house/index.js";
import { ROOM_TYPES, type Aabb3, type Room, type Scene, type SceneObject, type Wall } from "../../src/world/types.js";

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
/** Large floors (over ten rooms, as VCN-Bench asks for): seed and room count; every invariant below holds for them too. */
const LARGE: ReadonlyArray<readonly [number, number]> = [[21, 22], [22, 28]];
const TOL = 1e-6;

let catalogue: Catalogue;
let library: ModelLibrary;
let entries: Map<string, CatalogEntry>;
const scenes = new Map<number, Scene>();
let generationMs = 0;

before(async () => {
  catalogue = readLibraries();
  library = new ModelLibrary();
  entries = new Map(catalogue.entries.map((e) => [e.id, e]));
  const t0 = performance.now();
  for (const seed of SEEDS) scenes.set(seed, await generateHouse({ catalogue, library, seed }));
  generationMs = performance.now() - t0;
  for (const [seed, rooms] of LARGE) scenes.set(seed, await generateHouse({ catalogue, library, seed, rooms }));
});

/** The houses of default size. */
const defaults = () => SEEDS.map((s) => [s, scenes.get(s)!] as const);
/** Every house generated here, the large floors included. */
const all = () => [...SEEDS, ...LARGE.map(([s]) => s)].map((s) => [s, scenes.get(s)!] as const);

// ---- independent geometry helpers -------------------------------------------------------------

interface Rect { minX: number; minY: number; maxX: number; maxY: number }

function roomRect(room: Room): Rect {
  const xs = room.polygon.map((p) => p[0]);
  const ys = room.polygon.map((p) => p[1]);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

const planBox = (b: Aabb3): Rect => ({ minX: b.min[0], minY: b.min[1], maxX: b.max[0], maxY: b.max[1] });

/** Overlap depth of two intervals (negative when apart). */
const overlap1 = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);

function rectsInterpenetrate(a: Rect, b: Rect, tol: number): boolean {
  return overlap1(a.minX, a.maxX, b.minX, b.maxX) > tol && overlap1(a.minY, a.maxY, b.minY, b.maxY) > tol;
}

function wallAxisX(w: Wall): boolean {
  return w.a[1] === w.b[1];
}

function quarterTurns(yaw: number): number {
  return Math.round(yaw / (Math.PI / 2));
}

// ---- determinism -------------------------------------------------------------------------------

test("the same seed gives the same Scene and the same scene.json bytes, also with cold caches", async () => {
  const first = scenes.get(7)!;
  const again = await generateHouse({ catalogue, library, seed: 7 });
  assert.deepEqual(again, first);
  assert.equal(JSON.stringify(sceneToJson(again)), JSON.stringify(sceneToJson(first)));
  const fresh = new ModelLibrary();
  try {
    const cold = await generateHouse({ catalogue: readLibraries(), library: fresh, seed: 7 });
    assert.equal(JSON.stringify(sceneToJson(cold)), JSON.stringify(sceneToJson(first)));
  } finally {
    fresh.close();
  }
});

test("different seeds give different houses", () => {
  const texts = new Set(all().map(([, s]) => JSON.stringify(sceneToJson(s))));
  assert.equal(texts.size, all().length);
  const layouts = new Set(all().map(([, s]) => JSON.stringify(s.rooms.map((r) => [r.type, r.polygon]))));
  assert.equal(layouts.size, all().length);
});

test("room counts: 4-7 by default, the requested number when given, and a RangeError outside 1..48", async () => {
  for (const [, s] of defaults()) assert.ok(s.rooms.length >= 4 && s.rooms.length <= 7, `${s.id}: ${s.rooms.length} rooms`);
  for (const rooms of [1, 2, 3, 9]) {
    const s = await generateHouse({ catalogue, library, seed: 100 + rooms, rooms });
    assert.equal(s.rooms.length, rooms);
  }
  for (const rooms of [0, 49, 2.5]) await assert.rejects(generateHouse({ catalogue, library, seed: 1, rooms }), RangeError);
});

test("roomAreaScale: every room's area in its type's range times the scale (+-15 %), minimum sides kept; refused outside 0.5..3", async () => {
  const AREA: Record<string, [number, number]> = { bathroom: [4, 8], bedroom: [9, 16], kitchen: [8, 14], "living room": [15, 30], "dining room": [9, 16], office: [7, 12] };
  const s = await generateHouse({ catalogue, library, seed: 4242, rooms: 20, roomAreaScale: 1.4 });
  let larger = 0;
  for (const r of s.rooms) {
    const b = roomRect(r);
    const w = b.maxX - b.minX, h = b.maxY - b.minY;
    if (r.type === "hallway") continue;
    const area = (w + 0.1) * (h + 0.1);
    const [lo, hi] = AREA[r.type]!;
    assert.ok(area >= 1.4 * lo * 0.85 - TOL && area <= 1.4 * hi * 1.15 + TOL, `${r.id} ${r.type} area ${area}`);
    if (area > hi * 1.15 + TOL) larger++;
  }
  // Some rooms are larger than any of their type at scale 1 could be.
  assert.ok(larger >= 3, `${larger} rooms above the unscaled range`);
  for (const roomAreaScale of [0.4, 3.5, Number.NaN]) await assert.rejects(generateHouse({ catalogue, library, seed: 1, rooms: 5, roomAreaScale }), RangeError);
});

// ---- plan -------------------------------------------------------------------------------------

test("rooms: typed, rectangular, counter-clockwise, with plausible sizes and materials", () => {
  // Partition areas (polygon grown by the 0.05 m wall inset) within the documented ranges +-15 %.
  const AREA: Record<string, [number, number]> = { bathroom: [4, 8], bedroom: [9, 16], kitchen: [8, 14], "living room": [15, 30], "dining room": [9, 16], office: [7, 12] };
  const MIN_SIDE: Record<string, number> = { bathroom: 1.7, bedroom: 2.6, kitchen: 2.2, "living room": 3.1, "dining room": 2.6, office: 2.2, hallway: 1.0 };
  for (const [, s] of all()) {
    const livingRooms = s.rooms.filter((r) => r.type === "living room").length;
    assert.ok(livingRooms === 1 || (s.rooms.length > 10 && livingRooms === 2), `${s.id}: one living room (two on a large floor)`);
    for (const r of s.rooms) {
      assert.ok((ROOM_TYPES as readonly string[]).includes(r.type));
      assert.equal(r.polygon.length, 4);
      const b = roomRect(r);
      assert.deepEqual(r.polygon, [[b.minX, b.minY], [b.maxX, b.minY], [b.maxX, b.maxY], [b.minX, b.maxY]], `${s.id} ${r.id} is an axis-aligned CCW rectangle`);
      const w = b.maxX - b.minX;
      const h = b.maxY - b.minY;
      assert.ok(Math.min(w, h) >= MIN_SIDE[r.type]! - TOL, `${s.id} ${r.id} ${r.type} side ${Math.min(w, h)}`);
      if (r.type === "hallway") assert.ok(Math.min(w, h) <= 1.3 + TOL, `${s.id} hallway is narrow`);
      else {
        const area = (w + 0.1) * (h + 0.1);
        const [lo, hi] = AREA[r.type]!;
        assert.ok(area >= lo * 0.85 - TOL && area <= hi * 1.15 + TOL, `${s.id} ${r.id} ${r.type} area ${area}`);
      }
      assert.match(r.floorMaterial, /^(oak|walnut|pine) planks$|^(white|gray|blue|terracotta) tiles$|^(beige|gray) carpet$/);
      assert.match(r.wallMaterial, /^painted plaster [a-z ]+$|^(white|blue) tiles$/);
      if (r.type === "bathroom" || r.type === "kitchen") assert.match(r.floorMaterial, /tiles$/);
    }
  }
});

test("walls: interior 0.10 m, exterior 0.20 m, as high as the ceiling (2.5-2.8 m); inner faces on the room polygons", () => {
  for (const [, s] of all()) {
    assert.ok(s.ceilingHeight >= 2.5 - TOL && s.ceilingHeight <= 2.8 + TOL);
    for (const w of s.walls) {
      assert.equal(w.height, s.ceilingHeight);
      assert.ok(w.a[0] === w.b[0] || w.a[1] === w.b[1], "axis-aligned");
      const exterior = w.rooms.includes(null);
      assert.ok(Math.abs(w.thickness - (exterior ? 0.2 : 0.1)) < TOL, `${s.id} ${w.id} thickness ${w.thickness}`);
      // Each side's room has its polygon edge on the wall face of that side.
      const alongX = wallAxisX(w);
      w.rooms.forEach((id, side) => {
        if (id === null) return;
        const r = roomRect(s.rooms.find((x) => x.id === id)!);
        // Left (side 0) of a wall along +x is +y; of a wall along +y it is -x.
        const sign = side === 0 ? 1 : -1;
        if (alongX) {
          const face = w.a[1] + sign * (w.thickness / 2);
          assert.ok(Math.abs((sign > 0 ? r.minY : r.maxY) - face) < TOL, `${s.id} ${w.id} face of ${id}`);
        } else {
          const face = w.a[0] - sign * (w.thickness / 2);
          assert.ok(Math.abs((sign > 0 ? r.maxX : r.minX) - face) < TOL, `${s.id} ${w.id} face of ${id}`);
        }
      });
    }
  }
});

test("every room is reachable from every other through the doors", () => {
  for (const [, s] of all()) {
    const seen = new Set([s.rooms[0]!.id]);
    const queue = [s.rooms[0]!.id];
    while (queue.length) {
      const id = queue.shift()!;
      for (const d of s.doors) {
        if (!d.rooms.includes(id)) continue;
        for (const other of d.rooms) if (other !== null && !seen.has(other)) { seen.add(other); queue.push(other); }
      }
    }
    assert.equal(seen.size, s.rooms.length, `${s.id}: reached ${[...seen].join(",")}`);
  }
});

test("doors: openings in the shared wall, interior ones 0.8-1.0 m wide and at least 0.25 m from every room corner", () => {
  for (const [, s] of all()) {
    let entrances = 0;
    for (const d of s.doors) {
      const w = s.walls.find((x) => x.id === d.wallId)!;
      assert.ok(w, `${s.id} ${d.id} wall`);
      assert.deepEqual([...d.rooms].sort(), [...w.rooms].sort());
      const length = Math.hypot(w.b[0] - w.a[0], w.b[1] - w.a[1]);
      const opening = w.openings.find((o) => o.kind === "door" && Math.hypot(w.a[0] + ((w.b[0] - w.a[0]) / length) * o.offset - d.center[0], w.a[1] + ((w.b[1] - w.a[1]) / length) * o.offset - d.center[1]) < TOL);
      assert.ok(opening, `${s.id} ${d.id}: an opening at the door centre`);
      assert.ok(Math.abs(opening.width - d.width) < TOL);
      assert.equal(opening.bottom, 0);
      assert.ok(opening.top >= 2.0 - TOL && opening.top <= s.ceilingHeight - 0.1);
      if (d.rooms.includes(null)) {
        entrances++;
        assert.ok(opening.objectId !== undefined, "the entrance has a door model");
        const model = s.objects.find((o) => o.id === opening.objectId)!;
        assert.equal(model.category, "door");
        assert.ok(model.inWall);
        assert.ok(Math.abs(model.size.width - d.width) < TOL);
      } else {
        assert.ok(d.width >= 0.8 - TOL && d.width <= 1.0 + TOL, `${s.id} ${d.id} width ${d.width}`);
        assert.equal(opening.objectId, undefined, "interior doorways are open");
      }
      const alongX = wallAxisX(w);
      const [lo, hi] = alongX ? [d.center[0] - d.width / 2, d.center[0] + d.width / 2] : [d.center[1] - d.width / 2, d.center[1] + d.width / 2];
      for (const id of d.rooms) {
        if (id === null) continue;
        const r = roomRect(s.rooms.find((x) => x.id === id)!);
        const [rlo, rhi] = alongX ? [r.minX, r.maxX] : [r.minY, r.maxY];
        assert.ok(lo >= rlo + 0.25 - TOL && hi <= rhi - 0.25 + TOL, `${s.id} ${d.id} within ${id} away from its corners`);
      }
    }
    assert.ok(entrances <= 1);
  }
});

test("windows: window models in exterior walls, at their catalogue sill height, facing into their room", () => {
  let windows = 0;
  for (const [, s] of all()) {
    for (const o of s.objects.filter((x) => x.category === "window")) {
      windows++;
      assert.ok(o.inWall);
      const entry = entries.get(o.catalogId)!;
      assert.ok(entry.doorOrWindow);
      assert.ok(Math.abs(o.position[2] - entry.elevationM) < TOL);
      const wall = s.walls.find((w) => w.openings.some((op) => op.objectId === o.id))!;
      assert.ok(wall, `${s.id} ${o.name} is in a wall`);
      assert.ok(wall.rooms.includes(null) && wall.rooms.includes(o.room), "exterior wall of its room");
      const op = wall.openings.find((x) => x.objectId === o.id)!;
      assert.ok(Math.abs(op.bottom - entry.elevationM) < TOL && Math.abs(op.top - (entry.elevationM + entry.sizeM.height)) < TOL && Math.abs(op.width - entry.sizeM.width) < TOL);
      assert.ok(op.top <= s.ceilingHeight);
      // Front (-y at yaw 0, turned by yaw) points into the room.
      const front = [Math.sin(o.yaw), -Math.cos(o.yaw)];
      const r = roomRect(s.rooms.find((x) => x.id === o.room)!);
      const toRoom = [(r.minX + r.maxX) / 2 - o.position[0], (r.minY + r.maxY) / 2 - o.position[1]];
      assert.ok(front[0]! * toRoom[0]! + front[1]! * toRoom[1]! > 0, `${s.id} ${o.name} faces its room`);
    }
    // Openings on one wall never overlap.
    for (const w of s.walls) {
      const spans = w.openings.map((o) => [o.offset - o.width / 2, o.offset + o.width / 2] as const).sort((a, b) => a[0] - b[0]);
      for (let k = 1; k < spans.length; k++) assert.ok(spans[k]![0] >= spans[k - 1]![1] + 0.3 - TOL, `${s.id} ${w.id} openings apart`);
    }
  }
  assert.ok(windows >= 3 * SEEDS.length, `${windows} windows`);
});

// ---- objects ----------------------------------------------------------------------------------

test("objects: ids 1..N, unique names <category>_<k>, quarter-turn yaws, bbox = the rotated catalogue box", () => {
  for (const [, s] of all()) {
    s.objects.forEach((o, i) => assert.equal(o.id, i + 1));
    const names = new Set(s.objects.map((o) => o.name));
    assert.equal(names.size, s.objects.length);
    for (const o of s.objects) {
      assert.match(o.name, new RegExp(`^${o.category.replace(/ /g, "_")}_\\d+$`));
      const entry = entries.get(o.catalogId)!;
      assert.equal(entry.category, o.category);
      assert.equal(o.modelName, entry.name);
      assert.deepEqual(o.size, entry.sizeM);
      assert.ok(Math.abs(o.yaw - quarterTurns(o.yaw) * (Math.PI / 2)) < 1e-12, `${o.name} yaw ${o.yaw}`);
      const q = ((quarterTurns(o.yaw) % 4) + 4) % 4;
      const ex = (q % 2 === 0 ? o.size.width : o.size.depth) / 2;
      const ey = (q % 2 === 0 ? o.size.depth : o.size.width) / 2;
      const want = { min: [o.position[0] - ex, o.position[1] - ey, o.position[2]], max: [o.position[0] + ex, o.position[1] + ey, o.position[2] + o.size.height] };
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(o.bbox.min[k]! - want.min[k]!) < 1e-9 && Math.abs(o.bbox.max[k]! - want.max[k]!) < 1e-9, `${s.id} ${o.name} bbox`);
      }
      assert.ok((["black", "white", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "beige"] as string[]).includes(o.color.name));
      assert.equal(o.color.name, colorName(o.color.rgb));
      assert.ok(o.bbox.max[2] <= s.ceilingHeight + TOL);
    }
  }
});

const isSupportPair = (a: SceneObject, b: SceneObject) => a.supportId === b.id || b.supportId === a.id;

test("no two objects interpenetrate (3-D boxes, 3 mm tolerance; rugs only against rugs)", () => {
  let pairs = 0;
  for (const [, s] of all()) {
    for (let i = 0; i < s.objects.length; i++)
      for (let j = i + 1; j < s.objects.length; j++) {
        const a = s.objects[i]!;
        const b = s.objects[j]!;
        if ((a.category === "rug") !== (b.category === "rug") || isSupportPair(a, b)) continue;
        if (overlap1(a.bbox.min[2], a.bbox.max[2], b.bbox.min[2], b.bbox.max[2]) <= 1e-3) continue;
        pairs++;
        assert.ok(!rectsInterpenetrate(planBox(a.bbox), planBox(b.bbox), 0.003), `${s.id}: ${a.name} and ${b.name} interpenetrate`);
      }
  }
  assert.ok(pairs > 1000, `${pairs} pairs checked`);
});

test("every object lies inside its room's polygon (windows and doors: in their walls)", () => {
  for (const [, s] of all()) {
    for (const o of s.objects) {
      if (o.inWall) continue;
      const r = roomRect(s.rooms.find((x) => x.id === o.room)!);
      const b = planBox(o.bbox);
      assert.ok(b.minX >= r.minX - TOL && b.maxX <= r.maxX + TOL && b.minY >= r.minY - TOL && b.maxY <= r.maxY + TOL, `${s.id} ${o.name} outside ${o.room}`);
    }
  }
});

/** The clearance zone of a door in one room, by the documented rule: 1.0 m deep, the door's width + 0.1 m each side. */
function clearanceZone(s: Scene, doorIndex: number, roomId: string): Rect {
  const d = s.doors[doorIndex]!;
  const w = s.walls.find((x) => x.id === d.wallId)!;
  const r = roomRect(s.rooms.find((x) => x.id === roomId)!);
  const half = d.width / 2 + 0.1;
  if (wallAxisX(w)) {
    const below = d.center[1] < r.minY;
    return { minX: d.center[0] - half, maxX: d.center[0] + half, minY: below ? r.minY : r.maxY - 1, maxY: below ? r.minY + 1 : r.maxY };
  }
  const left = d.center[0] < r.minX;
  return { minX: left ? r.minX : r.maxX - 1, maxX: left ? r.minX + 1 : r.maxX, minY: d.center[1] - half, maxY: d.center[1] + half };
}

test("door clearance zones (1 m deep on both sides of every door) hold no object", () => {
  for (const [, s] of all()) {
    s.doors.forEach((d, k) => {
      for (const id of d.rooms) {
        if (id === null) continue;
        const zone = clearanceZone(s, k, id);
        for (const o of s.objects) {
          if (o.inWall || o.room !== id) continue;
          assert.ok(!rectsInterpenetrate(zone, planBox(o.bbox), TOL), `${s.id}: ${o.name} in front of ${d.id}`);
        }
      }
    });
  }
});

test("small objects stand inside their support's top at its bottom + dropOnTopElevation", () => {
  let small = 0;
  for (const [, s] of all()) {
    for (const o of s.objects) {
      if (o.supportId === null) continue;
      small++;
      const parent = s.objects.find((x) => x.id === o.supportId)!;
      assert.equal(parent.supportId, null);
      assert.equal(parent.room, o.room);
      const drop = entries.get(parent.catalogId)!.dropOnTopElevationM;
      assert.ok(drop !== null, `${parent.name} accepts objects on top`);
      assert.ok(Math.abs(o.position[2] - (parent.position[2] + drop)) < 1e-9, `${s.id} ${o.name} height`);
      const pb = planBox(parent.bbox);
      const b = planBox(o.bbox);
      assert.ok(b.minX >= pb.minX - TOL && b.maxX <= pb.maxX + TOL && b.minY >= pb.minY - TOL && b.maxY <= pb.maxY + TOL, `${s.id} ${o.name} on ${parent.name}`);
    }
  }
  assert.ok(small >= 5 * SEEDS.length, `${small} small objects`);
});

/**
 * Free floor for a disc agent of radius 0.25 m on a 0.05 m grid: cell centres at least 0.25 m
 * from the room outline and from the plan box of every object standing on the floor below 1.4 m
 * (rugs and in-wall models excepted). The generator keeps a 0.30 m agent connected on a 0.10 m
 * grid; a path there keeps at least sqrt(0.3^2 - 0.05^2) > 0.295 m between its grid points, so
 * this finer, slightly smaller check must find the same connections.
 */
function doorEntriesConnected(s: Scene, room: Room): boolean {
  const r = roomRect(room);
  const cell = 0.05;
  const radius = 0.25;
  const nx = Math.floor((r.maxX - r.minX) / cell);
  const ny = Math.floor((r.maxY - r.minY) / cell);
  const blockers = s.objects.filter((o) => o.room === room.id && !o.inWall && o.category !== "rug" && o.supportId === null && o.position[2] < 1.4).map((o) => planBox(o.bbox));
  const centre = (i: number, j: number) => [r.minX + (i + 0.5) * cell, r.minY + (j + 0.5) * cell] as const;
  const free = new Uint8Array(nx * ny);
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const [x, y] = centre(i, j);
      if (Math.min(x - r.minX, r.maxX - x, y - r.minY, r.maxY - y) < radius) continue;
      const clear = blockers.every((b) => Math.hypot(Math.max(b.minX - x, 0, x - b.maxX), Math.max(b.minY - y, 0, y - b.maxY)) >= radius);
      free[j * nx + i] = clear ? 1 : 0;
    }
  // Door entry points: 0.4 m inside the room from each door centre.
  const starts: number[] = [];
  for (const d of s.doors) {
    if (!d.rooms.includes(room.id)) continue;
    const w = s.walls.find((x) => x.id === d.wallId)!;
    const p = wallAxisX(w) ? [d.center[0], d.center[1] < r.minY ? r.minY + 0.4 : r.maxY - 0.4] : [d.center[0] < r.minX ? r.minX + 0.4 : r.maxX - 0.4, d.center[1]];
    let best = -1;
    let bestD = Infinity;
    for (let k = 0; k < free.length; k++) {
      if (!free[k]) continue;
      const [x, y] = centre(k % nx, Math.floor(k / nx));
      const dist = Math.hypot(x - p[0]!, y - p[1]!);
      if (dist < bestD) { bestD = dist; best = k; }
    }
    if (bestD > 0.1) return false;
    starts.push(best);
  }
  if (starts.length < 2) return starts.length === 1;
  const seen = new Uint8Array(free.length);
  const stack = [starts[0]!];
  seen[starts[0]!] = 1;
  while (stack.length) {
    const k = stack.pop()!;
    const i = k % nx;
    for (const n of [i > 0 ? k - 1 : -1, i + 1 < nx ? k + 1 : -1, k - nx, k + nx]) {
      if (n < 0 || n >= free.length || seen[n] || !free[n]) continue;
      seen[n] = 1;
      stack.push(n);
    }
  }
  return starts.every((k) => seen[k] === 1);
}

test("each room's doors are connected through its free floor for the agent", () => {
  for (const [, s] of all()) for (const room of s.rooms) assert.ok(doorEntriesConnected(s, room), `${s.id} ${room.id} (${room.type})`);
});

test("furniture by room type: beds in bedrooms, sofas in living rooms, fridges, toilets, several chairs and plants", () => {
  const expect: Record<string, string[][]> = {
    bedroom: [["bed"]],
    "living room": [["sofa"]],
    kitchen: [["fridge"], ["sink"], ["stove"]],
    bathroom: [["toilet"], ["sink"], ["bathtub", "shower"]],
    office: [["desk"]],
    "dining room": [["table"], ["chair"]],
  };
  let misses = 0;
  let rooms = 0;
  let repeated = 0;
  for (const [, s] of all()) {
    for (const room of s.rooms) {
      const cats = s.objects.filter((o) => o.room === room.id && !o.inWall).map((o) => o.category as string);
      for (const any of expect[room.type] ?? []) {
        rooms++;
        if (!any.some((c) => cats.includes(c))) misses++;
      }
      if (room.type === "bedroom") {
        const bed = s.objects.find((o) => o.room === room.id && o.category === "bed");
        if (bed) {
          // Headboard to a wall: the back of the bed (opposite its front) touches the room outline.
          const r = roomRect(room);
          const back = [-Math.sin(bed.yaw), Math.cos(bed.yaw)];
          const b = planBox(bed.bbox);
          const gap = back[0]! > 0.5 ? r.maxX - b.maxX : back[0]! < -0.5 ? b.minX - r.minX : back[1]! > 0.5 ? r.maxY - b.maxY : b.minY - r.minY;
          assert.ok(gap >= -TOL && gap <= 0.02, `${s.id} bed headboard gap ${gap}`);
        }
      }
    }
    const counts = new Map<string, number>();
    for (const o of s.objects) if (!o.inWall) counts.set(o.category, (counts.get(o.category) ?? 0) + 1);
    if ((counts.get("chair") ?? 0) >= 2 || (counts.get("plant") ?? 0) >= 2) repeated++;
  }
  assert.ok(misses <= rooms * 0.05, `${misses} of ${rooms} required pieces missing`);
  assert.ok(repeated >= SEEDS.length * 0.75, `${repeated} houses with several chairs or plants`);
});

test("ceiling lights: one or two per room, 5 cm under the ceiling, inside the room", () => {
  for (const [, s] of all()) {
    for (const room of s.rooms) {
      const lights = s.lights.filter((l) => l.room === room.id);
      assert.ok(lights.length >= 1 && lights.length <= 2);
      const r = roomRect(room);
      for (const l of lights) {
        assert.ok(Math.abs(l.position[2] - (s.ceilingHeight - 0.05)) < TOL);
        assert.ok(l.position[0] > r.minX && l.position[0] < r.maxX && l.position[1] > r.minY && l.position[1] < r.maxY);
      }
    }
  }
});

test("scene.json: fixed key order, every number a multiple of 1e-4, objects with model, colour, bbox and support", () => {
  const json = sceneToJson(scenes.get(3)!) as Record<string, unknown>;
  assert.deepEqual(Object.keys(json), ["id", "seed", "units", "ceilingHeight", "bounds", "rooms", "walls", "doors", "objects", "lights"]);
  const objects = json.objects as Record<string, unknown>[];
  assert.deepEqual(Object.keys(objects[0]!), ["id", "name", "category", "color", "rgb", "catalogId", "modelName", "room", "position", "yaw", "yawDeg", "size", "bbox", "supportId", "inWall", "materials"]);
  const check = (v: unknown, path: string): void => {
    if (typeof v === "number") {
      assert.ok(Math.abs(v * 1e4 - Math.round(v * 1e4)) < 1e-6, `${path} = ${v}`);
      assert.ok(!Object.is(v, -0), `${path} is -0`);
    } else if (Array.isArray(v)) v.forEach((x, i) => check(x, `${path}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) check(x, `${path}.${k}`);
  };
  check(json, "scene");
  const scene = scenes.get(3)!;
  const o = scene.objects[scene.objects.length - 1]!;
  const jo = objects[objects.length - 1]!;
  assert.equal(jo.catalogId, o.catalogId);
  assert.equal(jo.modelName, entries.get(o.catalogId)!.name);
  assert.equal(jo.color, o.color.name);
  assert.deepEqual(jo.position, o.position.map((v) => Math.round(v * 1e4) / 1e4 || 0));
});

test("large floors: the requested count, one corridor, at most a bathroom per four rooms, an office per eight and two living rooms", () => {
  for (const [seed, rooms] of LARGE) {
    const s = scenes.get(seed)!;
    const count = (type: string) => s.rooms.filter((r) => r.type === type).length;
    assert.equal(s.rooms.length, rooms);
    assert.equal(count("hallway"), 1, `${s.id}`);
    assert.equal(count("kitchen"), 1, `${s.id}`);
    assert.ok(count("bathroom") <= Math.floor(rooms / 4) && count("office") <= 1 + Math.floor(rooms / 8) && count("living room") <= 2 && count("dining room") <= 1, `${s.id}`);
    // A floor along its corridor: the long side at least twice the short one.
    const xs = s.rooms.flatMap((r) => r.polygon.map((p) => p[0]));
    const ys = s.rooms.flatMap((r) => r.polygon.map((p) => p[1]));
    const [w, h] = [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)];
    assert.ok(Math.max(w, h) >= 2 * Math.min(w, h), `${s.id}: ${w} x ${h} m`);
  }
});

test("generation time and size figures (reported)", () => {
  const objects = defaults().reduce((n, [, s]) => n + s.objects.length, 0);
  const rooms = defaults().reduce((n, [, s]) => n + s.rooms.length, 0);
  console.log(`# houses ${SEEDS.length}: ${(generationMs / SEEDS.length).toFixed(0)} ms per house (cold model cache), ${(objects / SEEDS.length).toFixed(1)} objects and ${(rooms / SEEDS.length).toFixed(2)} rooms per house`);
  assert.ok(objects / SEEDS.length >= 25);
});

// ---- colours ----------------------------------------------------------------------------------

test("colour words: one hand-checked sRGB colour per word (HSV rules of appearance.ts)", () => {
  const table: [[number, number, number], string][] = [
    [[0, 0, 0], "black"], [[30, 30, 35], "black"], [[255, 255, 255], "white"], [[128, 128, 128], "gray"],
    [[200, 30, 30], "red"], [[255, 140, 0], "orange"], [[240, 220, 40], "yellow"], [[40, 160, 60], "green"],
    [[40, 80, 200], "blue"], [[130, 50, 170], "purple"], [[240, 150, 180], "pink"], [[120, 70, 30], "brown"],
    [[225, 205, 170], "beige"], [[230, 235, 240], "white"],
  ];
  for (const [rgb, name] of table) assert.equal(colorName(rgb), name, `${rgb}`);
});

test("mean surface colour: area-weighted in linear light, glass parts left out", () => {
  // Two flat quads: 1 m2 pure red, 3 m2 pure blue, plus a large green glass pane (opacity 0.2).
  const quad = (w: number, h: number) => ({ positions: new Float32Array([0, 0, 0, w, 0, 0, w, h, 0, 0, h, 0]), indices: new Uint32Array([0, 1, 2, 0, 2, 3]) });
  const parts = [quad(1, 1), quad(3, 1), quad(10, 10)];
  const colors: [number, number, number][] = [[1, 0, 0], [0, 0, 1], [0, 1, 0]];
  const c = meanSurfaceColor(parts, (i) => colors[i]!, (i) => (i === 2 ? 0.2 : 1));
  // Linear mean (0.25, 0, 0.75) -> sRGB: 1.055 * 0.25^(1/2.4) - 0.055 = 0.53708 -> 137; 0.75 -> 0.88083 -> 225.
  assert.deepEqual(c.rgb, [137, 0, 225]);
  assert.equal(c.name, "purple");
  // With only glass, the glass counts.
  assert.deepEqual(meanSurfaceColor([quad(1, 1)], () => [0, 1, 0], () => 0.1).rgb, [0, 255, 0]);
  assert.ok(Math.abs(srgbToLinear(linearToSrgb(0.3)) - 0.3) < 1e-12);
  // Texel mean weights by alpha: an opaque white texel, a transparent one (ignored), an opaque black one.
  const mean = meanTexelLinear(new Uint8Array([255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255]), 4)!;
  assert.ok(Math.abs(mean[0] - 0.5) < 1e-12);
});
