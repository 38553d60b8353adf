/**
 * Reading navigation data: the released VCN-Bench episode file (gzip JSON, `{"episodes": [...]}`,
 * each `{episode_id, scene_id, start_position, start_rotation, instruction{task_type,
 * instruction_text, instance_id, ...}, object_category, goals[{position, view_points, bbox}],
 * dist_to_goal}`; view points as `{"agent_state": {"position": [x, y, z]}}` or bare positions),
 * and trajectory logs (JSONL, one episode a line, any simulator):
 *   {"episode_id": "...", "positions": [[x, y, z], ...], "stop": true,
 *    "rooms": ["region1", ...]         optional, one per position
 *    "final_distance": 0.8             optional: geodesic distance from the last position to the goal
 *    "actions": ["FORWARD", ...]       optional, one per step (positions.length - 1): FORWARD,
 *                                      TURN_LEFT, TURN_RIGHT, STOP
 *    "headings": [0, 30, ...]          optional, degrees counter-clockwise seen from above, one per position
 *    "collisions": [false, true, ...]  optional, one per step
 *    "path_length": 12.5               optional: metres walked, as the simulator measured them
 *    "kind": "actions" | "waypoints"   optional, default "actions"
 *    "goal_frames": [12, null, ...]}   optional: the prior-video frame named at each decision
 * positions[0] is the start; "stop" says whether the agent called STOP. An "actions" log has one
 * position per action; a "waypoints" log one per model decision plus the final position (the
 * released evaluation's result.json; the executor's path in between is not logged, so it must give
 * path_length).
 *
 * Every log is checked against the action space (§3.1): see trajectoryProblems. Both loaders throw
 * DataError listing every problem (file, line or field); a bad file is never scored in part.
 */
import { existsSync } from "node:fs";
import { FileRefusedError, readRegularFile, type OpenOptions } from "../../core/file-read.js";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { parseJson, readJsonObjects } from "../../core/jsonl.js";
import { boundedArray, coordinate, degrees as angleDegrees, frameIndex, MAX_DISTANCE_M, nonNegativeMetres, quaternionComponent, safeId } from "../../core/limits.js";
import { appendAll, DataError, problemList, type DataProblem } from "../../core/problems.js";
import { ROBOT_MOTION } from "../../sim/motion.js";
import { NAV_ACTIONS, wrapAngle, type NavAction } from "../../sim/types.js";
import { issueList } from "./schema.js";

export type Vec = number[];

export interface NavGoal {
  position: Vec;
  /** Points from which the goal counts as reached; the goal position itself when none are given. */
  view_points: Vec[];
}

export interface NavEpisode {
  episode_id: string;
  scene_id?: string;
  task_type?: string;
  object_category?: string;
  start_position: Vec;
  goals: NavGoal[];
  /** Shortest-path (geodesic) length from the start to the goal, as the release gives it. */
  dist_to_goal?: number;
  /** The target room: `target_room`, else the "regionN" part of instruction.instance_id[0]. */
  target_room?: string | null;
}

export const TRAJECTORY_KINDS = ["actions", "waypoints"] as const;
export type TrajectoryKind = (typeof TRAJECTORY_KINDS)[number];

export interface Trajectory {
  episode_id: string;
  positions: Vec[];
  stop: boolean;
  rooms?: Array<string | null>;
  /** Geodesic distance from the final position to the nearest view point (Infinity: unreachable). */
  final_distance?: number;
  /** One per step: actions[t] took the agent from positions[t] to positions[t + 1]. */
  actions?: NavAction[];
  /** Degrees, counter-clockwise seen from above (the Environment's heading), one per position. */
  headings?: number[];
  /** One per step: the step was cut short (or prevented) by an obstacle. */
  collisions?: boolean[];
  /** Metres walked as the simulator measured them (required for waypoint logs). */
  path_length?: number;
  /** "actions" (default): one position per action; "waypoints": one per decision, plus the final position. */
  kind?: TrajectoryKind;
  /** The prior-video frame named as the goal at each decision (null: none named). */
  goal_frames?: Array<number | null>;
}

/** A position (2D plan or 3D Habitat), each coordinate within 10 km of the origin (core/limits.ts). */
const vec = z.array(coordinate()).min(2).max(3);
/** One entry per position or step: at most MAX_ITEMS_PER_ARRAY (an episode has at most 1,000 actions). */
const perStep = <T extends z.ZodType>(item: T) => boundedArray(item);
const viewPoint = z.union([vec, z.looseObject({ agent_state: z.looseObject({ position: vec }) })]);

