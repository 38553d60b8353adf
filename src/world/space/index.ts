/** Plan space of a scene: occupancy, inflation, free components, paths, line of sight, rooms. */
export * from "./grid.js";
export * from "./occupancy.js";
export * from "./inflate.js";
export * from "./paths.js";
export * from "./sight.js";
export * from "./rooms.js";
export * from "./scene.js";
export { forEachCoveredSpan } from "./raster.js";
export * from "./agent-grids.js";
