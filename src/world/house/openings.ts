/**
 * Windows and the entrance door: catalogue models set into exterior walls.
 *
 * A window's opening is exactly its model: as wide as the model, from its catalogue elevation
 * (the sill, elevationM) to elevation + height. Its model stands centred on the wall's centre
 * line, front facing into the room. One window model serves most rooms of a house (houses are
 * built in one style); bathrooms take a small high one, and a living room may get a French
 * window. Rooms of 14 m2 and more get two windows, living rooms of 20 m2 and more up to three,
 * a hallway one with chance 0.3, a bathroom one with chance 0.8.
 *
 * The entrance is an exterior door model in an exterior wall of the hub room (hallway, else
 * living room); it is a Door joining that room and the outside (null).
 */
import type { CatalogEntry, Catalogue } from "../assets/catalog.js";
import type { Rng } from "../../stats/rng.js";
import type { Door, Opening, Vec2 } from "../types.js";
import { quarterFacing, quarterYaw } from "./footprint.js";
import { openingFits, openingRange, wallLeftNormal, wallPoint, type FloorPlan, type PlannedWall } from "./floorplan.js";
import type { Placed } from "./furnish.js";

/** Smallest gap between a window's edge and a room corner. */
export const WINDOW_CORNER_MARGIN_M = 0.3;
/** Space kept between the top of a window or door model and the ceiling. */
const HEAD_ROOM_M = 0.1;

interface WindowPools {
  standard: CatalogEntry[];
  small: CatalogEntry[];
  french: CatalogEntry[];
}

function windowPools(catalogue: Catalogue, ceilingHeight: number): WindowPools {
  const windows = catalogue.entries.filter(
    (e) => e.doorOrWindow && e.category === "window" && e.elevationM + e.sizeM.height <= ceilingHeight - HEAD_ROOM_M && e.sizeM.width <= 2.0,
  );
  return {
    standard: windows.filter((e) => e.elevationM >= 0.25 && e.sizeM.width <= 1.2),
    small: windows.filter((e) => e.elevationM >= 0.85 && e.sizeM.width <= 0.7),
    french: windows.filter((e) => e.elevationM <= 0.15 && e.sizeM.width <= 1.9),
  };
}

/** Exterior walls of room `index`, longest first. */
function exteriorWalls(plan: FloorPlan, index: number): PlannedWall[] {
  return plan.walls
    .filter((w) => (w.left === index && w.right === null) || (w.right === index && w.left === null))
    .sort((a, b) => b.edge[1] - b.edge[0] - (a.edge[1] - a.edge[0]));
}

/** The quarter turn facing into room `index` from wall `w`. */
function facingRoom(w: PlannedWall, index: number): number {
  const n = wallLeftNormal(w.wall);
  const inward: Vec2 = w.left === index ? n : [-n[0], -n[1]];
  return quarterFacing(inward);
}

/** Places a model into a wall opening at `offset`; returns the Opening and the Placed object. */
function inWallObject(entry: CatalogEntry, w: PlannedWall, room: number, offset: number, kind: Opening["kind"], objectId: number): { opening: Opening; placed: Placed } {
  const centre = wallPoint(w.wall, offset);
  const q = facingRoom(w, room);
  const opening: Opening = { kind, offset, width: entry.sizeM.width, bottom: entry.elevationM, top: entry.elevationM + entry.sizeM.height, objectId };
  const placed: Placed = {
    entry,
    category: entry.category!,
    room,
    footprint: { cx: centre[0], cy: centre[1], hx: entry.sizeM.width / 2, hy: entry.sizeM.depth / 2, yaw: quarterYaw(q) },
    q,
    z0: entry.elevationM,
    z1: entry.elevationM + entry.sizeM.height,
    supportIndex: null,
    inWall: true,
    side: null,
    along: offset,
  };
  return { opening, placed };
}

/** Tries to put an opening of `width` on one of `walls`; returns the wall and centre offset, or null. */
function findOpening(rng: Rng, walls: readonly PlannedWall[], width: number): { wall: PlannedWall; offset: number } | null {
  for (const w of walls) {
    const range = openingRange(w, width, WINDOW_CORNER_MARGIN_M);
    if (!range) continue;
    const tries = [Math.round(((range[0] + range[1]) / 2) * 100) / 100];
    for (let k = 0; k < 6; k++) tries.push(Math.round(rng.float(range[0], range[1]) * 100) / 100);
    for (const t of rng.shuffle(tries.slice(1)).concat(tries[0]!)) {
      const offset = Math.min(Math.max(t, range[0]), range[1]);
      if (openingFits(w.wall, offset, width)) return { wall: w, offset };
    }
  }
  return null;
}

/** Adds the entrance door (when the catalogue has a door model that fits); returns its Door or null. */
export function placeEntrance(rng: Rng, plan: FloorPlan, catalogue: Catalogue, ceilingHeight: number, placed: Placed[], doorIndex: number): Door | null {
  const models = catalogue.entries.filter(
    (e) => e.doorOrWindow && e.category === "door" && /^(exterior door|door|glass door)$/i.test(e.name.trim()) && e.sizeM.width <= 1.1 && e.sizeM.height <= ceilingHeight - HEAD_ROOM_M,
  );
  if (models.length === 0) return null;
  const entry = rng.pick(models);
  const walls = rng.shuffle(exteriorWalls(plan, plan.hub));
  const spot = findOpening(rng, walls, entry.sizeM.width);
  if (!spot) return null;
  const { opening, placed: object } = inWallObject(entry, spot.wall, plan.hub, spot.offset, "door", placed.length + 1);
  spot.wall.wall.openings.push(opening);
  placed.push(object);
  const w = spot.wall.wall;
  return { id: `door_${doorIndex}`, wallId: w.id, rooms: [w.rooms[0], w.rooms[1]], center: wallPoint(w, spot.offset), width: entry.sizeM.width };
}

/** Adds windows to the rooms' exterior walls (counts and models in the file comment). */
export function placeWindows(rng: Rng, plan: FloorPlan, catalogue: Catalogue, ceilingHeight: number, placed: Placed[]): void {
  const pools = windowPools(catalogue, ceilingHeight);
  if (pools.standard.length === 0 && pools.french.length === 0) return;
  const standard = pools.standard.length ? rng.pick(pools.standard) : rng.pick(pools.french);
  const small = pools.small.length ? rng.pick(pools.small) : standard;
  const french = pools.french.length && rng.chance(0.4) ? rng.pick(pools.french) : standard;
  plan.rooms.forEach((room, index) => {
    const r = room.rect;
    const area = (r.x1 - r.x0) * (r.y1 - r.y0) * 0.0025;
    let count: number;
    let model = standard;
    switch (room.type) {
      case "hallway": count = rng.chance(0.3) ? 1 : 0; break;
      case "bathroom": count = rng.chance(0.8) ? 1 : 0; model = small; break;
      case "living room": count = area >= 20 ? rng.int(2, 3) : area >= 14 ? 2 : 1; model = french; break;
      default: count = area >= 14 ? 2 : 1;
    }
    const walls = exteriorWalls(plan, index);
    for (let k = 0; k < count && walls.length > 0; k++) {
      // Spread the windows over the walls: the k-th window tries the walls from the k-th on.
      const order = walls.slice(k % walls.length).concat(walls.slice(0, k % walls.length));
      const spot = findOpening(rng, order, model.sizeM.width);
      if (!spot) break;
      const { opening, placed: object } = inWallObject(model, spot.wall, index, spot.offset, "window", placed.length + 1);
      spot.wall.wall.openings.push(opening);
      placed.push(object);
    }
  });
}
