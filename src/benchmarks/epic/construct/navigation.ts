/**
 * Navigation samples of one view (paper §3.2.2): Ground Detection (the visible ground: every
 * floor and rug instance), Feasible Path Ego and Exo (the free floor: ground pixels whose floor
 * point is free on the robot's plan grid, 0.30 m radius; goal areas: the free floor in front of
 * an object, FRONT_ZONE), and Visual Matching (one object marked in view a, its pixels in a second
 * view b of the same place).
 */
import { labelComponents } from "../../../geometry/components.js";
import { pointToRegionDistance, regionToRegionMinDistance } from "../../../geometry/distance-transform.js";
import { BitMask } from "../../../geometry/mask.js";
import { cameraBasis, floorPointAt } from "../../../world/camera.js";
import { frontDirection } from "../../../world/house/footprint.js";
import { geodesicDistances, isFreePoint, worldToCell, type OccupancyGrid } from "../../../world/space/index.js";
import type { SceneObject, Vec2 } from "../../../world/types.js";
import { instanceMask } from "../../../world/visibility.js";
import { splitRegions } from "../score.js";
import { EPIC_PARAMS as P } from "./params.js";
import { describable, isVisible, namePhrase, objectMask, type ViewScene } from "./targets.js";
import type { Draft } from "./types.js";
import { isFloorId, maskWhere, movedCamera, pixelsOf, renderEpicView, type EpicView, type Shadows } from "./view.js";

/** Ids of the ground instances: floors and rugs. */
export function groundIds(v: Pick<ViewScene, "house">): Set<number> {
  return new Set(v.house.scene.objects.filter((o) => o.category === "rug").map((o) => o.id));
}

const isGround = (rugs: ReadonlySet<number>) => (id: number) => isFloorId(id) || rugs.has(id);

/** Ground Detection: one mask per floor or rug instance with pixels in view. */
export function groundSample(v: ViewScene): Draft | null {
  const rugs = groundIds(v);
  const ids = [...v.view.stats.keys()].filter(isGround(rugs)).sort((a, b) => a - b);
  if (ids.length === 0) return null;
  const { width, height, instance } = v.view.buffers;
  return {
    leaf: "GroundDetection",
    text: { scene_description_en: "the walkable ground: floors and rugs" },
    masks: { masklet_ground: ids.map((id) => instanceMask(instance, width, height, id)) },
    provenance: { kind: "ground", instances: { masklet_ground: ids } },
  };
}

/** The floor point seen at each pixel centre, or null (pixel looks up). */
export function floorPointOf(view: EpicView, x: number, y: number): Vec2 | null {
  const q = floorPointAt(view.camera, x + 0.5, y + 0.5, 0);
  return q ? [q[0], q[1]] : null;
}

/** Free floor: ground pixels whose floor point is free on the robot's grid. */
export function pathMask(v: ViewScene): BitMask {
  const rugs = groundIds(v);
  const ground = isGround(rugs);
  const { width, height, instance } = v.view.buffers;
  const grid = v.house.grids.embodied;
  const basis = cameraBasis(v.view.camera);
  const m = new BitMask(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!ground(instance[y * width + x]!)) continue;
      const q = floorPointAt(v.view.camera, x + 0.5, y + 0.5, 0, basis);
      if (q && isFreePoint(grid, [q[0], q[1]])) m.set(x, y);
    }
  }
  return m;
}

/** Whether a floor point lies in the zone in front of an object: up to frontZoneDepthM ahead of its front face, as wide as the object plus a margin. */
export function inFrontZone(o: SceneObject, q: Vec2): boolean {
  const f = frontDirection(o.yaw);
  const dx = q[0] - o.position[0], dy = q[1] - o.position[1];
  const along = dx * f[0] + dy * f[1];
  const lateral = Math.abs(-dx * f[1] + dy * f[0]);
  return along >= o.size.depth / 2 && along <= o.size.depth / 2 + P.frontZoneDepthM && lateral <= o.size.width / 2 + P.frontZoneSideMarginM;
}

/** The free-floor pixels in front of an object. */
export function zoneMask(v: ViewScene, free: BitMask, o: SceneObject): BitMask {
  const m = new BitMask(free.width, free.height);
  free.forEachPixel((x, y) => {
    const q = floorPointOf(v.view, x, y);
    if (q && inFrontZone(o, q)) m.set(x, y);
  });
  return m;
}

