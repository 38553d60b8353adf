/**
 * The validity gates a generated VCN-Bench set must pass (issue 28), read off an audit with cues:
 * at least 250 episodes, and per instruction type every blind rule (the frame-position rules:
 * first, last and middle frame, the position prior, each option position), every cue rule (the
 * first and the last frame showing the named category, the most pixels of the named object) and
 * the cue forest within 0.05 of the type's category chance (§6.2: the retrieval shortcut a frame
 * must beat).
 */
import type { AuditDocument } from "../../audit/audit.js";
import { gateAtLeast, gateAtMost, type Gate } from "../../audit/gates.js";

/** Largest gap over the category chance a blind or cue answer may have. */
export const FRAME_RULE_GAP = 0.05;
/** Fewest episodes a set is gated on (issue 28; the paper's test split has 1,250). */
export const MIN_GATED_EPISODES = 250;

export const EPISODES_GATE = "episodes audited";

export function vcnGates(doc: AuditDocument): Gate[] {
  const out: Gate[] = [gateAtLeast(EPISODES_GATE, doc.n, MIN_GATED_EPISODES)];
  for (const [task, t] of Object.entries(doc.tasks)) {
    if (t.chance === null) {
      out.push(gateAtMost(`${task}: category chance known`, null, 0));
      continue;
    }
    const limit = t.chance + FRAME_RULE_GAP;
    for (const r of t.blind) out.push(gateAtMost(`${task} blind rule "${r.name}"`, r.score, limit));
    for (const r of t.cues?.rules ?? []) out.push(gateAtMost(`${task} cue rule "${r.name}"`, r.score, limit));
    out.push(gateAtMost(`${task} cue forest`, t.cues?.forest?.score ?? null, limit));
  }
  return out;
}
