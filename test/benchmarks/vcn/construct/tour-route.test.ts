/**
 * Route and motion pieces of the VCN tour with hand-computed answers: node ordering against brute
 * force, node spreading on an empty room, the stop-and-turn walk along a doubled-back line, the
 * spline's free-space fallback.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { nearestNeighbourOrder, openPathCost, orderNodes, routeNodes, spreadCells } from "../../../../src/benchmarks/vcn/construct/tour-route.js";
import { catmullRomPoint, densify, motionParams, pieceCurve, shortestArc, splitAtStops, walkCurves } from "../../../../src/benchmarks/vcn/construct/tour-motion.js";
import { roomVisits, firstEntryOrder } from "../../../../src/benchmarks/vcn/construct/tour.js";
import { createRng } from "../../../../src/stats/rng.js";
import { emptyGrid, gridForBounds, inflate, squaredHalfCellDistanceToOccupied } from "../../../../src/world/space/index.js";
import type { Vec2 } from "../../../../src/world/types.js";

const matrix = (pts: Vec2[]): number[][] => pts.map((a) => pts.map((b) => Math.hypot(a[0] - b[0], a[1] - b[1])));

/** The shortest open path from `start` over all nodes, by enumerating every order. */
function bruteForce(d: number[][], start: number): number {
  const rest = d.map((_, k) => k).filter((k) => k !== start);
  let best = Infinity;
  const go = (at: number, left: number[], cost: number): void => {
    if (cost >= best) return;
    if (left.length === 0) {
      best = cost;
      return;
    }
    left.forEach((v, k) => go(v, [...left.slice(0, k), ...left.slice(k + 1)], cost + d[at]![v]!));
  };
  go(start, rest, 0);
  return best;
}

test("ordering: points on a line, starting inside: the near side first, then the far side", () => {
  // x = 0, 1, 2, 3, 10 starting at x = 2: left first costs 1 + 1 + 3 + 7 = 12, right first 18.
  const d = matrix([[0, 0], [1, 0], [2, 0], [3, 0], [10, 0]]);
  assert.deepEqual(orderNodes(d, 2), [2, 1, 0, 3, 4]);
  assert.equal(openPathCost(d, [2, 1, 0, 3, 4]), 12);
  // Nearest neighbour alone: from x = 0 at start index 0 it runs 0, 1, 2, 3, 4.
  assert.deepEqual(nearestNeighbourOrder(d, 0), [0, 1, 2, 3, 4]);
});

/** True when some 2-opt reversal or Or-opt move (a run of 1-3 nodes moved, maybe reversed) shortens the open path. */
function improvable(d: number[][], order: number[]): boolean {
  const cost = openPathCost(d, order);
  const n = order.length;
  for (let i = 1; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (openPathCost(d, [...order.slice(0, i), ...order.slice(i, j + 1).reverse(), ...order.slice(j + 1)]) < cost - 1e-9) return true;
    }
  }
  for (let len = 1; len <= 3; len++) {
    for (let i = 1; i + len <= n; i++) {
      const run = order.slice(i, i + len);
      const rest = [...order.slice(0, i), ...order.slice(i + len)];
      for (let p = 1; p <= rest.length; p++) {
        for (const piece of [run, [...run].reverse()]) if (openPathCost(d, [...rest.slice(0, p), ...piece, ...rest.slice(p)]) < cost - 1e-9) return true;
      }
    }
  }
  return false;
}

test("ordering: a local optimum of 2-opt and Or-opt, never worse than nearest neighbour, mostly the brute-force optimum", () => {
  const rng = createRng(42);
  let optimal = 0;
  for (let trial = 0; trial < 12; trial++) {
    const pts = Array.from({ length: 7 }, (): Vec2 => [rng.float(0, 10), rng.float(0, 8)]);
    const d = matrix(pts);
    const order = orderNodes(d, 0);
    assert.equal(order[0], 0);
    assert.deepEqual([...order].sort(), [0, 1, 2, 3, 4, 5, 6]);
    assert.ok(!improvable(d, order), `trial ${trial} can still be improved`);
    const cost = openPathCost(d, order);
    assert.ok(cost <= openPathCost(d, nearestNeighbourOrder(d, 0)) + 1e-12);
    const best = bruteForce(d, 0);
    assert.ok(cost >= best - 1e-9);
    if (cost - best < 1e-9) optimal++;
  }
  assert.ok(optimal >= 9, `optimal in ${optimal} of 12`);
});