export const releasedEpisodeSchema = z.looseObject({
  episode_id: z.union([z.string().min(1), safeId()]),
  scene_id: z.string().optional(),
  start_position: vec,
  start_rotation: z.array(quaternionComponent()).max(4).optional(),
  instruction: z.looseObject({ task_type: z.string(), instruction_text: z.string().optional(), instance_id: boundedArray(z.string()).optional() }).optional(),
  object_category: z.string().optional(),
  goals: boundedArray(z.looseObject({ position: vec, view_points: boundedArray(viewPoint).optional(), bbox: z.unknown().optional() })).min(1),
  dist_to_goal: nonNegativeMetres(MAX_DISTANCE_M).optional(),
  target_room: z.string().nullable().optional(),
});

export const trajectorySchema = z.strictObject({
  episode_id: z.union([z.string().min(1), safeId()]),
  positions: perStep(vec).min(1),
  stop: z.boolean(),
  rooms: perStep(z.string().nullable()).optional(),
  final_distance: nonNegativeMetres(MAX_DISTANCE_M).optional(),
  actions: perStep(z.enum(NAV_ACTIONS)).optional(),
  headings: perStep(angleDegrees()).optional(),
  collisions: perStep(z.boolean()).optional(),
  path_length: nonNegativeMetres(MAX_DISTANCE_M).optional(),
  kind: z.enum(TRAJECTORY_KINDS).optional(),
  goal_frames: perStep(frameIndex().nullable()).optional(),
});

/**
 * What a log must keep (§3.1: FORWARD 0.25 m, turns of 30 degrees, at most 1,000 actions, STOP
 * included), with tolerances for the simulator's rounding: 1 mm on a step, 0.01 degree on a turn.
 */
export const LOG_RULES = Object.freeze({
  forwardM: ROBOT_MOTION.forwardM,
  turnDeg: ROBOT_MOTION.turnDeg,
  maxActions: ROBOT_MOTION.maxActions,
  toleranceM: 1e-3,
  toleranceDeg: 0.01,
});

function point(v: Vec, ignoreHeight: boolean): Vec {
  return ignoreHeight && v.length === 3 ? [v[0]!, v[2]!] : v;
}

/**
 * Straight-line distance; with ignoreHeight on the floor plane: (x, z) of a 3D Habitat position
 * (y is up), a 2D position as it is.
 */
export function euclidean(a: Vec, b: Vec, ignoreHeight = false): number {
  const p = point(a, ignoreHeight);
  const q = point(b, ignoreHeight);
  if (p.length !== q.length) throw new RangeError(`cannot compare a ${p.length}D and a ${q.length}D position`);
  return Math.hypot(...p.map((x, i) => x - q[i]!));
}

/** A step is measured on the floor: Habitat snaps the height to its navigation mesh on slopes and stairs. */
const floorDistance = (a: Vec, b: Vec) => euclidean(a, b, true);

/** An angle difference in degrees, in (-180, 180] (to within rounding). */
const wrapDegrees = (d: number) => (wrapAngle((d * Math.PI) / 180) * 180) / Math.PI;

const metres = (m: number) => `${Number(m.toFixed(4))} m`;
const degrees = (d: number) => `${Number(d.toFixed(4))} degrees`;

/** The heading change each action makes (TURN_LEFT counter-clockwise). */
function turnOf(action: NavAction): number {
  return action === "TURN_LEFT" ? LOG_RULES.turnDeg : action === "TURN_RIGHT" ? -LOG_RULES.turnDeg : 0;
}

/**
 * Every way a log breaks the action space, each a problem at `where` (file and line; without a
 * line the message names the episode):
 *   - lengths: rooms and headings one per position; actions and collisions one per step;
 *   - the action limit: more than 1,000 actions (the actions logged; an "actions" log without
 *     them has at least positions - 1);
 *   - STOP only as the last action, and `stop` true exactly when the last action is STOP;
 *   - steps ("actions" logs; waypoint logs skip this rule): FORWARD moves at most 0.25 m (+1 mm)
 *     on the floor, TURN_LEFT / TURN_RIGHT / STOP do not move the agent (1 mm); without actions,
 *     consecutive positions more than 0.25 m (+1 mm) apart are a "teleport";
 *   - turns (when headings are logged): with actions, each changes the heading by exactly its turn
 *     (+30 / -30 / 0 degrees, 0.01 degree tolerance); without them, every change is a multiple of
 *     30 degrees;
 *   - waypoint logs need path_length (their straight segments are not the path walked).
 */
