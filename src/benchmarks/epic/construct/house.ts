/**
 * A furnished house ready for EPIC-Bench samples: the engine's house with a few people added
 * (catalogue person models standing in free floor space), its world meshes, the agent grids, and
 * per object what its model's mesh groups are (material names, areas, named parts, material class)
 * and the height of its top (the catalogue's drop-on-top elevation: a seat or a table top).
 *
 * The part-split meshes give every mesh group of every object its own instance id, with the
 * up-facing faces at the top height apart from the rest, so one render of them yields exact part
 * and top-surface masks (PART_ID_BASE).
 */
import type { CatalogEntry, Catalogue } from "../../../world/assets/catalog.js";
import type { CatalogModel, ModelLibrary } from "../../../world/assets/models.js";
import { entryAppearance, partArea } from "../../../world/house/appearance.js";
import { generateHouse } from "../../../world/house/index.js";
import { switchedOnParts } from "../../../world/render/switched-on.js";
import { objectMesh, sceneMeshes, type TextureCache } from "../../../world/meshes.js";
import { cellCenter, roomAt, type OccupancyGrid } from "../../../world/space/index.js";
import type { Rng } from "../../../stats/rng.js";
import type { Scene, SceneObject, Texture, Vec2, WorldMesh, WorldMeshPart } from "../../../world/types.js";
import { agentGrids } from "../../egopath/construct/grids.js";
import type { AgentGrids } from "../../egopath/construct/types.js";
import { EPIC_PARAMS as P } from "./params.js";
import { classifyOutline, rasterOutline, topViewTriangles, type Outline } from "./outline.js";
import { materialClass, partOf, type PartRule } from "./words.js";

/** Instance ids of the part-split render: base + object id x 10,000 + 2 x mesh group + (1 for top faces). */
export const PART_ID_BASE = 100_000_000;
const PART_STRIDE = 10_000;

export function partInstanceId(objectId: number, part: number, top: boolean): number {
  return PART_ID_BASE + objectId * PART_STRIDE + 2 * part + (top ? 1 : 0);
}

export function decodePartInstanceId(id: number): { objectId: number; part: number; top: boolean } | null {
  if (id < PART_ID_BASE) return null;
  const rest = id - PART_ID_BASE;
  const objectId = Math.floor(rest / PART_STRIDE);
  const k = rest - objectId * PART_STRIDE;
  return { objectId, part: k >> 1, top: (k & 1) === 1 };
}

export interface ObjectInfo {
  /** Material name of each mesh group (the WorldMesh parts are in the same order). */
  partMaterials: (string | null)[];
  /** The named part of each mesh group, or null. */
  partRules: (PartRule | null)[];
  /** The material class covering at least half of the model's surface, or null. */
  material: string | null;
  /** World height of the model's top surface (drop-on-top elevation), or null when nothing goes on it. */
  topZ: number | null;
  /** The model's outline seen from directly above (outline.ts). */
  outline: Outline;
}

export interface EpicHouse {
  scene: Scene;
  meshes: WorldMesh[];
  /** The meshes with every object split into its mesh groups and top faces (PART_ID_BASE ids); structure unchanged. */
  splitMeshes: WorldMesh[];
  grids: AgentGrids;
  objectsById: Map<number, SceneObject>;
  info: Map<number, ObjectInfo>;
  entries: Map<string, CatalogEntry>;
  /** The objects of the ObjectState categories whose look switching on changes (world/render/switched-on.ts). */
  switchable: Set<number>;
}

