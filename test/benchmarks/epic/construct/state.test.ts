/**
 * ObjectState (issue 29): switched-on looks (world/render/switched-on.ts), the shader's emission,
 * the per-pixel state check (view.ts stateShows), and the generated samples of one house checked
 * against a fresh render with every object switched off: a target said to be on must look brighter
 * than off in the written picture, one said to be off must look as off.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import { decodeRle } from "../../../../src/geometry/rle.js";
import { generateEpicHouse, epicSettings, epicShared, type EpicHouseRecord } from "../../../../src/benchmarks/epic/construct/index.js";
import { buildEpicHouse } from "../../../../src/benchmarks/epic/construct/house.js";
import { stateShows } from "../../../../src/benchmarks/epic/construct/view.js";
import { createRng } from "../../../../src/stats/rng.js";
import { prepareShadows, renderView } from "../../../../src/world/render/index.js";
import { switchedOnLook, switchedOnParts } from "../../../../src/world/render/switched-on.js";
import type { SceneObject, WorldMesh, WorldMeshPart } from "../../../../src/world/types.js";

const part = (diffuse: [number, number, number], textured = false): WorldMeshPart => ({
  positions: new Float32Array(9), normals: new Float32Array(9), uvs: null, indices: Uint32Array.from([0, 1, 2]), diffuse, opacity: 1,
  texture: textured ? { width: 1, height: 1, data: new Uint8Array(4) } as never : null,
});
const object = (category: string): SceneObject => ({ id: 7, category, room: "r1", bbox: { min: [1, 2, 0], max: [1.4, 2.6, 1.6] } }) as unknown as SceneObject;

test("a lamp switched on: every part leans 3/4 of the way to warm white, glows, and a light 0.1 m under its top", () => {
  const mesh: WorldMesh = { instanceId: 7, category: "lamp", parts: [part([0.2, 0.4, 0.6], true), part([1, 1, 1])] };
  const look = switchedOnLook(mesh, object("lamp"));
  assert.deepEqual(switchedOnParts(mesh, object("lamp")), [0, 1]);
  // 0.2 + (1 - 0.2) x 0.75 = 0.8; 0.4 + (0.92 - 0.4) x 0.75 = 0.79; 0.6 + (0.75 - 0.6) x 0.75 = 0.7125.
  look.mesh.parts[0]!.diffuse.forEach((c, i) => assert.ok(Math.abs(c - [0.8, 0.79, 0.7125][i]!) < 1e-12, String(c)));
  assert.equal(look.mesh.parts[0]!.texture, null);
  assert.deepEqual(look.mesh.parts[1]!.emission, [0.6, 0.5, 0.32]);
  assert.deepEqual(look.light, { position: [1.2, 2.3, 1.5], color: [0.9, 0.72, 0.45], room: "r1" });
  assert.equal(mesh.parts[0]!.emission, undefined, "the house's mesh is left as it was");
});

test("a screen switched on: only its dark materials (luminance < 0.2) turn a glowing blue; no light", () => {
  // Luminance 0.2126 r + 0.7152 g + 0.0722 b: 0.1 for the grey 0.1, 0.5 for the grey 0.5.
  const mesh: WorldMesh = { instanceId: 7, category: "tv", parts: [part([0.5, 0.5, 0.5]), part([0.1, 0.1, 0.1])] };
  const look = switchedOnLook(mesh, object("tv"));
  assert.deepEqual(switchedOnParts(mesh, object("tv")), [1]);
  assert.equal(look.mesh.parts[0], mesh.parts[0]);
  assert.deepEqual(look.mesh.parts[1]!.diffuse, [0.42, 0.62, 0.95]);
  assert.deepEqual(look.mesh.parts[1]!.emission, [0.1, 0.18, 0.38]);
  assert.equal(look.light, null);
  assert.deepEqual(switchedOnParts({ ...mesh, parts: [part([0.5, 0.5, 0.5])] }, object("tv")), [], "a grey screen shows no state");
});

test("emission is added to the reflected light, not shaded: a black quad lit by nothing shows its emission", () => {
  // A quad 2 m in front of the camera (which looks along +x), filling the centre of the picture.
  const quad: WorldMeshPart = {
    positions: Float32Array.from([2, -1, -1, 2, 1, -1, 2, 1, 1, 2, -1, 1]), normals: Float32Array.from([-1, 0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0]),
    uvs: null, indices: Uint32Array.from([0, 1, 2, 0, 2, 3]), diffuse: [0, 0, 0], opacity: 1, texture: null, emission: [0.2, 0.2, 0.2],
  };
  const camera = { position: [0, 0, 0] as [number, number, number], yaw: 0, pitch: 0, vfovDeg: 40, width: 16, height: 16 };
  const dark = { sky: [0, 0, 0] as [number, number, number], ground: [0, 0, 0] as [number, number, number] };
  const lit = renderView([{ instanceId: 1, category: "wall", parts: [quad] }], camera, { lights: [], keyLight: null, ambient: dark, antialias: false, shadows: false, ambientOcclusion: false });
  const centre = (8 * 16 + 8) * 3;
  // sRGB of linear 0.2: 1.055 x 0.2^(1/2.4) - 0.055 = 0.4845 -> 123.6 of 255 (below the tone knee 0.7).
  assert.deepEqual([...lit.rgb.subarray(centre, centre + 3)], [124, 124, 124]);
  const unlit = renderView([{ instanceId: 1, category: "wall", parts: [quad] }], camera, { shading: "unlit", antialias: false, shadows: false });
  assert.deepEqual([...unlit.rgb.subarray(centre, centre + 3)], [0, 0, 0], "the unlit pass is albedo only");
});

test("stateShows counts an object's pixels whose luminance differs by 30 or more between on and off", () => {
  // Four pixels: object 5 at 0-2, object 6 at 3. Luminance of a grey g is g.
  const instance = Uint32Array.from([5, 5, 5, 6]);
  const grey = (...g: number[]) => Uint8Array.from(g.flatMap((x) => [x, x, x]));
  const counts = stateShows(grey(100, 129, 200, 90), grey(70, 100, 200, 10), instance, new Set([5, 6]));
  // Differences 30, 29, 0 for object 5 (one counts), 80 for object 6.
  assert.deepEqual([...counts], [[5, 1], [6, 1]]);
});

test("generated ObjectState samples (seed 51, house 5): targets said on are brighter than off, those said off look off", { timeout: 120_000 }, async () => {
  const shared = epicShared();
  const settings = epicSettings({});
  const made = await generateEpicHouse(51, 4, settings, shared);
  const record = JSON.parse(made.record) as EpicHouseRecord;
  const states = record.samples.filter((s) => s.leaf === "ObjectState");
  // Six of its views give one each (before the set's balance caps): lamps on, TVs on, lamps off,
  // TVs on, lamps off, lamps on; their targets are checked one by one below.
  assert.equal(states.length, 6);
  const first = states[0]!.construction as { house_seed: number; rng_seed: number; people: number };
  const house = await buildEpicHouse(shared.catalogue, shared.library, shared.textures, first.house_seed, createRng(first.rng_seed), first.people);
  const shadows = prepareShadows(house.meshes, house.scene.lights);
  let onChecked = 0, offChecked = 0;
  for (const s of states) {
    const c = s.construction as { camera: Parameters<typeof renderView>[1]; provenance: { instances: { masklet_target: number[] }; switchedOn: number[] } };
    const gt = JSON.parse(made.files.get(s.annotation)!.toString("utf8"));
    const description: string = gt.text_annotation.text_label[0];
    const wantOn = / switched on$/.test(description);
    assert.ok(wantOn || / switched off$/.test(description), description);
    const { width, height } = c.camera;
    const written = await sharp(made.files.get(s.image)!).raw().toBuffer();
    const allOff = renderView(house.meshes, c.camera, { lights: house.scene.lights, shadows }).rgb;
    const ids = c.provenance.instances.masklet_target;
    assert.equal(gt.mask_annotation.masklet_target.length, ids.length);
    ids.forEach((id, k) => {
      assert.equal(c.provenance.switchedOn.includes(id), wantOn, `${description}: object ${id}`);
      const mask = decodeRle(gt.mask_annotation.masklet_target[k]);
      let sum = 0, n = 0;
      for (let p = 0; p < width * height; p++) {
        if (!mask.get(p % width, Math.floor(p / width))) continue;
        const lum = (rgb: ArrayLike<number>) => 0.2126 * rgb[3 * p]! + 0.7152 * rgb[3 * p + 1]! + 0.0722 * rgb[3 * p + 2]!;
        sum += lum(written) - lum(allOff);
        n++;
      }
      const brighter = sum / n;
      // On: the glow lifts the object well above its look switched off; off: the same look, up to JPEG noise.
      if (wantOn) (assert.ok(brighter > 25, `${description}: ${brighter.toFixed(1)} brighter`), onChecked++);
      else (assert.ok(Math.abs(brighter) < 6, `${description}: ${brighter.toFixed(1)} brighter`), offChecked++);
    });
  }
  assert.ok(onChecked >= 1 && offChecked >= 1, `${onChecked} on, ${offChecked} off`);
});
