/**
 * World meshes (src/world/meshes.ts): object models placed in the world (hand-computed points,
 * bounding boxes of real placed models), walls with openings cut out (rays through doorways hit
 * nothing, hand-computed face areas, junction faces dropped), floors with door thresholds,
 * ceilings facing down, procedural surface textures, and decoded model textures.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import sharp from "sharp";
import { readLibraries, type Catalogue } from "../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../src/world/assets/models.js";
import { generateHouse } from "../../src/world/house/index.js";
import { metresPerTexture, surfaceTexture, SURFACE_TEXTURE_SIZE } from "../../src/world/house/surfaces.js";
import { objectMesh, sceneMeshes, structureMeshes, TextureCache, triangulatePolygon } from "../../src/world/meshes.js";
import { structureInstanceId, type Scene, type Vec3, type Wall, type WorldMesh } from "../../src/world/types.js";

let catalogue: Catalogue;
let library: ModelLibrary;
let house: Scene;

before(async () => {
  catalogue = readLibraries();
  library = new ModelLibrary();
  house = await generateHouse({ catalogue, library, seed: 5 });
});

// ---- helpers ----------------------------------------------------------------------------------

function triangles(mesh: WorldMesh): [Vec3, Vec3, Vec3][] {
  const out: [Vec3, Vec3, Vec3][] = [];
  for (const part of mesh.parts) {
    const p = part.positions;
    const v = (i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
    for (let t = 0; t < part.indices.length; t += 3) out.push([v(part.indices[t]!), v(part.indices[t + 1]!), v(part.indices[t + 2]!)]);
  }
  return out;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const area = (t: [Vec3, Vec3, Vec3]) => Math.hypot(...cross(sub(t[1], t[0]), sub(t[2], t[0]))) / 2;

/** Möller-Trumbore: does the segment p -> q cross the triangle (strictly inside it)? */
function segmentHitsTriangle(p: Vec3, q: Vec3, t: [Vec3, Vec3, Vec3]): boolean {
  const d = sub(q, p);
  const e1 = sub(t[1], t[0]);
  const e2 = sub(t[2], t[0]);
  const h = cross(d, e2);
  const a = dot(e1, h);
  if (Math.abs(a) < 1e-12) return false;
  const s = sub(p, t[0]);
  const u = dot(s, h) / a;
  if (u < 1e-9 || u > 1 - 1e-9) return false;
  const qv = cross(s, e1);
  const v = dot(d, qv) / a;
  if (v < 1e-9 || u + v > 1 - 1e-9) return false;
  const k = dot(e2, qv) / a;
  return k > 0 && k < 1;
}

function hits(meshes: readonly WorldMesh[], p: Vec3, q: Vec3): number {
  let n = 0;
  for (const m of meshes) for (const t of triangles(m)) if (segmentHitsTriangle(p, q, t)) n++;
  return n;
}

/** A scene holding only walls (and the rooms their materials come from). */
function wallScene(walls: Wall[], doors: Scene["doors"] = []): Scene {
  return {
    id: "walls",
    seed: 0,
    rooms: [{ id: "r", type: "living room", polygon: [[0, 0.1], [4, 0.1], [4, 3], [0, 3]], floorMaterial: "oak planks", wallMaterial: "painted plaster white" }],
    walls,
    doors,
    objects: [],
    ceilingHeight: 2.5,
    bounds: { min: [-1, -1], max: [5, 4] },
    lights: [],
  };
}

// ---- objects ----------------------------------------------------------------------------------

/** A one-triangle model with known vertices and normals. */
const tinyModel = {
  mesh: {
    parts: [{
      material: "m",
      positions: new Float32Array([0.1, 0.2, 0.3, -0.2, 0, 0.1, 0, 0.5, -0.25]),
      normals: new Float32Array([0, 0, 1, 0, 1, 0, 1, 0, 0]),
      uvs: new Float32Array([0, 0, 1, 0, 0, 1]),
      indices: new Uint32Array([0, 1, 2]),
    }],
    bounds: { min: [-0.2, 0, -0.25] as [number, number, number], max: [0.1, 0.5, 0.3] as [number, number, number] },
    transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0],
    mirrored: false,
  },
  materials: { m: { name: "m", diffuse: [0.5, 0.25, 0.125] as [number, number, number], ambient: [0, 0, 0] as [number, number, number], specular: [0, 0, 0] as [number, number, number], emissive: [0, 0, 0] as [number, number, number], shininess: 1, opacity: 0.4, illum: null, diffuseMap: null, opacityMap: null } },
};

