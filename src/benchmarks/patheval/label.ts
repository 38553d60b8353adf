import { DESCRIPTORS, PAPER_THRESHOLDS, scenarioById, type Descriptors, type Directions } from "./scenarios.js";

export type Label = "Path 1" | "Path 2" | "Unresolved";

export interface LabelDetail {
  label: Label;
  /** Descriptors on which each path is better by at least the threshold. */
  wins: { "Path 1": string[]; "Path 2": string[] };
}

/**
 * The label of a pair for a scenario (paper §3.2): a descriptor the scenario cares about decides
 * only when the two values differ by at least its threshold (a difference equal to the threshold
 * counts, as in the release); the path better on it wins it. The pair is labelled when exactly one
 * path has wins, and is unresolved otherwise.
 */
export function labelDetail(d1: Descriptors, d2: Descriptors, directions: Directions, thresholds: Descriptors = PAPER_THRESHOLDS): LabelDetail {
  const wins: LabelDetail["wins"] = { "Path 1": [], "Path 2": [] };
  for (const name of DESCRIPTORS) {
    const direction = directions[name] ?? 0;
    if (direction === 0) continue;
    const a = d1[name];
    const b = d2[name];
    if (Math.abs(a - b) < thresholds[name]) continue;
    // Explicit comparisons, so equal values and NaN give no win (as in the release).
    const [better, worse] = direction === 1 ? [a > b, a < b] : [a < b, a > b];
    if (better) wins["Path 1"].push(name);
    else if (worse) wins["Path 2"].push(name);
  }
  const one = wins["Path 1"].length > 0;
  const two = wins["Path 2"].length > 0;
  return { label: one && !two ? "Path 1" : two && !one ? "Path 2" : "Unresolved", wins };
}

/** `label(d1, d2, scenarioId, thresholds?)`: the library form used by tests and users. */
export function label(d1: Descriptors, d2: Descriptors, scenarioId: number, thresholds?: Descriptors): Label {
  return labelDetail(d1, d2, scenarioById(scenarioId).directions, thresholds).label;
}
