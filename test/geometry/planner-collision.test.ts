import assert from "node:assert/strict";
import { test } from "node:test";
import {
  circleOffsets,
  createDiscreteMotionValidator,
  createExactMotionValidator,
  createStateValidityChecker,
  discClearance,
  isDiscFree,
  ObstacleIndex,
  PATHEVAL_BORDER,
  realVectorMaximumExtent,
  releaseStateValidReference,
} from "../../src/geometry/collision.js";
import { pointInPolygon, polygon, rectanglePolygon, segmentPolygonDistance, type Polygon } from "../../src/geometry/polygon.js";
import { createRng, type Rng } from "../../src/stats/rng.js";

/** A seeded clutter of star-shaped (often concave) polygons, some overlapping, some long and thin. */
function clutter(rng: Rng, count: number): Polygon[] {
  const out: Polygon[] = [];
  for (let k = 0; k < count; k++) {
    const cx = rng.float(-38, 38);
    const cy = rng.float(-38, 38);
    const n = rng.int(3, 12);
    const pts: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n + rng.float(0, 0.3);
      const r = rng.float(0.3, 4);
      pts.push([cx + r * Math.cos(a) * (k % 5 === 0 ? 4 : 1), cy + r * Math.sin(a)]);
    }
    out.push(polygon(pts));
  }
  // Thin walls that line up with grid-cell edges, where rounding would show.
  out.push(rectanglePolygon(-10, -0.25, 10, 0.25), rectanglePolygon(-0.25, -20, 0.25, 20));
  return out;
}

test("circle points: the release's 20 glibc values, within one ulp of Math.cos / Math.sin", () => {
  const { cos, sin } = circleOffsets(20);
  assert.equal(cos.length, 20);
  for (let i = 0; i < 20; i++) {
    const a = (2 * Math.PI * i) / 20;
    assert.ok(Math.abs(cos[i]! - Math.cos(a)) <= 1.2e-16, `cos ${i}`);
    assert.ok(Math.abs(sin[i]! - Math.sin(a)) <= 1.2e-16, `sin ${i}`);
  }
  assert.equal(cos[12], -0.8090169943749476); // glibc; V8 gives ...475
  const six = circleOffsets(6);
  assert.equal(six.cos[3], Math.cos(Math.PI));
});

test("indexed release checker agrees with the plain C++-style scan everywhere", () => {
  const rng = createRng(7);
  const polys = clutter(rng, 60);
  const index = new ObstacleIndex(polys);
  for (const r of [0.5, 1.0, 1.37, 1.5]) {
    const check = createStateValidityChecker(index, { radius: r });
    let valid = 0;
    for (let i = 0; i < 20000; i++) {
      // Random points, and points hugging edges and vertices where floating point decides.
      let x = rng.float(-41, 41);
      let y = rng.float(-41, 41);
      if (i % 3 === 0) {
        const p = rng.pick(polys);
        const v = 2 * rng.below(p.length >> 1);
        x = p[v]! + (rng.next() - 0.5) * 1e-9 + (i % 2 ? r : 0);
        y = p[v + 1]! + (rng.next() - 0.5) * 1e-9;
      }
      const want = releaseStateValidReference(polys, x, y, r);
      assert.equal(check(x, y), want, `(${x}, ${y}) r=${r}`);
      if (want) valid++;
    }
    assert.ok(valid > 1000 && valid < 19000, `a mix of valid and invalid states (${valid})`);
  }
});

test("index point queries and clearance equal plain scans", () => {
  const rng = createRng(11);
  const polys = clutter(rng, 40);
  const index = new ObstacleIndex(polys, { cellSize: 0.9 });
  for (let i = 0; i < 5000; i++) {
    const x = rng.float(-45, 45);
    const y = rng.float(-45, 45);
    const inside = polys.some((p) => pointInPolygon(p, x, y));
    assert.equal(index.pointInAny(x, y), inside);
    const want = discClearance(polys, x, y);
    assert.ok(Math.abs(index.clearance(x, y) - want) < 1e-12, `clearance at (${x}, ${y})`);
    const d = rng.float(0, 3);
    if (!inside) assert.equal(index.edgesFartherThan(x, y, d), want >= d);
  }
  assert.equal(new ObstacleIndex([]).pointInAny(0, 0), false);
  assert.equal(new ObstacleIndex([]).clearance(0, 0), Infinity);
});

test("border rule: touching the border is allowed, crossing it is not", () => {
  const check = createStateValidityChecker([], { radius: 1.5 });
  assert.equal(check(-38.5, 0), true);
  assert.equal(check(-38.5 - 1e-12, 0), false);
  assert.equal(check(38.5, 38.5), true);
  assert.equal(check(0, 38.6), false);
  const exact = createStateValidityChecker([], { radius: 1.5, mode: "exact" });
  assert.equal(exact(-38.5, 0), true);
  assert.equal(exact(0, -38.51), false);
});