test("a hand-placed object: yaw 90 degrees at (2, 3, 0.5) maps model (0.1, 0.2, 0.3) to (2.3, 3.1, 0.7)", () => {
  // (x, y, z) -> (x, -z, y) = (0.1, -0.3, 0.2); turned 90 degrees CCW: (0.3, 0.1, 0.2); plus the position.
  const mesh = objectMesh({ id: 9, category: "chair", position: [2, 3, 0.5], yaw: Math.PI / 2 }, tinyModel);
  assert.equal(mesh.instanceId, 9);
  assert.equal(mesh.category, "chair");
  const p = mesh.parts[0]!;
  const close = (got: ArrayLike<number>, want: number[]) => want.forEach((w, i) => assert.ok(Math.abs(got[i]! - w) < 1e-6, `${got[i]} vs ${w}`));
  close(p.positions.subarray(0, 3), [2.3, 3.1, 0.7]);
  // (-0.2, 0, 0.1) -> (-0.2, -0.1, 0) -> (0.1, -0.2, 0) -> (2.1, 2.8, 0.5)
  close(p.positions.subarray(3, 6), [2.1, 2.8, 0.5]);
  // The model front (+z normal) -> world -y -> turned: +x. Model up (+y) stays up. Model +x -> +y.
  close(p.normals.subarray(0, 3), [1, 0, 0]);
  close(p.normals.subarray(3, 6), [0, 0, 1]);
  close(p.normals.subarray(6, 9), [0, 1, 0]);
  assert.deepEqual(p.diffuse, [0.5, 0.25, 0.125]);
  assert.equal(p.opacity, 0.4);
  assert.equal(p.texture, null);
  assert.deepEqual([...p.indices], [0, 1, 2]);
});

test("yaw 0 and yaw 180 degrees: the model front faces -y, then +y", () => {
  const at0 = objectMesh({ id: 1, category: "chair", position: [0, 0, 0], yaw: 0 }, tinyModel).parts[0]!;
  assert.deepEqual([...at0.positions.subarray(0, 3)].map((v) => Number(v.toFixed(6))), [0.1, -0.3, 0.2]);
  assert.deepEqual([...at0.normals.subarray(0, 3)].map((v) => Number(v.toFixed(6)) || 0), [0, -1, 0]);
  const at180 = objectMesh({ id: 1, category: "chair", position: [1, 1, 0], yaw: Math.PI }, tinyModel).parts[0]!;
  assert.deepEqual([...at180.positions.subarray(0, 3)].map((v) => Number(v.toFixed(6))), [0.9, 1.3, 0.2]);
  assert.deepEqual([...at180.normals.subarray(0, 3)].map((v) => Number(v.toFixed(6)) || 0), [0, 1, 0]);
});

test("placed real models: each object's world bbox equals its mesh's vertex bounds (1e-4 m), every yaw", () => {
  const byYaw = new Map<number, number>();
  const chosen = house.objects.filter((o) => {
    const q = ((Math.round(o.yaw / (Math.PI / 2)) % 4) + 4) % 4;
    const n = byYaw.get(q) ?? 0;
    if (n >= 3) return false;
    byYaw.set(q, n + 1);
    return true;
  });
  assert.equal(byYaw.size, 4, "objects at all four quarter turns");
  const entries = new Map(catalogue.entries.map((e) => [e.id, e]));
  for (const o of chosen) {
    const mesh = objectMesh(o, library.load(entries.get(o.catalogId)!));
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (const part of mesh.parts)
      for (let i = 0; i < part.positions.length; i++) {
        const k = i % 3;
        min[k] = Math.min(min[k]!, part.positions[i]!);
        max[k] = Math.max(max[k]!, part.positions[i]!);
      }
    for (let k = 0; k < 3; k++) {
      assert.ok(Math.abs(min[k]! - o.bbox.min[k]!) < 1e-4, `${o.name} min[${k}] ${min[k]} vs ${o.bbox.min[k]}`);
      assert.ok(Math.abs(max[k]! - o.bbox.max[k]!) < 1e-4, `${o.name} max[${k}] ${max[k]} vs ${o.bbox.max[k]}`);
    }
  }
});

