import type { LeafTask } from "./taxonomy.js";

/** A COCO RLE as stored in the release: counts as a compressed string or a list of run lengths. */
export interface RleJson {
  size: [number, number];
  counts: string | number[];
}

/** One EPIC-Bench sample. Masks stay as RLE until scoring (a release-size set would not fit decoded). */
export interface EpicItem {
  /** The ground-truth file path relative to --data, e.g. EPIC_Bench/Navigation/GroundDetection/0101_mask_rle.json */
  id: string;
  /** The official by_type key (one of 23). */
  task: string;
  cluster: string;
  leaf: LeafTask;
  /** Absolute paths of the images in the official order (image[, overlay][, image b]). */
  images: string[];
  /** The same paths relative to --data, as the official raw-response files list them. */
  imageRefs: string[];
  /** text_annotation as stored (values may be scalars or 1-element lists). */
  text: Record<string, unknown>;
  /** mask_annotation fields: lists of RLEs ([] = no target). */
  masks: Record<string, RleJson[]>;
  /** Image size of the scored masks (Visual Matching: image b). */
  height: number;
  width: number;
  gtFile: string;
}
