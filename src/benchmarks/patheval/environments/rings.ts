/**
 * SceneRings_Gap{G}: concentric rings around the origin, 1 thick, with G free units between
 * consecutive rings (mid radii 36, 36 - (G + 1), ... while at least `minRadius`), each broken into
 * arcs by 3 or 4 openings whose width along the ring's mid circle is drawn from [4, 6]. Every arc is
 * one closed polygon: its outer boundary forward, then its inner boundary back at the same angles,
 * with a vertex about every 2 units of the outer arc, as in the release's files. The outermost ring
 * (outer radius 36.5) leaves 3.5 to the border at the edges' midpoints, so a disc of radius up to
 * 1.75 can always go round it.
 */
import { polygon, type Polygon } from "../../../geometry/polygon.js";
import type { Rng } from "../../../stats/rng.js";

export interface RingsOptions {
  /** Mid radius of the outermost ring (default 36). */
  outerRadius?: number;
  /** Ring thickness (default 1). */
  thickness?: number;
  /** Smallest mid radius drawn (default 5). */
  minRadius?: number;
  /** Opening width range along the mid circle (default [4, 6]). */
  openingWidth?: readonly [number, number];
  /** Openings per ring, both ends included (default [3, 4]). */
  openings?: readonly [number, number];
  /** Target spacing of arc vertices along the outer circle (default 2). */
  vertexSpacing?: number;
}

/** One arc of a ring as a polygon, from angle a0 to a1 (radians, a1 > a0). */
export function arcPolygon(rInner: number, rOuter: number, a0: number, a1: number, spacing = 2): Polygon {
  const segments = Math.max(1, Math.ceil(((a1 - a0) * rOuter) / spacing));
  const pts: Array<[number, number]> = [];
  for (let i = 0; i <= segments; i++) {
    const a = a0 + ((a1 - a0) * i) / segments;
    pts.push([rOuter * Math.cos(a), rOuter * Math.sin(a)]);
  }
  for (let i = segments; i >= 0; i--) {
    const a = a0 + ((a1 - a0) * i) / segments;
    pts.push([rInner * Math.cos(a), rInner * Math.sin(a)]);
  }
  return polygon(pts);
}

export function generateRings(gap: number, rng: Rng, options: RingsOptions = {}): Polygon[] {
  if (!(gap > 0)) throw new RangeError(`ring gap must be positive, got ${gap}`);
  const outer = options.outerRadius ?? 36;
  const t = options.thickness ?? 1;
  const minRadius = options.minRadius ?? 5;
  const [wMin, wMax] = options.openingWidth ?? [4, 6];
  const [mMin, mMax] = options.openings ?? [3, 4];
  const spacing = options.vertexSpacing ?? 2;
  const out: Polygon[] = [];
  for (let R = outer; R >= minRadius; R -= gap + t) {
    const circumference = 2 * Math.PI * R;
    let m = rng.int(mMin, mMax);
    // Room for every opening plus an arc at least as long as the widest opening between them.
    while (m > 1 && m * 2 * wMax > circumference) m--;
    const widths = Array.from({ length: m }, () => rng.float(wMin, wMax) / R);
    const free = 2 * Math.PI - widths.reduce((a, b) => a + b, 0);
    // Split the remaining angle into m arcs, none shorter than a quarter of its fair share.
    const minArc = free / m / 4;
    const cuts = Array.from({ length: m }, () => rng.next()).sort((a, b) => a - b);
    const shares = cuts.map((c, i) => (i + 1 < m ? cuts[i + 1]! : 1 + cuts[0]!) - c);
    const total = free - m * minArc;
    let angle = rng.float(0, 2 * Math.PI);
    for (let i = 0; i < m; i++) {
      angle += widths[i]!;
      const arc = minArc + total * shares[i]!;
      out.push(arcPolygon(R - t / 2, R + t / 2, angle, angle + arc, spacing));
      angle += arc;
    }
  }
  return out;
}
