/**
 * renderView time per view in the modes the generators and the navigation simulator use, and a
 * byte-identity checker for changes to the renderer.
 *
 *   node --import tsx bench/render-speed.ts [--positions 6] [--record FILE | --check FILE] [--no-timing]
 *
 * Houses: examples/vcn-mini house_001 and house_002, regenerated from their scene.json seeds
 * (the regenerated scene.json must equal the stored one), and a generated 4-room house (seed 11).
 *
 * Timing: the simulator's views on house_001 (issue 13): four views (front, left, back, right)
 * of 384 x 384 at a 90-degree vertical field of view, camera 1.41 m above the floor (VCN_PARAMS
 * robotHeightM), at `positions` tour positions; one warm-up pass fills the per-array caches
 * (shadow maps), then each view is timed as the best of 3 renders per mode. Prints ms/view per
 * mode (mean over the views, min, max) and the ratio to the 12.5 ms/view target (20 steps/s,
 * 4 views per step).
 *
 * Checking: --record writes the SHA-256 of every buffer (rgb, depth, instance, category) of a fixed
 * set of views (three houses; lit with and without antialiasing, ambient occlusion and shadows,
 * unlit, no lights, a background colour, pitched views, 384 x 384 and 1280 x 720), of the houses'
 * shadow maps and of renderInstanceCoverage counts; --check compares with a recorded file and
 * exits 1 on any difference.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { readLibraries } from "../src/world/assets/catalog.js";
import { ModelLibrary } from "../src/world/assets/models.js";
import type { PinholeCamera } from "../src/world/camera.js";
import { generateHouse, sceneToJson } from "../src/world/house/index.js";
import { sceneMeshes, TextureCache } from "../src/world/meshes.js";
import { prepareShadows, renderInstanceCoverage, renderView, type RenderBuffers, type RenderOptions } from "../src/world/render/index.js";
import type { Scene, WorldMesh } from "../src/world/types.js";
import { REPO_ROOT, table } from "./lib/common.js";

const TARGET_MS_PER_VIEW = 1000 / 20 / 4;
const REPEATS = 3;
const SIM_HEIGHT_M = 1.41;
const VIEW_YAWS = { front: 0, left: Math.PI / 2, back: Math.PI, right: -Math.PI / 2 } as const;

interface House {
  name: string;
  scene: Scene;
  meshes: WorldMesh[];
  /** Camera poses: plan position, yaw, pitch. */
  poses: Array<{ position: [number, number]; yaw: number; pitch: number }>;
}

function intArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

function stringArg(name: string): string | null {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return null;
  const v = process.argv[i + 1];
  if (!v) throw new Error(`--${name} needs a file`);
  return v;
}

function sha(a: ArrayBufferView): string {
  return createHash("sha256").update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest("hex");
}

function bufferHashes(b: RenderBuffers): Record<string, string> {
  return { rgb: sha(b.rgb), depth: sha(b.depth), instance: sha(b.instance), category: sha(b.category) };
}

/** A vcn-mini house, regenerated from its seed, with poses from its tour. */
async function exampleHouse(name: string, catalogue: ReturnType<typeof readLibraries>, library: ModelLibrary): Promise<House> {
  const dir = path.join(REPO_ROOT, "examples/vcn-mini");
  const stored = JSON.parse(readFileSync(path.join(dir, "houses", name, "scene.json"), "utf8")) as { id: string; seed: number; rooms: unknown[] };
  const scene = { ...(await generateHouse({ catalogue, library, seed: stored.seed, rooms: stored.rooms.length })), id: stored.id };
  if (JSON.stringify(sceneToJson(scene)) !== JSON.stringify(stored)) throw new Error(`${name}: the regenerated scene differs from its scene.json`);
  const meshes = await sceneMeshes(scene, library, catalogue, { textures: new TextureCache() });
  const tour = JSON.parse(readFileSync(path.join(dir, "tours", name, "tour_0", "tour.json"), "utf8")) as { frames: Array<{ position: number[]; yaw: number; pitch: number }> };
  const poses = tour.frames.map((f) => ({ position: [f.position[0]!, f.position[1]!] as [number, number], yaw: f.yaw, pitch: f.pitch }));
  return { name, scene, meshes, poses };
}

/** A generated house, with poses at its room centres (bounding-box middles). */
async function generatedHouse(seed: number, rooms: number, catalogue: ReturnType<typeof readLibraries>, library: ModelLibrary): Promise<House> {
  const scene = await generateHouse({ catalogue, library, seed, rooms });
  const meshes = await sceneMeshes(scene, library, catalogue, { textures: new TextureCache() });
  const poses = scene.rooms.map((r, k) => {
    const xs = r.polygon.map((p) => p[0]), ys = r.polygon.map((p) => p[1]);
    return { position: [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2] as [number, number], yaw: k * 1.3, pitch: 0 };
  });
  return { name: `generated_${seed}`, scene, meshes, poses };
}

