/**
 * Where each marker's number goes so that every number can be read (issue 27): the release puts
 * the label up and to the right of its marker (build_task_outputs.py `draw_overlay`), and markers
 * drawn later cover it. Here a label keeps that place when it is free and otherwise moves to the
 * first free one of eight sides at growing distances, tied to its marker by the same leader line.
 * "Free" means: inside the picture, and its box touches no other marker's circle, no other label
 * and no other leader, while its own leader crosses no other circle or label. A marker whose label
 * has no free place is dropped (or, for a waypoint a route needs, reported).
 *
 * The geometry is shared with the audit (audit-marks.ts), which measures what the overlay shows
 * from the `label_xy` each visible-waypoints record carries.
 */
import type { MarkerStyle } from "./markers.js";

/** DejaVu Sans Bold digits: advance 1425/2048 em; ink height of a digit 0.73 em (measured with the project's canvas). */
export const DIGIT_ADVANCE_EM = 0.6958;
export const DIGIT_HEIGHT_EM = 0.73;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The box a label of `digits` digits fills (text and shadow) when its baseline starts at `origin`. */
export function textBox(origin: Point, digits: number, style: MarkerStyle): Box {
  return {
    x0: origin.x,
    y0: origin.y - DIGIT_HEIGHT_EM * style.font,
    x1: origin.x + DIGIT_ADVANCE_EM * style.font * digits + style.shadow,
    y1: origin.y + style.shadow,
  };
}

/** The release's place: the baseline starts up and to the right of the marker's outline. */
export function defaultLabelOrigin(m: Point, style: MarkerStyle): Point {
  return { x: m.x + style.radius + style.outline, y: m.y - style.radius - style.outline };
}

/** The point of a box nearest to p (p itself when inside). */
export function nearestPointOfBox(box: Box, p: Point): Point {
  return { x: Math.min(Math.max(p.x, box.x0), box.x1), y: Math.min(Math.max(p.y, box.y0), box.y1) };
}

/**
 * The leader line of a marker whose label fills `box`: from the circle's rim, on the way to the
 * box's nearest point, to that point (for the release's place: the rim at 45 degrees up-right to
 * the label's lower-left corner).
 */
export function leaderOf(m: Point, box: Box, style: MarkerStyle): { from: Point; to: Point } {
  const to = nearestPointOfBox(box, m);
  const d = Math.hypot(to.x - m.x, to.y - m.y);
  if (d === 0) return { from: to, to };
  const k = style.radius / d;
  return { from: { x: m.x + (to.x - m.x) * k, y: m.y + (to.y - m.y) * k }, to };
}

/** Half the width of the drawn leader (black under white, the wider stroke). */
export const leaderHalfWidth = (style: MarkerStyle): number => Math.max(1, style.outline * 1.5) / 2;

/** Radius of what a marker's circle covers (the outline stroke is centred on the circle). */
export const circleReach = (style: MarkerStyle): number => style.radius + style.outline / 2;

/** Squared distance from a point to a segment. */
export function segmentDistance2(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return (a.x + t * dx - p.x) ** 2 + (a.y + t * dy - p.y) ** 2;
}

const grow = (b: Box, m: number): Box => ({ x0: b.x0 - m, y0: b.y0 - m, x1: b.x1 + m, y1: b.y1 + m });
const boxesMeet = (a: Box, b: Box): boolean => a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;

/** Squared distance from a point to a box (0 inside). */
function boxDistance2(b: Box, p: Point): number {
  const q = nearestPointOfBox(b, p);
  return (q.x - p.x) ** 2 + (q.y - p.y) ** 2;
}

