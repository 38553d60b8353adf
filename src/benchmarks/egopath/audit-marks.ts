/**
 * What the audit reads off an EgoPathBench overlay without reasoning: where the numbered markers
 * sit (isolation, crowding, height in the picture), the colour of the picture in a ring around
 * each marker, and whether each marker's number can be read (its label box covered by marks
 * drawn later, or cut by the picture's border).
 *
 * Geometry assumed (the overlay as construct/markers.ts draws it, after the release's
 * build_task_outputs.py `draw_overlay`): markers are drawn in the order of the visible-waypoints
 * list (display id order, nearest first), each as leader line, then filled circle, then label;
 * circle radius max(6, 10·W/1024) px with a max(1, 2·W/1024) px outline; the label in DejaVu Sans
 * Bold of max(11, 18·W/1024) px, its baseline-left corner at (x + r + outline, y − r − outline),
 * with a black shadow max(1, W/1024) px down and right. A label box is the digits' advance width
 * (0.6958 em each, measured) plus the shadow, by the digit height (0.73 em) plus the shadow.
 */
import { EGOPATH_PARAMS as P, OFFICIAL_IMAGE_SIDE, scalePx } from "./construct/params.js";
import { markerStyle, type MarkerStyle } from "./construct/markers.js";

/** DejaVu Sans Bold digits: advance 1425/2048 em; ink height of a digit 0.73 em (measured with the project's canvas). */
const DIGIT_ADVANCE_EM = 0.6958;
const DIGIT_HEIGHT_EM = 0.73;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PlacedMarker {
  id: number;
  x: number;
  y: number;
}

/** The box a marker's number occupies (text and shadow). */
export function labelBox(m: PlacedMarker, style: MarkerStyle): Box {
  const lx = m.x + style.radius + style.outline;
  const ly = m.y - style.radius - style.outline;
  const digits = String(m.id).length;
  return { x0: lx, y0: ly - DIGIT_HEIGHT_EM * style.font, x1: lx + DIGIT_ADVANCE_EM * style.font * digits + style.shadow, y1: ly + style.shadow };
}

/** Squared distance from a point to a segment. */
function segmentDistance2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  const qx = ax + t * dx - px;
  const qy = ay + t * dy - py;
  return qx * qx + qy * qy;
}

/** The marks one marker draws, as tests on a point. */
interface Marks {
  bounds: Box;
  covers(x: number, y: number): boolean;
}

function marksOf(m: PlacedMarker, style: MarkerStyle): Marks {
  const { radius: r, outline: o } = style;
  const circle = r + o / 2; // the outline stroke is centred on the circle
  const leaderHalf = Math.max(1, o * 1.5) / 2;
  const ax = m.x + r * 0.7, ay = m.y - r * 0.7;
  const bx = m.x + r + o, by = m.y - r - o;
  const label = labelBox(m, style);
  const reach = Math.max(circle, leaderHalf + Math.hypot(bx - m.x, by - m.y));
  return {
    bounds: { x0: Math.min(m.x - reach, label.x0), y0: Math.min(m.y - reach, label.y0), x1: Math.max(m.x + reach, label.x1), y1: Math.max(m.y + reach, label.y1) },
    covers: (x, y) =>
      (x - m.x) ** 2 + (y - m.y) ** 2 <= circle * circle ||
      segmentDistance2(x, y, ax, ay, bx, by) <= leaderHalf * leaderHalf ||
      (x >= label.x0 && x <= label.x1 && y >= label.y0 && y <= label.y1),
  };
}

const overlaps = (a: Box, b: Box) => a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;

/** Sample step (px) over a label box: fine enough that a share is within about 2% of the area's. */
const SAMPLE_PX = 0.5;

/**
 * For each marker (in draw order), the share of its label box covered by marks drawn after it or
 * lying outside the picture (width x height), measured on a 0.5 px grid of sample points.
 */
export function labelCoverage(markers: readonly PlacedMarker[], width: number, height: number): number[] {
  const style = markerStyle(width);
  const marks = markers.map((m) => marksOf(m, style));
  return markers.map((m, i) => {
    const box = labelBox(m, style);
    const later = marks.slice(i + 1).filter((k) => overlaps(k.bounds, box));
    const nx = Math.max(1, Math.round((box.x1 - box.x0) / SAMPLE_PX));
    const ny = Math.max(1, Math.round((box.y1 - box.y0) / SAMPLE_PX));
    let covered = 0;
    for (let a = 0; a < nx; a++) {
      const x = box.x0 + ((a + 0.5) * (box.x1 - box.x0)) / nx;
      for (let b = 0; b < ny; b++) {
        const y = box.y0 + ((b + 0.5) * (box.y1 - box.y0)) / ny;
        if (x < 0 || y < 0 || x >= width || y >= height || later.some((k) => k.covers(x, y))) covered++;
      }
    }
    return covered / (nx * ny);
  });
}

