/**
 * World-space meshes of a scene: every object's catalogue model placed in the world, and the
 * structure (floors, ceilings, walls with their openings cut out), for the renderer and the
 * space module.
 *
 * Objects. A model vertex (x, y, z) (y up, fitted to the catalogue box: models.ts / mesh.ts)
 * enters the world by the rotation (x, y, z) -> (x, -z, y) (types.ts), then the object's yaw about
 * +z, then the translation to its position (footprint centre, bottom elevation). Normals get the
 * same rotations (both are proper rotations, so the triangle winding is kept). A part's diffuse
 * colour is its MTL Kd (linear 0..1) or DEFAULT_DIFFUSE without a material, its opacity the MTL
 * `d`, its texture the decoded map_Kd (TextureCache: sharp, RGBA8, cached per library file and
 * zip entry, larger sides scaled down to MAX_TEXTURE_SIDE).
 *
 * Structure. Floors and ceilings are the room polygons (ceilings at the ceiling height, facing
 * down), plus a threshold quad under every door opening (in the floor mesh of the door's first
 * room), so the floor has no gap where a doorway crosses the wall. Walls are boxes on their centre
 * lines (a to b, thickness, height); each side face is split into rectangles around its openings,
 * which get their reveals (jambs, lintel, sill). Faces hidden inside another wall (at junctions,
 * where the floor plan lengthens walls to cover the corner) are dropped, and of two coincident
 * faces only the lower-index wall's is kept, so no two wall faces z-fight. Structure parts are
 * textured procedurally by material (house/surfaces.ts) with texture coordinates in metres over
 * the material's tile size (the renderer repeats textures); their diffuse is white.
 */
import sharp from "sharp";
import type { CatalogEntry, Catalogue } from "./assets/catalog.js";
import type { CatalogModel, ModelLibrary } from "./assets/models.js";
import { DEFAULT_DIFFUSE } from "./house/appearance.js";
import { yawCosSin } from "./house/footprint.js";
import { EXTERIOR_WALL_MATERIAL } from "./house/program.js";
import { metresPerTexture, surfaceTexture, type SurfaceUse } from "./house/surfaces.js";
import { structureInstanceId, type Opening, type Scene, type SceneObject, type Texture, type Vec2, type Vec3, type Wall, type WorldMesh, type WorldMeshPart } from "./types.js";

/** Textures larger than this (either side) are scaled down on decoding. */
export const MAX_TEXTURE_SIDE = 1024;
export const CEILING_MATERIAL = "ceiling plaster";

// ---------------------------------------------------------------------------------------------
// Textures of models

/** Decoded model textures, one per library file and zip entry. */
export class TextureCache {
  private readonly textures = new Map<string, Promise<Texture | null>>();

  /** The texture of a zip entry of the entry's library, RGBA8 from its top-left texel; null when absent or undecodable. */
  get(library: ModelLibrary, entry: CatalogEntry, zipEntry: string): Promise<Texture | null> {
    const key = `${entry.libraryFile}\u0000${zipEntry}`;
    let hit = this.textures.get(key);
    if (!hit) {
      hit = decodeTexture(library.texture(entry, zipEntry));
      this.textures.set(key, hit);
    }
    return hit;
  }

  get size(): number {
    return this.textures.size;
  }

  clear(): void {
    this.textures.clear();
  }
}

