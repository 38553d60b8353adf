/**
 * Houses for VCN-Bench: large floors (params.ts houseRooms), so room categories repeat (several
 * bedrooms, bathrooms) and the rules have distractor rooms (design principle iii); a seed whose
 * house has too few rooms in repeated categories is replaced by the next derived seed. The agent's
 * plan grid uses the robot's radius (Stretch, App. C.2: 0.17 m) on EgoPath's obstacle rule.
 */
import type { Catalogue } from "../../../world/assets/catalog.js";
import type { ModelLibrary } from "../../../world/assets/models.js";
import { generateHouse } from "../../../world/house/index.js";
import { createRng, deriveSeed } from "../../../stats/rng.js";
import type { Scene } from "../../../world/types.js";
import { VCN_PARAMS as P } from "./params.js";

/** Rooms whose category (hallway aside) is shared with at least one other room. */
export function repeatedRooms(scene: Pick<Scene, "rooms">): number {
  const counts = new Map<string, number>();
  for (const r of scene.rooms) if (!P.excludedRoomTypes.includes(r.type)) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
  return [...counts.values()].filter((n) => n >= 2).reduce((a, b) => a + b, 0);
}

export interface VcnHouseOptions {
  catalogue: Catalogue;
  library: ModelLibrary;
  /** The house's seed; attempts use seeds derived from it. */
  seed: number;
  id: string;
  rooms?: readonly [number, number];
  /** world/house roomAreaScale (default 1). */
  roomAreaScale?: number;
  minRepeatedRooms?: number;
}

/** The first house of the seed's attempts with enough repeated rooms; its seed is scene.seed. */
export async function vcnHouse(o: VcnHouseOptions): Promise<Scene> {
  const [lo, hi] = o.rooms ?? P.houseRooms;
  const wanted = o.minRepeatedRooms ?? P.minRepeatedRooms;
  for (let attempt = 0; attempt < P.houseAttempts; attempt++) {
    const seed = deriveSeed(o.seed, attempt);
    const rooms = createRng(seed).int(lo, hi);
    const scene = await generateHouse({ catalogue: o.catalogue, library: o.library, seed, rooms, ...(o.roomAreaScale !== undefined ? { roomAreaScale: o.roomAreaScale } : {}) });
    if (repeatedRooms(scene) >= wanted) return { ...scene, id: o.id };
  }
  throw new Error(`no house with ${wanted} rooms in repeated categories after ${P.houseAttempts} seeds (base seed ${o.seed}); ask for more rooms`);
}

/** The robot's plan grid: obstacles 0.10-1.4 m above the floor inflated by the robot's radius (the simulator's robot). */
export { robotGrid } from "../../../sim/robot.js";
