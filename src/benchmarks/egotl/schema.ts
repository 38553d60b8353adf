/**
 * The EgoTL-Bench item format (ours: the paper released no QA files). One JSON object per line.
 * The zod schema below is the single source of truth; schemas/egotl-item.schema.json is exported
 * from it (`egotlItemJsonSchema()`; regenerate with
 * `node --import tsx src/benchmarks/egotl/schema.ts --write`), and a test checks the committed
 * file is up to date. Rules JSON Schema cannot say (an answer text equal to one option, options
 * distinct after normalisation, files that exist, frame indices in range) are checked by the
 * loader (load.ts), which reports each with its file, line and field.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { boundedArray, fps, frameIndex, MAX_DISTANCE_M, nonNegativeMetres } from "../../core/limits.js";
import { frameSpecSchema } from "../../media/frame-spec.js";

/** The six tasks, in the paper's order (Table 3): three layers, memory -> action -> perception. */
export const EGOTL_TASKS = ["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"] as const;
export type EgoTLTask = (typeof EGOTL_TASKS)[number];

/** The five multiple-choice tasks whose accuracies make the paper's "Avg.". */
export const CHOICE_TASKS = ["planning", "scene_action", "next_action", "action_recognition", "direction"] as const satisfies readonly EgoTLTask[];

export const TASK_TITLES: Record<EgoTLTask, string> = {
  planning: "Memory-conditioned planning",
  scene_action: "Scene-aware action reasoning",
  next_action: "Next-action prediction",
  action_recognition: "Action recognition",
  direction: "Direction recognition",
  distance: "Distance estimation",
};

export const LETTERS = ["A", "B", "C", "D"] as const;
export type Letter = (typeof LETTERS)[number];

/** The five direction labels, spelled as the paper's output contract. */
export const DIRECTION_LABELS = ["Turn left", "Turn right", "Move forward", "Going up", "Going down"] as const;
export type DirectionLabel = (typeof DIRECTION_LABELS)[number];

/** The shared, bounded frame spec (media/frame-spec.ts), with EgoTL's defaults in its description. */
export const FrameSpecSchema = frameSpecSchema.describe("which frames to show; default: uniform 16 for planning's memory-bank video, uniform 8 for clips");

export const SpanSchema = z
  .strictObject({
    first_frame: frameIndex().describe("0-based index of the clip's first frame in the longer video"),
    last_frame: frameIndex().describe("0-based index of the clip's last frame (included)"),
  })
  .describe("the clip as a span of frames inside a longer video (e.g. one step of an episode video); the frame spec then applies to the span as if it were the whole clip");

export const MediaSchema = z
  .strictObject({
    video: z.string().min(1).optional().describe("a video file, relative to the JSONL file's folder"),
    frames: boundedArray(z.string().min(1)).min(1).optional().describe("image files in time order, relative to the JSONL file's folder"),
    dir: z.string().min(1).optional().describe("a folder of frame images (sorted by name), relative to the JSONL file's folder"),
    fps: fps().optional().describe("frames and dir only: the rate the images were captured at (gives timestamps; needed for an fps spec)"),
    spec: FrameSpecSchema.optional(),
    span: SpanSchema.optional(),
  })
  .meta({
    description: "the video: exactly one of video, frames or dir, plus an optional frame spec",
    oneOf: [{ required: ["video"] }, { required: ["frames"] }, { required: ["dir"] }],
  });

const options = z.array(z.string().min(1)).length(4).describe("the four candidates (the answer and three distractors), plain text without letters");
const letter = z.enum(LETTERS);
const optionAnswer = z.union([letter, z.string().min(1)]).describe("the right option: its letter, or its text (matched to one option after normalisation: case, spaces, punctuation; App. H.2.4)");

