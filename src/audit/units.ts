/** Reading an audit unit's answer form: the candidates a rule may pick among. */
import type { AuditUnit, Candidate } from "./types.js";

/** The options of a multiple-choice unit ([] for sets and numbers). */
export const choiceCandidates = (unit: AuditUnit): readonly Candidate[] => (unit.answer.kind === "choice" ? unit.answer.candidates : []);

/** Every candidate of a unit, of a choice or a set ([] for numbers). */
export const allCandidates = (unit: AuditUnit): readonly Candidate[] => (unit.answer.kind === "number" ? [] : unit.answer.candidates);

/** Whether the benchmark read cue features for this unit (for itself or for any candidate). */
export const hasCues = (unit: AuditUnit): boolean => unit.cues !== undefined || allCandidates(unit).some((c) => c.cues !== undefined);
