import type { BenchItem } from "../../core/benchmark.js";
import type { Relation } from "./relations.js";
import type { Annotation, FrameSpecData, Layout, Query, TaskCode } from "./schema.js";

/** The tour as the frame sampler takes it (absolute paths). */
export interface TourSource {
  video?: string;
  frames?: string[];
  dir?: string;
}

export type GoalTarget =
  | { kind: "room"; room: string; category: string }
  | { kind: "object"; object: string; category: string };

/** A counterfactual copy of an item: the relation swapped, the target recomputed. */
export interface Derivation {
  kind: "counterfactual";
  /** The original item's id. */
  of: string;
  original: { instruction: string; relation: Relation; target: string };
  /** How many items of the loaded set could not be turned into counterfactuals (the same on every derived item). */
  skipped: number;
  /** How many items were loaded. */
  total: number;
  /** Why items were skipped, counted by reason. */
  skipped_reasons: Record<string, number>;
  /** The skipped items, each with its reason. */
  skipped_items: Array<{ id: string; reason: string }>;
  /** Checks of this item's counterfactual the item's data did not allow (counterfactual-rules.ts). */
  unchecked: string[];
}

/** One goal-identification question, validated and with paths resolved. */
export interface VcnItem extends BenchItem {
  task: TaskCode;
  /** The id as the file spells it (string or number), for predictions files. */
  rawId: string | number;
  scene: string;
  episodeId?: string;
  instruction: string;
  /** `prior`: a release prior (prior.ts): the folder positions of the frames shown, in order. */
  tour: { source: TourSource; spec: FrameSpecData; display: string; prior?: { positions: number[] } };
  /** One per tour frame, sorted by index (0..N-1). */
  annotations: Annotation[];
  target: GoalTarget;
  views: { front: string; left: string; back: string; right: string };
  layout?: Layout;
  query?: Query;
  /** The line's free-form `meta` (generated sets: initial_room, object_category, ...), as written. */
  meta?: Record<string, unknown>;
  source: { file: string; line: number };
  derivation?: Derivation;
}

/** What the built prompt showed, recorded in the prompt info; the reader and the scorer need it. */
export interface ShownFrames {
  variant: string;
  /** "tour-index": frames are labelled with their tour index; "shown-position": with their position in the order shown (shuffled). */
  labels: "tour-index" | "shown-position";
  /** Tour indices in the order shown. */
  shown: number[];
  tour_frames: number;
  dropped: number;
  note: string | null;
}
