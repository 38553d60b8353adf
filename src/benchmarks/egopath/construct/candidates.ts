/**
 * Candidate locations of one view (render_scenes.py `build_classification_candidates_for_view`,
 * `apply_candidate_pixel_deobjectification`; build_task_outputs.py
 * `build_visible_object_surface_negatives`): floor points of the grid every 0.4 m that the camera
 * sees, labelled by the pixel they land on and by both agents' grids; object-surface negatives on
 * visible low objects; the start under the bottom-centre of the image.
 */
import { pointInPolygon, polygon } from "../../../geometry/polygon.js";
import { cameraBasis, floorPointAt, inImage, projectPoint, unprojectPoint, type PinholeCamera } from "../../../world/camera.js";
import { isFreePoint, worldToCell, type OccupancyGrid } from "../../../world/space/index.js";
import { STRUCTURE_ID_BASE, type Scene, type SceneObject, type Vec2, type Vec3 } from "../../../world/types.js";
import { EGOPATH_PARAMS as P, round4, scalePx } from "./params.js";
import type { AgentGrids, Candidate, CandidateSource, ViewBuffers } from "./types.js";

/** Pixels of these categories do not make a floor point an "object pixel" (the script's list). */
const NOT_OBJECT_PIXEL = new Set(["rug", "towel", "window", "door"]);

export interface Clearances {
  point: Float64Array;
  embodied: Float64Array;
}

export interface ViewInputs {
  scene: Scene;
  camera: PinholeCamera;
  buffers: ViewBuffers;
  grids: AgentGrids;
  clearances: Clearances;
  objectsById: ReadonlyMap<number, SceneObject>;
}

function pixelIndex(b: ViewBuffers, x: number, y: number): number {
  return Math.floor(y) * b.width + Math.floor(x);
}

/** Minimum depth over the (2r+1) x (2r+1) window around the pixel (0 = empty pixels skipped). */
function windowMinDepth(b: ViewBuffers, x: number, y: number, r: number): number {
  const cx = Math.floor(x), cy = Math.floor(y);
  let best = Infinity;
  for (let j = Math.max(0, cy - r); j <= Math.min(b.height - 1, cy + r); j++) {
    for (let i = Math.max(0, cx - r); i <= Math.min(b.width - 1, cx + r); i++) {
      const d = b.depth[j * b.width + i]!;
      if (d > 0 && d < best) best = d;
    }
  }
  return best;
}

function gridValue(grid: OccupancyGrid, values: Float64Array, p: Vec2): number {
  const [i, j] = worldToCell(grid, p);
  if (i < 0 || j < 0 || i >= grid.width || j >= grid.height) return 0;
  return values[j * grid.width + i]!;
}

/** Labels a floor location seen at image point q: pixel kind, occlusion, both agents' feasibility. */
export function labelFloorCandidate(v: ViewInputs, key: number, source: CandidateSource, point: Vec3, q: { x: number; y: number; depth: number }): Candidate {
  const b = v.buffers;
  const world = point.map(round4) as Vec3;
  const id = b.instance[pixelIndex(b, q.x, q.y)]!;
  const object = id > 0 && id < STRUCTURE_ID_BASE.floor ? v.objectsById.get(id) : undefined;
  const onObjectPixel = object !== undefined && !NOT_OBJECT_PIXEL.has(object.category);
  const onStructuralPixel = id >= STRUCTURE_ID_BASE.wall;
  const r = Math.max(1, Math.round(scalePx((P.occlusionWindowPx - 1) / 2, b.width)));
  const occluded = windowMinDepth(b, q.x, q.y, r) + P.visibilityToleranceM < q.depth;
  const p: Vec2 = [world[0], world[1]];
  const usable = !onObjectPixel && !occluded;
  return {
    key,
    source,
    world,
    image: [q.x, q.y],
    depth: q.depth,
    pointWalkable: usable && isFreePoint(v.grids.point, p),
    embodiedFeasible: usable && isFreePoint(v.grids.embodied, p),
    onObjectPixel,
    onStructuralPixel,
    occluded,
    pointClearanceM: gridValue(v.grids.point, v.clearances.point, p),
    embodiedClearanceM: gridValue(v.grids.embodied, v.clearances.embodied, p),
  };
}

