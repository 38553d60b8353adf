/**
 * Ear-clipping triangulation of a simple polygon (convex or concave, either orientation).
 * Returns triangles as index triples into the input, wound counter-clockwise (x right, y up).
 * A repeated closing point and consecutive duplicates are ignored; collinear corners are dropped
 * without emitting zero-area triangles. On input that is not a simple polygon (self-crossing),
 * it still terminates and covers the outline as well as it can.
 */
import type { Point2 } from "./scene2d.js";

export function signedArea(points: ReadonlyArray<Point2>): number {
  let s = 0;
  for (let i = 0, n = points.length; i < n; i++) {
    const p = points[i]!, q = points[(i + 1) % n]!;
    s += p[0] * q[1] - q[0] * p[1];
  }
  return s / 2;
}

function cross(o: Point2, a: Point2, b: Point2): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** p inside or on triangle (a, b, c), counter-clockwise. */
function inTriangle(p: Point2, a: Point2, b: Point2, c: Point2): boolean {
  return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
}

export function earClip(points: ReadonlyArray<Point2>): number[] {
  // Distinct corners, in order.
  const idx: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const last = idx.length > 0 ? points[idx[idx.length - 1]!]! : undefined;
    if (last && last[0] === p[0] && last[1] === p[1]) continue;
    idx.push(i);
  }
  while (idx.length > 1) {
    const f = points[idx[0]!]!, l = points[idx[idx.length - 1]!]!;
    if (f[0] === l[0] && f[1] === l[1]) idx.pop();
    else break;
  }
  if (idx.length < 3) return [];
  const ring = idx.map((i) => points[i]!);
  if (signedArea(ring) < 0) idx.reverse();

  const out: number[] = [];
  const P = (k: number) => points[idx[k]!]!;
  let guard = 0;
  while (idx.length > 3 && guard++ < 100_000) {
    const n = idx.length;
    let clipped = false;
    for (let k = 0; k < n; k++) {
      const kp = (k + n - 1) % n, kn = (k + 1) % n;
      const a = P(kp), b = P(k), c = P(kn);
      const turn = cross(a, b, c);
      if (turn === 0) {
        // Collinear corner (or a zero-width spike): drop it, nothing to fill.
        idx.splice(k, 1);
        clipped = true;
        break;
      }
      if (turn < 0) continue; // reflex
      let blocked = false;
      for (let j = 0; j < n && !blocked; j++) {
        if (j === kp || j === k || j === kn) continue;
        const q = P(j);
        if ((q[0] === a[0] && q[1] === a[1]) || (q[0] === b[0] && q[1] === b[1]) || (q[0] === c[0] && q[1] === c[1])) continue;
        if (inTriangle(q, a, b, c)) blocked = true;
      }
      if (blocked) continue;
      out.push(idx[kp]!, idx[k]!, idx[kn]!);
      idx.splice(k, 1);
      clipped = true;
      break;
    }
    if (!clipped) {
      // Not a simple polygon: take the most convex corner anyway so the loop ends.
      let best = 0, bestTurn = -Infinity;
      for (let k = 0; k < n; k++) {
        const t = cross(P((k + n - 1) % n), P(k), P((k + 1) % n));
        if (t > bestTurn) { bestTurn = t; best = k; }
      }
      if (bestTurn > 0) out.push(idx[(best + n - 1) % n]!, idx[best]!, idx[(best + 1) % n]!);
      idx.splice(best, 1);
    }
  }
  if (idx.length === 3 && cross(P(0), P(1), P(2)) > 0) out.push(idx[0]!, idx[1]!, idx[2]!);
  return out;
}
