import assert from "node:assert/strict";
import { test } from "node:test";
import { createExactMotionValidator, isDiscFree, PATHEVAL_BORDER } from "../../src/geometry/collision.js";
import {
  NearestNeighborTree,
  OMPL_GOAL_BIAS,
  PATHEVAL_GOAL,
  PATHEVAL_START,
  pathEvalProblem,
  RELEASE_SE2_SPACE,
  rrt,
  rrtConnect,
  shortcutSimplify,
  type Vec2,
} from "../../src/geometry/planners.js";
import { rectanglePolygon } from "../../src/geometry/polygon.js";
import { createRng } from "../../src/stats/rng.js";

// Two walls with gaps: a disc must zig-zag.
const WALLS = [rectanglePolygon(-40, -12, 10, -10), rectanglePolygon(-10, 10, 40, 12)];

const length = (p: readonly Readonly<Vec2>[]) => p.slice(1).reduce((s, q, i) => s + Math.hypot(q[0] - p[i]![0], q[1] - p[i]![1]), 0);

test("OMPL defaults: extent, range, longest valid segment, goal bias", () => {
  const p = pathEvalProblem([], { radius: 1 });
  assert.ok(Math.abs(p.maximumExtent - 113.13708498984761) < 1e-12);
  assert.ok(Math.abs(p.range - 22.627416997969522) < 1e-12);
  assert.ok(Math.abs(p.longestValidSegment - 0.33941125496954283) < 1e-15);
  assert.deepEqual(p.bounds, PATHEVAL_BORDER);
  assert.equal(OMPL_GOAL_BIAS, 0.05);
  const se2 = pathEvalProblem([], { radius: 1, space: "release-se2" });
  assert.ok(Math.abs(se2.maximumExtent - (Math.hypot(200, 200) + Math.PI / 2)) < 1e-12);
  assert.ok(Math.abs(se2.range - 56.8827) < 1e-4);
  assert.ok(Math.abs(se2.longestValidSegment - 0.848528) < 1e-6);
  assert.deepEqual(se2.bounds, RELEASE_SE2_SPACE.bounds);
  assert.deepEqual([...p.start], [-36.6031, -36.4332]);
  assert.deepEqual([...p.goal], [36.0982, 36.363]);
});

test("nearest-neighbour tree is exact", () => {
  const rng = createRng(3);
  const tree = new NearestNeighborTree({ minX: -40, minY: -40, maxX: 40, maxY: 40 });
  const pts: Vec2[] = [];
  for (let i = 0; i < 2000; i++) {
    // A clustered set, like a tree grown from a corner, plus a few far points.
    const p: Vec2 = i % 50 === 0 ? [rng.float(-40, 40), rng.float(-40, 40)] : [rng.float(-40, -20), rng.float(-40, -25)];
    pts.push(p);
    tree.add(p[0], p[1], -1);
    if (i % 7 === 0) {
      const q: Vec2 = [rng.float(-45, 45), rng.float(-45, 45)];
      const got = tree.nearest(q[0], q[1]);
      let best = Infinity;
      for (const r of pts) best = Math.min(best, (r[0] - q[0]) ** 2 + (r[1] - q[1]) ** 2);
      assert.equal((tree.xs[got]! - q[0]) ** 2 + (tree.ys[got]! - q[1]) ** 2, best);
    }
  }
});

for (const validity of ["release", "exact"] as const) {
  test(`RRT-Connect and RRT (${validity} validity): valid paths from start to goal, deterministic per seed`, () => {
    const problem = pathEvalProblem(WALLS, { radius: 1, validity });
    for (const seed of [1, 2, 3]) {
      const a = rrtConnect(problem, createRng(seed));
      assert.equal(a.solved, true);
      assert.equal(a.stop, "solved");
      assert.deepEqual(a.path![0], [...PATHEVAL_START]);
      assert.deepEqual(a.path![a.path!.length - 1], [...PATHEVAL_GOAL]); // the goal tree's root
      assert.equal(a.reachesGoal, true);
      for (let i = 1; i < a.path!.length; i++) {
        const [p, q] = [a.path![i - 1]!, a.path![i]!];
        assert.notDeepEqual(p, q, "no duplicated meeting state");
        assert.ok(problem.isMotionValid(p[0], p[1], q[0], q[1]) || problem.isMotionValid(q[0], q[1], p[0], p[1]), `segment ${i}`);
      }
      assert.deepEqual(rrtConnect(problem, createRng(seed)).path, a.path);

      const b = rrt(problem, createRng(seed));
      assert.equal(b.solved, true);
      const last = b.path![b.path!.length - 1]!;
      assert.ok(Math.abs(last[0] - PATHEVAL_GOAL[0]) <= 1.5 && Math.abs(last[1] - PATHEVAL_GOAL[1]) <= 1.5);
      for (let i = 1; i < b.path!.length; i++) {
        const [p, q] = [b.path![i - 1]!, b.path![i]!];
        assert.ok(Math.hypot(q[0] - p[0], q[1] - p[1]) <= problem.range + 1e-9);
        assert.ok(problem.isMotionValid(p[0], p[1], q[0], q[1]));
      }
      assert.deepEqual(rrt(problem, createRng(seed)).path, b.path);
    }
    assert.notDeepEqual(rrt(problem, createRng(1)).path, rrt(problem, createRng(2)).path);
  });
}

