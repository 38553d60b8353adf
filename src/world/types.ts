/**
 * The world engine's shared types: a furnished house (rooms, walls, doors, objects) and the
 * world-space meshes that the renderer and the space module read.
 *
 * Coordinates: metres, right-handed, z up. The floor is z = 0; x and y span the plan. A yaw is
 * measured counter-clockwise from +x about +z. Catalogue models are modelled y-up (Sweet Home 3D);
 * they enter the world by the rotation (x, y, z) -> (x, -z, y), so a model's front (+z in its
 * file) faces -y before the object's own yaw is applied.
 */
import { CATEGORIES, type Category } from "./assets/catalog.js";

export type Vec2 = [number, number];
export type Vec3 = [number, number, number];

export interface Aabb3 {
  min: Vec3;
  max: Vec3;
}

export const ROOM_TYPES = ["living room", "kitchen", "dining room", "bedroom", "bathroom", "office", "hallway"] as const;
export type RoomType = (typeof ROOM_TYPES)[number];

export interface Room {
  id: string;
  type: RoomType;
  /** Floor outline, counter-clockwise, metres (inner faces of the walls). */
  polygon: Vec2[];
  floorMaterial: string;
  wallMaterial: string;
}

/** A gap in a wall: a door (between two rooms) or a window. */
export interface Opening {
  kind: "door" | "window";
  /** Distance along the wall from `a` to the opening's centre, metres. */
  offset: number;
  width: number;
  /** Sill height (0 for doors) and top of the opening, metres above the floor. */
  bottom: number;
  top: number;
  /** Object id of the door or window model filling it, when one is placed. */
  objectId?: number;
}

/** A straight wall on its centre line from `a` to `b`. */
export interface Wall {
  id: string;
  a: Vec2;
  b: Vec2;
  thickness: number;
  height: number;
  /** Room ids on the wall's left and right side (null for the outside). */
  rooms: [string | null, string | null];
  openings: Opening[];
}

export interface Door {
  id: string;
  wallId: string;
  /** The two rooms the door joins (one may be null for an entrance). */
  rooms: [string | null, string | null];
  /** Centre of the opening on the wall's centre line. */
  center: Vec2;
  width: number;
}

export interface ColorInfo {
  /** A basic colour word a person would use ("red", "white", "brown", ...). */
  name: string;
  /** Area-weighted mean of the model's visible surface colour, 0..255 sRGB. */
  rgb: [number, number, number];
}

export interface SceneObject {
  /** Instance id, >= 1, unique in the scene; the renderer's instance buffer holds it. */
  id: number;
  /** Readable unique name, e.g. "chair_3". */
  name: string;
  category: Category;
  /** Catalogue id (`id#N`) of the model. */
  catalogId: string;
  /** The model's catalogue name ("Oak chair"), for scene.json and descriptions. */
  modelName?: string;
  /** Room id the object stands in. */
  room: string;
  /** Centre of the footprint on its supporting surface (z = elevation of its bottom). */
  position: Vec3;
  /** Radians, counter-clockwise about +z; 0 = the model's front faces -y. */
  yaw: number;
  /** Catalogue size in metres: width along the model's x, depth along its front axis, height. */
  size: { width: number; depth: number; height: number };
  /** World axis-aligned bounding box of the placed mesh. */
  bbox: Aabb3;
  color: ColorInfo;
  /** Material names of the model, for descriptions. */
  materials: string[];
  /** Id of the object this one stands on (small objects on surfaces), or null for the floor. */
  supportId: number | null;
  /** True for doors and windows set into walls. */
  inWall: boolean;
}

export interface Scene {
  id: string;
  seed: number;
  rooms: Room[];
  walls: Wall[];
  doors: Door[];
  objects: SceneObject[];
  /** Height of the ceiling above the floor, metres. */
  ceilingHeight: number;
  /** Plan bounds of the whole house (outer wall faces included). */
  bounds: { min: Vec2; max: Vec2 };
  /** Ceiling lights (one or more per room), for the renderer's light model. */
  lights: PointLight[];
}

export interface PointLight {
  position: Vec3;
  /** Linear RGB intensity (1 = a typical room light). */
  color: [number, number, number];
  room: string;
}

/** Structure categories of the instance / category buffers, beside the catalogue's categories. */
export const STRUCTURE_CATEGORIES = ["floor", "wall", "ceiling"] as const;
export type StructureCategory = (typeof STRUCTURE_CATEGORIES)[number];
export type WorldCategory = Category | StructureCategory;

/** Every category of the category buffer; a pixel's category id is its index here plus 1 (0 = nothing). */
export const WORLD_CATEGORIES: readonly WorldCategory[] = [...STRUCTURE_CATEGORIES, ...CATEGORIES];
const CATEGORY_IDS = new Map<WorldCategory, number>(WORLD_CATEGORIES.map((c, i) => [c, i + 1]));

export function categoryId(category: WorldCategory): number {
  const id = CATEGORY_IDS.get(category);
  if (id === undefined) throw new Error(`unknown category "${category}"`);
  return id;
}

/**
 * Instance ids: objects use their own ids (1, 2, ...); structure gets ids far above them, by kind
 * and index (room index for floors and ceilings, wall index for walls).
 */
export const STRUCTURE_ID_BASE = { floor: 1_000_000, wall: 2_000_000, ceiling: 3_000_000 } as const;

export function structureInstanceId(kind: StructureCategory, index: number): number {
  return STRUCTURE_ID_BASE[kind] + index;
}

/** An RGBA8 texture, row-major from the top-left texel. */
export interface Texture {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface WorldMeshPart {
  /** Triangle vertices in world coordinates (x, y, z per vertex). */
  positions: Float32Array;
  /** Unit normals per vertex, world coordinates. */
  normals: Float32Array;
  /** Texture coordinates per vertex (u, v; v = 0 at the texture's bottom, as in OBJ), or null. */
  uvs: Float32Array | null;
  indices: Uint32Array;
  /** Linear 0..1 diffuse colour (multiplied by the texture when one is given). */
  diffuse: [number, number, number];
  /** 1 = opaque. Parts with opacity below 0.5 are drawn to RGB only (glass), not to depth/instance. */
  opacity: number;
  texture: Texture | null;
  /** Linear light the surface gives off (a lit lamp's shade, a screen), added to what it reflects; lit shading only. */
  emission?: [number, number, number];
}

/** One instance of the scene in world space: an object, or a piece of structure. */
export interface WorldMesh {
  /** Instance id: an object's id, or a structure id (see structureInstanceId in meshes.ts). */
  instanceId: number;
  category: WorldCategory;
  parts: WorldMeshPart[];
}
