/**
 * The built-in simulator (issue 13, item 2): VCN-Bench episodes of a generated set run on the
 * world engine. The house comes from houses/<scene_id>/scene.json under the data root
 * (house-cache.ts); motion is motion.ts on the robot's plan grid; the views come from the world
 * renderer.
 *
 * Coordinates: the episode's Habitat ones (construct/habitat.ts: plan (x, y) -> [x, floor, -y],
 * heading = plan yaw - pi/2). Positions are reported at the start's floor height; rotations are
 * rotationOf(heading) (the same rotation as the episode's start_rotation, possibly the negated
 * quaternion).
 *
 * Views (§4, App. C.2-C.3): the four VIEW_NAMES at heading + VIEW_OFFSETS, one pinhole camera
 * each at the robot's camera height (Hello Robot Stretch: 1.41 m), 384 x 384 by default,
 * horizontal field of view `hfovDeg`, lit by the scene's ceiling lights with their shadow maps,
 * JPEG-encoded; depth along the optical axis as a 16-bit PNG in millimetres when asked for.
 *
 * Determinism: a view is a pure function of the position and of its direction, which is always
 * the start yaw plus a whole number of 30-degree turns (0-11); it is rendered at exactly that
 * yaw. The views of the current position are kept by direction, so turning back, turning by 90
 * degrees and bumping into a wall reuse pictures already made, byte for byte the same.
 */
import sharp from "sharp";
import { COORDINATE_LIMIT_M } from "../core/limits.js";
import type { PinholeCamera } from "../world/camera.js";
import { MAX_DEPTH_PNG_METRES } from "../world/render/encode.js";
import { depthToPng16, renderView, type RenderOptions } from "../world/render/index.js";
import { shortestPathTree, type OccupancyGrid } from "../world/space/index.js";
import type { Vec2 } from "../world/types.js";
import { MAX_IMAGE_SIDE } from "./bridge/protocol.js";
import { HouseCache, type LoadedHouse } from "./house-cache.js";
import { applyAction, checkRules, ROBOT_MOTION, snapToFree, startState, type MotionRules, type MotionState } from "./motion.js";
import { ROBOT } from "./robot.js";
import { nearestViewPoint, shortestRoute } from "./routes.js";
import {
  EnvironmentError,
  headingOf,
  NAV_ACTIONS,
  rotationOf,
  VIEW_NAMES,
  VIEW_OFFSETS,
  wrapAngle,
  type EnvEpisode,
  type EnvInfo,
  type Environment,
  type GeodesicPath,
  type NavAction,
  type Observation,
  type ObserveOptions,
  type Pose,
  type Quaternion,
  type StepResult,
  type Vec3,
  type ViewImage,
  type ViewName,
} from "./types.js";

export interface WorldSimOptions {
  /** The generated set's folder (houses/<scene_id>/scene.json). */
  dataRoot: string;
  /** Sweet Home 3D furniture libraries (default /usr/share/sweethome3d/furniture). */
  assetsDir?: string;
  /** Pixels of every view (default 384 x 384, App. C.3). */
  width?: number;
  height?: number;
  /** Horizontal field of view, degrees (default 90). */
  hfovDeg?: number;
  /** Camera height above the floor, metres (default 1.41, Stretch's height, App. C.2). */
  cameraHeightM?: number;
  /** Camera tilt, degrees, positive up (default 0). */
  pitchDeg?: number;
  /** Also give depth (16-bit PNG, millimetres). Default false. */
  depth?: boolean;
  /** Actions (STOP included) after which an episode ends (default 1,000, §3.1). */
  maxActions?: number;
  /** JPEG quality of the views (default 90). */
  jpegQuality?: number;
  /** Five samples per pixel (default false: the centre sample only). */
  antialias?: boolean;
  /** A house cache shared with other simulators (this simulator does not close it). */
  houses?: HouseCache;
  /** Houses kept loaded when the simulator makes its own cache (default 3). */
  houseCacheSize?: number;
  /** Where notes go (a start moved onto free floor). Default: nowhere. */
  log?: (line: string) => void;
}

/** Work done since the simulator was made: milliseconds per part, and counts. */
export interface SimTimings {
  motionMs: number;
  renderMs: number;
  encodeMs: number;
  /** Views rendered, and views served again from the current position's pictures. */
  rendered: number;
  reused: number;
}

/** Habitat [x, y, z] -> plan (x, y) = (x, -z) (inverse of construct/habitat.ts habitatFloor, without its rounding). */
export function planOfHabitat(p: readonly number[]): Vec2 {
  return [p[0]! + 0, -p[2]! + 0];
}

