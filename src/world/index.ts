/**
 * The world engine as a library:
 *   import { world } from "spatialprobe";
 *   const catalogue = world.readLibraries();            // Sweet Home 3D furniture libraries
 *   const library = new world.ModelLibrary();
 *   const scene = await world.generateHouse({ catalogue, library, seed: 1 });
 *   const meshes = await world.sceneMeshes(scene, library, catalogue);
 *   const view = world.renderView(meshes, camera, { lights: scene.lights }); // rgb, depth, instance, category
 */
export * from "./types.js";
export * from "./camera.js";
export { readLibraries, attributionText, AssetsNotFoundError, CATEGORIES, DEFAULT_ASSETS_DIR, type Catalogue, type CatalogEntry, type Category } from "./assets/catalog.js";
export { ModelLibrary, type CatalogModel } from "./assets/models.js";
export { generateHouse, sceneToJson } from "./house/index.js";
export { sceneMeshes, structureMeshes, objectMesh, TextureCache } from "./meshes.js";
export { renderView, renderInstanceCoverage, prepareShadows, encodeRgbPng, depthToPng16, instanceToPng, type RenderBuffers, type RenderOptions } from "./render/index.js";
export * from "./space/index.js";
export { objectPixelStats, unoccludedFraction, instanceMask, instanceMaskRle, projectFloorPoints, pointVisible, surfacePointVisible } from "./visibility.js";
