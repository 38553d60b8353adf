/**
 * Every model of the installed Sweet Home 3D libraries (Debian's sweethome3d-furniture, which
 * .ci/run installs) loads through the zip reader, the OBJ/MTL parser and the catalogue fit, and
 * ends at its catalogue size: x in [-w/2, w/2], y in [0, h], z in [-d/2, d/2] (metres).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readLibraries } from "../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../src/world/assets/models.js";

// float32 vertices: a few ulps of a 10 m swimming pool.
const TOLERANCE_M = 1e-5;

test("every installed model loads and is fitted to its catalogue size", () => {
  const catalogue = readLibraries();
  assert.equal(catalogue.entries.length, 820);
  const library = new ModelLibrary();
  const failures: string[] = [];
  let worst = 0;
  let triangles = 0;
  try {
    for (const entry of catalogue.entries) {
      let model;
      try {
        model = library.load(entry);
      } catch (error) {
        failures.push((error as Error).message);
        continue;
      }
      const { min, max } = model.mesh.bounds;
      const { width, depth, height } = entry.sizeM;
      const gaps = [min[0] + width / 2, max[0] - width / 2, min[1], max[1] - height, min[2] + depth / 2, max[2] - depth / 2];
      worst = Math.max(worst, ...gaps.map(Math.abs));
      for (const part of model.mesh.parts) triangles += part.indices.length / 3;
    }
  } finally {
    library.close();
  }
  assert.deepEqual(failures, []);
  assert.ok(worst < TOLERANCE_M, `largest distance from the catalogue box: ${worst} m`);
  assert.ok(triangles > 0);
});

test("a known model: Blend Swap CC-BY bath, its materials and a texture from its own library", () => {
  const catalogue = readLibraries();
  const bath = catalogue.entries.find((e) => e.id === "Blend Swap CC-BY#bath_jay_hardy");
  assert.ok(bath);
  const library = new ModelLibrary();
  try {
    const model = library.load(bath);
    assert.deepEqual(model.mesh.bounds.max.map((v) => Number(v.toFixed(4))), [0.9005, 0.651, 0.3505]);
    assert.deepEqual(model.mesh.bounds.min.map((v) => Number(v.toFixed(4))), [-0.9005, 0, -0.3505]);
    assert.ok(Object.keys(model.materials).length > 0);
    for (const name of Object.values(model.diffuseMaps)) {
      const bytes = library.texture(bath, name);
      if (bytes) assert.ok(bytes.length > 0, name);
    }
  } finally {
    library.close();
  }
});

test("a model loaded again is the one kept (the same object), and equal to a fresh library's parse of it", () => {
  const catalogue = readLibraries();
  const [a, b] = [catalogue.entries[0]!, catalogue.entries[1]!];
  const library = new ModelLibrary();
  const fresh = new ModelLibrary();
  try {
    const first = library.load(a);
    library.load(b);
    assert.equal(library.load(a), first);
    assert.deepEqual(first, fresh.load(a));
  } finally {
    library.close();
    fresh.close();
  }
});

test("kept models are bounded by the bytes of their mesh arrays: the least recently used goes first, the newest always stays", () => {
  const catalogue = readLibraries();
  const probe = new ModelLibrary();
  const arrayBytes = (entry: (typeof catalogue.entries)[number]) =>
    probe.load(entry).mesh.parts.reduce((sum, p) => sum + p.positions.byteLength + p.normals.byteLength + p.indices.byteLength + (p.uvs ? p.uvs.byteLength : 0), 0);
  const [a, b] = [catalogue.entries[0]!, catalogue.entries[1]!];
  // A third model no larger than the second: once the second goes, the first and the third fit.
  const c = catalogue.entries.slice(2).find((e) => arrayBytes(e) <= arrayBytes(b))!;
  const library = new ModelLibrary(arrayBytes(a) + arrayBytes(b));
  const tiny = new ModelLibrary(1);
  try {
    const firstA = library.load(a);
    const firstB = library.load(b);
    assert.equal(library.load(a), firstA); // both fit; a is now the most recent, b the oldest
    const firstC = library.load(c); // over the budget: b goes
    assert.equal(library.load(a), firstA);
    assert.equal(library.load(c), firstC);
    const againB = library.load(b);
    assert.notEqual(againB, firstB);
    assert.deepEqual(againB, firstB);
    // A budget smaller than any model keeps the newest one only.
    const onlyA = tiny.load(a);
    assert.equal(tiny.load(a), onlyA);
    tiny.load(b);
    assert.notEqual(tiny.load(a), onlyA);
  } finally {
    probe.close();
    library.close();
    tiny.close();
  }
});