/** Plan (x, y) at floor height `floorY` -> Habitat [x, floorY, -y]. */
export function habitatOfPlan(p: Vec2, floorY: number): Vec3 {
  return [p[0] + 0, floorY, -p[1] + 0];
}

/** A Habitat heading (0 facing -z) as a plan yaw (0 facing +x): yaw = heading + pi/2 (inverse of construct/habitat.ts headingQuaternion). */
export function planYawOfHeading(heading: number): number {
  return heading + Math.PI / 2;
}

/** Vertical field of view (degrees) of a pinhole camera with horizontal field `hfovDeg` over width x height pixels. */
export function verticalFovDeg(hfovDeg: number, width: number, height: number): number {
  return (2 * Math.atan(Math.tan((hfovDeg * Math.PI) / 360) * (height / width)) * 180) / Math.PI;
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const coordinate = (v: unknown): boolean => finite(v) && Math.abs(v) <= COORDINATE_LIMIT_M;

function checkVec(v: unknown, n: number, what: string): void {
  if (!Array.isArray(v) || v.length !== n || !v.every(finite)) throw new EnvironmentError(`${what} must be ${n} finite numbers`);
}

/** A position: 3 numbers, each within COORDINATE_LIMIT_M metres of the origin (no house is 10 km across). */
function checkPosition(v: unknown, what: string): void {
  checkVec(v, 3, what);
  if (!(v as number[]).every(coordinate)) throw new EnvironmentError(`${what} [${(v as number[]).join(", ")}] must be within ${COORDINATE_LIMIT_M} m of the origin`);
}

/** The heading of a start rotation, which must turn about +y only (as Habitat's starts do). */
export function startHeading(rotation: Quaternion): number {
  checkVec(rotation, 4, "start_rotation");
  const [x, y, z, w] = rotation;
  const norm = Math.hypot(x, y, z, w);
  if (!(norm > 1e-6)) throw new EnvironmentError("start_rotation is a zero quaternion");
  if (Math.hypot(x, z) > 1e-3 * norm) throw new EnvironmentError(`start_rotation [${rotation.join(", ")}] is not a rotation about +y`);
  return headingOf(rotation);
}

function checkEpisode(e: EnvEpisode): void {
  if (typeof e !== "object" || e === null) throw new EnvironmentError("episode must be an object");
  if (typeof e.episode_id !== "string" || e.episode_id === "") throw new EnvironmentError("episode_id must be a non-empty string");
  if (typeof e.scene_id !== "string" || e.scene_id === "") throw new EnvironmentError(`episode ${e.episode_id}: scene_id must be a non-empty string`);
  checkPosition(e.start_position, `episode ${e.episode_id}: start_position`);
}

function wholeOption(name: string, v: number, lo: number, hi: number): number {
  if (!Number.isSafeInteger(v) || v < lo || v > hi) throw new RangeError(`${name} must be a whole number in [${lo}, ${hi}], got ${v}`);
  return v;
}

/** A number strictly between lo and hi. */
function openOption(name: string, v: number, lo: number, hi: number): number {
  if (!finite(v) || !(v > lo && v < hi)) throw new RangeError(`${name} must be a number in (${lo}, ${hi}), got ${v}`);
  return v;
}

/**
 * The geodesic path on the robot grid from `from` (moved onto free floor within 0.5 m when it is
 * not free) to the target nearest by grid distance: that grid path pulled straight
 * (routes.ts shortestRoute); corners in Habitat coordinates at `from`'s height, distance
 * = their polyline's length.
 */
/** How far a shortestPath target off the free floor is moved onto it (farther: the target is unreachable). */
export const TARGET_SNAP_M = 1.0;

export function geodesicPath(grid: OccupancyGrid, from: Vec3, targets: readonly Vec3[]): GeodesicPath | null {
  const start = snapToFree(grid, planOfHabitat(from));
  if (!start || targets.length === 0) return null;
  const tree = shortestPathTree(grid, start.position);
  // A target off the free floor (a waypoint on furniture, say) counts as the nearest free point within TARGET_SNAP_M, as Habitat snaps points to its navmesh.
  const snapped = targets.map((t) => snapToFree(grid, planOfHabitat(t), TARGET_SNAP_M)?.position ?? null);
  const goals = snapped.filter((p): p is Vec2 => p !== null);
  const nearest = nearestViewPoint(tree, goals);
  const route = nearest && shortestRoute(grid, tree, start.position, 0, nearest.point);
  if (!nearest || !route) return null;
  return { points: route.corners.map((p) => habitatOfPlan(p, from[1])), distance: route.length, target: snapped.indexOf(nearest.point) };
}

/** Whole turns of each view's offset from the heading (the offsets are multiples of the turn). */
function viewTurns(turnDeg: number): Record<ViewName, number> {
  const turn = (turnDeg * Math.PI) / 180;
  return Object.fromEntries(VIEW_NAMES.map((name) => [name, Math.round(VIEW_OFFSETS[name] / turn)])) as Record<ViewName, number>;
}

interface Running {
  episode: EnvEpisode;
  house: LoadedHouse;
  /** Habitat heading at the start; the heading is this plus the turns. */
  heading0: number;
  floorY: number;
  state: MotionState;
  /** The last action was cut short by an obstacle. */
  collided: boolean;
  /** Pictures of the current position by view direction (turns from the start yaw, 0..11). */
  pictures: Map<number, ViewImage>;
  picturesAt: Vec2;
}

export class WorldSimulator implements Environment {
  readonly info: EnvInfo;
  /** Work done so far (bench/sim-steps.ts reads it). */
  readonly timings: SimTimings = { motionMs: 0, renderMs: 0, encodeMs: 0, rendered: 0, reused: 0 };
  private readonly houses: HouseCache;
  private readonly ownsHouses: boolean;
  private readonly rules: MotionRules;
  private readonly directions: number;
  private readonly offsets: Record<ViewName, number>;
  private readonly lens: Pick<PinholeCamera, "pitch" | "vfovDeg" | "width" | "height">;
  private readonly cameraHeightM: number;
  private readonly depth: boolean;
  private readonly jpegQuality: number;
  private readonly antialias: boolean;
  private readonly log: (line: string) => void;
  private running: Running | null = null;
  private closed = false;

  constructor(options: WorldSimOptions) {
    // No larger than a bridge client accepts (bridge/protocol.ts), so `sim serve` serves what it can render.
    const width = wholeOption("width", options.width ?? ROBOT.imageSide, 16, MAX_IMAGE_SIDE);
    const height = wholeOption("height", options.height ?? ROBOT.imageSide, 16, MAX_IMAGE_SIDE);
    const hfovDeg = openOption("hfovDeg", options.hfovDeg ?? 90, 0, 180);
    const pitchDeg = openOption("pitchDeg", options.pitchDeg ?? 0, -90, 90);
    this.cameraHeightM = openOption("cameraHeightM", options.cameraHeightM ?? ROBOT.heightM, 0, 10);
    this.jpegQuality = wholeOption("jpegQuality", options.jpegQuality ?? 90, 1, 100);
    this.rules = { ...ROBOT_MOTION, maxActions: options.maxActions ?? ROBOT_MOTION.maxActions };
    checkRules(this.rules);
    this.directions = 360 / this.rules.turnDeg;
    this.offsets = viewTurns(this.rules.turnDeg);
    this.depth = options.depth ?? false;
    this.antialias = options.antialias ?? false;
    this.log = options.log ?? (() => {});
    this.lens = { pitch: (pitchDeg * Math.PI) / 180, vfovDeg: verticalFovDeg(hfovDeg, width, height), width, height };
    this.info = {
      simulator: "spatialprobe-world",
      forward_step_m: this.rules.forwardM,
      turn_step_deg: this.rules.turnDeg,
      max_actions: this.rules.maxActions,
      robot: { height_m: ROBOT.heightM, radius_m: ROBOT.radiusM },
      camera: { height_m: this.cameraHeightM, hfov_deg: hfovDeg, width, height, pitch_deg: pitchDeg },
      views: [...VIEW_NAMES],
      depth: this.depth,
    };
    this.ownsHouses = options.houses === undefined;
    this.houses =
      options.houses ??
      new HouseCache({ dataRoot: options.dataRoot, ...(options.assetsDir !== undefined ? { assetsDir: options.assetsDir } : {}), ...(options.houseCacheSize !== undefined ? { capacity: options.houseCacheSize } : {}) });
  }

  async reset(episode: EnvEpisode, options: ObserveOptions = {}): Promise<Observation> {
    this.checkOpen();
    this.running = null;
    checkEpisode(episode);
    const heading0 = startHeading(episode.start_rotation);
    const house = await this.houses.get(episode.scene_id);
    const snapped = snapToFree(house.grid, planOfHabitat(episode.start_position));
    if (!snapped) throw new EnvironmentError(`episode ${episode.episode_id}: the start [${episode.start_position.join(", ")}] is farther than 0.5 m from free floor of ${episode.scene_id} at the robot's radius`);
    if (snapped.movedM > 0) this.log(`episode ${episode.episode_id}: the start is not free at the robot's radius; moved ${snapped.movedM.toFixed(3)} m to the nearest free cell`);
    const state = startState(snapped.position, planYawOfHeading(heading0));
    this.running = { episode, house, heading0, floorY: episode.start_position[1], state, collided: false, pictures: new Map(), picturesAt: state.position };
    return this.observation(this.running, options);
  }

  async step(action: NavAction, options: ObserveOptions = {}): Promise<StepResult> {
    this.checkOpen();
    const run = this.running;
    if (!run) throw new EnvironmentError("step called before reset");
    if (run.state.end !== null) throw new EnvironmentError(`episode ${run.episode.episode_id} already ended (${run.state.end}); reset first`);
    if (!(NAV_ACTIONS as readonly unknown[]).includes(action)) throw new EnvironmentError(`unknown action ${JSON.stringify(action)} (${NAV_ACTIONS.join(", ")})`);
    const t0 = performance.now();
    const result = applyAction(run.house.grid, run.state, action, this.rules);
    this.timings.motionMs += performance.now() - t0;
    run.state = result.state;
    run.collided = result.collided;
    const observation = await this.observation(run, options);
    const end = run.state.end;
    return end === null ? { observation, done: false } : { observation, done: true, end };
  }

  async shortestPath(from: Vec3, targets: readonly Vec3[]): Promise<GeodesicPath | null> {
    this.checkOpen();
    const run = this.running;
    if (!run) throw new EnvironmentError("shortestPath called before reset");
    checkPosition(from, "from");
    if (!Array.isArray(targets)) throw new EnvironmentError("targets must be an array of positions");
    targets.forEach((t, k) => checkPosition(t, `targets[${k}]`));
    return geodesicPath(run.house.grid, from, targets);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.running = null;
    if (this.ownsHouses) this.houses.close();
  }

  private checkOpen(): void {
    if (this.closed) throw new EnvironmentError("the simulator is closed");
  }

  private pose(run: Running): Pose {
    const heading = wrapAngle(run.heading0 + (run.state.turns * this.rules.turnDeg * Math.PI) / 180);
    return { position: habitatOfPlan(run.state.position, run.floorY), rotation: rotationOf(heading), heading };
  }

  async observe(options: ObserveOptions = {}): Promise<Observation> {
    this.checkOpen();
    const run = this.running;
    if (!run) throw new EnvironmentError("observe called before reset");
    return this.observation(run, options);
  }

  private async observation(run: Running, options: ObserveOptions): Promise<Observation> {
    const views = options.render === false ? [] : await this.views(run);
    return { step: run.state.actions, pose: this.pose(run), collided: run.collided, views };
  }

  /** The four views: pictures of this position reused by direction, the others rendered, then encoded together. */
  private async views(run: Running): Promise<ViewImage[]> {
    const { position, turns, startYaw } = run.state;
    if (position[0] !== run.picturesAt[0] || position[1] !== run.picturesAt[1]) {
      run.pictures = new Map();
      run.picturesAt = position;
    }
    const directionOf = (name: ViewName) => (((turns + this.offsets[name]) % this.directions) + this.directions) % this.directions;
    const missing = VIEW_NAMES.filter((name) => !run.pictures.has(directionOf(name)));
    this.timings.reused += VIEW_NAMES.length - missing.length;
    const { scene, meshes, shadows } = run.house;
    const render: RenderOptions = { lights: scene.lights, shadows, antialias: this.antialias };
    const t0 = performance.now();
    const buffers = missing.map((name) => {
      const yaw = startYaw + (directionOf(name) * this.rules.turnDeg * Math.PI) / 180;
      return renderView(meshes, { ...this.lens, position: [position[0], position[1], this.cameraHeightM], yaw }, render);
    });
    const t1 = performance.now();
    const pictures = await Promise.all(
      buffers.map(async (b): Promise<Omit<ViewImage, "name">> => {
        const data = await sharp(b.rgb, { raw: { width: b.width, height: b.height, channels: 3 } }).jpeg({ quality: this.jpegQuality }).toBuffer();
        return { mediaType: "image/jpeg", data, width: b.width, height: b.height, ...(this.depth ? { depthPng: await depthToPng16(b, MAX_DEPTH_PNG_METRES) } : {}) };
      }),
    );
    this.timings.renderMs += t1 - t0;
    this.timings.encodeMs += performance.now() - t1;
    this.timings.rendered += missing.length;
    missing.forEach((name, k) => run.pictures.set(directionOf(name), { name, ...pictures[k]! }));
    return VIEW_NAMES.map((name) => ({ ...run.pictures.get(directionOf(name))!, name }));
  }
}

/** A built-in simulator (see the file comment); throws AssetsNotFoundError when the furniture libraries are missing. */
export function createWorldSimulator(options: WorldSimOptions): WorldSimulator {
  return new WorldSimulator(options);
}
