/**
 * Plans on generated PathEval environments, verified independently of the planner's own checkers:
 * with exact validity, every point of every path, sampled every 0.01, keeps a disc of the robot's
 * radius clear of every polygon (analytic shapely-style distances, scanning polygons near each
 * segment, no obstacle index) and inside the border; with the release's validity, every vertex and
 * every point OMPL's discrete validator checks passes a plain re-implementation of the release rule.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateEnvironment, type EnvironmentFamily } from "../../../src/benchmarks/patheval/environments/index.js";
import { discClearance, PATHEVAL_BORDER, releaseStateValidReference } from "../../../src/geometry/collision.js";
import { PATHEVAL_GOAL, PATHEVAL_START, pathEvalProblem, rrt, rrtConnect, shortcutSimplify, type Vec2 } from "../../../src/geometry/planners.js";
import { polygonBounds, type Polygon } from "../../../src/geometry/polygon.js";
import { createRng } from "../../../src/stats/rng.js";

const ENVS: Array<[EnvironmentFamily, number, number]> = [
  ["maze", 10, 0], ["maze", 12, 1],
  ["random", 13, 0], ["random", 17, 1],
  ["rings", 3, 0], ["rings", 9, 1],
  ["waves", 5, 0], ["waves", 8, 1],
];
const RADII = [0.5, 1.0, 1.5];
const SEEDS = [1, 2];
const SEED = 31;

/** Smallest clearance minus radius along the path, sampled every `step` (negative = collision). */
function worstMargin(polys: readonly Polygon[], path: readonly Vec2[], r: number, step = 0.01): { margin: number; at: Vec2 } {
  const boxes = polys.map(polygonBounds);
  let margin = Infinity;
  let at: Vec2 = path[0]!;
  const visit = (x: number, y: number, near: readonly Polygon[]) => {
    const b = PATHEVAL_BORDER;
    const m = Math.min(discClearance(near, x, y), x - b.minX, b.maxX - x, y - b.minY, b.maxY - y) - r;
    if (m < margin) {
      margin = m;
      at = [x, y];
    }
  };
  for (let i = 1; i < path.length; i++) {
    const [ax, ay] = path[i - 1]!;
    const [bx, by] = path[i]!;
    // Polygons farther than r + 1 from the segment's box cannot decide the answer.
    const g = r + 1;
    const near = polys.filter((_, k) => {
      const q = boxes[k]!;
      return !(q.minX > Math.max(ax, bx) + g || q.maxX < Math.min(ax, bx) - g || q.minY > Math.max(ay, by) + g || q.maxY < Math.min(ay, by) - g);
    });
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / step));
    for (let k = 0; k <= n; k++) visit(ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n, near);
  }
  if (path.length === 1) visit(path[0]![0], path[0]![1], polys);
  return { margin, at };
}

function assertEnds(path: readonly Vec2[], label: string): void {
  assert.deepEqual(path[0], [...PATHEVAL_START], `${label}: starts at the start`);
  const last = path[path.length - 1]!;
  assert.ok(Math.abs(last[0] - PATHEVAL_GOAL[0]) <= 1.5 && Math.abs(last[1] - PATHEVAL_GOAL[1]) <= 1.5, `${label}: ends at ${last}, outside the goal box`);
}

test("the independent check sees collisions and near misses", () => {
  const env = generateEnvironment("maze", 10, 0, SEED);
  const straight: Vec2[] = [[...PATHEVAL_START], [...PATHEVAL_GOAL]];
  assert.ok(worstMargin(env.polygons, straight, 0.5).margin < -0.4, "a straight line through the maze collides");
  // Along the free strip y = -36.5 (walls end at y = -33, border at -40): the margin is 3.5 - r at best.
  const strip: Vec2[] = [[-36, -36.5], [36, -36.5]];
  const m = worstMargin(env.polygons, strip, 1).margin;
  assert.ok(Math.abs(m - 2.5) < 1e-9, String(m));
  // A disc of radius 1 grazing a wall's end from below, 0.004 too close, between two samples of 0.01.
  const wall = env.polygons.find((p) => polygonBounds(p).minY === -33)!;
  const b = polygonBounds(wall);
  const x = (b.minX + b.maxX) / 2;
  const graze: Vec2[] = [[x - 2, -33 - 0.996], [x + 2, -33 - 0.996]];
  assert.ok(worstMargin(env.polygons, graze, 1).margin < -0.003);
});

