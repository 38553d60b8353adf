/**
 * Camera poses and the rendered buffers of one view: the lit picture and its instance buffer
 * (every mask is taken from it), and an unlit pass over the part-split meshes (house.ts) for
 * part and top-surface masks. Poses are EgoPathBench's (egopath/construct/cameras.ts: free spots
 * near room edges, the best of twelve headings by objects in sight) at a head or a robot height.
 */
import { BitMask } from "../../../geometry/mask.js";
import type { Rng } from "../../../stats/rng.js";
import { horizontalFovDeg, type PinholeCamera } from "../../../world/camera.js";
import { COLOR_NAMES, pixelColorTallies, type ColorName } from "../../../world/house/appearance.js";
import { prepareShadows, renderView, type RenderBuffers } from "../../../world/render/index.js";
import { switchedOnLook } from "../../../world/render/switched-on.js";
import { isFreePoint, lineOfSight } from "../../../world/space/index.js";
import { STRUCTURE_ID_BASE, type PointLight, type Vec2, type WorldMesh } from "../../../world/types.js";
import { objectPixelStats, type ObjectPixelStats } from "../../../world/visibility.js";
import { cameraCandidates, selectViews, tooSimilar, type CameraCandidate } from "../../egopath/construct/cameras.js";
import { decodePartInstanceId, type EpicHouse } from "./house.js";
import { EPIC_PARAMS as P } from "./params.js";

const DEG = Math.PI / 180;

export interface EpicView {
  camera: PinholeCamera;
  /** "head" (a person's eye height) or "robot". */
  kind: "head" | "robot";
  buffers: RenderBuffers;
  stats: Map<number, ObjectPixelStats>;
  /** The part-split render's instance buffer (PART_ID_BASE ids for objects). */
  parts: Uint32Array;
  /** Objects whose pixels in the part pass are exactly their pixels in the picture. */
  partConsistent: Set<number>;
  /** The colour word of each object in view (visibleColors), null when no word covers half its pixels. */
  colors: Map<number, ColorName | null>;
  /** The objects switched on in this view (ObjectState; the other switchable objects are off). */
  on: ReadonlySet<number>;
  /** Per switchable object in view (house.switchable), its pixels whose brightness switching it changes (stateShows). */
  statePx: Map<number, number>;
}

export type Shadows = ReturnType<typeof prepareShadows>;

/** Camera poses of a house: up to `max` distinct candidates, each given a height and pitch. */
export function chooseCameras(house: EpicHouse, rng: Rng, max: number, width: number = P.width, height: number = P.height): Array<{ camera: PinholeCamera; kind: "head" | "robot" }> {
  const hfov = horizontalFovDeg({ vfovDeg: P.vfovDeg, width, height });
  const candidates = cameraCandidates(house.scene, house.grids.embodied, hfov, rng);
  const chosen: CameraCandidate[] = [];
  for (const c of selectViews(candidates, max * 2)) {
    if (chosen.length >= max) break;
    if (!tooSimilar(chosen, c)) chosen.push(c);
  }
  const poses: Array<{ position: Vec2; yaw: number }> = chosen.map((c) => ({ position: c.position, yaw: c.yaw }));
  poses.push(...personPoses(house, rng));
  return poses.map((c) => {
    const kind = rng.chance(0.5) ? "head" : "robot";
    const [lo, hi] = kind === "head" ? P.headHeightM : P.robotHeightM;
    const camera: PinholeCamera = {
      position: [c.position[0], c.position[1], round3(rng.float(lo, hi))],
      yaw: c.yaw + rng.float(-10, 10) * DEG,
      pitch: round3(rng.float(P.pitchDeg[0], P.pitchDeg[1])) * DEG,
      vfovDeg: P.vfovDeg,
      width,
      height,
    };
    return { camera, kind };
  });
}

/** How far a person pose may look away from its person (degrees either side). */
const PERSON_OFFSET_DEG = 25;

/**
 * One pose looking at each person (the Human task variants need people in view): a free spot of
 * the robot grid 1.8-3.5 m away with a clear line to them, facing them give or take
 * PERSON_OFFSET_DEG (a person always at the centre made the centre box a good blind answer).
 */
