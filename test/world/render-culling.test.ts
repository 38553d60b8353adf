/**
 * The renderer's occlusion culling (view.ts Frame.hidden, drawPart's chunks): it must skip exactly
 * work whose samples the depth test would reject anyway, so buffers stay identical sample for
 * sample, and it must skip what lies wholly behind nearer surfaces (counts from the geometry).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/stats/rng.js";
import { AA_SAMPLES, CENTRE_SAMPLE, RasterMode, SampleRaster, type SamplePattern } from "../../src/world/render/raster.js";
import { boundingBox, chunkBoxes, Frame, makeView } from "../../src/world/render/view.js";
import type { WorldMesh, WorldMeshPart } from "../../src/world/types.js";
import { camera, mesh, quadPart } from "../fixtures/world/render/scenes.js";

// Looking along +x from 1.25 m: 64 x 48 px, focal 24 px; world -y is to the right, +z up.
const W = 64, H = 48;
const CAM = camera([0, 0, 1.25], 0, 0, 90, W, H);

/** Counts the triangles handed to the rasterizer. */
class CountingRaster extends SampleRaster {
  drawn = 0;
  override draw(...args: Parameters<SampleRaster["draw"]>): void {
    this.drawn++;
    super.draw(...args);
  }
}

/** A part of `triangles` separate small triangles; triangle t from corners(t) (three points). */
function soup(triangles: number, corners: (t: number) => number[]): WorldMeshPart {
  const positions = new Float32Array(triangles * 9);
  for (let t = 0; t < triangles; t++) positions.set(corners(t), t * 9);
  const normals = new Float32Array(triangles * 9);
  for (let v = 0; v < triangles * 3; v++) normals[v * 3] = -1; // facing the camera (-x)
  return { positions, normals, uvs: null, indices: Uint32Array.from({ length: triangles * 3 }, (_, i) => i), diffuse: [0.5, 0.5, 0.5], opacity: 1, texture: null };
}

/** Small triangles scattered (seeded) in the box x in [x0, x0 + 0.2], y in [y0, y1], z in [z0, z1]. */
function scattered(triangles: number, seed: number, x0: number, y0: number, y1: number, z0: number, z1: number): WorldMeshPart {
  const rng = createRng(seed);
  return soup(triangles, () => {
    const x = rng.float(x0, x0 + 0.2), y = rng.float(y0 + 0.05, y1 - 0.05), z = rng.float(z0 + 0.05, z1 - 0.05);
    return [x, y - 0.05, z - 0.05, x, y + 0.05, z - 0.05, x, y, z + 0.05];
  });
}

/** A quad facing the camera at depth x over y in [y0, y1], z in [z0, z1]. */
function wall(x: number, y0: number, y1: number, z0: number, z1: number): WorldMeshPart {
  return quadPart([x, y1, z0], [0, y0 - y1, 0], [0, 0, z1 - z0]);
}

/** Draws every part in order as renderView does (Visibility mode), with or without culling. */
function draw(meshes: WorldMesh[], pattern: SamplePattern, cull: boolean): { depth: Float32Array; ids: Uint32Array; drawn: number } {
  const S = pattern.ox.length;
  const frame = new Frame();
  frame.setup(makeView(CAM), meshes);
  const depth = new Float32Array(W * H * S), ids = new Uint32Array(W * H * S);
  const raster = new CountingRaster(W, H, pattern, depth, ids);
  raster.mode = RasterMode.Visibility;
  for (const vp of frame.parts) if (!cull || !frame.hidden(vp, raster)) frame.drawPart(raster, vp, cull);
  return { depth, ids, drawn: raster.drawn };
}

