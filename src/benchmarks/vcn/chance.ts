/**
 * Chance levels, computed exactly (expectations, not samples):
 * - complete: a uniform random tour frame; P(success) = |success frames| / |tour frames|.
 * - category: a uniform random frame among the frames "of the target's category": frames whose
 *   camera room has the target room's category (R2O), or frames showing any object of the target
 *   object's category (Instance); P(success) = |success frames| / |category frames| (every
 *   success frame is a category frame).
 * Both are per item; averages are taken like the success rates (aggregate.ts).
 * Given a subset of frames (the frames a prompt showed), the same expectations over that subset.
 */
import type { Annotation } from "./schema.js";
import type { GoalTarget, VcnItem } from "./types.js";

/** Does this tour frame satisfy the success rule (Rid: camera in the target room; Oid: target instance visible)? */
export function frameSucceeds(target: GoalTarget, annotation: Annotation): boolean {
  return target.kind === "room" ? annotation.room === target.room : annotation.objects.some((o) => o.id === target.object);
}

/** Is this frame "of the target's category" (the category chance level's frame set)? */
export function frameInCategory(target: GoalTarget, annotation: Annotation): boolean {
  return target.kind === "room"
    ? annotation.room !== null && annotation.room_category === target.category
    : annotation.objects.some((o) => o.category === target.category);
}

export function successFrames(item: Pick<VcnItem, "target" | "annotations">): number[] {
  return item.annotations.filter((a) => frameSucceeds(item.target, a)).map((a) => a.index);
}

export function categoryFrames(item: Pick<VcnItem, "target" | "annotations">): number[] {
  return item.annotations.filter((a) => frameInCategory(item.target, a)).map((a) => a.index);
}

export interface ChanceLevels {
  complete: number;
  category: number;
  frames: number;
  success_frames: number;
  category_frames: number;
}

/** Exact chance levels of one item, over the whole tour or over `subset` (tour indices). */
export function chanceLevels(item: Pick<VcnItem, "target" | "annotations">, subset?: readonly number[]): ChanceLevels {
  const keep = subset ? new Set(subset) : null;
  const frames = keep ? item.annotations.filter((a) => keep.has(a.index)) : item.annotations;
  const success = frames.filter((a) => frameSucceeds(item.target, a)).length;
  const category = frames.filter((a) => frameInCategory(item.target, a)).length;
  return {
    complete: frames.length > 0 ? success / frames.length : 0,
    category: category > 0 ? success / category : 0,
    frames: frames.length,
    success_frames: success,
    category_frames: category,
  };
}
