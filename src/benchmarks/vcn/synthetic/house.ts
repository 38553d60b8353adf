/**
 * Synthetic houses: a grid of square rooms (4 m cells; plan coordinates [east, north] in metres),
 * each with a category and a few object instances, joined by 1 m doorways in shared walls (a
 * random spanning tree, sometimes one extra door). Room ids follow habitat's "regionN" naming.
 */
import type { Rng } from "../../../stats/rng.js";

export type P2 = [number, number];

export interface Room {
  id: string;
  category: string;
  col: number;
  row: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  center: P2;
  /** Small per-room brightness change, so two rooms of a category are told apart only by their contents. */
  tint: number;
}

export interface HouseObject {
  id: string;
  category: string;
  room: string;
  position: P2;
}

export interface Door {
  rooms: [string, string];
  position: P2;
}

export interface House {
  id: string;
  cols: number;
  rows: number;
  cell: number;
  rooms: Room[];
  objects: HouseObject[];
  doors: Door[];
}

export const CELL = 4;
export const DOOR_WIDTH = 1;

/** The main piece of furniture of each room category, and what else may stand in it. */
const FURNISHING: Record<string, { main: string; others: string[] }> = {
  bedroom: { main: "bed", others: ["chair", "lamp", "plant"] },
  kitchen: { main: "fridge", others: ["table", "chair", "sink"] },
  bathroom: { main: "toilet", others: ["sink", "plant"] },
  "living room": { main: "sofa", others: ["tv", "chair", "plant", "lamp"] },
  office: { main: "desk", others: ["chair", "lamp", "plant"] },
  "dining room": { main: "table", others: ["chair", "chair", "plant"] },
};

export const ROOM_CATEGORIES = Object.keys(FURNISHING);

export function roomAt(house: House, p: P2): Room | null {
  return house.rooms.find((r) => p[0] >= r.x0 && p[0] < r.x1 && p[1] >= r.y0 && p[1] < r.y1) ?? null;
}

export const dist = (a: P2, b: P2) => Math.hypot(a[0] - b[0], a[1] - b[1]);

export function roomById(house: House, id: string): Room {
  const room = house.rooms.find((r) => r.id === id);
  if (!room) throw new Error(`no room ${id}`);
  return room;
}

export function doorsOf(house: House, roomId: string): Door[] {
  return house.doors.filter((d) => d.rooms.includes(roomId));
}

export const otherRoom = (door: Door, roomId: string) => (door.rooms[0] === roomId ? door.rooms[1] : door.rooms[0]);

export function generateHouse(id: string, rng: Rng): House {
  const cols = 3;
  const rows = 2;
  const extra = rng.pick(["bedroom", "office", "dining room"]);
  const categories = rng.shuffle(["kitchen", "living room", "bathroom", "bedroom", "bedroom", extra]);
  const rooms: Room[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const k = row * cols + col;
      const x0 = col * CELL;
      const y0 = row * CELL;
      rooms.push({ id: `region${k}`, category: categories[k]!, col, row, x0, y0, x1: x0 + CELL, y1: y0 + CELL, center: [x0 + CELL / 2, y0 + CELL / 2], tint: rng.float(-0.08, 0.08) });
    }
  }
  // Doors: a random spanning tree of the grid (depth-first), plus sometimes one more.
  const neighbours = (r: Room) => rooms.filter((s) => Math.abs(s.col - r.col) + Math.abs(s.row - r.row) === 1);
  const doorBetween = (a: Room, b: Room): Door => {
    const position: P2 = a.row === b.row ? [Math.max(a.x0, b.x0), a.y0 + CELL / 2] : [a.x0 + CELL / 2, Math.max(a.y0, b.y0)];
    return { rooms: [a.id, b.id], position };
  };
  const doors: Door[] = [];
  const visited = new Set<string>();
  const visit = (r: Room) => {
    visited.add(r.id);
    for (const s of rng.shuffle(neighbours(r))) {
      if (visited.has(s.id)) continue;
      doors.push(doorBetween(r, s));
      visit(s);
    }
  };
  visit(rng.pick(rooms));
  if (rng.chance(0.5)) {
    const candidates = rooms.flatMap((r) => neighbours(r).filter((s) => r.id < s.id && !doors.some((d) => d.rooms.includes(r.id) && d.rooms.includes(s.id))).map((s) => [r, s] as const));
    if (candidates.length > 0) {
      const [a, b] = rng.pick(candidates);
      doors.push(doorBetween(a, b));
    }
  }
  // Objects: the room's main piece plus one to three others, spread out, away from the centre and walls.
  const objects: HouseObject[] = [];
  const counters = new Map<string, number>();
  for (const room of rooms) {
    const furnishing = FURNISHING[room.category]!;
    const kinds = [furnishing.main, ...Array.from({ length: rng.int(1, 3) }, () => rng.pick(furnishing.others))];
    const placed: P2[] = [];
    for (const category of kinds) {
      for (let attempt = 0; attempt < 200; attempt++) {
        const p: P2 = [rng.float(room.x0 + 0.6, room.x1 - 0.6), rng.float(room.y0 + 0.6, room.y1 - 0.6)];
        if (dist(p, room.center) < 0.9 || placed.some((q) => dist(p, q) < 0.8)) continue;
        if (doors.some((d) => d.rooms.includes(room.id) && dist(p, d.position) < 0.9)) continue;
        placed.push(p);
        const n = (counters.get(category) ?? 0) + 1;
        counters.set(category, n);
        objects.push({ id: `${category.replace(/\s+/g, "_")}_${n}`, category, room: room.id, position: [round(p[0]), round(p[1])] });
        break;
      }
    }
  }
  return { id, cols, rows, cell: CELL, rooms, objects, doors };
}

export const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * Shortest walk between two points of the house through doorway centres (rooms are convex, so a
 * straight segment inside one room is free): the points of the walk and its length.
 */
export function shortestWalk(house: House, from: P2, to: P2): { points: P2[]; length: number } {
  const a = roomAt(house, from);
  const b = roomAt(house, to);
  if (!a || !b) throw new Error("point outside the house");
  if (a.id === b.id) return { points: [from, to], length: dist(from, to) };
  // Dijkstra over doors; the source connects to the doors of room a, doors of b connect to the target.
  const n = house.doors.length;
  const best = new Array<number>(n).fill(Infinity);
  const prev = new Array<number>(n).fill(-1);
  const done = new Array<boolean>(n).fill(false);
  house.doors.forEach((d, i) => {
    if (d.rooms.includes(a.id)) best[i] = dist(from, d.position);
  });
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && best[i]! < Infinity && (u === -1 || best[i]! < best[u]!)) u = i;
    if (u === -1) break;
    done[u] = true;
    const du = house.doors[u]!;
    house.doors.forEach((dv, v) => {
      if (done[v] || !dv.rooms.some((r) => du.rooms.includes(r))) return;
      const alt = best[u]! + dist(du.position, dv.position);
      if (alt < best[v]!) {
        best[v] = alt;
        prev[v] = u;
      }
    });
  }
  let end = -1;
  let length = Infinity;
  house.doors.forEach((d, i) => {
    if (d.rooms.includes(b.id) && best[i]! + dist(d.position, to) < length) {
      length = best[i]! + dist(d.position, to);
      end = i;
    }
  });
  if (end === -1) throw new Error("rooms not connected");
  const points: P2[] = [to];
  for (let i = end; i !== -1; i = prev[i]!) points.push(house.doors[i]!.position);
  points.push(from);
  return { points: points.reverse(), length };
}
