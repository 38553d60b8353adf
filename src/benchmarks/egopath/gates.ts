/**
 * The validity gates a generated EgoPathBench set must pass (issue 27), read off an audit:
 * every number legible, a1/b1 not answerable from the picture's cheap cues or the text (every
 * blind rule, cue rule, the cue forest and TsT within 0.05 of chance: BA <= 0.55), and no
 * EgoPath Score above 3 without a model: each task answered by the blind rule chosen on the other
 * folds (audit.ts selectedRuleReplies). The best rule picked on the very items it is scored on
 * (blind_best) is a maximum over some twenty rules and counts the luck of the best; it stays in
 * the audit beside this gate.
 */
import type { AuditDocument } from "../../audit/audit.js";
import { gateAtMost as gate, type Gate } from "../../audit/gates.js";

/** The tasks whose picture cues are gated (marker spacing, place and colour must not tell the answer). */
export const CUE_GATED_TASKS = ["a1", "b1"] as const;

/** Largest gap over chance a blind or cue answer may have on a1/b1. */
export const TRAVERSABILITY_GAP = 0.05;
/** Largest EgoPath Score (a fraction) the best blind rules may reach together. */
export const NO_MODEL_SCORE = 0.03;

/** Every gate of the audit, in a fixed order. */
export function egopathGates(doc: AuditDocument): Gate[] {
  const out: Gate[] = [];
  for (const [task, t] of Object.entries(doc.tasks)) {
    if (t.legibility) out.push(gate(`${task} questions with an unreadable answer`, t.legibility.questions_unreadable, 0));
  }
  for (const task of CUE_GATED_TASKS) {
    const t = doc.tasks[task];
    if (!t) {
      out.push(gate(`${task} asked`, null, 0));
      continue;
    }
    const limit = (t.chance ?? 0.5) + TRAVERSABILITY_GAP;
    for (const r of t.blind) out.push(gate(`${task} blind rule "${r.name}"`, r.score, limit));
    out.push(gate(`${task} TsT forest`, t.tst?.score ?? null, limit));
    for (const r of t.cues?.rules ?? []) out.push(gate(`${task} cue rule "${r.name}"`, r.score, limit));
    if (t.cues) out.push(gate(`${task} cue forest`, t.cues.forest?.score ?? null, limit));
  }
  out.push(gate("EgoPath Score without a model (blind rule per task chosen on the other folds)", doc.overall.blind_selected?.score ?? null, NO_MODEL_SCORE));
  return out;
}
