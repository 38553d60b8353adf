import type { ItemResult } from "../../core/benchmark.js";
import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import { BY_GROUP_ORDER, CATEGORIES, LEAF_TASKS, type LeafTask } from "./taxonomy.js";

/** What aggregation needs from one scored sample. */
export interface ScoredSample {
  /** The sample's id (its ground-truth file path); absent in hand-made samples. */
  id?: string;
  leaf: LeafTask;
  score: number;
  invalid: boolean;
  cluster: string;
  /** Ground-truth instance count, for the counting analysis (Fig. 4). */
  gtCount?: number | null;
  /** The count component, when the task has one. */
  countScore?: number;
  /** The sample's precise_count label (tasks with a count). */
  preciseCount?: boolean;
  /** The predicted count equals the ground truth (tasks with a count; an unreadable count is not). */
  countExact?: boolean;
}

export interface Bucket {
  total_processed: number;
  num_invalid_response: number;
  mean_score: number;
}

/** The official summary's bucket: plain mean over the samples in it. */
function bucket(samples: ScoredSample[]): Bucket {
  const n = samples.length;
  return {
    total_processed: n,
    num_invalid_response: samples.filter((s) => s.invalid).length,
    mean_score: n > 0 ? samples.reduce((sum, s) => sum + s.score, 0) / n : 0,
  };
}

/**
 * The task types the overall mean pools: every type the data holds (the official summary pools
 * the samples that have a reply, so a type without any drops out of it unseen).
 */
export function scoreTasks(asked: readonly string[]): readonly string[] {
  return asked;
}

/** Overall, by category, by task type (23) and by group (9), in the official order and key names. */
export function summarizeSamples(samples: ScoredSample[]) {
  const by = <K extends string>(keys: K[], pick: (s: ScoredSample) => K) =>
    Object.fromEntries(keys.flatMap((key) => {
      const group = samples.filter((s) => pick(s) === key);
      return group.length > 0 ? [[key, bucket(group)]] : [];
    })) as Record<string, Bucket>;
  const n = samples.length;
  return {
    overall: {
      total_processed: n,
      num_invalid_response: samples.filter((s) => s.invalid).length,
      average_score: n > 0 ? samples.reduce((sum, s) => sum + s.score, 0) / n : 0,
    },
    by_category: by(CATEGORIES, (s) => s.leaf.category),
    by_type: by(LEAF_TASKS.map((t) => t.byType), (s) => s.leaf.byType),
    by_group: by(BY_GROUP_ORDER, (s) => s.leaf.byGroup),
  };
}

/** Counting score against the number of ground-truth targets (paper Fig. 4): 0, 1, 2, 3, 4, 5+. */
export function countingByTargets(samples: ScoredSample[]) {
  const labelOf = (k: number) => (k >= 5 ? "5+" : String(k));
  const rows = new Map<string, { n: number; sum: number }>();
  for (const s of samples) {
    if (s.countScore === undefined || s.gtCount === undefined || s.gtCount === null) continue;
    const key = labelOf(s.gtCount);
    const row = rows.get(key) ?? { n: 0, sum: 0 };
    row.n++;
    row.sum += s.countScore;
    rows.set(key, row);
  }
  return ["0", "1", "2", "3", "4", "5+"].flatMap((targets) => {
    const row = rows.get(targets);
    return row ? [{ targets, n: row.n, count_score: row.sum / row.n }] : [];
  });
}

/** Scene-cluster bootstrap of the overall mean and each group's mean. */
export function bootstrapGroups(samples: ScoredSample[], options: { resamples: number; seed: number }): Record<string, Interval> {
  const groups = BY_GROUP_ORDER;
  const width = 2 * (groups.length + 1);
  const clusters = new Map<string, Float64Array>();
  for (const s of samples) {
    const v = clusters.get(s.cluster) ?? new Float64Array(width);
    clusters.set(s.cluster, v);
    const g = groups.indexOf(s.leaf.byGroup);
    v[0]! += 1;
    v[1]! += s.score;
    v[2 + 2 * g]! += 1;
    v[3 + 2 * g]! += s.score;
  }
  return clusterBootstrap([...clusters.values()], (sum) => {
    const out: Record<string, number> = { overall: sum[0]! > 0 ? sum[1]! / sum[0]! : NaN };
    groups.forEach((g, i) => (out[g] = sum[2 + 2 * i]! > 0 ? sum[3 + 2 * i]! / sum[2 + 2 * i]! : NaN));
    return out;
  }, options);
}