test("sceneMeshes: structure first (floors, ceilings, walls), then every object by id, textures decoded once per file", async () => {
  const cache = new TextureCache();
  const meshes = await sceneMeshes(house, library, catalogue, { textures: cache });
  const nRooms = house.rooms.length;
  assert.equal(meshes.length, 2 * nRooms + house.walls.length + house.objects.length);
  house.rooms.forEach((_, i) => {
    assert.equal(meshes[i]!.instanceId, structureInstanceId("floor", i));
    assert.equal(meshes[nRooms + i]!.instanceId, structureInstanceId("ceiling", i));
  });
  house.walls.forEach((_, i) => assert.equal(meshes[2 * nRooms + i]!.instanceId, structureInstanceId("wall", i)));
  const objects = meshes.slice(2 * nRooms + house.walls.length);
  assert.deepEqual(objects.map((m) => m.instanceId), house.objects.map((o) => o.id));
  assert.deepEqual(objects.map((m) => m.category), house.objects.map((o) => o.category));
  let textured = 0;
  for (const m of objects)
    for (const p of m.parts) {
      if (!p.texture) continue;
      textured++;
      assert.equal(p.texture.data.length, p.texture.width * p.texture.height * 4);
      assert.ok(p.uvs && p.uvs.length * 3 === p.positions.length * 2);
    }
  assert.ok(textured > 0);
  const decoded = cache.size;
  await sceneMeshes(house, library, catalogue, { textures: cache, structure: false });
  assert.equal(cache.size, decoded, "second pass reuses the cache");
});

test("TextureCache decodes a model texture (the textured bed's) to RGBA8 at the file's size", async () => {
  const bed = catalogue.entries.find((e) => e.id === "Blend Swap CC-0#bedWithTexture")!;
  const model = library.load(bed);
  const name = Object.values(model.diffuseMaps).find((n) => library.texture(bed, n) !== undefined)!;
  assert.ok(name, "the bed has a texture in its library");
  const bytes = library.texture(bed, name)!;
  const meta = await sharp(bytes).metadata();
  const cache = new TextureCache();
  const tex = await cache.get(library, bed, name);
  assert.ok(tex);
  assert.equal(tex.width, Math.min(meta.width!, 1024));
  assert.equal(tex.height, Math.min(meta.height!, 1024));
  assert.equal(tex.data.length, tex.width * tex.height * 4);
  assert.equal(await cache.get(library, bed, name), tex);
  assert.equal(await cache.get(library, bed, "no/such/file.png"), null);
});

// ---- walls ------------------------------------------------------------------------------------

const lone: Wall = {
  id: "w",
  a: [0, 0],
  b: [4, 0],
  thickness: 0.2,
  height: 2.5,
  rooms: ["r", null],
  openings: [
    { kind: "window", offset: 0.9, width: 0.8, bottom: 0.9, top: 2.1 },
    { kind: "door", offset: 2.6, width: 0.9, bottom: 0, top: 2.0 },
  ],
};