export function trajectoryProblems(t: Trajectory, where: { file: string; line?: number }): DataProblem[] {
  const problems = problemList();
  const at = (field: string, message: string) =>
    problems.push({ file: where.file, ...(where.line !== undefined ? { line: where.line } : {}), field, message: where.line !== undefined ? message : `episode ${t.episode_id}: ${message}` });
  const n = t.positions.length;
  const kind = t.kind ?? "actions";
  const perPosition = { rooms: t.rooms, headings: t.headings } as const;
  const perStep = { actions: t.actions, collisions: t.collisions } as const;
  for (const [field, list] of Object.entries(perPosition)) if (list && list.length !== n) at(field, `${list.length} ${field} for ${n} positions (one per position)`);
  for (const [field, list] of Object.entries(perStep)) if (list && list.length !== n - 1) at(field, `${list.length} ${field} for ${n - 1} steps (one per step: positions - 1)`);
  if (new Set(t.positions.map((p) => p.length)).size > 1) at("positions", "positions mix 2D and 3D coordinates");
  if (problems.length > 0) return problems;
  const actions = t.actions;
  if (actions) {
    if (actions.length > LOG_RULES.maxActions) at("actions", `${actions.length} actions, more than the limit of ${LOG_RULES.maxActions} (§3.1, STOP included)`);
  } else if (kind === "actions" && n - 1 > LOG_RULES.maxActions) {
    at("positions", `${n} positions: at least ${n - 1} actions, more than the limit of ${LOG_RULES.maxActions} (§3.1, STOP included)`);
  }
  if (actions) {
    const early = actions.findIndex((a, i) => a === "STOP" && i < actions.length - 1);
    if (early >= 0) at(`actions[${early}]`, `STOP at step ${early + 1} of ${actions.length}: STOP ends the episode, so only the last action can be STOP`);
    const endsWithStop = actions.length > 0 && actions[actions.length - 1] === "STOP";
    if (t.stop !== endsWithStop) at("stop", t.stop ? "stop is true but the last action is not STOP" : "stop is false but the last action is STOP");
  }
  if (kind === "waypoints" && t.path_length === undefined) at("path_length", "a waypoint log needs path_length: its positions are decisions, not the path walked between them");
  for (let i = 1; i < n; i++) {
    const from = t.positions[i - 1]!;
    const to = t.positions[i]!;
    const action = actions?.[i - 1];
    if (kind === "actions") {
      const moved = floorDistance(from, to);
      if (action === undefined) {
        if (moved > LOG_RULES.forwardM + LOG_RULES.toleranceM) at(`positions[${i}]`, `positions ${i - 1} and ${i} are ${metres(moved)} apart, more than one ${LOG_RULES.forwardM} m step (a teleport)`);
      } else if (action === "FORWARD") {
        if (moved > LOG_RULES.forwardM + LOG_RULES.toleranceM) at(`positions[${i}]`, `FORWARD at step ${i} moved ${metres(moved)}, more than ${LOG_RULES.forwardM} m`);
      } else if (euclidean(from, to) > LOG_RULES.toleranceM) {
        at(`positions[${i}]`, `${action} at step ${i} moved the agent ${metres(euclidean(from, to))}; only FORWARD moves`);
      }
    }
    if (t.headings) {
      const turned = wrapDegrees(t.headings[i]! - t.headings[i - 1]!);
      if (action !== undefined) {
        const expected = turnOf(action);
        if (Math.abs(wrapDegrees(turned - expected)) > LOG_RULES.toleranceDeg) at(`headings[${i}]`, `${action} at step ${i} turned ${degrees(turned)}, expected ${expected}`);
      } else if (Math.abs(turned - LOG_RULES.turnDeg * Math.round(turned / LOG_RULES.turnDeg)) > LOG_RULES.toleranceDeg) {
        at(`headings[${i}]`, `the heading changed by ${degrees(turned)} between positions ${i - 1} and ${i}, not a multiple of ${LOG_RULES.turnDeg} degrees`);
      }
    }
  }
  return problems;
}

/** The room id in an instance id such as "1mp3d_0070_region1/washbasin_10" -> "region1". */
export function regionOf(instanceId: string | undefined): string | null {
  const match = instanceId ? /region\d+/.exec(instanceId) : null;
  return match ? match[0] : null;
}

