/**
 * The world renderer (src/world/render): pixel checks of known geometry computed by hand from the
 * pinhole model, determinism, and golden images of fixed scenes.
 *
 * Most checks use a 64 x 48 camera at (0, 0, 1.25) looking along +x (yaw 0, pitch 0) with a
 * 90-degree vertical field of view: focal length f = 24 px, principal point (32, 24). A world
 * point (x, y, z) is at depth x, image column 32 - 24 y / x and row 24 - 24 (z - 1.25) / x.
 *
 * Golden images (test/fixtures/world/render/*.png) are compared byte for byte; regenerate them
 * with UPDATE_GOLDEN=1 after an intended change (and look at them).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import {
  decodeDepthPng16,
  decodeInstancePng,
  depthToPng16,
  encodeRgbPng,
  prepareShadows,
  renderDepth,
  renderInstanceCoverage,
  renderView,
  type RenderBuffers,
} from "../../src/world/render/index.js";
import { AA_SAMPLES, CENTRE_SAMPLE, RasterMode, SampleRaster, SUB } from "../../src/world/render/raster.js";
import { linearToSrgb8, SRGB_TO_LINEAR } from "../../src/world/render/texture.js";
import { triangleTwins, TWIN_NONE, TWIN_REPEAT, TWIN_REVERSED } from "../../src/world/render/twins.js";
import { categoryId, type Texture, type WorldMesh } from "../../src/world/types.js";
import { decodeRgb } from "../../src/media/png.js";
import { boxPart, camera, ceilingLight, checkerTexture, mesh, ModelPlacer, plankTexture, quadPart, roomMeshes } from "../fixtures/world/render/scenes.js";

const GOLDEN_DIR = path.resolve(import.meta.dirname, "../fixtures/world/render");
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

const W = 64, H = 48;
const CAM = camera([0, 0, 1.25], 0, 0, 90, W, H);
const UNLIT = { shading: "unlit" } as const;

/** IEC 61966-2-1 encoding of a linear value to a byte, written out here independently of the renderer. */
function srgbByte(linear: number): number {
  const e = linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
  return Math.round(255 * Math.min(1, Math.max(0, e)));
}

/** A quad facing the camera in the plane x = depth, spanning world y in [y0, y1] and z in [z0, z1]. */
function facingQuad(depth: number, y0: number, y1: number, z0: number, z1: number, style: Parameters<typeof quadPart>[3] = {}) {
  // origin at the screen's bottom-left (largest y, smallest z); u to the right (-y), v up (+z).
  return quadPart([depth, y1, z0], [0, y0 - y1, 0], [0, 0, z1 - z0], style);
}

/** Pixels whose centres lie strictly inside the image rectangle [x0, x1) x [y0, y1). */
function pixelsInside(x0: number, x1: number, y0: number, y1: number): Set<number> {
  const out = new Set<number>();
  for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) if (i + 0.5 > x0 && i + 0.5 < x1 && j + 0.5 > y0 && j + 0.5 < y1) out.add(j * W + i);
  return out;
}

function px(b: RenderBuffers, i: number, j: number): [number, number, number] {
  const o = (j * b.width + i) * 3;
  return [b.rgb[o]!, b.rgb[o + 1]!, b.rgb[o + 2]!];
}

test("sRGB: decoding a byte and encoding it again gives the byte back, for all 256", () => {
  for (let b = 0; b < 256; b++) assert.equal(linearToSrgb8(SRGB_TO_LINEAR[b]!), b);
  assert.equal(linearToSrgb8(0.2), srgbByte(0.2));
  assert.equal(linearToSrgb8(0.5), srgbByte(0.5));
});

/**
 * Seeded triangles for a w x h raster, triangle t (1, 2, ...) from `seededTriangles(seed, w, h)(t)`:
 * every size, exact (integer) sub-pixel corners, a third of them snapped to multiples of 8
 * sub-steps (the samples' grid) so edges pass through samples; corners x, y, z key.
 */
