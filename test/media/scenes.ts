/** Small fixed PathEval scenes for the media tests (made up for these tests). */
import type { PathEvalScene, Point2 } from "../../src/media/scene2d.js";

/** An arc-shaped (concave) band, like the release's curved walls. */
function arcBand(cx: number, cy: number, r0: number, r1: number, a0: number, a1: number, steps: number): Point2[] {
  const outer: Point2[] = [];
  const inner: Point2[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = a0 + ((a1 - a0) * i) / steps;
    outer.push([cx + r1 * Math.cos(t), cy + r1 * Math.sin(t)]);
    inner.push([cx + r0 * Math.cos(t), cy + r0 * Math.sin(t)]);
  }
  return [...outer, ...inner.reverse()];
}

/**
 * Scene A: a square obstacle on the centre, a concave L, a curved band; the path goes up the
 * left side, along a long straight stretch at y = 20, then to the goal.
 */
export const SCENE_A: PathEvalScene = {
  polygons: [
    [[-10, -10], [10, -10], [10, 10], [-10, 10]],
    [[15, -30], [15, -25], [25, -25], [25, -15], [30, -15], [30, -30]], // clockwise L
    arcBand(-20, -40, 14, 15.5, 0.25, 1.3, 12),
  ],
  path: [[-36.6031, -36.4332], [-30, 20], [30, 20], [36.0982, 36.363]],
};

/** Scene B: a few walls, free centre, a zigzag path; start and goal given explicitly. */
export const SCENE_B: PathEvalScene = {
  polygons: [
    [[-40, 12], [-8, 12], [-8, 14], [-40, 14]],
    [[8, -14], [40, -14], [40, -12], [8, -12]],
    [[-25, -30], [-20, -22], [-30, -22]],
    [[18, 22], [26, 22], [26, 30], [22, 26], [18, 30]],
  ],
  path: [[-36.6031, -36.4332], [0, -25], [2, 3], [-5, 25], [36.0982, 36.363]],
  start: [-36.6031, -36.4332],
  goal: [36.0982, 36.363],
};

/** Scene C: one wall across the middle; the path's long segment runs behind it (north). */
export const SCENE_C: PathEvalScene = {
  polygons: [[[-12, -2], [12, -2], [12, 2], [-12, 2]]],
  path: [[-36.6031, -36.4332], [-20, 10], [20, 10], [36.0982, 36.363]],
};
