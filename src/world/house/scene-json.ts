/**
 * The scene.json form of a Scene: plain JSON with a fixed key order (objects are built key by
 * key in the order below, so JSON.stringify gives the same bytes for the same scene) and every
 * length rounded to 1e-4 m (yaw: radians to 1e-4, plus whole degrees for reading).
 */
import type { Aabb3, Scene, Vec2, Vec3 } from "../types.js";

/** Rounds to 1e-4, without negative zero. */
export function round4(v: number): number {
  const r = Math.round(v * 1e4) / 1e4;
  return r === 0 ? 0 : r;
}

const vec = (v: Vec2 | Vec3) => v.map(round4);
const box = (b: Aabb3) => ({ min: vec(b.min), max: vec(b.max) });

function polygonArea(p: readonly Vec2[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const [x0, y0] = p[i]!;
    const [x1, y1] = p[(i + 1) % p.length]!;
    s += x0 * y1 - x1 * y0;
  }
  return Math.abs(s) / 2;
}

/** scene.json content (see the file comment). */
export function sceneToJson(scene: Scene): object {
  return {
    id: scene.id,
    seed: scene.seed,
    units: "metres, z up, floor at z = 0, yaw counter-clockwise from +x; a model's front faces -y at yaw 0",
    ceilingHeight: round4(scene.ceilingHeight),
    bounds: { min: vec(scene.bounds.min), max: vec(scene.bounds.max) },
    rooms: scene.rooms.map((r) => ({
      id: r.id,
      type: r.type,
      polygon: r.polygon.map(vec),
      area: round4(polygonArea(r.polygon)),
      floorMaterial: r.floorMaterial,
      wallMaterial: r.wallMaterial,
    })),
    walls: scene.walls.map((w) => ({
      id: w.id,
      a: vec(w.a),
      b: vec(w.b),
      thickness: round4(w.thickness),
      height: round4(w.height),
      rooms: [w.rooms[0], w.rooms[1]],
      openings: w.openings.map((o) => ({
        kind: o.kind,
        offset: round4(o.offset),
        width: round4(o.width),
        bottom: round4(o.bottom),
        top: round4(o.top),
        objectId: o.objectId ?? null,
      })),
    })),
    doors: scene.doors.map((d) => ({
      id: d.id,
      wallId: d.wallId,
      rooms: [d.rooms[0], d.rooms[1]],
      center: vec(d.center),
      width: round4(d.width),
    })),
    objects: scene.objects.map((o) => ({
      id: o.id,
      name: o.name,
      category: o.category,
      color: o.color.name,
      rgb: [o.color.rgb[0], o.color.rgb[1], o.color.rgb[2]],
      catalogId: o.catalogId,
      modelName: o.modelName ?? null,
      room: o.room,
      position: vec(o.position),
      yaw: round4(o.yaw),
      yawDeg: Math.round((o.yaw * 180) / Math.PI) % 360,
      size: { width: round4(o.size.width), depth: round4(o.size.depth), height: round4(o.size.height) },
      bbox: box(o.bbox),
      supportId: o.supportId,
      inWall: o.inWall,
      materials: [...o.materials],
    })),
    lights: scene.lights.map((l) => ({ position: vec(l.position), color: l.color.map(round4), room: l.room })),
  };
}