function seededTriangles(seed: number, w: number, h: number): (t: number) => number[] {
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return (t) => {
    const size = [0.5, 2, 8, 30][t % 4]! * SUB;
    const x = (next() * (w + 4) - 2) * SUB, y = (next() * (h + 4) - 2) * SUB;
    const c = [0, 1, 2].flatMap(() => [Math.round(x + next() * size), Math.round(y + next() * size), 0.1 + next()]);
    if (t % 3 === 0) for (let k = 0; k < 9; k += 3) { c[k] = Math.round(c[k]! / 8) * 8; c[k + 1] = Math.round(c[k + 1]! / 8) * 8; }
    return c;
  };
}

test("the rasterizer's fast paths give the same samples as its general routine", () => {
  const w = 40, h = 30;
  const triangle = seededTriangles(12345, w, h);
  for (const [pattern, fast] of [[AA_SAMPLES, "triangleAA"], [CENTRE_SAMPLE, "triangleCentre"]] as const) {
    const S = pattern.ox.length;
    const general = new SampleRaster(w, h, pattern, new Float32Array(w * h * S), new Uint32Array(w * h * S));
    const quick = new SampleRaster(w, h, pattern, new Float32Array(w * h * S), new Uint32Array(w * h * S));
    general.mode = quick.mode = RasterMode.Visibility;
    let covering = 0;
    for (let t = 1; t <= 3000; t++) {
      const c = triangle(t);
      // Half the time over an earlier triangle's samples (depth test), half on a cleared buffer.
      if (t % 2 === 0) {
        general.depth.fill(0); general.ids!.fill(0); quick.depth.fill(0); quick.ids!.fill(0);
      }
      general.triangle(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, t);
      quick[fast](c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, t);
      let same = true, covered = false;
      for (let q = 0; q < w * h * S; q++) {
        if (general.ids![q] !== quick.ids![q] || general.depth[q] !== quick.depth[q]) same = false;
        if (general.ids![q] === t) covered = true;
      }
      assert.ok(same, `${fast}: triangle ${t} (${c.join(", ")}) differs`);
      if (covered) covering++;
    }
    assert.ok(covering > 1000, `only ${covering} of 3000 triangles cover a sample`);
  }
});

test("Stamp mode's centre-sample fast path marks and counts the same samples as the general routine", () => {
  // Seeded triangles stamped in turns of 1..5 over each other: each call's count is the samples
  // it newly marks, so overlapping triangles of one stamp count their union once.
  const w = 40, h = 30;
  const triangle = seededTriangles(777, w, h);
  const general = new SampleRaster(w, h, CENTRE_SAMPLE, new Float32Array(w * h), new Uint32Array(w * h));
  const quick = new SampleRaster(w, h, CENTRE_SAMPLE, new Float32Array(w * h), new Uint32Array(w * h));
  general.mode = quick.mode = RasterMode.Stamp;
  assert.equal(quick.routine(), 0, "stamp 0 (the cleared value) keeps the general routine");
  let marked = 0;
  for (let t = 1; t <= 2000; t++) {
    const c = triangle(t);
    if (t % 50 === 0) { general.ids!.fill(0); quick.ids!.fill(0); }
    general.stamp = quick.stamp = 1 + (Math.floor(t / 7) % 5);
    general.stamped = quick.stamped = 0;
    assert.equal(quick.routine(), 2);
    general.triangle(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, t);
    quick.draw(quick.routine(), Float64Array.from(c), 0, 3, 6, t);
    assert.equal(quick.stamped, general.stamped, `triangle ${t} (${c.join(", ")}): count`);
    assert.deepEqual(quick.ids, general.ids, `triangle ${t} (${c.join(", ")}): marks`);
    marked += general.stamped;
  }
  assert.ok(marked > 3000, `only ${marked} samples marked`);
});