for (const [family, parameter, index] of ENVS) {
  test(`${family} ${parameter}: exact-validity RRT-Connect and RRT + simplify plans are collision-free at 0.01`, () => {
    const env = generateEnvironment(family, parameter, index, SEED);
    for (const r of RADII) {
      const problem = pathEvalProblem(env.polygons, { radius: r, validity: "exact" });
      for (const seed of SEEDS) {
        const label = `${env.name} r=${r} seed=${seed}`;
        const a = rrtConnect(problem, createRng(seed), { maxIterations: 400_000 });
        assert.equal(a.solved, true, `${label}: RRT-Connect found no path`);
        assertEnds(a.path!, `${label} RRT-Connect`);
        const ma = worstMargin(env.polygons, a.path!, r);
        assert.ok(ma.margin >= -1e-9, `${label} RRT-Connect: disc enters an obstacle by ${-ma.margin} at ${ma.at}`);

        const b = rrt(problem, createRng(seed), { maxIterations: 400_000 });
        assert.equal(b.solved, true, `${label}: RRT found no path`);
        const simple = shortcutSimplify(b.path!, problem.isMotionValid, createRng(seed));
        assertEnds(simple, `${label} RRT+simplify`);
        const mb = worstMargin(env.polygons, simple, r);
        assert.ok(mb.margin >= -1e-9, `${label} RRT+simplify: disc enters an obstacle by ${-mb.margin} at ${mb.at}`);
      }
    }
    // Same seed, same plan.
    const problem = pathEvalProblem(env.polygons, { radius: 1.0, validity: "exact" });
    assert.deepEqual(rrtConnect(problem, createRng(5)).path, rrtConnect(problem, createRng(5)).path);
    const raw = rrt(problem, createRng(5)).path!;
    assert.deepEqual(rrt(problem, createRng(5)).path, raw);
    assert.deepEqual(shortcutSimplify(raw, problem.isMotionValid, createRng(6)), shortcutSimplify(raw, problem.isMotionValid, createRng(6)));
  });
}

/** The points OMPL's discrete validator checks on a -> b: b, then j / nd for j = 1..nd-1. */
function checkPoints(a: Vec2, b: Vec2, L: number): Vec2[] {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const nd = Math.ceil(Math.sqrt(dx * dx + dy * dy) / L);
  const out: Vec2[] = [b];
  for (let j = 1; j < nd; j++) out.push([a[0] + dx * (j / nd), a[1] + dy * (j / nd)]);
  return out;
}

test("release-validity plans pass the plain release rule at every vertex and every OMPL check point", () => {
  for (const [family, parameter, index] of ENVS.filter((_, i) => i % 2 === 0)) {
    const env = generateEnvironment(family, parameter, index, SEED);
    for (const r of [0.5, 1.5]) {
      const problem = pathEvalProblem(env.polygons, { radius: r });
      const a = rrtConnect(problem, createRng(3), { maxIterations: 400_000 });
      const b = rrt(problem, createRng(3), { maxIterations: 400_000 });
      assert.equal(a.solved && b.solved, true, `${env.name} r=${r}`);
      const simple = shortcutSimplify(b.path!, problem.isMotionValid, createRng(3));
      for (const path of [a.path!, simple]) {
        assertEnds(path, env.name);
        for (const p of path) assert.ok(releaseStateValidReference(env.polygons, p[0], p[1], r), `${env.name} r=${r}: vertex ${p}`);
        for (let i = 1; i < path.length; i++) {
          // RRT-Connect's goal-tree motions were checked from the far end; either direction's points pass.
          const fwd = checkPoints(path[i - 1]!, path[i]!, problem.longestValidSegment);
          const bwd = checkPoints(path[i]!, path[i - 1]!, problem.longestValidSegment);
          const ok = (pts: Vec2[]) => pts.every((p) => releaseStateValidReference(env.polygons, p[0], p[1], r));
          assert.ok(ok(fwd) || ok(bwd), `${env.name} r=${r}: segment ${i}`);
        }
      }
    }
  }
});
