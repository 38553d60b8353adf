/**
 * The plan grids of a furnished house for an agent of a given radius: the floor (every room's
 * outline plus the door openings through the walls) is free, everything else starts occupied;
 * geometry between `minZ` and `maxZ` above the floor blocks, except floors, ceilings and the
 * `nonBlocking` categories. The point agent's grid is that occupancy as it is, the embodied
 * agent's is the same inflated by the agent's radius.
 */
import type { Scene, WorldMesh } from "../types.js";
import { inflate } from "./inflate.js";
import { occupancyForScene } from "./scene.js";
import type { OccupancyGrid } from "./grid.js";

/** Which geometry blocks an agent on the floor. */
export interface ObstacleRule {
  minZ: number;
  maxZ: number;
  nonBlocking: readonly string[];
}

export interface AgentGrids {
  point: OccupancyGrid;
  embodied: OccupancyGrid;
}

export function agentGrids(scene: Scene, meshes: readonly WorldMesh[], cellSize: number, radius: number, rule: ObstacleRule): AgentGrids {
  const nonBlocking = new Set(rule.nonBlocking);
  const skip = (mesh: WorldMesh) => mesh.category === "floor" || mesh.category === "ceiling" || nonBlocking.has(mesh.category);
  const point = occupancyForScene(scene, meshes, { cellSize, zMin: rule.minZ, zMax: rule.maxZ, skip });
  return { point, embodied: inflate(point, radius) };
}
