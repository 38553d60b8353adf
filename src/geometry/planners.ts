/**
 * Sampling-based planners in the plane, seeded and deterministic: RRT and RRT-Connect written after
 * OMPL's geometric::RRT and geometric::RRTConnect, and a path simplifier after OMPL's
 * PathSimplifier::simplifyMax, plus the PathEval planning problem.
 *
 * What follows OMPL (1.5.2, the Debian/Ubuntu version; the same code in later releases):
 *   - range (maximum extension per step): 0.2 * the space's maximum extent when not given
 *     (tools::SelfConfig::configurePlannerRange, magic::MAX_MOTION_LENGTH_AS_SPACE_EXTENT_FRACTION);
 *     for [-40, 40]^2 that is 0.2 * 113.137 = 22.627;
 *   - RRT: goal bias 0.05 (the goal state is the sample with that probability, else a uniform
 *     sample of the bounds, x then y), nearest tree node, a step of at most `range` towards the
 *     sample, kept when the motion is valid, then the goal test on the new node;
 *   - RRT-Connect: a start tree and a goal tree rooted at the goal, alternating; the tree whose turn
 *     it is grows one step towards a uniform sample, the other tree then extends towards the new node
 *     until trapped or reached; a new goal-tree node is checked as `isStateValid(new) &&
 *     isMotionValid(new -> nearest)`, as in OMPL; when the trees meet, the duplicated meeting state
 *     is dropped; approximate solutions track the start-tree node nearest to the goal (OMPL 1.6's
 *     bookkeeping; 1.5.2 could record a goal-tree node there; exact solutions are the same).
 *   - Nearest neighbours are exact (a bucket grid searched ring by ring), like OMPL's GNAT default;
 *     ties go to the first node found.
 * What differs: OMPL's random stream is not reproduced (the Rng is injected); planning is in 2-D,
 * so the release's SE2 yaw (which adds 0.5 * |dyaw| to distances and refines the motion checks) is
 * not modelled; the goal test is the PathEval box (|x - gx| <= tol and |y - gy| <= tol) by default,
 * or OMPL's GoalState (`goal: "state"`, distance <= machine epsilon) to mirror the release's planner
 * followed by its box filter.
 */
import {
  createDiscreteMotionValidator,
  createExactMotionValidator,
  createStateValidityChecker,
  ObstacleIndex,
  PATHEVAL_BORDER,
  realVectorMaximumExtent,
  RELEASE_VALIDITY_RESOLUTION,
  type MotionValidityFn,
  type StateValidityFn,
} from "./collision.js";
import type { Polygon } from "./polygon.js";
import type { Rect } from "./rect.js";
import type { Rng } from "../stats/rng.js";

export type Vec2 = [number, number];

/** PathEval's start and goal (every environment of the release). */
export const PATHEVAL_START: Readonly<Vec2> = Object.freeze([-36.6031, -36.4332]) as Readonly<Vec2>;
export const PATHEVAL_GOAL: Readonly<Vec2> = Object.freeze([36.0982, 36.363]) as Readonly<Vec2>;
/** A path reaches the goal when its last point is within this of the goal on each axis. */
export const PATHEVAL_GOAL_TOLERANCE = 1.5;

/** OMPL's MAX_MOTION_LENGTH_AS_SPACE_EXTENT_FRACTION. */
export const OMPL_RANGE_FRACTION = 0.2;
/** OMPL RRT's default goal bias. */
export const OMPL_GOAL_BIAS = 0.05;
/** GoalState's default threshold in SimpleSetup::setStartAndGoalStates (machine epsilon). */
export const OMPL_GOAL_THRESHOLD = Number.EPSILON;

/**
 * The release's space: OMPL SE2 with position bounds [-100, 100]^2 (GeneratePaths.cpp). Maximum
 * extent = 1.0 * 282.843 (position) + 0.5 * pi (yaw) = 284.414, so the default range is 56.883;
 * the position component's longest valid segment is 0.003 * 282.843 = 0.8485.
 */
export const RELEASE_SE2_SPACE = Object.freeze({
  bounds: Object.freeze({ minX: -100, minY: -100, maxX: 100, maxY: 100 }) as Rect,
  maximumExtent: realVectorMaximumExtent({ minX: -100, minY: -100, maxX: 100, maxY: 100 }) + 0.5 * Math.PI,
  longestValidSegment: RELEASE_VALIDITY_RESOLUTION * realVectorMaximumExtent({ minX: -100, minY: -100, maxX: 100, maxY: 100 }),
});

