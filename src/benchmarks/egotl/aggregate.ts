/**
 * Aggregates as the paper's Table 3: accuracy per multiple-choice task, "Avg." = the mean of the
 * five multiple-choice accuracies (distance is reported apart, as MRA), with cluster-bootstrap
 * intervals whose clusters are the source videos.
 *
 * Circular evaluation: the rotated copies of one question (`<id>#r<k>`) form one unit that is
 * right only when every rotation is right. A rotation without a readable answer makes the unit
 * wrong; for action recognition the unit is excluded (paper reading) only when NO rotation had a
 * letter. A unit with an errored or absent rotation is not scored (counted as circular_incomplete).
 */
import type { ItemResult } from "../../core/benchmark.js";
import { tallyResults } from "../../core/results.js";
import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import type { EgoTLItem } from "./load.js";
import { CHOICE_TASKS, type EgoTLTask } from "./schema.js";
import { scoreAnswer, type ItemOutcome } from "./score.js";

export interface Unit {
  id: string;
  task: EgoTLTask;
  cluster: string;
  correct: boolean;
  excluded: boolean;
  unreadable: boolean;
  mra: number | null;
  mraStrict: number | null;
  zeroTruth: boolean;
}

export interface ChoiceTaskSummary {
  n: number;
  /** n minus the excluded items: the paper's denominator. */
  n_scored: number;
  correct: number;
  /** The paper's accuracy: unreadable action-recognition letters excluded. */
  accuracy: number | null;
  /** Every unreadable reply counted as wrong. */
  accuracy_counted: number | null;
  unreadable: number;
  excluded: number;
  ci: { accuracy?: Interval; accuracy_counted?: Interval };
}

export interface DistanceSummary {
  n: number;
  MRA: number | null;
  /** The same with the EgoTL paper's strict comparison (Eq. 4: < where VSI-Bench's code has <=). */
  MRA_strict: number | null;
  unreadable: number;
  /** Items whose truth is 0 m (scored by our rule: 1 when the reply says 0, else 0). */
  zero_truth: number;
  ci: { MRA?: Interval };
}

