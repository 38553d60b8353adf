/**
 * What the instruction rules read about a house and a prior video: rooms (category, plan box,
 * centre), objects (category, room, plan position, the words that describe them), and per window
 * the room visits and the objects seen.
 */
import type { Scene, Vec2 } from "../../../world/types.js";
import type { TourFrame, RoomVisit } from "./tour-types.js";
import { roomsInOrder, seenObjects, windowVisits, type PriorWindow } from "./windows.js";

export interface Box2 {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface RoomFact {
  id: string;
  category: string;
  box: Box2;
  /** Centroid of the floor polygon, plan metres. */
  centre: Vec2;
  area: number;
}

export interface ObjectFact {
  name: string;
  category: string;
  room: string;
  position: Vec2;
  /** Colour word of the model. */
  colour: string;
  /** "white modern armchair": colour plus the model's name when it ends in the category's words, else colour plus category. */
  phrase: string;
  /** Doors and windows set into walls: never targets, anchors or R2O goal categories. */
  inWall: boolean;
}

/** What the room rules of Order and Count read of a house: each room's category (an item's annotations and layout carry it too). */
export interface RoomCategories {
  rooms: ReadonlyMap<string, Pick<RoomFact, "category">>;
}

export interface HouseFacts {
  rooms: Map<string, RoomFact>;
  objects: Map<string, ObjectFact>;
}

/** Area and centroid of a simple polygon (shoelace). */
export function polygonCentroid(polygon: readonly Vec2[]): { area: number; centre: Vec2 } {
  let a = 0, cx = 0, cy = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x0, y0] = polygon[i]!;
    const [x1, y1] = polygon[(i + 1) % polygon.length]!;
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  return { area: Math.abs(a) / 2, centre: [cx / (3 * a), cy / (3 * a)] };
}

/** The describing words of an object: its model's name when that ends in the category's words ("Modern armchair"), else the category. */
export function objectPhrase(colour: string, category: string, modelName: string | undefined): string {
  const model = (modelName ?? "").toLowerCase().replace(/[^a-z ]+/g, " ").replace(/\s+/g, " ").trim();
  const noun = model.endsWith(category) && model.split(" ").length <= 3 ? model : category;
  return `${colour} ${noun}`;
}

export function houseFacts(scene: Scene): HouseFacts {
  const rooms = new Map<string, RoomFact>();
  for (const r of scene.rooms) {
    const xs = r.polygon.map((p) => p[0]);
    const ys = r.polygon.map((p) => p[1]);
    const { area, centre } = polygonCentroid(r.polygon);
    rooms.set(r.id, { id: r.id, category: r.type, box: { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) }, centre, area });
  }
  const objects = new Map<string, ObjectFact>();
  for (const o of scene.objects) {
    objects.set(o.name, {
      name: o.name,
      category: o.category,
      room: o.room,
      position: [o.position[0], o.position[1]],
      colour: o.color.name,
      phrase: objectPhrase(o.color.name, o.category, o.modelName),
      inWall: o.inWall,
    });
  }
  return { rooms, objects };
}

/** A prior video's facts: its visits, rooms in first-entry order, and the objects seen (name -> frames). */
export interface WindowFacts {
  window: PriorWindow;
  visits: RoomVisit[];
  rooms: string[];
  seen: Map<string, number[]>;
}

export function windowFacts(frames: readonly TourFrame[], window: PriorWindow): WindowFacts {
  const visits = windowVisits(frames, window);
  return { window, visits, rooms: roomsInOrder(visits), seen: seenObjects(frames, window) };
}

export function categoryOf(house: HouseFacts, room: string): string {
  const fact = house.rooms.get(room);
  if (!fact) throw new Error(`unknown room ${room}`);
  return fact.category;
}
