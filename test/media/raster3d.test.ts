import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createCamera,
  createFramebuffer,
  drawLine3D,
  firstAtLeast,
  lastAtLeast,
  drawTriangles,
  projectPoint,
  readPixel,
  screenSpaceCamera,
  toPng,
  type Framebuffer,
  type Vec3,
} from "../../src/media/raster3d.js";
import { decodeRgb } from "../../src/media/png.js";

const ONE = [1, 1, 1] as const; // additive unit, to count how often a pixel is drawn
const flat = { shading: "none" } as const;

function countWhere(fb: Framebuffer, pred: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < fb.color.length; i += 3) if (pred(fb.color[i]!, fb.color[i + 1]!, fb.color[i + 2]!)) n++;
  return n;
}

/** Triangles given in pixel coordinates (z = 0) through the screen-space camera. */
function drawScreenTris(fb: Framebuffer, tris: number[][], colour: readonly [number, number, number], blend: "add" | "replace" = "add", z = 0): void {
  const cam = screenSpaceCamera(fb.width, fb.height);
  const vertices: number[] = [];
  const indices: number[] = [];
  for (const t of tris) {
    const base = vertices.length / 3;
    vertices.push(t[0]!, t[1]!, z, t[2]!, t[3]!, z, t[4]!, t[5]!, z);
    indices.push(base, base + 1, base + 2);
  }
  drawTriangles(fb, cam, vertices, indices, colour, { ...flat, blend });
}

test("screenSpaceCamera maps (x, y, 0) to pixel coordinates", () => {
  const fb = createFramebuffer(64, 48);
  const cam = screenSpaceCamera(64, 48);
  for (const [x, y] of [[0, 0], [10.25, 7.5], [64, 48], [31, 40]] as const) {
    const p = projectPoint(fb, cam, [x, y, 0])!;
    assert.ok(Math.abs(p.x - x) < 1e-9 && Math.abs(p.y - y) < 1e-9, `${x},${y} -> ${p.x},${p.y}`);
  }
});

test("an axis-aligned right triangle covers exactly the pixel centres inside it (top-left rule)", () => {
  // Legs of 10 px along the axes from the pixel corner (2, 3): centres (2+i+.5, 3+j+.5) with
  // i + j + 1 < 10 are inside; those on the hypotenuse (i + j + 1 = 10) belong to the
  // neighbouring triangle (it is a right/bottom edge here), so 9 * 10 / 2 = 45 pixels.
  for (const order of [[0, 1, 2], [0, 2, 1], [2, 1, 0]]) {
    const fb = createFramebuffer(20, 20, [0, 0, 0]);
    const v = [[2, 3], [12, 3], [2, 13]];
    drawScreenTris(fb, [order.flatMap((k) => v[k]!)], ONE);
    assert.equal(countWhere(fb, (r) => r === 1), 45);
    assert.equal(countWhere(fb, (r) => r > 1), 0);
    assert.deepEqual(readPixel(fb, 2, 3), [1, 1, 1]);
    assert.deepEqual(readPixel(fb, 10, 3), [1, 1, 1]); // centre (10.5, 3.5): 8 + 0 + 1 < 10
    assert.deepEqual(readPixel(fb, 11, 3), [0, 0, 0]); // centre on the hypotenuse
  }
  // Edges through pixel centres: a triangle with corners at centres (0.5, 0.5), (8.5, 0.5),
  // (0.5, 8.5). The top edge and the left edge keep their centres, the hypotenuse does not:
  // centres with i + j < 8, that is 8 * 9 / 2 = 36.
  const fb = createFramebuffer(12, 12, [0, 0, 0]);
  drawScreenTris(fb, [[0.5, 0.5, 8.5, 0.5, 0.5, 8.5]], ONE);
  assert.equal(countWhere(fb, (r) => r === 1), 36);
});

