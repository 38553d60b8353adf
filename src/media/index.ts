/** Media: PNG encoding, PathEval 2D/3D pictures, a software rasterizer, composition. */
export * from "./scene2d.js";
export * from "./png.js";
export * from "./triangulate.js";
export * from "./raster3d.js";
export * from "./render2d.js";
export * from "./render3d.js";
export * from "./compose.js";