export interface PlanningProblem {
  /** The state space's bounds: uniform samples are drawn here. */
  bounds: Rect;
  start: Readonly<Vec2>;
  goal: Readonly<Vec2>;
  /** Half-size of the goal box (default 1.5). */
  goalTolerance?: number;
  /** Maximum extent of the space, for the default range (default: the bounds' diagonal). */
  maximumExtent?: number;
  isStateValid: StateValidityFn;
  /** Validity of the motion from a valid state a to b. */
  isMotionValid: MotionValidityFn;
}

export interface PlannerOptions {
  /** Longest step; default 0.2 * maximum extent (OMPL). */
  range?: number;
  /** RRT only: probability of sampling the goal (default 0.05). */
  goalBias?: number;
  /** Stop after this many iterations (default 1,000,000). */
  maxIterations?: number;
  /** Stop after this much wall time in milliseconds (default: none; the release used 26 s). */
  timeLimitMs?: number;
  /** "box" (PathEval's per-axis tolerance, default) or "state" (OMPL GoalState: exact goal). */
  goal?: "box" | "state";
}

export interface PlanResult {
  /** The solution path (start first), the approximate one when not solved, or null. */
  path: Vec2[] | null;
  /** An exact solution for the goal test in force. */
  solved: boolean;
  /** `path` is the best partial path (closest to the goal), not a solution. */
  approximate: boolean;
  /** The path's last point is within the goal tolerance on each axis (PathEval's filter). */
  reachesGoal: boolean;
  iterations: number;
  /** Tree nodes created (both trees for RRT-Connect). */
  states: number;
  elapsedMs: number;
  stop: "solved" | "iterations" | "time" | "invalid-start" | "invalid-goal";
}

// ------------------------------------------------------------------ nearest neighbours

/**
 * A tree of points with exact nearest-neighbour queries: a bucket grid over the bounds, searched
 * ring by ring outward from the query's cell (rings that cannot beat the best distance so far, and
 * rings outside the occupied cells, are skipped). Ties go to the first point met.
 */
export class NearestNeighborTree {
  xs: Float64Array;
  ys: Float64Array;
  parent: Int32Array;
  private next: Int32Array;
  private readonly head: Int32Array;
  size = 0;
  private readonly ox: number;
  private readonly oy: number;
  private readonly cs: number;
  private readonly nx: number;
  private readonly ny: number;
  private iMin = Infinity;
  private iMax = -Infinity;
  private jMin = Infinity;
  private jMax = -Infinity;

  constructor(bounds: Rect) {
    const w = bounds.maxX - bounds.minX;
    const h = bounds.maxY - bounds.minY;
    this.cs = Math.max(w, h) / 64 || 1;
    this.ox = bounds.minX;
    this.oy = bounds.minY;
    this.nx = Math.max(1, Math.ceil(w / this.cs));
    this.ny = Math.max(1, Math.ceil(h / this.cs));
    this.head = new Int32Array(this.nx * this.ny).fill(-1);
    this.xs = new Float64Array(1024);
    this.ys = new Float64Array(1024);
    this.parent = new Int32Array(1024);
    this.next = new Int32Array(1024);
  }

  private col(x: number): number {
    const i = Math.floor((x - this.ox) / this.cs);
    return i < 0 ? 0 : i >= this.nx ? this.nx - 1 : i;
  }

  private row(y: number): number {
    const j = Math.floor((y - this.oy) / this.cs);
    return j < 0 ? 0 : j >= this.ny ? this.ny - 1 : j;
  }

  add(x: number, y: number, parent: number): number {
    if (this.size === this.xs.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      const growI = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.xs = grow(this.xs);
      this.ys = grow(this.ys);
      this.parent = growI(this.parent);
      this.next = growI(this.next);
    }
    const id = this.size++;
    this.xs[id] = x;
    this.ys[id] = y;
    this.parent[id] = parent;
    const i = this.col(x);
    const j = this.row(y);
    const c = j * this.nx + i;
    this.next[id] = this.head[c]!;
    this.head[c] = id;
    if (i < this.iMin) this.iMin = i;
    if (i > this.iMax) this.iMax = i;
    if (j < this.jMin) this.jMin = j;
    if (j > this.jMax) this.jMax = j;
    return id;
  }