test("a quad at 2 m covers exactly the pixels whose centres fall inside its projection, at depth 2", () => {
  // y in [-0.3, 0.6] -> columns 32 - 12 y in [24.8, 35.6]; z in [1.05, 1.95] -> rows [15.6, 26.4].
  const quad = mesh(7, "picture", [facingQuad(2, -0.3, 0.6, 1.05, 1.95, { diffuse: [1, 1, 1] })]);
  const b = renderView([quad], CAM, UNLIT);
  const expected = pixelsInside(24.8, 35.6, 15.6, 26.4);
  assert.equal(expected.size, 11 * 10); // columns 25..35, rows 16..25
  for (let p = 0; p < W * H; p++) {
    if (expected.has(p)) {
      assert.equal(b.instance[p], 7, `pixel ${p % W},${Math.floor(p / W)}`);
      assert.equal(b.depth[p], 2);
      assert.equal(b.category[p], categoryId("picture"));
    } else {
      assert.equal(b.instance[p], 0, `pixel ${p % W},${Math.floor(p / W)}`);
      assert.equal(b.depth[p], 0);
      assert.equal(b.category[p], 0);
    }
  }
  // Interior pixels are pure white; nothing is drawn outside the antialiasing fringe.
  assert.deepEqual(px(b, 30, 20), [255, 255, 255]);
  assert.deepEqual(px(b, 10, 10), [0, 0, 0]);
  assert.equal(renderInstanceCoverage([quad], CAM).get(7), 110);
});

test("depth of a floor seen at a grazing angle is the distance along the viewing axis (1.25 f / (row centre - 24))", () => {
  // The floor runs from behind the camera to 30 m ahead: triangles cross the near plane and are clipped.
  const floor = mesh(1_000_000, "floor", [quadPart([-5, -30, 0], [35, 0, 0], [0, 60, 0], { diffuse: [0.5, 0.5, 0.5] })]);
  const b = renderView([floor], CAM, UNLIT);
  for (let j = 0; j < H; j++) {
    for (const i of [0, 17, 32, 63]) {
      const p = j * W + i;
      const yc = j + 0.5;
      const expected = yc > 24 ? (1.25 * 24) / (yc - 24) : 0;
      if (expected > 30 || expected === 0) {
        // Above the horizon or past the floor's far edge (x = 30): nothing.
        if (expected === 0) assert.equal(b.instance[p], 0, `row ${j}`);
        continue;
      }
      assert.equal(b.instance[p], 1_000_000, `row ${j} col ${i}`);
      assert.ok(Math.abs(b.depth[p]! - expected) <= 1e-6 * expected, `row ${j}: ${b.depth[p]} vs ${expected}`);
    }
  }
  // The bottom row (centre 47.5): 1.25 * 24 / 23.5 = 1.2766 m.
  assert.ok(Math.abs(b.depth[47 * W + 5]! - 30 / 23.5) < 1e-6);
});

test("renderDepth: the floor's depth along the viewing axis, and bit for bit the depth of an unlit centre-sample renderView", async () => {
  const floor = mesh(1_000_000, "floor", [quadPart([-5, -30, 0], [35, 0, 0], [0, 60, 0], { diffuse: [0.5, 0.5, 0.5] })]);
  const d = renderDepth([floor], CAM);
  for (let j = 25; j < H; j++) {
    const expected = (1.25 * 24) / (j + 0.5 - 24);
    if (expected <= 30) assert.ok(Math.abs(d[j * W + 17]! - expected) <= 1e-6 * expected, `row ${j}`);
  }
  assert.equal(d[10 * W + 17], 0);
  // Whole scenes and single objects (the VCN depth test draws each object alone), several views;
  // glass draws no depth in either.
  const meshes = await smallRoom();
  const views = [camera([0.4, 0.5, 1.3], 0.6, -0.2, 80, W, H), camera([2.8, 2.6, 1.1], -2.3, -0.35, 95, 96, 72), camera([1.6, 0.2, 1.6], Math.PI / 2, -0.6, 60, 40, 40)];
  for (const view of views) {
    for (const subset of [meshes, ...meshes.map((m) => [m])]) {
      const want = renderView(subset, view, { shading: "unlit", antialias: false, ambientOcclusion: false, shadows: false }).depth;
      assert.deepEqual(renderDepth(subset, view), want);
    }
  }
});

