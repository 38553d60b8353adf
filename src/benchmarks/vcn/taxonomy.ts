/**
 * The paper's error taxonomy for goal identification (App. D.1), decided from the annotations of
 * the chosen frame (first matching rule wins):
 *
 * R2O tasks (target room T of category C; a "distractor" is any other room of category C):
 *   out-of-range  the index is not a tour frame (negative, or >= the tour length)
 *   (success)     the camera is in T
 *   position      T is seen from outside: T is in the frame's `visible_rooms`
 *   disturbance   the camera is in a distractor, or a distractor is seen from outside (in
 *                 `visible_rooms`, e.g. through a doorway): D.1 files a frame that "contains the
 *                 disturbance room but is positioned outside the room" under this error too.
 *                 When T itself is also visible the frame is a position error (the rule above).
 *   cognition     anything else (an unrelated room)
 * A visible room's category comes from the item's layout, else from the frames whose camera is in
 * that room; a room of unknown category is never a distractor.
 * Instance (target object O of category C):
 *   out-of-range  as above
 *   (success)     O is visible
 *   instance      another instance of category C is visible
 *   perception    neither O nor any C instance is visible
 * Replies that give no index (unreadable or missing) are "no-answer".
 */
import type { GoalTarget, VcnItem } from "./types.js";

export const R2O_ERRORS = ["position", "disturbance", "cognition", "out-of-range"] as const;
export const OBJECT_ERRORS = ["instance", "perception", "out-of-range"] as const;
export type ErrorCategory = (typeof R2O_ERRORS)[number] | (typeof OBJECT_ERRORS)[number] | "no-answer";

export const ERROR_MEANINGS: Record<ErrorCategory, string> = {
  position: "the frame shows the target room from outside (it is in the frame's visible_rooms), the camera is elsewhere",
  disturbance: "the frame is in, or shows from outside, another room of the target's category (a distractor room), and does not show the target room",
  cognition: "an unrelated frame: neither the target room nor a room of its category, in or in view",
  "out-of-range": "the index is not a frame of the tour",
  instance: "another instance of the target's category is visible, the target is not",
  perception: "no instance of the target's category is visible",
  "no-answer": "no frame index could be read from the reply (or no reply)",
};

type TaxonomyItem = Pick<VcnItem, "annotations"> & Partial<Pick<VcnItem, "layout">>;

/** The category of a room id: the layout's, else that of a frame whose camera is in the room (null: unknown). */
export function roomCategoryOf(item: TaxonomyItem, room: string): string | null {
  const fromLayout = item.layout?.rooms.find((r) => r.id === room);
  if (fromLayout) return fromLayout.category;
  return item.annotations.find((a) => a.room === room && a.room_category !== null)?.room_category ?? null;
}

/** Outcome of one chosen tour index: null = success. */
export function classifyFrame(item: TaxonomyItem, target: GoalTarget, frame: number | null): ErrorCategory | null {
  if (frame === null) return "no-answer";
  const annotation = Number.isInteger(frame) && frame >= 0 ? item.annotations[frame] : undefined;
  if (!annotation || annotation.index !== frame) return "out-of-range";
  if (target.kind === "room") {
    if (annotation.room === target.room) return null;
    if (annotation.visible_rooms.includes(target.room)) return "position";
    if (annotation.room !== null && annotation.room_category === target.category) return "disturbance";
    const seesDistractor = annotation.visible_rooms.some((r) => r !== target.room && roomCategoryOf(item, r) === target.category);
    return seesDistractor ? "disturbance" : "cognition";
  }
  if (annotation.objects.some((o) => o.id === target.object)) return null;
  if (annotation.objects.some((o) => o.category === target.category)) return "instance";
  return "perception";
}
