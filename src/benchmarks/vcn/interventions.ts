/**
 * Interventions, run as prompt variants:
 * - shuffled-frames: the shown frames in a seeded random order, labelled 0..K-1 by their position
 *   in that order (so the labels carry no tour order); the model's number is a shown position and
 *   is mapped back to the tour index before scoring (score.ts `toTourIndex`).
 * - counterfactual (App. D.2): the instruction's relation swapped (counterfactual-rules.ts
 *   counterRelation), the instruction re-filled from the item's template, and the target
 *   recomputed from the annotations and layout. The new target must pass the checks of
 *   counterfactual-rules.ts (not the start room, not an ambiguous room type, the instruction
 *   type's rule with its margins). Items without a query and template, whose swap is degenerate,
 *   names no single target or fails a check are skipped and counted by reason; every derived item
 *   carries the list, and its own checks the item's data did not allow (`unchecked`).
 */
import { createRng, seedFromString } from "../../stats/rng.js";
import { checkCounterfactual, counterRelation } from "./counterfactual-rules.js";
import { fillRelation, resolveQuery } from "./relations.js";
import { targetId } from "./score.js";
import type { GoalTarget, VcnItem } from "./types.js";

/** The shown frames in a seeded order (a permutation of `shown`; same item, seed -> same order). */
export function shuffledOrder(itemId: string, seed: number, shown: readonly number[]): number[] {
  return createRng(seedFromString(`${itemId}#shuffled-frames`, seed)).shuffle(shown);
}

export type CounterfactualResult = { ok: true; item: VcnItem } | { ok: false; reason: string };

/** The counterfactual copy of one item (id `<id>~cf`), or why there is none. */
export function counterfactualOf(item: VcnItem): CounterfactualResult {
  const query = item.query;
  if (!query) return { ok: false, reason: "no query structure" };
  if (query.template === undefined) return { ok: false, reason: "no instruction template" };
  const swap = counterRelation(query);
  if (!swap.ok) return { ok: false, reason: swap.reason };
  const relation = swap.relation;
  const swapped = { ...query, relation };
  const resolved = resolveQuery(swapped, { annotations: item.annotations, layout: item.layout });
  if (!resolved.ok) return { ok: false, reason: `the swapped relation names no target (${resolved.reason})` };
  let target: GoalTarget;
  if (item.target.kind === "room") {
    const category = item.annotations.find((a) => a.room === resolved.target)?.room_category ?? item.layout?.rooms.find((r) => r.id === resolved.target)?.category;
    if (!category) return { ok: false, reason: `no category for room ${resolved.target}` };
    target = { kind: "room", room: resolved.target, category };
  } else {
    const category = item.annotations.flatMap((a) => a.objects).find((o) => o.id === resolved.target)?.category ?? item.layout?.objects.find((o) => o.id === resolved.target)?.category;
    if (!category) return { ok: false, reason: `no category for object ${resolved.target}` };
    target = { kind: "object", object: resolved.target, category };
  }
  const reached = item.annotations.some((a) => (target.kind === "room" ? a.room === target.room : a.objects.some((o) => o.id === target.object)));
  if (!reached) return { ok: false, reason: `the new target ${resolved.target} is never reached in the tour` };
  if (resolved.target === targetId(item.target)) return { ok: false, reason: `degenerate relation ("${relation}" names the original target ${resolved.target})` };
  const check = checkCounterfactual(item, swapped, target);
  if (check.problem) return { ok: false, reason: check.problem };
  const derived: VcnItem = {
    ...item,
    id: `${item.id}~cf`,
    rawId: `${item.rawId}~cf`,
    instruction: fillRelation(query.template, relation),
    target,
    query: swapped,
    derivation: { kind: "counterfactual", of: item.id, original: { instruction: item.instruction, relation: query.relation, target: targetId(item.target) }, skipped: 0, total: 0, skipped_reasons: {}, skipped_items: [], unchecked: check.unchecked },
  };
  return { ok: true, item: derived };
}

export interface CounterfactualSet {
  items: VcnItem[];
  skipped: Array<{ id: string; reason: string }>;
}

/** Counterfactual copies of every item that has the structure; the rest are listed with the reason. */
export function deriveCounterfactuals(items: readonly VcnItem[]): CounterfactualSet {
  const out: VcnItem[] = [];
  const skipped: Array<{ id: string; reason: string }> = [];
  for (const item of items) {
    const result = counterfactualOf(item);
    if (result.ok) out.push(result.item);
    else skipped.push({ id: item.id, reason: result.reason });
  }
  const reasons = skipReasons(skipped);
  for (const item of out) item.derivation = { ...item.derivation!, skipped: skipped.length, total: items.length, skipped_reasons: reasons, skipped_items: skipped };
  return { items: out, skipped };
}

/** Derived items per check their data did not allow. */
export function uncheckedCounts(items: readonly VcnItem[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) for (const rule of item.derivation?.unchecked ?? []) out[rule] = (out[rule] ?? 0) + 1;
  return out;
}

/** Skip reasons counted by kind (the text before any parenthesis). */
export function skipReasons(skipped: ReadonlyArray<{ reason: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { reason } of skipped) {
    const key = reason.replace(/\s*\(.*$/, "").replace(/ \S+ is never reached.*/, " is never reached in the tour");
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** Skip reasons with their counts, most frequent first ("–" when none). */
export function reasonsText(reasons: Record<string, number> | undefined): string {
  const entries = Object.entries(reasons ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length === 0 ? "–" : entries.map(([reason, n]) => `${reason}: ${n}`).join("; ");
}
