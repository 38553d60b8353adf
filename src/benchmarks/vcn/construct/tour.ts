/**
 * VCN-Bench tour videos on the world engine (paper §3.3 "Tour Video Generation", App. B.1-B.3):
 * a route through every room of the house (tour-route.ts), smooth walking motion along it
 * (tour-motion.ts), a camera and lighting randomised per tour, every frame rendered at 384 x 384
 * (frames/NNNN.jpg and tour.mp4) and annotated by the engine (tour-visibility.ts).
 *
 * `planTourPoses` gives the poses alone (no rendering); `buildTour` renders and annotates them.
 * Same scene, seed and tour index: the same Tour JSON and the same frame bytes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { encodeMp4 } from "../../../media/video-encode.js";
import { createRng, deriveSeed } from "../../../stats/rng.js";
import type { PinholeCamera } from "../../../world/camera.js";
import { DEFAULT_ROOM_AMBIENT, prepareShadows, renderView, type RenderOptions, type ShadowMaps } from "../../../world/render/index.js";
import { inflate, isFreePoint, largestFreeComponent, occupancyForScene, roomAt, type OccupancyGrid } from "../../../world/space/index.js";
import type { PointLight, Scene, Vec2, Vec3, WorldMesh } from "../../../world/types.js";
import { EGOPATH_PARAMS } from "../../egopath/construct/params.js";
import { ArcPath, densify, motionParams, pieceCurve, splitAtStops, walkCurves, type PlanPose, type WalkerPace } from "./tour-motion.js";
import { roundTo, TOUR_PARAMS as P } from "./tour-params.js";
import { planRoute, routeNodes, type RouteNode } from "./tour-route.js";
import { tourFrameFile, type RoomVisit, type Tour, type TourCamera, type TourFrame, type TourLighting } from "./tour-types.js";

export { tourFrameFile };
import { annotateFrame, indexTourScene, type TourSceneIndex } from "./tour-visibility.js";
import { firstEntryOrder, roomVisits } from "./windows.js";

export { firstEntryOrder, roomVisits };

export { annotateFrame, indexTourScene, type FrameAnnotation, type TourSceneIndex } from "./tour-visibility.js";

const DEG = Math.PI / 180;

/** The two plan grids of a tour: the route's (free space inflated by the person's radius, its largest connected piece) and the smaller-radius one every sample must be free on. */
export interface TourGrids {
  route: OccupancyGrid;
  clearance: OccupancyGrid;
}

const NEVER_BLOCKS = new Set<string>(["floor", "ceiling", ...EGOPATH_PARAMS.nonBlocking]);

/**
 * Tour grids from the scene's meshes: obstacles are geometry from obstacleMinZM up to a standing
 * person's head (obstacleMaxZM, so wall cabinets at 1.45 m block the camera's way); floors,
 * ceilings and EgoPath's never-blocking categories (rugs, towels) do not block.
 */
export function tourGrids(scene: Scene, meshes: readonly WorldMesh[]): TourGrids {
  const point = occupancyForScene(scene, meshes, { cellSize: P.gridCellM, zMin: P.obstacleMinZM, zMax: P.obstacleMaxZM, skip: (m) => NEVER_BLOCKS.has(m.category) });
  const main = largestFreeComponent(inflate(point, P.personRadiusM));
  if (main === null) throw new Error(`scene ${scene.id} has no free space for a tour`);
  return { route: main.grid, clearance: inflate(point, P.sampleClearanceM) };
}

export interface TourSettings {
  startRoom: string;
  camera: TourCamera;
  lighting: TourLighting;
}

/** Seed stream of the start-room shuffle (apart from the per-tour streams 0, 1, 2, ...). */
const START_ROOM_STREAM = 0x7041;

/**
 * Camera, lighting and start room of tour `tourIndex` of a house: TOUR_PARAMS ranges, uniform
 * draws in a fixed order from deriveSeed(seed, tourIndex); the start room is the tourIndex-th
 * (cyclically) of `rooms` (the rooms a tour may start in) shuffled by the seed alone, so the tours
 * 0, 1, ... of one seed start in different rooms. `startRoom` overrides it.
 */
export function tourSettings(rooms: readonly string[], seed: number, tourIndex: number, startRoom?: string, imageSide: number = P.imageSide): TourSettings {
  if (rooms.length === 0) throw new Error("a tour needs at least one room to start in");
  const rng = createRng(deriveSeed(seed, tourIndex));
  const camera: TourCamera = {
    heightM: roundTo(rng.float(...P.heightM), 3),
    pitchDeg: roundTo(rng.float(...P.pitchDeg), 2),
    vfovDeg: roundTo(rng.float(...P.vfovDeg), 2),
    width: imageSide,
    height: imageSide,
  };
  const lightScale = roundTo(rng.float(...P.lightScale), 3);
  const ambientScale = roundTo(rng.float(...P.ambientScale), 3);
  const t = rng.next();
  const tint = [0, 1, 2].map((c) => roundTo(P.warmTint[c]! + (P.coolTint[c]! - P.warmTint[c]!) * t, 4)) as [number, number, number];
  if (startRoom !== undefined && !rooms.includes(startRoom)) throw new Error(`start room ${startRoom} is not one of the tour's rooms (${rooms.join(", ")})`);
  // Paper §3.4: a floor's tours start in different rooms. Tour k takes the k-th room of one shuffle per seed.
  const starts = createRng(deriveSeed(seed, START_ROOM_STREAM)).shuffle(rooms);
  return { startRoom: startRoom ?? starts[tourIndex % starts.length]!, camera, lighting: { lightScale, ambientScale, tint } };
}

