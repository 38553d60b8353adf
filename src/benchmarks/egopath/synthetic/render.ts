/** Draws one egocentric view: room, furniture boxes (far to near) and numbered waypoint markers. */
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas";
import sharp from "sharp";
import { pointRectDistance } from "../../../geometry/rect.js";
import { projectPolygon, type Camera, type Vec3 } from "./camera.js";
import { digitRects } from "./digits.js";
import { COLORS, WALL_HEIGHT_M, type Obstacle, type Scene } from "./scene.js";

export interface Marker {
  displayId: number;
  u: number;
  v: number;
}

type Rgb = readonly [number, number, number];

const CEILING: Rgb = [232, 232, 228];
const FLOOR: Rgb = [186, 160, 124];
const FLOOR_LINE: Rgb = [164, 138, 104];
const WALLS: readonly Rgb[] = [
  [214, 210, 196],
  [204, 200, 186],
  [222, 218, 204],
  [196, 192, 178],
];
export const MARKER_RADIUS_PX = 10;

const css = (c: Rgb, k = 1): string =>
  `rgb(${c.map((v) => Math.max(0, Math.min(255, Math.round(v * k)))).join(",")})`;

function fillPolygon(ctx: SKRSContext2D, cam: Camera, poly: readonly Vec3[], fill: string, stroke?: string): void {
  const px = projectPolygon(cam, poly);
  if (px.length === 0) return;
  ctx.beginPath();
  px.forEach(([u, v], i) => (i === 0 ? ctx.moveTo(u, v) : ctx.lineTo(u, v)));
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  if (stroke) {
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
}

/** The visible faces of a box, each with a shading factor (top lightest). */
function boxFaces(o: Obstacle, cam: Camera): Array<{ poly: Vec3[]; shade: number }> {
  const { minX: x0, minY: y0, maxX: x1, maxY: y1 } = o.rect;
  const h = o.height;
  const [cx, cy, cz] = cam.pos;
  const faces: Array<{ poly: Vec3[]; shade: number }> = [];
  const side = (a: [number, number], b: [number, number], shade: number): void => {
    faces.push({ poly: [[a[0], a[1], 0], [b[0], b[1], 0], [b[0], b[1], h], [a[0], a[1], h]], shade });
  };
  if (cx < x0) side([x0, y0], [x0, y1], 0.82);
  if (cx > x1) side([x1, y0], [x1, y1], 0.82);
  if (cy < y0) side([x0, y0], [x1, y0], 0.68);
  if (cy > y1) side([x0, y1], [x1, y1], 0.68);
  if (cz > h) faces.push({ poly: [[x0, y0, h], [x1, y0, h], [x1, y1, h], [x0, y1, h]], shade: 1.12 });
  return faces;
}

function drawMarker(ctx: SKRSContext2D, m: Marker): void {
  ctx.beginPath();
  ctx.arc(m.u, m.v, MARKER_RADIUS_PX, 0, Math.PI * 2);
  ctx.fillStyle = "rgb(255,255,255)";
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = "rgb(0,0,0)";
  ctx.stroke();
  ctx.fillStyle = "rgb(0,0,0)";
  const label = String(m.displayId);
  for (const r of digitRects(label, m.u, m.v, 2)) ctx.fillRect(r.x, r.y, r.w, r.h);
}

/**
 * Renders the view as PNG bytes, re-encoded as a small palette PNG (flat-shaded pictures lose
 * nothing visible). Deterministic for identical input.
 */
export async function renderView(scene: Scene, cam: Camera, markers: readonly Marker[]): Promise<Buffer> {
  const canvas = createCanvas(cam.width, cam.height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = css(CEILING);
  ctx.fillRect(0, 0, cam.width, cam.height);

  const W = scene.width;
  const D = scene.depth;
  const H = WALL_HEIGHT_M;
  const walls: Vec3[][] = [
    [[0, 0, 0], [W, 0, 0], [W, 0, H], [0, 0, H]],
    [[W, 0, 0], [W, D, 0], [W, D, H], [W, 0, H]],
    [[W, D, 0], [0, D, 0], [0, D, H], [W, D, H]],
    [[0, D, 0], [0, 0, 0], [0, 0, H], [0, D, H]],
  ];
  walls.forEach((w, i) => fillPolygon(ctx, cam, w, css(WALLS[i]!)));
  fillPolygon(ctx, cam, [[0, 0, 0], [W, 0, 0], [W, D, 0], [0, D, 0]], css(FLOOR));

  // Floor tiles every metre give a sense of depth.
  const thin = 0.01;
  for (let x = 1; x < W; x++) fillPolygon(ctx, cam, [[x - thin, 0, 0], [x + thin, 0, 0], [x + thin, D, 0], [x - thin, D, 0]], css(FLOOR_LINE));
  for (let y = 1; y < D; y++) fillPolygon(ctx, cam, [[0, y - thin, 0], [W, y - thin, 0], [W, y + thin, 0], [0, y + thin, 0]], css(FLOOR_LINE));

  // Painter's order: the farthest box first.
  const eye = { x: cam.pos[0], y: cam.pos[1] };
  const boxes = [...scene.obstacles].sort(
    (a, b) => pointRectDistance(eye, b.rect) - pointRectDistance(eye, a.rect) || a.id - b.id,
  );
  for (const o of boxes) {
    for (const f of boxFaces(o, cam)) fillPolygon(ctx, cam, f.poly, css(COLORS[o.color], f.shade), css(COLORS[o.color], 0.45));
  }

  for (const m of markers) drawMarker(ctx, m);
  return sharp(canvas.toBuffer("image/png"))
    .png({ palette: true, colours: 64, dither: 0, effort: 10, compressionLevel: 9 })
    .toBuffer();
}
