import assert from "node:assert/strict";
import { test } from "node:test";
import { distance2, point2 } from "../../src/geometry/point2.js";
import { pointSegmentDistance, segmentSegmentDistance, segmentsIntersect } from "../../src/geometry/segment2.js";

const p = point2;

test("distance2 is the Euclidean distance", () => {
  assert.equal(distance2(p(0, 0), p(3, 4)), 5);
  assert.equal(distance2(p(-1, 2), p(-1, 2)), 0);
});

test("pointSegmentDistance projects onto the segment or its nearer end", () => {
  assert.equal(pointSegmentDistance(p(0, 1), p(-1, 0), p(1, 0)), 1); // above the middle
  assert.equal(pointSegmentDistance(p(4, 4), p(0, 0), p(1, 0)), 5); // beyond the end (1,0): 3-4-5
  assert.equal(pointSegmentDistance(p(2, 2), p(1, 1), p(1, 1)), Math.SQRT2); // degenerate segment
});

test("segmentsIntersect: crossing, touching, collinear and disjoint", () => {
  assert.equal(segmentsIntersect(p(0, 0), p(2, 2), p(0, 2), p(2, 0)), true);
  assert.equal(segmentsIntersect(p(0, 0), p(1, 0), p(1, 0), p(1, 1)), true); // shared end point
  assert.equal(segmentsIntersect(p(0, 0), p(2, 0), p(1, 0), p(3, 0)), true); // collinear overlap
  assert.equal(segmentsIntersect(p(0, 0), p(1, 0), p(2, 0), p(3, 0)), false); // collinear gap
  assert.equal(segmentsIntersect(p(0, 0), p(1, 0), p(0, 1), p(1, 1)), false); // parallel
  assert.equal(segmentsIntersect(p(0, 0), p(1, 1), p(2, 0), p(3, -5)), false);
});

test("segmentSegmentDistance", () => {
  assert.equal(segmentSegmentDistance(p(0, 0), p(1, 0), p(0, 2), p(1, 3)), 2);
  assert.equal(segmentSegmentDistance(p(0, 0), p(2, 2), p(0, 2), p(2, 0)), 0);
  assert.equal(segmentSegmentDistance(p(0, 0), p(4, 0), p(2, 3), p(2, 1)), 1); // end of one above the other
});
