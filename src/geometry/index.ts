/** Shared, pure geometry: points, segments, rectangles, shortest paths. */
export * from "./point2.js";
export * from "./segment2.js";
export * from "./rect.js";
export * from "./dijkstra.js";
export * from "./polygon.js";
export * from "./collision.js";
export * from "./planners.js";
export * from "./mask.js";
export * from "./rle.js";
export * from "./distance-transform.js";
export * from "./components.js";
