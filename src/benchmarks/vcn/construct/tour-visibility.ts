/**
 * What one tour frame shows, computed by the engine from the frame's render (paper App. B.2 and B.3).
 *
 * - Camera room (App. B.2): `roomAt` of the camera's plan position; null only when the camera is
 *   outside every room polygon (inside a door's wall thickness), never guessed from other frames.
 * - Visible objects (App. B.3), every SceneObject except those set into walls (doors, windows):
 *   1. the minimum horizontal distance from the camera to the object's surface (its mesh's
 *      triangles projected onto the plan: the dense limit of the paper's point cloud) is <= 3 m;
 *   2. the object is drawn alone with the same camera; its depth buffer is the z-buffer of its own
 *      surface, and its drawn pixels are its in-frame front surface;
 *   3. a front-surface pixel is visible when that depth and the scene's depth differ by < 0.1 m;
 *      more than 60% of the front-surface pixels must be visible, and at least 2500 of them at
 *      384 x 384 (the paper's "50 x 50 visible pixels" read as a pixel count; scaled by area for
 *      other sizes). Objects whose front surface (amodal coverage) is below the pixel threshold
 *      cannot pass and are not drawn alone.
 * - Visible rooms: another room whose floor (instance STRUCTURE_ID_BASE.floor + room index) covers
 *   at least 1% of the frame's pixels, while the camera is not in it.
 */
import type { PinholeCamera } from "../../../world/camera.js";
import { renderDepth, renderInstanceCoverage, type RenderBuffers } from "../../../world/render/index.js";
import { roomAt } from "../../../world/space/index.js";
import { STRUCTURE_ID_BASE, type Scene, type SceneObject, type Vec2, type WorldMesh } from "../../../world/types.js";
import { pointSegmentDistanceSq } from "../../../geometry/polygon.js";
import { minVisiblePixelsFor, roundTo, TOUR_PARAMS as P } from "./tour-params.js";
import type { VisibleObject } from "./tour-types.js";

/** An object that can be annotated, with its mesh and the plan box of its vertices. */
export interface AnnotatedObject {
  object: SceneObject;
  mesh: WorldMesh;
  box: [x0: number, y0: number, x1: number, y1: number];
}

/** A scene prepared for per-frame annotation (built once per house). */
export interface TourSceneIndex {
  scene: Scene;
  objects: AnnotatedObject[];
}

/** Plan box of a mesh's vertices. */
function planBox(mesh: WorldMesh): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const part of mesh.parts) {
    const p = part.positions;
    for (let v = 0; v < p.length; v += 3) {
      if (p[v]! < x0) x0 = p[v]!;
      if (p[v]! > x1) x1 = p[v]!;
      if (p[v + 1]! < y0) y0 = p[v + 1]!;
      if (p[v + 1]! > y1) y1 = p[v + 1]!;
    }
  }
  return [x0, y0, x1, y1];
}

/** The objects B.3 annotates (all but those set into walls), in scene order, with their meshes. */
export function indexTourScene(scene: Scene, meshes: readonly WorldMesh[]): TourSceneIndex {
  const byId = new Map(meshes.map((m) => [m.instanceId, m]));
  const objects: AnnotatedObject[] = [];
  for (const object of scene.objects) {
    const mesh = byId.get(object.id);
    if (object.inWall || mesh === undefined || mesh.parts.every((p) => p.indices.length === 0)) continue;
    objects.push({ object, mesh, box: planBox(mesh) });
  }
  return { scene, objects };
}

function boxDistance(box: readonly number[], x: number, y: number): number {
  const dx = x < box[0]! ? box[0]! - x : x > box[2]! ? x - box[2]! : 0;
  const dy = y < box[1]! ? box[1]! - y : y > box[3]! ? y - box[3]! : 0;
  return Math.hypot(dx, dy);
}

/**
 * Minimum horizontal distance, metres, from plan point p to the mesh's surface: 0 when p lies
 * under or over a triangle's plan projection, else the distance to the nearest projected edge.
 */