  nearest(qx: number, qy: number): number {
    const ci = this.col(qx);
    const cj = this.row(qy);
    const k0 = Math.max(0, this.iMin - ci, ci - this.iMax, this.jMin - cj, cj - this.jMax);
    const kMax = Math.max(ci - this.iMin, this.iMax - ci, cj - this.jMin, this.jMax - cj);
    let best = -1;
    let bestD = Infinity;
    const scan = (c: number) => {
      for (let id = this.head[c]!; id !== -1; id = this.next[id]!) {
        const dx = this.xs[id]! - qx;
        const dy = this.ys[id]! - qy;
        const d = dx * dx + dy * dy;
        if (d < bestD) {
          bestD = d;
          best = id;
        }
      }
    };
    for (let k = k0; k <= kMax; k++) {
      if (best >= 0 && k > 0) {
        // Every point of ring k lies outside the block of cells within k - 1 of (ci, cj).
        const x0 = this.ox + (ci - k + 1) * this.cs;
        const x1 = this.ox + (ci + k) * this.cs;
        const y0 = this.oy + (cj - k + 1) * this.cs;
        const y1 = this.oy + (cj + k) * this.cs;
        const lb = Math.max(0, Math.min(qx - x0, x1 - qx, qy - y0, y1 - qy));
        if (lb * lb > bestD) break;
      }
      const i0 = Math.max(ci - k, this.iMin);
      const i1 = Math.min(ci + k, this.iMax);
      if (k === 0) {
        scan(cj * this.nx + ci);
        continue;
      }
      if (cj - k >= this.jMin) for (let i = i0; i <= i1; i++) scan((cj - k) * this.nx + i);
      if (cj + k <= this.jMax) for (let i = i0; i <= i1; i++) scan((cj + k) * this.nx + i);
      const j0 = Math.max(cj - k + 1, this.jMin);
      const j1 = Math.min(cj + k - 1, this.jMax);
      if (ci - k >= this.iMin) for (let j = j0; j <= j1; j++) scan(j * this.nx + ci - k);
      if (ci + k <= this.iMax) for (let j = j0; j <= j1; j++) scan(j * this.nx + ci + k);
    }
    return best;
  }

  /** Root-first path to node `id`. */
  pathTo(id: number): Vec2[] {
    const out: Vec2[] = [];
    for (let n = id; n !== -1; n = this.parent[n]!) out.push([this.xs[n]!, this.ys[n]!]);
    return out.reverse();
  }
}

// ------------------------------------------------------------------ planners

interface Settings {
  range: number;
  maxIterations: number;
  deadline: number;
  tol: number;
  goalMode: "box" | "state";
  t0: number;
}

function settings(problem: PlanningProblem, options: PlannerOptions): Settings {
  const extent = problem.maximumExtent ?? realVectorMaximumExtent(problem.bounds);
  const range = options.range ?? OMPL_RANGE_FRACTION * extent;
  if (!(range > 0)) throw new RangeError(`range must be positive, got ${range}`);
  const t0 = performance.now();
  return {
    range,
    maxIterations: options.maxIterations ?? 1_000_000,
    deadline: options.timeLimitMs === undefined ? Infinity : t0 + options.timeLimitMs,
    tol: problem.goalTolerance ?? PATHEVAL_GOAL_TOLERANCE,
    goalMode: options.goal ?? "box",
    t0,
  };
}

function inGoalBox(p: Readonly<Vec2>, goal: Readonly<Vec2>, tol: number): boolean {
  return Math.abs(p[0] - goal[0]) <= tol && Math.abs(p[1] - goal[1]) <= tol;
}

function failed(stop: PlanResult["stop"], s: Settings): PlanResult {
  return { path: null, solved: false, approximate: false, reachesGoal: false, iterations: 0, states: 0, elapsedMs: performance.now() - s.t0, stop };
}

function finish(path: Vec2[] | null, solved: boolean, problem: PlanningProblem, s: Settings, iterations: number, states: number, stop: PlanResult["stop"]): PlanResult {
  const last = path?.[path.length - 1];
  return {
    path,
    solved,
    approximate: !solved && path !== null,
    reachesGoal: last !== undefined && inGoalBox(last, problem.goal, s.tol),
    iterations,
    states,
    elapsedMs: performance.now() - s.t0,
    stop,
  };
}

