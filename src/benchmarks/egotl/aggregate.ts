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
import { CHOICE_TASKS, DIRECTION_LABELS, type DirectionLabel, type EgoTLTask } from "./schema.js";
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
  /** Direction and distance (never rotated): what was read (a label, metres; null when unreadable) and the truth. */
  predicted?: string | number | null;
  truth?: string | number;
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

/** One direction label's questions (by truth) and how often it was answered (by reading). */
export interface DirectionLabelSummary {
  n: number;
  correct: number;
  accuracy: number | null;
  /** Replies read as this label, and their share of all direction questions. */
  predicted: number;
  predicted_share: number | null;
}

/** H.2.5: accuracy per direction, and the share of each predicted label; the rest gave no label (unreadable or missing). */
export interface DirectionBreakdown {
  per_direction: Record<DirectionLabel, DirectionLabelSummary>;
  no_label_share: number | null;
}

/** Mean and median (numpy's: the middle value, or the mean of the two middle ones) of n values. */
export interface ErrorStats {
  n: number;
  mean: number | null;
  median: number | null;
}

export interface DistanceSummary {
  n: number;
  MRA: number | null;
  /** The same with the EgoTL paper's strict comparison (Eq. 4: < where VSI-Bench's code has <=). */
  MRA_strict: number | null;
  unreadable: number;
  /** Items whose truth is 0 m (scored by our rule: 1 when the reply says 0, else 0). */
  zero_truth: number;
  /** H.2.6: |pred - gt| in metres over the readable replies. */
  abs_error: ErrorStats;
  /** H.2.6: |pred - gt| / gt over the readable replies with gt > 0 (gt = 0 has no relative error). */
  rel_error: ErrorStats;
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
      ...(os.length === 1 && first.truth.kind !== "option" ? { predicted: os[0]!.predicted, truth: os[0]!.truth } : {}),
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
  const read = units.flatMap((u) => (typeof u.predicted === "number" && typeof u.truth === "number" ? [{ pred: u.predicted, gt: u.truth }] : []));
  return {
    n: units.length,
    MRA: ratio(units.reduce((s, u) => s + (u.mra ?? 0), 0), units.length),
    MRA_strict: ratio(units.reduce((s, u) => s + (u.mraStrict ?? 0), 0), units.length),
    unreadable: units.filter((u) => u.unreadable).length,
    zero_truth: units.filter((u) => u.zeroTruth).length,
    abs_error: errorStats(read.map(({ pred, gt }) => Math.abs(pred - gt))),
    rel_error: errorStats(read.filter(({ gt }) => gt > 0).map(({ pred, gt }) => Math.abs(pred - gt) / gt)),
  };
}

export function errorStats(values: number[]): ErrorStats {
  if (values.length === 0) return { n: 0, mean: null, median: null };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { n: values.length, mean: values.reduce((a, b) => a + b, 0) / values.length, median };
}

/** Per truth label: questions, right answers, accuracy; per read label: how many replies and their share of all questions. */
export function summarizeDirection(units: Unit[]): DirectionBreakdown {
  const per = Object.fromEntries(DIRECTION_LABELS.map((label) => {
    const asked = units.filter((u) => u.truth === label);
    const correct = asked.filter((u) => u.correct).length;
    const predicted = units.filter((u) => u.predicted === label).length;
    return [label, { n: asked.length, correct, accuracy: ratio(correct, asked.length), predicted, predicted_share: ratio(predicted, units.length) }];
  })) as Record<DirectionLabel, DirectionLabelSummary>;
  return { per_direction: per, no_label_share: ratio(units.filter((u) => u.predicted === null || u.predicted === undefined).length, units.length) };
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
    out[task] = task === "distance" ? { ...summarizeDistance(group), ci: {} } : { ...summarizeChoice(group), ...(task === "direction" ? summarizeDirection(group) : {}), ci: {} };
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