export function horizontalSurfaceDistance(mesh: WorldMesh, p: Vec2): number {
  const [px, py] = p;
  let best = Infinity;
  for (const part of mesh.parts) {
    const pos = part.positions, idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t]! * 3, b = idx[t + 1]! * 3, c = idx[t + 2]! * 3;
      const ax = pos[a]!, ay = pos[a + 1]!, bx = pos[b]!, by = pos[b + 1]!, cx = pos[c]!, cy = pos[c + 1]!;
      const d1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
      const d2 = (cx - bx) * (py - by) - (cy - by) * (px - bx);
      const d3 = (ax - cx) * (py - cy) - (ay - cy) * (px - cx);
      const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      if (area !== 0 && ((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0))) return 0;
      const e = Math.min(pointSegmentDistanceSq(px, py, ax, ay, bx, by), pointSegmentDistanceSq(px, py, bx, by, cx, cy), pointSegmentDistanceSq(px, py, cx, cy, ax, ay));
      if (e < best) best = e;
    }
  }
  return Math.sqrt(best);
}

/** The depth map of one mesh drawn alone (its own z-buffer), with exactly the scene render's centre-sample coverage. */
export function objectDepthMap(mesh: WorldMesh, camera: PinholeCamera, out?: Float32Array): Float32Array {
  return renderDepth([mesh], camera, {}, out);
}

// visibleObjects' object depth map, reused from frame to frame (a tour draws thousands of them).
let objectDepthScratch = new Float32Array(0);

/** B.3's depth test of one object: its front-surface pixels and those within the tolerance of the scene depth. */
export function depthConsistency(objectDepth: Float32Array, sceneDepth: Float32Array, tolerance: number = P.depthToleranceM): { front: number; visible: number } {
  let front = 0, visible = 0;
  for (let p = 0; p < objectDepth.length; p++) {
    const d = objectDepth[p]!;
    if (d === 0) continue;
    front++;
    const s = sceneDepth[p]!;
    if (s > 0 && Math.abs(d - s) < tolerance) visible++;
  }
  return { front, visible };
}

/** Objects visible in the frame by App. B.3 (module comment), ordered by instance id. */
export function visibleObjects(index: TourSceneIndex, camera: PinholeCamera, buffers: Pick<RenderBuffers, "width" | "height" | "depth">): VisibleObject[] {
  const [cx, cy] = camera.position;
  // Objects whose plan box is in reach; an object's coverage does not depend on the others drawn,
  // so the exact surface distance is computed only for those with enough coverage.
  const near = index.objects.filter((item) => boxDistance(item.box, cx, cy) <= P.objectMaxDistanceM);
  if (near.length === 0) return [];
  const minPixels = minVisiblePixelsFor(buffers.width, buffers.height);
  const coverage = renderInstanceCoverage(near.map((item) => item.mesh), camera);
  const out: VisibleObject[] = [];
  for (const item of near) {
    if ((coverage.get(item.mesh.instanceId) ?? 0) < minPixels) continue;
    const distance = horizontalSurfaceDistance(item.mesh, [cx, cy]);
    if (distance > P.objectMaxDistanceM) continue;
    if (objectDepthScratch.length !== buffers.depth.length) objectDepthScratch = new Float32Array(buffers.depth.length);
    const { front, visible } = depthConsistency(objectDepthMap(item.mesh, camera, objectDepthScratch), buffers.depth);
    if (front === 0 || !(visible / front > P.minUnoccludedShare) || visible < minPixels) continue;
    out.push({ instance: item.object.id, name: item.object.name, category: item.object.category, distance: roundTo(distance, 4), unoccluded: roundTo(visible / front, 4), pixels: visible });
  }
  return out.sort((a, b) => a.instance - b.instance);
}

/** Other rooms whose floor covers at least `minShare` of the frame (scene order). */
export function visibleRooms(scene: Pick<Scene, "rooms">, instance: Uint32Array, cameraRoom: string | null, minShare: number = P.visibleRoomMinShare): string[] {
  const counts = new Float64Array(scene.rooms.length);
  const base = STRUCTURE_ID_BASE.floor;
  for (let p = 0; p < instance.length; p++) {
    const k = instance[p]! - base;
    if (k >= 0 && k < counts.length) counts[k]!++;
  }
  return scene.rooms.filter((r, k) => r.id !== cameraRoom && counts[k]! >= minShare * instance.length).map((r) => r.id);
}

export interface FrameAnnotation {
  room: string | null;
  objects: VisibleObject[];
  visibleRooms: string[];
}

/** The annotation of one rendered frame: camera room, B.3 visible objects, rooms seen from outside. */
export function annotateFrame(index: TourSceneIndex, camera: PinholeCamera, buffers: Pick<RenderBuffers, "width" | "height" | "depth" | "instance">): FrameAnnotation {
  const room = roomAt(index.scene, [camera.position[0], camera.position[1]]);
  return { room, objects: visibleObjects(index, camera, buffers), visibleRooms: visibleRooms(index.scene, buffers.instance, room) };
}
