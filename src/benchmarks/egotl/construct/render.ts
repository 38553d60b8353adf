/**
 * Rendering an episode's frames: the house's meshes with the moved objects translated (or left
 * out while carried), switched-on lamps adding a warm point light and glowing, screens glowing
 * blue; lit with the house's ceiling lights and their shadow maps (prepared once per house; a
 * moved object keeps its old shadow, a lamp's own light casts none).
 */
import type { PinholeCamera } from "../../../world/camera.js";
import { prepareShadows, renderView, type RenderBuffers, type ShadowMaps } from "../../../world/render/index.js";
import { switchedOnLook } from "../../../world/render/switched-on.js";
import type { PointLight, Scene, Vec3, WorldMesh, WorldMeshPart } from "../../../world/types.js";
import type { Pose } from "./motion.js";
import { EGOTL_PARAMS as P, vfovFor } from "./params.js";

export interface HouseView {
  scene: Scene;
  meshes: WorldMesh[];
  byId: Map<number, WorldMesh>;
  shadows: ShadowMaps;
  /** Per switched-on object: its glowing mesh and, for lamps, its light (stable objects, so caches hold). */
  glow: Map<number, { mesh: WorldMesh; light: PointLight | null }>;
  antialias: boolean;
}

export function houseView(scene: Scene, meshes: WorldMesh[], antialias: boolean): HouseView {
  return { scene, meshes, byId: new Map(meshes.map((m) => [m.instanceId, m])), shadows: prepareShadows(meshes, scene.lights), glow: new Map(), antialias };
}

export function cameraFor(pose: Pose, width: number = P.width, height: number = P.height): PinholeCamera {
  return { position: [pose.x, pose.y, pose.z], yaw: pose.yaw, pitch: pose.pitch, vfovDeg: vfovFor(P.hfovDeg, width, height), width, height };
}

function translated(mesh: WorldMesh, d: Vec3): WorldMesh {
  return {
    ...mesh,
    parts: mesh.parts.map((part): WorldMeshPart => {
      const positions = new Float32Array(part.positions.length);
      for (let i = 0; i < positions.length; i += 3) {
        positions[i] = part.positions[i]! + d[0];
        positions[i + 1] = part.positions[i + 1]! + d[1];
        positions[i + 2] = part.positions[i + 2]! + d[2];
      }
      return { ...part, positions };
    }),
  };
}

function glowFor(view: HouseView, id: number): { mesh: WorldMesh; light: PointLight | null } {
  let g = view.glow.get(id);
  if (g) return g;
  g = switchedOnLook(view.byId.get(id)!, view.scene.objects.find((x) => x.id === id)!);
  view.glow.set(id, g);
  return g;
}

/** The meshes and lights of one frame's object state. */
export function frameScene(view: HouseView, moved: ReadonlyMap<number, Vec3 | null>, switchedOn: ReadonlySet<number>): { meshes: WorldMesh[]; lights: PointLight[] } {
  const lights = [...view.scene.lights];
  const meshes: WorldMesh[] = [];
  for (const mesh of view.meshes) {
    const id = mesh.instanceId;
    let m = mesh;
    if (switchedOn.has(id)) {
      const g = glowFor(view, id);
      m = g.mesh;
      if (g.light) lights.push(g.light);
    }
    if (moved.has(id)) {
      const d = moved.get(id)!;
      if (d === null) continue;
      if (d[0] !== 0 || d[1] !== 0 || d[2] !== 0) m = translated(m, d);
    }
    meshes.push(m);
  }
  return { meshes, lights };
}

export function renderFrame(view: HouseView, pose: Pose, moved: ReadonlyMap<number, Vec3 | null>, switchedOn: ReadonlySet<number>, size?: { width: number; height: number }): RenderBuffers {
  const { meshes, lights } = frameScene(view, moved, switchedOn);
  return renderView(meshes, cameraFor(pose, size?.width, size?.height), { lights, shadows: view.shadows, antialias: view.antialias });
}

/** Visible pixels of some instances in a view (unlit, centre samples: visibility only). */
export function visiblePixels(view: HouseView, pose: Pose, ids: readonly number[], moved: ReadonlyMap<number, Vec3 | null>, switchedOn: ReadonlySet<number>): Map<number, number> {
  const { meshes } = frameScene(view, moved, switchedOn);
  const buffers = renderView(meshes, cameraFor(pose), { shading: "unlit", antialias: false, shadows: false });
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const id of buffers.instance) if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  return counts;
}
