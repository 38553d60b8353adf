/**
 * The built-in simulator's motion (pure): the discrete actions of Habitat-style navigation on the
 * robot's plan grid (robot.ts robotGrid: obstacles inflated by the 0.17 m base radius, so the
 * robot is a point on it). Plan coordinates: metres, x east, y north; yaw counter-clockwise from +x.
 *
 * Rules:
 * - FORWARD moves `forwardM` (0.25 m) along the yaw. The straight path is checked at n equal
 *   increments of at most half a grid cell (n = ceil(forwardM / (cell / 2)), 10 at 0.05 m cells);
 *   a point is free when the half-open cell holding it is free (grid.ts isFreePoint). At the first
 *   increment that is not free the robot stops at the increment before it (the last free point)
 *   and the action is `collided`. There is no sliding along the obstacle (habitat-sim slides by
 *   default; we keep the move straight so the stop point is a pure function of the pose). A path
 *   may cut through the corner of an occupied cell by less than a half cell without being stopped;
 *   every position the robot takes is free.
 * - TURN_LEFT / TURN_RIGHT add / subtract `turnDeg` (30 degrees). The yaw is always the start yaw
 *   plus a whole number of turns (reduced modulo a full circle when the turn divides 360 degrees),
 *   never an accumulated sum, so twelve left turns return to the start yaw exactly.
 * - STOP ends the episode ("stop").
 * - Action limit (§3.1): every action counts, STOP included; after `maxActions` actions the episode
 *   ends ("action-limit") unless that last action was STOP. The last action is carried out first.
 * - Start: a start in an occupied cell moves to the nearest free cell centre within 0.5 m (as
 *   habitat-sim snaps a point to its navmesh); farther from free floor the start is refused.
 */
import { MAX_EPISODE_ACTIONS } from "../core/limits.js";
import { cellCenter, isFreeCell, isFreePoint, worldToCell, type OccupancyGrid } from "../world/space/index.js";
import type { Vec2 } from "../world/types.js";
import type { EpisodeEnd, NavAction } from "./types.js";

export interface MotionRules {
  /** Length of one FORWARD, metres. */
  forwardM: number;
  /** Angle of one turn, degrees. */
  turnDeg: number;
  /** Actions after which the episode ends (STOP included). */
  maxActions: number;
}

/** The robot's actions: FORWARD 0.25 m, turns of 30 degrees, at most 1,000 actions an episode. */
export const ROBOT_MOTION: Readonly<MotionRules> = Object.freeze({ forwardM: 0.25, turnDeg: 30, maxActions: 1000 });

/** How far a start may be moved onto free floor (metres). */
export const START_SNAP_M = 0.5;

export interface MotionState {
  /** Plan position, metres; always in a free cell. */
  position: Vec2;
  /** Yaw at the start, radians. */
  startYaw: number;
  /** Net left turns since the start (reduced modulo a full circle when the turn divides 360 degrees). */
  turns: number;
  /** Actions taken. */
  actions: number;
  /** Why the episode ended, or null while it runs. */
  end: EpisodeEnd | null;
}

export interface MotionResult {
  state: MotionState;
  /** The action was cut short by an obstacle (FORWARD only). */
  collided: boolean;
}

export function checkRules(rules: MotionRules): void {
  if (!(rules.forwardM > 0) || !Number.isFinite(rules.forwardM)) throw new RangeError(`forward step must be a positive number of metres, got ${rules.forwardM}`);
  if (!(rules.turnDeg > 0 && rules.turnDeg <= 180)) throw new RangeError(`turn step must be in (0, 180] degrees, got ${rules.turnDeg}`);
  if (!Number.isSafeInteger(rules.maxActions) || rules.maxActions < 1 || rules.maxActions > MAX_EPISODE_ACTIONS) {
    throw new RangeError(`max actions must be a whole number from 1 to ${MAX_EPISODE_ACTIONS}, got ${rules.maxActions}`);
  }
}

/** Turns in a full circle when the turn divides 360 degrees, else null. */
function turnsPerCircle(turnDeg: number): number | null {
  const n = 360 / turnDeg;
  return Number.isInteger(n) ? n : null;
}

/** The yaw of a state: start yaw plus its whole number of turns. */
export function yawOf(state: Pick<MotionState, "startYaw" | "turns">, turnDeg: number): number {
  return state.startYaw + (state.turns * turnDeg * Math.PI) / 180;
}

/** Increments of one FORWARD: at most half a grid cell each. */
export function forwardIncrements(grid: Pick<OccupancyGrid, "cellSize">, forwardM: number): number {
  return Math.max(1, Math.ceil(forwardM / (grid.cellSize / 2) - 1e-9));
}