test("a wall's door and window openings are empty: rays through them hit no wall triangle, rays beside them do", () => {
  const meshes = structureMeshes(wallScene([lone])).filter((m) => m.category === "wall");
  // Through the door (centre x = 2.6) at 1 m, and through the window (x = 0.9) at 1.5 m.
  assert.equal(hits(meshes, [2.6, -0.5, 1.0], [2.6, 0.5, 1.0]), 0);
  assert.equal(hits(meshes, [2.2, -0.5, 0.1], [2.2, 0.5, 0.1]), 0);
  assert.equal(hits(meshes, [0.9, -0.5, 1.5], [0.9, 0.5, 1.5]), 0);
  // Above the door, below the window sill, and through solid wall: both side faces.
  assert.equal(hits(meshes, [2.6, -0.5, 2.3], [2.6, 0.5, 2.3]), 2);
  assert.equal(hits(meshes, [0.9, -0.5, 0.5], [0.9, 0.5, 0.5]), 2);
  assert.equal(hits(meshes, [3.6, -0.5, 1.0], [3.6, 0.5, 1.0]), 2);
  // A point of the left face plane inside the door opening lies in no wall triangle's box.
  const point: Vec3 = [2.6, 0.1, 1.0];
  for (const t of triangles(meshes[0]!)) {
    const inside = [0, 1, 2].every((k) => point[k]! >= Math.min(t[0][k]!, t[1][k]!, t[2][k]!) - 1e-9 && point[k]! <= Math.max(t[0][k]!, t[1][k]!, t[2][k]!) + 1e-9);
    assert.ok(!inside);
  }
});

test("a lone wall's surface areas by hand: sides minus openings, end caps, top, reveals", () => {
  const mesh = structureMeshes(wallScene([lone])).find((m) => m.category === "wall")!;
  const byNormal = new Map<string, number>();
  for (const part of mesh.parts) {
    for (let t = 0; t < part.indices.length; t += 3) {
      const i = part.indices[t]!;
      const key = [0, 1, 2].map((k) => Math.round(part.normals[3 * i + k]!)).join(",");
      const p = part.positions;
      const v = (j: number): Vec3 => [p[3 * j]!, p[3 * j + 1]!, p[3 * j + 2]!];
      const tri: [Vec3, Vec3, Vec3] = [v(part.indices[t]!), v(part.indices[t + 1]!), v(part.indices[t + 2]!)];
      // Winding agrees with the normal.
      const n = cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]));
      assert.ok(dot(n, [part.normals[3 * i]!, part.normals[3 * i + 1]!, part.normals[3 * i + 2]!]) > 0);
      byNormal.set(key, (byNormal.get(key) ?? 0) + area(tri));
    }
  }
  const sides = 4 * 2.5 - 0.8 * 1.2 - 0.9 * 2.0; // 7.24 per side
  const near = (key: string, want: number) => assert.ok(Math.abs((byNormal.get(key) ?? 0) - want) < 1e-6, `${key}: ${byNormal.get(key)} vs ${want}`);
  near("0,1,0", sides);
  near("0,-1,0", sides);
  // +x normals: end cap at x = 4 (0.2 x 2.5) + the left jambs of window and door (0.2 x 1.2, 0.2 x 2.0).
  near("1,0,0", 0.2 * 2.5 + 0.2 * 1.2 + 0.2 * 2.0);
  near("-1,0,0", 0.2 * 2.5 + 0.2 * 1.2 + 0.2 * 2.0);
  // Up: top (4 x 0.2) + window sill (0.8 x 0.2); down: both lintels.
  near("0,0,1", 4 * 0.2 + 0.8 * 0.2);
  near("0,0,-1", 0.8 * 0.2 + 0.9 * 0.2);
  // Materials: the room side is its wall material, the outside the exterior plaster.
  const names = new Set(mesh.parts.map((p) => p.texture));
  assert.ok(names.has(surfaceTexture("painted plaster white")) && names.has(surfaceTexture("exterior plaster")));
});

test("a corner junction: faces inside the other wall are dropped, coincident faces kept once (areas by hand)", () => {
  // A along x over [-0.15, 4] (y in [-0.1, 0.1]); B along y over [-0.1, 3] (x in [-0.1, 0.1]).
  const a: Wall = { id: "a", a: [-0.15, 0], b: [4, 0], thickness: 0.2, height: 1, rooms: ["r", null], openings: [] };
  const b: Wall = { id: "b", a: [0, -0.1], b: [0, 3], thickness: 0.2, height: 1, rooms: [null, "r"], openings: [] };
  const meshes = structureMeshes(wallScene([a, b])).filter((m) => m.category === "wall");
  let vertical = 0;
  let top = 0;
  for (const m of meshes)
    for (const t of triangles(m)) {
      const n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
      if (Math.abs(n[2]) > 1e-9) top += area(t);
      else vertical += area(t);
    }
  // The union's outline: 4.15 + 0.2 + 3.9 + 2.9 + 0.2 + 2.9 + 0.05 + 0.2 = 14.5 m, 1 m high.
  assert.ok(Math.abs(vertical - 14.5) < 1e-6, `vertical ${vertical}`);
  // The union's area: 4.15 x 0.2 + 0.2 x 3.1 - 0.2 x 0.2 = 1.41 m2.
  assert.ok(Math.abs(top - 1.41) < 1e-6, `top ${top}`);
});

