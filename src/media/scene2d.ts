/**
 * The PathEval scene as the renderers take it: obstacle polygons and one path in the world square
 * [-40, 40]^2, plus the fixed start and goal of the release (path-generation/generate_image.py).
 */

/** A point in world units, [x, y]. */
export type Point2 = readonly [number, number];

/** One obstacle outline (open or closed; orientation either way; may be concave). */
export type Polygon2 = ReadonlyArray<Point2>;

export interface PathEvalScene {
  polygons: ReadonlyArray<Polygon2>;
  path: ReadonlyArray<Point2>;
  /** Defaults to PATHEVAL_START. */
  start?: Point2;
  /** Defaults to PATHEVAL_GOAL. */
  goal?: Point2;
}

/** The world square is [WORLD_MIN, WORLD_MAX]^2 on both axes. */
export const WORLD_MIN = -40;
export const WORLD_MAX = 40;

/** Start and goal used for every PathEval image in the release. */
export const PATHEVAL_START: Point2 = [-36.6031, -36.4332];
export const PATHEVAL_GOAL: Point2 = [36.0982, 36.363];

/** Throw a clear error on a non-finite coordinate; renderers call this before drawing. */
export function checkScene(scene: PathEvalScene): void {
  const bad = (what: string, p: Point2 | undefined): void => {
    if (p === undefined) return;
    if (!Array.isArray(p) || p.length < 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      throw new Error(`${what}: expected a finite [x, y] point, got ${JSON.stringify(p)}`);
    }
  };
  scene.polygons.forEach((poly, i) => poly.forEach((p, j) => bad(`polygons[${i}][${j}]`, p)));
  scene.path.forEach((p, j) => bad(`path[${j}]`, p));
  bad("start", scene.start);
  bad("goal", scene.goal);
}