/** RRT (OMPL geometric::RRT without intermediate states). */
export function rrt(problem: PlanningProblem, rng: Rng, options: PlannerOptions = {}): PlanResult {
  const s = settings(problem, options);
  const goalBias = options.goalBias ?? OMPL_GOAL_BIAS;
  const [sx, sy] = problem.start;
  const [gx, gy] = problem.goal;
  if (!problem.isStateValid(sx, sy)) return failed("invalid-start", s);
  const { minX, maxX, minY, maxY } = problem.bounds;
  const tree = new NearestNeighborTree(problem.bounds);
  tree.add(sx, sy, -1);
  const satisfied = (x: number, y: number): boolean =>
    s.goalMode === "box"
      ? Math.abs(x - gx) <= s.tol && Math.abs(y - gy) <= s.tol
      : Math.sqrt((x - gx) * (x - gx) + (y - gy) * (y - gy)) <= OMPL_GOAL_THRESHOLD;
  // As OMPL: only added nodes can become the approximate solution.
  let approx = -1;
  let approxD = Infinity;
  if (satisfied(sx, sy)) return finish([[sx, sy]], true, problem, s, 0, 1, "solved");
  let it = 0;
  let stop: PlanResult["stop"] = "iterations";
  while (it < s.maxIterations) {
    if ((it & 63) === 0 && performance.now() >= s.deadline) {
      stop = "time";
      break;
    }
    it++;
    let rx: number;
    let ry: number;
    if (rng.next() < goalBias) {
      rx = gx;
      ry = gy;
    } else {
      rx = rng.float(minX, maxX);
      ry = rng.float(minY, maxY);
    }
    const n = tree.nearest(rx, ry);
    const nx = tree.xs[n]!;
    const ny = tree.ys[n]!;
    const dx = rx - nx;
    const dy = ry - ny;
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d > s.range) {
      const t = s.range / d;
      rx = nx + dx * t;
      ry = ny + dy * t;
    }
    if (!problem.isMotionValid(nx, ny, rx, ry)) continue;
    const id = tree.add(rx, ry, n);
    if (satisfied(rx, ry)) return finish(tree.pathTo(id), true, problem, s, it, tree.size, "solved");
    const gd = Math.sqrt((rx - gx) * (rx - gx) + (ry - gy) * (ry - gy));
    if (gd < approxD) {
      approxD = gd;
      approx = id;
    }
  }
  return finish(approx < 0 ? null : tree.pathTo(approx), false, problem, s, it, tree.size, stop);
}

const TRAPPED = 0;
const ADVANCED = 1;
const REACHED = 2;

/** RRT-Connect (OMPL geometric::RRTConnect without intermediate states). */
export function rrtConnect(problem: PlanningProblem, rng: Rng, options: PlannerOptions = {}): PlanResult {
  const s = settings(problem, options);
  const [sx, sy] = problem.start;
  const [gx, gy] = problem.goal;
  if (!problem.isStateValid(sx, sy)) return failed("invalid-start", s);
  if (!problem.isStateValid(gx, gy)) return failed("invalid-goal", s);
  const { minX, maxX, minY, maxY } = problem.bounds;
  const { isStateValid, isMotionValid } = problem;
  const tStart = new NearestNeighborTree(problem.bounds);
  const tGoal = new NearestNeighborTree(problem.bounds);
  tStart.add(sx, sy, -1);
  tGoal.add(gx, gy, -1);
  const range = s.range;

  // The node added by the last successful grow.
  let xmotion = -1;
  const grow = (tree: NearestNeighborTree, fromStart: boolean, rx: number, ry: number): number => {
    const n = tree.nearest(rx, ry);
    const nx = tree.xs[n]!;
    const ny = tree.ys[n]!;
    let x = rx;
    let y = ry;
    let reach = true;
    const dx = rx - nx;
    const dy = ry - ny;
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d > range) {
      const t = range / d;
      x = nx + dx * t;
      y = ny + dy * t;
      if (x === nx && y === ny) return TRAPPED;
      reach = false;
    }
    const valid = fromStart ? isMotionValid(nx, ny, x, y) : isStateValid(x, y) && isMotionValid(x, y, nx, ny);
    if (!valid) return TRAPPED;
    xmotion = tree.add(x, y, n);
    return reach ? REACHED : ADVANCED;
  };

  let startTree = true;
  let approx = -1;
  let approxD = Infinity;
  let it = 0;
  let stop: PlanResult["stop"] = "iterations";
  while (it < s.maxIterations) {
    if ((it & 63) === 0 && performance.now() >= s.deadline) {
      stop = "time";
      break;
    }
    it++;
    const tree = startTree ? tStart : tGoal;
    let tgiStart = startTree;
    startTree = !startTree;
    const other = startTree ? tStart : tGoal;

    let rx = rng.float(minX, maxX);
    let ry = rng.float(minY, maxY);
    const gs = grow(tree, tgiStart, rx, ry);
    if (gs === TRAPPED) continue;
    const added = xmotion;
    if (gs !== REACHED) {
      rx = tree.xs[added]!;
      ry = tree.ys[added]!;
    }
    tgiStart = startTree;
    let gsc = grow(other, tgiStart, rx, ry);
    if (gsc === TRAPPED) tgiStart = !tgiStart;
    while (gsc === ADVANCED) gsc = grow(other, tgiStart, rx, ry);

    let startMotion = tgiStart ? xmotion : added;
    let goalMotion = tgiStart ? added : xmotion;
    if (gsc === REACHED) {
      // The meeting state is in both trees: step back once on one side.
      if (tStart.parent[startMotion] !== -1) startMotion = tStart.parent[startMotion]!;
      else goalMotion = tGoal.parent[goalMotion]!;
      const path = tStart.pathTo(startMotion);
      const back = tGoal.pathTo(goalMotion).reverse();
      for (const p of back) path.push(p);
      return finish(path, true, problem, s, it, tStart.size + tGoal.size, "solved");
    }
    if (tgiStart) {
      const x = tStart.xs[xmotion]!;
      const y = tStart.ys[xmotion]!;
      const gd = Math.sqrt((x - gx) * (x - gx) + (y - gy) * (y - gy));
      if (gd < approxD) {
        approxD = gd;
        approx = xmotion;
      }
    }
  }
  const path = approx < 0 ? null : tStart.pathTo(approx);
  return finish(path, false, problem, s, it, tStart.size + tGoal.size, stop);
}