test("two triangles sharing an edge draw no pixel twice and leave no hole", () => {
  // Pixel-aligned square split along its diagonal: 100 pixels, each exactly once.
  const sq = createFramebuffer(16, 16, [0, 0, 0]);
  drawScreenTris(sq, [[2, 2, 12, 2, 2, 12], [12, 2, 12, 12, 2, 12]], ONE);
  assert.equal(countWhere(sq, (r) => r === 1), 100);
  assert.equal(countWhere(sq, (r) => r > 1), 0);

  // A fan of irregular triangles around an off-grid centre, plus a quad with a slanted diagonal:
  // every pixel is drawn at most once, and every centre well inside the outline exactly once.
  const fb = createFramebuffer(120, 100, [0, 0, 0]);
  const cx = 57.37, cy = 49.81;
  const ring: [number, number][] = [];
  for (let i = 0; i < 23; i++) {
    const t = (2 * Math.PI * i) / 23;
    const rad = 40 + 5 * Math.sin(3 * t);
    ring.push([cx + rad * Math.cos(t) + 0.123 * i, cy + rad * Math.sin(t)]);
  }
  const fan = ring.map((p, i) => [cx, cy, p[0], p[1], ring[(i + 1) % ring.length]![0], ring[(i + 1) % ring.length]![1]]);
  drawScreenTris(fb, fan, ONE);
  assert.equal(countWhere(fb, (r) => r > 1), 0);
  // Centres inside the circle of radius 30 around (cx, cy) (well inside the outline) are covered.
  for (let y = 0; y < fb.height; y++) {
    for (let x = 0; x < fb.width; x++) {
      if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) < 30) assert.equal(readPixel(fb, x, y)[0], 1, `hole at ${x},${y}`);
    }
  }
  const quad = createFramebuffer(50, 50, [0, 0, 0]);
  drawScreenTris(quad, [[3.3, 4.1, 40.7, 9.9, 37.2, 44.6], [3.3, 4.1, 37.2, 44.6, 6.1, 30.05]], ONE);
  assert.equal(countWhere(quad, (r) => r > 1), 0);
  assert.ok(countWhere(quad, (r) => r === 1) > 900);
});

test("the depth test keeps the nearer triangle whatever the order; equal depth: the later wins", () => {
  const tri = [[2, 2, 30, 2, 2, 30]];
  for (const nearFirst of [true, false]) {
    const fb = createFramebuffer(32, 32);
    const draws: Array<[readonly [number, number, number], number]> = [
      [[255, 0, 0], 5], // near (+z goes away from the eye)
      [[0, 0, 255], 50], // far
    ];
    if (!nearFirst) draws.reverse();
    for (const [c, z] of draws) drawScreenTris(fb, tri, c, "replace", z);
    assert.deepEqual(readPixel(fb, 6, 6), [255, 0, 0]);
  }
  const fb = createFramebuffer(32, 32);
  drawScreenTris(fb, tri, [255, 0, 0], "replace", 7);
  drawScreenTris(fb, tri, [0, 255, 0], "replace", 7);
  assert.deepEqual(readPixel(fb, 6, 6), [0, 255, 0]);
  // depthTest off draws over a nearer surface.
  const cam = screenSpaceCamera(32, 32);
  drawTriangles(fb, cam, [-100, -100, 90, 300, -100, 90, -100, 300, 90], [0, 1, 2], [0, 0, 255], { shading: "none", depthTest: false });
  assert.deepEqual(readPixel(fb, 6, 6), [0, 0, 255]);
});

test("a triangle crossing the camera plane is clipped, not wrapped: matches ray casting", () => {
  const W = 160, H = 120;
  const fb = createFramebuffer(W, H, [0, 0, 0]);
  const eye: Vec3 = [0, 0, 1];
  const cam = createCamera({ eye, target: [0, 10, 1], up: [0, 0, 1], fovYDeg: 60, aspect: W / H, near: 0.1, far: 1000 });
  // Ground triangle around and behind the eye (two corners behind it).
  const A: Vec3 = [-30, -20, 0], B: Vec3 = [30, -20, 0], C: Vec3 = [2, 60, 0];
  drawTriangles(fb, cam, [...A, ...B, ...C], [0, 1, 2], [10, 10, 10], { shading: "none", blend: "add" });
  // Ray cast each pixel centre onto z = 0 and test inside the triangle.
  const f = 1 / Math.tan(Math.PI / 6);
  const side = (p: number[], a: Vec3, b: Vec3) => (b[0] - a[0]) * (p[1]! - a[1]) - (b[1] - a[1]) * (p[0]! - a[0]);
  let mismatches = 0, covered = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const nx = ((x + 0.5) / W) * 2 - 1, ny = 1 - ((y + 0.5) / H) * 2;
      // camera looks along +y, right = +x, up = +z
      const dir = [(nx * (W / H)) / f, 1, ny / f];
      let inside = false;
      if (dir[2]! < 0) {
        const t = -eye[2] / dir[2]!;
        const p = [eye[0] + dir[0]! * t, eye[1] + dir[1]! * t];
        const s1 = side(p, A, B), s2 = side(p, B, C), s3 = side(p, C, A);
        inside = (s1 > 0 && s2 > 0 && s3 > 0) || (s1 < 0 && s2 < 0 && s3 < 0);
      }
      const v = readPixel(fb, x, y)[0];
      assert.ok(v === 0 || v === 10, `pixel ${x},${y} drawn ${v / 10} times`);
      if (v === 10) covered++;
      if ((v === 10) !== inside) mismatches++;
      if (y < H / 2) assert.equal(v, 0, `pixel above the horizon drawn at ${x},${y}`);
    }
  }
  assert.ok(covered > 3000, `covered ${covered}`);
  assert.ok(mismatches <= 4, `mismatches ${mismatches}`);
});