/**
 * One FORWARD from `position` along `yaw` (see the file comment): the farthest increment before
 * the first one that is not free, and whether the move was cut short.
 */
export function forwardMove(grid: OccupancyGrid, position: Vec2, yaw: number, forwardM: number): { position: Vec2; collided: boolean } {
  const n = forwardIncrements(grid, forwardM);
  const dx = Math.cos(yaw), dy = Math.sin(yaw);
  let reached: Vec2 = [position[0], position[1]];
  for (let k = 1; k <= n; k++) {
    const s = (forwardM * k) / n;
    const p: Vec2 = [position[0] + dx * s, position[1] + dy * s];
    if (!isFreePoint(grid, p)) return { position: reached, collided: true };
    reached = p;
  }
  return { position: reached, collided: false };
}

/** The state at reset: the start (snapped onto free floor, see `snapToFree`), no action taken. */
export function startState(position: Vec2, startYaw: number): MotionState {
  return { position: [position[0], position[1]], startYaw, turns: 0, actions: 0, end: null };
}

/** One action; throws RangeError after the episode ended. */
export function applyAction(grid: OccupancyGrid, state: MotionState, action: NavAction, rules: MotionRules = ROBOT_MOTION): MotionResult {
  if (state.end !== null) throw new RangeError(`the episode already ended (${state.end})`);
  const actions = state.actions + 1;
  const limit = (end: EpisodeEnd | null): EpisodeEnd | null => end ?? (actions >= rules.maxActions ? "action-limit" : null);
  const circle = turnsPerCircle(rules.turnDeg);
  const turned = (delta: number): number => {
    const t = state.turns + delta;
    return circle === null ? t : ((t % circle) + circle) % circle;
  };
  switch (action) {
    case "FORWARD": {
      const moved = forwardMove(grid, state.position, yawOf(state, rules.turnDeg), rules.forwardM);
      return { state: { ...state, position: moved.position, actions, end: limit(null) }, collided: moved.collided };
    }
    case "TURN_LEFT":
      return { state: { ...state, turns: turned(1), actions, end: limit(null) }, collided: false };
    case "TURN_RIGHT":
      return { state: { ...state, turns: turned(-1), actions, end: limit(null) }, collided: false };
    case "STOP":
      return { state: { ...state, actions, end: "stop" }, collided: false };
    default:
      throw new RangeError(`unknown action ${JSON.stringify(action)}`);
  }
}

/** True when `p` lies within `margin` metres of the grid's box (cells outside the box are occupied). */
function nearGrid(grid: OccupancyGrid, p: Vec2, margin: number): boolean {
  const [x0, y0] = grid.origin;
  const x1 = x0 + grid.width * grid.cellSize;
  const y1 = y0 + grid.height * grid.cellSize;
  return p[0] >= x0 - margin && p[0] <= x1 + margin && p[1] >= y0 - margin && p[1] <= y1 + margin;
}

/**
 * `p` itself when its cell is free; else the free cell centre nearest to `p` within `maxM`
 * (Euclidean; ties to the lower row-major cell index); null when there is none. A point farther
 * than `maxM` from the grid's box has none (every cell outside the box is occupied) and returns
 * null at once; the search visits grid cells only, so its loops are bounded by the grid's size
 * whatever the point (a coordinate of 1e16 once made `j++` stop changing j).
 */
export function snapToFree(grid: OccupancyGrid, p: Vec2, maxM: number = START_SNAP_M): { position: Vec2; movedM: number } | null {
  if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) throw new RangeError(`point (${p[0]}, ${p[1]}) is not finite`);
  if (!(maxM >= 0) || !Number.isFinite(maxM)) throw new RangeError(`snap distance must be a non-negative number of metres, got ${maxM}`);
  if (!nearGrid(grid, p, maxM)) return null;
  if (isFreePoint(grid, p)) return { position: [p[0], p[1]], movedM: 0 };
  const [ci, cj] = worldToCell(grid, p);
  const reach = Math.ceil(maxM / grid.cellSize) + 1;
  const [i0, i1] = [Math.max(0, ci - reach), Math.min(grid.width - 1, ci + reach)];
  const [j0, j1] = [Math.max(0, cj - reach), Math.min(grid.height - 1, cj + reach)];
  let best: { position: Vec2; movedM: number } | null = null;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      if (!isFreeCell(grid, i, j)) continue;
      const c = cellCenter(grid, i, j);
      const d = Math.hypot(c[0] - p[0], c[1] - p[1]);
      if (d <= maxM && (best === null || d < best.movedM)) best = { position: c, movedM: d };
    }
  }
  return best;
}
