import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { decodeRgb } from "../../src/media/png.js";
import { DEFAULT_AMBIENT, DEFAULT_LIGHT_DIR, projectPoint, type Vec3 } from "../../src/media/raster3d.js";
import { patheval3DCamera, renderMap3D, STYLE_3D } from "../../src/media/render3d.js";
import { PATHEVAL_GOAL, PATHEVAL_START, type PathEvalScene } from "../../src/media/scene2d.js";
import { SCENE_A, SCENE_B, SCENE_C } from "./scenes.js";

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

// Golden hashes of the PNG bytes: the rasterizer is pure integer-exact JS, so these move only with
// a change of the renderer or of the sharp/libvips PNG encoder.
const GOLDEN_3D: Record<string, string> = {
  A: "24ca13639ec14b7f20efc66db9f997bbc19fbb069d7a0e521577a05ae217c6d9",
  B: "fc0a7dc7ffec7351e1e6a245051b8b037de401678a9e27b6f88cc86ccae25d94",
};

test("renderMap3D: golden PNG bytes for two fixed scenes; same input, same bytes", async () => {
  for (const [name, scene] of [["A", SCENE_A], ["B", SCENE_B]] as const) {
    const first = await renderMap3D(scene);
    const second = await renderMap3D(structuredClone(scene));
    assert.ok(first.equals(second), `scene ${name}: two renders differ`);
    assert.equal(sha256(first), GOLDEN_3D[name], `scene ${name}: golden hash`);
  }
});

async function render(scene: PathEvalScene, extra: { obstacleHeight?: number; width?: number; height?: number } = {}) {
  const png = await renderMap3D({ ...scene, ...extra });
  const img = await decodeRgb(png);
  const cam = patheval3DCamera(img.width, img.height);
  const at = (p: Vec3): [number, number, number] => {
    const q = projectPoint(img, cam, p);
    assert.ok(q, `point ${p} not in view`);
    const i = (Math.floor(q.y) * img.width + Math.floor(q.x)) * 3;
    return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
  };
  return { ...img, at };
}

const FLOOR = [...STYLE_3D.floor];
const BLUE = [0, 0, 255];
const RED = [255, 0, 0];

/** The obstacle colour on a face whose normal is +z (Lambert, as the renderer shades it). */
function obstacleTop(): number[] {
  const l = DEFAULT_LIGHT_DIR;
  const k = DEFAULT_AMBIENT + (1 - DEFAULT_AMBIENT) * Math.max(0, l[2] / Math.hypot(l[0], l[1], l[2]));
  return STYLE_3D.obstacle.map((c) => Math.round(c * k));
}

test("renderMap3D: 1280x720, markers, floor, obstacle top, path", async () => {
  const a = await render(SCENE_A);
  assert.equal(a.width, 1280);
  assert.equal(a.height, 720);
  // Goal disc centre: blue (the path ends there but the disc lies just above it).
  assert.deepEqual(a.at([PATHEVAL_GOAL[0], PATHEVAL_GOAL[1], 0.06]), BLUE);
  assert.deepEqual(a.at([PATHEVAL_START[0], PATHEVAL_START[1], 0.06]), RED);
  // Top of the centre obstacle: the shaded obstacle colour, a dark brown-grey, not the floor.
  const top = a.at([0, 0, 2]);
  assert.deepEqual(top, obstacleTop());
  assert.notDeepEqual(top, FLOOR);
  assert.ok(Math.max(...top) - Math.min(...top) < 40 && Math.max(...top) < 140, `obstacle top ${top}`);
  // Long path segment midpoint: red.
  assert.deepEqual(a.at([0, 20, 0.05]), RED);
  // Free floor beside things: floor grey; sky above the far edge: white.
  assert.deepEqual(a.at([20, 0, 0]), FLOOR);
  assert.deepEqual(a.at([0, 60, 0]), [255, 255, 255]);
  // Scene B has a free centre: the floor centre pixel is floor grey.
  const b = await render(SCENE_B);
  assert.deepEqual(b.at([0, 0, 0]), FLOOR);
  // The whole square is in view with the release camera: all four floor corners project inside.
  const cam = patheval3DCamera();
  for (const c of [[-40, -40, 0], [40, -40, 0], [40, 40, 0], [-40, 40, 0]] as Vec3[]) {
    const q = projectPoint({ width: 1280, height: 720 }, cam, c)!;
    assert.ok(q.x > 0 && q.x < 1280 && q.y > 0 && q.y < 720, `corner ${c} at ${q.x},${q.y}`);
  }
});

test("renderMap3D: the z-buffer hides a path segment behind a tall obstacle", async () => {
  // Scene C: a wall x in [-12, 12], y in [-2, 2]; the path runs along y = 10 behind it (north,
  // away from the camera). The ray to the path midpoint (0, 10) crosses the wall's south face at
  // height 8.3, so a wall 12 high hides it and a wall 2 high does not.
  const tall = await render(SCENE_C, { obstacleHeight: 12 });
  const low = await render(SCENE_C);
  const mid: Vec3 = [0, 10, 0.05];
  assert.deepEqual(low.at(mid), RED);
  const hidden = tall.at(mid);
  assert.notDeepEqual(hidden, RED);
  assert.ok(Math.max(...hidden) < 140 && hidden[0] - hidden[2] < 60, `hidden pixel ${hidden} should be obstacle`);
  // The same segment beside the wall stays visible in both.
  assert.deepEqual(tall.at([-17, 10, 0.05]), RED);
  assert.deepEqual(low.at([-17, 10, 0.05]), RED);
});

test("renderMap3D: other sizes keep the view; bad input is an error", async () => {
  const s = await render(SCENE_A, { width: 640, height: 360 });
  assert.equal(s.width, 640);
  assert.deepEqual(s.at([PATHEVAL_GOAL[0], PATHEVAL_GOAL[1], 0.06]), BLUE);
  assert.deepEqual(s.at([0, 0, 2]), obstacleTop());
  await assert.rejects(renderMap3D({ polygons: [], path: [[0, 0], [Number.POSITIVE_INFINITY, 1]] }), /path\[1\]/);
  await assert.rejects(renderMap3D({ ...SCENE_A, obstacleHeight: 0 }), /obstacleHeight/);
  // Degenerate polygons (fewer than 3 distinct corners) are skipped, not an error.
  const odd = await render({ polygons: [[[1, 1], [1, 1], [1, 1]], [[2, 2], [3, 3]], []], path: [] });
  assert.deepEqual(odd.at([0, 0, 0]), FLOOR);
});
