/**
 * The numbered markers of the release's overlays (build_task_outputs.py `draw_overlay`,
 * TASK_COLORS): a filled circle of radius 10 px with a 2 px black outline; the display id in
 * DejaVu Sans Bold 18 px, white with a 1 px black shadow, tied to it by a black-and-white leader
 * line. The release always puts the number up and to the right of the marker; ours goes where
 * label-layout.ts found it a free place (up-right whenever that is free), so every number can be
 * read. Fill colours: gold for a1/b1 (drawn without a task colour in the release), blue for a2,
 * yellow for b2, grey for c. Sizes are those of a 1024 px
 * image and scale with the image, but never below 6 px (radius) and 11 px (labels), so that
 * numbers stay legible on small images.
 */
import { createCanvas } from "@napi-rs/canvas";
import { hasFont } from "../../../media/draw.js";
import { dropAlpha, encodePng } from "../../../media/png.js";
import type { TaskCode } from "../tasks.js";
import { leaderOf, textBox, type Point } from "./label-layout.js";
import { EGOPATH_PARAMS as P, scalePx } from "./params.js";

export const MARKER_FILL: Record<TaskCode, string> = {
  a1: "rgb(255,215,0)",
  b1: "rgb(255,215,0)",
  a2: "rgb(80,140,255)",
  b2: "rgb(255,220,80)",
  c: "rgb(180,180,180)",
};

const MIN_RADIUS_PX = 6;
const MIN_FONT_PX = 11;

export interface MarkerStyle {
  radius: number;
  outline: number;
  font: number;
  shadow: number;
}

/** The marker sizes of a picture `width` px wide: what the drawing below uses, and what the audit's label geometry assumes. */
export function markerStyle(width: number): MarkerStyle {
  return {
    radius: Math.max(MIN_RADIUS_PX, scalePx(P.markerRadiusPx, width)),
    outline: Math.max(1, scalePx(P.markerOutlinePx, width)),
    font: Math.max(MIN_FONT_PX, scalePx(P.labelFontPx, width)),
    shadow: Math.max(1, scalePx(1, width)),
  };
}

/**
 * A spacing of the release's 1024 px overlay at this picture width, scaled as the markers are:
 * on small pictures markers keep a minimum size, so spacings grow with them and circles do not
 * pile up (at 1024 px and above it is the release's spacing times the picture's scale).
 */
export function markerSpacing(releasePx: number, width: number): number {
  return (releasePx * markerStyle(width).radius) / P.markerRadiusPx;
}

export interface Marker {
  displayId: number;
  x: number;
  y: number;
  /** Where the number's baseline starts (label_xy of the visible-waypoints record). */
  label: Point;
}

/** The RGB view with the task's markers, as PNG bytes (same input, same bytes). */
export async function drawMarkers(rgb: Uint8Array, width: number, height: number, markers: readonly Marker[], task: TaskCode): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(width, height);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    image.data[j] = rgb[i]!;
    image.data[j + 1] = rgb[i + 1]!;
    image.data[j + 2] = rgb[i + 2]!;
    image.data[j + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
  const style = markerStyle(width);
  const { radius: r, outline, font, shadow } = style;
  const withText = hasFont();
  for (const m of markers) {
    const label = String(m.displayId);
    const leader = leaderOf(m, textBox(m.label, label.length, style), style);
    ctx.lineCap = "round";
    ctx.strokeStyle = "rgb(0,0,0)";
    ctx.lineWidth = Math.max(1, outline * 1.5);
    ctx.beginPath();
    ctx.moveTo(leader.from.x, leader.from.y);
    ctx.lineTo(leader.to.x, leader.to.y);
    ctx.stroke();
    ctx.strokeStyle = "rgb(255,255,255)";
    ctx.lineWidth = Math.max(0.5, outline * 0.5);
    ctx.stroke();

    ctx.beginPath();
    ctx.arc(m.x, m.y, r, 0, Math.PI * 2);
    ctx.fillStyle = MARKER_FILL[task];
    ctx.fill();
    ctx.lineWidth = outline;
    ctx.strokeStyle = "rgb(0,0,0)";
    ctx.stroke();

    if (!withText) continue;
    ctx.font = `bold ${font.toFixed(1)}px "DejaVu Sans"`;
    ctx.textBaseline = "alphabetic";
    ctx.fillStyle = "rgb(0,0,0)";
    ctx.fillText(label, m.label.x + shadow, m.label.y + shadow);
    ctx.fillStyle = "rgb(255,255,255)";
    ctx.fillText(label, m.label.x, m.label.y);
  }
  const out = ctx.getImageData(0, 0, width, height);
  return encodePng(dropAlpha(out.data), width, height, 3);
}