test("generated walls: no face inside another wall, no doorway or window blocked, every lintel solid", () => {
  const meshes = structureMeshes(house);
  const walls = meshes.filter((m) => m.category === "wall");
  assert.equal(walls.length, house.walls.length);
  const boxes = house.walls.map((w) => {
    const h = w.thickness / 2;
    const alongX = w.a[1] === w.b[1];
    return { minX: Math.min(w.a[0], w.b[0]) - (alongX ? 0 : h), maxX: Math.max(w.a[0], w.b[0]) + (alongX ? 0 : h), minY: Math.min(w.a[1], w.b[1]) - (alongX ? h : 0), maxY: Math.max(w.a[1], w.b[1]) + (alongX ? h : 0) };
  });
  walls.forEach((m, i) => {
    for (const part of m.parts)
      for (let t = 0; t < part.indices.length; t += 3) {
        const ids = [part.indices[t]!, part.indices[t + 1]!, part.indices[t + 2]!];
        const c = [0, 1].map((k) => ids.reduce((s, j) => s + part.positions[3 * j + k]!, 0) / 3);
        const n = [part.normals[3 * ids[0]!]!, part.normals[3 * ids[0]! + 1]!];
        if (Math.abs(part.normals[3 * ids[0]! + 2]!) > 0.5) continue; // tops and reveals' floors
        const px = c[0]! + n[0]! * 1e-3;
        const py = c[1]! + n[1]! * 1e-3;
        boxes.forEach((b, j) => {
          if (j === i) return;
          assert.ok(!(px > b.minX + 1e-7 && px < b.maxX - 1e-7 && py > b.minY + 1e-7 && py < b.maxY - 1e-7), `wall ${i} face at (${c}) inside wall ${j}`);
        });
      }
  });
  for (const w of house.walls) {
    const len = Math.hypot(w.b[0] - w.a[0], w.b[1] - w.a[1]);
    const d = [(w.b[0] - w.a[0]) / len, (w.b[1] - w.a[1]) / len];
    const n = [-d[1]!, d[0]!];
    for (const o of w.openings) {
      const c = [w.a[0] + d[0]! * o.offset, w.a[1] + d[1]! * o.offset];
      const across = (z: number): [Vec3, Vec3] => [[c[0]! - n[0]! * 0.3, c[1]! - n[1]! * 0.3, z], [c[0]! + n[0]! * 0.3, c[1]! + n[1]! * 0.3, z]];
      assert.equal(hits(walls, ...across((o.bottom + o.top) / 2)), 0, `${w.id} ${o.kind} at ${o.offset} is open`);
      assert.equal(hits(walls, ...across((o.top + w.height) / 2)), 2, `${w.id} above the ${o.kind} is solid`);
    }
  }
});

// ---- floors and ceilings ----------------------------------------------------------------------