test("a nearer box hides a farther one in the instance, depth and category buffers", () => {
  // Box A: front face at x = 3, |y|, |z - 1.25| <= 0.3 -> image half-size 24 * 0.3 / 3 = 2.4 px.
  // Box B: front face at x = 5, half-size 1 -> 4.8 px. Both centred on the axis (32, 24).
  const a = mesh(11, "chair", [boxPart([3, -0.3, 0.95], [3.6, 0.3, 1.55], { diffuse: [1, 0, 0] })]);
  const b = mesh(12, "table", [boxPart([5, -1, 0.25], [6, 1, 2.25], { diffuse: [0, 0, 1] })]);
  for (const order of [[a, b], [b, a]]) {
    const r = renderView(order, CAM, UNLIT);
    const nearA = pixelsInside(32 - 2.4, 32 + 2.4, 24 - 2.4, 24 + 2.4);
    const nearB = pixelsInside(32 - 4.8, 32 + 4.8, 24 - 4.8, 24 + 4.8);
    for (let p = 0; p < W * H; p++) {
      const want = nearA.has(p) ? 11 : nearB.has(p) ? 12 : 0;
      assert.equal(r.instance[p], want, `pixel ${p % W},${Math.floor(p / W)}`);
      assert.equal(r.category[p], want === 11 ? categoryId("chair") : want === 12 ? categoryId("table") : 0);
      assert.equal(r.depth[p], want === 11 ? 3 : want === 12 ? 5 : 0);
    }
    assert.deepEqual(px(r, 32, 24), [255, 0, 0]);
    assert.deepEqual(px(r, 28, 24), [0, 0, 255]);
    // Drawn alone, each box covers its whole silhouette; the occluded box's count is unchanged by A.
    const cov = renderInstanceCoverage(order, CAM);
    assert.equal(cov.get(11), nearA.size);
    assert.equal(cov.get(12), nearB.size);
    assert.deepEqual([...renderInstanceCoverage(order, CAM, [12, 99]).entries()].sort(), [[12, nearB.size], [99, 0]]);
  }
});

test("a textured quad shows each texel's colour where the pixel centre falls on the texel's centre (v = 0 at the bottom)", () => {
  // 4 x 4 texels, colour of texel (k, r) (r = 0 the top row) = (40 + 50 k, 30 + 60 r, 200 - 40 k).
  const data = new Uint8Array(4 * 4 * 4);
  for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) data.set([40 + 50 * k, 30 + 60 * r, 200 - 40 * k, 255], (r * 4 + k) * 4);
  const texture: Texture = { width: 4, height: 4, data };
  // y in [-0.5, 0.5], z in [0.75, 1.75] -> image [26, 38) x [18, 30): 3 x 3 pixels per texel.
  const quad = mesh(5, "picture", [facingQuad(2, -0.5, 0.5, 0.75, 1.75, { diffuse: [1, 1, 1], texture })]);
  const b = renderView([quad], CAM, UNLIT);
  let checked = 0;
  for (let r = 0; r < 4; r++) {
    for (let k = 0; k < 4; k++) {
      // Texel (k, r) spans columns 26 + 3k .. 28 + 3k and rows 18 + 3r .. 20 + 3r; its centre is
      // pixel (27 + 3k, 19 + 3r). Pixels on the quad's diagonal (k + r = 3) hold samples of both
      // triangles, each shaded at its own sample point, so they are left out.
      if (k + r === 3) continue;
      assert.deepEqual(px(b, 27 + 3 * k, 19 + 3 * r), [40 + 50 * k, 30 + 60 * r, 200 - 40 * k], `texel ${k},${r}`);
      checked++;
    }
  }
  assert.equal(checked, 12);
  // The diffuse colour multiplies the texture (linear light): half of texel (0, 0) in linear terms.
  const half = renderView([mesh(5, "picture", [facingQuad(2, -0.5, 0.5, 0.75, 1.75, { diffuse: [0.5, 0.5, 0.5], texture })])], CAM, UNLIT);
  assert.deepEqual(px(half, 27, 19), [40, 30, 200].map((c) => srgbByte(SRGB_TO_LINEAR[c]! * 0.5)));
});

