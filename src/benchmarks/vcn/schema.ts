/**
 * The VCN-Bench goal-identification data format: one JSON object a line (JSONL). The zod schema
 * below is the single source of truth; `schemas/vcn-item.schema.json` is generated from it
 * (`vcnItemJsonSchema()`), and a test keeps the two in step.
 *
 * One line = one question: an instruction, the prior tour (a frame folder, a list of frames or a
 * video, with the frame spec that turns it into the tour; or the release's prior video, a window
 * hkey/start_idx/end_idx of a tour folder, picked as the release does: prior.ts), what each tour
 * frame shows (the annotations: the camera's room, the object instances in view, the rooms seen
 * from outside),
 * the target (a room for the R2O tasks, an object instance for Instance), the four views at the
 * start, and optionally the house layout and the instruction's structure (relation, anchor,
 * candidates) from which the target can be recomputed, e.g. for the counterfactual intervention.
 *
 * Coordinates in `layout` are plan coordinates in metres: [east, north].
 */
import { z } from "zod";
import { boundedArray, coordinate, frameIndex, MAX_FRAME_INDEX, MAX_FRAMES_PER_SPEC, safeId, wholeNumber } from "../../core/limits.js";
import { frameSpecSchema, type FrameSpecData } from "../../media/frame-spec.js";
import { PRIOR_SAMPLINGS } from "./prior.js";
import { RELATIONS } from "./relations.js";

export const TASK_CODES = ["count", "order", "distance", "orientation", "instance"] as const;
export type TaskCode = (typeof TASK_CODES)[number];
/** Room-to-object tasks, scored by Rid-SR; Instance is scored by Oid-SR. */
export const R2O_TASKS: readonly TaskCode[] = ["count", "order", "distance", "orientation"];
export const TASK_NAMES: Record<TaskCode, string> = { count: "Count", order: "Order", distance: "Distance", orientation: "Orientation", instance: "Instance" };

const id = z.string().min(1);
/** Plan coordinates in metres, within 10 km of the origin (core/limits.ts). */
const point2 = z.tuple([coordinate(), coordinate()]);
/** A list in one line: at most MAX_ITEMS_PER_ARRAY entries. */
const list = <T extends z.ZodType>(item: T) => boundedArray(item);

/** The frame spec shared with EgoTL-Bench (media/frame-spec.ts), every number bounded. */
export { frameSpecSchema };

/** A path segment: a scene or tour folder name (no separators, not "." or ".."). */
const segment = id.regex(/^(?!\.\.?$)[^/\\]+$/, "must be a single folder name (no / or \\, not . or ..)");

/**
 * The prior video as the release names it (prior.ts): frames [start_idx, end_idx) of the tour
 * folder `<root>/<scene>/<hkey>` (scene: the item's scene), listed and thinned as the released
 * evaluation does.
 */
export const priorSchema = z.strictObject({
  hkey: segment.describe("the tour folder's name under <root>/<scene>/"),
  start_idx: frameIndex().describe("first frame of the window (a position in the folder's sorted listing)"),
  end_idx: wholeNumber(1, MAX_FRAME_INDEX + 1).describe("end of the window, exclusive"),
  root: id.optional().describe("the folder holding <scene>/<hkey>, relative to the JSONL file; default \"tours\""),
  video_max_frame: wholeNumber(1, MAX_FRAMES_PER_SPEC).optional().describe("the release's cap: fewer than this many frames are kept; default 50"),
  sampling: z.enum(PRIOR_SAMPLINGS).optional().describe("\"release\" (default): every stride-th frame as the official code; \"uniform\": exactly video_max_frame frames spread evenly (the paper's wording)"),
});