test("nodes: a 6 x 4 m room gets round(24 / 10) = 2 nodes at the centres of its halves; a door between rooms gets one", () => {
  // Free space inside 0.25 m of clearance: x 0.25-5.75, y 0.25-3.75; two-means splits it at x = 3,
  // centroids (1.625, 2) and (4.375, 2), snapped to a cell centre of their own half.
  const grid = inflate(gridForBounds({ min: [0, 0], max: [6, 4] }, 0.05), 0.25);
  const rooms = [{ id: "r", type: "living room" as const, polygon: [[0, 0], [6, 0], [6, 4], [0, 4]] as Vec2[], floorMaterial: "", wallMaterial: "" }];
  const nodes = routeNodes({ rooms, doors: [] }, grid);
  assert.equal(nodes.length, 2);
  const xs = nodes.map((n) => n.point[0]).sort((a, b) => a - b);
  assert.ok(Math.abs(xs[0]! - 1.625) <= 0.05 && Math.abs(xs[1]! - 4.375) <= 0.05, JSON.stringify(nodes));
  for (const n of nodes) assert.ok(Math.abs(n.point[1] - 2) <= 0.05 && n.room === "r" && n.kind === "room");
  // Two rooms side by side with a door at (3, 2): the door's node is its centre cell's centre.
  const two = [
    { ...rooms[0]!, id: "a", polygon: [[0, 0], [3, 0], [3, 4], [0, 4]] as Vec2[] },
    { ...rooms[0]!, id: "b", polygon: [[3, 0], [6, 0], [6, 4], [3, 4]] as Vec2[] },
  ];
  const withDoor = routeNodes({ rooms: two, doors: [{ id: "d", wallId: "w", rooms: ["a", "b"], center: [3.01, 2.01], width: 0.9 }] }, grid);
  assert.deepEqual(withDoor.map((n) => [n.room, n.kind]), [["a", "room"], ["b", "room"], [null, "door"]]);
  assert.ok(Math.abs(withDoor[2]!.point[0] - 3.025) < 1e-12 && Math.abs(withDoor[2]!.point[1] - 2.025) < 1e-12);
  // An entrance (one side outside) gets none.
  assert.equal(routeNodes({ rooms: two, doors: [{ id: "e", wallId: "w", rooms: [null, "b"], center: [3, 2], width: 0.9 }] }, grid).length, 2);
});

test("spreading: seeded at the cell farthest from obstacles, then moved to its cluster's centroid", () => {
  const grid = emptyGrid([0, 0], 1, 5, 1);
  grid.occupied[0] = 1;
  const clearance = squaredHalfCellDistanceToOccupied(grid);
  // Cells 1-4 free, clearance growing to the right: the seed is cell 4; one k-means round moves
  // it to the centroid x = 3.0 of centres 1.5-4.5, equally near cells 2 and 3 -> the lower, 2.
  assert.deepEqual(spreadCells(grid, [1, 2, 3, 4], 1, clearance, 0), [4]);
  assert.deepEqual(spreadCells(grid, [1, 2, 3, 4], 1, clearance), [2]);
  // Two nodes: seeds 4 and 1 (farthest from 4); clusters {1, 2} and {3, 4}, centroids 2.0 and 4.0,
  // each equally near two cells of its cluster -> cells 1 and 3.
  assert.deepEqual(spreadCells(grid, [1, 2, 3, 4], 2, clearance), [3, 1]);
});

test("walk: out 1 m, turn on the spot 180 degrees at 9 degrees a frame, back 1 m", () => {
  const params = motionParams(10);
  assert.ok(Math.abs(params.stepM - 0.08) < 1e-15);
  const free = emptyGrid([-1, -1], 0.05, 60, 40);
  const pieces = splitAtStops([[0, 0], [1, 0], [0, 0]], params.stopCornerDeg);
  assert.deepEqual(pieces, [[[0, 0], [1, 0]], [[1, 0], [0, 0]]]);
  const curves = pieces.map((p) => pieceCurve(densify(p, params.controlSpacingM), free).points);
  const { poses } = walkCurves(curves, params);
  // 1 start frame + 13 steps out (12 of 0.08 m and one of 0.04 m onto the end; arriving, the
  // heading already turns 9 degrees toward the way back), 19 more turning frames (180 / 9 in all),
  // 13 steps back.
  assert.equal(poses.length, 1 + 13 + 19 + 13);
  assert.deepEqual(poses.slice(0, 13).map((p) => [p.x, p.y, p.yaw]), Array.from({ length: 13 }, (_, k) => [Math.round(k * 0.08 * 1e4) / 1e4, 0, 0]));
  const turn = poses.slice(13, 33);
  for (const [k, p] of turn.entries()) {
    assert.deepEqual([p.x, p.y], [1, 0]);
    // Each frame's yaw is rounded to 1e-6 rad and the turn continues from it: up to 5e-7 rad off per frame.
    assert.ok(Math.abs(Math.abs(p.yaw) - ((k + 1) * 9 * Math.PI) / 180) <= (k + 1) * 5e-7 + 1e-12, `turn frame ${k}: ${p.yaw}`);
  }
  const back = poses.slice(33);
  assert.equal(back.length, 13);
  assert.deepEqual([back[back.length - 1]!.x, back[back.length - 1]!.y], [0, 0]);
  for (const p of back) assert.ok(Math.abs(Math.abs(p.yaw) - Math.PI) <= 20 * 5e-7 && p.y === 0);
  // maxFrames cuts the walk.
  assert.equal(walkCurves(curves, params, 10).poses.length, 10);
});

