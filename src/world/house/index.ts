/**
 * Seeded procedural houses (issue 11, item 2), after ProcTHOR (Deitke et al. 2022): a room
 * programme (program.ts), a floor plan with walls and doorways (floorplan.ts), windows and an
 * entrance door (openings.ts), furniture and small objects by room type (furnish.ts), each
 * object's colour and materials from its model (appearance.ts), and ceiling lights.
 *
 * Every random choice comes from createRng streams derived from the seed (deriveSeed), one per
 * stage and per room, so the same seed gives the same Scene (and the same scene.json bytes).
 */
import type { Catalogue } from "../assets/catalog.js";
import type { ModelLibrary } from "../assets/models.js";
import { createRng, deriveSeed } from "../../stats/rng.js";
import type { Aabb3, Door, PointLight, Room, Scene, SceneObject, Vec2, Vec3 } from "../types.js";
import { entryAppearance } from "./appearance.js";
import {
  buildWalls,
  choosePassages,
  hubIndex,
  placeDoorways,
  planRooms,
  WALL_INSET_M,
  GRID_M,
  wallBox,
  type FloorPlan,
  type PlannedRoom,
} from "./floorplan.js";
import { footprintBounds, type Box2 } from "./footprint.js";
import { AGENT_RADIUS_M, RoomFreeSpace } from "./free-space.js";
import { DOOR_CLEARANCE_DEPTH_M, DOOR_CLEARANCE_SIDE_M, furnishRoom, type Placed } from "./furnish.js";
import { placeEntrance, placeWindows } from "./openings.js";
import { DEFAULT_ROOMS, MAX_ROOMS, MIN_ROOMS, pickRoomMaterials, roomProgram } from "./program.js";

export { sceneToJson } from "./scene-json.js";
export { colorName } from "./appearance.js";
export { roomTypesByCategory } from "./furnish.js";

export interface GenerateHouseOptions {
  catalogue: Catalogue;
  library: ModelLibrary;
  seed: number;
  /** Number of rooms (default: 4-7, drawn from the seed). */
  rooms?: number;
  /**
   * "dense": every optional piece of a room's recipe is tried and every count is at its dense count
   * (its upper bound, or more for pieces that come several to a room: plants, lamps, armchairs,
   * shelves); default "standard" (the recipes' odds).
   */
  furnishing?: "standard" | "dense";
  /**
   * Multiplies every room type's area range (program.ts ROOM_AREA_M2; default 1): larger rooms for
   * floors as large as a benchmark's source scans. Minimum sides and the corridor stay as they are.
   */
  roomAreaScale?: number;
}

/** Random streams of one house (deriveSeed stream numbers). */
const STREAM = { size: 1, program: 2, plan: 3, heights: 4, doors: 5, materials: 6, openings: 7, room: 100 } as const;

/** Ceiling heights, metres (drawn on a 5 cm step). */
export const CEILING_HEIGHT_M: [number, number] = [2.5, 2.8];
/** Top of the doorways, metres. */
export const DOOR_TOP_M: [number, number] = [2.0, 2.1];
/** Ceiling lights hang this far below the ceiling. */
export const LIGHT_DROP_M = 0.05;
/** Rooms of this area (m2) and more get two ceiling lights along their long axis. */
const TWO_LIGHTS_M2 = 16;

const round = (v: number, step: number) => Math.round(v / step) * step;

/** The room's floor polygon: its partition rectangle inset by the wall half-thickness, counter-clockwise. */
function roomBox(r: PlannedRoom): Box2 {
  return {
    minX: r.rect.x0 * GRID_M + WALL_INSET_M,
    minY: r.rect.y0 * GRID_M + WALL_INSET_M,
    maxX: r.rect.x1 * GRID_M - WALL_INSET_M,
    maxY: r.rect.y1 * GRID_M - WALL_INSET_M,
  };
}

function boxPolygon(b: Box2): Vec2[] {
  return [[b.minX, b.minY], [b.maxX, b.minY], [b.maxX, b.maxY], [b.minX, b.maxY]];
}

