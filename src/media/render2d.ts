/**
 * PathEval 2D picture: the top-down map the release draws with matplotlib
 * (path-generation/generate_image.py, generate_2D_image), redrawn with @napi-rs/canvas.
 *
 * Look (sizes are matplotlib's, in points at 100 dpi, scaled with `size / 480`):
 * - white background; obstacles filled black with a 1 pt black edge (matplotlib `fill`);
 * - black border square at ±40 (1.5 pt line);
 * - the path as a red (#ff0000) 2 pt line (2.78 px at 480x480), round joins, square caps;
 * - start and goal as filled discs, red and blue (#0000ff): scatter `s=100` is a 10 pt diameter
 *   plus a 1.5 pt edge in the face colour, so a radius of 5.75 pt (8.0 px at 480x480);
 * - drawing order as matplotlib's z-order gives it: markers, then obstacles, then path, then border
 *   (so an obstacle covers a marker and the path is drawn over both).
 * - equal aspect, no axes, the square filling the image.
 *
 * Margin: the release crops exactly at ±40 (bbox tight, pad 0), so only the inner half of its
 * border stroke shows. We keep a margin of `marginPx` (default 1 px) on every side: world ±40
 * maps to pixels 1 and size-1, so the whole border stroke lies inside the picture and nothing else
 * changes visibly (scale 5.975 px per world unit at 480 instead of 6).
 *
 * Deterministic: canvas anti-aliasing is Skia's (the same bytes for the same binary), pixels are
 * read back and encoded with the fixed PNG settings of png.ts.
 */
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas";
import { dropAlpha, encodePng } from "./png.js";
import { checkScene, PATHEVAL_GOAL, PATHEVAL_START, WORLD_MAX, WORLD_MIN, type PathEvalScene, type Point2 } from "./scene2d.js";

export interface Render2DOptions extends PathEvalScene {
  /** Width and height of the square picture in pixels (default 480, the release's size). */
  size?: number;
  /** Blank pixels between the image edge and world ±40 (default 1). */
  marginPx?: number;
}

/** matplotlib draws at 100 dpi: one point is 100/72 px at 480x480. */
const PX_PER_PT_AT_480 = 100 / 72;

export const STYLE_2D = Object.freeze({
  background: "#ffffff",
  obstacle: "#000000",
  obstacleEdgePt: 1.0,
  border: "#000000",
  borderPt: 1.5,
  path: "#ff0000",
  pathPt: 2.0,
  start: "#ff0000",
  goal: "#0000ff",
  markerRadiusPt: 5.75,
});

/** World -> pixel mapping used by renderMap2D (continuous pixel coordinates, y down). */
export function worldToPixel2D(p: Point2, size = 480, marginPx = 1): [number, number] {
  const scale = (size - 2 * marginPx) / (WORLD_MAX - WORLD_MIN);
  return [marginPx + (p[0] - WORLD_MIN) * scale, marginPx + (WORLD_MAX - p[1]) * scale];
}

export async function renderMap2D(options: Render2DOptions): Promise<Buffer> {
  checkScene(options);
  const size = options.size ?? 480;
  const margin = options.marginPx ?? 1;
  if (!Number.isInteger(size) || size < 8) throw new Error(`renderMap2D: size must be an integer >= 8, got ${size}`);
  if (!(margin >= 0 && margin < size / 4)) throw new Error(`renderMap2D: marginPx out of range: ${margin}`);
  const start = options.start ?? PATHEVAL_START;
  const goal = options.goal ?? PATHEVAL_GOAL;
  const pt = PX_PER_PT_AT_480 * (size / 480);
  const toPx = (p: Point2) => worldToPixel2D(p, size, margin);

  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = STYLE_2D.background;
  ctx.fillRect(0, 0, size, size);

  // z-order 1 (in insertion order): markers, then filled obstacles.
  disc(ctx, toPx(start), STYLE_2D.markerRadiusPt * pt, STYLE_2D.start);
  disc(ctx, toPx(goal), STYLE_2D.markerRadiusPt * pt, STYLE_2D.goal);

  ctx.fillStyle = STYLE_2D.obstacle;
  ctx.strokeStyle = STYLE_2D.obstacle;
  ctx.lineWidth = STYLE_2D.obstacleEdgePt * pt;
  ctx.lineJoin = "miter";
  for (const poly of options.polygons) {
    if (poly.length === 0) continue;
    ctx.beginPath();
    poly.forEach((p, i) => {
      const [x, y] = toPx(p);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }

  // z-order 2: the path, then the border.
  if (options.path.length >= 2) {
    ctx.strokeStyle = STYLE_2D.path;
    ctx.lineWidth = STYLE_2D.pathPt * pt;
    ctx.lineJoin = "round";
    ctx.lineCap = "square";
    ctx.beginPath();
    options.path.forEach((p, i) => {
      const [x, y] = toPx(p);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.stroke();
  }

  const [x0, y0] = toPx([WORLD_MIN, WORLD_MAX]);
  const [x1, y1] = toPx([WORLD_MAX, WORLD_MIN]);
  ctx.strokeStyle = STYLE_2D.border;
  ctx.lineWidth = STYLE_2D.borderPt * pt;
  ctx.lineJoin = "round";
  ctx.beginPath();
  ctx.rect(x0, y0, x1 - x0, y1 - y0);
  ctx.stroke();

  return encodePng(dropAlpha(ctx.getImageData(0, 0, size, size).data), size, size, 3);
}

function disc(ctx: SKRSContext2D, centre: [number, number], radius: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc(centre[0], centre[1], radius, 0, 2 * Math.PI);
  ctx.closePath();
  ctx.fill();
}
