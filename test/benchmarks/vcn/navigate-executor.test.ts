import assert from "node:assert/strict";
import { test } from "node:test";
import { aimPoint, executorAction, executorBudget, headingTowards } from "../../../src/benchmarks/vcn/navigate/executor.js";
import { floorPointOf, pixelDirection } from "../../../src/benchmarks/vcn/navigate/waypoint.js";
import { rotationOf, type Pose, type Vec3 } from "../../../src/sim/types.js";

const DEG = Math.PI / 180;
const pose = (x: number, z: number, headingDeg: number): Pose => ({ position: [x, 0, z], rotation: rotationOf(headingDeg * DEG), heading: headingDeg * DEG });
const path = (points: Vec3[], distance: number) => ({ points, distance });

test("headingTowards: Habitat headings (0 faces -z, +90 degrees faces -x, CCW from above)", () => {
  assert.ok(Math.abs(headingTowards([0, 0, 0], [0, 0, -1])) < 1e-12);
  assert.ok(Math.abs(headingTowards([0, 0, 0], [-1, 0, 0]) - Math.PI / 2) < 1e-12);
  assert.ok(Math.abs(headingTowards([0, 0, 0], [1, 0, 0]) + Math.PI / 2) < 1e-12);
  assert.ok(Math.abs(Math.abs(headingTowards([0, 0, 0], [0, 0, 1])) - Math.PI) < 1e-12);
});

test("aimPoint passes over corners within 5 cm of the robot", () => {
  assert.deepEqual(aimPoint([0, 0, 0], path([[0, 0, 0], [0.03, 0, 0], [1, 0, 0]], 1)), [1, 0, 0]);
  assert.deepEqual(aimPoint([0, 0, 0], path([[0, 0, 0], [0, 0, -2]], 2)), [0, 0, -2]);
});

test("executorAction: arrived within the radius, forward when facing the aim within half a turn step, else the shorter turn", () => {
  assert.equal(executorAction(pose(0, 0, 0), path([[0, 0, 0], [0, 0, -0.5]], 0.5), 0.8, 30), "arrived");
  assert.equal(executorAction(pose(0, 0, 0), path([[0, 0, 0], [0, 0, -3]], 3), 0.25, 30), "FORWARD");
  // Aim 14 degrees to the left (counter-clockwise): still forward (within 15).
  const left14: Vec3 = [-Math.sin(14 * DEG) * 3, 0, -Math.cos(14 * DEG) * 3];
  assert.equal(executorAction(pose(0, 0, 0), path([[0, 0, 0], left14], 3), 0.25, 30), "FORWARD");
  // 16 degrees left: the heading +30 is closer (14 off) than 0 (16 off): turn left.
  const left16: Vec3 = [-Math.sin(16 * DEG) * 3, 0, -Math.cos(16 * DEG) * 3];
  assert.equal(executorAction(pose(0, 0, 0), path([[0, 0, 0], left16], 3), 0.25, 30), "TURN_LEFT");
  // Behind on the right (heading -100 degrees): the nearest heading is -90, three turns to the right.
  const back: Vec3 = [-Math.sin(-100 * DEG) * 3, 0, -Math.cos(-100 * DEG) * 3];
  assert.equal(executorAction(pose(0, 0, 0), path([[0, 0, 0], back], 3), 0.25, 30), "TURN_RIGHT");
});

test("executorAction leaves out blocked headings: the next-closest heading, then null when all twelve are blocked", () => {
  const ahead = path([[0, 0, 0], [0, 0, -3]], 3);
  assert.equal(executorAction(pose(0, 0, 0), ahead, 0.25, 30, [0]), "TURN_LEFT"); // +30 and -30 tie: left first
  assert.equal(executorAction(pose(0, 0, 0), ahead, 0.25, 30, [0, 30 * DEG]), "TURN_RIGHT");
  const all = Array.from({ length: 12 }, (_, k) => k * 30 * DEG);
  assert.equal(executorAction(pose(0, 0, 0), ahead, 0.25, 30, all), null);
});

test("executorBudget: four times the forward steps plus a full turn each way", () => {
  assert.equal(executorBudget(10, 0.25, 30), 4 * 40 + 24);
  assert.equal(executorBudget(0.1, 0.25, 30), 4 + 24);
});

const camera = { height_m: 1.41, hfov_deg: 90, width: 384, height: 384, pitch_deg: 0 };

test("pixelDirection: focal length 192 px for 384 px at 90 degrees, pixel centres", () => {
  assert.deepEqual(pixelDirection(camera, 191.5, 191.5), [0, 0, 1]);
  const [x, y] = pixelDirection(camera, 383, 0);
  assert.ok(Math.abs(x - 191.5 / 192) < 1e-12 && Math.abs(y + 191.5 / 192) < 1e-12);
});

test("floorPointOf: with depth along the axis, and without depth from the ray meeting the floor", () => {
  // Front view, heading 0 (facing -z), pixel column of the centre, 2 m deep: 2 m ahead.
  const ahead = floorPointOf([1, 0, 1], 0, "front", camera, 191.5, 300, 2)!;
  assert.ok(Math.abs(ahead[0] - 1) < 1e-12 && Math.abs(ahead[2] - (1 - 2)) < 1e-12);
  // Without depth: the ray through row v meets the floor where 1.41 / t = (v + 0.5 - 192) / 192.
  const v = 300;
  const down = (v + 0.5 - 192) / 192;
  const p = floorPointOf([0, 0, 0], 0, "front", camera, 191.5, v, null)!;
  assert.ok(Math.abs(p[2] + 1.41 / down) < 1e-12);
  // The left view of heading 0 faces +90 degrees (-x).
  const left = floorPointOf([0, 0, 0], 0, "left", camera, 191.5, v, null)!;
  assert.ok(Math.abs(left[0] + 1.41 / down) < 1e-12 && Math.abs(left[2]) < 1e-12);
  // Above the horizon and no depth: no floor.
  assert.equal(floorPointOf([0, 0, 0], 0, "front", camera, 191.5, 100, null), null);
});
