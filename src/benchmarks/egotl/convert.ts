/**
 * Episode annotations -> EgoTL-Bench items (docs/egotl-items.md). The paper released no files, so
 * the input is our JSONL shape of what its §3-4 and Table 2 say an episode holds: the abstract
 * task, the episode-level chain of thought, the episode video, and clips with an utterance-aligned
 * time span, a transcript, a category (navigation / manipulation), a navigation sub-type, and a
 * walking distance (Eq. 3, or the camera positions it sums). One episode per line.
 *
 * What comes out, per clip (only what the annotations determine; distractors are never invented):
 * - direction: every navigation clip with a sub-type (walk-straight -> Move forward, turn-left ->
 *   Turn left, turn-right -> Turn right, standing-up -> Going up, sitting-down -> Going down).
 * - distance: every walk-straight clip with `distance_m`, or with `positions` (Eq. 3: the sum of
 *   the steps' Euclidean lengths).
 * - action_recognition: a manipulation clip with `action` and three `distractors`; the answer is
 *   the action text (mapped to its letter by the loader, App. H.2.4), put at a position drawn from
 *   the item id (createRng(seedFromString(id)).below(4)), so no position is favoured.
 * - next_action: a clip with three `next_distractors` whose next clip has an `action`: the clip,
 *   the episode's chain of thought, and that action as the answer.
 * - planning: an episode with `memory_bank` (the walkthrough video), `abstract_task`,
 *   `chain_of_thought` and three `plan_distractors`: the chain of thought is the answer.
 * Spans: a clip [start, end) in seconds takes the frames whose time n / fps lies in it:
 * first = ceil(start * fps), last = ceil(end * fps) - 1 (1e-9 tolerance for float seconds).
 *
 * Run: node --import tsx src/benchmarks/egotl/convert.ts <episodes.jsonl> [--out test.jsonl]
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { boundedArray, fps, MAX_DISTANCE_M, MAX_FRAME_INDEX, nonNegativeMetres, point as point3 } from "../../core/limits.js";
import { readJsonObjects } from "../../core/jsonl.js";
import { appendAll, problemList, type DataProblem } from "../../core/problems.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import { fieldPath } from "./load.js";
import type { DirectionLabel } from "./schema.js";

/** The paper's navigation sub-types (§4) and the direction labels its prompt uses (H.2.5). */
export const SUBTYPE_LABELS: Readonly<Record<string, DirectionLabel>> = Object.freeze({
  "walk-straight": "Move forward",
  "turn-left": "Turn left",
  "turn-right": "Turn right",
  "standing-up": "Going up",
  "sitting-down": "Going down",
});

// Every number bounded (core/limits.ts): positions within 10 km, times within two days, rates up
// to MAX_FPS; a clip's frame numbers must stay within MAX_FRAME_INDEX (checked per clip).
const point = point3(3);
const seconds = z.number().min(0).max(2 * 86_400);

const ClipSchema = z.strictObject({
  start: seconds.describe("seconds from the start of the episode video"),
  end: seconds.positive().describe("seconds (the clip ends before this time)"),
  transcript: z.string().optional(),
  category: z.enum(["navigation", "manipulation"]),
  subtype: z.enum(Object.keys(SUBTYPE_LABELS) as [string, ...string[]]).optional(),
  distance_m: nonNegativeMetres(MAX_DISTANCE_M).optional(),
  positions: boundedArray(point).min(2).optional().describe("camera centres in metres, in time order (Eq. 3)"),
  action: z.string().min(1).optional(),
  distractors: z.array(z.string().min(1)).length(3).optional(),
  next_distractors: z.array(z.string().min(1)).length(3).optional().describe("three wrong next actions; the next clip's action is the answer"),
});

export const EpisodeSchema = z.strictObject({
  episode_id: z.string().min(1),
  abstract_task: z.string().min(1).optional(),
  chain_of_thought: z.string().min(1).optional(),
  video: z.string().min(1).describe("the episode video, relative to the items file's folder"),
  fps: fps().describe("the episode video's frame rate"),
  memory_bank: z.string().min(1).optional().describe("the memory-bank walkthrough video"),
  plan_distractors: z.array(z.string().min(1)).length(3).optional().describe("three altered plans; the chain of thought is the answer"),
  clips: boundedArray(ClipSchema),
});

export type Episode = z.infer<typeof EpisodeSchema>;

/** The frames of [start, end) seconds at `fps`, or null when no frame falls inside. */
export function clipFrames(start: number, end: number, fps: number): { first_frame: number; last_frame: number } | null {
  const first = Math.ceil(start * fps - 1e-9) + 0; // + 0: no -0
  const last = Math.ceil(end * fps - 1e-9) - 1;
  return last >= first ? { first_frame: first, last_frame: last } : null;
}

/** Eq. 3: the sum of the Euclidean lengths of consecutive steps. */
export function pathLength(points: ReadonlyArray<readonly number[]>): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += Math.hypot(points[i]![0]! - points[i - 1]![0]!, points[i]![1]! - points[i - 1]![1]!, points[i]![2]! - points[i - 1]![2]!);
  return total;
}

