import assert from "node:assert/strict";
import { test } from "node:test";
import { loadObj, ObjParseError, parseMtl, parseObj, resolveAssetPath } from "../../src/world/assets/obj.js";
import { normalizeToCatalogSize } from "../../src/world/assets/mesh.js";

const f = Math.fround;

// A 2 x 4 x 1 box (x in [0, 2], y in [0, 4], z in [0, 1]) with six outward CCW quads, no normals.
const BOX = `# box
mtllib box.mtl
v 0 0 0
v 2 0 0
v 2 4 0
v 0 4 0
v 0 0 1
v 2 0 1
v 2 4 1
v 0 4 1
usemtl wood
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 4 8 7 3
f 1 5 8 4
f 2 3 7 6
`;
const BOX_V = [[0, 0, 0], [2, 0, 0], [2, 4, 0], [0, 4, 0], [0, 0, 1], [2, 0, 1], [2, 4, 1], [0, 4, 1]];
const BOX_F = [[1, 4, 3, 2], [5, 6, 7, 8], [1, 2, 6, 5], [4, 8, 7, 3], [1, 5, 8, 4], [2, 3, 7, 6]];
const BOX_N = [[0, 0, -1], [0, 0, 1], [0, -1, 0], [0, 1, 0], [-1, 0, 0], [1, 0, 0]];

test("box of quads: 12 triangles, exact positions, indices and flat normals", () => {
  const m = parseObj(BOX);
  assert.equal(m.triangleCount, 12);
  assert.deepEqual(m.mtllibs, ["box.mtl"]);
  assert.equal(m.parts.length, 1);
  const p = m.parts[0]!;
  assert.equal(p.material, "wood");
  assert.equal(p.uvs, null);
  // No normals in the file, no smoothing group: flat normals, so 4 vertices per face.
  assert.deepEqual(m.normalSource, { file: 0, flat: 6, smooth: 0 });
  assert.equal(m.vertexCount, 24);
  const expectIdx: number[] = [];
  const expectPos: number[] = [];
  const expectNrm: number[] = [];
  BOX_F.forEach((face, k) => {
    expectIdx.push(4 * k, 4 * k + 1, 4 * k + 2, 4 * k, 4 * k + 2, 4 * k + 3);
    for (const vi of face) { expectPos.push(...BOX_V[vi - 1]!); expectNrm.push(...BOX_N[k]!); }
  });
  assert.deepEqual([...p.indices], expectIdx);
  assert.deepEqual([...p.positions], expectPos);
  assert.deepEqual([...p.normals].map((x) => x + 0), expectNrm);
  assert.deepEqual(m.bounds, { min: [0, 0, 0], max: [2, 4, 1] });
});

test("box with smoothing on keeps 90-degree edges sharp (Sweet Home 3D's PI/2 crease angle)", () => {
  const m = parseObj(BOX.replace("usemtl wood", "usemtl wood\ns 1"));
  assert.deepEqual(m.normalSource, { file: 0, flat: 0, smooth: 6 });
  assert.equal(m.vertexCount, 24);
  assert.deepEqual([...m.parts[0]!.normals.slice(0, 3)].map((x) => x + 0), [0, 0, -1]);
});

test("negative indices refer back from the current vertex", () => {
  const a = parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 5 5 5\n");
  const b = parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 5 5 5\n");
  assert.deepEqual([...b.parts[0]!.positions], [...a.parts[0]!.positions]);
  assert.deepEqual([...b.parts[0]!.indices], [0, 1, 2]);
  // Relative to the vertices defined so far, not the whole file.
  const c = parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\nf -4 -3 -2\n");
  assert.deepEqual([...c.parts[0]!.positions], [0, 0, 0, 1, 0, 0, 0, 1, 0]);
});

