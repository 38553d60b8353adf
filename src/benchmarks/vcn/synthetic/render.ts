/**
 * A tiny ray-cast renderer for the synthetic houses: per image column, the ray meets the camera
 * room's wall (or passes a doorway into the next room and meets that room's wall); walls take
 * their room category's colour, objects are drawn as simple shapes in their category's colour.
 * Only the objects the annotation calls visible are drawn (tour.ts), so pictures and annotations
 * agree. Output: small PNGs (default 96x72) encoded with the project's fixed PNG settings.
 */
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas";
import { dropAlpha, encodePng } from "../../../media/png.js";
import { DOOR_WIDTH, doorsOf, otherRoom, roomById, type House, type P2, type Room } from "./house.js";
import { HALF_FOV, viewContent, type Pose, type SeenObject } from "./tour.js";

type Rgb = readonly [number, number, number];

export const WALL_COLORS: Record<string, Rgb> = {
  bedroom: [150, 180, 222],
  kitchen: [236, 212, 118],
  bathroom: [148, 216, 204],
  "living room": [226, 170, 128],
  office: [172, 192, 150],
  "dining room": [216, 150, 152],
};

/** Width and height in metres, colour, and shape of each object category. */
const OBJECTS: Record<string, { w: number; h: number; lift?: number; color: Rgb; shape: "box" | "round" | "chair" | "lamp" }> = {
  bed: { w: 1.8, h: 0.6, color: [96, 62, 144], shape: "box" },
  chair: { w: 0.5, h: 0.95, color: [204, 44, 44], shape: "chair" },
  lamp: { w: 0.4, h: 1.5, color: [250, 226, 70], shape: "lamp" },
  plant: { w: 0.6, h: 1.0, color: [40, 150, 60], shape: "round" },
  fridge: { w: 0.8, h: 1.8, color: [236, 238, 244], shape: "box" },
  table: { w: 1.2, h: 0.75, color: [142, 92, 50], shape: "box" },
  sink: { w: 0.6, h: 0.9, color: [150, 152, 166], shape: "box" },
  toilet: { w: 0.5, h: 0.8, color: [248, 248, 248], shape: "round" },
  sofa: { w: 2.0, h: 0.85, color: [60, 100, 172], shape: "box" },
  tv: { w: 1.1, h: 0.65, lift: 0.7, color: [28, 28, 32], shape: "box" },
  desk: { w: 1.4, h: 0.75, color: [108, 70, 40], shape: "box" },
};

const CAMERA_HEIGHT = 1.0;
const WALL_HEIGHT = 2.5;
const CEILING: Rgb = [236, 234, 228];
const FLOOR: Rgb = [128, 108, 88];

const css = (c: Rgb, k = 1) => `rgb(${c.map((v) => Math.max(0, Math.min(255, Math.round(v * k)))).join(",")})`;

interface Hit {
  room: Room;
  t: number;
  vertical: boolean;
}

/** Where a ray from p (inside `room`) leaves the room; through a doorway into the next room, up to `depth` times. */
function castRay(house: House, room: Room, p: P2, dir: P2, depth: number, travelled = 0): Hit[] {
  const tx = dir[0] > 1e-12 ? (room.x1 - p[0]) / dir[0] : dir[0] < -1e-12 ? (room.x0 - p[0]) / dir[0] : Infinity;
  const ty = dir[1] > 1e-12 ? (room.y1 - p[1]) / dir[1] : dir[1] < -1e-12 ? (room.y0 - p[1]) / dir[1] : Infinity;
  const vertical = tx < ty;
  const t = Math.min(tx, ty);
  const q: P2 = [p[0] + dir[0] * t, p[1] + dir[1] * t];
  const hit: Hit = { room, t: travelled + t, vertical };
  if (depth === 0) return [hit];
  for (const door of doorsOf(house, room.id)) {
    const onWall = vertical ? Math.abs(door.position[0] - q[0]) < 1e-6 : Math.abs(door.position[1] - q[1]) < 1e-6;
    const along = vertical ? Math.abs(q[1] - door.position[1]) : Math.abs(q[0] - door.position[0]);
    if (onWall && along < DOOR_WIDTH / 2) {
      const next = roomById(house, otherRoom(door, room.id));
      const nudge: P2 = [q[0] + dir[0] * 1e-6, q[1] + dir[1] * 1e-6];
      return [hit, ...castRay(house, next, nudge, dir, depth - 1, travelled + t)];
    }
  }
  return [hit];
}