test("antialiasing: a pixel one fifth covered gets one fifth of the colour, in linear light", () => {
  // Right edge at column 32 - 24 * y / 2 = 30.25 (y = 0.145833...): pixel 30's samples sit at
  // 30.1, 30.3, 30.5, 30.7, 30.9, so one of the five is inside.
  const yRight = ((32 - 30.25) * 2) / 24;
  const quad = mesh(3, "picture", [facingQuad(2, yRight, 0.5, 0.75, 1.75, { diffuse: [1, 1, 1] })]);
  const b = renderView([quad], CAM, UNLIT);
  assert.deepEqual(px(b, 30, 24), [srgbByte(0.2), srgbByte(0.2), srgbByte(0.2)]);
  assert.deepEqual(px(b, 29, 24), [255, 255, 255]);
  assert.deepEqual(px(b, 31, 24), [0, 0, 0]);
  // The instance buffer takes the centre sample only (30.5 is outside).
  assert.equal(b.instance[24 * W + 30], 0);
  assert.equal(b.instance[24 * W + 29], 3);
  const plain = renderView([quad], CAM, { ...UNLIT, antialias: false });
  assert.deepEqual(px(plain, 30, 24), [0, 0, 0]);
});

test("glass is blended into RGB only; a cut-out texture leaves holes in every buffer", () => {
  const wall = mesh(20, "wall", [facingQuad(4, -2, 2, 0, 2.5, { diffuse: [0, 0, 1] })]);
  const glass = mesh(21, "window", [facingQuad(2, -0.5, 0.5, 0.75, 1.75, { diffuse: [1, 0, 0], opacity: 0.3 })]);
  const b = renderView([wall, glass], CAM, UNLIT);
  assert.equal(b.instance[24 * W + 32], 20);
  assert.equal(b.depth[24 * W + 32], 4);
  // 0.7 * blue + 0.3 * red, linear.
  assert.deepEqual(px(b, 32, 24), [srgbByte(0.3), 0, srgbByte(0.7)]);
  assert.deepEqual(renderInstanceCoverage([wall, glass], CAM).get(21), 0);

  // Alpha 0 in the texture's left half: the quad's left half is not there.
  const data = new Uint8Array(2 * 1 * 4);
  data.set([255, 255, 0, 0, 255, 255, 0, 255]);
  const cut = mesh(22, "plant", [facingQuad(2, -0.5, 0.5, 0.75, 1.75, { diffuse: [1, 1, 1], texture: { width: 2, height: 1, data } })]);
  const c = renderView([wall, cut], CAM, UNLIT);
  assert.equal(c.instance[24 * W + 28], 20); // left half (columns 26..31): the wall behind
  assert.equal(c.instance[24 * W + 35], 22); // right half (columns 32..37): the quad
  assert.deepEqual(px(c, 35, 24), [255, 255, 0]);
  // Bilinear alpha reaches 0.5 at u = 0.5 (column 32): columns 32..37 x rows 18..29 remain.
  assert.equal(renderInstanceCoverage([cut], CAM).get(22), 6 * 12);
});