/** The four options with the answer at a position drawn from the id. */
export function placeAnswer(id: string, answer: string, distractors: readonly string[]): string[] {
  const at = createRng(seedFromString(id)).below(4);
  const options = [...distractors];
  options.splice(at, 0, answer);
  return options;
}

/** Items of one episode, and a problem for each clip that cannot give what it claims. */
export function episodeItems(episode: Episode, at: (field: string, message: string) => void): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  if (episode.plan_distractors) {
    const missing = (["memory_bank", "abstract_task", "chain_of_thought"] as const).filter((k) => episode[k] === undefined);
    if (missing.length > 0) at("plan_distractors", `a planning item also needs ${missing.join(", ")}`);
    else {
      const id = `${episode.episode_id}-planning`;
      items.push({ id, video_id: episode.episode_id, task: "planning", media: { video: episode.memory_bank }, abstract_task: episode.abstract_task, options: placeAnswer(id, episode.chain_of_thought!, episode.plan_distractors), answer: episode.chain_of_thought });
    }
  }
  episode.clips.forEach((clip, k) => {
    const field = `clips[${k}]`;
    if (clip.end <= clip.start) return at(`${field}.end`, `must be after start (${clip.start} s)`);
    const span = clipFrames(clip.start, clip.end, episode.fps);
    if (!span) return at(field, `no frame of a ${episode.fps} fps video lies in [${clip.start}, ${clip.end}) s`);
    if (span.last_frame > MAX_FRAME_INDEX) return at(field, `ends at frame ${span.last_frame} of a ${episode.fps} fps video; frame numbers stop at ${MAX_FRAME_INDEX}`);
    const id = (task: string) => `${episode.episode_id}-${task}-c${String(k).padStart(2, "0")}`;
    const media = { video: episode.video, span };
    const meta = { clip: k, start: clip.start, end: clip.end, ...(clip.transcript ? { transcript: clip.transcript } : {}) };
    if (clip.category === "navigation" && clip.subtype) {
      items.push({ id: id("direction"), video_id: episode.episode_id, task: "direction", media, answer: SUBTYPE_LABELS[clip.subtype], meta });
      const metres = clip.distance_m ?? (clip.positions ? pathLength(clip.positions) : undefined);
      if (clip.subtype === "walk-straight" && metres !== undefined) {
        items.push({ id: id("distance"), video_id: episode.episode_id, task: "distance", media, answer: Math.round(metres * 1000) / 1000, meta });
      }
    }
    if (clip.category === "manipulation" && clip.action && clip.distractors) {
      const itemId = id("action_recognition");
      items.push({ id: itemId, video_id: episode.episode_id, task: "action_recognition", media, options: placeAnswer(itemId, clip.action, clip.distractors), answer: clip.action, meta });
    }
    if (clip.next_distractors) {
      const next = episode.clips[k + 1]?.action;
      if (!next) at(`${field}.next_distractors`, `a next-action item needs clips[${k + 1}].action (the next step)`);
      else if (!episode.chain_of_thought) at(`${field}.next_distractors`, "a next-action item needs the episode's chain_of_thought");
      else {
        const itemId = id("next_action");
        items.push({ id: itemId, video_id: episode.episode_id, task: "next_action", media, chain_of_thought: episode.chain_of_thought, options: placeAnswer(itemId, next, clip.next_distractors), answer: next, meta });
      }
    }
  });
  return items;
}

/** Every episode line of a JSONL file -> items; malformed lines and clips are problems (file, line, field). */
export function convertEpisodes(file: string, shown = path.basename(file)): { items: Array<Record<string, unknown>>; problems: DataProblem[] } {
  const problems = problemList();
  const items: Array<Record<string, unknown>> = [];
  for (const { line, value } of readJsonObjects(file, shown, problems)) {
    const parsed = EpisodeSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push({ file: shown, line, field: fieldPath(issue.path), message: issue.message });
      continue;
    }
    appendAll(items, episodeItems(parsed.data, (field, message) => problems.push({ file: shown, line, field, message })));
  }
  return { items, problems };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [input, ...rest] = process.argv.slice(2);
  if (!input) {
    process.stderr.write("usage: node --import tsx src/benchmarks/egotl/convert.ts <episodes.jsonl> [--out test.jsonl]\n");
    process.exit(2);
  }
  const { items, problems } = convertEpisodes(input);
  for (const p of problems) process.stderr.write(`${p.file}, line ${p.line}${p.field ? `, field ${p.field}` : ""}: ${p.message}\n`);
  const text = items.map((i) => JSON.stringify(i)).join("\n") + (items.length ? "\n" : "");
  const out = rest[0] === "--out" ? rest[1] : undefined;
  if (out) {
    writeFileSync(out, text);
    process.stderr.write(`wrote ${items.length} items to ${out}\n`);
  } else process.stdout.write(text);
  process.exit(problems.length > 0 ? 1 : 0);
}