const base = {
  id: z.string().min(1).describe("unique within the data set"),
  video_id: z.string().min(1).optional().describe("the source video; the bootstrap resamples whole source videos (default: derived from the media path)"),
  current_frame: z.string().min(1).optional().describe("an image of the current view, relative to the JSONL file's folder"),
  abstract_task: z.string().min(1).optional().describe("the abstract task, e.g. 'make a cup of tea'"),
  chain_of_thought: z.string().min(1).optional().describe("the chain of thought that leads to the next action"),
  meta: z.record(z.string(), z.unknown()).optional().describe("free-form provenance; ignored by the benchmark"),
};

export const PlanningItemSchema = z.strictObject({
  ...base,
  task: z.literal("planning"),
  media: MediaSchema.describe("the memory-bank walkthrough video"),
  abstract_task: z.string().min(1),
  options: options.describe("four candidate chains of thought"),
  answer: optionAnswer.describe("the best chain of thought: its letter, or its text (matched to one option after normalisation; App. H.2.4)"),
});

export const SceneActionItemSchema = z.strictObject({
  ...base,
  task: z.literal("scene_action"),
  media: MediaSchema.optional().describe("a short clip of the current state (App. H.2.2); with or instead of current_frame, never a memory bank"),
  current_frame: z.string().min(1).optional().describe("an image of the current view (Table 5); scene_action needs current_frame, media, or both"),
  abstract_task: z.string().min(1),
  options: options.describe("four candidate next actions"),
  answer: optionAnswer,
}).meta({ anyOf: [{ required: ["current_frame"] }, { required: ["media"] }] });

export const NextActionItemSchema = z.strictObject({
  ...base,
  task: z.literal("next_action"),
  media: MediaSchema.describe("the current clip"),
  chain_of_thought: z.string().min(1),
  options: options.describe("four candidate next actions"),
  answer: optionAnswer,
});

export const ActionRecognitionItemSchema = z.strictObject({
  ...base,
  task: z.literal("action_recognition"),
  media: MediaSchema.describe("the clip"),
  options: options.describe("four candidate actions, shown lettered A-D in this order"),
  answer: optionAnswer.describe("the action shown: its letter, or its text (matched to one option after normalisation and exact comparison, as App. H.2.4 maps the gold action to a letter)"),
});

export const DirectionItemSchema = z.strictObject({
  ...base,
  task: z.literal("direction"),
  media: MediaSchema.describe("the clip"),
  answer: z.enum(DIRECTION_LABELS),
});

export const DistanceItemSchema = z.strictObject({
  ...base,
  task: z.literal("distance"),
  media: MediaSchema.describe("the clip"),
  answer: nonNegativeMetres(MAX_DISTANCE_M).describe("metres the camera travelled (0 when it did not move)"),
});

export const EgoTLItemSchema = z
  .discriminatedUnion("task", [PlanningItemSchema, SceneActionItemSchema, NextActionItemSchema, ActionRecognitionItemSchema, DirectionItemSchema, DistanceItemSchema])
  .meta({ title: "EgoTL-Bench item (spatialprobe format)", description: "One question of EgoTL-Bench's six tasks; one JSON object per line of a JSONL file." });

export type EgoTLRow = z.infer<typeof EgoTLItemSchema>;
export type FrameSpecRow = z.infer<typeof FrameSpecSchema>;
export type MediaRow = z.infer<typeof MediaSchema>;
export type SpanRow = z.infer<typeof SpanSchema>;

/** The JSON Schema (draft 2020-12) of one item, exported from the zod schema. */
export function egotlItemJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(EgoTLItemSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
}

/** The committed file's text: 2-space JSON and a final newline. */
export function egotlItemJsonSchemaText(): string {
  return `${JSON.stringify(egotlItemJsonSchema(), null, 2)}\n`;
}

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../schemas/egotl-item.schema.json");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--write")) {
    mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true });
    writeFileSync(SCHEMA_FILE, egotlItemJsonSchemaText());
    process.stderr.write(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}\n`);
  } else {
    process.stdout.write(egotlItemJsonSchemaText());
  }
}
