/**
 * Occupancy of a whole scene: the meshes, with everything outside the rooms occupied except the
 * door gaps.
 *
 * Room polygons are the inner faces of the walls, so a doorway (the gap through the wall's
 * thickness) lies outside every room; `doorPassages` gives each door's gap as a rectangle across
 * the wall (the door's width along the wall centre line, the wall's thickness across it), and
 * `occupancyForScene` counts those rectangles as inside, like rooms. Rooms and passages that share
 * an edge tile the plan without gaps: the even-odd test puts a point on a shared edge in exactly
 * one of the two polygons.
 */
import type { Scene, Vec2, WorldMesh } from "../types.js";
import { occupancyFromMeshes, type OccupancyOptions } from "./occupancy.js";
import type { OccupancyGrid } from "./grid.js";

/** The gap of every door through its wall, as counter-clockwise rectangles (scene order). */
export function doorPassages(scene: Pick<Scene, "walls" | "doors">): Vec2[][] {
  const walls = new Map(scene.walls.map((w) => [w.id, w]));
  return scene.doors.map((door) => {
    const wall = walls.get(door.wallId);
    if (wall === undefined) throw new Error(`door ${door.id} names an unknown wall "${door.wallId}"`);
    const dx = wall.b[0] - wall.a[0], dy = wall.b[1] - wall.a[1];
    const len = Math.hypot(dx, dy);
    if (!(len > 0)) throw new Error(`wall ${wall.id} has zero length`);
    const ux = dx / len, uy = dy / len; // along the wall
    const nx = -uy, ny = ux; // across it (left of a -> b)
    const hw = door.width / 2, ht = wall.thickness / 2;
    const [cx, cy] = door.center;
    return [
      [cx - ux * hw - nx * ht, cy - uy * hw - ny * ht],
      [cx + ux * hw - nx * ht, cy + uy * hw - ny * ht],
      [cx + ux * hw + nx * ht, cy + uy * hw + ny * ht],
      [cx - ux * hw + nx * ht, cy - uy * hw + ny * ht],
    ] as Vec2[];
  });
}

export type SceneOccupancyOptions = Omit<OccupancyOptions, "bounds" | "rooms">;

/**
 * The scene's occupancy grid over its plan bounds: `occupancyFromMeshes` with the rooms' polygons
 * and the door passages as the inside. Door models standing in their gap occupy it like any mesh;
 * pass `skip` to leave them out.
 */
export function occupancyForScene(scene: Pick<Scene, "bounds" | "rooms" | "walls" | "doors">, meshes: readonly WorldMesh[], options: SceneOccupancyOptions): OccupancyGrid {
  const rooms: Vec2[][] = [...scene.rooms.map((r) => r.polygon), ...doorPassages(scene)];
  return occupancyFromMeshes(meshes, { ...options, bounds: scene.bounds, rooms });
}