/** The scene's lights and ambient under a tour's lighting: colours scaled and tinted. */
export function tourLights(lights: readonly PointLight[], lighting: TourLighting): { lights: PointLight[]; ambient: NonNullable<RenderOptions["ambient"]> } {
  const { lightScale: k, ambientScale: a, tint } = lighting;
  const scale = (rgb: readonly number[], s: number): [number, number, number] => [rgb[0]! * s * tint[0], rgb[1]! * s * tint[1], rgb[2]! * s * tint[2]];
  return {
    lights: lights.map((l) => ({ ...l, position: [l.position[0], l.position[1], l.position[2]], color: scale(l.color, k) })),
    ambient: { sky: scale(DEFAULT_ROOM_AMBIENT.sky, a), ground: scale(DEFAULT_ROOM_AMBIENT.ground, a) },
  };
}

export interface TourPlanOptions {
  scene: Scene;
  /** Tour grids (tourGrids); built from `meshes` when absent. */
  grids?: TourGrids;
  meshes?: readonly WorldMesh[];
  seed: number;
  tourIndex: number;
  startRoom?: string;
  fps?: number;
  /** Walking speed and turn rate on the spot (tour-motion.ts; default TOUR_PARAMS'). */
  pace?: WalkerPace;
  maxFrames?: number;
  /** Square frame side, pixels (default 384). */
  imageSide?: number;
}

/** A pose of the plan: TourFrame without what the render adds. */
export type TourPose = Pick<TourFrame, "index" | "position" | "yaw" | "pitch" | "room">;

export interface TourPlan extends TourSettings {
  scene: string;
  id: string;
  fps: number;
  /** Planned route polyline (before the spline), metres. */
  route: Array<[number, number]>;
  /** Route nodes in visiting order. */
  nodes: RouteNode[];
  poses: TourPose[];
}

/** Largest number of rounds that straighten spline spans whose samples left the free space. */
const MAX_STRAIGHTEN_ROUNDS = 50;

/** Plan poses along the route: the spline curves walked at constant speed, spans straightened until every pose is free. */
function walkRoute(polyline: readonly Vec2[], clearance: OccupancyGrid, fps: number, pace: WalkerPace, maxFrames: number): PlanPose[] {
  const params = motionParams(fps, pace);
  const pieces = splitAtStops(polyline, params.stopCornerDeg).filter((p) => p.length >= 2);
  if (pieces.length === 0) return [{ x: roundTo(polyline[0]![0], P.positionDecimals), y: roundTo(polyline[0]![1], P.positionDecimals), yaw: 0 }];
  const controls = pieces.map((p) => densify(p, params.controlSpacingM));
  const straight = controls.map(() => new Set<number>());
  for (let attempt = 0; attempt <= MAX_STRAIGHTEN_ROUNDS; attempt++) {
    const curves = controls.map((c, k) => pieceCurve(c, clearance, straight[k]));
    const walk = walkCurves(curves.map((c) => c.points), params, maxFrames);
    const bad = walk.poses.map((p, k) => (isFreePoint(clearance, [p.x, p.y]) ? -1 : k)).filter((k) => k >= 0);
    if (bad.length === 0) return walk.poses;
    if (attempt === MAX_STRAIGHTEN_ROUNDS) break;
    for (const k of bad) {
      const { piece, s } = walk.stations[k]!;
      const fine = new ArcPath(curves[piece]!.points).segmentAt(s);
      const starts = curves[piece]!.spanStart;
      let span = 0;
      while (span + 1 < starts.length && starts[span + 1]! <= fine) span++;
      for (const d of [-1, 0, 1]) if (span + d >= 0 && span + d < starts.length) straight[piece]!.add(span + d);
    }
  }
  throw new Error("tour poses leave the free space even on the planned polyline");
}