/** Objects on the floor that a goal area can be in front of. */
function floorStanding(v: ViewScene): SceneObject[] {
  return describable(v).filter((o) => o.supportId === null && o.category !== "rug" && isVisible(v, o));
}

function reachable(grid: OccupancyGrid, distances: Float64Array, v: ViewScene, zone: BitMask): boolean {
  let ok = false;
  zone.forEachPixel((x, y) => {
    if (ok) return;
    const q = floorPointOf(v.view, x, y);
    if (!q) return;
    const [i, j] = worldToCell(grid, q);
    if (i >= 0 && j >= 0 && i < grid.width && j < grid.height && Number.isFinite(distances[j * grid.width + i]!)) ok = true;
  });
  return ok;
}

interface Zone {
  object: SceneObject;
  phrase: string;
  mask: BitMask;
}

/** Goal areas of the view: nameable floor objects whose front zone shows at least minTargetAreaPx free pixels. */
function zones(v: ViewScene, free: BitMask): Zone[] {
  const out: Zone[] = [];
  for (const o of floorStanding(v)) {
    const phrase = namePhrase(v, o);
    if (!phrase) continue;
    const mask = zoneMask(v, free, o);
    if (mask.count() >= P.minTargetAreaPx) out.push({ object: o, phrase, mask });
  }
  return out;
}

/** The 4-connected component of the free floor holding pixel (x, y), or null. */
function componentAt(free: BitMask, x: number, y: number): BitMask | null {
  if (!free.get(x, y)) return null;
  const labeling = labelComponents(free, 4);
  const label = labeling.labels[y * free.width + x]!;
  return maskWhere(Uint32Array.from(labeling.labels), free.width, free.height, (l) => l === label);
}

function overlaps(a: BitMask, b: BitMask): boolean {
  return a.clone().intersect(b).count() > 0;
}

function pathDraft(leaf: string, description: string, free: BitMask, areas: Zone[]): Draft {
  return {
    leaf,
    text: { text_label: [description], target_area_description_en: description },
    masks: { masklet_path: [free], masklet_target_area: areas.map((z) => z.mask) },
    overlayField: "masklet_target_area",
    provenance: { kind: leaf === "FeasiblePath_Ego" ? "path-ego" : "path-exo", floor: { masklet_path: "path", masklet_target_area: "zones" }, zones: areas.map((z) => ({ objectId: z.object.id })) },
  };
}

/**
 * Feasible Path Ego: from the camera (the scorer's start, the bottom centre of the picture, must
 * be free floor) to the area in front of an object, reachable on the plan grid and through the
 * free floor of the picture, and at least minStartGoalDistance from the start.
 */
export function egoPathSample(v: ViewScene): Draft | null {
  const free = pathMask(v);
  const { width, height } = free;
  const start = componentAt(free, Math.floor(width / 2), height - 1);
  if (!start) return null;
  const grid = v.house.grids.embodied;
  const distances = geodesicDistances(grid, [v.view.camera.position[0], v.view.camera.position[1]]);
  const startX = width / 2, startY = height - 1; // the scorer's start point
  const minDistance = minStartGoalDistance(width, height);
  const goals = zones(v, free).filter((z) => overlaps(z.mask, start) && pointToRegionDistance(z.mask, startX, startY) >= minDistance && reachable(grid, distances, v, z.mask));
  if (goals.length === 0) return null;
  const goal = v.rng.pick(goals);
  return pathDraft("FeasiblePath_Ego", `the floor in front of ${goal.phrase}`, free, [goal]);
}

/** The least start-to-goal-area distance of a path sample, pixels (params.ts minStartGoalDiagShare). */
function minStartGoalDistance(width: number, height: number): number {
  return P.minStartGoalDiagShare * Math.hypot(width, height);
}

/** Pixel sets equal. */
function sameMask(a: BitMask, b: BitMask): boolean {
  return a.equals(b);
}

/**
 * Feasible Path Exo: between the areas in front of two objects at least minStartGoalDistance
 * apart, both in one free-floor component of the picture and reachable from each other on the
 * grid; kept only when the scorer's split of the target area into two regions (score.ts
 * splitRegions) gives back exactly the two areas.
 */
