/**
 * scene.json back to a Scene: the inverse of sceneToJson (scene-json.ts), so a released house can
 * be meshed, rendered and navigated again. The file is untrusted: its shape is checked with zod
 * and its references (rooms, walls, support objects, opening objects) against each other, and
 * every defect is reported at once as a DataError naming the file and the field.
 *
 * What sceneToJson writes for readers only is not read back: `units`, a room's `area` (derived
 * from its polygon) and an object's `yawDeg` (derived from `yaw`). Keys other writers add beside
 * the scene (EgoPath's and EgoTL's `occupancy`, `names`, ...) are ignored. `objectId: null` and
 * `modelName: null` mean the optional field is absent, as sceneToJson writes them.
 */
import { z } from "zod";
import { CATEGORIES, type Category } from "../assets/catalog.js";
import { DataError, problemList, type DataProblem } from "../../core/problems.js";
import { boundedArray, coordinate, MAX_SCENE_EXTENT_M, positiveMetres, radians, safeId } from "../../core/limits.js";
import { issueList } from "../../core/problems.js";
import { ROOM_TYPES, type Opening, type Scene, type SceneObject, type Vec2, type Vec3 } from "../types.js";

// Every number is bounded (core/limits.ts): coordinates within 10 km of the origin, sizes above 0
// and at most the largest scene extent, so meshes, grids and the loops over them stay small.
const vec2 = z.tuple([coordinate(), coordinate()]);
const vec3 = z.tuple([coordinate(), coordinate(), coordinate()]);
const box = z.object({ min: vec3, max: vec3 });
const roomRef = z.string().min(1).nullable();
const positive = positiveMetres(MAX_SCENE_EXTENT_M);
/** A light's colour is a multiplier of its intensity around 1; 1,000 is far beyond any lamp we place. */
const lightComponent = z.number().min(0).max(1000);
const list = <T extends z.ZodType>(item: T) => boundedArray(item);
const rgb8 = z.tuple([z.number().int().min(0).max(255), z.number().int().min(0).max(255), z.number().int().min(0).max(255)]);

const roomSchema = z.object({
  id: z.string().min(1),
  type: z.enum(ROOM_TYPES),
  polygon: list(vec2).min(3),
  floorMaterial: z.string(),
  wallMaterial: z.string(),
});

const openingSchema = z.object({
  kind: z.enum(["door", "window"]),
  offset: coordinate(),
  width: positive,
  bottom: coordinate(),
  top: coordinate(),
  objectId: z.number().int().min(1).nullable().optional(),
});

const wallSchema = z.object({
  id: z.string().min(1),
  a: vec2,
  b: vec2,
  thickness: positive,
  height: positive,
  rooms: z.tuple([roomRef, roomRef]),
  openings: list(openingSchema),
});

const doorSchema = z.object({
  id: z.string().min(1),
  wallId: z.string().min(1),
  rooms: z.tuple([roomRef, roomRef]),
  center: vec2,
  width: positive,
});

const objectSchema = z.object({
  id: z.number().int().min(1),
  name: z.string().min(1),
  category: z.enum(CATEGORIES as readonly Category[] as [Category, ...Category[]]),
  color: z.string(),
  rgb: rgb8,
  catalogId: z.string().min(1),
  modelName: z.string().nullable().optional(),
  room: z.string().min(1),
  position: vec3,
  yaw: radians(),
  size: z.object({ width: positive, depth: positive, height: positive }),
  bbox: box,
  supportId: z.number().int().min(1).nullable(),
  inWall: z.boolean(),
  materials: list(z.string()),
});

const lightSchema = z.object({
  position: vec3,
  color: z.tuple([lightComponent, lightComponent, lightComponent]),
  room: z.string().min(1),
});

/** The fields of scene.json this reader uses (see the file comment for the rest). */
export const sceneJsonSchema = z.object({
  id: z.string().min(1),
  seed: safeId(),
  ceilingHeight: positive,
  bounds: z.object({ min: vec2, max: vec2 }),
  rooms: list(roomSchema).min(1),
  walls: list(wallSchema),
  doors: list(doorSchema),
  objects: list(objectSchema),
  lights: list(lightSchema),
});

type SceneJson = z.infer<typeof sceneJsonSchema>;