/** A label covered this much or more cannot be counted on to be read (issue 27's measure). */
export const UNREADABLE_COVERAGE = 0.25;

/** Pixel distances are reported at the release's 1024 px scale, so pictures of any size compare. */
export const toReleasePx = (px: number, width: number) => (px * OFFICIAL_IMAGE_SIDE) / width;

/** Radii (release px) within which neighbouring markers are counted: twice and four times the a1 spacing. */
export const CROWD_RADII_PX = [2 * P.minPixelDistPx, 4 * P.minPixelDistPx] as const;

export interface MarkerLayoutCues {
  /** Distance to the nearest other marker, release px (1024 when alone). */
  nearest_px: number;
  /** Other markers within 32 and 64 release px. */
  within_32: number;
  within_64: number;
  /** Position in the picture as shares of its width and height (y near 1 = bottom = near the camera). */
  x: number;
  y: number;
}

/** Layout cues of every marker of a picture. */
export function layoutCues(markers: readonly PlacedMarker[], width: number, height: number): MarkerLayoutCues[] {
  return markers.map((m, i) => {
    let nearest = Infinity;
    const within = [0, 0];
    markers.forEach((o, j) => {
      if (j === i) return;
      const d = toReleasePx(Math.hypot(o.x - m.x, o.y - m.y), width);
      nearest = Math.min(nearest, d);
      CROWD_RADII_PX.forEach((radius, k) => {
        if (d <= radius) within[k]!++;
      });
    });
    return { nearest_px: Math.min(nearest, OFFICIAL_IMAGE_SIDE), within_32: within[0]!, within_64: within[1]!, x: m.x / width, y: m.y / height };
  });
}

export interface RingColour {
  r: number;
  g: number;
  b: number;
  /** Mean of r, g, b. */
  brightness: number;
  /** Standard deviation of the per-pixel brightness (texture). */
  texture: number;
  /** Pixels the ring had (0: nothing visible around the marker). */
  pixels: number;
}

/**
 * The mean colour (0..1) of the picture in a ring around a marker: from 1 px to 4 px (release
 * scale, at least 2 px wide) outside its outline, leaving out the up-right quarter where its
 * leader and label are drawn and every pixel inside any marker's circle.
 */
export function ringColour(rgb: Uint8Array, width: number, height: number, markers: readonly PlacedMarker[], index: number): RingColour {
  const style = markerStyle(width);
  const m = markers[index]!;
  const body = style.radius + style.outline;
  const inner = body + Math.max(1, scalePx(1, width));
  const outer = inner + Math.max(2, scalePx(4, width));
  const reach2 = (outer + body) ** 2, body2 = body * body, inner2 = inner * inner, outer2 = outer * outer;
  const near = markers.filter((o) => (o.x - m.x) ** 2 + (o.y - m.y) ** 2 <= reach2 && o !== m);
  let n = 0, sr = 0, sg = 0, sb = 0, sv = 0, sv2 = 0;
  for (let py = Math.max(0, Math.floor(m.y - outer)); py <= Math.min(height - 1, Math.ceil(m.y + outer)); py++) {
    const cy = py + 0.5;
    for (let px = Math.max(0, Math.floor(m.x - outer)); px <= Math.min(width - 1, Math.ceil(m.x + outer)); px++) {
      const cx = px + 0.5;
      const d2 = (cx - m.x) ** 2 + (cy - m.y) ** 2;
      if (d2 < inner2 || d2 > outer2) continue;
      if (cx > m.x && cy < m.y) continue; // the leader and label quarter
      if (near.some((o) => (cx - o.x) ** 2 + (cy - o.y) ** 2 <= body2)) continue;
      const k = (py * width + px) * 3;
      const r = rgb[k]! / 255, g = rgb[k + 1]! / 255, b = rgb[k + 2]! / 255;
      const v = (r + g + b) / 3;
      n++; sr += r; sg += g; sb += b; sv += v; sv2 += v * v;
    }
  }
  if (n === 0) return { r: 0, g: 0, b: 0, brightness: 0, texture: 0, pixels: 0 };
  const mean = sv / n;
  return { r: sr / n, g: sg / n, b: sb / n, brightness: mean, texture: Math.sqrt(Math.max(0, sv2 / n - mean * mean)), pixels: n };
}

/** Per-channel median of colours. */
export function medianColour(colours: readonly RingColour[]): [number, number, number] {
  const med = (values: number[]) => {
    if (values.length === 0) return 0;
    const s = values.sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };
  const seen = colours.filter((c) => c.pixels > 0);
  return [med(seen.map((c) => c.r)), med(seen.map((c) => c.g)), med(seen.map((c) => c.b))];
}
