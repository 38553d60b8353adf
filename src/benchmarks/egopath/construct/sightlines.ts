/**
 * Straight sight lines through a scene's boxes, for choosing camera headings before anything is
 * rendered (render_scenes.py casts such rays at camera height): objects are their world boxes,
 * walls are their solid boxes with the openings left open.
 */
import type { Aabb3, Scene, SceneObject, Vec3, Wall } from "../../../world/types.js";

/** Entry parameter t in [0, 1] of segment a->b into the box, or null when it misses. */
export function segmentBoxEntry(a: Vec3, b: Vec3, box: Aabb3): number | null {
  let t0 = 0, t1 = 1;
  for (let k = 0; k < 3; k++) {
    const d = b[k]! - a[k]!;
    if (Math.abs(d) < 1e-12) {
      if (a[k]! < box.min[k]! || a[k]! > box.max[k]!) return null;
      continue;
    }
    let u0 = (box.min[k]! - a[k]!) / d, u1 = (box.max[k]! - a[k]!) / d;
    if (u0 > u1) [u0, u1] = [u1, u0];
    t0 = Math.max(t0, u0);
    t1 = Math.min(t1, u1);
    if (t0 > t1) return null;
  }
  return t0;
}

/**
 * Entry parameter of segment a->b into the wall's solid (its box along the centre line), or null
 * when it misses the wall or crosses it through an opening (tested where the segment is halfway
 * through the wall).
 */
export function segmentWallEntry(a: Vec3, b: Vec3, wall: Wall): number | null {
  const dx = wall.b[0] - wall.a[0], dy = wall.b[1] - wall.a[1];
  const len = Math.hypot(dx, dy);
  if (len === 0) return null;
  const ux = dx / len, uy = dy / len;
  // Wall frame: s along the wall from a, t across it, z up.
  const local = (p: Vec3): Vec3 => {
    const px = p[0] - wall.a[0], py = p[1] - wall.a[1];
    return [px * ux + py * uy, -px * uy + py * ux, p[2]];
  };
  const la = local(a), lb = local(b);
  const half = wall.thickness / 2;
  const tEnter = segmentBoxEntry(la, lb, { min: [0, -half, 0], max: [len, half, wall.height] });
  if (tEnter === null) return null;
  // Exit: entry of the reversed segment.
  const back = segmentBoxEntry(lb, la, { min: [0, -half, 0], max: [len, half, wall.height] });
  const tExit = back === null ? tEnter : 1 - back;
  const tm = (tEnter + tExit) / 2;
  const s = la[0] + (lb[0] - la[0]) * tm, z = la[2] + (lb[2] - la[2]) * tm;
  for (const o of wall.openings) {
    if (Math.abs(s - o.offset) <= o.width / 2 && z >= o.bottom && z <= o.top && o.kind === "door") return null;
  }
  return tEnter;
}

const SEE_THROUGH = new Set(["rug", "window", "door", "ceiling lamp", "picture", "curtain"]);

/**
 * Distance along a->b to the first wall or object box the segment meets, ignoring `ignore` and
 * see-through categories; Infinity when it meets nothing.
 */
export function firstHitDistance(scene: Scene, a: Vec3, b: Vec3, ignore?: number): number {
  const len = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  let best = Infinity;
  for (const wall of scene.walls) {
    const t = segmentWallEntry(a, b, wall);
    if (t !== null) best = Math.min(best, t * len);
  }
  for (const o of scene.objects) {
    if (o.id === ignore || SEE_THROUGH.has(o.category) || o.inWall) continue;
    const t = segmentBoxEntry(a, b, o.bbox);
    if (t !== null) best = Math.min(best, t * len);
  }
  return best;
}

export function objectCenter(o: SceneObject): Vec3 {
  return [(o.bbox.min[0] + o.bbox.max[0]) / 2, (o.bbox.min[1] + o.bbox.max[1]) / 2, (o.bbox.min[2] + o.bbox.max[2]) / 2];
}

export function objectMaxSide(o: SceneObject): number {
  return Math.max(o.bbox.max[0] - o.bbox.min[0], o.bbox.max[1] - o.bbox.min[1], o.bbox.max[2] - o.bbox.min[2]);
}

/**
 * render_scenes.py's sight test: the line from the eye to the object's centre is clear when
 * nothing is hit before the distance minus half the object's largest side; objects within
 * 0.3 m count as seen.
 */
export function objectInSight(scene: Scene, eye: Vec3, o: SceneObject): boolean {
  const c = objectCenter(o);
  const dist = Math.hypot(c[0] - eye[0], c[1] - eye[1], c[2] - eye[2]);
  if (dist < 0.3) return true;
  return firstHitDistance(scene, eye, c, o.id) >= dist - objectMaxSide(o) / 2;
}