// ------------------------------------------------------------------ simplification

export interface SimplifyOptions {
  /**
   * Run OMPL's metric-space steps, partial shortcutting (PathSimplifier::shortcutPath, up to 6
   * rounds while it changes the path) and B-spline smoothing (3 steps, minimum change length/100).
   * Default true, as OMPL does for the release's SE2 space. With false only reduceVertices and
   * collapseCloseVertices run.
   */
  metric?: boolean;
  /** When given, also OMPL's findBetterGoal with a single goal state (10 samples). */
  goal?: Readonly<Vec2>;
  /** Safety cap on the outer loop (OMPL has none under simplifyMax). Default 1000. */
  maxRounds?: number;
}

interface Vertex {
  x: number;
  y: number;
  id: number;
}

/**
 * Simplifies a valid path the way OMPL's PathSimplifier::simplifyMax does (SimpleSetup::
 * simplifySolution() with no time limit, as GeneratePaths.cpp calls it), in the plane with path
 * length as the cost. Each round:
 *   1. (metric) shortcutPath: random pairs of points along the path (the second within 0.33 of the
 *      length of the first, snapping to vertices within 0.005 of the length) are joined when the
 *      motion is valid and no longer than the path between them; repeated while it changes the
 *      path, at most 6 times (with `goal`, findBetterGoal runs alongside);
 *   2. (metric) smoothBSpline: up to 3 steps of subdividing every segment and moving each inserted
 *      vertex's neighbour to the midpoint of its neighbours' midpoints when both new motions are
 *      valid and the move exceeds length / 100;
 *   3. reduceVertices: random vertex pairs (within 1 + round(0.33 n) positions) are joined when the
 *      motion is valid, first trying start -> goal; up to n tries, stopping after n fruitless ones;
 *   4. collapseCloseVertices: the closest non-adjacent pair is joined when valid (else never tried
 *      again), up to n times;
 *   5. reduceVertices again, up to 5 times while it changes the path.
 * Rounds repeat while the last reduceVertices changed the path. checkAndRepair is not run: every
 * step keeps a valid path valid, so it would do nothing. The endpoints never move (except to the
 * goal with `goal`). `isMotionValid(a, b)` may assume a is valid. Consecutive repeated points are
 * dropped first.
 */
