/**
 * How a switched-on object looks: a lamp's materials lean to a warm white (untextured) and glow
 * (an emission: its shade shines whatever light falls on it), and it adds a warm point light under
 * its top; a screen's dark materials (a TV's, a monitor's, a coffee machine's display) turn a
 * glowing blue. Other objects keep their look. The lamp's light casts no shadow of its own (it is
 * not in the house's shadow maps).
 */
import type { PointLight, SceneObject, WorldMesh, WorldMeshPart } from "../types.js";

/** The categories a person can switch on and whose look changes when on. */
export const SWITCHABLE_CATEGORIES: ReadonlySet<string> = new Set(["lamp", "tv", "monitor", "kettle", "coffee machine"]);

const WARM_WHITE = [1, 0.92, 0.75] as const;
const LAMP_BLEND = 0.75;
const SCREEN_BLUE: [number, number, number] = [0.42, 0.62, 0.95];
/** Linear emissions of a lit lamp and of a lit screen (a lamp's shade reads near white, a screen a clear blue). */
const LAMP_GLOW: [number, number, number] = [0.6, 0.5, 0.32];
const SCREEN_GLOW: [number, number, number] = [0.1, 0.18, 0.38];
/** Below this luminance a material of a screen object is its display (or its black frame). */
const DARK_LUMINANCE = 0.2;
const LAMP_LIGHT_COLOR: [number, number, number] = [0.9, 0.72, 0.45];
/** The lamp's light sits this far below the top of its bounding box (inside the shade). */
const LAMP_LIGHT_BELOW_TOP_M = 0.1;

const luminance = (c: readonly number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;

/** The indices of the parts (mesh groups) of `object`'s mesh that look different switched on: a lamp's all, a screen's dark ones. */
export function switchedOnParts(mesh: WorldMesh, object: SceneObject): number[] {
  const lamp = object.category === "lamp";
  return mesh.parts.flatMap((part, k) => (lamp || luminance(part.diffuse) < DARK_LUMINANCE ? [k] : []));
}

/** The mesh of `object` as it looks switched on, and the light it adds (lamps only). */
export function switchedOnLook(mesh: WorldMesh, object: SceneObject): { mesh: WorldMesh; light: PointLight | null } {
  const lamp = object.category === "lamp";
  const changed = new Set(switchedOnParts(mesh, object));
  const parts = mesh.parts.map((part, k): WorldMeshPart => {
    if (!changed.has(k)) return part;
    if (lamp) return { ...part, diffuse: part.diffuse.map((c, i) => c + (WARM_WHITE[i]! - c) * LAMP_BLEND) as [number, number, number], texture: null, emission: [...LAMP_GLOW] };
    return { ...part, diffuse: [...SCREEN_BLUE], texture: null, emission: [...SCREEN_GLOW] };
  });
  const { min, max } = object.bbox;
  const light: PointLight | null = lamp ? { position: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, max[2] - LAMP_LIGHT_BELOW_TOP_M], color: [...LAMP_LIGHT_COLOR], room: object.room } : null;
  return { mesh: { ...mesh, parts }, light };
}
