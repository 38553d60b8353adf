/**
 * The robot the built-in simulator moves: a Hello Robot Stretch (1.41 m tall, base radius 0.17 m)
 * with a camera at its top and 384 x 384 views, on a 0.05 m plan grid whose obstacles are the
 * geometry 0.10-1.4 m above the floor (rugs and towels never block), inflated by the base radius so
 * the robot is a point on it. The benchmarks navigated in this simulator take their robot from here.
 */
import { agentGrids, type OccupancyGrid } from "../world/space/index.js";
import type { Scene, WorldMesh } from "../world/types.js";

export const ROBOT = Object.freeze({
  radiusM: 0.17,
  heightM: 1.41,
  gridCellM: 0.05,
  imageSide: 384,
  obstacles: Object.freeze({ minZ: 0.1, maxZ: 1.4, nonBlocking: Object.freeze(["rug", "towel"]) as readonly string[] }),
});

/** The robot's plan grid of a house: obstacles inflated by its radius. */
export function robotGrid(scene: Scene, meshes: readonly WorldMesh[]): OccupancyGrid {
  return agentGrids(scene, meshes, ROBOT.gridCellM, ROBOT.radiusM, ROBOT.obstacles).embodied;
}
