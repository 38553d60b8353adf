/**
 * The room programme of a house: which rooms it has, how large each should be, and their floor
 * and wall materials.
 *
 * Sizes follow ProcTHOR's idea of a room specification (a list of typed rooms with target
 * areas, then a floor plan that honours them; Deitke et al. 2022) with areas from common
 * residential practice: a bathroom 4-8 m2, a
 * bedroom 9-16, a kitchen 8-14, a living room 15-30, a dining room 9-16, an office 7-12. The
 * hallway is not given an area: it is a corridor 1.1-1.4 m wide across the house (floorplan.ts).
 */
import type { Rng } from "../../stats/rng.js";
import type { RoomType } from "../types.js";

/** Target floor area range per room type, m2 (hallway: set by the corridor, see floorplan.ts). */
export const ROOM_AREA_M2: Record<Exclude<RoomType, "hallway">, [number, number]> = {
  bathroom: [4, 8],
  bedroom: [9, 16],
  kitchen: [8, 14],
  "living room": [15, 30],
  "dining room": [9, 16],
  office: [7, 12],
};

/** Smallest side a room of each type may have (its furniture must fit), metres. */
export const ROOM_MIN_SIDE_M: Record<RoomType, number> = {
  bathroom: 1.8,
  bedroom: 2.7,
  kitchen: 2.3,
  "living room": 3.2,
  "dining room": 2.7,
  office: 2.3,
  hallway: 1.1,
};

/** Width range of the corridor, metres. */
export const HALLWAY_WIDTH_M: [number, number] = [1.1, 1.4];

/** Room counts a house may ask for. */
export const MIN_ROOMS = 1;
export const MAX_ROOMS = 48;
/** Above this many rooms a house is a large floor: it always has a corridor, and more bathrooms and offices. */
export const LARGE_HOUSE_ROOMS = 10;
export const DEFAULT_ROOMS: [number, number] = [4, 7];

/** The rooms every house gets first, in this order. */
const CORE: RoomType[] = ["living room", "kitchen", "bathroom", "bedroom"];

/** Further rooms drawn by weight, where typeAllowed lets them (a second living room only on a large floor). */
const EXTRA_WEIGHTS: [RoomType, number][] = [
  ["bedroom", 3],
  ["office", 1.5],
  ["dining room", 2],
  ["bathroom", 1],
  ["hallway", 2],
  ["living room", 1],
];

export interface RoomSpec {
  type: RoomType;
  /** Target area, m2 (0 for the hallway). */
  areaM2: number;
  /** The range a laid-out room of this type may take (ROOM_AREA_M2 times the house's area scale; [0, 0] for the hallway). */
  areaRange: readonly [number, number];
}

function weightedPick<T>(rng: Rng, items: readonly [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1]![0];
}

/**
 * Whether one more room of `type` may join a house of `count` rooms that has `types` so far: one
 * hallway from 5 rooms, a second bathroom from 6, one dining room and one office. A large floor
 * (over LARGE_HOUSE_ROOMS rooms, as a Matterport3D floor) may have a bathroom per four rooms, an
 * office per eight and a second living room.
 */
function typeAllowed(type: RoomType, count: number, types: readonly RoomType[]): boolean {
  const have = types.filter((t) => t === type).length;
  const large = count > LARGE_HOUSE_ROOMS;
  if (type === "hallway") return count >= 5 && have === 0;
  if (type === "bathroom") return count >= 6 && have < (large ? Math.floor(count / 4) : 2);
  if (type === "office") return have < (large ? 1 + Math.floor(count / 8) : 1);
  if (type === "living room") return have < (large ? 2 : 1);
  if (type === "dining room") return have < 1;
  return true;
}

/** The room types and target areas of a house of `count` rooms; `areaScale` multiplies every type's area range. */
export function roomProgram(rng: Rng, count: number, areaScale = 1): RoomSpec[] {
  const types: RoomType[] = CORE.slice(0, Math.min(count, CORE.length));
  // A large floor is laid out along a corridor (floorplan.ts); without one its rooms would form a single slicing block.
  if (count > LARGE_HOUSE_ROOMS) types.push("hallway");
  while (types.length < count) types.push(weightedPick(rng, EXTRA_WEIGHTS.filter(([type]) => typeAllowed(type, count, types))));
  return types.map((type) => {
    if (type === "hallway") return { type, areaM2: 0, areaRange: [0, 0] as const };
    const [lo, hi] = ROOM_AREA_M2[type];
    return { type, areaM2: rng.float(lo * areaScale, hi * areaScale), areaRange: [lo * areaScale, hi * areaScale] as const };
  });
}

/** Floor materials by room type (names the renderer's procedural textures understand, see surfaces.ts). */
const FLOOR_MATERIALS: Record<RoomType, string[]> = {
  "living room": ["oak planks", "walnut planks", "beige carpet", "pine planks"],
  bedroom: ["oak planks", "beige carpet", "gray carpet", "pine planks"],
  kitchen: ["white tiles", "gray tiles", "terracotta tiles"],
  "dining room": ["oak planks", "walnut planks", "terracotta tiles"],
  bathroom: ["white tiles", "gray tiles", "blue tiles"],
  office: ["oak planks", "gray carpet", "walnut planks"],
  hallway: ["oak planks", "gray tiles", "terracotta tiles"],
};

const PLASTER_COLOURS = ["white", "cream", "light gray", "pale blue", "sage green", "pale yellow", "peach"];

/** Wall materials by room type: painted plaster in one of PLASTER_COLOURS, or tiles in wet rooms. */
const WALL_MATERIALS: Record<RoomType, string[]> = {
  "living room": PLASTER_COLOURS.map((c) => `painted plaster ${c}`),
  bedroom: PLASTER_COLOURS.map((c) => `painted plaster ${c}`),
  kitchen: ["white tiles", "painted plaster white", "painted plaster cream", "painted plaster pale yellow"],
  "dining room": PLASTER_COLOURS.map((c) => `painted plaster ${c}`),
  bathroom: ["white tiles", "blue tiles", "painted plaster white"],
  office: PLASTER_COLOURS.map((c) => `painted plaster ${c}`),
  hallway: ["painted plaster white", "painted plaster cream", "painted plaster light gray"],
};

/** The outside face of exterior walls. */
export const EXTERIOR_WALL_MATERIAL = "exterior plaster";

export function pickRoomMaterials(rng: Rng, type: RoomType): { floorMaterial: string; wallMaterial: string } {
  return { floorMaterial: rng.pick(FLOOR_MATERIALS[type]), wallMaterial: rng.pick(WALL_MATERIALS[type]) };
}
