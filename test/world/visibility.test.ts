import { test } from "node:test";
import assert from "node:assert/strict";
import type { PinholeCamera } from "../../src/world/camera.js";
import type { Vec3 } from "../../src/world/types.js";
import {
  instanceMaskRle,
  instanceMaskRleCounts,
  objectPixelStats,
  pointVisible,
  projectFloorPoints,
  surfacePointVisible,
  unoccludedFraction,
} from "../../src/world/visibility.js";

test("objectPixelStats: counts and inclusive-exclusive boxes in one pass", () => {
  // 5 x 3, row-major from the top-left.
  const instance = Uint32Array.from([
    0, 4, 4, 0, 9,
    0, 4, 0, 0, 9,
    2, 0, 0, 4, 0,
  ]);
  const stats = objectPixelStats(instance, 5, 3);
  assert.deepEqual([...stats.keys()], [4, 9, 2]);
  assert.deepEqual(stats.get(4), { pixels: 4, bbox: [1, 0, 4, 3] });
  assert.deepEqual(stats.get(9), { pixels: 2, bbox: [4, 0, 5, 2] });
  assert.deepEqual(stats.get(2), { pixels: 1, bbox: [0, 2, 1, 3] });
  assert.throws(() => objectPixelStats(instance, 4, 3), RangeError);
});

test("unoccludedFraction", () => {
  assert.equal(unoccludedFraction(30, 40), 0.75);
  assert.equal(unoccludedFraction(0, 0), 0);
  assert.throws(() => unoccludedFraction(5, 4), RangeError);
  assert.throws(() => unoccludedFraction(1.5, 4), RangeError);
});

test("instanceMaskRle: column-major COCO runs and pycocotools' string", () => {
  // h = 2, w = 3. Columns top to bottom: (0, 7), (7, 0), (7, 7) -> 0 1 1 0 1 1:
  // runs 1 zero, 2 ones, 1 zero, 2 ones. String: 1, 2, 1, then 2 - 2 = 0 (from the fourth count on,
  // the difference from two places earlier) -> "1210".
  const a = Uint32Array.from([0, 7, 7, 7, 0, 7]);
  assert.deepEqual(instanceMaskRleCounts(a, 3, 2, 7), { size: [2, 3], counts: [1, 2, 1, 2] });
  assert.deepEqual(instanceMaskRle(a, 3, 2, 7), { size: [2, 3], counts: "1210" });
  // h = 5, w = 4 with one pixel at column 3, row 2: linear index 3 * 5 + 2 = 17 -> runs 17, 1, 2.
  // 17 = 0b10001: low group 17 has bit 4 set and more follows (value 0) -> 48 + 17 + 32 = 'a', then '0'.
  const b = new Uint32Array(20);
  b[2 * 4 + 3] = 5;
  assert.deepEqual(instanceMaskRleCounts(b, 4, 5, 5).counts, [17, 1, 2]);
  assert.deepEqual(instanceMaskRle(b, 4, 5, 5), { size: [5, 4], counts: "a012" });
  // An id that is absent: one run of zeros.
  assert.deepEqual(instanceMaskRleCounts(b, 4, 5, 6).counts, [20]);
});

test("projectFloorPoints: occluded, visible, out of image, behind", () => {
  // Level camera 1.5 m up looking along +x; vfov 90 over 100 px: f = 50 / tan 45 = 50.
  const camera: PinholeCamera = { position: [0, 0, 1.5], yaw: 0, pitch: 0, vfovDeg: 90, width: 100, height: 100 };
  const depth = new Float32Array(100 * 100).fill(3);
  // (2, 0, 0): right = (0, -1, 0), up = (0, 0, 1): camera coords (0, -1.5, 2) -> (50, 50 + 50 * 1.5 / 2) = (50, 87.5).
  // (4, 0, 0): (50, 50 + 50 * 1.5 / 4) = (50, 68.75).
  // (2, 3, 0): x = 50 + 50 * (-3) / 2 = -25: outside. (-1, 0, 0): behind.
  const points: Vec3[] = [[2, 0, 0], [4, 0, 0], [2, 3, 0], [-1, 0, 0]];
  depth[87 * 100 + 50] = 1.0; // something at 1 m in front of the first point
  depth[68 * 100 + 50] = 3.97; // the floor under the second point, 3 cm nearer than it
  const out = projectFloorPoints(camera, depth, points, 0.05);
  const want = [
    { x: 50, y: 87.5, depth: 2, inImage: true, visible: false },
    { x: 50, y: 68.75, depth: 4, inImage: true, visible: true },
    { x: -25, y: 87.5, depth: 2, inImage: false, visible: false },
  ];
  want.forEach((w, k) => {
    const o = out[k]!;
    // f = 50 / tan(pi / 4) is 50.00000000000001 in doubles.
    assert.ok(Math.abs(o.x - w.x) < 1e-9 && Math.abs(o.y - w.y) < 1e-9 && Math.abs(o.depth - w.depth) < 1e-12, `point ${k}`);
    assert.deepEqual([o.inImage, o.visible], [w.inImage, w.visible], `point ${k}`);
  });
  assert.ok(Number.isNaN(out[3]!.x) && out[3]!.depth === -1 && !out[3]!.inImage && !out[3]!.visible);
  // The tolerance rule: 3.97 >= 4 - 0.05 but not >= 4 - 0.02.
  assert.equal(pointVisible(camera, depth, [4, 0, 0], 0.02), false);
  depth[87 * 100 + 50] = 0; // nothing drawn there: nothing occludes
  assert.equal(pointVisible(camera, depth, [2, 0, 0], 0), true);
  assert.throws(() => projectFloorPoints(camera, new Float32Array(10), points, 0.05), RangeError);
});

test("projectFloorPoints follows camera.ts with pitch", () => {
  // Pitch -45 deg: forward (s, 0, -s), up (s, 0, s) with s = sqrt(1/2). The floor point (1.5, 0, 0)
  // seen from (0, 0, 1.5) is on the axis: image centre (50, 50), depth 1.5 sqrt 2.
  const camera: PinholeCamera = { position: [0, 0, 1.5], yaw: 0, pitch: -Math.PI / 4, vfovDeg: 60, width: 100, height: 100 };
  const depth = new Float32Array(100 * 100).fill(2.2);
  const [p] = projectFloorPoints(camera, depth, [[1.5, 0, 0]], 0.01);
  assert.ok(Math.abs(p!.x - 50) < 1e-12 && Math.abs(p!.y - 50) < 1e-12);
  assert.ok(Math.abs(p!.depth - 1.5 * Math.SQRT2) < 1e-12);
  assert.equal(p!.visible, true);
  depth[50 * 100 + 50] = 2.0; // nearer than 2.1213 - 0.01
  assert.equal(surfacePointVisible(camera, depth, [1.5, 0, 0], 0.01), false);
  assert.equal(surfacePointVisible(camera, depth, [1.5, 0, 0], 0.2), true);
});