function cameraAt(pose: House["poses"][number], size: [number, number], vfovDeg: number, height = SIM_HEIGHT_M, yawOffset = 0, pitch = pose.pitch): PinholeCamera {
  return { position: [pose.position[0], pose.position[1], height], yaw: pose.yaw + yawOffset, pitch, vfovDeg, width: size[0], height: size[1] };
}

/** Evenly spread picks of `n` items. */
function spread<T>(items: readonly T[], n: number): T[] {
  return Array.from({ length: Math.min(n, items.length) }, (_, k) => items[Math.floor((k * items.length) / Math.min(n, items.length))]!);
}

// ---------------------------------------------------------------- the checker's views

interface CheckCase {
  key: string;
  run: () => Record<string, string>;
}

function checkCases(houses: House[]): CheckCase[] {
  const cases: CheckCase[] = [];
  const S384: [number, number] = [384, 384], S720: [number, number] = [1280, 720];
  for (const h of houses) {
    const lights = h.scene.lights;
    const prepared = prepareShadows(h.meshes, lights);
    const modes: Array<[string, RenderOptions]> = [
      ["lit-aa", { lights }],
      ["lit-noaa", { lights, antialias: false }],
      ["lit-noaa-noao", { lights, antialias: false, ambientOcclusion: false }],
      ["lit-noaa-noao-noshadow", { lights, antialias: false, ambientOcclusion: false, shadows: false }],
      ["lit-aa-prepared", { lights, shadows: prepared }],
      ["unlit-aa", { shading: "unlit" }],
      ["unlit-noaa", { shading: "unlit", antialias: false, shadows: false }],
    ];
    const poses = spread(h.poses, 3);
    poses.forEach((pose, k) => {
      for (const [mode, options] of modes) {
        const camera = cameraAt(pose, S384, 90, SIM_HEIGHT_M, k * 0.7);
        cases.push({ key: `${h.name}/p${k}/${mode}`, run: () => bufferHashes(renderView(h.meshes, camera, options)) });
      }
    });
    const wide = cameraAt(poses[0]!, S720, 70, 1.6, 0.4, -0.15);
    cases.push({ key: `${h.name}/1280x720/lit-aa`, run: () => bufferHashes(renderView(h.meshes, wide, { lights })) });
    cases.push({ key: `${h.name}/1280x720/lit-noaa-noao`, run: () => bufferHashes(renderView(h.meshes, wide, { lights, antialias: false, ambientOcclusion: false })) });
    cases.push({ key: `${h.name}/1280x720/unlit-noaa`, run: () => bufferHashes(renderView(h.meshes, wide, { shading: "unlit", antialias: false })) });
    // No point lights (hemisphere + key light), a background colour, exposure; pitched down and up.
    const down = cameraAt(poses[1]!, S384, 75, 1.2, 1, -0.6);
    cases.push({ key: `${h.name}/down/outdoor-aa`, run: () => bufferHashes(renderView(h.meshes, down, { background: [40, 60, 90], exposure: 1.3 })) });
    const up = cameraAt(poses[2]!, S384, 100, 0.5, 2, 0.5);
    cases.push({ key: `${h.name}/up/lit-aa-lowres-shadowmap`, run: () => bufferHashes(renderView(h.meshes, up, { lights, shadowMapSize: 128, lightRange: 5 })) });
    // A camera almost touching the first wall (near-plane and guard-band clipping).
    const wall = h.scene.walls[0]!;
    const mid: [number, number] = [(wall.a[0] + wall.b[0]) / 2, (wall.a[1] + wall.b[1]) / 2];
    const along = Math.atan2(wall.b[1] - wall.a[1], wall.b[0] - wall.a[0]);
    const close = cameraAt({ position: [mid[0] + 0.1 * Math.cos(along + Math.PI / 2), mid[1] + 0.1 * Math.sin(along + Math.PI / 2)], yaw: along + 0.3, pitch: 0 }, S384, 90, 1.0);
    cases.push({ key: `${h.name}/wall/lit-aa`, run: () => bufferHashes(renderView(h.meshes, close, { lights })) });
    cases.push({ key: `${h.name}/wall/lit-noaa-near0.2`, run: () => bufferHashes(renderView(h.meshes, close, { lights, antialias: false, near: 0.2 })) });
    // A different meshes array of the same scene (a frame with objects removed, as EgoTL's moves make):
    // nothing cached for the full array may leak into it.
    const subset = h.meshes.filter((_, i) => i % 7 !== 3);
    const first = cameraAt(poses[0]!, S384, 90, SIM_HEIGHT_M, 0);
    cases.push({ key: `${h.name}/subset/lit-aa`, run: () => bufferHashes(renderView(subset, first, { lights })) });
    cases.push({ key: `${h.name}/subset/lit-noaa-noao`, run: () => bufferHashes(renderView([...subset], first, { lights, antialias: false, ambientOcclusion: false })) });
    // Shadow maps and pixel coverage (the same rasterizer and frame code).
    cases.push({ key: `${h.name}/shadow-maps`, run: () => Object.fromEntries(lights.map((light, k) => [`light${k}`, sha(prepared.get(light)!.depth)])) });
    const cover = cameraAt(poses[0]!, S384, 90);
    cases.push({ key: `${h.name}/coverage`, run: () => ({ counts: createHash("sha256").update(JSON.stringify([...renderInstanceCoverage(h.meshes, cover)])).digest("hex") }) });
  }
  return cases;
}

