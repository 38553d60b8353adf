/**
 * The built-in simulator's motion rules (src/sim/motion.ts) on hand-made grids, with every
 * expected stop point worked out by hand from the file's rule: increments of at most half a cell,
 * stop at the last free one, no sliding; turns as whole multiples of 30 degrees; the action limit
 * counting STOP; starts snapped to the nearest free cell centre within 0.5 m.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyGrid, type OccupancyGrid } from "../../src/world/space/index.js";
import { poseFromStart, rotationOf } from "../../src/sim/types.js";
import { applyAction, forwardIncrements, forwardMove, snapToFree, startState, ROBOT_MOTION, yawOf, type MotionState } from "../../src/sim/motion.js";

/** A grid of `n` x `n` cells from the origin with the cells for which `occupied(i, j)` holds set. */
function grid(cellSize: number, n: number, occupied: (i: number, j: number) => boolean): OccupancyGrid {
  const g = emptyGrid([0, 0], cellSize, n, n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) if (occupied(i, j)) g.occupied[j * n + i] = 1;
  return g;
}

const near = (a: readonly number[], b: readonly number[], tol = 1e-12) => a.every((v, k) => Math.abs(v - b[k]!) <= tol);

// 2 m x 2 m at 0.05 m cells with a wall filling columns 30.. (x >= 1.5).
const WALLED = grid(0.05, 40, (i) => i >= 30);

test("a FORWARD is checked at half-cell increments: 10 of 0.025 m on the 0.05 m grid, 4 of 0.0625 m on a 0.125 m grid", () => {
  assert.equal(forwardIncrements({ cellSize: 0.05 }, 0.25), 10);
  assert.equal(forwardIncrements({ cellSize: 0.125 }, 0.25), 4);
  assert.equal(forwardIncrements({ cellSize: 0.5 }, 0.25), 1);
  assert.equal(forwardIncrements({ cellSize: 0.03 }, 0.25), 17);
});

test("FORWARD in open space moves exactly 0.25 m along the yaw", () => {
  const east = forwardMove(WALLED, [0.5, 0.5], 0, 0.25);
  assert.deepEqual(east, { position: [0.75, 0.5], collided: false });
  const north = forwardMove(WALLED, [0.5, 0.5], Math.PI / 2, 0.25);
  assert.ok(near(north.position, [0.5, 0.75]) && !north.collided);
  const diagonal = forwardMove(WALLED, [0.5, 0.5], Math.PI / 4, 0.25);
  assert.ok(near(diagonal.position, [0.5 + 0.25 * Math.SQRT1_2, 0.5 + 0.25 * Math.SQRT1_2]) && !diagonal.collided);
});

test("FORWARD into the wall stops at the last free increment with collided, and does not slide", () => {
  // From x = 1.32 the increments are 1.345, ..., 1.495 (7th, free) and 1.52 (8th, in column 30).
  const hit = forwardMove(WALLED, [1.32, 1.0], 0, 0.25);
  assert.ok(near(hit.position, [1.495, 1.0]), `stopped at ${hit.position}`);
  assert.equal(hit.collided, true);
  // Against the wall already: the first increment (1.52) is occupied, so the robot stays.
  assert.deepEqual(forwardMove(WALLED, [1.495, 1.0], 0, 0.25), { position: [1.495, 1.0], collided: true });
  // At 60 degrees into the wall the robot stops on its line (x reaches 1.5 at the 7th increment of 0.025).
  const slant = forwardMove(WALLED, [1.42, 1.0], Math.PI / 3, 0.25);
  const s = 0.025 * 6; // 1.42 + 0.0125 k < 1.5 for k <= 6; k = 7 gives 1.5075
  assert.ok(near(slant.position, [1.42 + s * Math.cos(Math.PI / 3), 1.0 + s * Math.sin(Math.PI / 3)]), `stopped at ${slant.position}`);
  assert.equal(slant.collided, true);
});

