/**
 * SceneRandom_Frac{F}: randomly placed, randomly rotated obstacles until they cover F percent of
 * the placement square. The shapes follow the release's files: rectangles with sides in [2, 3],
 * regular polygons of 3 to 8 sides with circumradius in [2, 3], and L shapes (arms 4.5 to 5.5 long,
 * 1 thick), about 40 / 45 / 15 percent of them. Obstacles keep `minGap` apart (the release's
 * closest pairs are about 1.6 apart), stay inside the world, and keep `keepOut` from the start and
 * the goal. Centres are drawn in [-37, 37]^2 and the fraction is of that square (74^2): a release
 * file named Frac12 covers 11.8% of it (10.1% of the whole 80 x 80 world).
 */
import { PATHEVAL_GOAL, PATHEVAL_START, type Vec2 } from "../../../geometry/planners.js";
import {
  pointInPolygon,
  pointPolygonDistance,
  polygon,
  polygonArea,
  polygonBounds,
  segmentPolygonDistance,
  type Polygon,
} from "../../../geometry/polygon.js";
import type { Rng } from "../../../stats/rng.js";

export interface RandomObstaclesOptions {
  /** Half-size of the square where centres are drawn (default 37). */
  placementHalf?: number;
  /** Smallest distance between two obstacles (default 1.5). */
  minGap?: number;
  /** Smallest distance from an obstacle to the start and to the goal (default 2.5). */
  keepOut?: number;
  /** Points kept clear (default: PathEval's start and goal). */
  keepClear?: readonly Readonly<Vec2>[];
  /** World half-size: vertices stay inside (default 40). */
  worldHalf?: number;
  /** Placement attempts before giving up on reaching the fraction (default 20,000). */
  maxAttempts?: number;
}

function rotateAndPlace(local: Array<[number, number]>, cx: number, cy: number, angle: number): Polygon {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return polygon(local.map(([x, y]) => [cx + c * x - s * y, cy + s * x + c * y] as [number, number]));
}

/** One random obstacle shape in local coordinates (centred near the origin). */
export function randomShape(rng: Rng): Array<[number, number]> {
  const u = rng.next();
  if (u < 0.4) {
    const w = rng.float(2, 3) / 2;
    const h = rng.float(2, 3) / 2;
    return [[-w, -h], [w, -h], [w, h], [-w, h]];
  }
  if (u < 0.85) {
    const n = rng.int(3, 8);
    const r = rng.float(2, 3);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) out.push([r * Math.cos((2 * Math.PI * i) / n), r * Math.sin((2 * Math.PI * i) / n)]);
    return out;
  }
  const a = rng.float(4.5, 5.5);
  const b = rng.float(4.5, 5.5);
  const t = 1;
  // L with its outer corner at the origin, then centred on its bounding box.
  const pts: Array<[number, number]> = [[0, 0], [a, 0], [a, t], [t, t], [t, b], [0, b]];
  return pts.map(([x, y]) => [x - a / 2, y - b / 2]);
}

/** Distance between two polygons (0 when they overlap or one holds the other). */
function polygonsDistance(a: Polygon, b: Polygon): number {
  if (pointInPolygon(a, b[0]!, b[1]!) || pointInPolygon(b, a[0]!, a[1]!)) return 0;
  let best = Infinity;
  const na = a.length >> 1;
  for (let i = 0, j = na - 1; i < na; j = i++) {
    best = Math.min(best, segmentPolygonDistance(b, a[2 * j]!, a[2 * j + 1]!, a[2 * i]!, a[2 * i + 1]!));
    if (best === 0) return 0;
  }
  return best;
}

export function generateRandomObstacles(fractionPercent: number, rng: Rng, options: RandomObstaclesOptions = {}): Polygon[] {
  if (!(fractionPercent > 0 && fractionPercent < 60)) throw new RangeError(`fill fraction must be in (0, 60) percent, got ${fractionPercent}`);
  const P = options.placementHalf ?? 37;
  const minGap = options.minGap ?? 1.5;
  const keepOut = options.keepOut ?? 2.5;
  const world = options.worldHalf ?? 40;
  const keepClear = options.keepClear ?? [PATHEVAL_START, PATHEVAL_GOAL];
  const maxAttempts = options.maxAttempts ?? 20_000;
  const target = (fractionPercent / 100) * (2 * P) * (2 * P);
  const out: Polygon[] = [];
  const boxes: Array<{ minX: number; minY: number; maxX: number; maxY: number }> = [];
  let area = 0;
  for (let attempt = 0; area < target && attempt < maxAttempts; attempt++) {
    const shape = randomShape(rng);
    const cand = rotateAndPlace(shape, rng.float(-P, P), rng.float(-P, P), rng.float(0, 2 * Math.PI));
    const b = polygonBounds(cand);
    if (b.minX < -world || b.maxX > world || b.minY < -world || b.maxY > world) continue;
    if (keepClear.some(([x, y]) => pointPolygonDistance(cand, x, y) < keepOut)) continue;
    let ok = true;
    for (let k = 0; k < out.length && ok; k++) {
      const o = boxes[k]!;
      if (o.minX - minGap > b.maxX || o.maxX + minGap < b.minX || o.minY - minGap > b.maxY || o.maxY + minGap < b.minY) continue;
      if (polygonsDistance(cand, out[k]!) < minGap) ok = false;
    }
    if (!ok) continue;
    out.push(cand);
    boxes.push(b);
    area += polygonArea(cand);
  }
  return out;
}