test("release semantics sample only the circle: a small obstacle can hide inside a valid disc", () => {
  // A triangle whose vertices sit on the circle of radius 1.5 halfway between sample points.
  const r = 1.5;
  const a0 = Math.PI / 20; // between samples 0 and 1
  const tri = polygon([0, 1, 2].map((k) => {
    const a = a0 + (k * 2 * Math.PI) / 3 + (k === 1 ? Math.PI / 30 : k === 2 ? -Math.PI / 30 : 0);
    return [0.999 * r * Math.cos(a), 0.999 * r * Math.sin(a)] as [number, number];
  }));
  assert.equal(releaseStateValidReference([tri], 0, 0, r), true);
  assert.equal(createStateValidityChecker([tri], { radius: r })(0, 0), true);
  assert.equal(createStateValidityChecker([tri], { radius: r, mode: "exact" })(0, 0), false);
  assert.equal(isDiscFree([tri], 0, 0, r), false);
  // A thin spike reaching 0.3 into the disc between two sample points is also missed.
  const at = (rad: number, a: number): [number, number] => [rad * Math.cos(a), rad * Math.sin(a)];
  const spike = polygon([at(1.2, a0), at(5, a0 - 0.02), at(5, a0 + 0.02)]);
  assert.equal(releaseStateValidReference([spike], 0, 0, r), true);
  assert.equal(isDiscFree([spike], 0, 0, r), false);
});

test("exact state checker: clearance >= r from every polygon, touching allowed", () => {
  const sq = rectanglePolygon(0, 0, 2, 2);
  const check = createStateValidityChecker([sq], { radius: 1, mode: "exact" });
  assert.equal(check(3, 1), true); // exactly 1 from the right edge
  assert.equal(check(2.999, 1), false);
  assert.equal(check(1, 1), false); // inside
  assert.equal(check(2 + Math.SQRT1_2 + 1e-9, 2 + Math.SQRT1_2 + 1e-9), true); // off the corner
  assert.equal(check(2 + 0.7, 2 + 0.7), false);
  // A big polygon that swallows the whole disc is caught by the containment test.
  const big = rectanglePolygon(-30, -30, 30, 30);
  assert.equal(createStateValidityChecker([big], { radius: 1, mode: "exact" })(0, 0), false);
});

test("OMPL discrete motion validator: end state first, then bisection order at j / nd", () => {
  const calls: Array<[number, number]> = [];
  const spy = (x: number, y: number) => {
    calls.push([x, y]);
    return true;
  };
  const L = 0.003 * realVectorMaximumExtent(PATHEVAL_BORDER);
  assert.ok(Math.abs(L - 0.33941125496954283) < 1e-15);
  const motion = createDiscreteMotionValidator(spy, 1);
  assert.equal(motion(0, 0, 7.5, 0), true); // nd = ceil(7.5) = 8
  assert.deepEqual(calls.map(([x]) => x), [7.5, ...[4, 2, 6, 1, 3, 5, 7].map((j) => 7.5 * (j / 8))]);
  calls.length = 0;
  motion(0, 0, 0.5, 0); // nd = 1: only the end state
  assert.deepEqual(calls, [[0.5, 0]]);
  calls.length = 0;
  motion(0, 0, 0, 0); // nd = 0
  assert.equal(calls.length, 1);
  // Stops at the first invalid check and says so.
  const blocked = createDiscreteMotionValidator((x) => x < 3, 1);
  assert.equal(blocked(0, 0, 2.9, 0), true);
  assert.equal(blocked(0, 0, 5, 0), false);
  // Long motions need no more than the end plus nd - 1 checks.
  let n = 0;
  createDiscreteMotionValidator(() => (n++, true), L)(-30, -30, 30, 30);
  assert.equal(n, Math.ceil(Math.hypot(60, 60) / L));
});

test("discrete motions can pass a small obstacle between checks; exact motions cannot", () => {
  // A post 0.2 wide reaching 0.4 below the line y = 1 that a disc of radius 0.5 follows.
  const post = rectanglePolygon(1.2, 0, 1.4, 0.6);
  const state = createStateValidityChecker([post], { radius: 0.5, mode: "exact" });
  // L = 3 over a motion of length 6: nd = 2, so only (3, 1) and (0, 1) are checked.
  assert.equal(createDiscreteMotionValidator(state, 3)(-3, 1, 3, 1), true);
  assert.equal(createDiscreteMotionValidator(state, 0.1)(-3, 1, 3, 1), false);
  assert.equal(createExactMotionValidator([post], { radius: 0.5 })(-3, 1, 3, 1), false);
  assert.equal(createExactMotionValidator([post], { radius: 0.5 })(-3, 1.1, 3, 1.1), true); // exactly 0.5 clear
  assert.equal(createExactMotionValidator([post], { radius: 0.5 })(-3, 1.1, 3, 39.6), false); // end beyond the border
});

test("exact motion validator agrees with the segment distance to every polygon", () => {
  const rng = createRng(5);
  const polys = clutter(rng, 40);
  const index = new ObstacleIndex(polys);
  for (const r of [0.5, 1.5]) {
    const state = createStateValidityChecker(index, { radius: r, mode: "exact" });
    const motion = createExactMotionValidator(index, { radius: r });
    let checked = 0;
    while (checked < 1500) {
      const ax = rng.float(-38, 38);
      const ay = rng.float(-38, 38);
      if (!state(ax, ay)) continue;
      const len = rng.float(0, 25);
      const a = rng.float(0, 2 * Math.PI);
      const bx = ax + len * Math.cos(a);
      const by = ay + len * Math.sin(a);
      const inBorder = bx - r >= -40 && bx + r <= 40 && by - r >= -40 && by + r <= 40;
      const want = inBorder && polys.every((p) => segmentPolygonDistance(p, ax, ay, bx, by) >= r);
      assert.equal(motion(ax, ay, bx, by), want, `(${ax}, ${ay}) -> (${bx}, ${by}) r=${r}`);
      checked++;
    }
  }
});