/**
 * The clearance zone of a door inside one room: DOOR_CLEARANCE_DEPTH_M deep from the wall face
 * on that room's side, the door's width plus DOOR_CLEARANCE_SIDE_M on each side, clipped to the
 * room; and the point an agent entering through it stands on (agent radius plus 0.1 m in).
 */
export function doorClearance(door: Pick<Door, "center" | "width">, alongX: boolean, room: Box2): { zone: Box2; entry: Vec2 } {
  const half = door.width / 2 + DOOR_CLEARANCE_SIDE_M;
  const depth = DOOR_CLEARANCE_DEPTH_M;
  const inside = AGENT_RADIUS_M + 0.1;
  const [cx, cy] = door.center;
  if (alongX) {
    const below = cy < (room.minY + room.maxY) / 2;
    const y0 = below ? room.minY : room.maxY - depth;
    const zone = { minX: Math.max(room.minX, cx - half), maxX: Math.min(room.maxX, cx + half), minY: Math.max(room.minY, y0), maxY: Math.min(room.maxY, y0 + depth) };
    return { zone, entry: [cx, below ? room.minY + inside : room.maxY - inside] };
  }
  const left = cx < (room.minX + room.maxX) / 2;
  const x0 = left ? room.minX : room.maxX - depth;
  const zone = { minX: Math.max(room.minX, x0), maxX: Math.min(room.maxX, x0 + depth), minY: Math.max(room.minY, cy - half), maxY: Math.min(room.maxY, cy + half) };
  return { zone, entry: [left ? room.minX + inside : room.maxX - inside, cy] };
}

/** World AABB of a placed object's catalogue box. */
function placedBbox(p: Placed): Aabb3 {
  const b = footprintBounds(p.footprint);
  return { min: [b.minX, b.minY, p.z0], max: [b.maxX, b.maxY, p.z1] };
}

function ceilingLights(rooms: readonly Room[], boxes: readonly Box2[], ceilingHeight: number): PointLight[] {
  const lights: PointLight[] = [];
  const z = ceilingHeight - LIGHT_DROP_M;
  rooms.forEach((room, i) => {
    const b = boxes[i]!;
    const w = b.maxX - b.minX;
    const h = b.maxY - b.minY;
    const cx = (b.minX + b.maxX) / 2;
    const cy = (b.minY + b.maxY) / 2;
    const points: Vec2[] = w * h < TWO_LIGHTS_M2 ? [[cx, cy]] : w >= h ? [[b.minX + w / 4, cy], [b.maxX - w / 4, cy]] : [[cx, b.minY + h / 4], [cx, b.maxY - h / 4]];
    for (const [x, y] of points) lights.push({ position: [x, y, z], color: [1, 0.95, 0.88], room: room.id });
  });
  return lights;
}