test("RRT with OMPL's GoalState test ends exactly on the goal", () => {
  const problem = pathEvalProblem(WALLS, { radius: 0.8 });
  const res = rrt(problem, createRng(9), { goal: "state" });
  assert.equal(res.solved, true);
  assert.deepEqual(res.path![res.path!.length - 1], [...PATHEVAL_GOAL]);
});

test("limits: iterations and time give approximate paths; invalid start and goal are reported", () => {
  const problem = pathEvalProblem(WALLS, { radius: 1 });
  const few = rrt(problem, createRng(1), { maxIterations: 5 });
  assert.equal(few.solved, false);
  assert.equal(few.stop, "iterations");
  assert.equal(few.iterations, 5);
  if (few.path) assert.equal(few.approximate, true);
  const fewC = rrtConnect(problem, createRng(1), { maxIterations: 3 });
  assert.equal(fewC.solved, false);
  const timed = rrt(pathEvalProblem([rectanglePolygon(-40, -1, 40, 1)], { radius: 1 }), createRng(1), { timeLimitMs: 30 });
  assert.equal(timed.stop, "time");
  assert.equal(timed.reachesGoal, false);
  assert.ok(timed.path && timed.path.length >= 1);
  const blockedStart = pathEvalProblem([rectanglePolygon(-38, -38, -35, -35)], { radius: 1 });
  assert.equal(rrt(blockedStart, createRng(1)).stop, "invalid-start");
  assert.equal(rrtConnect(blockedStart, createRng(1)).stop, "invalid-start");
  const blockedGoal = pathEvalProblem([rectanglePolygon(35, 35, 38, 38)], { radius: 1 });
  assert.equal(rrtConnect(blockedGoal, createRng(1)).stop, "invalid-goal");
});

test("shortcutSimplify: endpoints kept, never longer, every segment exactly clear, deterministic", () => {
  const problem = pathEvalProblem(WALLS, { radius: 1, validity: "exact" });
  const exactMotion = createExactMotionValidator(WALLS, { radius: 1 });
  for (const seed of [1, 2, 3, 4]) {
    const raw = rrt(problem, createRng(seed)).path!;
    const simple = shortcutSimplify(raw, problem.isMotionValid, createRng(seed));
    assert.deepEqual(simple[0], raw[0]);
    assert.deepEqual(simple[simple.length - 1], raw[raw.length - 1]);
    assert.ok(length(simple) <= length(raw) + 1e-9, `${length(simple)} > ${length(raw)}`);
    for (let i = 1; i < simple.length; i++) assert.ok(exactMotion(...simple[i - 1]!, ...simple[i]!), `segment ${i}`);
    for (const p of simple) assert.ok(isDiscFree(WALLS, p[0], p[1], 1));
    assert.deepEqual(shortcutSimplify(raw, problem.isMotionValid, createRng(seed)), simple);

    // Without the metric steps only vertices are dropped: the result is a subsequence of the input.
    const reduced = shortcutSimplify(raw, problem.isMotionValid, createRng(seed), { metric: false });
    let j = 0;
    for (const p of reduced) {
      while (j < raw.length && (raw[j]![0] !== p[0] || raw[j]![1] !== p[1])) j++;
      assert.ok(j < raw.length, "vertex not from the input");
    }
    // With the goal, the end may move to the goal itself.
    const toGoal = shortcutSimplify(raw, problem.isMotionValid, createRng(seed), { goal: PATHEVAL_GOAL });
    const end = toGoal[toGoal.length - 1]!;
    assert.ok(Math.abs(end[0] - PATHEVAL_GOAL[0]) <= 1.5 && Math.abs(end[1] - PATHEVAL_GOAL[1]) <= 1.5);
  }
  // A straight free line collapses to its endpoints; short paths are returned as they are.
  const free = pathEvalProblem([], { radius: 1 });
  assert.deepEqual(shortcutSimplify([[0, 0], [1, 1], [2, 0], [3, 1], [4, 0]], free.isMotionValid, createRng(1)), [[0, 0], [4, 0]]);
  assert.deepEqual(shortcutSimplify([[0, 0], [1, 1]], free.isMotionValid, createRng(1)), [[0, 0], [1, 1]]);
  assert.deepEqual(shortcutSimplify([[0, 0], [0, 0], [1, 1], [1, 1], [2, 0]], free.isMotionValid, createRng(1)), [[0, 0], [2, 0]]);
  assert.deepEqual(shortcutSimplify([[0, 0], [0, 0], [1, 1]], free.isMotionValid, createRng(1)), [[0, 0], [1, 1]]);
});