/** Released episodes (already parsed JSON) -> episodes, or the problems found. */
export function parseEpisodes(json: unknown, file: string): { episodes: NavEpisode[]; problems: DataProblem[] } {
  const problems = problemList();
  const list = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>)["episodes"] : undefined;
  if (!Array.isArray(list)) return { episodes: [], problems: [{ file, field: "episodes", message: "expected an object with an \"episodes\" array" }] };
  const episodes: NavEpisode[] = [];
  const seen = new Set<string>();
  list.forEach((raw, i) => {
    const parsed = releasedEpisodeSchema.safeParse(raw);
    if (!parsed.success) {
      for (const { field, message } of issueList(parsed.error.issues)) problems.push({ file, field: `episodes[${i}]${field ? (field.startsWith("[") ? field : `.${field}`) : ""}`, message });
      return;
    }
    const e = parsed.data;
    const id = String(e.episode_id);
    if (seen.has(id)) {
      problems.push({ file, field: `episodes[${i}].episode_id`, message: `duplicate episode_id ${id}` });
      return;
    }
    seen.add(id);
    const dims = new Set([e.start_position.length, ...e.goals.flatMap((g) => [g.position.length, ...(g.view_points ?? []).map((v) => (Array.isArray(v) ? v : v.agent_state.position).length)])]);
    if (dims.size > 1) {
      problems.push({ file, field: `episodes[${i}]`, message: "positions mix 2D and 3D coordinates" });
      return;
    }
    const targetRoom = e.target_room !== undefined ? e.target_room : regionOf(e.instruction?.instance_id?.[0]);
    episodes.push({
      episode_id: id,
      ...(e.scene_id !== undefined ? { scene_id: e.scene_id } : {}),
      ...(e.instruction?.task_type !== undefined ? { task_type: e.instruction.task_type } : {}),
      ...(e.object_category !== undefined ? { object_category: e.object_category } : {}),
      start_position: e.start_position,
      goals: e.goals.map((g) => ({ position: g.position, view_points: (g.view_points ?? []).map((v) => (Array.isArray(v) ? v : v.agent_state.position)) })),
      ...(e.dist_to_goal !== undefined ? { dist_to_goal: e.dist_to_goal } : {}),
      target_room: targetRoom,
    });
  });
  return { episodes, problems };
}

/** The most an episode file may inflate to (256 MiB; the released R2R-style files are a few MB). */
export const MAX_EPISODE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * The episode file's JSON value: gzip JSON (a plain JSON file is read too), inflated within
 * MAX_EPISODE_FILE_BYTES. `options.followLinks`: a file the user names (a dataset's own is read
 * without following links). Throws DataError.
 */
export function readEpisodeFileJson(file: string, options: OpenOptions = {}): unknown {
  if (!existsSync(file)) throw new DataError([{ file, message: "episode file not found" }]);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, { ...options, maxBytes: MAX_EPISODE_FILE_BYTES });
  } catch (error) {
    if (error instanceof FileRefusedError) throw new DataError([{ file, message: `episode file ${error.reason}` }]);
    throw error;
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // A gzip bomb stops at the limit instead of filling memory.
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_EPISODE_FILE_BYTES });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ERR_BUFFER_TOO_LARGE") throw new DataError([{ file, message: `inflates past ${MAX_EPISODE_FILE_BYTES} bytes, the limit for an episode file; refused` }]);
      throw new DataError([{ file, message: `not a readable gzip file: ${(error as Error).message}` }]);
    }
  } else if (file.endsWith(".gz")) {
    throw new DataError([{ file, message: "the file name ends in .gz but the file is not gzip-compressed" }]);
  }
  const parsed = parseJson(bytes.toString("utf8"));
  if (!parsed.ok) throw new DataError([{ file, message: parsed.message }]);
  return parsed.value;
}

/** The released episode file: gzip JSON (a plain JSON file is read too). Throws DataError. */
export function loadEpisodes(file: string): NavEpisode[] {
  const { episodes, problems } = parseEpisodes(readEpisodeFileJson(file, { followLinks: true }), file);
  if (problems.length > 0) throw new DataError(problems);
  return episodes;
}

/** A trajectory log (JSONL). Throws DataError with every bad line (trajectoryProblems on each). */
export function loadTrajectories(file: string): Trajectory[] {
  if (!existsSync(file)) throw new DataError([{ file, message: "trajectory log not found" }]);
  const problems = problemList();
  const out: Trajectory[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of readJsonObjects(file, file, problems, { followLinks: true })) {
    const parsed = trajectorySchema.safeParse(value);
    if (!parsed.success) {
      for (const { field, message } of issueList(parsed.error.issues)) problems.push({ file, line, ...(field ? { field } : {}), message });
      continue;
    }
    const t: Trajectory = { ...parsed.data, episode_id: String(parsed.data.episode_id) };
    const found = trajectoryProblems(t, { file, line });
    if (found.length > 0) {
      appendAll(problems, found);
      continue;
    }
    if (seen.has(t.episode_id)) {
      problems.push({ file, line, field: "episode_id", message: `second trajectory for episode ${t.episode_id} (first on line ${seen.get(t.episode_id)})` });
      continue;
    }
    seen.set(t.episode_id, line);
    out.push(t);
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (problems.length > 0) throw new DataError(problems);
  return out;
}

