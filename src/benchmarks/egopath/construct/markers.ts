/**
 * The numbered markers of the release's overlays (build_task_outputs.py `draw_overlay`,
 * TASK_COLORS): a filled circle of radius 10 px with a 2 px black outline; the display id in
 * DejaVu Sans Bold 18 px, white with a 1 px black shadow, up and to the right of the marker, tied
 * to it by a black-and-white leader line. Fill colours: gold for a1/b1 (drawn without a task
 * colour in the release), blue for a2, yellow for b2, grey for c. Sizes are those of a 1024 px
 * image and scale with the image, but never below 6 px (radius) and 11 px (labels), so that
 * numbers stay legible on small images.
 */
import { createCanvas } from "@napi-rs/canvas";
import { hasFont } from "../../../media/draw.js";
import { dropAlpha, encodePng } from "../../../media/png.js";
import type { TaskCode } from "../tasks.js";
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

export interface Marker {
  displayId: number;
  x: number;
  y: number;
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
  const { radius: r, outline, font } = markerStyle(width);
  const withText = hasFont();
  for (const m of markers) {
    // Leader line from the marker's rim to the label's corner.
    const lx = m.x + r + outline, ly = m.y - r - outline;
    ctx.lineCap = "round";
    ctx.strokeStyle = "rgb(0,0,0)";
    ctx.lineWidth = Math.max(1, outline * 1.5);
    ctx.beginPath();
    ctx.moveTo(m.x + r * 0.7, m.y - r * 0.7);
    ctx.lineTo(lx, ly);
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
    const label = String(m.displayId);
    const shadow = Math.max(1, scalePx(1, width));
    ctx.fillStyle = "rgb(0,0,0)";
    ctx.fillText(label, lx + shadow, ly + shadow);
    ctx.fillStyle = "rgb(255,255,255)";
    ctx.fillText(label, lx, ly);
  }
  const out = ctx.getImageData(0, 0, width, height);
  return encodePng(dropAlpha(out.data), width, height, 3);
}