/** Duplicate ids and references to rooms, walls and objects that the file does not define. */
function referenceProblems(s: SceneJson, file: string): DataProblem[] {
  const problems = problemList();
  const at = (field: string, message: string) => problems.push({ file, field, message });
  const unique = <T>(list: readonly T[], idOf: (x: T) => string | number, name: string): Set<string | number> => {
    const seen = new Set<string | number>();
    list.forEach((x, i) => {
      const id = idOf(x);
      if (seen.has(id)) at(`${name}[${i}].id`, `duplicate id ${JSON.stringify(id)}`);
      seen.add(id);
    });
    return seen;
  };
  const rooms = unique(s.rooms, (r) => r.id, "rooms");
  const walls = unique(s.walls, (w) => w.id, "walls");
  unique(s.doors, (d) => d.id, "doors");
  const objects = unique(s.objects, (o) => o.id, "objects");
  const room = (field: string, id: string | null) => {
    if (id !== null && !rooms.has(id)) at(field, `names room ${JSON.stringify(id)}, which is not in rooms`);
  };
  if (!(s.bounds.min[0] <= s.bounds.max[0] && s.bounds.min[1] <= s.bounds.max[1])) at("bounds", "min is above max");
  else {
    // The plan grids cover the bounds (world/space/grid.ts): their extent bounds the grids' size.
    const extent = [s.bounds.max[0] - s.bounds.min[0], s.bounds.max[1] - s.bounds.min[1]];
    if (extent.some((e) => e > MAX_SCENE_EXTENT_M)) at("bounds", `spans ${extent.map((e) => `${e} m`).join(" x ")}; a scene spans at most ${MAX_SCENE_EXTENT_M} m each way`);
  }
  s.walls.forEach((w, i) => {
    w.rooms.forEach((r, k) => room(`walls[${i}].rooms[${k}]`, r));
    w.openings.forEach((o, k) => {
      if (!(o.top > o.bottom)) at(`walls[${i}].openings[${k}]`, `top ${o.top} is not above bottom ${o.bottom}`);
      if (o.objectId != null && !objects.has(o.objectId)) at(`walls[${i}].openings[${k}].objectId`, `object ${o.objectId} is not in objects`);
    });
  });
  s.doors.forEach((d, i) => {
    if (!walls.has(d.wallId)) at(`doors[${i}].wallId`, `wall ${JSON.stringify(d.wallId)} is not in walls`);
    d.rooms.forEach((r, k) => room(`doors[${i}].rooms[${k}]`, r));
  });
  s.objects.forEach((o, i) => {
    room(`objects[${i}].room`, o.room);
    if (o.supportId !== null && (o.supportId === o.id || !objects.has(o.supportId))) at(`objects[${i}].supportId`, `object ${o.supportId} is not another object of the scene`);
    if (!o.bbox.min.every((v, k) => v <= o.bbox.max[k]!)) at(`objects[${i}].bbox`, "min is above max");
  });
  s.lights.forEach((l, i) => room(`lights[${i}].room`, l.room));
  return problems;
}

const v2 = (p: readonly number[]): Vec2 => [p[0]!, p[1]!];
const v3 = (p: readonly number[]): Vec3 => [p[0]!, p[1]!, p[2]!];

function toOpening(o: SceneJson["walls"][number]["openings"][number]): Opening {
  return { kind: o.kind, offset: o.offset, width: o.width, bottom: o.bottom, top: o.top, ...(o.objectId != null ? { objectId: o.objectId } : {}) };
}

function toObject(o: SceneJson["objects"][number]): SceneObject {
  return {
    id: o.id,
    name: o.name,
    category: o.category,
    catalogId: o.catalogId,
    ...(o.modelName != null ? { modelName: o.modelName } : {}),
    room: o.room,
    position: v3(o.position),
    yaw: o.yaw,
    size: { width: o.size.width, depth: o.size.depth, height: o.size.height },
    bbox: { min: v3(o.bbox.min), max: v3(o.bbox.max) },
    color: { name: o.color, rgb: [o.rgb[0], o.rgb[1], o.rgb[2]] },
    materials: [...o.materials],
    supportId: o.supportId,
    inWall: o.inWall,
  };
}

/** A Scene from parsed scene.json content; throws DataError naming `file` and each bad field. */
export function sceneFromJson(json: unknown, file: string): Scene {
  const parsed = sceneJsonSchema.safeParse(json);
  if (!parsed.success) throw new DataError(issueList(parsed.error.issues).map(({ field, message }) => ({ file, ...(field ? { field } : {}), message })));
  const s = parsed.data;
  const problems = referenceProblems(s, file);
  if (problems.length > 0) throw new DataError(problems);
  return {
    id: s.id,
    seed: s.seed,
    rooms: s.rooms.map((r) => ({ id: r.id, type: r.type, polygon: r.polygon.map(v2), floorMaterial: r.floorMaterial, wallMaterial: r.wallMaterial })),
    walls: s.walls.map((w) => ({ id: w.id, a: v2(w.a), b: v2(w.b), thickness: w.thickness, height: w.height, rooms: [w.rooms[0], w.rooms[1]], openings: w.openings.map(toOpening) })),
    doors: s.doors.map((d) => ({ id: d.id, wallId: d.wallId, rooms: [d.rooms[0], d.rooms[1]], center: v2(d.center), width: d.width })),
    objects: s.objects.map(toObject),
    ceilingHeight: s.ceilingHeight,
    bounds: { min: v2(s.bounds.min), max: v2(s.bounds.max) },
    lights: s.lights.map((l) => ({ position: v3(l.position), color: [l.color[0], l.color[1], l.color[2]], room: l.room })),
  };
}
