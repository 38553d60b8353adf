/**
 * Scoring one answer. Multiple-choice tasks: right or wrong; an unreadable reply is wrong, except
 * action recognition, where the paper records a reply without a letter and EXCLUDES it from the
 * scored set (`excluded: true`; aggregate.ts reports the paper's accuracy without those items and
 * a counted-as-wrong accuracy with them). Distance: MRA (src/stats/mra.ts) of the first number
 * against the truth; an unreadable reply scores 0 (VSI-Bench's worst case for MRA).
 * A missing prediction (score/replay) is wrong, never excluded.
 */
import type { Answer } from "../../core/benchmark.js";
import { mra } from "../../stats/mra.js";
import type { EgoTLItem } from "./load.js";
import { LETTERS, type EgoTLTask } from "./schema.js";

export interface ItemOutcome {
  task: EgoTLTask;
  /** Right under the counted reading (unreadable = wrong). */
  correct: boolean;
  /** Action recognition without a letter: left out of the paper's accuracy. */
  excluded: boolean;
  unreadable: boolean;
  missing: boolean;
  /** Distance only: MRA in [0, 1] as VSI-Bench's code computes it (<=), and with the paper's strict < (Eq. 4). */
  mra: number | null;
  mra_strict: number | null;
  /** What was read: a letter, a direction label, metres; null when nothing was. */
  predicted: string | number | null;
  truth: string | number;
}

export function truthOf(item: EgoTLItem): string | number {
  const t = item.truth;
  return t.kind === "option" ? LETTERS[t.index]! : t.kind === "direction" ? t.label : t.metres;
}

export function scoreAnswer(item: EgoTLItem, answer: Answer | undefined): ItemOutcome {
  const truth = truthOf(item);
  const missing = !answer || answer.status === "missing";
  const readable = answer?.status === "ok" && answer.value !== null;
  const base = { task: item.task, missing, unreadable: !missing && !readable, truth };
  if (!readable) {
    return { ...base, correct: false, excluded: item.task === "action_recognition" && !missing, mra: item.task === "distance" ? 0 : null, mra_strict: item.task === "distance" ? 0 : null, predicted: null };
  }
  const value = answer.value as Record<string, unknown>;
  switch (item.truth.kind) {
    case "option": {
      const index = value["index"] as number;
      return { ...base, correct: index === item.truth.index, excluded: false, mra: null, mra_strict: null, predicted: LETTERS[index] ?? null };
    }
    case "direction": {
      const label = value["label"] as string;
      return { ...base, correct: label === item.truth.label, excluded: false, mra: null, mra_strict: null, predicted: label };
    }
    case "distance": {
      const metres = value["metres"] as number;
      const score = mra(metres, item.truth.metres);
      return { ...base, correct: score === 1, excluded: false, mra: score, mra_strict: mra(metres, item.truth.metres, "below"), predicted: metres };
    }
  }
}

/** The ItemResult detail: what was read, the truth, and the outcome. */
export function scoreDetail(item: EgoTLItem, answer: Answer | undefined): Record<string, unknown> {
  const o = scoreAnswer(item, answer);
  return {
    predicted: o.predicted,
    truth: o.truth,
    ...(item.task === "distance" ? { MRA: o.mra } : { correct: o.correct }),
    ...(o.excluded ? { excluded: true } : {}),
    ...(item.rotation ? { base_id: item.rotation.base, rotation: item.rotation.k } : {}),
  };
}