test("drawLine3D: width, caps, and depth against triangles", () => {
  const W = 40, H = 30;
  const cam = screenSpaceCamera(W, H);
  const butt = createFramebuffer(W, H, [0, 0, 0]);
  drawLine3D(butt, cam, [5, 10, 0], [25, 10, 0], ONE, 2, { cap: "butt", blend: "add" });
  // rows 9 and 10 (centres 9.5, 10.5), columns 5..24
  assert.equal(countWhere(butt, (r) => r === 1), 40);
  assert.equal(countWhere(butt, (r) => r > 1), 0);
  assert.deepEqual(readPixel(butt, 5, 9), [1, 1, 1]);
  assert.deepEqual(readPixel(butt, 24, 10), [1, 1, 1]);
  assert.deepEqual(readPixel(butt, 25, 10), [0, 0, 0]);
  const square = createFramebuffer(W, H, [0, 0, 0]);
  drawLine3D(square, cam, [5, 10, 0], [25, 10, 0], ONE, 2, { blend: "add" });
  assert.equal(countWhere(square, (r) => r === 1), 44); // one more column at each end

  // A line behind a triangle is hidden there and visible beside it; a line in front is drawn
  // over it. (Off the plane z = 0 the screen-space camera scales towards the centre, so pixels
  // are found with projectPoint.)
  const fb = createFramebuffer(W, H);
  drawTriangles(fb, cam, [10, 0, 5, 20, 0, 5, 15, 30, 5], [0, 1, 2], [0, 0, 255], flat);
  const at = (p: Vec3) => {
    const q = projectPoint(fb, cam, p)!;
    return readPixel(fb, Math.floor(q.x), Math.floor(q.y));
  };
  assert.deepEqual(at([15, 12, 5]), [0, 0, 255]);
  drawLine3D(fb, cam, [-10, 12, 9], [50, 12, 9], [255, 0, 0], 3);
  assert.deepEqual(at([15, 12, 9]), [0, 0, 255]); // behind the triangle
  assert.deepEqual(at([0, 12, 9]), [255, 0, 0]); // beside it
  drawLine3D(fb, cam, [-10, 14, 1], [50, 14, 1], [0, 255, 0], 3);
  assert.deepEqual(at([15, 14, 1]), [0, 255, 0]); // in front of it
});

test("drawLine3D with planeNormal takes the plane's depth across its width", () => {
  // A floor seen at a grazing angle: a band at a fixed depth would sink into the floor on its
  // near side; in the floor's plane, 0.05 above it, it stays whole.
  const W = 200, H = 120;
  const cam = createCamera({ eye: [0, -60, 8], target: [0, 0, 0], up: [0, 0, 1], fovYDeg: 45, aspect: W / H, near: 1, far: 1000 });
  const floor = [-50, -50, 0, 50, -50, 0, 50, 50, 0, -50, 50, 0];
  const quad = [0, 1, 2, 0, 2, 3];
  const red = (fb: Framebuffer) => countWhere(fb, (r, g) => r === 255 && g === 0);
  const plain = createFramebuffer(W, H);
  drawTriangles(plain, cam, floor, quad, [180, 180, 180], flat);
  drawLine3D(plain, cam, [-20, 0, 0.05], [20, 0, 0.05], [255, 0, 0], 6, { depthTest: false });
  const full = red(plain);
  const inPlane = createFramebuffer(W, H);
  drawTriangles(inPlane, cam, floor, quad, [180, 180, 180], flat);
  drawLine3D(inPlane, cam, [-20, 0, 0.05], [20, 0, 0.05], [255, 0, 0], 6, { planeNormal: [0, 0, 1] });
  assert.equal(red(inPlane), full);
  const constant = createFramebuffer(W, H);
  drawTriangles(constant, cam, floor, quad, [180, 180, 180], flat);
  drawLine3D(constant, cam, [-20, 0, 0.05], [20, 0, 0.05], [255, 0, 0], 6);
  assert.ok(red(constant) < full, "constant-depth band should lose its near half to the floor");
});