test("outside the grid counts as occupied: walking west from x = 0.1 stops at x = 0", () => {
  const r = forwardMove(WALLED, [0.1, 1.0], Math.PI, 0.25);
  // Increments 0.075, 0.05, 0.025, 0.0 are in column 0; -0.025 is outside.
  assert.ok(near(r.position, [0, 1.0], 1e-12), `stopped at ${r.position}`);
  assert.equal(r.collided, true);
});

test("a thin obstacle between increments is not jumped when the increments are half a cell: one blocked column stops the robot", () => {
  // Only column 20 (x in [1.0, 1.05)) is occupied; increments of 0.025 m from 0.91 land at 1.01 and 1.035, both in it.
  const thin = grid(0.05, 40, (i) => i === 20);
  const r = forwardMove(thin, [0.91, 0.5], 0, 0.25);
  assert.ok(near(r.position, [0.985, 0.5]), `stopped at ${r.position}`);
  assert.equal(r.collided, true);
});

test("turns are whole multiples of 30 degrees: 12 left turns come back to the start yaw exactly", () => {
  let s: MotionState = startState([0.5, 0.5], 0.3);
  for (let k = 1; k <= 12; k++) {
    const r = applyAction(WALLED, s, "TURN_LEFT");
    assert.equal(r.collided, false);
    assert.deepEqual(r.state.position, [0.5, 0.5]);
    assert.ok(Math.abs(yawOf(r.state, 30) - (0.3 + ((k % 12) * Math.PI) / 6)) <= 1e-14);
    s = r.state;
  }
  assert.equal(s.turns, 0);
  assert.equal(yawOf(s, 30), 0.3);
  const right = applyAction(WALLED, s, "TURN_RIGHT").state;
  assert.equal(right.turns, 11);
  assert.ok(Math.abs(Math.cos(yawOf(right, 30) - (0.3 - Math.PI / 6)) - 1) <= 1e-15);
});

test("FORWARD after turns moves along the turned yaw", () => {
  let s = startState([0.5, 0.5], 0);
  for (let k = 0; k < 3; k++) s = applyAction(WALLED, s, "TURN_LEFT").state;
  const r = applyAction(WALLED, s, "FORWARD");
  assert.ok(near(r.state.position, [0.5, 0.75]), `moved to ${r.state.position}`);
  assert.equal(r.state.actions, 4);
});

test("STOP ends with stop; the action limit ends with action-limit after max actions, STOP included; nothing after the end", () => {
  const rules = { ...ROBOT_MOTION, maxActions: 3 };
  let s = startState([0.5, 0.5], 0);
  s = applyAction(WALLED, s, "FORWARD", rules).state;
  assert.equal(s.end, null);
  s = applyAction(WALLED, s, "TURN_LEFT", rules).state;
  assert.equal(s.end, null);
  const limited = applyAction(WALLED, s, "FORWARD", rules);
  assert.equal(limited.state.end, "action-limit");
  assert.equal(limited.state.actions, 3);
  assert.ok(near(limited.state.position, [0.75 + 0.25 * Math.cos(Math.PI / 6), 0.5 + 0.25 * Math.sin(Math.PI / 6)]), "the last action is carried out");
  assert.throws(() => applyAction(WALLED, limited.state, "STOP", rules), /already ended/);
  const stopped = applyAction(WALLED, s, "STOP", rules);
  assert.equal(stopped.state.end, "stop", "STOP as the last allowed action is a stop");
  assert.equal(applyAction(WALLED, startState([0.5, 0.5], 0), "STOP").state.end, "stop");
  assert.throws(() => applyAction(WALLED, startState([0.5, 0.5], 0), "JUMP" as never), /unknown action/);
  assert.equal(ROBOT_MOTION.maxActions, 1000);
});