test("light: a key light along the normal and a point light straight above give the hand-computed colour", () => {
  const black = { sky: [0, 0, 0] as [number, number, number], ground: [0, 0, 0] as [number, number, number] };
  // Key light towards the camera on a grey quad facing it: linear 0.5 * 0.8.
  const quad = mesh(1, "picture", [facingQuad(2, -0.5, 0.5, 0.75, 1.75, { diffuse: [0.5, 0.5, 0.5] })]);
  const k = renderView([quad], CAM, { ambient: black, keyLight: { direction: [-1, 0, 0], color: [0.8, 0.8, 0.8] }, ambientOcclusion: false });
  assert.deepEqual(px(k, 32, 24), [srgbByte(0.4), srgbByte(0.4), srgbByte(0.4)]);
  // A light 2 m above the floor point seen by the centre pixel of a 33 x 33 camera looking straight
  // down: irradiance 4 m^2 * down(1) * (1 - (2/8)^4)^2 * cos 0 / (2 m)^2, times albedo 0.5.
  const floor = mesh(2, "floor", [quadPart([-3, -3, 0], [6, 0, 0], [0, 6, 0], { diffuse: [0.5, 0.5, 0.5] })]);
  const down = camera([0, 0, 1.25], 0, -90, 60, 33, 33);
  const light = { position: [0, 0, 2] as [number, number, number], color: [1, 1, 1] as [number, number, number], room: "r" };
  const e = 4 * Math.pow(1 - Math.pow(2 / 8, 4), 2) / 4;
  for (const shadows of [true, false]) {
    const f = renderView([floor], down, { lights: [light], ambient: black, ambientOcclusion: false, shadows });
    const o = (16 * 33 + 16) * 3;
    assert.deepEqual([f.rgb[o], f.rgb[o + 1], f.rgb[o + 2]], [0, 1, 2].map(() => srgbByte(0.5 * e)), `shadows ${shadows}`);
  }
  // A box between the light and the floor puts that point in shadow: only the (black) ambient is left.
  const blocker = mesh(3, "box", [boxPart([-0.2, -0.2, 1.5], [0.2, 0.2, 1.6])]);
  const prepared = prepareShadows([floor, blocker], [light]);
  // Maps are built when a view first needs them, but a bad size is refused at once.
  assert.throws(() => prepareShadows([floor, blocker], [light], { shadowMapSize: 10 }), /shadow map size must be an integer in 16\.\.8192, got 10/);
  const camBelow = camera([0.001, 0, 1.0], 0, -90, 60, 33, 33);
  const s = renderView([floor, blocker], camBelow, { lights: [light], ambient: black, ambientOcclusion: false, shadows: prepared });
  assert.deepEqual(px(s, 16, 16), [0, 0, 0]);
  // The prepared maps are used as given (the blocker's shadow stays without the blocker mesh) ...
  assert.deepEqual(px(renderView([floor], camBelow, { lights: [light], ambient: black, ambientOcclusion: false, shadows: prepared }), 16, 16), [0, 0, 0]);
  // ... while maps built for the view see no blocker.
  assert.ok(px(renderView([floor], camBelow, { lights: [light], ambient: black, ambientOcclusion: false }), 16, 16)[0] > 150);
});

test("twin triangles: of a face repeated with the opposite winding only the side facing the eye is drawn", () => {
  // A quad facing the camera (normals towards it), repeated reversed with unrelated normals (+y),
  // as many catalogue models are built; plus one exact repeat of the first triangle.
  const q = facingQuad(2, -0.5, 0.5, 0.75, 1.75);
  const positions = new Float32Array([...q.positions, ...q.positions]);
  const normals = new Float32Array([...q.normals, ...[0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]]);
  const indices = new Uint32Array([0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 1, 2, 0]);
  const part = { positions, normals, uvs: null, indices, diffuse: [0.5, 0.5, 0.5] as [number, number, number], opacity: 1, texture: null };
  assert.deepEqual(Array.from(triangleTwins(part)!), [TWIN_REVERSED, TWIN_REVERSED, TWIN_REVERSED, TWIN_REVERSED, TWIN_REPEAT]);
  assert.equal(triangleTwins(facingQuad(2, -0.5, 0.5, 0.75, 1.75)), null);
  assert.equal(TWIN_NONE, 0);
  const black = { sky: [0, 0, 0] as [number, number, number], ground: [0, 0, 0] as [number, number, number] };
  const options = { ambient: black, keyLight: { direction: [-1, 0, 0] as [number, number, number], color: [0.8, 0.8, 0.8] as [number, number, number] }, ambientOcclusion: false };
  const b = renderView([mesh(1, "picture", [part])], CAM, options);
  // Columns 26..37, rows 18..29, every interior pixel lit by the key light through the front normals.
  const want = srgbByte(0.4);
  for (let j = 19; j < 29; j++) for (let i = 27; i < 37; i++) assert.deepEqual(px(b, i, j), [want, want, want], `pixel ${i},${j}`);
  assert.equal(renderInstanceCoverage([mesh(1, "picture", [part])], CAM).get(1), 144);
  // From behind, the reversed copy (normal +y after facing the eye: perpendicular to the key light) shows.
  const behind = camera([4, 0, 1.25], 180, 0, 90, W, H);
  const r = renderView([mesh(1, "picture", [part])], behind, { ...options, keyLight: { direction: [1, 0, 0], color: [0.8, 0.8, 0.8] } });
  assert.deepEqual(px(r, 32, 24), [0, 0, 0]);
  assert.equal(r.instance[24 * W + 32], 1);
});

