/**
 * Camera poses of a scene, as render_scenes.py chooses them (`compute_camera_positions`,
 * `select_scored_camera_views`, `forward_clear`): candidate spots on a 0.10 m grid in the embodied
 * free space near the room edges, the best of twelve headings by the number of objects in sight,
 * a greedy pick of up to 12 views that cover new objects, then the per-view rejections (too like
 * an accepted view, an object right ahead).
 */
import { pointInPolygon, pointPolygonBoundaryDistance, polygon } from "../../../geometry/polygon.js";
import type { Rng } from "../../../stats/rng.js";
import type { PinholeCamera } from "../../../world/camera.js";
import { cellCenter, freeComponents, type OccupancyGrid } from "../../../world/space/index.js";
import type { Scene, SceneObject, Vec2, Vec3 } from "../../../world/types.js";
import { EGOPATH_PARAMS as P } from "./params.js";
import { firstHitDistance, objectCenter, objectInSight } from "./sightlines.js";

export interface CameraCandidate {
  position: Vec2;
  room: string;
  borderDistance: number;
  yaw: number;
  /** Ids of the objects in sight for the chosen heading. */
  visible: number[];
  forwardRayClearance: number;
  forwardObjectClearance: number;
}

const DEG = Math.PI / 180;

/** Objects that can be seen and counted: standing things, not rugs or what is set into walls. */
function countable(o: SceneObject): boolean {
  return !o.inWall && o.category !== "rug";
}

/** Smallest absolute difference of two angles, radians in [0, pi]. */
export function angleGap(a: number, b: number): number {
  const d = Math.abs(((a - b) % (2 * Math.PI) + 3 * Math.PI) % (2 * Math.PI) - Math.PI);
  return d;
}

/** Objects in sight from `eye` for heading `yaw` (within +-HFOV/2, 0.5-12 m, clear line). */
export function objectsInView(scene: Scene, eye: Vec3, yaw: number, hfovDeg: number): number[] {
  const out: number[] = [];
  for (const o of scene.objects) {
    if (!countable(o)) continue;
    const c = objectCenter(o);
    const d = Math.hypot(c[0] - eye[0], c[1] - eye[1]);
    if (d <= P.viewCountMinDistanceM || d >= P.viewCountMaxDistanceM) continue;
    if (angleGap(Math.atan2(c[1] - eye[1], c[0] - eye[0]), yaw) >= (hfovDeg / 2) * DEG) continue;
    if (objectInSight(scene, eye, o)) out.push(o.id);
  }
  return out;
}

/** Forward distance to the nearest corner of an object that overlaps the 0.30 m corridor ahead (capped at 3 m). */
function forwardObjectClearance(scene: Scene, p: Vec2, yaw: number): number {
  const fx = Math.cos(yaw), fy = Math.sin(yaw);
  let best = 3;
  for (const o of scene.objects) {
    if (!blocksAtBodyHeight(o)) continue;
    const corners: Vec2[] = [[o.bbox.min[0], o.bbox.min[1]], [o.bbox.max[0], o.bbox.min[1]], [o.bbox.max[0], o.bbox.max[1]], [o.bbox.min[0], o.bbox.max[1]]];
    const along = corners.map(([x, y]) => (x - p[0]) * fx + (y - p[1]) * fy);
    const across = corners.map(([x, y]) => -(x - p[0]) * fy + (y - p[1]) * fx);
    if (Math.max(...along) <= 0) continue;
    if (Math.min(...across) > P.agentRadiusM || Math.max(...across) < -P.agentRadiusM) continue;
    best = Math.min(best, Math.max(0, Math.min(...along)));
  }
  return best;
}

/** Objects between 0.10 m and 1.4 m above the floor (the clearance tests' obstacles). */
function blocksAtBodyHeight(o: SceneObject): boolean {
  return !o.inWall && o.category !== "rug" && o.bbox.min[2] < P.forwardClearHeightM && o.bbox.max[2] >= P.obstacleMinZ;
}

