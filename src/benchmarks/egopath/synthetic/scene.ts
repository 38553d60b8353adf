/** Synthetic rooms: a rectangular floor with box-shaped furniture, and a scene-wide waypoint grid. */
import type { Point2 } from "../../../geometry/point2.js";
import { inflateRect, pointRectDistance, rectsOverlap, type Rect } from "../../../geometry/rect.js";
import type { Rng } from "../../../stats/rng.js";

export const ROOM_WIDTH_M = 6;
export const ROOM_DEPTH_M = 8;
export const WALL_HEIGHT_M = 2.6;
/** Waypoint coordinates sit on this grid (the release's grid_xy unit). */
export const GRID_M = 0.05;
export const ROBOT_DIAMETER_M = 0.6;
export const ROBOT_RADIUS_M = ROBOT_DIAMETER_M / 2;

export const CATEGORIES = ["table", "cabinet", "sofa", "chair", "bed"] as const;
export type Category = (typeof CATEGORIES)[number];

/** Footprint (long side, short side) and height in metres, before jitter. */
const SIZES: Record<Category, [number, number, number]> = {
  table: [1.2, 0.8, 0.75],
  cabinet: [1.0, 0.5, 1.8],
  sofa: [2.0, 0.9, 0.85],
  chair: [0.55, 0.55, 0.9],
  bed: [2.0, 1.5, 0.55],
};

export const COLORS = {
  red: [196, 52, 46],
  blue: [46, 86, 196],
  green: [46, 146, 72],
  yellow: [222, 190, 40],
  brown: [128, 84, 46],
  white: [236, 236, 230],
  black: [44, 44, 48],
  gray: [130, 130, 134],
  orange: [232, 128, 32],
  purple: [128, 62, 160],
} as const satisfies Record<string, readonly [number, number, number]>;
export type ColorName = keyof typeof COLORS;

export interface Obstacle {
  /** Index within the scene (the release's target_id). */
  id: number;
  category: Category;
  color: ColorName;
  rect: Rect;
  height: number;
}

export interface GridWaypoint extends Point2 {
  /** Scene-level id, shared by every view that shows this point. */
  waypointId: number;
  gridXY: [number, number];
  /** On free floor: outside every obstacle footprint. */
  freeFloor: boolean;
  /** Distance to the nearest obstacle or wall. */
  clearance: number;
}

export interface Scene {
  id: string;
  width: number;
  depth: number;
  obstacles: Obstacle[];
  waypoints: GridWaypoint[];
}

/** Rounds to 4 decimals (the precision of coordinates and lengths written to the release). */
export const round4 = (v: number): number => Math.round(v * 1e4) / 1e4;
const snap = (v: number): number => round4(Math.round(v / GRID_M) * GRID_M);

/** Distance from p to the nearest wall of the room. */
export function wallDistance(p: Point2, width = ROOM_WIDTH_M, depth = ROOM_DEPTH_M): number {
  return Math.min(p.x, width - p.x, p.y, depth - p.y);
}

function placeObstacles(rng: Rng, width: number, depth: number): Obstacle[] {
  const count = rng.int(2, 5);
  const categories = rng.shuffle(CATEGORIES).slice(0, count);
  const colors = rng.shuffle(Object.keys(COLORS) as ColorName[]);
  const placed: Obstacle[] = [];
  for (const category of categories) {
    const [long, short, height] = SIZES[category];
    const scale = rng.float(0.9, 1.1);
    let w = snap(long * scale);
    let d = snap(short * scale);
    if (rng.chance(0.5)) [w, d] = [d, w];
    for (let attempt = 0; attempt < 200; attempt++) {
      const minX = snap(rng.float(0.05, width - w - 0.05));
      const minY = snap(rng.float(0.05, depth - d - 0.05));
      const rect = { minX, minY, maxX: round4(minX + w), maxY: round4(minY + d) };
      // Keep a passage wider than the robot between any two pieces of furniture.
      if (placed.some((o) => rectsOverlap(inflateRect(o.rect, 0.7), rect))) continue;
      placed.push({ id: placed.length, category, color: colors[placed.length]!, rect, height: round4(height * scale) });
      break;
    }
  }
  return placed;
}

/** A jittered grid of candidate floor points covering the room, ids from 100 upwards. */
function gridWaypoints(rng: Rng, width: number, depth: number, obstacles: Obstacle[]): GridWaypoint[] {
  const spacing = 0.8;
  const out: GridWaypoint[] = [];
  for (let y = spacing / 2; y < depth; y += spacing) {
    for (let x = spacing / 2; x < width; x += spacing) {
      const px = snap(Math.min(width - 0.1, Math.max(0.1, x + rng.float(-0.2, 0.2))));
      const py = snap(Math.min(depth - 0.1, Math.max(0.1, y + rng.float(-0.2, 0.2))));
      const p = { x: px, y: py };
      const obstacleDist = Math.min(Infinity, ...obstacles.map((o) => pointRectDistance(p, o.rect)));
      out.push({
        x: px,
        y: py,
        waypointId: 100 + out.length,
        gridXY: [Math.round(px / GRID_M), Math.round(py / GRID_M)],
        freeFloor: obstacleDist > 0,
        clearance: Math.min(obstacleDist, wallDistance(p, width, depth)),
      });
    }
  }
  return out;
}

export function generateScene(id: string, rng: Rng): Scene {
  const obstacles = placeObstacles(rng, ROOM_WIDTH_M, ROOM_DEPTH_M);
  return {
    id,
    width: ROOM_WIDTH_M,
    depth: ROOM_DEPTH_M,
    obstacles,
    waypoints: gridWaypoints(rng, ROOM_WIDTH_M, ROOM_DEPTH_M, obstacles),
  };
}