export function exoPathSample(v: ViewScene): Draft | null {
  const free = pathMask(v);
  const all = zones(v, free);
  const grid = v.house.grids.embodied;
  const minDistance = minStartGoalDistance(free.width, free.height);
  const pairs: Array<[Zone, Zone]> = [];
  const labeling = labelComponents(free, 4);
  const labelsOf = (z: Zone) => {
    const s = new Set<number>();
    z.mask.forEachPixel((x, y) => s.add(labeling.labels[y * free.width + x]!));
    return s;
  };
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i]!, b = all[j]!;
      if (regionToRegionMinDistance(a.mask, b.mask) < minDistance) continue;
      const la = labelsOf(a), lb = labelsOf(b);
      if (![...la].some((l) => lb.has(l))) continue;
      const union = a.mask.clone().union(b.mask);
      const [r1, r2] = splitRegions(union);
      if (!r2 || !((sameMask(r1, a.mask) && sameMask(r2, b.mask)) || (sameMask(r1, b.mask) && sameMask(r2, a.mask)))) continue;
      pairs.push([a, b]);
    }
  }
  if (pairs.length === 0) return null;
  const [a, b] = v.rng.pick(pairs);
  // Reachable on the plan grid from one area to the other.
  const qa = firstFloorPoint(v, a.mask);
  if (!qa) return null;
  const distances = geodesicDistances(grid, qa);
  if (!reachable(grid, distances, v, b.mask)) return null;
  return pathDraft("FeasiblePath_Exo", `the floor in front of ${a.phrase}, the floor in front of ${b.phrase}`, free, [a, b]);
}

function firstFloorPoint(v: ViewScene, mask: BitMask): Vec2 | null {
  let out: Vec2 | null = null;
  mask.forEachPixel((x, y) => {
    if (!out) out = floorPointOf(v.view, x, y);
  });
  return out;
}

/**
 * Visual Matching: a second view b from a free spot 0.5-1.2 m away, turned 12-35 degrees; the
 * reference is one object clearly visible in a (marked by its mask), the answer its pixels in b
 * (none when b does not show it at all: half the time where some object allows it).
 */
export function matchingSample(v: ViewScene, shadows: Shadows): Draft | null {
  const cam = v.view.camera;
  const grid = v.house.grids.embodied;
  let b: EpicView | null = null;
  for (let attempt = 0; attempt < 8 && !b; attempt++) {
    const dir = v.rng.float(0, 2 * Math.PI);
    const shift = v.rng.float(P.matchShiftM[0], P.matchShiftM[1]);
    const to: Vec2 = [cam.position[0] + shift * Math.cos(dir), cam.position[1] + shift * Math.sin(dir)];
    if (!isFreePoint(grid, to)) continue;
    const turn = (v.rng.chance(0.5) ? 1 : -1) * v.rng.float(P.matchTurnDeg[0], P.matchTurnDeg[1]) * (Math.PI / 180);
    b = renderEpicView(v.house, movedCamera(cam, to, turn), v.view.kind, shadows, v.view.on);
  }
  if (!b) return null;
  const second = b;
  const candidates = describable(v).filter((o) => o.category !== "rug" && pixelsOf(v.view, o.id) >= P.minMatchPx && namePhrase(v, o) !== null);
  const inB = candidates.filter((o) => pixelsOf(second, o.id) >= P.minMatchPx);
  const absentB = candidates.filter((o) => pixelsOf(second, o.id) === 0);
  // Half the time the object is left out of view b where it can be; the set keeps at most
  // zeroTargetCap("VisualMatching") of them (balance.ts).
  const zero = absentB.length > 0 && (inB.length === 0 || v.rng.chance(0.5));
  if (!zero && inB.length === 0) return null;
  const o = v.rng.pick(zero ? absentB : inB);
  const matches = zero ? [] : [objectMask(second, o.id)];
  return {
    leaf: "VisualMatching",
    text: { reference_area_description_en: namePhrase(v, o)!, count_matching_area: [matches.length], precise_count: true, count_in_description: false },
    masks: { masklet_matching_area: matches, masklet_reference_area: [objectMask(v.view, o.id)] },
    overlayField: "masklet_reference_area",
    second,
    provenance: { kind: zero ? "match-absent" : "match", instances: { masklet_matching_area: zero ? [] : [o.id], masklet_reference_area: [o.id] }, secondCamera: second.camera },
  };
}