test("boundingBox and chunkBoxes bound the vertices of the part and of each run of 256 triangles", () => {
  // Triangle t spans x in [t, t + 0.5], y in [-1, 1], z in [0, 2].
  const corners = (t: number) => [t, -1, 0, t, 1, 0, t + 0.5, 0, 2];
  const big = soup(600, corners);
  assert.deepEqual([...boundingBox(big.positions)], [0, -1, 0, 599.5, 1, 2]);
  assert.deepEqual([...chunkBoxes(big)!], [0, -1, 0, 255.5, 1, 2, 256, -1, 0, 511.5, 1, 2, 512, -1, 0, 599.5, 1, 2]);
  // Two chunks or fewer: the part's own box is enough.
  assert.equal(chunkBoxes(soup(512, corners)), null);
});

test("a part behind a nearer wall is skipped whole, and the buffers are those of drawing everything", () => {
  // The wall at x = 2 covers the whole view; behind it a part of 1024 triangles and a small one;
  // in front of it a small visible part (2 triangles).
  const meshes = [
    mesh(1, "wall", [wall(2, -3, 3, -1, 3.5)]),
    mesh(2, "box", [scattered(1024, 7, 5, -1, 1, 0.5, 2)]),
    mesh(3, "box", [scattered(12, 8, 4, -0.5, 0.5, 1, 1.5)]),
    mesh(4, "box", [wall(1.5, -0.2, 0.2, 1, 1.4)]),
  ];
  for (const pattern of [CENTRE_SAMPLE, AA_SAMPLES]) {
    const all = draw(meshes, pattern, false), culled = draw(meshes, pattern, true);
    assert.equal(all.drawn, 2 + 1024 + 12 + 2);
    assert.equal(culled.drawn, 2 + 2);
    assert.deepEqual(culled.depth, all.depth);
    assert.deepEqual(culled.ids, all.ids);
  }
});

test("chunks of a part behind a wall are skipped, chunks beside it are drawn, with the same buffers", () => {
  // The wall covers the left half of the view (world y >= 0, screen x < 32). Chunks 0 and 1 of the
  // 1024-triangle part lie behind it (y in [0.5, 2.5] at x = 5: screen x 20..29.6); chunks 2 and 3
  // to the right, in view (y in [-2.5, -0.5]).
  const rng = createRng(3);
  const part = soup(1024, (t) => {
    const left = t < 512;
    const x = rng.float(5, 5.2), y = left ? rng.float(0.55, 2.45) : rng.float(-2.45, -0.55), z = rng.float(0.55, 1.95);
    return [x, y - 0.05, z - 0.05, x, y + 0.05, z - 0.05, x, y, z + 0.05];
  });
  const meshes = [mesh(1, "wall", [wall(2, 0, 3, -1, 3.5)]), mesh(2, "box", [part])];
  for (const pattern of [CENTRE_SAMPLE, AA_SAMPLES]) {
    const all = draw(meshes, pattern, false), culled = draw(meshes, pattern, true);
    assert.equal(all.drawn, 2 + 1024);
    assert.equal(culled.drawn, 2 + 512);
    assert.deepEqual(culled.depth, all.depth);
    assert.deepEqual(culled.ids, all.ids);
  }
});

test("parts reaching the near plane and parts beside the occluder are never reported hidden", () => {
  const meshes = [
    mesh(1, "wall", [wall(2, 0, 3, -1, 3.5)]),
    // Behind the wall on screen, but its box reaches behind the camera (x from -1 to 5).
    mesh(2, "box", [soup(1, () => [-1, 1, 1, 5, 1.5, 1, 5, 1, 1.5])]),
    // Behind the wall's depth, off to the right of it.
    mesh(3, "box", [scattered(4, 9, 5, -2, -1, 1, 1.5)]),
    // Behind the wall, far to its left.
    mesh(4, "box", [scattered(4, 10, 5, 1, 2, 1, 1.5)]),
  ];
  const frame = new Frame();
  frame.setup(makeView(CAM), meshes);
  const raster = new SampleRaster(W, H, CENTRE_SAMPLE, new Float32Array(W * H), new Uint32Array(W * H));
  frame.drawPart(raster, frame.parts[0]!);
  assert.deepEqual(frame.parts.slice(1).map((vp) => frame.hidden(vp, raster)), [false, false, true]);
});