/** Seen by the camera: in the image, and the depth buffer there is not nearer by more than 0.08 m. */
function rayVisible(b: ViewBuffers, q: { x: number; y: number; depth: number }): boolean {
  const d = b.depth[pixelIndex(b, q.x, q.y)]!;
  return d === 0 || d >= q.depth - P.visibilityToleranceM;
}

/** Floor points of the grid every 0.4 m inside the rooms that the view sees, nearest first, at most 220. */
export function floorGridCandidates(v: ViewInputs, firstKey: number): Candidate[] {
  const grid = v.grids.point;
  const stride = Math.max(1, Math.round(P.candidateSpacingM / grid.cellSize));
  const rooms = v.scene.rooms.map((r) => polygon(r.polygon));
  const basis = cameraBasis(v.camera);
  const seen: Array<{ world: Vec3; q: { x: number; y: number; depth: number } }> = [];
  const behindWalls: Array<{ x: number; y: number; depth: number }> = [];
  for (let j = 0; j < grid.height; j += stride) {
    for (let i = 0; i < grid.width; i += stride) {
      const x = grid.origin[0] + (i + 0.5) * grid.cellSize, y = grid.origin[1] + (j + 0.5) * grid.cellSize;
      if (!rooms.some((r) => pointInPolygon(r, x, y))) continue;
      const world: Vec3 = [x, y, 0];
      const q = projectPoint(v.camera, world, basis);
      if (!q || !inImage(v.camera, q)) continue;
      if (rayVisible(v.buffers, q)) seen.push({ world, q });
      else if (v.buffers.instance[pixelIndex(v.buffers, q.x, q.y)]! >= STRUCTURE_ID_BASE.wall) behindWalls.push(q);
    }
  }
  seen.sort((a, b) => a.q.depth - b.q.depth || a.q.y - b.q.y || a.q.x - b.q.x);
  const floor = seen.slice(0, P.maxCandidates).map((s, k) => labelFloorCandidate(v, firstKey + k, "floor_grid", s.world, s.q));
  return [...floor, ...structuralNegatives(v, behindWalls, firstKey + floor.length)];
}

/**
 * Structural-surface negatives: grid points whose pixel shows a wall in front of them, marked on
 * the wall where the image shows it (the release's `on_structural_pixel` points). The nearest
 * STRUCTURAL_NEGATIVES of them are kept (our cap: one view would otherwise hold dozens).
 */
function structuralNegatives(v: ViewInputs, points: Array<{ x: number; y: number; depth: number }>, firstKey: number): Candidate[] {
  const b = v.buffers;
  return points
    .map((q) => ({ q, d: b.depth[pixelIndex(b, q.x, q.y)]! }))
    .sort((a, c) => a.d - c.d || a.q.y - c.q.y || a.q.x - c.q.x)
    .slice(0, STRUCTURAL_NEGATIVES)
    .map(({ q, d }, k) => ({
      key: firstKey + k,
      source: "structural_surface" as const,
      world: unprojectPoint(v.camera, q.x, q.y, d).map(round4) as Vec3,
      image: [q.x, q.y] as [number, number],
      depth: d,
      pointWalkable: false,
      embodiedFeasible: false,
      onObjectPixel: false,
      onStructuralPixel: true,
      occluded: false,
      pointClearanceM: 0,
      embodiedClearanceM: 0,
    }));
}

/** Structural-surface negatives kept per view at most. */
export const STRUCTURAL_NEGATIVES = 4;

/**
 * Floor the camera sees under furniture (between table or chair legs, below a bed frame): points
 * every 0.10 m inside each standing object's footprint whose pixel shows the floor. Their cells
 * are occupied, so they are negatives a colour rule cannot tell from free floor (issue 11: the
 * release keeps no such points; we add them so a1 asks where the free floor ends).
 */
export function underObjectCandidates(v: ViewInputs, firstKey: number): Candidate[] {
  const b = v.buffers;
  const basis = cameraBasis(v.camera);
  const out: Candidate[] = [];
  const step = 0.1;
  for (const o of v.scene.objects) {
    if (o.inWall || o.supportId !== null || NOT_OBJECT_PIXEL.has(o.category) || o.bbox.max[2] < P.obstacleMinZ) continue;
    const c = Math.cos(o.yaw), s = Math.sin(o.yaw);
    const hw = o.size.width / 2 - 0.05, hd = o.size.depth / 2 - 0.05;
    for (let u = -hw; u <= hw + 1e-9; u += step) {
      for (let w = -hd; w <= hd + 1e-9; w += step) {
        const world: Vec3 = [o.position[0] + u * c - w * s, o.position[1] + u * s + w * c, 0];
        const q = projectPoint(v.camera, world, basis);
        if (!q || !inImage(v.camera, q) || !rayVisible(b, q)) continue;
        const id = b.instance[pixelIndex(b, q.x, q.y)]!;
        if (id < STRUCTURE_ID_BASE.floor || id >= STRUCTURE_ID_BASE.wall) continue;
        const cand = labelFloorCandidate(v, firstKey + out.length, "floor_grid", world, q);
        if (!cand.pointWalkable) out.push(cand);
      }
    }
  }
  return out;
}

