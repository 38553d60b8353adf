/**
 * Cross-check of the software renderer against a real engine: the same world meshes (catalogue
 * models, boxes, a textured floor) drawn by three.js's WebGLRenderer in headless Chromium
 * (SwiftShader), through the same view and projection matrices (camera.ts), with an instance pass
 * (flat id colours) and a linear-depth pass (ShaderMaterial writing the eye-space depth into a
 * float target), read back with readPixels. Issue 11's bar: per object with at least 500 visible
 * pixels, instance-mask IoU >= 0.95 and median absolute depth difference < 1 cm.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { PinholeCamera } from "../../src/world/camera.js";
import { renderView } from "../../src/world/render/index.js";
import type { WorldMesh } from "../../src/world/types.js";
import { boxPart, camera, checkerTexture, mesh, ModelPlacer, plankTexture, quadPart, roomMeshes } from "../fixtures/world/render/scenes.js";
import { ThreeReference } from "../fixtures/world/render/threejs.js";

const W = 480, H = 360;
const MIN_PIXELS = 500;

const MODELS: Array<[string, "sofa" | "table" | "chair" | "plant" | "shelf" | "bed" | "tv" | "lamp" | "armchair" | "tv stand", number, number, number, number]> = [
  ["Blend Swap CC-0#couch", "sofa", 1.6, 4.5, 0, 0],
  ["Blend Swap CC-0#oakTable", "table", 3.6, 2.0, 0, 0],
  ["Blend Swap CC-0#chair", "chair", 3.6, 1.2, 0, 180],
  ["Blend Swap CC-0#chair", "chair", 2.8, 2.0, 0, 90],
  ["Blend Swap CC-0#littlePlant", "plant", 3.5, 2.0, 0.74, 0],
  ["Kator Legaz#full-bookcase", "shelf", 4.4, 4.8, 0, 0],
  ["Blend Swap CC-0#modernArmchair", "armchair", 0.6, 3.0, 0, -90],
  ["Blend Swap CC-BY#tvStand", "tv stand", 1.6, 0.3, 0, 180],
  ["Blend Swap CC-0#led_tv", "tv", 1.6, 0.3, 0.53, 180],
  ["Blend Swap CC-0#decorativePlant", "plant", 4.6, 0.4, 0, 0],
];

let meshes: WorldMesh[] = [];
let three: ThreeReference;

before(async () => {
  const placer = new ModelPlacer();
  try {
    meshes = roomMeshes({ sx: 5, sy: 5, h: 2.5, floor: { diffuse: [1, 1, 1], texture: plankTexture() } });
    let id = 1;
    for (const [catalogId, category, x, y, z, yaw] of MODELS) {
      meshes.push(await placer.place({ catalogId, instanceId: id++, category, position: [x, y, z], yaw: (yaw * Math.PI) / 180 }));
    }
    meshes.push(mesh(id++, "box", [boxPart([0.3, 0.4, 0], [0.8, 0.9, 0.5], { diffuse: [1, 1, 1], texture: checkerTexture(4, 8, [200, 40, 40], [240, 230, 210]) })]));
    meshes.push(mesh(id++, "box", [boxPart([2.3, 3.2, 0], [2.7, 3.4, 0.9], { diffuse: [0.3, 0.5, 0.2] })]));
    meshes.push(mesh(id++, "picture", [quadPart([4.99, 1.0, 1.1], [0, 1.2, 0], [0, 0, 0.8], { diffuse: [0.9, 0.8, 0.2] })]));
  } finally {
    placer.close();
  }
  three = await ThreeReference.open(meshes, { width: W, height: H });
});

after(async () => {
  await three?.close();
});

const VIEWS: Array<[string, PinholeCamera]> = [
  ["from the door corner", camera([0.5, 0.6, 1.25], 45, -10, 75, W, H)],
  ["towards the sofa, wide", camera([3.8, 1.0, 1.25], 120, -15, 100, W, H)],
];

for (const [name, cam] of VIEWS) {
  test(`three.js agrees on instance masks and depth: ${name}`, async (t) => {
    assert.ok(three.info.webgl2, `no WebGL2 context in Chromium (${three.info.renderer})`);
    const ref = await three.render(cam, ["id", "depth"]);
    const ours = renderView(meshes, cam, { shading: "unlit" });
    const refIds = ref.instance!, refDepth = ref.depth!;
    const ids = new Set<number>([...ours.instance, ...refIds]);
    ids.delete(0);
    const report: string[] = [];
    let checked = 0;
    for (const id of [...ids].sort((a, b) => a - b)) {
      let a = 0, b = 0, both = 0;
      const diffs: number[] = [];
      for (let p = 0; p < W * H; p++) {
        const inA = ours.instance[p] === id, inB = refIds[p] === id;
        if (inA) a++;
        if (inB) b++;
        if (inA && inB) {
          both++;
          diffs.push(Math.abs(ours.depth[p]! - refDepth[p]!));
        }
      }
      if (Math.max(a, b) < MIN_PIXELS) continue;
      checked++;
      const iou = both / (a + b - both);
      diffs.sort((x, y) => x - y);
      const median = diffs.length ? diffs[diffs.length >> 1]! : Infinity;
      report.push(`${id}: ${a}/${b} px, IoU ${iou.toFixed(4)}, median |dz| ${(median * 1000).toFixed(3)} mm`);
      assert.ok(iou >= 0.95, `instance ${id}: IoU ${iou} (ours ${a} px, three.js ${b} px)`);
      assert.ok(median < 0.01, `instance ${id}: median depth difference ${median} m`);
    }
    assert.ok(checked >= 8, `only ${checked} objects with ${MIN_PIXELS}+ pixels:\n${report.join("\n")}`);
    // Whole image: the same instance at almost every pixel.
    let same = 0;
    for (let p = 0; p < W * H; p++) if (ours.instance[p] === refIds[p]) same++;
    assert.ok(same / (W * H) > 0.99, `same instance at ${((100 * same) / (W * H)).toFixed(2)}% of pixels`);
    for (const line of [`${checked} objects`, ...report, `same instance at ${((100 * same) / (W * H)).toFixed(3)}% of pixels`]) t.diagnostic(line);
  });
}