test("malformed parts are refused with the mesh named", () => {
  const q = facingQuad(2, -0.5, 0.5, 0.75, 1.75);
  assert.throws(() => renderView([mesh(9, "box", [{ ...q, normals: q.normals.subarray(0, 6) }])], CAM), /mesh 9 \(box\): 2 normals for 4 vertices/);
  assert.throws(() => renderView([mesh(9, "box", [{ ...q, indices: Uint32Array.from([0, 1, 7]) }])], CAM), /mesh 9: triangle 0 indexes past the 4 vertices/);
  assert.throws(() => renderView([mesh(9, "box", [q])], { ...CAM, width: 0 }), /whole pixels/);
});

test("same inputs, same bytes", async () => {
  const meshes = await smallRoom();
  const cam = camera([0.6, 0.7, 1.25], 35, -8, 80, 120, 90);
  const options = { lights: [ceilingLight(1.6, 1.5, 2.45)] };
  const a = renderView(meshes, cam, options);
  const b = renderView(meshes, cam, options); // shadow maps from renderView's cache
  assert.deepEqual(Buffer.from(a.rgb), Buffer.from(b.rgb));
  // Maps built afresh (a new array) or by prepareShadows give the same bytes.
  assert.deepEqual(Buffer.from(renderView([...meshes], cam, options).rgb), Buffer.from(a.rgb));
  assert.deepEqual(Buffer.from(renderView(meshes, cam, { ...options, shadows: prepareShadows(meshes, options.lights) }).rgb), Buffer.from(a.rgb));
  assert.deepEqual(Buffer.from(a.depth.buffer), Buffer.from(b.depth.buffer));
  assert.deepEqual(Buffer.from(a.instance.buffer), Buffer.from(b.instance.buffer));
  assert.deepEqual(Buffer.from(a.category.buffer), Buffer.from(b.category.buffer));
});

test("depth and instance PNGs read back to the same millimetres and ids", async () => {
  const meshes = await smallRoom();
  const b = renderView(meshes, camera([0.6, 0.7, 1.25], 35, -8, 80, 40, 30), { shading: "unlit" });
  const d = await decodeDepthPng16(await depthToPng16(b, 20));
  for (let i = 0; i < b.depth.length; i++) assert.equal(d.millimetres[i], b.depth[i]! > 0 ? Math.round(b.depth[i]! * 1000) : 0);
  const { instanceToPng } = await import("../../src/world/render/index.js");
  const ids = await decodeInstancePng(await instanceToPng(b));
  assert.deepEqual(Array.from(ids.instance), Array.from(b.instance));
  assert.ok(new Set(b.instance).size >= 5);
});

// ---------------------------------------------------------------- golden images

async function smallRoom(): Promise<WorldMesh[]> {
  return [
    ...roomMeshes({ sx: 3.2, sy: 3, h: 2.5, floor: { diffuse: [1, 1, 1], texture: plankTexture() } }),
    mesh(1, "table", [boxPart([1.2, 1.2, 0.7], [2.2, 2.0, 0.75], { diffuse: [0.45, 0.28, 0.15] }), ...[[1.25, 1.25], [2.1, 1.25], [1.25, 1.9], [2.1, 1.9]].map(([x, y]) => boxPart([x!, y!, 0], [x! + 0.05, y! + 0.05, 0.7], { diffuse: [0.3, 0.2, 0.1] }))]),
    mesh(2, "box", [boxPart([2.5, 0.3, 0], [2.9, 0.7, 0.4], { diffuse: [1, 1, 1], texture: checkerTexture(4, 8, [200, 40, 40], [240, 230, 210]) })]),
    mesh(3, "cabinet", [boxPart([0.1, 2.5, 0], [1.1, 2.95, 0.9], { diffuse: [0.2, 0.35, 0.6] })]),
    mesh(4, "window", [quadPart([1.4, 2.99, 1.0], [1, 0, 0], [0, 0, 1], { diffuse: [0.6, 0.8, 0.9], opacity: 0.35 })]),
  ];
}