/**
 * The start: the floor under the bottom-centre of the image, which both agents' grids must leave
 * free and the camera must see (build_fixed_bottom_center_start_candidate); null otherwise.
 */
export function bottomCenterStart(v: ViewInputs, key: number): Candidate | null {
  const x = v.camera.width / 2, y = v.camera.height - 0.5;
  const world = floorPointAt(v.camera, x, y, 0);
  if (!world) return null;
  const q = projectPoint(v.camera, world);
  if (!q || !inImage(v.camera, q) || !rayVisible(v.buffers, q)) return null;
  const c = labelFloorCandidate(v, key, "bottom_center_start", world, q);
  return c.pointWalkable && c.embodiedFeasible ? c : null;
}

/** The visible pixel of `id` nearest to (x, y) inside the box, or null. */
function nearestMaskPixel(b: ViewBuffers, id: number, box: [number, number, number, number], x: number, y: number): [number, number] | null {
  let best: [number, number] | null = null, bestD = Infinity;
  for (let j = box[1]; j < box[3]; j++) {
    for (let i = box[0]; i < box[2]; i++) {
      if (b.instance[j * b.width + i] !== id) continue;
      const d = (i + 0.5 - x) ** 2 + (j + 0.5 - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = [i + 0.5, j + 0.5];
      }
    }
  }
  return best;
}

/** Objects a surface negative may sit on: seen, not a rug, not tiny, bottom at most 0.35 m. */
export function surfaceNegativeObject(o: SceneObject): boolean {
  if (o.inWall || NOT_OBJECT_PIXEL.has(o.category)) return false;
  const sx = o.bbox.max[0] - o.bbox.min[0], sy = o.bbox.max[1] - o.bbox.min[1];
  if (sx * sy < P.tinyFootprintM2 && Math.max(sx, sy) < P.tinySideM) return false;
  return o.bbox.min[2] <= P.surfaceNegativeMaxBottomM;
}

/**
 * Object-surface negatives: at the centre of each eligible visible object's pixel box, and at 0.3
 * (and 0.7) along its longer side when the box is large enough (at most 3 per object). We put each
 * marker on the object's nearest visible pixel (the script uses the box point itself, which can
 * miss a chair's seat) and its world point on the surface seen there.
 */
export function surfaceNegatives(v: ViewInputs, objects: ReadonlyArray<{ object: SceneObject; box: [number, number, number, number] }>, firstKey: number): Candidate[] {
  const b = v.buffers;
  const minArea = scalePx(26, b.width) ** 2, longSide = scalePx(80, b.width);
  const out: Candidate[] = [];
  for (const { object, box } of objects) {
    if (!surfaceNegativeObject(object)) continue;
    const w = box[2] - box[0], h = box[3] - box[1];
    const cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
    const spots: Array<[number, number]> = [[cx, cy]];
    if (w * h >= minArea) {
      const fractions = (w >= h ? w : h) >= longSide ? [0.3, 0.7] : [0.3];
      for (const f of fractions) spots.push(w >= h ? [box[0] + f * w, cy] : [cx, box[1] + f * h]);
    }
    for (const [sx, sy] of spots) {
      const px = nearestMaskPixel(b, object.id, box, sx, sy);
      if (!px) continue;
      const depth = b.depth[pixelIndex(b, px[0], px[1])]!;
      out.push({
        key: firstKey + out.length,
        source: "object_surface",
        world: unprojectPoint(v.camera, px[0], px[1], depth).map(round4) as Vec3,
        image: px,
        depth,
        pointWalkable: false,
        embodiedFeasible: false,
        onObjectPixel: true,
        onStructuralPixel: false,
        occluded: false,
        object: { id: object.id, category: object.category },
        pointClearanceM: 0,
        embodiedClearanceM: 0,
      });
    }
  }
  return out;
}
