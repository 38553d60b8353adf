import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sideBySide } from "../../media/compose.js";
import type { Point2 } from "../../media/scene2d.js";
import { createRng, deriveSeed, type Rng } from "../../stats/rng.js";
import { renderScene } from "./finegrained-set.js";
import { PAPER_SEGMENTS } from "./probe-score.js";
import type { Dim, PathName } from "./types.js";

/**
 * The segment-complexity study of paper §4.2 / Fig. 2: in a world with one rectangular obstacle at
 * the centre, which of two segments is closer to the obstacle, for points, straight lines and
 * curves. The paper's rules: a point's clearance is its distance to the obstacle; a line or curve
 * is closer when one of its endpoints is closer (its clearance: the nearer endpoint's distance).
 * Per type, 200 random segments, each paired with the remaining one whose clearance differs most
 * from its own, giving 100 pairs (paper: average differences 14.76, 14.42, 14.28).
 *
 * Our choices where the paper gives no number: the obstacle is the square [-8, 8]^2; segments lie
 * in [-38, 38]^2 and never touch the obstacle; a line is 10 to 30 long; a curve is a quadratic
 * Bézier of 24 points between two endpoints 10 to 30 apart, its control point up to 12 off the
 * chord. A point is drawn as the start and goal markers at one place (the goal's blue disc shows).
 *
 * Output (`generate patheval --set study=segments`): `segments/<dim>/segments_<dim>.json`,
 * `segments/images/<type>_<k>_<dim>.png` (Path 1 left), `segments/environment.txt`, `segments/stats.json`.
 */

export const SEGMENT_TYPES = ["point", "line", "curve"] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];
export const SEGMENTS_DIR = "segments";
export const OBSTACLE_HALF = 8;
export const SEGMENTS_PER_TYPE = 200;

const LIMIT = 38;
const OBSTACLE: Point2[] = [[-OBSTACLE_HALF, -OBSTACLE_HALF], [OBSTACLE_HALF, -OBSTACLE_HALF], [OBSTACLE_HALF, OBSTACLE_HALF], [-OBSTACLE_HALF, OBSTACLE_HALF]];

/** Euclidean distance from a point to the centred square (0 inside). */
export function distanceToObstacle(p: Point2, half = OBSTACLE_HALF): number {
  const dx = Math.max(Math.abs(p[0]) - half, 0);
  const dy = Math.max(Math.abs(p[1]) - half, 0);
  return Math.hypot(dx, dy);
}

/** Whether segment a-b touches the centred square (Liang-Barsky clipping). */
export function segmentHitsObstacle(a: Point2, b: Point2, half = OBSTACLE_HALF): boolean {
  let t0 = 0, t1 = 1;
  const d = [b[0] - a[0], b[1] - a[1]];
  for (const [p, q] of [[-d[0]!, a[0] + half], [d[0]!, half - a[0]], [-d[1]!, a[1] + half], [d[1]!, half - a[1]]] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/** The paper's clearance of a segment: its point's distance, or the nearer endpoint's. */
export function segmentClearance(points: ReadonlyArray<Point2>): number {
  return Math.min(distanceToObstacle(points[0]!), distanceToObstacle(points[points.length - 1]!));
}

const inside = (p: Point2) => Math.abs(p[0]) <= LIMIT && Math.abs(p[1]) <= LIMIT;
const randomPoint = (rng: Rng): Point2 => [rng.float(-LIMIT, LIMIT), rng.float(-LIMIT, LIMIT)];
const clear = (points: ReadonlyArray<Point2>) => points.every(inside) && points.every((p, i) => (i === 0 ? distanceToObstacle(p) > 0 : !segmentHitsObstacle(points[i - 1]!, p)));

/** An end point 10 to 30 away from `a` in a random direction. */
function farEnd(rng: Rng, a: Point2): Point2 {
  const angle = rng.float(0, 2 * Math.PI);
  const length = rng.float(10, 30);
  return [a[0] + length * Math.cos(angle), a[1] + length * Math.sin(angle)];
}

function bezier(a: Point2, c: Point2, b: Point2, count = 24): Point2[] {
  return Array.from({ length: count }, (_, k) => {
    const t = k / (count - 1);
    const u = 1 - t;
    return [u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]] as Point2;
  });
}

/** One random segment of a type, redrawn until it stays in the world and off the obstacle. */
export function randomSegment(rng: Rng, type: SegmentType): Point2[] {
  for (;;) {
    const a = randomPoint(rng);
    let points: Point2[];
    if (type === "point") points = [a];
    else {
      const b = farEnd(rng, a);
      if (type === "line") points = [a, b];
      else {
        const mid: Point2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
        const offset = rng.float(-12, 12);
        points = bezier(a, [mid[0] - (offset * (b[1] - a[1])) / len, mid[1] + (offset * (b[0] - a[0])) / len], b);
      }
    }
    if (clear(points)) return points;
  }
}

/**
 * The paper's pairing: in order, each segment not yet paired is paired with the unpaired one whose
 * clearance differs most from its own (the lower index on ties).
 */
export function pairByLargestDifference(clearances: readonly number[]): Array<[number, number]> {
  const used = new Uint8Array(clearances.length);
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < clearances.length; i++) {
    if (used[i]) continue;
    let best = -1;
    for (let j = 0; j < clearances.length; j++) {
      if (j === i || used[j]) continue;
      if (best < 0 || Math.abs(clearances[j]! - clearances[i]!) > Math.abs(clearances[best]! - clearances[i]!)) best = j;
    }
    if (best < 0) break;
    used[i] = used[best] = 1;
    pairs.push([i, best]);
  }
  return pairs;
}

