import assert from "node:assert/strict";
import { test } from "node:test";
import {
  inflateRect,
  pointRectDistance,
  rectContains,
  rectsOverlap,
  segmentClearance,
  segmentRectDistance,
} from "../../src/geometry/rect.js";

const unit = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
const p = (x: number, y: number) => ({ x, y });

test("rectContains includes the border", () => {
  assert.equal(rectContains(unit, p(0.5, 0.5)), true);
  assert.equal(rectContains(unit, p(1, 0)), true);
  assert.equal(rectContains(unit, p(1.01, 0.5)), false);
});

test("pointRectDistance: inside, beside an edge, off a corner", () => {
  assert.equal(pointRectDistance(p(0.5, 0.5), unit), 0);
  assert.equal(pointRectDistance(p(0.5, 3), unit), 2);
  assert.equal(pointRectDistance(p(4, 5), unit), 5);
  assert.equal(pointRectDistance(p(-3, -4), unit), 5);
});

test("segmentRectDistance", () => {
  assert.equal(segmentRectDistance(p(-1, 2), p(2, 2), unit), 1); // passes above
  assert.equal(segmentRectDistance(p(-1, 0.5), p(2, 0.5), unit), 0); // crosses
  assert.equal(segmentRectDistance(p(0.2, 0.2), p(5, 5), unit), 0); // starts inside
  assert.equal(segmentRectDistance(p(3, 0.5), p(5, 0.5), unit), 2); // wholly to the right
  // Line x + y = 3 passes the corner (1, 1) at distance |1 + 1 - 3| / sqrt(2).
  assert.ok(Math.abs(segmentRectDistance(p(3, 0), p(0, 3), unit) - Math.SQRT1_2) < 1e-15);
});

test("segmentClearance against rectangles inflated by a radius", () => {
  const far = { minX: 10, minY: 10, maxX: 11, maxY: 11 };
  assert.equal(segmentClearance(p(-1, 1.5), p(2, 1.5), [unit, far]), 0.5);
  assert.equal(segmentClearance(p(-1, 1.5), p(2, 1.5), []), Infinity);
  const c = segmentClearance(p(-1, 1.5), p(2, 1.5), [unit]);
  assert.equal(c >= 0.5, true); // clears a 0.5 m radius when touching is allowed
  assert.equal(c > 0.5, false); // but not strictly
});

test("inflateRect and rectsOverlap", () => {
  assert.deepEqual(inflateRect(unit, 0.5), { minX: -0.5, minY: -0.5, maxX: 1.5, maxY: 1.5 });
  assert.equal(rectsOverlap(unit, { minX: 1, minY: 1, maxX: 2, maxY: 2 }), true); // corner contact
  assert.equal(rectsOverlap(unit, { minX: 1.5, minY: 0, maxX: 2, maxY: 1 }), false);
  assert.equal(rectsOverlap(inflateRect(unit, 0.5), { minX: 1.5, minY: 0, maxX: 2, maxY: 1 }), true);
});