/** Standing person models (sitting, lying and holding poses left out: they need a seat or a partner). */
export function standingPeople(catalogue: Catalogue): CatalogEntry[] {
  return catalogue.entries.filter((e) => e.category === "person" && !/sitting|lying|holding/i.test(e.name)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The model's material class: the class of the largest share of surface area, when that share is at least one half. */
export function dominantMaterial(materials: readonly (string | null)[], areas: readonly number[]): string | null {
  const byClass = new Map<string, number>();
  let total = 0;
  materials.forEach((m, i) => {
    total += areas[i]!;
    const c = m === null ? null : materialClass(m);
    if (c) byClass.set(c, (byClass.get(c) ?? 0) + areas[i]!);
  });
  let best: string | null = null, bestArea = 0;
  for (const [c, a] of [...byClass].sort(([x], [y]) => (x < y ? -1 : 1))) if (a > bestArea) { best = c; bestArea = a; }
  return best !== null && bestArea >= total / 2 ? best : null;
}

async function modelTextures(library: ModelLibrary, textures: TextureCache, model: CatalogModel): Promise<Record<string, Texture | null>> {
  const out: Record<string, Texture | null> = {};
  for (const [material, zipEntry] of Object.entries(model.diffuseMaps)) out[material] = await textures.get(library, model.entry, zipEntry);
  return out;
}

/** World box of a mesh's vertices. */
function meshBbox(mesh: WorldMesh): SceneObject["bbox"] {
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const part of mesh.parts) {
    for (let i = 0; i < part.positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = part.positions[i + k]!;
        if (v < min[k]!) min[k] = v;
        if (v > max[k]!) max[k] = v;
      }
    }
  }
  return { min, max };
}

/**
 * People stand on free cells of the embodied grid (0.30 m clear of everything), at least 1.0 m
 * from each other, in a random room, with a random heading.
 */
async function addPeople(scene: Scene, meshes: WorldMesh[], grid: OccupancyGrid, catalogue: Catalogue, library: ModelLibrary, textures: TextureCache, rng: Rng, count: number): Promise<void> {
  const models = standingPeople(catalogue);
  if (models.length === 0 || count <= 0) return;
  const free: Vec2[] = [];
  for (let j = 0; j < grid.height; j += 2) for (let i = 0; i < grid.width; i += 2) if (!grid.occupied[j * grid.width + i]) free.push(cellCenter(grid, i, j));
  const placed: Vec2[] = [];
  let nextId = Math.max(0, ...scene.objects.map((o) => o.id)) + 1;
  for (let attempt = 0; attempt < 40 && placed.length < count && free.length > 0 && models.length > 0; attempt++) {
    const p = free[rng.below(free.length)]!;
    const room = roomAt(scene, p);
    if (!room || placed.some((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) < 1.0)) continue;
    // Each person of a house is a different model (the same figure twice in a room reads as a copy).
    const entry = models.splice(rng.below(models.length), 1)[0]!;
    const model = library.load(entry);
    const yaw = rng.float(0, 2 * Math.PI);
    const appearance = await entryAppearance(library, entry);
    const object: SceneObject = {
      id: nextId++,
      name: `person_${placed.length + 1}`,
      category: "person",
      catalogId: entry.id,
      modelName: entry.name,
      room,
      position: [p[0], p[1], 0],
      yaw,
      size: { ...entry.sizeM },
      bbox: { min: [0, 0, 0], max: [0, 0, 0] },
      color: appearance.color,
      materials: appearance.materials,
      supportId: null,
      inWall: false,
    };
    const mesh = objectMesh(object, model, await modelTextures(library, textures, model));
    object.bbox = meshBbox(mesh);
    scene.objects.push(object);
    meshes.push(mesh);
    placed.push(p);
  }
}

/** Outlines of the models parsed so far (the library hands out the same model while it keeps it). */
const OUTLINES = new WeakMap<Pick<CatalogModel, "mesh">, Outline>();

/** The outline of a model seen from above (the same for every object of the model, in every house). */
export function modelOutline(model: Pick<CatalogModel, "mesh">): Outline {
  let outline = OUTLINES.get(model);
  if (!outline) OUTLINES.set(model, (outline = classifyOutline(rasterOutline(topViewTriangles(model.mesh.parts)))));
  return outline;
}