/** Exactly one of video, frames, dir, prior (checked by the loader). Paths are relative to the JSONL file. */
export const tourSchema = z.strictObject({
  video: id.optional().describe("a video file; needs `spec`"),
  frames: list(id).min(1).optional().describe("frame image files, in tour order"),
  dir: id.optional().describe("a folder of frame images (.png, .jpg, .jpeg, .webp), read in natural file-name order"),
  spec: frameSpecSchema.optional().describe("which frames form the tour; default {\"mode\":\"all\"} for frames and dir"),
  prior: priorSchema.optional().describe("the release's prior video (hkey, start_idx, end_idx); no spec"),
});

export const objectRefSchema = z.strictObject({ id, category: id });

export const annotationSchema = z.strictObject({
  index: wholeNumber(0, MAX_FRAMES_PER_SPEC - 1).describe("tour index: the label the model sees and answers with (0..N-1, each once)"),
  room: id.nullable().describe("the room the camera is in (null: none)"),
  room_category: id.nullable(),
  objects: list(objectRefSchema).default([]).describe("object instances visible in the frame (the benchmark's visibility rule)"),
  visible_rooms: list(id).default([]).describe("other rooms seen from outside, e.g. through a doorway (position errors)"),
  source_index: frameIndex().optional().describe("the frame index in the video or folder, or the position in the frame list (for a prior: the position in the folder's sorted listing), checked against the sampler"),
});

export const layoutSchema = z.strictObject({
  rooms: list(z.strictObject({ id, category: id, center: point2.optional() })).default([]),
  objects: list(z.strictObject({ id, category: id, room: id.optional(), position: point2.optional() })).default([]),
  start: z.strictObject({ position: point2, facing: point2.describe("unit-free direction the agent faces (the 'front' view)") }).optional(),
});

export const querySchema = z.strictObject({
  relation: z.enum(RELATIONS),
  candidates: list(id).min(1).describe("room ids (R2O) or object ids (Instance) the relation chooses among"),
  anchor: id.optional().describe("room or object id the relation is measured from (before/after, nearest/farthest, compass)"),
  counted_category: id.optional().describe("object category counted per room (most/fewest)"),
  template: z.string().optional().describe("the instruction with {relation} in place of the relation phrase"),
});

export const viewsSchema = z.strictObject({ front: id, left: id, back: id, right: id });

export const itemSchema = z.strictObject({
  id: z.union([id, safeId()]),
  task: z.enum(TASK_CODES),
  scene: id.describe("house / scene id (the bootstrap cluster)"),
  episode_id: z.union([id, safeId()]).optional().describe("the navigation episode this question belongs to"),
  instruction: z.string().min(1),
  tour: tourSchema,
  annotations: boundedArray(annotationSchema, MAX_FRAMES_PER_SPEC).min(1).describe("one per tour frame (at most as many as a frame spec may pick)"),
  target: z.strictObject({ room: id.optional(), object: id.optional() }),
  initial_views: viewsSchema,
  layout: layoutSchema.optional(),
  query: querySchema.optional(),
  answers: boundedArray(wholeNumber(0, MAX_FRAMES_PER_SPEC - 1), MAX_FRAMES_PER_SPEC).optional().describe("expected success frames; checked against the annotations"),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export type RawItem = z.infer<typeof itemSchema>;

export { issueList } from "../../core/problems.js";
export type { FrameSpecData };
export type PriorData = z.infer<typeof priorSchema>;
export type Annotation = z.infer<typeof annotationSchema>;
export type Layout = z.infer<typeof layoutSchema>;
export type Query = z.infer<typeof querySchema>;

/** The JSON Schema of one line (draft 2020-12), as written to schemas/vcn-item.schema.json. */
export function vcnItemJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(itemSchema, { io: "input" }) as Record<string, unknown>;
  return {
    $schema: schema["$schema"],
    $id: "https://spatialprobe.dev/schemas/vcn-item.schema.json",
    title: "VCN-Bench goal-identification item (spatialprobe)",
    description: "One line of a VCN-Bench goal-identification JSONL file. Generated from src/benchmarks/vcn/schema.ts; do not edit by hand.",
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$schema")),
  };
}