/**
 * `forward_clear`: false when some object's centre lies ahead, within 1.0 m of the camera and
 * within 1.0 m of the viewing axis.
 */
export function forwardClear(scene: Scene, p: Vec2, yaw: number): boolean {
  const fx = Math.cos(yaw), fy = Math.sin(yaw);
  for (const o of scene.objects) {
    if (!blocksAtBodyHeight(o)) continue;
    const c = objectCenter(o);
    const dx = c[0] - p[0], dy = c[1] - p[1];
    const along = dx * fx + dy * fy;
    if (along <= 0) continue;
    if (Math.abs(-dx * fy + dy * fx) <= P.forwardClearRadiusM && Math.hypot(dx, dy) <= P.forwardClearRadiusM) return false;
  }
  return true;
}

/** Candidate spots: free for the embodied agent, on the 0.10 m grid, within 2 m of their room's edge. */
function candidateSpots(scene: Scene, embodied: OccupancyGrid): Array<{ position: Vec2; room: string; borderDistance: number }> {
  const stride = Math.max(1, Math.round(P.cameraGridM / embodied.cellSize));
  const rooms = scene.rooms.map((r) => ({ id: r.id, poly: polygon(r.polygon) }));
  const labels = freeComponents(embodied, 4);
  const cellArea = embodied.cellSize * embodied.cellSize;
  const out: Array<{ position: Vec2; room: string; borderDistance: number }> = [];
  for (let j = 0; j < embodied.height; j += stride) {
    for (let i = 0; i < embodied.width; i += stride) {
      const c = j * embodied.width + i;
      if (embodied.occupied[c]) continue;
      // Navigability (render_scenes.py): the free area reachable from the camera is at least 2 m^2.
      const label = labels.labels[c]!;
      if (label <= 0 || labels.components[label - 1]!.pixelCount * cellArea < 2) continue;
      const p = cellCenter(embodied, i, j);
      const room = rooms.find((r) => pointInPolygon(r.poly, p[0], p[1]));
      if (!room) continue;
      const borderDistance = pointPolygonBoundaryDistance(room.poly, p[0], p[1]);
      if (borderDistance < P.cameraEdgeNearM) out.push({ position: p, room: room.id, borderDistance });
    }
  }
  return out;
}

/** Up to `count` of the items, drawn without replacement with the given weights. */
function weightedSample<T>(items: readonly T[], weight: (t: T) => number, count: number, rng: Rng): T[] {
  const pool = items.map((item) => ({ item, w: weight(item) }));
  const out: T[] = [];
  while (out.length < count && pool.length > 0) {
    let total = 0;
    for (const p of pool) total += p.w;
    let r = rng.next() * total;
    let k = 0;
    for (; k < pool.length - 1; k++) {
      r -= pool[k]!.w;
      if (r < 0) break;
    }
    out.push(pool[k]!.item);
    pool.splice(k, 1);
  }
  return out;
}

/** The best heading of each sampled spot, with the clearances the selection scores. */
export function cameraCandidates(scene: Scene, embodied: OccupancyGrid, hfovDeg: number, rng: Rng): CameraCandidate[] {
  const spots = candidateSpots(scene, embodied);
  const sampled = spots.length > P.cameraCandidates ? weightedSample(spots, (s) => 1 / (s.borderDistance + 0.1), P.cameraCandidates, rng) : spots;
  const out: CameraCandidate[] = [];
  for (const s of sampled) {
    const eye: Vec3 = [s.position[0], s.position[1], P.cameraHeightM];
    let best: { yaw: number; visible: number[] } | null = null;
    for (let k = 0; k < P.yawCandidates; k++) {
      const yaw = (k * 2 * Math.PI) / P.yawCandidates;
      const visible = objectsInView(scene, eye, yaw, hfovDeg);
      if (!best || visible.length > best.visible.length) best = { yaw, visible };
    }
    const yaw = best!.yaw;
    const ahead: Vec3 = [eye[0] + 3 * Math.cos(yaw), eye[1] + 3 * Math.sin(yaw), eye[2]];
    out.push({
      ...s,
      yaw,
      visible: best!.visible,
      forwardRayClearance: Math.min(3, firstHitDistance(scene, eye, ahead)),
      forwardObjectClearance: forwardObjectClearance(scene, s.position, yaw),
    });
  }
  return out;
}

