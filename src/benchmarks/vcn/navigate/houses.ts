/**
 * The house plans of a generated set (houses/<scene>/scene.json), for what the metrics and the
 * pictures need of them: the release's region ("regionN", the plan's room "room_N") a position is
 * in (RSR, §5.1), and the plan itself for the top-down picture. A set without plans (a release
 * run through the bridge) gives null everywhere.
 */
import { DataRoot, type DataRootOptions } from "../../../core/dataroot.js";
import path from "node:path";
import { parseJson } from "../../../core/jsonl.js";
import { sceneFromJson } from "../../../world/house/scene-from-json.js";
import { roomAt } from "../../../world/space/index.js";
import type { Scene } from "../../../world/types.js";
import type { Vec } from "../episodes.js";
import { safeName } from "./files.js";

export class HousePlans {
  private readonly scenes = new Map<string, Scene | null>();
  private readonly root: DataRoot;

  constructor(data: string, options: DataRootOptions = {}) {
    this.root = new DataRoot(data, options);
  }

  /** The plan of a scene, or null when the set has none, it does not read, or it lies outside the data folder. */
  scene(sceneId: string): Scene | null {
    if (this.scenes.has(sceneId)) return this.scenes.get(sceneId)!;
    const read = this.root.readText(path.posix.join("houses", safeName(sceneId), "scene.json"));
    let scene: Scene | null = null;
    if (read.ok) {
      const parsed = parseJson(read.text);
      if (parsed.ok) {
        try {
          scene = sceneFromJson(parsed.value, read.path);
        } catch {
          scene = null;
        }
      }
    }
    this.scenes.set(sceneId, scene);
    return scene;
  }

  /** The release's region of a Habitat position ([x, y, z] -> plan [x, -z]); undefined when the scene has no plan. */
  regionAt(sceneId: string, position: Vec): string | null | undefined {
    const scene = this.scene(sceneId);
    if (!scene) return undefined;
    const room = roomAt(scene, [position[0]!, -position[position.length - 1]!]);
    return room === null ? null : room.replace(/^room_/, "region");
  }
}
