/**
 * Houses of a generated VCN-Bench set, loaded for the built-in simulator: houses/<scene>/scene.json
 * under the data root (confined to it by core/dataroot.ts), its meshes from the furniture
 * libraries, the robot's plan grid (robot.ts robotGrid) and the shadow maps of its
 * lights (prepared once per house). Loading a house takes seconds, so the last few are kept
 * (least recently used first out); simulators running episodes side by side may share one cache.
 */
import { DataRoot } from "../core/dataroot.js";
import { parseJson } from "../core/jsonl.js";
import { DataError } from "../core/problems.js";
import { readLibraries, type Catalogue } from "../world/assets/catalog.js";
import { ModelLibrary } from "../world/assets/models.js";
import { sceneFromJson } from "../world/house/scene-from-json.js";
import { sceneMeshes, TextureCache } from "../world/meshes.js";
import { prepareShadows, type ShadowMaps } from "../world/render/index.js";
import type { OccupancyGrid } from "../world/space/index.js";
import type { Scene, WorldMesh } from "../world/types.js";
import { robotGrid } from "./robot.js";
import { EnvironmentError } from "./types.js";

export interface LoadedHouse {
  scene: Scene;
  meshes: WorldMesh[];
  /** The robot's plan grid (obstacles inflated by its radius). */
  grid: OccupancyGrid;
  /** Shadow maps of scene.lights. */
  shadows: ShadowMaps;
}

export interface HouseCacheOptions {
  /** The set's folder (holding houses/<scene>/scene.json). */
  dataRoot: string;
  /** Sweet Home 3D furniture libraries (default /usr/share/sweethome3d/furniture). */
  assetsDir?: string;
  /** Houses kept loaded (default 3). */
  capacity?: number;
}

/** Scene ids are one path segment: letters, digits, '.', '_' and '-', not "." or "..". */
const SCENE_ID = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

export function houseFile(sceneId: string): string {
  if (!SCENE_ID.test(sceneId)) throw new EnvironmentError(`scene id ${JSON.stringify(sceneId.slice(0, 200))} is not a plain name (letters, digits, '.', '_', '-')`);
  return `houses/${sceneId}/scene.json`;
}

export class HouseCache {
  readonly root: DataRoot;
  readonly capacity: number;
  private readonly catalogue: Catalogue;
  private readonly library = new ModelLibrary();
  private readonly textures = new TextureCache();
  /** Insertion order = use order (oldest first). */
  private readonly houses = new Map<string, Promise<LoadedHouse>>();
  private closed = false;

  constructor(options: HouseCacheOptions) {
    const capacity = options.capacity ?? 3;
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`house cache capacity must be a whole number >= 1, got ${capacity}`);
    this.capacity = capacity;
    this.root = new DataRoot(options.dataRoot);
    this.catalogue = readLibraries(options.assetsDir);
  }

  /** The loaded house of a scene id (loaded on first use; one load shared by concurrent callers). */
  get(sceneId: string): Promise<LoadedHouse> {
    if (this.closed) return Promise.reject(new EnvironmentError("the house cache is closed"));
    let house = this.houses.get(sceneId);
    if (house) {
      this.houses.delete(sceneId);
    } else {
      house = this.load(sceneId);
      // A failed load is not kept: the next call tries again (and reports the error again).
      house.catch(() => {
        if (this.houses.get(sceneId) === house) this.houses.delete(sceneId);
      });
    }
    this.houses.set(sceneId, house);
    while (this.houses.size > this.capacity) this.houses.delete(this.houses.keys().next().value!);
    return house;
  }

  /** Scene ids held, least recently used first. */
  held(): string[] {
    return [...this.houses.keys()];
  }

  close(): void {
    this.closed = true;
    this.houses.clear();
    this.library.close();
  }

  private async load(sceneId: string): Promise<LoadedHouse> {
    const ref = houseFile(sceneId);
    const found = this.root.readText(ref, { what: "scene file" });
    if (!found.ok) throw found.missing ? new EnvironmentError(`unknown scene ${sceneId}: ${found.message} in ${this.root.dir}`) : new DataError([{ file: ref, message: found.message }]);
    const parsed = parseJson(found.text);
    if (!parsed.ok) throw new DataError([{ file: found.path, message: parsed.message }]);
    const scene = sceneFromJson(parsed.value, found.path);
    const meshes = await sceneMeshes(scene, this.library, this.catalogue, { textures: this.textures });
    return { scene, meshes, grid: robotGrid(scene, meshes), shadows: prepareShadows(meshes, scene.lights) };
  }
}
