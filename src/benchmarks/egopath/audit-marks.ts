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
 * Bold of max(11, 18·W/1024) px, its baseline starting at the record's `label_xy` or, without one
 * (the release), at (x + r + outline, y − r − outline), with a black shadow max(1, W/1024) px down
 * and right; the leader from the circle's rim to the label box's nearest point. A label box is the
 * digits' advance width (0.6958 em each, measured) plus the shadow, by the digit height (0.73 em)
 * plus the shadow (construct/label-layout.ts holds this geometry for both sides).
 */
import { EGOPATH_PARAMS as P, OFFICIAL_IMAGE_SIDE, scalePx } from "./construct/params.js";
import { markerStyle, type MarkerStyle } from "./construct/markers.js";
import { circleReach, defaultLabelOrigin, leaderHalfWidth, leaderOf, segmentDistance2, textBox, type Box } from "./construct/label-layout.js";

export type { Box };

export interface PlacedMarker {
  id: number;
  x: number;
  y: number;
  /** Baseline start of its number, when the record gives it. */
  label?: { x: number; y: number };
}

/** The box a marker's number occupies (text and shadow). */
export function labelBox(m: PlacedMarker, style: MarkerStyle): Box {
  return textBox(m.label ?? defaultLabelOrigin(m, style), String(m.id).length, style);
}

/** The marks one marker draws, as tests on a point. */
export interface Marks {
  bounds: Box;
  covers(x: number, y: number): boolean;
}

function marksOf(m: PlacedMarker, style: MarkerStyle): Marks {
  const circle = circleReach(style);
  const half = leaderHalfWidth(style);
  const label = labelBox(m, style);
  const leader = leaderOf(m, label, style);
  return {
    bounds: {
      x0: Math.min(m.x - circle, label.x0, leader.to.x - half), y0: Math.min(m.y - circle, label.y0, leader.to.y - half),
      x1: Math.max(m.x + circle, label.x1, leader.to.x + half), y1: Math.max(m.y + circle, label.y1, leader.to.y + half),
    },
    covers: (x, y) =>
      (x - m.x) ** 2 + (y - m.y) ** 2 <= circle * circle ||
      segmentDistance2({ x, y }, leader.from, leader.to) <= half * half ||
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

/** The marks of every marker of a picture (for ringColour). */
export function pictureMarks(markers: readonly PlacedMarker[], width: number): Marks[] {
  const style = markerStyle(width);
  return markers.map((m) => marksOf(m, style));
}

/**
 * The mean colour (0..1) of the picture in a ring around a marker: from 1 px to 4 px (release
 * scale, at least 2 px wide) outside its outline, leaving out every pixel a marker draws on (its
 * own leader and label, other markers' circles, leaders and labels).
 */
export function ringColour(rgb: Uint8Array, width: number, height: number, markers: readonly PlacedMarker[], index: number, marks: readonly Marks[] = pictureMarks(markers, width)): RingColour {
  const style = markerStyle(width);
  const m = markers[index]!;
  const body = style.radius + style.outline;
  const inner = body + Math.max(1, scalePx(1, width));
  const outer = inner + Math.max(2, scalePx(4, width));
  const inner2 = inner * inner, outer2 = outer * outer;
  const ring = { x0: m.x - outer, y0: m.y - outer, x1: m.x + outer, y1: m.y + outer };
  const near = marks.filter((k) => overlaps(k.bounds, ring));
  let n = 0, sr = 0, sg = 0, sb = 0, sv = 0, sv2 = 0;
  for (let py = Math.max(0, Math.floor(m.y - outer)); py <= Math.min(height - 1, Math.ceil(m.y + outer)); py++) {
    const cy = py + 0.5;
    for (let px = Math.max(0, Math.floor(m.x - outer)); px <= Math.min(width - 1, Math.ceil(m.x + outer)); px++) {
      const cx = px + 0.5;
      const d2 = (cx - m.x) ** 2 + (cy - m.y) ** 2;
      if (d2 < inner2 || d2 > outer2) continue;
      if (near.some((k) => k.covers(cx, cy))) continue;
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