function personPoses(house: EpicHouse, rng: Rng): Array<{ position: Vec2; yaw: number }> {
  const grid = house.grids.embodied;
  const out: Array<{ position: Vec2; yaw: number }> = [];
  for (const person of house.scene.objects.filter((o) => o.category === "person")) {
    const p: Vec2 = [person.position[0], person.position[1]];
    for (let attempt = 0; attempt < 30; attempt++) {
      const dir = rng.float(0, 2 * Math.PI), dist = rng.float(1.8, 3.5);
      const q: Vec2 = [p[0] + dist * Math.cos(dir), p[1] + dist * Math.sin(dir)];
      // The person's own cells are occupied: the line stops 0.5 m short of them.
      const near: Vec2 = [p[0] + 0.5 * Math.cos(dir), p[1] + 0.5 * Math.sin(dir)];
      if (!isFreePoint(grid, q) || !lineOfSight(house.grids.point, q, near)) continue;
      // Turned up to 25 degrees off the person (the picture is about 74 degrees wide), so people are not always in the middle.
      out.push({ position: q, yaw: Math.atan2(p[1] - q[1], p[0] - q[0]) + rng.float(-PERSON_OFFSET_DEG, PERSON_OFFSET_DEG) * DEG });
      break;
    }
  }
  return out;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** A camera moved by `shift` metres along `direction` (radians) and turned by `turn` radians. */
export function movedCamera(camera: PinholeCamera, to: Vec2, turn: number): PinholeCamera {
  return { ...camera, position: [to[0], to[1], camera.position[2]], yaw: camera.yaw + turn };
}

/** The house's meshes with the objects in `on` switched on, and the lights (lamps that are on add theirs). */
function switchedScene(house: EpicHouse, on: ReadonlySet<number>): { meshes: WorldMesh[]; lights: PointLight[] } {
  const lights = [...house.scene.lights];
  const meshes = house.meshes.map((m) => {
    if (!on.has(m.instanceId)) return m;
    const look = switchedOnLook(m, house.objectsById.get(m.instanceId)!);
    if (look.light) lights.push(look.light);
    return look.mesh;
  });
  return { meshes, lights };
}

/**
 * Renders a view: the lit picture with its buffers (the objects in `on` switched on: glowing,
 * lamps lighting the room, world/render/switched-on.ts), and the unlit part pass. A switched-on
 * object has no colour word: the unlit pass shows its materials, the picture its glow. Where a
 * switchable object is in view, the picture is also drawn with every one of them on and with
 * none on, to count the pixels where its state shows (statePx; a lamp's light on a neighbour
 * counts for the neighbour too, but only objects whose own look changes are switchable).
 */
export function renderEpicView(house: EpicHouse, camera: PinholeCamera, kind: "head" | "robot", shadows: Shadows, on: ReadonlySet<number> = new Set()): EpicView {
  const scene = switchedScene(house, on);
  const buffers = renderView(scene.meshes, camera, { lights: scene.lights, shadows });
  const unlit = renderView(house.splitMeshes, camera, { shading: "unlit", antialias: false, shadows: false });
  const parts = unlit.instance;
  const objectIds = parts.map((id) => decodePartInstanceId(id)?.objectId ?? id);
  const colors = visibleColors(unlit.rgb, objectIds);
  for (const id of on) if (colors.has(id)) colors.set(id, null);
  const stats = objectPixelStats(buffers.instance, buffers.width, buffers.height);
  const inView = new Set([...house.switchable].filter((id) => stats.has(id)));
  let statePx = new Map<number, number>();
  if (inView.size > 0) {
    const draw = (ids: ReadonlySet<number>) => {
      const s = switchedScene(house, ids);
      return renderView(s.meshes, camera, { lights: s.lights, shadows }).rgb;
    };
    statePx = stateShows(draw(inView), draw(new Set()), buffers.instance, inView);
  }
  return {
    camera, kind, buffers, stats, parts, partConsistent: consistentObjects(buffers.instance, parts),
    colors, on, statePx,
  };
}

/** A pixel shows a state when its luminance on and off differs by at least this (0-255). */
export const STATE_LUMINANCE_STEP = 30;

/** Per object of `ids`, its pixels whose luminance differs by STATE_LUMINANCE_STEP between the picture with them on and with them off. */
export function stateShows(onRgb: Uint8Array, offRgb: Uint8Array, instance: Uint32Array, ids: ReadonlySet<number>): Map<number, number> {
  const out = new Map([...ids].map((id) => [id, 0]));
  const lum = (rgb: Uint8Array, p: number) => 0.2126 * rgb[3 * p]! + 0.7152 * rgb[3 * p + 1]! + 0.0722 * rgb[3 * p + 2]!;
  instance.forEach((id, p) => {
    if (ids.has(id) && Math.abs(lum(onRgb, p) - lum(offRgb, p)) >= STATE_LUMINANCE_STEP) out.set(id, out.get(id)! + 1);
  });
  return out;
}

/** Share of an object's pixels its colour word must cover (a pink top over blue jeans is neither pink nor blue). */
export const COLOR_WORD_SHARE = 0.5;

/**
 * The colour word of each object as the view shows it: the word of the largest share of its
 * albedo pixels (the unlit pass: the materials' colours, not the light's), when that share is at
 * least COLOR_WORD_SHARE; else null. A whole-model mean colour blended materials into words none
 * of them has (issue 29: "gray people" for a woman in a pink top).
 */
export function visibleColors(albedo: Uint8Array, objectIds: Uint32Array): Map<number, ColorName | null> {
  const out = new Map<number, ColorName | null>();
  for (const [id, tally] of pixelColorTallies(albedo, objectIds, (id) => id < STRUCTURE_ID_BASE.floor)) {
    const total = tally.counts.reduce((a, b) => a + b, 0);
    const best = tally.dominant();
    const word = best ? (best.name as ColorName) : null;
    out.set(id, word !== null && tally.counts[COLOR_NAMES.indexOf(word)]! >= COLOR_WORD_SHARE * total ? word : null);
  }
  return out;
}

/** Object ids whose part-pass pixels (any of their part ids) are exactly their picture pixels. */
export function consistentObjects(instance: Uint32Array, parts: Uint32Array): Set<number> {
  const seen = new Set<number>(), bad = new Set<number>();
  for (let p = 0; p < instance.length; p++) {
    const a = instance[p]!;
    const decoded = decodePartInstanceId(parts[p]!);
    const b = decoded ? decoded.objectId : parts[p]!;
    if (a > 0 && a < STRUCTURE_ID_BASE.floor) seen.add(a);
    if (a !== b) {
      bad.add(a);
      bad.add(b);
    }
  }
  return new Set([...seen].filter((id) => !bad.has(id)));
}

export const isFloorId = (id: number): boolean => id >= STRUCTURE_ID_BASE.floor && id < STRUCTURE_ID_BASE.wall;

/** The pixels whose id passes the test. */
export function maskWhere(ids: Uint32Array, width: number, height: number, test: (id: number) => boolean): BitMask {
  const m = new BitMask(width, height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (test(ids[y * width + x]!)) m.set(x, y);
  return m;
}

/** Visible pixels of an object in the picture. */
export const pixelsOf = (view: EpicView, id: number): number => view.stats.get(id)?.pixels ?? 0;
