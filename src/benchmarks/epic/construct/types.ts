/** Records shared by the EPIC-Bench construction stages. */
import type { BitMask } from "../../../geometry/mask.js";
import type { PinholeCamera } from "../../../world/camera.js";
import type { EpicView } from "./view.js";

/** One sample before it is written: its task, text fields, masks (one BitMask per instance) and what the overlay image marks. */
export interface Draft {
  /** The official task_type (LeafTask.leaf). */
  leaf: string;
  text: Record<string, unknown>;
  masks: Record<string, BitMask[]>;
  /** The mask field the overlay image marks (tasks with an overlay). */
  overlayField?: string;
  /** Visual matching: the second view (image b). */
  second?: EpicView;
  /** How the masks were made, for the construction record and the independent checks. */
  provenance: Provenance;
  /**
   * The words the description turns on besides its target (a colour and a category, a shape, a
   * relation): the no-target cap holds for each word apart (balance.ts), so no word tells "none".
   */
  balanceKeys?: string[];
}

/**
 * How a sample's masks come from the scene, so a checker can re-derive them: `instances` lists
 * the object ids of each mask field (one mask per id, in order, from the picture's instance
 * buffer); `parts` the object id and mesh-group rule of part masks (from the part pass); floor and
 * path masks name their rule.
 */
export interface Provenance {
  kind: string;
  instances?: Record<string, number[]>;
  parts?: Record<string, Array<{ objectId: number; groups: number[]; top: boolean | null }>>;
  floor?: Record<string, "floor" | "path" | "zones">;
  zones?: Array<{ objectId: number }>;
  secondCamera?: PinholeCamera;
  [key: string]: unknown;
}