/** Mesh-group facts of one object (ObjectInfo). */
function objectInfo(object: SceneObject, model: CatalogModel, entry: CatalogEntry): ObjectInfo {
  const partMaterials = model.mesh.parts.map((p) => p.material);
  const areas = model.mesh.parts.map((p) => partArea(p));
  const drop = entry.dropOnTopElevationM;
  return {
    partMaterials,
    partRules: partMaterials.map((m) => partOf(object.category, m)),
    // A group's material is named by its MTL material or by its texture's file name ("oak.jpg").
    material: dominantMaterial(partMaterials.map((m) => (m === null ? null : `${m} ${model.diffuseMaps[m] ?? ""}`)), areas),
    topZ: object.inWall || object.category === "person" || drop === null ? null : object.position[2] + drop,
    outline: modelOutline(model),
  };
}

/** Whether triangle t of a part is an up-facing face at the top height (params: topNormalZ, topBelowM, topAboveM). */
export function isTopFace(part: WorldMeshPart, t: number, topZ: number): boolean {
  const p = part.positions, idx = part.indices;
  const a = idx[t]! * 3, b = idx[t + 1]! * 3, c = idx[t + 2]! * 3;
  const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
  const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz);
  if (len === 0 || Math.abs(nz) / len < P.topNormalZ) return false;
  const n = part.normals;
  if (n[a + 2]! + n[b + 2]! + n[c + 2]! <= 0) return false;
  const zc = (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3;
  return zc >= topZ - P.topBelowM && zc <= topZ + P.topAboveM;
}

/** One object's mesh split by mesh group and, within a group, into top faces and the rest. */
export function splitObjectMesh(mesh: WorldMesh, topZ: number | null): WorldMesh[] {
  const out: WorldMesh[] = [];
  mesh.parts.forEach((part, k) => {
    const top: number[] = [], rest: number[] = [];
    for (let t = 0; t + 2 < part.indices.length; t += 3) {
      const into = topZ !== null && isTopFace(part, t, topZ) ? top : rest;
      into.push(part.indices[t]!, part.indices[t + 1]!, part.indices[t + 2]!);
    }
    for (const [indices, isTop] of [[rest, false], [top, true]] as const) {
      if (indices.length === 0) continue;
      out.push({ instanceId: partInstanceId(mesh.instanceId, k, isTop), category: mesh.category, parts: [{ ...part, indices: Uint32Array.from(indices) }] });
    }
  });
  return out;
}

/** The house of one seed with its people, meshes, grids and per-object facts. */
export async function buildEpicHouse(catalogue: Catalogue, library: ModelLibrary, textures: TextureCache, seed: number, rng: Rng, people: number = P.peoplePerHouse): Promise<EpicHouse> {
  const scene = await generateHouse({ catalogue, library, seed });
  const meshes = await sceneMeshes(scene, library, catalogue, { textures });
  await addPeople(scene, meshes, agentGrids(scene, meshes).embodied, catalogue, library, textures, rng, people);
  const grids = agentGrids(scene, meshes, undefined, P.robotRadiusM);
  const entries = new Map(catalogue.entries.map((e) => [e.id, e]));
  const info = new Map<number, ObjectInfo>();
  const models = new Map<string, CatalogModel>();
  for (const o of scene.objects) {
    const entry = entries.get(o.catalogId)!;
    let model = models.get(o.catalogId);
    if (!model) models.set(o.catalogId, (model = library.load(entry)));
    info.set(o.id, objectInfo(o, model, entry));
  }
  const splitMeshes = meshes.flatMap((m) => (info.has(m.instanceId) ? splitObjectMesh(m, info.get(m.instanceId)!.topZ) : [m]));
  const objectsById = new Map(scene.objects.map((o) => [o.id, o]));
  const switchable = new Set<number>();
  for (const m of meshes) {
    const o = objectsById.get(m.instanceId);
    if (o && P.stateCategories.includes(o.category) && switchedOnParts(m, o).length > 0) switchable.add(o.id);
  }
  return { scene, meshes, splitMeshes, grids, objectsById, info, entries, switchable };
}
