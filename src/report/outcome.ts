import type { ItemResult } from "../core/benchmark.js";

/**
 * One word for how an item ended, for the gallery's filter: the request failed, the reply was
 * unreadable, the stage a route reached (EgoPathBench), or right / wrong / partial from the
 * benchmark's own outcome fields (correct, success, a set's tp/fp/fn, a sample score or MRA).
 */
export function outcomeOf(result: ItemResult): string {
  if (result.status === "error") return "error";
  const answer = result.answer as { status?: unknown } | undefined;
  if (!answer) return "missing";
  if (answer.status !== "ok") return answer.status === "missing" ? "missing" : "unreadable";
  const detail = (result.detail ?? {}) as Record<string, unknown>;
  if (typeof detail["stage"] === "string") return detail["stage"] as string;
  for (const key of ["correct", "success"]) if (typeof detail[key] === "boolean") return detail[key] ? "right" : "wrong";
  if (detail["kind"] === "set" && typeof detail["fp"] === "number" && typeof detail["fn"] === "number") {
    return detail["fp"] === 0 && detail["fn"] === 0 && detail["invalid"] === 0 ? "right" : "wrong";
  }
  const score = typeof detail["score"] === "number" ? detail["score"] : detail["MRA"];
  if (typeof score === "number") return score >= 1 ? "right" : score <= 0 ? "wrong" : "partial";
  return "scored";
}

/** What an outcome word means for colour, order and comparison. */
export type Verdict = "right" | "partial" | "wrong" | "unreadable" | "error" | "missing" | "scored";

/** The verdict of an outcome word: a route stage other than "success" is a failure (EgoPathBench Table S4). */
export function verdictOf(outcome: string): Verdict {
  if (outcome === "right" || outcome === "success") return "right";
  if (["partial", "unreadable", "error", "missing", "scored"].includes(outcome)) return outcome as Verdict;
  return "wrong"; // "wrong" and every failing stage: parse, invalid_id, wrong_start, illegal_edge, wrong_goal
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * The item's own score in [0, 1] for sorting, or null when it has none (error, missing,
 * unreadable): a sample score or MRA as the benchmark gives it, 1/0 for right/wrong, and for an
 * id set (EgoPathBench's traversability tasks) the F1 of its tp, fp and fn, ids that were not
 * displayed counted as false positives (1 when all are 0).
 */
export function itemScore(result: ItemResult): number | null {
  const verdict = verdictOf(outcomeOf(result));
  if (verdict === "error" || verdict === "missing" || verdict === "unreadable") return null;
  const detail = (result.detail ?? {}) as Record<string, unknown>;
  if (finite(detail["score"])) return detail["score"];
  if (finite(detail["MRA"])) return detail["MRA"];
  if (detail["kind"] === "set" && finite(detail["tp"]) && finite(detail["fp"]) && finite(detail["fn"])) {
    const invalid = finite(detail["invalid"]) ? detail["invalid"] : 0;
    const denominator = 2 * detail["tp"] + detail["fp"] + invalid + detail["fn"];
    return denominator === 0 ? 1 : (2 * detail["tp"]) / denominator;
  }
  if (verdict === "right") return 1;
  if (verdict === "wrong") return 0;
  return null;
}
