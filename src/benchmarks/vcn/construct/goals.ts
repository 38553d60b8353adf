/**
 * Goals, starts and the shortest path of an episode, on the robot's plan grid.
 *
 * - View points (App. C.1, the reference note): for each goal object, points every 0.1 m on the
 *   lattice that starts 0.6 m below the box's min corner, kept when they lie within 0.6 m of the
 *   object's plan box, inside the goal's room and free at the robot's radius.
 * - The nearest view point: by the grid's geodesic distance (8 neighbours); the 3 m rule (§3.3)
 *   reads that distance.
 * - dist_to_goal: the length of the shortest path to it pulled straight (the route below), what
 *   Habitat's geodesic distance and the simulator's shortestPath report; the grid's own distance
 *   is 3-8% longer (its 45-degree steps).
 * - Room centres for the Distance rule: the free cell of the room nearest its centroid.
 * - The shortest path: the grid path to the nearest view point, pulled straight (smoothPath),
 *   sampled every 0.25 m (one FORWARD step): the simulator's routes (sim/routes.ts).
 */
import { cellCenter, inGrid, isFreePoint, roomAt, worldToCell, type OccupancyGrid } from "../../../world/space/index.js";
import type { Scene, SceneObject, Vec2 } from "../../../world/types.js";
import { VCN_PARAMS as P } from "./params.js";
import type { RoomFact } from "./facts.js";

const r4 = (v: number): number => Math.round(v * 1e4) / 1e4 + 0;

/** Distance from a plan point to an axis-aligned box (0 inside). */
export function pointBoxDistance(p: Vec2, box: { min: readonly number[]; max: readonly number[] }): number {
  const dx = Math.max(box.min[0]! - p[0], 0, p[0] - box.max[0]!);
  const dy = Math.max(box.min[1]! - p[1], 0, p[1] - box.max[1]!);
  return Math.hypot(dx, dy);
}

/** View points of one goal object (see the file comment), rounded to 0.1 mm. */
export function viewPoints(scene: Pick<Scene, "rooms">, grid: OccupancyGrid, object: Pick<SceneObject, "bbox" | "room">): Vec2[] {
  const { viewPointStepM: step, viewPointRangeM: range } = P;
  const out: Vec2[] = [];
  const x0 = object.bbox.min[0] - range, y0 = object.bbox.min[1] - range;
  const nx = Math.floor((object.bbox.max[0] + range - x0) / step + 1e-9);
  const ny = Math.floor((object.bbox.max[1] + range - y0) / step + 1e-9);
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      const p: Vec2 = [r4(x0 + i * step), r4(y0 + j * step)];
      if (pointBoxDistance(p, object.bbox) > range + 1e-9) continue;
      if (!isFreePoint(grid, p) || roomAt(scene, p) !== object.room) continue;
      out.push(p);
    }
  }
  return out;
}

/** The free cell centre of the room nearest the room's centroid (the point the Distance rule measures to), or null. */
export function roomCentrePoint(scene: Pick<Scene, "rooms">, grid: OccupancyGrid, room: RoomFact): Vec2 | null {
  const [i0, j0] = worldToCell(grid, [room.box.minX, room.box.minY]);
  const [i1, j1] = worldToCell(grid, [room.box.maxX, room.box.maxY]);
  let best: Vec2 | null = null;
  let bestD = Infinity;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      if (!inGrid(grid, i, j) || grid.occupied[j * grid.width + i]) continue;
      const c = cellCenter(grid, i, j);
      const d = Math.hypot(c[0] - room.centre[0], c[1] - room.centre[1]);
      if (d < bestD && roomAt(scene, c) === room.id) {
        best = c;
        bestD = d;
      }
    }
  }
  return best;
}

export { angleDiff, nearestViewPoint, resample, shortestRoute, type ShortestRoute } from "../../../sim/routes.js";