/** Questions as scored: single items, or the rotations of one question grouped (circular). */
export function toUnits(items: EgoTLItem[], results: ItemResult[]): { units: Unit[]; incomplete: number } {
  const byId = new Map(items.map((i) => [i.id, i]));
  const { scored } = tallyResults(results);
  const outcomes = new Map<string, ItemOutcome>();
  for (const result of scored) {
    const item = byId.get(result.id);
    if (item) outcomes.set(result.id, scoreAnswer(item, result.answer));
  }
  const groups = new Map<string, EgoTLItem[]>();
  for (const item of items) {
    const key = item.rotation?.base ?? item.id;
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  const units: Unit[] = [];
  let incomplete = 0;
  for (const [id, group] of groups) {
    const list = group.map((i) => outcomes.get(i.id));
    if (list.some((o) => o === undefined)) {
      // Plain items without a scored result (errors) are simply not scored; rotations make a unit incomplete.
      if (group.length > 1 || group[0]!.rotation) incomplete++;
      continue;
    }
    const os = list as ItemOutcome[];
    const first = group[0]!;
    const allExcluded = os.every((o) => o.excluded);
    units.push({
      id,
      task: first.task,
      cluster: first.cluster,
      correct: os.every((o) => o.correct && !o.excluded),
      excluded: allExcluded,
      unreadable: os.some((o) => o.unreadable),
      mra: first.task === "distance" ? os.reduce((s, o) => s + (o.mra ?? 0), 0) / os.length : null,
      mraStrict: first.task === "distance" ? os.reduce((s, o) => s + (o.mra_strict ?? 0), 0) / os.length : null,
      zeroTruth: first.truth.kind === "distance" && first.truth.metres === 0,
    });
  }
  return { units, incomplete };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

export function summarizeChoice(units: Unit[]): Omit<ChoiceTaskSummary, "ci"> {
  const n = units.length;
  const excluded = units.filter((u) => u.excluded).length;
  const correct = units.filter((u) => u.correct).length;
  return {
    n,
    n_scored: n - excluded,
    correct,
    accuracy: ratio(correct, n - excluded),
    accuracy_counted: ratio(correct, n),
    unreadable: units.filter((u) => u.unreadable).length,
    excluded,
  };
}

export function summarizeDistance(units: Unit[]): Omit<DistanceSummary, "ci"> {
  return {
    n: units.length,
    MRA: ratio(units.reduce((s, u) => s + (u.mra ?? 0), 0), units.length),
    MRA_strict: ratio(units.reduce((s, u) => s + (u.mraStrict ?? 0), 0), units.length),
    unreadable: units.filter((u) => u.unreadable).length,
    zero_truth: units.filter((u) => u.zeroTruth).length,
  };
}

/**
 * The tasks the headline averages: Avg. is the mean of the five multiple-choice accuracies (paper
 * Table 3), whichever were asked; a run of distance questions alone has the MRA as its headline.
 */
export function scoreTasks(asked: readonly string[]): readonly string[] {
  return asked.some((t) => (CHOICE_TASKS as readonly string[]).includes(t)) ? CHOICE_TASKS : asked.filter((t) => t === "distance");
}

/** Mean of the present tasks' values; null when any is null or none is present. */
function mean(values: Array<number | null>): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return (values as number[]).reduce((a, b) => a + b, 0) / values.length;
}

export interface EgoTLSummary {
  n: number;
  score: number | null;
  "Avg.": number | null;
  avg_counted: number | null;
  /** The multiple-choice tasks the Avg. is over (all five in a full run). */
  avg_tasks: EgoTLTask[];
  score_ci: Interval | null;
  tasks: Record<string, ChoiceTaskSummary | DistanceSummary>;
  excluded: number;
  circular_incomplete: number;
}

export function summarizeUnits(units: Unit[], tasks: EgoTLTask[], bootstrap: { resamples: number; seed: number }): Omit<EgoTLSummary, "circular_incomplete"> {
  const out: Record<string, ChoiceTaskSummary | DistanceSummary> = {};
  for (const task of tasks) {
    const group = units.filter((u) => u.task === task);
    out[task] = task === "distance" ? { ...summarizeDistance(group), ci: {} } : { ...summarizeChoice(group), ci: {} };
  }
  const avgTasks = CHOICE_TASKS.filter((t) => tasks.includes(t));
  const avg = mean(avgTasks.map((t) => (out[t] as ChoiceTaskSummary).accuracy));
  const avgCounted = mean(avgTasks.map((t) => (out[t] as ChoiceTaskSummary).accuracy_counted));
  let scoreCi: Interval | null = null;
  if (bootstrap.resamples > 0 && units.length > 0) {
    const intervals = bootstrapIntervals(units, avgTasks, bootstrap);
    for (const task of avgTasks) {
      const ci = (out[task] as ChoiceTaskSummary).ci;
      if (intervals[task]) ci.accuracy = intervals[task];
      if (intervals[`${task}:counted`]) ci.accuracy_counted = intervals[`${task}:counted`];
    }
    if (out["distance"] && intervals["MRA"]) (out["distance"] as DistanceSummary).ci.MRA = intervals["MRA"];
    scoreCi = (avgTasks.length > 0 ? intervals["Avg."] : intervals["MRA"]) ?? null;
  }
  const distance = out["distance"] as DistanceSummary | undefined;
  return {
    n: units.length,
    score: avgTasks.length > 0 ? avg : (distance?.MRA ?? null),
    "Avg.": avg,
    avg_counted: avgCounted,
    avg_tasks: avgTasks,
    score_ci: scoreCi,
    tasks: out,
    excluded: units.filter((u) => u.excluded).length,
  };
}

/** Cluster bootstrap over source videos: per task accuracy (both readings), Avg., and MRA. */
function bootstrapIntervals(units: Unit[], avgTasks: EgoTLTask[], options: { resamples: number; seed: number }): Record<string, Interval> {
  const width = CHOICE_TASKS.length * 3 + 2;
  const clusters = new Map<string, Float64Array>();
  for (const u of units) {
    const v = clusters.get(u.cluster) ?? new Float64Array(width);
    clusters.set(u.cluster, v);
    if (u.task === "distance") {
      v[width - 2]! += 1;
      v[width - 1]! += u.mra ?? 0;
      continue;
    }
    const k = (CHOICE_TASKS as readonly string[]).indexOf(u.task) * 3;
    v[k]! += u.excluded ? 0 : 1;
    v[k + 1]! += u.correct ? 1 : 0;
    v[k + 2]! += 1;
  }
  const present = new Set(units.map((u) => u.task));
  return clusterBootstrap([...clusters.values()], (sum) => {
    const stats: Record<string, number> = {};
    CHOICE_TASKS.forEach((task, i) => {
      if (!present.has(task)) return;
      stats[task] = sum[3 * i]! > 0 ? sum[3 * i + 1]! / sum[3 * i]! : NaN;
      stats[`${task}:counted`] = sum[3 * i + 2]! > 0 ? sum[3 * i + 1]! / sum[3 * i + 2]! : NaN;
    });
    if (avgTasks.length > 0) {
      stats["Avg."] = avgTasks.reduce((s, t) => s + (stats[t] ?? NaN), 0) / avgTasks.length;
    }
    if (present.has("distance")) stats["MRA"] = sum[width - 2]! > 0 ? sum[width - 1]! / sum[width - 2]! : NaN;
    return stats;
  }, options);
}