export interface SegmentRecord {
  id: string;
  image: string;
  segment_type: SegmentType;
  clearance: Record<PathName, number>;
  difference: number;
  closer: PathName;
  segments: Record<PathName, Array<[number, number]>>;
}

/** The pairs of every type (seeded), Path 1 / Path 2 in a seeded random order. */
export function segmentPairs(seed: number, perType = SEGMENTS_PER_TYPE): Array<Omit<SegmentRecord, "image">> {
  const out: Array<Omit<SegmentRecord, "image">> = [];
  SEGMENT_TYPES.forEach((type, t) => {
    const rng = createRng(deriveSeed(seed, 0x5e6 + t));
    const segments = Array.from({ length: perType }, () => randomSegment(rng, type));
    const clearances = segments.map(segmentClearance);
    pairByLargestDifference(clearances).forEach(([i, j], k) => {
      const [left, right] = rng.chance(0.5) ? [j, i] : [i, j];
      const a = clearances[left]!, b = clearances[right]!;
      out.push({
        id: `${type}_${k}`, segment_type: type, clearance: { "Path 1": a, "Path 2": b }, difference: Math.abs(a - b),
        closer: a < b ? "Path 1" : "Path 2",
        segments: { "Path 1": segments[left]!.map((p) => [p[0], p[1]]), "Path 2": segments[right]!.map((p) => [p[0], p[1]]) },
      });
    });
  });
  return out;
}

const sceneOf = (points: ReadonlyArray<Point2>) => ({ polygons: [OBSTACLE], path: points, start: points[0]!, goal: points[points.length - 1]! });

/** `generate patheval --set study=segments`: write the study's pairs, pictures and stats. */
export async function writeSegmentSet(outDir: string, options: { seed: number; dims: Dim[]; perType?: number; log?: (line: string) => void }) {
  const root = path.join(outDir, SEGMENTS_DIR);
  mkdirSync(path.join(root, "images"), { recursive: true });
  const pairs = segmentPairs(options.seed, options.perType);
  for (const dim of options.dims) {
    const records: SegmentRecord[] = [];
    for (const pair of pairs) {
      const image = `images/${pair.id}_${dim}.png`;
      writeFileSync(path.join(root, image), await sideBySide(await renderScene(sceneOf(pair.segments["Path 1"]), dim), await renderScene(sceneOf(pair.segments["Path 2"]), dim)));
      records.push({ ...pair, image });
      if (records.length % 100 === 0) options.log?.(`segments ${dim}: ${records.length}/${pairs.length} pictures`);
    }
    mkdirSync(path.join(root, dim), { recursive: true });
    writeFileSync(path.join(root, dim, `segments_${dim}.json`), `${JSON.stringify(records)}\n`);
  }
  writeFileSync(path.join(root, "environment.txt"), `1\n4 ${OBSTACLE.map((p) => `${p[0]} ${p[1]}`).join(" ")}\n`);
  const meanDifference = Object.fromEntries(SEGMENT_TYPES.map((type) => {
    const group = pairs.filter((p) => p.segment_type === type);
    return [type, group.length === 0 ? null : group.reduce((s, p) => s + p.difference, 0) / group.length];
  })) as Record<SegmentType, number | null>;
  const stats = {
    method: "paper §4.2 / Fig. 2: one square obstacle [-8, 8]^2 at the centre; per type, random segments, each paired with the unpaired one of most different clearance; a line's or curve's clearance is its nearer endpoint's",
    segments_per_type: options.perType ?? SEGMENTS_PER_TYPE,
    pairs_per_type: Object.fromEntries(SEGMENT_TYPES.map((t) => [t, pairs.filter((p) => p.segment_type === t).length])),
    mean_difference: meanDifference,
    paper_mean_difference: PAPER_SEGMENTS.mean_difference,
  };
  writeFileSync(path.join(root, "stats.json"), `${JSON.stringify(stats, null, 2)}\n`);
  return { pairs: pairs.length, meanDifference };
}