/** The tour's settings, route and camera poses, without rendering (fast; the episode builder's view of a tour). */
export function planTourPoses(options: TourPlanOptions): TourPlan {
  const { scene } = options;
  const grids = options.grids ?? (options.meshes ? tourGrids(scene, options.meshes) : null);
  if (grids === null) throw new Error("planTourPoses needs grids or meshes");
  for (const [k, v] of [["seed", options.seed], ["tourIndex", options.tourIndex]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${k} must be a non-negative whole number, got ${v}`);
  }
  const side = options.imageSide ?? P.imageSide;
  if (!Number.isInteger(side) || side < 16 || side % 2 !== 0) throw new RangeError(`imageSide must be an even whole number of at least 16 pixels (the video needs even sides), got ${side}`);
  const fps = options.fps ?? P.fps;
  const maxFrames = options.maxFrames ?? Infinity;
  if (!(fps > 0)) throw new RangeError(`fps must be positive, got ${fps}`);
  if (!(maxFrames >= 1)) throw new RangeError(`maxFrames must be at least 1, got ${maxFrames}`);
  const reachable = new Set(routeNodes(scene, grids.route).map((n) => n.room));
  const rooms = scene.rooms.map((r) => r.id).filter((id) => reachable.has(id));
  const settings = tourSettings(rooms, options.seed, options.tourIndex, options.startRoom, side);
  const route = planRoute(scene, grids.route, settings.startRoom);
  const pitch = roundTo(settings.camera.pitchDeg * DEG, P.angleDecimals);
  const poses = walkRoute(route.polyline, grids.clearance, fps, options.pace ?? {}, maxFrames).map((p, index): TourPose => ({
    index,
    position: [p.x, p.y, settings.camera.heightM] as Vec3,
    yaw: p.yaw,
    pitch,
    room: roomAt(scene, [p.x, p.y]),
  }));
  return {
    ...settings,
    scene: scene.id,
    id: `${scene.id}/tour_${options.tourIndex}`,
    fps,
    route: route.polyline.map((p) => [roundTo(p[0], P.positionDecimals), roundTo(p[1], P.positionDecimals)] as [number, number]),
    nodes: route.nodes,
    poses,
  };
}

export interface BuildTourOptions extends TourPlanOptions {
  meshes: readonly WorldMesh[];
  /** The tour's folder: frames/NNNN.jpg and tour.mp4 are written there. */
  outDir: string;
  /** Shadow maps of scene.lights (prepareShadows), shared by the tours of a house; made here when absent. */
  shadows?: ShadowMaps;
  /** The scene prepared for annotation (indexTourScene), shared by the tours of a house. */
  index?: TourSceneIndex;
  log?: (line: string) => void;
}

/** The tour frame's file name, frames/NNNN.jpg. */

export function tourCamera(pose: Pick<TourPose, "position" | "yaw" | "pitch">, camera: TourCamera): PinholeCamera {
  return { position: pose.position, yaw: pose.yaw, pitch: pose.pitch, vfovDeg: camera.vfovDeg, width: camera.width, height: camera.height };
}

/** The lit render options of a tour: the scene's lights under its lighting, with the house's shadow maps (of scene.lights). */
export function tourRenderOptions(scene: Pick<Scene, "lights">, lighting: TourLighting, houseShadows: ShadowMaps): RenderOptions {
  const { lights, ambient } = tourLights(scene.lights, lighting);
  // A shadow map depends on the light's position only: the tour's tinted lights reuse the house's maps.
  const sceneLightOf = new Map(lights.map((l, k) => [l, scene.lights[k]!]));
  const shadows: ShadowMaps = { get: (light) => houseShadows.get(sceneLightOf.get(light)!) };
  return { lights, ambient, shadows };
}

/** A frame's RGB as the tour's JPEG file. */
export function tourFrameJpeg(rgb: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } }).jpeg({ quality: P.jpegQuality }).toBuffer();
}

/** Renders, writes and annotates every frame of the tour; returns the Tour record. */
export async function buildTour(options: BuildTourOptions): Promise<Tour> {
  const { scene, meshes, outDir } = options;
  const plan = planTourPoses(options);
  const index = options.index ?? indexTourScene(scene, meshes);
  const render = tourRenderOptions(scene, plan.lighting, options.shadows ?? prepareShadows(meshes, scene.lights));
  await mkdir(path.join(outDir, "frames"), { recursive: true });
  const frames: TourFrame[] = [];
  const { width, height } = plan.camera;
  const log = options.log ?? (() => {});
  async function* rendered(): AsyncGenerator<Uint8Array> {
    for (const pose of plan.poses) {
      const camera = tourCamera(pose, plan.camera);
      const buffers = renderView(meshes, camera, render);
      const seen = annotateFrame(index, camera, buffers);
      const jpeg = await tourFrameJpeg(buffers.rgb, width, height);
      await writeFile(path.join(outDir, tourFrameFile(pose.index)), jpeg);
      frames.push({ index: pose.index, position: pose.position, yaw: pose.yaw, pitch: pose.pitch, room: seen.room, objects: seen.objects, visibleRooms: seen.visibleRooms });
      if ((pose.index + 1) % 50 === 0) log(`${plan.id}: ${pose.index + 1}/${plan.poses.length} frames`);
      yield buffers.rgb;
    }
  }
  await encodeMp4(rendered(), path.join(outDir, "tour.mp4"), { width, height, fps: plan.fps });
  const visits = roomVisits(frames.map((f) => f.room));
  return {
    scene: plan.scene,
    id: plan.id,
    fps: plan.fps,
    camera: plan.camera,
    lighting: plan.lighting,
    frames,
    visits,
    roomOrder: firstEntryOrder(visits),
    route: plan.route,
  };
}