function drawObject(ctx: SKRSContext2D, s: SeenObject, f: number, cx: number, horizon: number): void {
  const spec = OBJECTS[s.object.category] ?? { w: 0.6, h: 0.8, color: [90, 90, 90] as Rgb, shape: "box" as const };
  const z = s.distance * Math.cos(s.rel);
  if (z <= 0.05) return;
  const x = cx - Math.tan(s.rel) * f;
  const base = horizon + (f * CAMERA_HEIGHT) / z;
  const lift = ((spec.lift ?? 0) * f) / z;
  const w = Math.max(2, Math.round((spec.w * f) / z));
  const h = Math.max(2, Math.round((spec.h * f) / z));
  const left = Math.round(x - w / 2);
  const bottom = Math.round(base - lift);
  ctx.fillStyle = css(spec.color);
  ctx.strokeStyle = css(spec.color, 0.55);
  ctx.lineWidth = 1;
  switch (spec.shape) {
    case "box":
      ctx.fillRect(left, bottom - h, w, h);
      ctx.strokeRect(left + 0.5, bottom - h + 0.5, w - 1, h - 1);
      break;
    case "round":
      ctx.beginPath();
      ctx.arc(Math.round(x), bottom - h / 2, Math.max(1, Math.min(w, h) / 2), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      break;
    case "chair":
      ctx.fillRect(left, bottom - Math.round(h / 2), w, Math.max(1, Math.round(h / 8)));
      ctx.fillRect(left, bottom - h, Math.max(1, Math.round(w / 4)), h);
      ctx.fillRect(left + w - Math.max(1, Math.round(w / 4)), bottom - Math.round(h / 2), Math.max(1, Math.round(w / 4)), Math.round(h / 2));
      break;
    case "lamp":
      ctx.fillStyle = css([70, 70, 70]);
      ctx.fillRect(Math.round(x), bottom - h, 1, h);
      ctx.fillStyle = css(spec.color);
      ctx.fillRect(left, bottom - h, w, Math.max(2, Math.round(h / 4)));
      break;
  }
}

/** Render one view as a PNG. */
export async function renderView(house: House, pose: Pose, width = 96, height = 72): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  const cx = width / 2;
  const f = cx / Math.tan(HALF_FOV);
  const horizon = Math.round(height * 0.42);
  const view = viewContent(house, pose);
  ctx.fillStyle = css(CEILING);
  ctx.fillRect(0, 0, width, height);
  if (view.room) {
    for (let col = 0; col < width; col++) {
      const rel = Math.atan((cx - (col + 0.5)) / f);
      const angle = pose.heading + rel;
      const hits = castRay(house, view.room, pose.position, [Math.cos(angle), Math.sin(angle)], 1);
      // Farthest first: the doorway's far room, then the near wall with the opening cut out.
      for (let k = hits.length - 1; k >= 0; k--) {
        const hit = hits[k]!;
        const z = hit.t * Math.cos(rel);
        const floorY = Math.min(height, Math.round(horizon + (f * CAMERA_HEIGHT) / z));
        const topY = Math.max(0, Math.round(horizon - (f * (WALL_HEIGHT - CAMERA_HEIGHT)) / z));
        const shade = (1 + hit.room.tint) * (hit.vertical ? 0.9 : 1) * (k > 0 ? 0.85 : 1);
        if (k === hits.length - 1) {
          ctx.fillStyle = css(WALL_COLORS[hit.room.category] ?? [200, 200, 200], shade);
          ctx.fillRect(col, topY, 1, floorY - topY);
          ctx.fillStyle = css(FLOOR, k > 0 ? 0.8 : 1);
          ctx.fillRect(col, floorY, 1, height - floorY);
        } else {
          // The near wall above the doorway (2 m high opening) and the floor in front of it.
          const doorTop = Math.max(0, Math.round(horizon - (f * (2.0 - CAMERA_HEIGHT)) / z));
          ctx.fillStyle = css(WALL_COLORS[hit.room.category] ?? [200, 200, 200], shade);
          ctx.fillRect(col, topY, 1, doorTop - topY);
          ctx.fillStyle = css(FLOOR);
          ctx.fillRect(col, floorY, 1, height - floorY);
        }
      }
    }
    // Objects seen through doorways (clipped to the opening), then the room's own, far to near.
    for (const door of view.doors) {
      const a = Math.round(cx - Math.tan(door.rel + door.aperture) * f);
      const b = Math.round(cx - Math.tan(door.rel - door.aperture) * f);
      ctx.save();
      ctx.beginPath();
      ctx.rect(Math.max(0, a), 0, Math.min(width, b) - Math.max(0, a), height);
      ctx.clip();
      for (const s of [...door.objects].sort((p, q) => q.distance - p.distance)) drawObject(ctx, s, f, cx, horizon);
      ctx.restore();
    }
    for (const s of [...view.objects].sort((p, q) => q.distance - p.distance)) drawObject(ctx, s, f, cx, horizon);
  }
  return encodePng(dropAlpha(ctx.getImageData(0, 0, width, height).data), width, height, 3);
}