/** Fig. 4's panels: Target Localization and Contact Relationship. */
export const COUNT_PANELS = ["TargetLocalization", "ContactRelationship"] as const;
export type CountPanel = (typeof COUNT_PANELS)[number];

export function countPanelOf(leaf: LeafTask): CountPanel | undefined {
  return leaf.category === "TargetLocalization" ? "TargetLocalization" : leaf.group === "ContactRelationship" ? "ContactRelationship" : undefined;
}

/**
 * Fig. 4 as exact counting accuracy: on the samples whose count must be precise, the share whose
 * predicted count equals the ground truth, by number of targets (0 .. 4, 5+), TL and CR apart.
 */
export function countAccuracyByTargets(samples: ScoredSample[]): Record<CountPanel, Array<{ targets: string; n: number; correct: number; accuracy: number }>> {
  const labelOf = (k: number) => (k >= 5 ? "5+" : String(k));
  const out = {} as Record<CountPanel, Array<{ targets: string; n: number; correct: number; accuracy: number }>>;
  for (const panel of COUNT_PANELS) {
    const rows = new Map<string, { n: number; correct: number }>();
    for (const s of samples) {
      if (countPanelOf(s.leaf) !== panel || !s.preciseCount || s.countExact === undefined || s.gtCount === undefined || s.gtCount === null) continue;
      const row = rows.get(labelOf(s.gtCount)) ?? { n: 0, correct: 0 };
      row.n++;
      if (s.countExact) row.correct++;
      rows.set(labelOf(s.gtCount), row);
    }
    out[panel] = ["0", "1", "2", "3", "4", "5+"].flatMap((targets) => {
      const row = rows.get(targets);
      return row ? [{ targets, n: row.n, correct: row.correct, accuracy: row.correct / row.n }] : [];
    });
  }
  return out;
}

/** Columns of scores.json's per_item table. */
export const PER_ITEM_COLUMNS = ["id", "group", "status", "score", "count_score", "count_exact", "gt_count", "precise_count"] as const;
export type PerItemStatus = "ok" | "invalid" | "error" | "missing";
export type PerItemRow = [id: string, group: number, status: PerItemStatus, score: number | null, countScore: number | null, countExact: boolean | null, gtCount: number | null, preciseCount: boolean | null];

/**
 * One compact row per sample asked (group = index in BY_GROUP_ORDER), so `report` can compare runs
 * on the samples every run scored (Tables 4 and 5). Errors and missing predictions keep their row,
 * without a score; `truthOf` gives their ground-truth count and precise flag (tasks with a count).
 */
export function perItemTable(samples: ScoredSample[], results: ItemResult[], truthOf: (id: string) => { gtCount: number | null; preciseCount: boolean | null } = () => ({ gtCount: null, preciseCount: null })): { columns: readonly string[]; rows: PerItemRow[] } {
  const byId = new Map(samples.filter((s) => s.id !== undefined).map((s) => [s.id!, s]));
  const groupOf = (task: string) => BY_GROUP_ORDER.indexOf(LEAF_TASKS.find((t) => t.byType === task)?.byGroup ?? "");
  const rows = results.map((r): PerItemRow => {
    const s = byId.get(r.id);
    const group = s ? BY_GROUP_ORDER.indexOf(s.leaf.byGroup) : groupOf(r.task);
    if (!s) {
      const truth = truthOf(r.id);
      return [r.id, group, r.status === "error" ? "error" : "missing", null, null, null, truth.gtCount, truth.preciseCount];
    }
    return [r.id, group, s.invalid ? "invalid" : "ok", s.score, s.countScore ?? null, s.countExact ?? null, s.gtCount ?? null, s.preciseCount ?? null];
  });
  return { columns: PER_ITEM_COLUMNS, rows };
}