/** Does a segment pass within `pad` of a box? (Segment against the padded box, by clipping.) */
export function segmentMeetsBox(a: Point, b: Point, box: Box, pad: number): boolean {
  const g = grow(box, pad);
  let t0 = 0, t1 = 1;
  const dx = b.x - a.x, dy = b.y - a.y;
  for (const [p, q] of [[-dx, a.x - g.x0], [dx, g.x1 - a.x], [-dy, a.y - g.y0], [dy, g.y1 - a.y]] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * The places tried for a label, in order: the release's (up-right), then the other diagonals and
 * the four sides, each at 1, 1.8 and 2.6 times the marker's reach. A place is the label box's
 * anchor (the point the leader reaches) offset from the marker; the box grows away from it.
 */
const SIDES: ReadonlyArray<readonly [number, number]> = [[1, -1], [-1, -1], [1, 1], [-1, 1], [1, 0], [-1, 0], [0, -1], [0, 1]];
const DISTANCES = [1, 1.8, 2.6];

/** Label boxes of a `w` x `h` label for every place, in the order tried. */
function placesFor(m: Point, w: number, h: number, style: MarkerStyle): Box[] {
  const reach = style.radius + style.outline;
  const out: Box[] = [];
  for (const k of DISTANCES) {
    for (const [sx, sy] of SIDES) {
      const ax = m.x + sx * reach * k, ay = m.y + sy * reach * k;
      const x0 = sx > 0 ? ax : sx < 0 ? ax - w : ax - w / 2;
      const y0 = sy > 0 ? ay : sy < 0 ? ay - h : ay - h / 2;
      out.push({ x0, y0, x1: x0 + w, y1: y0 + h });
    }
  }
  return out;
}

/** The baseline origin of a label of `digits` digits drawn inside a reserved box, kept against the side that faces the marker. */
export function originInBox(reserved: Box, m: Point, digits: number, style: MarkerStyle): Point {
  const w = DIGIT_ADVANCE_EM * style.font * digits + style.shadow;
  const cx = (reserved.x0 + reserved.x1) / 2;
  const x0 = m.x >= reserved.x1 ? reserved.x1 - w : m.x <= reserved.x0 ? reserved.x0 : cx - w / 2;
  return { x: x0, y: reserved.y1 - style.shadow };
}

/** Gap (px) kept between a label and any other mark, so the numbers do not touch. */
const GAP_PX = 1;

interface Leader {
  from: Point;
  to: Point;
}

/**
 * The marks laid so far on one picture: circles, label boxes and leaders. Markers join in groups,
 * all or none (tryAdd), or as required circles whose labels are placed afterwards (layoutLabels).
 */
export class LabelBoard {
  private readonly w: number;
  private readonly h: number;
  private readonly circle: number;
  private readonly half: number;
  readonly circles: Point[] = [];
  readonly labels: Box[] = [];
  readonly leaders: Leader[] = [];

  /** Labels of `digits` digits (the widest number the picture may show). */
  constructor(private readonly width: number, private readonly height: number, digits: number, private readonly style: MarkerStyle) {
    this.w = DIGIT_ADVANCE_EM * style.font * digits + style.shadow;
    this.h = DIGIT_HEIGHT_EM * style.font + style.shadow;
    this.circle = circleReach(style);
    this.half = leaderHalfWidth(style);
  }

  /** Can a circle go here without touching a label or leader already laid? */
  circleFits(m: Point): boolean {
    const c = this.circle + GAP_PX;
    return !this.labels.some((b) => boxDistance2(b, m) <= c * c) && !this.leaders.some((l) => segmentDistance2(m, l.from, l.to) <= (c + this.half) ** 2);
  }

  /** The first free place for the label of the marker at m (its circle already laid), or null. */
  freePlace(m: Point): { box: Box; leader: Leader } | null {
    const reach2 = (this.circle + this.half) ** 2;
    for (const box of placesFor(m, this.w, this.h, this.style)) {
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > this.width || box.y1 > this.height) continue;
      const padded = grow(box, GAP_PX);
      if (this.circles.some((o) => o !== m && boxDistance2(padded, o) <= this.circle ** 2)) continue;
      if (this.labels.some((b) => boxesMeet(padded, b))) continue;
      if (this.leaders.some((l) => segmentMeetsBox(l.from, l.to, box, this.half + GAP_PX))) continue;
      const leader = leaderOf(m, box, this.style);
      if (this.circles.some((o) => o !== m && segmentDistance2(o, leader.from, leader.to) <= reach2)) continue;
      if (this.labels.some((b) => segmentMeetsBox(leader.from, leader.to, b, this.half + GAP_PX))) continue;
      return { box, leader };
    }
    return null;
  }

  place(p: { box: Box; leader: Leader }): void {
    this.labels.push(p.box);
    this.leaders.push(p.leader);
  }

  /** Lays the markers (circles, then each label) when every one of them fits; returns their label boxes, or null and leaves the board as it was. */
  tryAdd(markers: readonly Point[]): Box[] | null {
    const size = { circles: this.circles.length, labels: this.labels.length };
    const undo = () => {
      this.circles.length = size.circles;
      this.labels.length = size.labels;
      this.leaders.length = size.labels;
      return null;
    };
    for (const m of markers) {
      if (!this.circleFits(m)) return undo();
      this.circles.push(m);
    }
    const boxes: Box[] = [];
    for (const m of markers) {
      const place = this.freePlace(m);
      if (!place) return undo();
      this.place(place);
      boxes.push(place.box);
    }
    return boxes;
  }
}

export interface LayoutInput extends Point {
  /** A marker that must stay (a waypoint a route needs): never dropped; listed in `failed` when its label has no free place. */
  required?: boolean;
}

export interface Layout {
  /** Per input marker: its reserved label box, or null when it was dropped or failed. */
  boxes: Array<Box | null>;
  /** Indices of optional markers dropped because no free place was left for their label or circle. */
  dropped: number[];
  /** Indices of required markers whose label found no free place. */
  failed: number[];
}

/**
 * Lays out labels of `digits` digits (the widest number the sheet may show) for markers given in
 * priority order, required ones first. Every required marker's circle is there from the start;
 * an optional marker joins only when its circle and leader meet no label already placed and its
 * own label finds a free place.
 */
export function layoutLabels(markers: readonly LayoutInput[], width: number, height: number, digits: number, style: MarkerStyle): Layout {
  const board = new LabelBoard(width, height, digits, style);
  const boxes: Array<Box | null> = markers.map(() => null);
  const dropped: number[] = [];
  const failed: number[] = [];
  for (const m of markers) if (m.required) board.circles.push(m);
  markers.forEach((m, i) => {
    if (m.required) {
      const place = board.freePlace(m);
      if (!place) failed.push(i);
      else {
        board.place(place);
        boxes[i] = place.box;
      }
      return;
    }
    const added = board.tryAdd([m]);
    if (added) boxes[i] = added[0]!;
    else dropped.push(i);
  });
  return { boxes, dropped, failed };
}