test("v//vn and v/vt/vn take the file's normals (normalised) and uvs", () => {
  const m = parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 2\nvt 0.5 0.25\nf 1//1 2//1 3//1\nf 1/1/1 2/1/1 3/1/1\n");
  assert.deepEqual(m.normalSource, { file: 2, flat: 0, smooth: 0 });
  const p = m.parts[0]!;
  assert.deepEqual([...p.normals], [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  // v//vn corners have no uv (0, 0 in the array), v/vt/vn corners have theirs: 6 distinct vertices.
  assert.deepEqual([...p.uvs!], [0, 0, 0, 0, 0, 0, 0.5, 0.25, 0.5, 0.25, 0.5, 0.25]);
  assert.deepEqual([...p.indices], [0, 1, 2, 3, 4, 5]);
  // v/vt form.
  const q = parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 1 1\nf 1/1 2/1 3/1\n").parts[0]!;
  assert.deepEqual([...q.uvs!], [1, 1, 1, 1, 1, 1]);
});

test("missing normals: exact flat normal of a triangle, smooth average across a shared edge", () => {
  const flat = parseObj("v 0 0 0\nv 1 0 0\nv 0 1 1\nf 1 2 3\n").parts[0]!;
  const r = f(Math.SQRT1_2);
  assert.deepEqual([...flat.normals].map((x) => x + 0), [0, -r, r, 0, -r, r, 0, -r, r]);

  // Triangle A in z = 0 (normal (0,0,1), Newell vector (0,0,1)), triangle B folded up along the
  // shared edge (0,0,0)-(1,0,0) with Newell vector (0,1,1): 45 degrees apart, below the crease.
  const src = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 1\ns 1\nf 1 2 3\nf 2 1 4\n";
  const sm = parseObj(src);
  assert.deepEqual(sm.normalSource, { file: 0, flat: 0, smooth: 2 });
  const p = sm.parts[0]!;
  const shared = [0, f(1 / Math.sqrt(5)), f(2 / Math.sqrt(5))];
  const byPos = new Map<string, number[][]>();
  for (let i = 0; i < p.positions.length / 3; i++) {
    const key = [...p.positions.slice(3 * i, 3 * i + 3)].join(",");
    byPos.set(key, [...(byPos.get(key) ?? []), [...p.normals.slice(3 * i, 3 * i + 3)].map((x) => x + 0)]);
  }
  assert.deepEqual(byPos.get("0,0,0"), [shared]);
  assert.deepEqual(byPos.get("1,0,0"), [shared]);
  assert.deepEqual(byPos.get("0,1,0"), [[0, 0, 1]]);
  assert.deepEqual(byPos.get("0,-1,1"), [[0, r, r]]);
  assert.equal(sm.vertexCount, 4);
  // s off: flat again, the shared positions split into two vertices each.
  const off = parseObj(src.replace("s 1", "s off"));
  assert.deepEqual(off.normalSource, { file: 0, flat: 2, smooth: 0 });
  assert.equal(off.vertexCount, 6);
  // smoothing: "all" ignores the s statements.
  assert.equal(parseObj(src.replace("s 1", "s off"), { smoothing: "all" }).vertexCount, 4);
});

test("usemtl splits into parts; groups, l, p and unknown lines are handled", () => {
  const src = [
    "mtllib a.mtl b.mtl", "v 0 0 0", "v 1 0 0", "v 0 1 0", "v 1 1 0",
    "g left", "usemtl red", "f 1 2 3", "l 1 2", "p 1", "g right", "usemtl blue", "f 2 4 3",
    "usemtl red", "curv 0 1 1 2", "f 1 3 4", "mtllib a.mtl",
  ].join("\r\n");
  const m = parseObj(src);
  assert.deepEqual(m.mtllibs, ["a.mtl", "b.mtl"]);
  assert.deepEqual(m.parts.map((p) => [p.material, p.indices.length / 3, p.groups]), [
    ["red", 2, ["left", "right"]],
    ["blue", 1, ["right"]],
  ]);
  assert.deepEqual(m.ignored, { l: 1, p: 1, curv: 1 });
  // Faces before any usemtl go to a part with material null.
  assert.equal(parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").parts[0]!.material, null);
});

test("malformed lines are errors naming the line", () => {
  const bad: Array<[string, RegExp]> = [
    ["v 0 0 0\n\nv 1 x 0\n", /^OBJ line 3: v: malformed number 'x'$/],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", /^OBJ line 4: vertex index 9 out of range \(3 vertices\)$/],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", /^OBJ line 4: vertex index in '-4' out of range/],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", /^OBJ line 4: malformed face vertex '0'$/],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1/1/1 2 3\n", /^OBJ line 4: malformed face vertex/],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1// 2 3\n", /^OBJ line 4: malformed face vertex/],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/5 2/5 3/5\n", /^OBJ line 4: texture index 5 out of range/],
    ["v 1e999 0 0\n", /^OBJ line 1: v: number out of range/],
    ["v 0 0\n", /^OBJ line 1: v needs 3 coordinates, got 2$/],
    ["v 0 0 0x10\n", /malformed number '0x10'/],
    ["vn 0 0 NaN\n", /malformed number 'NaN'/],
  ];
  for (const [src, re] of bad) {
    assert.throws(() => parseObj(src), (e: unknown) => e instanceof ObjParseError && re.test(e.message), src);
  }
  // Forward references and faces of fewer than 3 vertices are accepted (as Sweet Home 3D does).
  const fwd = parseObj("f 1 2 3\nf 1 2\nv 0 0 0\nv 1 0 0\nv 0 1 0\n");
  assert.equal(fwd.triangleCount, 1);
  assert.equal(fwd.ignored["f with < 3 vertices"], 1);
  // Backslash continuation, BOM, trailing comment.
  const cont = parseObj("\ufeffv 0 0 0\nv 1 0 0 # x\nv 0 1 0\nf 1 \\\n 2 3\n");
  assert.equal(cont.triangleCount, 1);
});

test("1 MB adversarial lines parse or fail in linear time", () => {
  const t0 = performance.now();
  const n = 1 << 20;
  // One polygon with ~350k corners.
  const big = parseObj(`v 0 0 0\nv 1 0 0\nv 0 1 0\nf ${"1 2 3 ".repeat(n / 6)}\n`);
  assert.equal(big.triangleCount, 3 * Math.floor(n / 6) - 2);
  const cases: Array<[string, RegExp]> = [
    [`v ${"1".repeat(n)} 0 0\n`, /line 1: v: number out of range/],
    [`v 0 0 ${"-".repeat(n)}\n`, /line 1: v: malformed number/],
    [`v 0 0 0\nf 1/${"/".repeat(n)}\n`, /line 2: malformed face vertex/],
    [`v 0 0 0\nf ${"1/".repeat(n / 2)}\n`, /line 2: malformed face vertex/],
    [`v 0 0 ${"1.".repeat(n / 2)}\n`, /line 1: v: malformed number/],
    [`v 0 0 0 ${"1e".repeat(n / 2)}\n`, /line 1: v: malformed number/],
  ];
  for (const [src, re] of cases) assert.throws(() => parseObj(src), re);
  assert.equal(parseObj(`# ${"#".repeat(n)}\n${" ".repeat(n)}\nv 0 0 0\n`).triangleCount, 0);
  assert.equal(parseMtl(`newmtl ${"a".repeat(n)}\nKd 1 1 1\n`)["a".repeat(n)]!.diffuse[0], 1);
  const ms = performance.now() - t0;
  assert.ok(ms < 3000, `adversarial inputs took ${ms.toFixed(0)} ms`);
});

test("parseMtl reads colours, opacity, shininess, illum and map_Kd with options", () => {
  const mats = parseMtl([
    "# Blender MTL", "newmtl wood", "Ns 96.08", "Ka 0.1 0.2 0.3", "Kd 0.64 0.5 0.25", "Ks 0.5",
    "d 0.75", "illum 2", "map_Kd -s 1 2 1 -o 0.5 0.5 -bm 1 textures/oak wood.jpg",
    "", "newmtl glass", "Tr 0.9", "Kd 0 0 1", "newmtl both", "d 0.5", "Tr 0.9",
  ].join("\n"));
  const w = mats["wood"]!;
  assert.deepEqual(w.ambient, [0.1, 0.2, 0.3]);
  assert.deepEqual(w.diffuse, [0.64, 0.5, 0.25]);
  assert.deepEqual(w.specular, [0.5, 0.5, 0.5]);
  assert.equal(w.shininess, 96.08);
  assert.equal(w.opacity, 0.75);
  assert.equal(w.illum, 2);
  assert.equal(w.diffuseMap, "textures/oak wood.jpg");
  assert.ok(Math.abs(mats["glass"]!.opacity - 0.1) < 1e-12);
  assert.equal(mats["glass"]!.diffuseMap, null);
  assert.equal(mats["both"]!.opacity, 0.5); // d wins over Tr
  assert.throws(() => parseMtl("newmtl a\nKd 1 oops 1\n"), /^Error: MTL line 2: Kd: malformed number 'oops'$|MTL line 2: Kd: malformed number 'oops'/);
});

test("resolveAssetPath joins inside the model folder and refuses escapes", () => {
  assert.equal(resolveAssetPath("lib/chair/chair.mtl", "tex/wood.jpg"), "lib/chair/tex/wood.jpg");
  assert.equal(resolveAssetPath("/lib/chair/chair.mtl", "tex\\..\\wood.jpg"), "lib/chair/wood.jpg");
  assert.equal(resolveAssetPath("lib/chair/sub/chair.mtl", "../wood.jpg", "lib/chair"), "lib/chair/wood.jpg");
  assert.throws(() => resolveAssetPath("lib/chair/chair.mtl", "../sofa/wood.jpg"), /escapes the model folder/);
  assert.throws(() => resolveAssetPath("lib/chair/sub/chair.mtl", "../../x.jpg", "lib/chair"), /escapes/);
  assert.throws(() => resolveAssetPath("lib/chair/chair.mtl", "/etc/passwd"), /absolute/);
  assert.throws(() => resolveAssetPath("lib/chair/chair.mtl", "C:\\tex\\wood.jpg"), /absolute/);
});

test("loadObj reads mtllib and resolves map_Kd through a reader", () => {
  const files: Record<string, string> = {
    "lib/box/box.obj": BOX,
    "lib/box/box.mtl": "newmtl wood\nKd 0.5 0.4 0.3\nmap_Kd maps/wood.png\n",
  };
  const l = loadObj("/lib/box/box.obj", (e) => files[e]);
  assert.deepEqual(l.materials["wood"]!.diffuse, [0.5, 0.4, 0.3]);
  assert.deepEqual({ ...l.diffuseMaps }, { wood: "lib/box/maps/wood.png" });
  assert.deepEqual(l.missing, []);
  const l2 = loadObj("lib/box/box.obj", (e) => (e.endsWith(".obj") ? BOX : undefined));
  assert.deepEqual(l2.missing, ["box.mtl: not found"]);
});

test("normalizeToCatalogSize scales the box to the catalogue size, centred, bottom at 0", () => {
  const m = parseObj(BOX);
  const n = normalizeToCatalogSize(m, { width: 0.5, depth: 0.3, height: 2 });
  assert.deepEqual(n.bounds, { min: [-0.25, 0, f(-0.15)], max: [0.25, 2, f(0.15)] });
  assert.deepEqual(n.transform, [0.25, 0, 0, -0.25, 0, 0.5, 0, 0, 0, 0, 0.3, -0.15]);
  assert.equal(n.mirrored, false);
  // Axis-aligned scaling keeps the face normals.
  assert.deepEqual([...n.parts[0]!.normals].map((x) => x + 0), [...m.parts[0]!.normals].map((x) => x + 0));
});

test("normalizeToCatalogSize applies a 90-degree modelRotation before sizing (extents swap)", () => {
  const m = parseObj(BOX);
  // Rotation about y by +90 degrees, row-major: x' = z, z' = -x.
  const rot = [0, 0, 1, 0, 1, 0, -1, 0, 0];
  const n = normalizeToCatalogSize(m, { width: 0.5, depth: 0.3, height: 2 }, rot);
  assert.deepEqual(n.bounds, { min: [-0.25, 0, f(-0.15)], max: [0.25, 2, f(0.15)] });
  // The model's 1-unit z extent became the width (scale 0.5 / 1), its 2-unit x extent the depth (0.3 / 2).
  assert.deepEqual(n.transform, [0, 0, 0.5, -0.25, 0, 0.5, 0, 0, -0.15, 0, 0, 0.15]);
  // The +x face (last quad) now faces -z.
  const p = n.parts[0]!;
  assert.deepEqual([...p.normals.slice(20 * 3, 20 * 3 + 3)].map((x) => x + 0), [0, 0, -1]);
  // Its vertices (model x = 2) sit at z = -depth / 2.
  for (let i = 20; i < 24; i++) assert.equal(p.positions[3 * i + 2], f(-0.15));
  // A mirroring matrix reverses the triangle winding.
  const mir = normalizeToCatalogSize(m, { width: 1, depth: 1, height: 1 }, [-1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.equal(mir.mirrored, true);
  assert.deepEqual([...mir.parts[0]!.indices.slice(0, 3)], [0, 2, 1]);
  assert.throws(() => normalizeToCatalogSize(m, { width: 0, depth: 1, height: 1 }), /width must be a positive/);
  assert.throws(() => normalizeToCatalogSize(m, { width: 1, depth: 1, height: 1 }, [1, 0, 0]), /9 values/);
});
