/**
 * Paired comparison of two runs of one benchmark on the items both answered: how many each got
 * right alone, and McNemar's exact test of the difference (src/stats/mcnemar.ts).
 */
import { mcnemarExact } from "../stats/mcnemar.js";
import type { Verdict } from "./outcome.js";

/** The fields of a gallery entry a comparison reads. */
export interface Compared {
  run: number;
  id: string;
  verdict: Verdict;
}

export interface PairCounts {
  a: number;
  b: number;
  bothRight: number;
  onlyA: number;
  onlyB: number;
  bothWrong: number;
  /** Items of both runs left out: a request failed or a prediction is missing in either run. */
  notCompared: number;
  /** McNemar's exact two-sided p on onlyA and onlyB. */
  p: number;
}

/** Scored items count; "right" is right, everything else scored (wrong, partial, unreadable, no verdict) is not right. */
const compared = (verdict: Verdict) => verdict !== "error" && verdict !== "missing";

export function pairCounts(entries: Compared[], a: number, b: number): PairCounts {
  const right = new Map<string, Verdict>();
  for (const entry of entries) if (entry.run === b) right.set(entry.id, entry.verdict);
  const counts = { a, b, bothRight: 0, onlyA: 0, onlyB: 0, bothWrong: 0, notCompared: 0 };
  for (const entry of entries) {
    if (entry.run !== a || !right.has(entry.id)) continue;
    const other = right.get(entry.id)!;
    if (!compared(entry.verdict) || !compared(other)) counts.notCompared++;
    else if (entry.verdict === "right" && other === "right") counts.bothRight++;
    else if (entry.verdict === "right") counts.onlyA++;
    else if (other === "right") counts.onlyB++;
    else counts.bothWrong++;
  }
  return { ...counts, p: mcnemarExact(counts.onlyA, counts.onlyB).p };
}

/** Counts for every pair a < b of item runs of the same benchmark, keyed "a-b" (the viewer swaps A and B for b < a). */
export function comparisonTable(runs: Array<{ benchmark: string; kind?: string }>, entries: Compared[]): Record<string, PairCounts> {
  const out: Record<string, PairCounts> = {};
  for (let a = 0; a < runs.length; a++) {
    for (let b = a + 1; b < runs.length; b++) {
      if (runs[a]!.benchmark !== runs[b]!.benchmark || runs[a]!.kind === "navigation" || runs[b]!.kind === "navigation") continue;
      out[`${a}-${b}`] = pairCounts(entries, a, b);
    }
  }
  return out;
}
