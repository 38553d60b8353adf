/**
 * Embodied environments: the interface (types.ts), the built-in simulator on the world engine
 * (world-sim.ts, with its motion rules in motion.ts and its loaded houses in house-cache.ts).
 */
export * from "./types.js";
export * from "./motion.js";
export { HouseCache, houseFile, type HouseCacheOptions, type LoadedHouse } from "./house-cache.js";
export {
  createWorldSimulator,
  geodesicPath,
  habitatOfPlan,
  planOfHabitat,
  planYawOfHeading,
  startHeading,
  verticalFovDeg,
  WorldSimulator,
  type SimTimings,
  type WorldSimOptions,
} from "./world-sim.js";
export { startBridgeServer, type BridgeServer, type BridgeServerOptions } from "./bridge/server.js";
export { connectBridge, BridgeFailure, BridgeRejection, type BridgeClientOptions } from "./bridge/client.js";
export { PROTOCOL } from "./bridge/protocol.js";