async function catalogueScene(): Promise<{ meshes: WorldMesh[]; lights: ReturnType<typeof ceilingLight>[] }> {
  const placer = new ModelPlacer();
  try {
    const meshes = [...roomMeshes({ sx: 3.5, sy: 3.5, h: 2.5, floor: { diffuse: [1, 1, 1], texture: plankTexture() } })];
    meshes.push(await placer.place({ catalogId: "Blend Swap CC-0#oakTable", instanceId: 1, category: "table", position: [1.9, 2.0, 0], yaw: 0 }));
    meshes.push(await placer.place({ catalogId: "Blend Swap CC-0#chair", instanceId: 2, category: "chair", position: [1.9, 1.15, 0], yaw: Math.PI }));
    meshes.push(await placer.place({ catalogId: "Blend Swap CC-0#littlePlant", instanceId: 3, category: "plant", position: [1.8, 2.0, 0.74], yaw: 0 }));
    meshes.push(await placer.place({ catalogId: "Kator Legaz#12-oz-glass", instanceId: 4, category: "glass", position: [2.2, 1.9, 0.74], yaw: 0 }));
    return { meshes, lights: [ceilingLight(1.75, 1.75, 2.45)] };
  } finally {
    placer.close();
  }
}

async function checkGolden(name: string, b: RenderBuffers): Promise<void> {
  const files = { rgb: `${name}.rgb.png`, depth: `${name}.depth.png`, instance: `${name}.instance.png` };
  const { instanceToPng } = await import("../../src/world/render/index.js");
  const pngs = { rgb: await encodeRgbPng(b), depth: await depthToPng16(b, 60), instance: await instanceToPng(b) };
  if (UPDATE) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    for (const k of ["rgb", "depth", "instance"] as const) writeFileSync(path.join(GOLDEN_DIR, files[k]), pngs[k]);
    return;
  }
  for (const k of ["rgb", "depth", "instance"] as const) {
    const file = path.join(GOLDEN_DIR, files[k]);
    assert.ok(existsSync(file), `${file} is missing (UPDATE_GOLDEN=1 writes it)`);
  }
  const want = await decodeRgb(readFileSync(path.join(GOLDEN_DIR, files.rgb)));
  assert.equal(want.width, b.width);
  let differing = 0;
  for (let i = 0; i < b.rgb.length; i++) if (want.data[i] !== b.rgb[i]) differing++;
  assert.equal(differing, 0, `${name}: ${differing} RGB bytes differ from the golden image`);
  const depth = await decodeDepthPng16(readFileSync(path.join(GOLDEN_DIR, files.depth)));
  assert.deepEqual(Array.from(depth.millimetres), Array.from((await decodeDepthPng16(pngs.depth)).millimetres));
  const ids = await decodeInstancePng(readFileSync(path.join(GOLDEN_DIR, files.instance)));
  assert.deepEqual(Array.from(ids.instance), Array.from(b.instance));
}

test("golden: a box room with a textured floor, a table, a checker box, glass; ceiling light, shadows, AO", async () => {
  const b = renderView(await smallRoom(), camera([0.5, 0.6, 1.25], 38, -10, 80, 160, 120), { lights: [ceilingLight(1.6, 1.5, 2.45)] });
  await checkGolden("box-room", b);
});

test("golden: catalogue models (oak table, chair, plant with cut-out leaves, a drinking glass) in a lit room", async () => {
  const { meshes, lights } = await catalogueScene();
  const b = renderView(meshes, camera([0.45, 0.5, 1.25], 40, -18, 75, 160, 120), { lights });
  await checkGolden("catalogue-room", b);
});

test("golden: the same room through a 120-degree field of view from a corner, no point lights (default key light)", async () => {
  const b = renderView(await smallRoom(), camera([0.25, 0.25, 1.25], 45, 0, 120, 128, 128));
  await checkGolden("wide-room", b);
});