test("floors: each room's polygon plus its door thresholds, facing up; ceilings face down at the ceiling height", () => {
  const meshes = structureMeshes(house);
  house.rooms.forEach((room, i) => {
    const floor = meshes.find((m) => m.instanceId === structureInstanceId("floor", i))!;
    assert.equal(floor.category, "floor");
    let a = 0;
    for (const t of triangles(floor)) {
      assert.ok(t.every((p) => p[2] === 0));
      assert.ok(cross(sub(t[1], t[0]), sub(t[2], t[0]))[2] > 0, "counter-clockwise from above");
      a += area(t);
    }
    const xs = room.polygon.map((p) => p[0]);
    const ys = room.polygon.map((p) => p[1]);
    const polygonArea = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
    const thresholds = house.doors
      .filter((d) => (d.rooms[0] ?? d.rooms[1]) === room.id)
      .reduce((s, d) => s + d.width * house.walls.find((w) => w.id === d.wallId)!.thickness, 0);
    assert.ok(Math.abs(a - (polygonArea + thresholds)) < 1e-5, `${room.id}: ${a} vs ${polygonArea} + ${thresholds}`);
    const ceiling = meshes.find((m) => m.instanceId === structureInstanceId("ceiling", i))!;
    assert.equal(ceiling.category, "ceiling");
    let c = 0;
    for (const t of triangles(ceiling)) {
      assert.ok(t.every((p) => Math.abs(p[2] - house.ceilingHeight) < 1e-6));
      assert.ok(cross(sub(t[1], t[0]), sub(t[2], t[0]))[2] < 0, "faces down");
      c += area(t);
    }
    assert.ok(Math.abs(c - polygonArea) < 1e-5);
  });
  // Every doorway's threshold is floor: a vertical ray at the door centre meets a floor triangle.
  const floors = meshes.filter((m) => m.category === "floor");
  for (const d of house.doors) assert.equal(hits(floors, [d.center[0], d.center[1], 0.5], [d.center[0], d.center[1], -0.5]), 1, `${d.id} threshold`);
});

test("triangulatePolygon: a convex and an L-shaped polygon, areas by hand", () => {
  const area2 = (pts: [number, number][], tris: [number, number, number][]) =>
    tris.reduce((s, [i, j, k]) => s + Math.abs((pts[j]![0] - pts[i]![0]) * (pts[k]![1] - pts[i]![1]) - (pts[j]![1] - pts[i]![1]) * (pts[k]![0] - pts[i]![0])) / 2, 0);
  const square: [number, number][] = [[0, 0], [2, 0], [2, 1], [0, 1]];
  assert.equal(triangulatePolygon(square).length, 2);
  assert.ok(Math.abs(area2(square, triangulatePolygon(square)) - 2) < 1e-12);
  const ell: [number, number][] = [[0, 0], [3, 0], [3, 1], [1, 1], [1, 2], [0, 2]];
  const tris = triangulatePolygon(ell);
  assert.equal(tris.length, 4);
  assert.ok(Math.abs(area2(ell, tris) - 4) < 1e-12);
});

// ---- surface textures --------------------------------------------------------------------------

test("procedural surface textures: 256 x 256 RGBA, deterministic, patterned by material", () => {
  for (const name of ["oak planks", "white tiles", "beige carpet", "painted plaster sage green"]) {
    const t = surfaceTexture(name);
    assert.equal(t.width, SURFACE_TEXTURE_SIZE);
    assert.equal(t.height, SURFACE_TEXTURE_SIZE);
    assert.equal(t.data.length, SURFACE_TEXTURE_SIZE * SURFACE_TEXTURE_SIZE * 4);
    for (let k = 3; k < t.data.length; k += 4) assert.equal(t.data[k], 255);
  }
  assert.notDeepEqual(surfaceTexture("oak planks").data, surfaceTexture("walnut planks").data);
  const px = (name: string, x: number, y: number) => { const t = surfaceTexture(name); const k = 4 * (y * t.width + x); return t.data[k]! + t.data[k + 1]! + t.data[k + 2]!; };
  // Planks: the gap column at the start of every 32-pixel plank is darker than the plank's middle.
  for (let p = 0; p < 8; p++) assert.ok(px("oak planks", 32 * p, 100) < px("oak planks", 32 * p + 16, 100) * 0.75);
  // Tiles: grout rows/columns at multiples of 128 px differ from the white tile face.
  assert.ok(Math.abs(px("white tiles", 0, 64) - px("white tiles", 64, 64)) > 60);
  // Plaster keeps its colour: sage green is greener than red.
  const t = surfaceTexture("painted plaster sage green");
  assert.ok(t.data[1]! > t.data[0]!);
  assert.equal(metresPerTexture("oak planks", "floor"), 1.28);
  assert.equal(metresPerTexture("white tiles", "floor"), 0.6);
  assert.equal(metresPerTexture("white tiles", "wall"), 0.3);
  assert.equal(metresPerTexture("painted plaster white", "wall"), 1);
});
