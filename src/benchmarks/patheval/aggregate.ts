import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import { DESCRIPTORS, SCENARIOS, type Descriptors } from "./scenarios.js";
import type { ChoiceOutcome } from "./score.js";
import type { Dim, PathEvalItem } from "./types.js";

export interface ScoredPair {
  item: PathEvalItem;
  outcome: ChoiceOutcome;
}

interface Tally {
  n: number;
  correct: number;
}

const accuracy = (t: Tally) => (t.n > 0 ? t.correct / t.n : 0);

function tally(pairs: ScoredPair[], pick: (p: ScoredPair) => boolean = (p) => p.outcome.correct): Tally {
  return { n: pairs.length, correct: pairs.filter(pick).length };
}

export interface DimSummary {
  n: number;
  accuracy: number;
  official_accuracy: number;
  parse_failures: number;
  /** Table 2: how often the left (first-shown) and the right path were chosen. */
  chose_first: number;
  chose_second: number;
  ci: { accuracy?: Interval };
}

/** The dimensions (or probes) the overall accuracy pools: every one asked. */
export function scoreTasks(asked: readonly string[]): readonly string[] {
  return asked;
}

/** Accuracy per dimension, per scenario (Fig. 3), per deciding descriptor, position counts (Table 2). */
export function summarizePairs(pairs: ScoredPair[], dims: Dim[], bootstrap: { resamples: number; seed: number }) {
  const byDim: Record<string, DimSummary> = {};
  for (const dim of dims) {
    const group = pairs.filter((p) => p.item.task === dim);
    byDim[dim] = {
      n: group.length,
      accuracy: accuracy(tally(group)),
      official_accuracy: accuracy(tally(group, (p) => p.outcome.officialCorrect)),
      parse_failures: group.filter((p) => p.outcome.choice === null).length,
      chose_first: group.filter((p) => p.outcome.choseLeft === true).length,
      chose_second: group.filter((p) => p.outcome.choseLeft === false).length,
      ci: {},
    };
  }
  const perScenario = SCENARIOS.flatMap((s) => {
    const group = pairs.filter((p) => p.item.scenarioId === s.id);
    return group.length === 0 ? [] : [{ id: s.id, agent: s.agent, n: group.length, accuracy: accuracy(tally(group)) }];
  });
  const perDescriptor = DESCRIPTORS.flatMap((d) => {
    const group = pairs.filter((p) => p.outcome.deciding.includes(d));
    return group.length === 0 ? [] : [{ descriptor: d, n: group.length, accuracy: accuracy(tally(group)) }];
  });
  const overall = tally(pairs);
  let overallCi: Interval | null = null;
  if (bootstrap.resamples > 0 && pairs.length > 0) {
    const intervals = bootstrapAccuracy(pairs, dims, bootstrap);
    for (const dim of dims) if (intervals[dim]) byDim[dim]!.ci.accuracy = intervals[dim];
    overallCi = intervals["all"] ?? null;
  }
  return { accuracy: pairs.length > 0 ? accuracy(overall) : null, accuracy_ci: overallCi, byDim, perScenario, perDescriptor };
}

/** Cluster bootstrap over environments (records without one are their own cluster). */
function bootstrapAccuracy(pairs: ScoredPair[], dims: Dim[], options: { resamples: number; seed: number }): Record<string, Interval> {
  const clusters = new Map<string, Float64Array>();
  for (const p of pairs) {
    const v = clusters.get(p.item.cluster) ?? new Float64Array(dims.length * 2);
    clusters.set(p.item.cluster, v);
    const k = dims.indexOf(p.item.task) * 2;
    v[k]! += 1;
    v[k + 1]! += p.outcome.correct ? 1 : 0;
  }
  return clusterBootstrap([...clusters.values()], (sum) => {
    const out: Record<string, number> = {};
    let n = 0, c = 0;
    dims.forEach((dim, i) => {
      out[dim] = sum[2 * i]! > 0 ? sum[2 * i + 1]! / sum[2 * i]! : NaN;
      n += sum[2 * i]!;
      c += sum[2 * i + 1]!;
    });
    out["all"] = n > 0 ? c / n : NaN;
    return out;
  }, options);
}

/**
 * Paper Table 10's quantity for the pairs a run asked: per dimension, the mean over its records of
 * |Path 1 - Path 2| for each descriptor (no records: null values).
 */
export function meanDifferences(items: readonly PathEvalItem[], dims: readonly Dim[]): Record<string, { n: number; mean: Record<keyof Descriptors, number | null> }> {
  return Object.fromEntries(dims.map((dim) => {
    const group = items.filter((i) => i.task === dim);
    const mean = Object.fromEntries(DESCRIPTORS.map((d) => [d, group.length === 0 ? null
      : group.reduce((s, i) => s + Math.abs(i.metrics["Path 1"][d] - i.metrics["Path 2"][d]), 0) / group.length])) as Record<keyof Descriptors, number | null>;
    return [dim, { n: group.length, mean }];
  }));
}