export function shortcutSimplify(path: readonly Readonly<Vec2>[], isMotionValid: MotionValidityFn, rng: Rng, options: SimplifyOptions = {}): Vec2[] {
  const metric = options.metric ?? true;
  const maxRounds = options.maxRounds ?? 1000;
  let nextId = 0;
  const V = (x: number, y: number): Vertex => ({ x, y, id: nextId++ });
  // Consecutive repeats would make zero-length segments (0 / 0 when interpolating): drop them.
  let st: Vertex[] = [];
  for (const p of path) {
    const last = st[st.length - 1];
    if (!last || last.x !== p[0] || last.y !== p[1]) st.push(V(p[0], p[1]));
  }
  if (st.length < 3) return st.map((v) => [v.x, v.y]);

  const dist = (a: Vertex, b: Vertex) => Math.sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
  const motion = (a: Vertex, b: Vertex) => isMotionValid(a.x, a.y, b.x, b.y);
  const lerp = (a: Vertex, b: Vertex, t: number) => V(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
  const length = () => {
    let L = 0;
    for (let i = 1; i < st.length; i++) L += dist(st[i - 1]!, st[i]!);
    return L;
  };
  const cumulative = () => {
    const d = new Float64Array(st.length);
    for (let i = 1; i < st.length; i++) d[i] = d[i - 1]! + dist(st[i - 1]!, st[i]!);
    return d;
  };
  // First index with d[i] >= t (std::lower_bound), or d.length.
  const lowerBound = (d: Float64Array, t: number) => {
    let lo = 0;
    let hi = d.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (d[m]! < t) lo = m + 1;
      else hi = m;
    }
    return lo;
  };

  const reduceVertices = (rangeRatio = 0.33): boolean => {
    if (st.length < 3) return false;
    const maxSteps = st.length;
    const maxEmpty = st.length;
    if (motion(st[0]!, st[st.length - 1]!)) {
      st = [st[0]!, st[st.length - 1]!];
      return true;
    }
    let result = false;
    let nochange = 0;
    for (let i = 0; i < maxSteps && nochange < maxEmpty; ++i, ++nochange) {
      const count = st.length;
      const maxN = count - 1;
      const range = 1 + Math.floor(0.5 + count * rangeRatio);
      let p1 = rng.int(0, maxN);
      let p2 = rng.int(Math.max(p1 - range, 0), Math.min(maxN, p1 + range));
      if (Math.abs(p1 - p2) < 2) {
        if (p1 < maxN - 1) p2 = p1 + 2;
        else if (p1 > 1) p2 = p1 - 2;
        else continue;
      }
      if (p1 > p2) [p1, p2] = [p2, p1];
      if (motion(st[p1]!, st[p2]!)) {
        st.splice(p1 + 1, p2 - p1 - 1);
        nochange = 0;
        result = true;
      }
    }
    return result;
  };

  const collapseCloseVertices = (): boolean => {
    if (st.length < 3) return false;
    const maxSteps = st.length;
    const maxEmpty = st.length;
    // Pair distances keyed by vertex identity (OMPL keys them by state pointer), so a pair that
    // failed stays at Infinity for the rest of the call while indices shift.
    const n0 = st.length;
    const local = new Map<Vertex, number>(st.map((v, i) => [v, i]));
    const pairDist = new Float64Array(n0 * n0);
    for (let i = 0; i < n0; i++) for (let j = i + 2; j < n0; j++) pairDist[i * n0 + j] = dist(st[i]!, st[j]!);
    const key = (a: Vertex, b: Vertex) => local.get(a)! * n0 + local.get(b)!;
    let result = false;
    let nochange = 0;
    for (let s = 0; s < maxSteps && nochange < maxEmpty; ++s, ++nochange) {
      let minDist = Infinity;
      let p1 = -1;
      let p2 = -1;
      for (let i = 0; i < st.length; i++) {
        for (let j = i + 2; j < st.length; j++) {
          const d = pairDist[key(st[i]!, st[j]!)]!;
          if (d < minDist) {
            minDist = d;
            p1 = i;
            p2 = j;
          }
        }
      }
      if (p1 < 0) break;
      if (motion(st[p1]!, st[p2]!)) {
        st.splice(p1 + 1, p2 - p1 - 1);
        result = true;
        nochange = 0;
      } else pairDist[key(st[p1]!, st[p2]!)] = Infinity;
    }
    return result;
  };

  const shortcutPath = (rangeRatio = 0.33, snapToVertex = 0.005): boolean => {
    if (st.length < 3) return false;
    const maxSteps = st.length;
    const maxEmpty = st.length;
    let dists = cumulative();
    let total = dists[dists.length - 1]!;
    let threshold = total * snapToVertex;
    let rd = rangeRatio * total;
    let result = false;
    let nochange = 0;
    const locate = (t: number): { pos: number; index: number } => {
      const lb = lowerBound(dists, t);
      let pos = lb === dists.length ? dists.length - 1 : lb;
      let index = -1;
      if (pos === 0 || dists[pos]! - t < threshold) index = pos;
      else {
        while (pos > 0 && t < dists[pos]!) --pos;
        if (t - dists[pos]! < threshold) index = pos;
      }
      return { pos, index };
    };
    for (let i = 0; i < maxSteps && nochange < maxEmpty; ++i, ++nochange) {
      const t0 = rng.float(0, total);
      let { pos: pos0, index: index0 } = locate(t0);
      const t1 = rng.float(Math.max(0, t0 - rd), Math.min(t0 + rd, total));
      let { pos: pos1, index: index1 } = locate(t1);
      if (pos0 === pos1 || index0 === pos1 || index1 === pos0 || pos0 + 1 === index1 || pos1 + 1 === index0 || (index0 >= 0 && index1 >= 0 && Math.abs(index0 - index1) < 2)) continue;
      let s0 = index0 >= 0 ? st[index0]! : lerp(st[pos0]!, st[pos0 + 1]!, (t0 - dists[pos0]!) / (dists[pos0 + 1]! - dists[pos0]!));
      let s1 = index1 >= 0 ? st[index1]! : lerp(st[pos1]!, st[pos1 + 1]!, (t1 - dists[pos1]!) / (dists[pos1 + 1]! - dists[pos1]!));
      if (!motion(s0, s1)) continue;
      if (pos0 > pos1) {
        [pos0, pos1] = [pos1, pos0];
        [index0, index1] = [index1, index0];
        [s0, s1] = [s1, s0];
      }
      // OMPL's bookkeeping, kept as is: a snapped s0 contributes nothing, so the segment from
      // vertex pos0 to pos0 + 1 is left out of the cost along the path.
      let along = index0 >= 0 ? 0 : dist(s0, st[pos0 + 1]!);
      for (let p = pos0 + 1; p < pos1; p++) along += dist(st[p]!, st[p + 1]!);
      along += index1 >= 0 ? 0 : dist(st[pos1]!, s1);
      if (along < dist(s0, s1)) continue;
      if (index0 < 0 && index1 < 0) {
        if (pos0 + 1 === pos1) {
          st[pos1] = V(s0.x, s0.y);
          st.splice(pos1 + 1, 0, V(s1.x, s1.y));
        } else {
          st[pos0 + 1] = V(s0.x, s0.y);
          st[pos1] = V(s1.x, s1.y);
          st.splice(pos0 + 2, pos1 - pos0 - 2);
        }
      } else if (index0 >= 0 && index1 >= 0) {
        st.splice(index0 + 1, index1 - index0 - 1);
      } else if (index0 < 0 && index1 >= 0) {
        st[pos0 + 1] = V(s0.x, s0.y);
        st.splice(pos0 + 2, index1 - pos0 - 2);
      } else {
        st[pos1] = V(s1.x, s1.y);
        st.splice(index0 + 1, pos1 - index0 - 1);
      }
      dists = cumulative();
      total = dists[dists.length - 1]!;
      threshold = total * snapToVertex;
      rd = rangeRatio * total;
      result = true;
      nochange = 0;
    }
    return result;
  };

  const findBetterGoal = (goal: Readonly<Vec2>, samplingAttempts = 10, rangeRatio = 0.33, snapToVertex = 0.005): boolean => {
    if (st.length < 2) return false;
    const g = V(goal[0], goal[1]);
    let dists = cumulative();
    const total = dists[dists.length - 1]!;
    const threshold = total * snapToVertex;
    const rd = rangeRatio * total;
    for (let n = 0; n < samplingAttempts; n++) {
      const t = rng.float(Math.max(total - rd, 0), total);
      let end = lowerBound(dists, t);
      if (end === dists.length) end = dists.length - 1;
      let start = end;
      while (start !== 0 && dists[start]! >= t) start -= 1;
      let startIndex = start;
      let endIndex = end;
      if (t - dists[start]! < threshold) endIndex = startIndex;
      if (dists[end]! - t < threshold) startIndex = endIndex;
      let costToCome = dists[startIndex]!;
      let state: Vertex;
      if (startIndex === endIndex) state = st[startIndex]!;
      else {
        state = lerp(st[startIndex]!, st[endIndex]!, (t - dists[start]!) / (dists[end]! - dists[start]!));
        costToCome += dist(st[startIndex]!, state);
      }
      if (costToCome + dist(state, g) < total && motion(state, g)) {
        if (startIndex === endIndex) st = [...st.slice(0, startIndex + 1), g];
        else st = [...st.slice(0, endIndex), V(state.x, state.y), g];
        dists = cumulative();
        return true;
      }
    }
    return false;
  };

  const smoothBSpline = (maxSteps: number, minChange: number): void => {
    if (st.length < 3) return;
    for (let s = 0; s < maxSteps; ++s) {
      const sub: Vertex[] = [st[0]!];
      for (let i = 1; i < st.length; i++) {
        sub.push(lerp(sub[sub.length - 1]!, st[i]!, 0.5));
        sub.push(st[i]!);
      }
      st = sub;
      let u = 0;
      const n1 = st.length - 1;
      for (let i = 2; i < n1; i += 2) {
        const a = lerp(st[i - 1]!, st[i]!, 0.5);
        const b = lerp(st[i]!, st[i + 1]!, 0.5);
        const m = lerp(a, b, 0.5);
        // OMPL checks both motions first; the outcome is the same, the distance test is cheaper.
        if (dist(st[i]!, m) > minChange && motion(st[i - 1]!, m) && motion(m, st[i + 1]!)) {
          st[i] = m;
          ++u;
        }
      }
      if (u === 0) break;
    }
  };

  let tryMore = true;
  for (let round = 0; tryMore && round < maxRounds; round++) {
    if (metric) {
      let times = 0;
      let more: boolean;
      do {
        const shortcut = shortcutPath();
        const better = options.goal ? findBetterGoal(options.goal) : false;
        more = shortcut || better;
      } while (++times <= 5 && more);
      smoothBSpline(3, length() / 100);
    }
    tryMore = reduceVertices();
    collapseCloseVertices();
    let times = 0;
    while (tryMore && ++times <= 5) tryMore = reduceVertices();
  }
  return st.map((v) => [v.x, v.y]);
}

