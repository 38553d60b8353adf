/**
 * Scoring one goal-identification answer.
 * - Rid-SR (Count, Order, Distance, Orientation): success when the chosen frame's camera is in the
 *   target room. Oid-SR (Instance): success when the target instance is annotated visible in it.
 * - The reply's number is a tour index, unless the prompt labelled frames by their shown position
 *   (shuffled-frames): then it is mapped back through the shown order first; a position that was
 *   not shown is out-of-range.
 * - An unreadable or missing reply counts as a failure ("no-answer") and stays in the denominator.
 */
import type { Answer } from "../../core/benchmark.js";
import { chanceLevels, frameSucceeds } from "./chance.js";
import { resolveQuery } from "./relations.js";
import { classifyFrame, type ErrorCategory } from "./taxonomy.js";
import type { GoalTarget, ShownFrames, VcnItem } from "./types.js";

export interface GoalAnswer {
  /** The number read from the reply. */
  reply_index: number;
  /** The tour index it names (null: a shown position that does not exist). */
  frame: number | null;
  rule: string;
}

export interface GoalOutcome {
  metric: "Rid-SR" | "Oid-SR";
  success: boolean;
  /** The chosen tour index (null: no answer or not a tour frame). */
  frame: number | null;
  reply_index: number | null;
  error: ErrorCategory | null;
  target: string;
  chance: { complete: number; category: number };
  /** Chance over the frames the prompt showed, when it did not show the whole tour. */
  chance_shown?: { complete: number; category: number };
  /** Counterfactual items: did the model choose a frame of the original (pre-swap) target? */
  counterfactual?: { original_target: string; chose_original: boolean; target_changed: boolean };
}

/** The shown-frames record of a prompt info (none for replayed predictions: tour-index labels). */
export function shownOf(prompt: Record<string, unknown> | undefined): ShownFrames | null {
  const shown = prompt?.["shown"];
  if (!Array.isArray(shown) || !shown.every((v) => Number.isInteger(v))) return null;
  return {
    variant: String(prompt?.["variant"] ?? "plain"),
    labels: prompt?.["labels"] === "shown-position" ? "shown-position" : "tour-index",
    shown: shown as number[],
    tour_frames: Number(prompt?.["tour_frames"] ?? shown.length),
    dropped: Number(prompt?.["dropped"] ?? 0),
    note: typeof prompt?.["note"] === "string" ? (prompt["note"] as string) : null,
  };
}

/** Map a number read from the reply to a tour index. */
export function toTourIndex(replyIndex: number, shown: ShownFrames | null): number | null {
  if (!shown || shown.labels === "tour-index") return replyIndex;
  return Number.isInteger(replyIndex) && replyIndex >= 0 && replyIndex < shown.shown.length ? shown.shown[replyIndex]! : null;
}

export const targetId = (target: GoalTarget): string => (target.kind === "room" ? target.room : target.object);

/** The original target of a counterfactual item (its query with the relation swapped back). */
function originalTarget(item: VcnItem): GoalTarget | null {
  const d = item.derivation;
  if (!d) return null;
  const id = d.original.target;
  if (item.target.kind === "room") {
    const category = item.annotations.find((a) => a.room === id)?.room_category ?? item.layout?.rooms.find((r) => r.id === id)?.category ?? "";
    return { kind: "room", room: id, category };
  }
  const category = item.annotations.flatMap((a) => a.objects).find((o) => o.id === id)?.category ?? "";
  return { kind: "object", object: id, category };
}

export function scoreGoal(item: VcnItem, answer: GoalAnswer | null, shown: ShownFrames | null = null): GoalOutcome {
  const frame = answer ? answer.frame : null;
  const error = answer === null ? "no-answer" : answer.frame === null ? "out-of-range" : classifyFrame(item, item.target, frame);
  const chance = chanceLevels(item);
  const outcome: GoalOutcome = {
    metric: item.target.kind === "room" ? "Rid-SR" : "Oid-SR",
    success: error === null,
    frame: error === "out-of-range" ? null : frame,
    reply_index: answer?.reply_index ?? null,
    error,
    target: targetId(item.target),
    chance: { complete: chance.complete, category: chance.category },
  };
  if (shown && shown.shown.length < item.annotations.length) {
    const sub = chanceLevels(item, shown.shown);
    outcome.chance_shown = { complete: sub.complete, category: sub.category };
  }
  const original = originalTarget(item);
  if (original) {
    const annotation = outcome.frame !== null ? item.annotations[outcome.frame] : undefined;
    outcome.counterfactual = {
      original_target: targetId(original),
      chose_original: annotation ? frameSucceeds(original, annotation) : false,
      target_changed: targetId(original) !== targetId(item.target),
    };
  }
  return outcome;
}

/** Answer -> outcome, for the Benchmark interface (the answer value is a GoalAnswer). */
export function scoreAnswer(item: VcnItem, answer: Answer, prompt?: Record<string, unknown>): GoalOutcome {
  const value = answer.status === "ok" ? (answer.value as GoalAnswer | null) : null;
  return scoreGoal(item, value, shownOf(prompt));
}

/** The expected answer set of an item (its success frames) and whether its query agrees with its target. */
export function checkQuery(item: Pick<VcnItem, "query" | "annotations" | "layout" | "target">): string | null {
  if (!item.query) return null;
  const resolved = resolveQuery(item.query, { annotations: item.annotations, layout: item.layout });
  if (!resolved.ok) return `the query names no target: ${resolved.reason}`;
  return resolved.target === targetId(item.target) ? null : `the query resolves to ${resolved.target}, but the target is ${targetId(item.target)}`;
}
