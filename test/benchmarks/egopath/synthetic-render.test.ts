import assert from "node:assert/strict";
import { test } from "node:test";
import { clipNear, makeCamera, project, segmentHitsBox } from "../../../src/benchmarks/egopath/synthetic/camera.js";
import { digitRects } from "../../../src/benchmarks/egopath/synthetic/digits.js";

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

test("pinhole projection: centre, right, up, behind", () => {
  // 90 degree horizontal field of view on a 320 px image: focal length 160 px.
  const cam = makeCamera([0, 0, 1], 0, 0, 320, 240, 90);
  close(cam.focal, 160);
  const centre = project(cam, [2, 0, 1])!;
  close(centre[0], 160);
  close(centre[1], 120);
  const right = project(cam, [2, -1, 1])!; // looking along +x, -y is to the right
  close(right[0], 240);
  close(right[1], 120);
  const up = project(cam, [2, 0, 2])!;
  close(up[0], 160);
  close(up[1], 40);
  assert.equal(project(cam, [-1, 0, 1]), null);
});

test("a camera pitched down sees the floor below the image centre", () => {
  const cam = makeCamera([0, 0, 1.4], Math.PI / 2, Math.PI / 6, 320, 240, 70);
  // The optical axis meets the floor 1.4 / tan(30 deg) ahead along +y.
  const hit = project(cam, [0, 1.4 / Math.tan(Math.PI / 6), 0])!;
  close(hit[0], 160);
  close(hit[1], 120);
});

test("clipNear cuts a triangle at depth 0.05", () => {
  const out = clipNear([
    [0, 0, -1],
    [1, 0, 1],
    [-1, 0, 1],
  ]);
  assert.equal(out.length, 4);
  const expected = [
    [0.525, 0, 0.05],
    [1, 0, 1],
    [-1, 0, 1],
    [-0.525, 0, 0.05],
  ];
  out.forEach((p, i) => p.forEach((v, k) => close(v, expected[i]![k]!)));
});

test("segmentHitsBox", () => {
  const min = [1, -1, 0] as const;
  const max = [2, 1, 2] as const;
  assert.equal(segmentHitsBox([0, 0, 1], [4, 0, 1], min, max), true);
  assert.equal(segmentHitsBox([0, 0, 3], [4, 0, 3], min, max), false); // passes over
  assert.equal(segmentHitsBox([0, 0, 1], [0.5, 0, 1], min, max), false); // stops short
});

test("digitRects lays out 3x5 glyphs centred on the marker", () => {
  const one = digitRects("1", 10, 10, 2);
  assert.equal(one.length, 8); // 010 110 010 010 111
  assert.deepEqual(one[0], { x: 9, y: 5, w: 2, h: 2 });
  const twelve = digitRects("12", 10, 10, 2);
  assert.equal(twelve.length, 8 + 11);
  assert.equal(Math.min(...twelve.map((r) => r.x)), 3); // 7 cells * 2 px wide, centred on 10
  assert.equal(Math.max(...twelve.map((r) => r.x + r.w)), 17);
  assert.throws(() => digitRects("x", 0, 0, 1));
});