// ------------------------------------------------------------------ the PathEval problem

export interface PathEvalProblemOptions {
  /** Robot radius (the release draws it from U(0.5, 1.5) per run). */
  radius: number;
  /** State validity: "release" (20 circle points, default) or "exact" (analytic disc). */
  validity?: "release" | "exact";
  /** Motion validity: "discrete" (OMPL, default for release validity) or "exact" (default for exact validity). */
  motion?: "discrete" | "exact";
  /**
   * "2d" (default): bounds [-40, 40]^2, extent 113.137, range 22.627, longest valid segment 0.3394.
   * "release-se2": the release's sampling bounds [-100, 100]^2 with its SE2 extent (range 56.883)
   * and position resolution (0.8485), yaw left out.
   */
  space?: "2d" | "release-se2";
  /** State-validity-checking resolution (default 0.003, as released). */
  resolution?: number;
  start?: Readonly<Vec2>;
  goal?: Readonly<Vec2>;
  goalTolerance?: number;
}

export interface PathEvalProblem extends PlanningProblem {
  index: ObstacleIndex;
  radius: number;
  maximumExtent: number;
  /** Default planner range, 0.2 * maximumExtent. */
  range: number;
  /** The discrete motion validator's step (resolution * extent of the position space). */
  longestValidSegment: number;
}