/** A seeded furnished house. Same seed (and catalogue), same Scene. */
export async function generateHouse(options: GenerateHouseOptions): Promise<Scene> {
  const { catalogue, library, seed } = options;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const stream = (k: number) => createRng(deriveSeed(seed, k));
  const roomCount = options.rooms ?? stream(STREAM.size).int(DEFAULT_ROOMS[0], DEFAULT_ROOMS[1]);
  if (!Number.isInteger(roomCount) || roomCount < MIN_ROOMS || roomCount > MAX_ROOMS)
    throw new RangeError(`rooms must be an integer in [${MIN_ROOMS}, ${MAX_ROOMS}], got ${roomCount}`);

  const areaScale = options.roomAreaScale ?? 1;
  if (!(areaScale >= 0.5 && areaScale <= 3)) throw new RangeError(`roomAreaScale must be in [0.5, 3], got ${areaScale}`);
  const specs = roomProgram(stream(STREAM.program), roomCount, areaScale);
  const planned = planRooms(stream(STREAM.plan), specs);
  const roomIds = planned.map((_, i) => `room_${i}`);
  const heights = stream(STREAM.heights);
  const ceilingHeight = Number(round(heights.float(CEILING_HEIGHT_M[0], CEILING_HEIGHT_M[1]), 0.05).toFixed(2));
  const doorTop = Number(round(heights.float(DOOR_TOP_M[0], DOOR_TOP_M[1]), 0.01).toFixed(2));
  const plan: FloorPlan = { rooms: planned, walls: buildWalls(planned, roomIds, ceilingHeight), hub: hubIndex(planned) };

  const doorRng = stream(STREAM.doors);
  const doors = placeDoorways(doorRng, plan, choosePassages(doorRng, planned, plan.hub), roomIds, doorTop);

  const materialRng = stream(STREAM.materials);
  const boxes = planned.map(roomBox);
  const rooms: Room[] = planned.map((r, i) => ({ id: roomIds[i]!, type: r.type, polygon: boxPolygon(boxes[i]!), ...pickRoomMaterials(materialRng, r.type) }));

  const placed: Placed[] = [];
  const openingRng = stream(STREAM.openings);
  const entrance = placeEntrance(openingRng, plan, catalogue, ceilingHeight, placed, doors.length);
  if (entrance) doors.push(entrance);
  placeWindows(openingRng, plan, catalogue, ceilingHeight, placed);
  for (const w of plan.walls) w.wall.openings.sort((a, b) => a.offset - b.offset);

  const wallById = new Map(plan.walls.map((w) => [w.wall.id, w]));
  planned.forEach((room, i) => {
    const zones: Box2[] = [];
    const entries: Vec2[] = [];
    for (const d of doors) {
      if (d.rooms[0] !== roomIds[i] && d.rooms[1] !== roomIds[i]) continue;
      const { zone, entry } = doorClearance(d, wallById.get(d.wallId)!.axis === "x", boxes[i]!);
      zones.push(zone);
      entries.push(entry);
    }
    furnishRoom({
      rngFor: (attempt) => createRng(deriveSeed(deriveSeed(seed, STREAM.room + i), attempt)),
      roomIndex: i,
      type: room.type,
      rect: boxes[i]!,
      ceilingHeight,
      doorZones: zones,
      freeSpaceFor: () => new RoomFreeSpace(boxes[i]!, entries),
      catalogue,
      placed,
      dense: options.furnishing === "dense",
    });
  });

  const counters = new Map<string, number>();
  const objects: SceneObject[] = [];
  for (let i = 0; i < placed.length; i++) {
    const p = placed[i]!;
    const appearance = await entryAppearance(library, p.entry);
    const k = (counters.get(p.category) ?? 0) + 1;
    counters.set(p.category, k);
    const position: Vec3 = [p.footprint.cx, p.footprint.cy, p.z0];
    objects.push({
      id: i + 1,
      name: `${p.category.replace(/ /g, "_")}_${k}`,
      category: p.category,
      catalogId: p.entry.id,
      modelName: p.entry.name,
      room: roomIds[p.room]!,
      position,
      yaw: p.footprint.yaw,
      size: { ...p.entry.sizeM },
      bbox: placedBbox(p),
      color: appearance.color,
      materials: appearance.materials,
      supportId: p.supportIndex === null ? null : p.supportIndex + 1,
      inWall: p.inWall,
    });
  }

  const walls = plan.walls.map((w) => w.wall);
  const wallBoxes = walls.map(wallBox);
  const xs = wallBoxes.flatMap((b) => [b.minX, b.maxX]);
  const ys = wallBoxes.flatMap((b) => [b.minY, b.maxY]);
  return {
    id: `house_${seed}`,
    seed,
    rooms,
    walls,
    doors,
    objects,
    ceilingHeight,
    bounds: { min: [Math.min(...xs), Math.min(...ys)], max: [Math.max(...xs), Math.max(...ys)] },
    lights: ceilingLights(rooms, boxes, ceilingHeight),
  };
}
