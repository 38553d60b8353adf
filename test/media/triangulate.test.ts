import assert from "node:assert/strict";
import { test } from "node:test";
import type { Point2 } from "../../src/media/scene2d.js";
import { earClip, signedArea } from "../../src/media/triangulate.js";
import { SCENE_A } from "./scenes.js";

function trisArea(points: ReadonlyArray<Point2>, idx: number[]): number {
  let s = 0;
  for (let i = 0; i < idx.length; i += 3) {
    const a = points[idx[i]!]!, b = points[idx[i + 1]!]!, c = points[idx[i + 2]!]!;
    const t = ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
    assert.ok(t > 0, "every triangle counter-clockwise and non-degenerate");
    s += t;
  }
  return s;
}

test("earClip: convex and concave, either orientation: n-2 triangles covering the area", () => {
  const shapes: Point2[][] = [
    [[0, 0], [4, 0], [4, 3], [0, 3]],
    [[15, -30], [15, -25], [25, -25], [25, -15], [30, -15], [30, -30]], // clockwise L
    SCENE_A.polygons[2]! as Point2[], // curved band, 26 corners
    [[0, 0], [10, 0], [10, 10], [5, 2], [0, 10]], // deep notch
  ];
  for (const shape of shapes) {
    for (const pts of [shape, [...shape].reverse()]) {
      const idx = earClip(pts);
      assert.equal(idx.length / 3, pts.length - 2);
      assert.ok(Math.abs(trisArea(pts, idx) - Math.abs(signedArea(pts))) < 1e-9);
    }
  }
});

test("earClip: closing point, duplicates and collinear corners; degenerate input", () => {
  const closed: Point2[] = [[0, 0], [2, 0], [2, 0], [4, 0], [4, 4], [0, 4], [0, 0]];
  const idx = earClip(closed);
  assert.ok(Math.abs(trisArea(closed, idx) - 16) < 1e-9);
  assert.ok(idx.length / 3 <= 3); // duplicate and closing point ignored; no zero-area triangle
  assert.deepEqual(earClip([[0, 0], [1, 1]]), []);
  assert.deepEqual(earClip([[0, 0], [1, 1], [2, 2]]), []);
  assert.deepEqual(earClip([]), []);
  // A self-crossing bow tie still terminates.
  assert.ok(Array.isArray(earClip([[0, 0], [2, 2], [2, 0], [0, 2]])));
});