/** The PathEval planning problem for a disc robot among `obstacles`, with the release's parameters. */
export function pathEvalProblem(obstacles: ObstacleIndex | readonly Polygon[], options: PathEvalProblemOptions): PathEvalProblem {
  const index = obstacles instanceof ObstacleIndex ? obstacles : new ObstacleIndex(obstacles);
  const validity = options.validity ?? "release";
  const motion = options.motion ?? (validity === "exact" ? "exact" : "discrete");
  const resolution = options.resolution ?? RELEASE_VALIDITY_RESOLUTION;
  const space = options.space ?? "2d";
  let bounds: Rect;
  let maximumExtent: number;
  let longestValidSegment: number;
  if (space === "release-se2") {
    bounds = RELEASE_SE2_SPACE.bounds;
    maximumExtent = RELEASE_SE2_SPACE.maximumExtent;
    longestValidSegment = resolution * realVectorMaximumExtent(bounds);
  } else {
    bounds = PATHEVAL_BORDER;
    maximumExtent = realVectorMaximumExtent(bounds);
    longestValidSegment = resolution * maximumExtent;
  }
  const isStateValid = createStateValidityChecker(index, { radius: options.radius, mode: validity });
  const isMotionValid =
    motion === "exact"
      ? createExactMotionValidator(index, { radius: options.radius })
      : createDiscreteMotionValidator(isStateValid, longestValidSegment);
  return {
    index,
    radius: options.radius,
    bounds,
    start: options.start ?? PATHEVAL_START,
    goal: options.goal ?? PATHEVAL_GOAL,
    goalTolerance: options.goalTolerance ?? PATHEVAL_GOAL_TOLERANCE,
    maximumExtent,
    range: OMPL_RANGE_FRACTION * maximumExtent,
    longestValidSegment,
    isStateValid,
    isMotionValid,
  };
}
