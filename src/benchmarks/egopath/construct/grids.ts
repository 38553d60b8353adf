/**
 * The two agents' plan grids of a scene (build_navigation_gt.py `build_occupancy_grid`, release
 * config): the floor is free, everything else starts occupied; geometry between 0.10 m and 1.4 m
 * above the floor blocks, except rugs and towels; the point agent's grid is that occupancy as it
 * is, the embodied agent's is the same inflated by 0.30 m (agent radius plus the release's margin
 * 0.0). The floor is every room's outline plus the door openings through the walls.
 */
import { agentGrids as planGrids, squaredHalfCellDistanceToOccupied, type AgentGrids, type OccupancyGrid } from "../../../world/space/index.js";
import type { Scene, WorldMesh } from "../../../world/types.js";
import { EGOPATH_PARAMS as P } from "./params.js";

/** The point agent's occupancy (radius 0) and the embodied agent's (inflated by the agent radius), by the release's obstacle rule. */
export function agentGrids(scene: Scene, meshes: readonly WorldMesh[], cellSize: number = P.gridCellM, radius: number = P.agentRadiusM + P.passableMarginM): AgentGrids {
  return planGrids(scene, meshes, cellSize, radius, { minZ: P.obstacleMinZ, maxZ: P.obstacleMaxZ, nonBlocking: P.nonBlocking });
}

/** Distance (metres) from every cell centre to the nearest occupied cell square. */
export function clearanceMap(grid: OccupancyGrid): Float64Array {
  const d2 = squaredHalfCellDistanceToOccupied(grid);
  const out = new Float64Array(d2.length);
  for (let c = 0; c < d2.length; c++) out[c] = (Math.sqrt(d2[c]!) / 2) * grid.cellSize;
  return out;
}
