/**
 * Targets of a view (render_scenes.py `verify_object_visibility`,
 * `build_target_candidates_from_visible_objects`): visible objects at least 2 m away whose
 * projected box is at least 900 px^2 with a short side of 18 px, with enough of their surface in
 * view (0.70 for large objects, 0.15 otherwise), ranked as the script ranks them.
 */
import { cameraBasis, projectPoint, type PinholeCamera } from "../../../world/camera.js";
import { dominantPixelColors } from "../../../world/house/appearance.js";
import type { ColorInfo, SceneObject } from "../../../world/types.js";
import { objectPixelStats } from "../../../world/visibility.js";
import { EGOPATH_PARAMS as P, scalePx } from "./params.js";
import { objectCenter } from "./sightlines.js";
import type { ViewBuffers, ViewTarget } from "./types.js";

/** Least visible pixels (at 1024 px) for an object to count as shown, e.g. in a cue's universe. */
export const MIN_SHOWN_PIXELS = 200;

/** Box of the projected corners of the object's world box, clipped to the image; null when none projects. */
export function projectedBox(camera: PinholeCamera, o: SceneObject): [number, number, number, number] | null {
  const basis = cameraBasis(camera);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < 8; k++) {
    const p: [number, number, number] = [k & 1 ? o.bbox.max[0] : o.bbox.min[0], k & 2 ? o.bbox.max[1] : o.bbox.min[1], k & 4 ? o.bbox.max[2] : o.bbox.min[2]];
    const q = projectPoint(camera, p, basis);
    if (!q || q.depth < 0.05) continue;
    x0 = Math.min(x0, q.x); y0 = Math.min(y0, q.y); x1 = Math.max(x1, q.x); y1 = Math.max(y1, q.y);
  }
  if (x0 === Infinity) return null;
  const box: [number, number, number, number] = [Math.max(0, x0), Math.max(0, y0), Math.min(camera.width, x1), Math.min(camera.height, y1)];
  return box[2] > box[0] && box[3] > box[1] ? box : null;
}

export function isLarge(o: SceneObject): boolean {
  const side = Math.max(o.bbox.max[0] - o.bbox.min[0], o.bbox.max[1] - o.bbox.min[1], o.bbox.max[2] - o.bbox.min[2]);
  return P.largeCategories.includes(o.category) || side >= P.largeSizeM;
}

/** The centre is in the image and nothing stands well in front of it (the script's ray test). */
function centreVerified(camera: PinholeCamera, b: ViewBuffers, o: SceneObject): boolean {
  const c = objectCenter(o);
  const q = projectPoint(camera, c);
  if (!q || q.depth < 0.05 || q.x < 0 || q.y < 0 || q.x >= camera.width || q.y >= camera.height) return false;
  const d = b.depth[Math.floor(q.y) * b.width + Math.floor(q.x)]!;
  const halfDiagonal = Math.hypot(o.bbox.max[0] - o.bbox.min[0], o.bbox.max[1] - o.bbox.min[1], o.bbox.max[2] - o.bbox.min[2]) / 2;
  return d === 0 || d >= q.depth - halfDiagonal;
}

export interface ShownObject {
  object: SceneObject;
  /** Its colour as the view shows it: the dominant colour of its albedo pixels (else of its lit pixels). */
  color: ColorInfo;
  pixels: number;
  /** Pixel box of the visible pixels, exclusive ends. */
  pixelBox: [number, number, number, number];
  screenX: number;
  distanceM: number;
}

/** Objects the view shows (at least MIN_SHOWN_PIXELS at 1024 px), not set into walls, not rugs. */
export function shownObjects(camera: PinholeCamera, b: ViewBuffers, objectsById: ReadonlyMap<number, SceneObject>): ShownObject[] {
  const minPixels = MIN_SHOWN_PIXELS * (scalePx(1, b.width) ** 2);
  const kept: Array<{ object: SceneObject; pixels: number; bbox: [number, number, number, number] }> = [];
  for (const [id, s] of objectPixelStats(b.instance, b.width, b.height)) {
    const o = objectsById.get(id);
    if (!o || o.inWall || o.category === "rug" || s.pixels < minPixels) continue;
    kept.push({ object: o, pixels: s.pixels, bbox: s.bbox });
  }
  const colours = dominantPixelColors(b.albedo ?? b.rgb, b.instance, new Set(kept.map((k) => k.object.id)));
  const out: ShownObject[] = [];
  for (const { object: o, pixels, bbox: s } of kept) {
    const c = objectCenter(o);
    out.push({
      object: o,
      color: colours.get(o.id)!,
      pixels,
      pixelBox: [s[0], s[1], s[2], s[3]],
      screenX: (s[0] + s[2]) / 2,
      distanceM: Math.hypot(c[0] - camera.position[0], c[1] - camera.position[1]),
    });
  }
  return out.sort((a, b) => a.object.id - b.object.id);
}

/**
 * Every shown object as a ViewTarget (for cue universes), visible fraction from the amodal pixel
 * counts. Its `object` carries the colour the view shows (ShownObject.color) in place of the
 * model's mean colour, so cues, ranking and rows all name the colour a person sees in the picture.
 */
export function viewTargets(camera: PinholeCamera, shown: readonly ShownObject[], amodal: ReadonlyMap<number, number>): ViewTarget[] {
  return shown.map((s) => {
    const full = amodal.get(s.object.id) ?? s.pixels;
    const visibleFraction = full > 0 ? Math.min(1, s.pixels / full) : 0;
    const box = projectedBox(camera, s.object) ?? s.pixelBox;
    return { object: { ...s.object, color: s.color }, distanceM: s.distanceM, visiblePixels: s.pixels, visibleFraction, box, screenX: s.screenX, large: isLarge(s.object), score: 0 };
  });
}

/** The targets worth routing to, best first (at most 30), by the script's filters and ranking. */
export function routingTargets(camera: PinholeCamera, b: ViewBuffers, all: readonly ViewTarget[]): ViewTarget[] {
  const minArea = scalePx(Math.sqrt(P.minTargetAreaPx), b.width) ** 2;
  const minSide = scalePx(P.minTargetShortSidePx, b.width);
  const kept: ViewTarget[] = [];
  for (const t of all) {
    if (t.distanceM < P.minTargetDistanceM || !centreVerified(camera, b, t.object)) continue;
    const w = t.box[2] - t.box[0], h = t.box[3] - t.box[1];
    if (w * h < minArea || Math.min(w, h) < minSide) continue;
    if (t.visibleFraction < (t.large ? P.largeVisibleFraction : P.minVisibleFraction)) continue;
    const same = all.filter((o) => o.object.id !== t.object.id && o.object.category === t.object.category);
    const sameColour = same.filter((o) => o.object.color.name === t.object.color.name).length;
    const score = 2 * t.visibleFraction + 0.35 * Math.min(Math.max(t.distanceM - 2, 0), 10) + 3 * Math.min(sameColour, 2) + 2 * Math.min(same.length - sameColour, 2);
    kept.push({ ...t, score });
  }
  return kept.sort((a, b) => b.score - a.score || a.distanceM - b.distanceM || a.object.id - b.object.id).slice(0, P.targetsForRouting);
}