function runChecker(houses: House[], record: string | null, check: string | null): boolean {
  const t0 = performance.now();
  const got: Record<string, Record<string, string>> = {};
  for (const c of checkCases(houses)) got[c.key] = c.run();
  const buffers = Object.values(got).reduce((n, h) => n + Object.keys(h).length, 0);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if (record) {
    writeFileSync(record, JSON.stringify(got, null, 1) + "\n");
    console.log(`recorded ${buffers} hashes of ${Object.keys(got).length} cases to ${record} (${seconds} s)`);
    return true;
  }
  const want = JSON.parse(readFileSync(check!, "utf8")) as Record<string, Record<string, string>>;
  const differ: string[] = [];
  for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
    for (const buffer of new Set([...Object.keys(want[key] ?? {}), ...Object.keys(got[key] ?? {})])) {
      if (want[key]?.[buffer] !== got[key]?.[buffer]) differ.push(`${key} ${buffer}`);
    }
  }
  if (differ.length > 0) {
    console.log(`HASHES DIFFER (${differ.length} of ${buffers}):\n  ${differ.join("\n  ")}`);
    return false;
  }
  console.log(`all ${buffers} hashes of ${Object.keys(got).length} cases equal ${check} (${seconds} s)`);
  return true;
}

// ---------------------------------------------------------------- timing

function timeModes(house: House, positions: number): string[][] {
  const lights = house.scene.lights;
  const modes: Array<[string, RenderOptions]> = [
    ["lit, AA, AO, shadows", { lights }],
    ["lit, no AA, AO, shadows", { lights, antialias: false }],
    ["lit, no AA, no AO, shadows (simulator)", { lights, antialias: false, ambientOcclusion: false }],
    ["lit, no AA, no AO, no shadows", { lights, antialias: false, ambientOcclusion: false, shadows: false }],
    ["unlit, no AA", { shading: "unlit", antialias: false, shadows: false }],
  ];
  const cameras = spread(house.poses, positions).flatMap((pose) => Object.values(VIEW_YAWS).map((offset) => cameraAt(pose, [384, 384], 90, SIM_HEIGHT_M, offset, 0)));
  const rows: string[][] = [];
  for (const [name, options] of modes) {
    for (const camera of cameras) renderView(house.meshes, camera, options); // warm-up: caches, JIT
    // Per view the best of REPEATS renders: other processes on the machine only ever add time.
    const ms: number[] = [];
    for (const camera of cameras) {
      let best = Infinity;
      for (let r = 0; r < REPEATS; r++) {
        const t = performance.now();
        renderView(house.meshes, camera, options);
        best = Math.min(best, performance.now() - t);
      }
      ms.push(best);
    }
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    rows.push([name, mean.toFixed(1), Math.min(...ms).toFixed(1), Math.max(...ms).toFixed(1), (mean / TARGET_MS_PER_VIEW).toFixed(2)]);
  }
  return rows;
}

async function main(): Promise<void> {
  const positions = intArg("positions", 6);
  const record = stringArg("record"), check = stringArg("check");
  const t0 = performance.now();
  const catalogue = readLibraries();
  const library = new ModelLibrary();
  const houses = [await exampleHouse("house_001", catalogue, library)];
  if (record || check) {
    houses.push(await exampleHouse("house_002", catalogue, library));
    houses.push(await generatedHouse(11, 4, catalogue, library));
  }
  const stats = houses.map((h) => {
    let parts = 0, triangles = 0, glass = 0;
    for (const m of h.meshes) for (const p of m.parts) { parts++; triangles += p.indices.length / 3; if (p.opacity < 0.5) glass++; }
    return `${h.name}: ${h.meshes.length} meshes, ${parts} parts (${glass} glass), ${triangles} triangles, ${h.scene.lights.length} lights`;
  });
  console.log(`houses built in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${stats.join("; ")}`);
  let ok = true;
  if (record || check) ok = runChecker(houses, record, check);
  if (!process.argv.includes("--no-timing")) {
    console.log(`node ${process.version}; ${houses[0]!.name}, ${positions} positions x 4 views of 384 x 384, vfov 90, camera ${SIM_HEIGHT_M} m; one warm-up pass per mode, best of ${REPEATS} renders per view`);
    console.log(table(["mode", "ms/view", "min", "max", `ratio to ${TARGET_MS_PER_VIEW} ms`], timeModes(houses[0]!, positions)));
  }
  if (!ok) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