test("walk at 1 fps, 1.4 m/s, turning on the spot at 180 degrees a second: out 3 m in 1.4 m steps, one frame to turn round, back", () => {
  const params = motionParams(1, { speedMps: 1.4, spotTurnDegPerS: 180 });
  assert.equal(params.stepM, 1.4);
  // Walking turns keep the default rate (90 degrees a second), on-the-spot turns take the pace's.
  assert.deepEqual([params.maxTurnDegPerFrame, params.spotTurnDegPerFrame], [90, 180]);
  const free = emptyGrid([-1, -1], 0.05, 100, 40);
  const pieces = splitAtStops([[0, 0], [3, 0], [0, 0]], params.stopCornerDeg);
  const curves = pieces.map((p) => pieceCurve(densify(p, params.controlSpacingM), free).points);
  const { poses } = walkCurves(curves, params);
  // Start, 1.4, 2.8, 3.0 (the end; arriving, the heading turns up to 90 degrees a frame toward the
  // way back, 0.35 of the 180-degree error: 63), one frame turning on the spot (the 117 left), then
  // 1.6, 0.2, 0.
  assert.deepEqual(poses.map((p) => [p.x, p.y]), [[0, 0], [1.4, 0], [2.8, 0], [3, 0], [3, 0], [1.6, 0], [0.2, 0], [0, 0]]);
  assert.ok(Math.abs(Math.abs(poses[4]!.yaw) - Math.PI) <= 1e-6, `after the turn: ${poses[4]!.yaw}`);
  // At 90 degrees a second the same turn takes two frames.
  assert.equal(walkCurves(curves, motionParams(1, { speedMps: 1.4 })).poses.length, poses.length + 1);
});

test("spline: through its control points, cut corners replaced by the chord when they leave the free space", () => {
  const p: Vec2[] = [[0, 0], [1, 0], [1, 1], [2, 1]];
  assert.deepEqual(catmullRomPoint(p[0]!, p[1]!, p[2]!, p[3]!, 0), [1, 0]);
  const end = catmullRomPoint(p[0]!, p[1]!, p[2]!, p[3]!, 1);
  assert.ok(Math.abs(end[0] - 1) < 1e-12 && Math.abs(end[1] - 1) < 1e-12);
  // An L through (1, 0) on a grid whose cell centres lie on x = 1 and y = 0: the spline passes the
  // corner bulging outward (beyond x = 1 and below y = 0) by more than the half cell.
  const controls = densify([[0, 0], [1, 0], [1, 1]], 0.5);
  assert.deepEqual(controls, [[0, 0], [0.5, 0], [1, 0], [1, 0.5], [1, 1]]);
  const outside = (q: Vec2): boolean => q[0] > 1.025 || q[1] < -0.025;
  const open = emptyGrid([-1.025, -1.025], 0.05, 60, 60);
  const curved = pieceCurve(controls, open).points;
  assert.ok(curved.some(outside), "the spline bulges out of the corner");
  assert.ok(curved.some((q) => q[0] === 1 && q[1] === 0), "and passes the corner itself");
  // With the cells beyond x = 1.025 and below y = -0.025 occupied, the spans that bulged become straight.
  const walled = emptyGrid([-1.025, -1.025], 0.05, 60, 60);
  for (let j = 0; j < 60; j++) for (let i = 0; i < 60; i++) if (i >= 41 || j <= 19) walled.occupied[j * 60 + i] = 1;
  const safe = pieceCurve(controls, walled).points;
  for (const q of safe) assert.ok(!outside(q), `sample ${q} leaves the free space`);
  assert.ok(safe.some((q) => q[1] > 0.3 && q[0] === 1), "a straight span along x = 1");
});

test("angles: shortest arc is signed and in (-pi, pi]", () => {
  assert.ok(Math.abs(shortestArc(0.1, -0.1) + 0.2) < 1e-15);
  assert.ok(Math.abs(shortestArc(3, -3) - (2 * Math.PI - 6)) < 1e-12);
  assert.equal(shortestArc(0, Math.PI), Math.PI);
  assert.equal(shortestArc(0, -Math.PI), Math.PI);
});

test("visits: runs of one room, frames between rooms skipped; rooms in first-entry order", () => {
  const visits = roomVisits(["a", "a", null, "a", null, "b", "b", "a", null, null, "c", "b"]);
  assert.deepEqual(visits, [
    { room: "a", first: 0, last: 3 },
    { room: "b", first: 5, last: 6 },
    { room: "a", first: 7, last: 7 },
    { room: "c", first: 10, last: 10 },
    { room: "b", first: 11, last: 11 },
  ]);
  assert.deepEqual(firstEntryOrder(visits), ["a", "b", "c"]);
});
