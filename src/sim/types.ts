/**
 * An embodied environment, knowing no benchmark: reset it on an episode (a scene and a start
 * pose), then step it with discrete actions until the episode ends. The built-in simulator
 * (world-sim.ts) and the bridge client (bridge/client.ts) both implement it, so agents and the
 * navigation loop run unchanged on either.
 *
 * Coordinates are the episode's own (Habitat's for VCN-Bench releases): positions [x, y, z] with
 * y up, the floor at the episode's height; rotations are quaternions [x, y, z, w] about +y, the
 * identity facing -z. `heading` is the same rotation as an angle (radians, counter-clockwise seen
 * from above, 0 facing -z): heading = 2 * atan2(q_y, q_w).
 */

/** The paper's action space (VCN-Bench §3.1): FORWARD 0.25 m, turns of 30 degrees, STOP. */
export const NAV_ACTIONS = ["FORWARD", "TURN_LEFT", "TURN_RIGHT", "STOP"] as const;
export type NavAction = (typeof NAV_ACTIONS)[number];

export type Vec3 = [number, number, number];
export type Quaternion = [number, number, number, number];

export interface Pose {
  position: Vec3;
  rotation: Quaternion;
  /** Radians, counter-clockwise from above, 0 facing -z (see the file comment). */
  heading: number;
}

/** The four views of an observation, in this order; each turned by its offset from the heading. */
export const VIEW_NAMES = ["front", "left", "back", "right"] as const;
export type ViewName = (typeof VIEW_NAMES)[number];
/** Offset of each view from the heading, radians (left = counter-clockwise). */
export const VIEW_OFFSETS: Readonly<Record<ViewName, number>> = { front: 0, left: Math.PI / 2, back: Math.PI, right: -Math.PI / 2 };

export interface ViewImage {
  name: ViewName;
  /** Encoded RGB picture. */
  mediaType: "image/jpeg" | "image/png";
  data: Buffer;
  width: number;
  height: number;
  /** Depth along the optical axis as a 16-bit grey PNG in millimetres (0 = nothing), when the environment gives depth. */
  depthPng?: Buffer;
}

export interface Observation {
  /** Actions taken since reset (0 at reset). */
  step: number;
  pose: Pose;
  /** The last action was cut short (or prevented) by an obstacle; false at reset. */
  collided: boolean;
  /** The views, in VIEW_NAMES order; empty when the caller asked for no rendering. */
  views: ViewImage[];
}

/** Why an episode ended: the agent called STOP, or the action limit was reached. */
export type EpisodeEnd = "stop" | "action-limit";

export interface StepResult {
  observation: Observation;
  done: boolean;
  end?: EpisodeEnd;
}

/** What an environment is reset on: a scene and a start pose in the scene's coordinates. */
export interface EnvEpisode {
  episode_id: string;
  scene_id: string;
  start_position: Vec3;
  start_rotation: Quaternion;
}

/** Fixed facts of an environment, for prompts, executors and logs. */
export interface EnvInfo {
  /** e.g. "spatialprobe-world" or "habitat-sim 0.3.1". */
  simulator: string;
  forward_step_m: number;
  turn_step_deg: number;
  /** Actions (STOP included) after which the episode ends (VCN-Bench: 1,000). */
  max_actions: number;
  /** The robot body (VCN-Bench App. C.2: Hello Robot Stretch, 1.41 m tall, base radius 0.17 m). */
  robot: { height_m: number; radius_m: number };
  /** The pinhole camera of every view. */
  camera: { height_m: number; hfov_deg: number; width: number; height: number; pitch_deg: number };
  views: ViewName[];
  depth: boolean;
}

/** Options of one reset or step. */
export interface ObserveOptions {
  /** Render the views (default true); false returns an observation with no views (blind agents, fast). */
  render?: boolean;
}

/** A geodesic path from a position to the nearest of several targets. */
export interface GeodesicPath {
  /** From the position to the reached target, corners included. */
  points: Vec3[];
  /** Length along the path, metres. */
  distance: number;
  /** Index into the targets of the one reached. */
  target: number;
}

export interface Environment {
  readonly info: EnvInfo;
  reset(episode: EnvEpisode, options?: ObserveOptions): Promise<Observation>;
  /** Throws EnvironmentError when called before reset or after the episode ended. */
  step(action: NavAction, options?: ObserveOptions): Promise<StepResult>;
  /**
   * Shortest navigable path from `from` to the nearest of `targets` in the current scene
   * (null: none reachable). Oracle agents and the waypoint executor use it.
   */
  shortestPath(from: Vec3, targets: readonly Vec3[]): Promise<GeodesicPath | null>;
  /**
   * The current observation again, without acting (the same step, pose and collision flag as the
   * last reset or step returned), rendered now when asked: agents that look only when they decide
   * (an executor walking to a waypoint) skip rendering the steps in between. Throws
   * EnvironmentError before reset.
   */
  observe(options?: ObserveOptions): Promise<Observation>;
  close(): Promise<void>;
}

/** A misuse of an environment (step before reset, after the end, unknown scene or action). */
export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvironmentError";
  }
}

/** heading = 2 atan2(q_y, q_w), in (-pi, pi]. */
export function headingOf(rotation: Quaternion): number {
  const h = 2 * Math.atan2(rotation[1], rotation[3]);
  return wrapAngle(h);
}

/** The rotation about +y by `heading`. */
export function rotationOf(heading: number): Quaternion {
  return [0, Math.sin(heading / 2), 0, Math.cos(heading / 2)];
}

/** Angle in (-pi, pi]. */
export function wrapAngle(a: number): number {
  let d = a % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}

/** The floor-plane direction (x, z) the heading faces: (-sin h, -cos h). */
export function forwardOf(heading: number): [number, number] {
  return [-Math.sin(heading), -Math.cos(heading)];
}

/**
 * Where `now` is seen from `start`: metres forward along the start's heading and to its left, and
 * the turn since (radians, counter-clockwise = left, in (-pi, pi]). Floor plane only.
 */
export function poseFromStart(start: Pose, now: Pose): { forwardM: number; leftM: number; turn: number } {
  const dx = now.position[0] - start.position[0], dz = now.position[2] - start.position[2];
  const [fx, fz] = forwardOf(start.heading);
  const [lx, lz] = forwardOf(start.heading + Math.PI / 2);
  return { forwardM: dx * fx + dz * fz, leftM: dx * lx + dz * lz, turn: wrapAngle(now.heading - start.heading) };
}