test("Lambert shading: a face towards the light is brighter than one turned away; none keeps the colour", () => {
  const W = 64, H = 64;
  const cam = createCamera({ eye: [0, -10, 10], target: [0, 0, 0], up: [0, 0, 1], fovYDeg: 60, aspect: 1, near: 0.1, far: 100 });
  const fbUp = createFramebuffer(W, H);
  drawTriangles(fbUp, cam, [-3, -3, 0, 3, -3, 0, 0, 3, 0], [0, 1, 2], [200, 200, 200], { lightDir: [0, 0, 1], ambient: 0.5 });
  const fbSide = createFramebuffer(W, H);
  drawTriangles(fbSide, cam, [-3, -3, 0, 3, -3, 0, 0, 3, 0], [0, 1, 2], [200, 200, 200], { lightDir: [1, 0, 0], ambient: 0.5 });
  const fbNone = createFramebuffer(W, H);
  drawTriangles(fbNone, cam, [-3, -3, 0, 3, -3, 0, 0, 3, 0], [0, 1, 2], [200, 200, 200], { shading: "none", lightDir: [1, 0, 0] });
  assert.deepEqual(readPixel(fbUp, 32, 32), [200, 200, 200]);
  assert.deepEqual(readPixel(fbSide, 32, 32), [100, 100, 100]);
  assert.deepEqual(readPixel(fbNone, 32, 32), [200, 200, 200]);
  // Winding does not matter (two-sided).
  const fbFlip = createFramebuffer(W, H);
  drawTriangles(fbFlip, cam, [-3, -3, 0, 3, -3, 0, 0, 3, 0], [0, 2, 1], [200, 200, 200], { lightDir: [0, 0, 1], ambient: 0.5 });
  assert.deepEqual(readPixel(fbFlip, 32, 32), [200, 200, 200]);
  // Per-face colours.
  const fbFaces = createFramebuffer(W, H);
  drawTriangles(fbFaces, cam, [-3, -3, 0, 0, -3, 0, 0, 3, 0, 3, -3, 0], [0, 1, 2, 1, 3, 2], new Uint8Array([255, 0, 0, 0, 0, 255]), flat);
  const left = projectPoint(fbFaces, cam, [-1, -1, 0])!, right = projectPoint(fbFaces, cam, [1, -1, 0])!;
  assert.deepEqual(readPixel(fbFaces, Math.floor(left.x), Math.floor(left.y)), [255, 0, 0]);
  assert.deepEqual(readPixel(fbFaces, Math.floor(right.x), Math.floor(right.y)), [0, 0, 255]);
});

test("toPng round-trips the framebuffer", async () => {
  const fb = createFramebuffer(7, 5, [10, 20, 30]);
  drawScreenTris(fb, [[0, 0, 7, 0, 0, 5]], [200, 0, 0], "replace");
  const png = await toPng(fb);
  const { data, width, height } = await decodeRgb(png);
  assert.equal(width, 7);
  assert.equal(height, 5);
  assert.deepEqual(new Uint8Array(data), fb.color);
});

test("issue 25: firstAtLeast and lastAtLeast settle in two steps, so a coordinate past 2^53 ends at once", () => {
  for (let base = -3; base <= 3; base++) {
    for (let t = -10; t <= 10; t++) {
      let first = -100;
      while (base + first * 2 < t) first++;
      assert.equal(firstAtLeast(base, 2, t) + 0, first, `first base ${base} t ${t}`);
      let last = 100;
      while (base + last * -2 < t) last--;
      assert.equal(lastAtLeast(base, -2, t) + 0, last, `last base ${base} t ${t}`);
    }
  }
  assert.ok(Number.isFinite(firstAtLeast(0, 0.1, 1e17)) && Number.isFinite(lastAtLeast(0, -0.1, -1e17)));
});
