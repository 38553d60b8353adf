/** The room of a plan position. */
import { pointInPolygon, polygon } from "../../geometry/polygon.js";
import type { Scene, Vec2 } from "../types.js";

/**
 * Id of the first room (in scene order) whose floor polygon holds p, by the even-odd rule of
 * geometry/polygon.ts `pointInPolygon` (points exactly on an edge may fall on either side), or null.
 * `occupancyFromMeshes` with `rooms` uses the same comparisons for cell centres.
 */
export function roomAt(scene: Pick<Scene, "rooms">, p: Vec2): string | null {
  if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) throw new RangeError(`point (${p[0]}, ${p[1]}) is not finite`);
  for (const room of scene.rooms) {
    if (room.polygon.length < 3) continue;
    if (pointInPolygon(polygon(room.polygon), p[0], p[1])) return room.id;
  }
  return null;
}