test("snapping: a free start stays; an occupied one moves to the nearest free cell centre within 0.5 m, ties to the lower cell index", () => {
  // 0.125 m cells (exact in binary) on 2 m; columns 4..7 (x in [0.5, 1.0)) occupied.
  const g = grid(0.125, 16, (i) => i >= 4 && i <= 7);
  assert.deepEqual(snapToFree(g, [0.3, 0.3]), { position: [0.3, 0.3], movedM: 0 });
  // (0.55, 0.3): column 3's centre 0.4375 is 0.1125 away, column 8's 1.0625 is 0.5125; row 2's centre is 0.3125.
  const west = snapToFree(g, [0.55, 0.3])!;
  assert.deepEqual(west.position, [0.4375, 0.3125]);
  assert.ok(Math.abs(west.movedM - Math.hypot(0.1125, 0.0125)) <= 1e-15);
  // (0.75, 0.3125): 0.3125 to both column 3 and column 8; the lower index (column 3) wins.
  assert.deepEqual(snapToFree(g, [0.75, 0.3125])!.position, [0.4375, 0.3125]);
  // A wider wall (columns 2..13): (1.0, 1.0625) is 0.8125 from the centres of both free columns 1 and 14.
  const wide = grid(0.125, 16, (i) => i >= 2 && i <= 13);
  assert.equal(snapToFree(wide, [1.0, 1.0625]), null);
  assert.equal(snapToFree(wide, [1.0, 1.0625], 0.8), null);
  assert.deepEqual(snapToFree(wide, [1.0, 1.0625], 0.9)!.position, [0.1875, 1.0625]);
  // Outside the grid: the nearest cell centre inside within reach.
  assert.deepEqual(snapToFree(g, [-0.2, 0.0625])!.position, [0.0625, 0.0625]);
});

test("issue 25: a point far outside the grid snaps to nothing at once, whatever its size (a coordinate of 1e16 once looped for good)", () => {
  const g = grid(0.05, 40, () => false);
  const started = performance.now();
  assert.equal(snapToFree(g, [1e16, 1e16]), null);
  assert.equal(snapToFree(g, [-1e300, 3]), null);
  // A huge snap distance visits the grid's cells only.
  assert.deepEqual(snapToFree(WALLED, [1e6, 0.51], 2e6)!.position, [1.475, 0.525]);
  assert.deepEqual(snapToFree(WALLED, [1.6, 0.51], 1e16)!.position, [1.475, 0.525]);
  assert.ok(performance.now() - started < 1000, "bounded by the grid, not by the coordinate");
  assert.throws(() => snapToFree(g, [Number.NaN, 0]), /not finite/);
  assert.throws(() => snapToFree(g, [0, 0], -1), /snap distance must be a non-negative number/);
});

test("poseFromStart: metres ahead and to the left of the start's heading, and the turn since, counter-clockwise positive", () => {
  const pose = (x: number, z: number, heading: number) => ({ position: [x, 0, z] as [number, number, number], rotation: rotationOf(heading), heading });
  const near = (got: { forwardM: number; leftM: number; turn: number }, want: [number, number, number]) =>
    assert.ok([got.forwardM - want[0], got.leftM - want[1], got.turn - want[2]].every((d) => Math.abs(d) < 1e-12), JSON.stringify(got));
  // Heading 0 faces -z; its left is -x.
  near(poseFromStart(pose(1, 2, 0), pose(1, 1.5, 0)), [0.5, 0, 0]);
  near(poseFromStart(pose(1, 2, 0), pose(0, 2, Math.PI / 6)), [0, 1, Math.PI / 6]);
  // Heading pi/2 faces -x; its left is +z.
  near(poseFromStart(pose(1, 2, Math.PI / 2), pose(0, 2, Math.PI / 2)), [1, 0, 0]);
  near(poseFromStart(pose(1, 2, Math.PI / 2), pose(1, 3, 0)), [0, 1, -Math.PI / 2]);
  // From 3pi/4 to -3pi/4 is a quarter turn to the left, not three quarters to the right.
  near(poseFromStart(pose(0, 0, (3 * Math.PI) / 4), pose(0, 0, (-3 * Math.PI) / 4)), [0, 0, Math.PI / 2]);
});
