/**
 * Candidate locations of one view (render_scenes.py `build_classification_candidates_for_view`,
 * `apply_candidate_pixel_deobjectification`; build_task_outputs.py
 * `build_visible_object_surface_negatives`): floor points of the grid every 0.4 m that the camera
 * sees, labelled by the pixel they land on and by both agents' grids (the route sheet's pool);
 * the start under the bottom-centre of the image. The a1/b1 sheet's floor points are in
 * matched-floor.ts.
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

/** Floor points every `stepM` (on the occupancy grid's cell centres) inside the rooms whose projection falls in the picture. */
export function* floorLatticeInView(v: ViewInputs, stepM: number): Generator<{ world: Vec3; q: { x: number; y: number; depth: number } }> {
  const grid = v.grids.point;
  const stride = Math.max(1, Math.round(stepM / grid.cellSize));
  const rooms = v.scene.rooms.map((r) => polygon(r.polygon));
  const basis = cameraBasis(v.camera);
  for (let j = 0; j < grid.height; j += stride) {
    for (let i = 0; i < grid.width; i += stride) {
      const x = grid.origin[0] + (i + 0.5) * grid.cellSize, y = grid.origin[1] + (j + 0.5) * grid.cellSize;
      if (!rooms.some((r) => pointInPolygon(r, x, y))) continue;
      const world: Vec3 = [x, y, 0];
      const q = projectPoint(v.camera, world, basis);
      if (q && inImage(v.camera, q)) yield { world, q };
    }
  }
}

/** Floor points of the grid every 0.4 m inside the rooms that the view sees, nearest first, at most 220. */
export function floorGridCandidates(v: ViewInputs, firstKey: number): Candidate[] {
  const seen: Array<{ world: Vec3; q: { x: number; y: number; depth: number } }> = [];
  const behindWalls: Array<{ x: number; y: number; depth: number }> = [];
  for (const { world, q } of floorLatticeInView(v, P.candidateSpacingM)) {
    if (rayVisible(v.buffers, q)) seen.push({ world, q });
    else if (v.buffers.instance[pixelIndex(v.buffers, q.x, q.y)]! >= STRUCTURE_ID_BASE.wall) behindWalls.push(q);
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