/** `select_scored_camera_views`: greedy, by newly covered objects, with the script's multipliers. */
export function selectViews(candidates: readonly CameraCandidate[], maxViews: number): CameraCandidate[] {
  const pool = candidates.filter((c) => c.visible.length >= P.viewMinVisibleObjects && c.forwardRayClearance >= P.forwardRayClearanceM);
  const chosen: CameraCandidate[] = [];
  const covered = new Set<number>();
  while (chosen.length < maxViews && pool.length > 0) {
    let bestK = -1, bestScore = -Infinity;
    pool.forEach((c, k) => {
      const fresh = c.visible.filter((id) => !covered.has(id)).length;
      let score = 6 * fresh + 0.3 * c.visible.length;
      if (c.borderDistance < 1.0) score *= 1.2;
      if (c.forwardRayClearance < 1.5) score *= 0.3;
      if (c.forwardObjectClearance < 0.5) score *= 0.2;
      else if (c.forwardObjectClearance < 1.0) score *= 0.5;
      for (const s of chosen) {
        const d = Math.hypot(s.position[0] - c.position[0], s.position[1] - c.position[1]);
        if (d < 1.0) score *= 0.15;
        else if (d < 1.8) score *= 0.5;
      }
      if (score > bestScore) {
        bestScore = score;
        bestK = k;
      }
    });
    const pick = pool.splice(bestK, 1)[0]!;
    chosen.push(pick);
    for (const id of pick.visible) covered.add(id);
  }
  return chosen;
}

/** `rejected_dedup_too_similar`: within 1.0 m and 20 degrees of an accepted view. */
export function tooSimilar(accepted: readonly CameraCandidate[], c: CameraCandidate): boolean {
  return accepted.some(
    (a) => Math.hypot(a.position[0] - c.position[0], a.position[1] - c.position[1]) < P.dedupPositionM && angleGap(a.yaw, c.yaw) < P.dedupYawDeg * DEG,
  );
}

/** What a rendered view shows: its room and the ids of the objects it shows (targets.ts shownObjects). */
export interface ViewContent {
  room: string;
  objectIds: readonly number[];
}

/**
 * Least Jaccard overlap of shown objects at which two views of one room count as the same
 * content. Ours (the paper de-duplicates by pose alone): views 1.5 m apart with a 30 degree turn
 * can still frame the same furniture, and then add questions without adding a scene.
 */
export const DEDUP_CONTENT_JACCARD = 0.6;

/** |A ∩ B| / |A ∪ B| of two id lists (as sets); 0 when both are empty. */
export function jaccard(a: readonly number[], b: readonly number[]): number {
  const setA = new Set(a), setB = new Set(b);
  let shared = 0;
  for (const id of setA) if (setB.has(id)) shared++;
  const union = setA.size + setB.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** `dedup_same_content`: an accepted view of the same room shows mostly the same objects (Jaccard >= DEDUP_CONTENT_JACCARD). */
export function sameContent(accepted: readonly ViewContent[], c: ViewContent): boolean {
  return accepted.some((a) => a.room === c.room && jaccard(a.objectIds, c.objectIds) >= DEDUP_CONTENT_JACCARD);
}

export function pinholeFor(c: CameraCandidate, imageSide: number): PinholeCamera {
  return { position: [c.position[0], c.position[1], P.cameraHeightM], yaw: c.yaw, pitch: P.pitchDeg * DEG, vfovDeg: P.vfovDeg, width: imageSide, height: imageSide };
}
