/**
 * World renderer time (src/world/render) against three.js's WebGLRenderer in headless Chromium.
 *
 *   node --import tsx bench/render.ts [--runs 9]
 *
 * Scene: a furnished 8 x 6 m room (test/fixtures/world/render/scenes.ts): 40 catalogue models
 * (sofa, armchairs, table and chairs, bookcase, piano, fridge, kitchen cabinets, plants, a person,
 * a dog, small objects) plus textured floor, walls and ceiling, two ceiling lights.
 *
 * Ours: renderView (RGB antialiased with 5 samples per pixel, depth, instance and category in one
 * pass; ambient occlusion; shadow maps of the two lights), timed in this process after 2 warm-up
 * renders. "first view" passes a new meshes array each time, so the shadow maps are built inside
 * every render; "later views" reuses the maps renderView cached for the array (as prepareShadows'
 * maps would be), which is what a generator rendering many views of one scene gets.
 * three.js: the same meshes and matrices, page already loaded, timed inside the page: an RGB pass
 * (Lambert, hemisphere light, the two lights as downward spot lights with 512 x 512 shadow maps
 * over the same 140-degree cone, 4x MSAA on the canvas), an instance pass and a linear-depth pass
 * (float target), each read back with readPixels. "each frame" re-renders its shadow maps every
 * frame (three.js's default), "once" reuses them. three.js gets no ambient occlusion (its core
 * has none), so its passes do less work than ours.
 *
 * Prints medians and the ratios ours / three.js; no assertion on time. Exits non-zero when two
 * renders of the same input differ.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { PinholeCamera } from "../src/world/camera.js";
import { prepareShadows, renderView, type RenderBuffers, type RenderOptions } from "../src/world/render/index.js";
import type { WorldMesh } from "../src/world/types.js";
import { camera, furnishedRoom, ModelPlacer } from "../test/fixtures/world/render/scenes.js";
import { ThreeReference } from "../test/fixtures/world/render/threejs.js";
import { table } from "./lib/common.js";

const WARMUP = 2;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function digest(b: RenderBuffers): string {
  const h = createHash("sha256");
  for (const a of [b.rgb, b.depth, b.instance, b.category]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return h.digest("hex");
}

/** `fresh`: a new meshes array for every render (nothing cached per array, e.g. shadow maps). */
function timeOurs(meshes: WorldMesh[], cam: PinholeCamera, options: RenderOptions, runs: number, fresh: boolean): { ms: number[]; same: boolean } {
  const hashes = new Set<string>();
  for (let i = 0; i < WARMUP; i++) hashes.add(digest(renderView(fresh ? [...meshes] : meshes, cam, options)));
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const input = fresh ? [...meshes] : meshes;
    const t0 = performance.now();
    const b = renderView(input, cam, options);
    ms.push(performance.now() - t0);
    if (i === 0) hashes.add(digest(b));
  }
  return { ms, same: hashes.size === 1 };
}

async function main(): Promise<void> {
  const runs = arg("runs", 9);
  const t0 = performance.now();
  const placer = new ModelPlacer();
  const { meshes, lights } = await furnishedRoom(placer);
  placer.close();
  const loadMs = performance.now() - t0;
  let triangles = 0, parts = 0;
  const textures = new Set<unknown>();
  for (const m of meshes) {
    for (const p of m.parts) {
      parts++;
      triangles += p.indices.length / 3;
      if (p.texture) textures.add(p.texture);
    }
  }
  const view640 = camera([0.8, 1.2, 1.25], 35, -10, 75, 640, 480);
  const view1024 = { ...view640, vfovDeg: 90, width: 1024, height: 1024 };
  console.log(`World renderer bench: ${meshes.length} meshes (${meshes.length - 6} catalogue models), ${parts} parts, ${triangles} triangles, ${textures.size} textures, ${lights.length} ceiling lights; models loaded in ${(loadMs / 1000).toFixed(1)} s`);
  console.log(`node ${process.version}; ${runs} timed renders per case after ${WARMUP} warm-up`);

  // The first call also fills the per-part caches (bounding spheres, twin triangles); time a second one too.
  // prepareShadows builds a light's map when a view first needs it: build them all here to time them.
  const buildAll = () => {
    const maps = prepareShadows(meshes, lights);
    for (const light of lights) maps.get(light);
    return maps;
  };
  let tPrep = performance.now();
  buildAll();
  const prepFirstMs = performance.now() - tPrep;
  tPrep = performance.now();
  const prepared = buildAll();
  const prepMs = performance.now() - tPrep;

  const rows: string[][] = [];
  let broken = false;
  const ours: Record<string, number> = {};
  const FIRST = "ours 640x480, first view (builds 2 shadow maps)", LATER = "ours 640x480, later views (shadow maps cached)";
  const cases: Array<[string, PinholeCamera, RenderOptions, boolean]> = [
    [FIRST, view640, { lights }, true],
    [LATER, view640, { lights }, false],
    ["ours 640x480, prepareShadows' maps", view640, { lights, shadows: prepared }, false],
    ["ours 640x480, no shadows", view640, { lights, shadows: false }, false],
    ["ours 640x480, unlit, no AA (masks and depth only)", view640, { shading: "unlit", antialias: false }, false],
    ["ours 1024x1024 (90 deg), first view", view1024, { lights }, true],
    ["ours 1024x1024 (90 deg), later views", view1024, { lights }, false],
  ];
  for (const [name, cam, options, fresh] of cases) {
    const { ms, same } = timeOurs(meshes, cam, options, runs, fresh);
    if (!same) broken = true;
    ours[name] = median(ms);
    rows.push([name, median(ms).toFixed(1), Math.min(...ms).toFixed(1), Math.max(...ms).toFixed(1), same ? "yes" : "NO"]);
  }

  const tOpen = performance.now();
  const three = await ThreeReference.open(meshes, { width: 640, height: 480, lights, shadows: true, shadowMapSize: 512 });
  const openMs = performance.now() - tOpen;
  let threeEach: number, threeOnce: number;
  try {
    const each = await three.time(view640, runs, 3, "each");
    const once = await three.time(view640, runs, 3, "once");
    threeEach = median(each);
    threeOnce = median(once);
    rows.push(["three.js 640x480 RGB+id+depth, shadows each frame", threeEach.toFixed(1), Math.min(...each).toFixed(1), Math.max(...each).toFixed(1), "-"]);
    rows.push(["three.js 640x480 RGB+id+depth, shadows once", threeOnce.toFixed(1), Math.min(...once).toFixed(1), Math.max(...once).toFixed(1), "-"]);
  } finally {
    await three.close();
  }
  console.log(`three.js: ${three.info.renderer}; page and scene loaded in ${(openMs / 1000).toFixed(1)} s (not timed below)`);
  console.log(`prepareShadows (${lights.length} maps of 512 x 512): ${prepMs.toFixed(1)} ms (first call, with the per-part caches: ${prepFirstMs.toFixed(1)} ms)`);
  console.log(table(["case", "median ms", "min ms", "max ms", "same bytes"], rows));
  const r1 = ours[FIRST]! / threeEach;
  const r2 = ours[LATER]! / threeOnce;
  console.log(`ratio ours / three.js at 640x480: ${r1.toFixed(3)} (shadow maps every frame), ${r2.toFixed(3)} (shadow maps reused); target <= 1.0: ${r1 <= 1 && r2 <= 1 ? "met" : "MISSED"}`);
  if (broken) {
    console.error("renders of the same input gave different bytes");
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
