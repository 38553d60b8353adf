/**
 * Reading navigation data: the released VCN-Bench episode file (gzip JSON, `{"episodes": [...]}`,
 * each `{episode_id, scene_id, start_position, start_rotation, instruction{task_type,
 * instruction_text, instance_id, ...}, object_category, goals[{position, view_points, bbox}],
 * dist_to_goal}`; view points as `{"agent_state": {"position": [x, y, z]}}` or bare positions),
 * and trajectory logs (JSONL, one episode a line, any simulator):
 *   {"episode_id": "...", "positions": [[x, y, z], ...], "stop": true,
 *    "rooms": ["region1", ...] (optional, one per position), "final_distance": 0.8 (optional geodesic)}
 * positions[0] is the start; "stop" says whether the agent called STOP.
 * Both loaders throw DataError listing every problem (file, line or field).
 */
import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { parseJson, readJsonObjects } from "../../core/jsonl.js";
import { DataError, type DataProblem } from "../../core/problems.js";
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

export interface Trajectory {
  episode_id: string;
  positions: Vec[];
  stop: boolean;
  rooms?: Array<string | null>;
  /** Geodesic distance from the final position to the nearest view point (for the geodesic option). */
  final_distance?: number;
}

const vec = z.array(z.number()).min(2).max(3);
const viewPoint = z.union([vec, z.looseObject({ agent_state: z.looseObject({ position: vec }) })]);

export const releasedEpisodeSchema = z.looseObject({
  episode_id: z.union([z.string().min(1), z.number()]),
  scene_id: z.string().optional(),
  start_position: vec,
  start_rotation: z.array(z.number()).optional(),
  instruction: z.looseObject({ task_type: z.string(), instruction_text: z.string().optional(), instance_id: z.array(z.string()).optional() }).optional(),
  object_category: z.string().optional(),
  goals: z.array(z.looseObject({ position: vec, view_points: z.array(viewPoint).optional(), bbox: z.unknown().optional() })).min(1),
  dist_to_goal: z.number().nonnegative().optional(),
  target_room: z.string().nullable().optional(),
});

export const trajectorySchema = z.strictObject({
  episode_id: z.union([z.string().min(1), z.number()]),
  positions: z.array(vec).min(1),
  stop: z.boolean(),
  rooms: z.array(z.string().nullable()).optional(),
  final_distance: z.number().nonnegative().optional(),
});

/** The room id in an instance id such as "1mp3d_0070_region1/washbasin_10" -> "region1". */
export function regionOf(instanceId: string | undefined): string | null {
  const match = instanceId ? /region\d+/.exec(instanceId) : null;
  return match ? match[0] : null;
}

/** Released episodes (already parsed JSON) -> episodes, or the problems found. */
export function parseEpisodes(json: unknown, file: string): { episodes: NavEpisode[]; problems: DataProblem[] } {
  const problems: DataProblem[] = [];
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

/** The released episode file: gzip JSON (a plain JSON file is read too). Throws DataError. */
export function loadEpisodes(file: string): NavEpisode[] {
  if (!existsSync(file)) throw new DataError([{ file, message: "episode file not found" }]);
  let bytes = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new DataError([{ file, message: `not a readable gzip file: ${(error as Error).message}` }]);
    }
  } else if (file.endsWith(".gz")) {
    throw new DataError([{ file, message: "the file name ends in .gz but the file is not gzip-compressed" }]);
  }
  const parsed = parseJson(bytes.toString("utf8"));
  if (!parsed.ok) throw new DataError([{ file, message: parsed.message }]);
  const { episodes, problems } = parseEpisodes(parsed.value, file);
  if (problems.length > 0) throw new DataError(problems);
  return episodes;
}

/** A trajectory log (JSONL). Throws DataError with every bad line. */
export function loadTrajectories(file: string): Trajectory[] {
  if (!existsSync(file)) throw new DataError([{ file, message: "trajectory log not found" }]);
  const problems: DataProblem[] = [];
  const out: Trajectory[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of readJsonObjects(file, file, problems)) {
    const parsed = trajectorySchema.safeParse(value);
    if (!parsed.success) {
      for (const { field, message } of issueList(parsed.error.issues)) problems.push({ file, line, ...(field ? { field } : {}), message });
      continue;
    }
    const t = parsed.data;
    const id = String(t.episode_id);
    if (t.rooms && t.rooms.length !== t.positions.length) {
      problems.push({ file, line, field: "rooms", message: `${t.rooms.length} rooms for ${t.positions.length} positions` });
      continue;
    }
    if (new Set(t.positions.map((p) => p.length)).size > 1) {
      problems.push({ file, line, field: "positions", message: "positions mix 2D and 3D coordinates" });
      continue;
    }
    if (seen.has(id)) {
      problems.push({ file, line, field: "episode_id", message: `second trajectory for episode ${id} (first on line ${seen.get(id)})` });
      continue;
    }
    seen.set(id, line);
    out.push({ ...t, episode_id: id });
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (problems.length > 0) throw new DataError(problems);
  return out;
}
