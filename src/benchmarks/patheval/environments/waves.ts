/**
 * SceneWaves_Lines{L}: L wavy horizontal lines, 1 thick, each a sine y = base + A sin(2 pi x / w + p)
 * (A in [1, 2.5], w in [30, 70]) broken into pieces by gaps 2.5 to 6 wide. Base heights are evenly
 * spread: base_i = -32 + (i + 1/2) 64 / L, as in the release's files. Each piece is a polyline of 4
 * points drawn as one 8-vertex polygon: every point offset by half the thickness along its normal on
 * one side, forward, then on the other side, back (the release's layout).
 */
import { polygon, type Polygon } from "../../../geometry/polygon.js";
import type { Rng } from "../../../stats/rng.js";

export interface WavesOptions {
  thickness?: number;
  amplitude?: readonly [number, number];
  wavelength?: readonly [number, number];
  pieceLength?: readonly [number, number];
  gapWidth?: readonly [number, number];
  /** Probability that a line starts with a gap at the left border (default 0.25). */
  leadingGap?: number;
  /** Points per piece (default 4). */
  pointsPerPiece?: number;
  /** Half-height of the band holding the lines (default 32). */
  band?: number;
}

/** A thick polyline as one polygon: offsets along per-vertex normals (averaged at joints). */
export function thickPolyline(points: ReadonlyArray<readonly [number, number]>, thickness: number): Polygon {
  const n = points.length;
  if (n < 2) throw new RangeError("a polyline needs at least 2 points");
  const half = thickness / 2;
  const normals: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    let nx = 0;
    let ny = 0;
    for (const [a, b] of [[i - 1, i], [i, i + 1]] as const) {
      if (a < 0 || b >= n) continue;
      const dx = points[b]![0] - points[a]![0];
      const dy = points[b]![1] - points[a]![1];
      const len = Math.hypot(dx, dy) || 1;
      nx += -dy / len;
      ny += dx / len;
    }
    const len = Math.hypot(nx, ny) || 1;
    normals.push([nx / len, ny / len]);
  }
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) pts.push([points[i]![0] - half * normals[i]![0], points[i]![1] - half * normals[i]![1]]);
  for (let i = n - 1; i >= 0; i--) pts.push([points[i]![0] + half * normals[i]![0], points[i]![1] + half * normals[i]![1]]);
  return polygon(pts);
}

export function generateWaves(lines: number, rng: Rng, options: WavesOptions = {}): Polygon[] {
  if (!Number.isInteger(lines) || lines < 1) throw new RangeError(`line count must be a positive integer, got ${lines}`);
  const thickness = options.thickness ?? 1;
  const [aMin, aMax] = options.amplitude ?? [1, 2.5];
  const [wlMin, wlMax] = options.wavelength ?? [30, 70];
  const [pMin, pMax] = options.pieceLength ?? [8, 35];
  const [gMin, gMax] = options.gapWidth ?? [2.5, 6];
  const leading = options.leadingGap ?? 0.25;
  const k = options.pointsPerPiece ?? 4;
  const band = options.band ?? 32;
  const out: Polygon[] = [];
  for (let i = 0; i < lines; i++) {
    const base = -band + ((i + 0.5) * 2 * band) / lines;
    const A = rng.float(aMin, aMax);
    const w = rng.float(wlMin, wlMax);
    const phase = rng.float(0, 2 * Math.PI);
    const y = (x: number) => base + A * Math.sin((2 * Math.PI * x) / w + phase);
    let x = -40;
    if (rng.chance(leading)) x += rng.float(gMin, gMax);
    while (x < 40 - 1) {
      let x1 = Math.min(40, x + rng.float(pMin, pMax));
      if (40 - x1 < gMin + 1) x1 = 40;
      const pts: Array<[number, number]> = [];
      for (let j = 0; j < k; j++) {
        const px = x + ((x1 - x) * j) / (k - 1);
        pts.push([px, y(px)]);
      }
      out.push(thickPolyline(pts, thickness));
      x = x1 + rng.float(gMin, gMax);
    }
  }
  return out;
}
