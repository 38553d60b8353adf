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