/** Decodes PNG/JPEG bytes to an RGBA8 Texture (null for missing or undecodable bytes). */
export async function decodeTexture(bytes: Buffer | undefined): Promise<Texture | null> {
  if (!bytes) return null;
  try {
    const { data, info } = await sharp(bytes)
      .resize(MAX_TEXTURE_SIDE, MAX_TEXTURE_SIDE, { fit: "inside", withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Objects

/** Maps a model-space point (y up) to the world for an object at `position` with `yaw`. */
export function modelToWorld(p: Vec3, position: Vec3, yaw: number): Vec3 {
  const [c, s] = yawCosSin(yaw);
  const x0 = p[0];
  const y0 = -p[2];
  const z0 = p[1];
  return [position[0] + c * x0 - s * y0, position[1] + s * x0 + c * y0, position[2] + z0];
}

/**
 * The object's model in world space (pure). `textures` gives the decoded texture per material
 * name (parts whose material has none get texture null).
 */
export function objectMesh(
  object: Pick<SceneObject, "id" | "category" | "position" | "yaw">,
  model: Pick<CatalogModel, "mesh" | "materials">,
  textures: Readonly<Record<string, Texture | null>> = {},
): WorldMesh {
  const [c, s] = yawCosSin(object.yaw);
  const [px, py, pz] = object.position;
  const parts: WorldMeshPart[] = model.mesh.parts.map((part) => {
    const n = part.positions.length / 3;
    const positions = new Float32Array(3 * n);
    const normals = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      const x = part.positions[3 * i]!, y = part.positions[3 * i + 1]!, z = part.positions[3 * i + 2]!;
      // (x, y, z) -> (x, -z, y), then the yaw.
      positions[3 * i] = px + c * x + s * z;
      positions[3 * i + 1] = py + s * x - c * z;
      positions[3 * i + 2] = pz + y;
      const nx = part.normals[3 * i]!, ny = part.normals[3 * i + 1]!, nz = part.normals[3 * i + 2]!;
      normals[3 * i] = c * nx + s * nz;
      normals[3 * i + 1] = s * nx - c * nz;
      normals[3 * i + 2] = ny;
    }
    const material = part.material === null ? undefined : model.materials[part.material];
    const diffuse = material ? material.diffuse : DEFAULT_DIFFUSE;
    return {
      positions,
      normals,
      uvs: part.uvs ? part.uvs.slice() : null,
      indices: part.indices.slice(),
      diffuse: [diffuse[0], diffuse[1], diffuse[2]],
      opacity: material ? material.opacity : 1,
      texture: part.material === null ? null : (textures[part.material] ?? null),
    };
  });
  return { instanceId: object.id, category: object.category, parts };
}

/** Meshes of every object of the scene (id order), models loaded once per catalogue entry. */
export async function objectMeshes(scene: Scene, library: ModelLibrary, catalogue: Catalogue, cache: TextureCache = new TextureCache()): Promise<WorldMesh[]> {
  const entries = new Map(catalogue.entries.map((e) => [e.id, e]));
  const models = new Map<string, { model: CatalogModel; textures: Record<string, Texture | null> }>();
  const out: WorldMesh[] = [];
  for (const object of scene.objects) {
    let loaded = models.get(object.catalogId);
    if (!loaded) {
      const entry = entries.get(object.catalogId);
      if (!entry) throw new Error(`object ${object.id} (${object.name}): catalogue entry ${object.catalogId} is not in the catalogue`);
      const model = library.load(entry);
      const textures: Record<string, Texture | null> = {};
      for (const [material, zipEntry] of Object.entries(model.diffuseMaps)) textures[material] = await cache.get(library, entry, zipEntry);
      loaded = { model, textures };
      models.set(object.catalogId, loaded);
    }
    out.push(objectMesh(object, loaded.model, loaded.textures));
  }
  return out;
}

/** Every mesh of the scene: structure (floors, ceilings, walls) first, then the objects. */
export async function sceneMeshes(scene: Scene, library: ModelLibrary, catalogue: Catalogue, options: { textures?: TextureCache; structure?: boolean } = {}): Promise<WorldMesh[]> {
  const objects = await objectMeshes(scene, library, catalogue, options.textures);
  return options.structure === false ? objects : [...structureMeshes(scene), ...objects];
}

// ---------------------------------------------------------------------------------------------
// Structure

/** Collects triangles per material for one structure mesh. */
class PartBuilder {
  private readonly parts = new Map<string, { positions: number[]; normals: number[]; uvs: number[]; indices: number[] }>();

  constructor(private readonly use: SurfaceUse) {}

  /**
   * A planar quad (corners in order around it) with the given unit normal; the winding is set so
   * the triangles face `normal`. `uv(p)` gives metre coordinates, divided by the material's tile.
   */
  quad(material: string, corners: readonly Vec3[], normal: Vec3, uv: (p: Vec3) => Vec2): void {
    const [p0, p1, p2] = corners as [Vec3, Vec3, Vec3];
    const e1 = sub(p1, p0);
    const e2 = sub(p2, p0);
    const cross: Vec3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const ordered = cross[0] * normal[0] + cross[1] * normal[1] + cross[2] * normal[2] >= 0 ? corners : [...corners].reverse();
    this.polygon(material, ordered, normal, uv, [[0, 1, 2], [0, 2, 3]]);
  }

  /** Triangles over `points` (indices into it), all with one normal. */
  polygon(material: string, points: readonly Vec3[], normal: Vec3, uv: (p: Vec3) => Vec2, triangles: readonly [number, number, number][]): void {
    let part = this.parts.get(material);
    if (!part) this.parts.set(material, (part = { positions: [], normals: [], uvs: [], indices: [] }));
    const tile = metresPerTexture(material, this.use);
    const base = part.positions.length / 3;
    for (const p of points) {
      part.positions.push(p[0], p[1], p[2]);
      part.normals.push(normal[0], normal[1], normal[2]);
      const [u, v] = uv(p);
      part.uvs.push(u / tile, v / tile);
    }
    for (const [a, b, c] of triangles) part.indices.push(base + a, base + b, base + c);
  }

  build(): WorldMeshPart[] {
    return [...this.parts.entries()].map(([material, p]) => ({
      positions: Float32Array.from(p.positions),
      normals: Float32Array.from(p.normals),
      uvs: Float32Array.from(p.uvs),
      indices: Uint32Array.from(p.indices),
      diffuse: [1, 1, 1],
      opacity: 1,
      texture: surfaceTexture(material),
    }));
  }
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Ear-clipping triangulation of a simple counter-clockwise polygon (rooms have a handful of corners). */
export function triangulatePolygon(polygon: readonly Vec2[]): [number, number, number][] {
  const idx = polygon.map((_, i) => i);
  const out: [number, number, number][] = [];
  const cross = (o: Vec2, a: Vec2, b: Vec2) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const inside = (p: Vec2, a: Vec2, b: Vec2, c: Vec2) => cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
  let guard = 0;
  while (idx.length > 3 && guard++ < 10_000) {
    let clipped = false;
    for (let k = 0; k < idx.length; k++) {
      const i0 = idx[(k + idx.length - 1) % idx.length]!, i1 = idx[k]!, i2 = idx[(k + 1) % idx.length]!;
      const a = polygon[i0]!, b = polygon[i1]!, c = polygon[i2]!;
      if (cross(a, b, c) <= 1e-12) continue;
      if (idx.some((j) => j !== i0 && j !== i1 && j !== i2 && inside(polygon[j]!, a, b, c))) continue;
      out.push([i0, i1, i2]);
      idx.splice(k, 1);
      clipped = true;
      break;
    }
    if (!clipped) break;
  }
  if (idx.length === 3) out.push([idx[0]!, idx[1]!, idx[2]!]);
  return out;
}

interface WallFrame {
  wall: Wall;
  a: Vec2;
  /** Unit direction a -> b and left normal. */
  d: Vec2;
  n: Vec2;
  length: number;
  half: number;
  /** Plan box, for axis-aligned walls (null otherwise: no face culling). */
  box: { minX: number; minY: number; maxX: number; maxY: number } | null;
}

function wallFrame(wall: Wall): WallFrame {
  const dx = wall.b[0] - wall.a[0];
  const dy = wall.b[1] - wall.a[1];
  const length = Math.hypot(dx, dy);
  const d: Vec2 = [dx / length, dy / length];
  const n: Vec2 = [-d[1], d[0]];
  const half = wall.thickness / 2;
  const axisAligned = Math.abs(dx) < 1e-12 || Math.abs(dy) < 1e-12;
  const box = axisAligned
    ? {
        minX: Math.min(wall.a[0], wall.b[0]) - Math.abs(n[0]) * half,
        maxX: Math.max(wall.a[0], wall.b[0]) + Math.abs(n[0]) * half,
        minY: Math.min(wall.a[1], wall.b[1]) - Math.abs(n[1]) * half,
        maxY: Math.max(wall.a[1], wall.b[1]) + Math.abs(n[1]) * half,
      }
    : null;
  return { wall, a: wall.a, d, n, length, half, box };
}

const PROBE_M = 1e-4;
const EPS = 1e-7;

const strictlyInside = (b: NonNullable<WallFrame["box"]>, x: number, y: number) => x > b.minX + EPS && x < b.maxX - EPS && y > b.minY + EPS && y < b.maxY - EPS;

/** Plan point of wall-local (u along, v across). */
function planPoint(f: WallFrame, u: number, v: number): Vec2 {
  return [f.a[0] + f.d[0] * u + f.n[0] * v, f.a[1] + f.d[1] * u + f.n[1] * v];
}

/**
 * The parts of a vertical face of wall `self` (the plan segment from local (u0, v0) to (u1, v1),
 * outward plan normal `out`) that are visible: not inside another wall of the same height, and
 * not coincident with a lower-index wall's face of the same orientation. Returns [t0, t1]
 * parameter intervals (0..1 along the segment).
 */
function visibleIntervals(frames: readonly WallFrame[], self: number, p0: Vec2, p1: Vec2, out: Vec2): [number, number][] {
  const me = frames[self]!;
  if (!me.box) return [[0, 1]];
  const cuts = new Set([0, 1]);
  const alongX = Math.abs(p1[0] - p0[0]) > Math.abs(p1[1] - p0[1]);
  const span = alongX ? p1[0] - p0[0] : p1[1] - p0[1];
  for (let j = 0; j < frames.length; j++) {
    const b = frames[j]!.box;
    if (j === self || !b || frames[j]!.wall.height !== me.wall.height) continue;
    for (const edge of alongX ? [b.minX, b.maxX] : [b.minY, b.maxY]) {
      const t = (edge - (alongX ? p0[0] : p0[1])) / span;
      if (t > 0 && t < 1) cuts.add(t);
    }
  }
  const ts = [...cuts].sort((p, q) => p - q);
  const keep: [number, number][] = [];
  for (let k = 0; k + 1 < ts.length; k++) {
    const t = (ts[k]! + ts[k + 1]!) / 2;
    const mx = p0[0] + (p1[0] - p0[0]) * t;
    const my = p0[1] + (p1[1] - p0[1]) * t;
    const px = mx + out[0] * PROBE_M;
    const py = my + out[1] * PROBE_M;
    let hidden = false;
    for (let j = 0; j < frames.length && !hidden; j++) {
      const b = frames[j]!.box;
      if (j === self || !b || frames[j]!.wall.height !== me.wall.height) continue;
      if (strictlyInside(b, px, py)) hidden = true;
      // A coincident face of a lower-index wall facing the same way: the midpoint lies on that
      // wall's boundary with its inside just behind it.
      else if (j < self && strictlyInside(b, mx - out[0] * PROBE_M, my - out[1] * PROBE_M)) hidden = true;
    }
    if (hidden) continue;
    const last = keep[keep.length - 1];
    if (last && Math.abs(last[1] - ts[k]!) < 1e-12) last[1] = ts[k + 1]!;
    else keep.push([ts[k]!, ts[k + 1]!]);
  }
  return keep;
}

/** Rectangles [u0, u1] x [z0, z1] covering the side-face interval [u0, u1] x [0, h] minus the openings. */
export function sideRectangles(u0: number, u1: number, height: number, openings: readonly Opening[]): [number, number, number, number][] {
  const rects: [number, number, number, number][] = [];
  const spans = openings
    .map((o) => ({ lo: o.offset - o.width / 2, hi: o.offset + o.width / 2, bottom: o.bottom, top: o.top }))
    .filter((o) => o.hi > u0 && o.lo < u1)
    .sort((p, q) => p.lo - q.lo);
  let cursor = u0;
  for (const o of spans) {
    const lo = Math.max(u0, o.lo);
    const hi = Math.min(u1, o.hi);
    if (lo > cursor) rects.push([cursor, lo, 0, height]);
    if (o.bottom > 0) rects.push([lo, hi, 0, o.bottom]);
    if (o.top < height) rects.push([lo, hi, o.top, height]);
    cursor = Math.max(cursor, hi);
  }
  if (cursor < u1) rects.push([cursor, u1, 0, height]);
  return rects;
}

/** Material of a wall side: its room's wall material, or the exterior plaster outside. */
function sideMaterial(scene: Scene, room: string | null): string {
  if (room === null) return EXTERIOR_WALL_MATERIAL;
  return scene.rooms.find((r) => r.id === room)?.wallMaterial ?? EXTERIOR_WALL_MATERIAL;
}

function wallMesh(scene: Scene, frames: readonly WallFrame[], index: number): WorldMesh {
  const f = frames[index]!;
  const { wall, length, half, d, n } = f;
  const h = wall.height;
  const parts = new PartBuilder("wall");
  const at = (u: number, v: number, z: number): Vec3 => {
    const [x, y] = planPoint(f, u, v);
    return [x, y, z];
  };
  const leftMaterial = sideMaterial(scene, wall.rooms[0]);
  const rightMaterial = sideMaterial(scene, wall.rooms[1]);
  const innerMaterial = wall.rooms[0] !== null ? leftMaterial : rightMaterial;
  // Along-wall texture coordinate: distance from a; across: height.
  const alongUv = (p: Vec3): Vec2 => [(p[0] - f.a[0]) * d[0] + (p[1] - f.a[1]) * d[1], p[2]];
  const acrossUv = (p: Vec3): Vec2 => [(p[0] - f.a[0]) * n[0] + (p[1] - f.a[1]) * n[1], p[2]];
  const planUv = (p: Vec3): Vec2 => [p[0], p[1]];

  // Side faces (left v = +half, right v = -half), visible parts only, minus openings.
  for (const [v, normal, material] of [[half, n, leftMaterial], [-half, [-n[0], -n[1]] as Vec2, rightMaterial]] as const) {
    for (const [t0, t1] of visibleIntervals(frames, index, planPoint(f, 0, v), planPoint(f, length, v), normal)) {
      for (const [u0, u1, z0, z1] of sideRectangles(t0 * length, t1 * length, h, wall.openings))
        parts.quad(material, [at(u0, v, z0), at(u1, v, z0), at(u1, v, z1), at(u0, v, z1)], [normal[0], normal[1], 0], alongUv);
    }
  }
  // End caps (u = 0 facing -d, u = length facing +d), visible parts only.
  for (const [u, sign] of [[0, -1], [length, 1]] as const) {
    const out: Vec2 = [d[0] * sign, d[1] * sign];
    for (const [t0, t1] of visibleIntervals(frames, index, planPoint(f, u, -half), planPoint(f, u, half), out)) {
      const v0 = -half + t0 * 2 * half;
      const v1 = -half + t1 * 2 * half;
      parts.quad(innerMaterial, [at(u, v0, 0), at(u, v1, 0), at(u, v1, h), at(u, v0, h)], [out[0], out[1], 0], acrossUv);
    }
  }
  // Top, split where lower-index walls already cover it.
  for (const [u0, u1, v0, v1] of topRectangles(frames, index)) parts.quad(innerMaterial, [at(u0, v0, h), at(u1, v0, h), at(u1, v1, h), at(u0, v1, h)], [0, 0, 1], planUv);
  // Reveals of each opening: jambs, lintel, sill.
  for (const o of wall.openings) {
    const lo = o.offset - o.width / 2;
    const hi = o.offset + o.width / 2;
    parts.quad(innerMaterial, [at(lo, -half, o.bottom), at(lo, half, o.bottom), at(lo, half, o.top), at(lo, -half, o.top)], [d[0], d[1], 0], acrossUv);
    parts.quad(innerMaterial, [at(hi, -half, o.bottom), at(hi, half, o.bottom), at(hi, half, o.top), at(hi, -half, o.top)], [-d[0], -d[1], 0], acrossUv);
    if (o.top < h) parts.quad(innerMaterial, [at(lo, -half, o.top), at(hi, -half, o.top), at(hi, half, o.top), at(lo, half, o.top)], [0, 0, -1], planUv);
    if (o.bottom > 0) parts.quad(innerMaterial, [at(lo, -half, o.bottom), at(hi, -half, o.bottom), at(hi, half, o.bottom), at(lo, half, o.bottom)], [0, 0, 1], planUv);
  }
  return { instanceId: structureInstanceId("wall", index), category: "wall", parts: parts.build() };
}

/** The wall's top as local rectangles [u0, u1, v0, v1], leaving out what lower-index walls' tops cover. */
function topRectangles(frames: readonly WallFrame[], index: number): [number, number, number, number][] {
  const f = frames[index]!;
  const full: [number, number, number, number] = [0, f.length, -f.half, f.half];
  if (!f.box) return [full];
  const us = new Set([0, f.length]);
  const vs = new Set([-f.half, f.half]);
  const others = frames.slice(0, index).filter((g) => g.box && g.wall.height === f.wall.height);
  for (const g of others) {
    const b = g.box!;
    for (const [x, y] of [[b.minX, b.minY], [b.maxX, b.maxY]] as const) {
      const u = (x - f.a[0]) * f.d[0] + (y - f.a[1]) * f.d[1];
      const v = (x - f.a[0]) * f.n[0] + (y - f.a[1]) * f.n[1];
      if (u > 0 && u < f.length) us.add(u);
      if (v > -f.half && v < f.half) vs.add(v);
    }
  }
  const su = [...us].sort((p, q) => p - q);
  const sv = [...vs].sort((p, q) => p - q);
  const out: [number, number, number, number][] = [];
  for (let i = 0; i + 1 < su.length; i++)
    for (let j = 0; j + 1 < sv.length; j++) {
      const [x, y] = planPoint(f, (su[i]! + su[i + 1]!) / 2, (sv[j]! + sv[j + 1]!) / 2);
      if (others.some((g) => strictlyInside(g.box!, x, y))) continue;
      out.push([su[i]!, su[i + 1]!, sv[j]!, sv[j + 1]!]);
    }
  return out;
}

/** Floors (with door thresholds), ceilings and walls of the scene. */
export function structureMeshes(scene: Scene): WorldMesh[] {
  const floors = scene.rooms.map(() => new PartBuilder("floor"));
  const roomIndex = new Map(scene.rooms.map((r, i) => [r.id, i]));
  const planUv = (p: Vec3): Vec2 => [p[0], p[1]];
  const meshes: WorldMesh[] = [];
  scene.rooms.forEach((room, i) => {
    const points = room.polygon.map(([x, y]): Vec3 => [x, y, 0]);
    floors[i]!.polygon(room.floorMaterial, points, [0, 0, 1], planUv, triangulatePolygon(room.polygon));
  });
  // Door thresholds: the opening's footprint through the wall, in the first room's floor.
  const walls = new Map(scene.walls.map((w) => [w.id, w]));
  for (const door of scene.doors) {
    const wall = walls.get(door.wallId);
    const room = door.rooms[0] ?? door.rooms[1];
    if (!wall || room === null) continue;
    const i = roomIndex.get(room);
    if (i === undefined) continue;
    const f = wallFrame(wall);
    const offset = (door.center[0] - f.a[0]) * f.d[0] + (door.center[1] - f.a[1]) * f.d[1];
    const lo = offset - door.width / 2;
    const hi = offset + door.width / 2;
    const corners = [planPoint(f, lo, -f.half), planPoint(f, hi, -f.half), planPoint(f, hi, f.half), planPoint(f, lo, f.half)].map(([x, y]): Vec3 => [x, y, 0]);
    floors[i]!.quad(scene.rooms[i]!.floorMaterial, corners, [0, 0, 1], planUv);
  }
  floors.forEach((b, i) => meshes.push({ instanceId: structureInstanceId("floor", i), category: "floor", parts: b.build() }));
  scene.rooms.forEach((room, i) => {
    const b = new PartBuilder("ceiling");
    const z = scene.ceilingHeight;
    const points = room.polygon.map(([x, y]): Vec3 => [x, y, z]);
    const tris = triangulatePolygon(room.polygon).map(([p, q, r]): [number, number, number] => [p, r, q]);
    b.polygon(CEILING_MATERIAL, points, [0, 0, -1], planUv, tris);
    meshes.push({ instanceId: structureInstanceId("ceiling", i), category: "ceiling", parts: b.build() });
  });
  const frames = scene.walls.map(wallFrame);
  scene.walls.forEach((_, i) => meshes.push(wallMesh(scene, frames, i)));
  return meshes;
}
