/**
 * Aggregating goal-identification outcomes.
 * - Per task type: SR (Rid-SR for Count/Order/Distance/Orientation, Oid-SR for Instance) over the
 *   scored items (unreadable and missing replies count as failures), error taxonomy counts, and
 *   the mean of the per-item exact chance levels.
 * - Averages, each given two ways:
 *     mean_of_types  the unweighted mean of the per-type values (types present in the run);
 *     pooled         over all items together (types weighted by their item counts).
 *   "Rid-SR" averages the four R2O types, "Oid-SR" is Instance, "average" all five.
 *   The headline `score` is average.mean_of_types.
 * - Chance levels are averaged exactly like the success rates, so they sit side by side.
 * - 95% intervals: cluster bootstrap over scenes (houses).
 */
import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import { R2O_TASKS, TASK_CODES, type TaskCode } from "./schema.js";
import type { GoalOutcome } from "./score.js";
import { OBJECT_ERRORS, R2O_ERRORS, type ErrorCategory } from "./taxonomy.js";
import type { VcnItem } from "./types.js";

export interface ScoredGoal {
  item: VcnItem;
  outcome: GoalOutcome;
}

export interface Averages {
  mean_of_types: number | null;
  pooled: number | null;
  n: number;
}

export interface TaskSummary {
  n: number;
  metric: "Rid-SR" | "Oid-SR";
  SR: number | null;
  chance: { complete: number | null; category: number | null };
  /** Expectations over the frames the prompts showed (only when some prompt showed fewer than the tour). */
  chance_shown?: { complete: number | null; category: number | null };
  errors: Partial<Record<ErrorCategory, number>>;
  ci?: { SR?: Interval };
}

export interface GroupedAverages {
  "Rid-SR": Averages;
  "Oid-SR": Averages;
  average: Averages;
}

const mean = (values: number[]): number | null => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** Mean-of-types and pooled averages of a per-item value over a group of task types. */
export function averages(byTask: Map<TaskCode, number[]>, group: readonly TaskCode[]): Averages {
  const perType = group.map((t) => byTask.get(t) ?? []).filter((v) => v.length > 0);
  const all = perType.flat();
  return { mean_of_types: mean(perType.map((v) => mean(v)!)), pooled: mean(all), n: all.length };
}

/** The types the headline (average.mean_of_types) averages: all five, whichever were asked. */
export function scoreTasks(_asked: readonly string[]): readonly string[] {
  return TASK_CODES;
}

function grouped(byTask: Map<TaskCode, number[]>): GroupedAverages {
  return { "Rid-SR": averages(byTask, R2O_TASKS), "Oid-SR": averages(byTask, ["instance"]), average: averages(byTask, TASK_CODES) };
}

export interface GoalSummary {
  tasks: Record<string, TaskSummary>;
  success: GroupedAverages;
  chance: { complete: GroupedAverages; category: GroupedAverages; complete_shown?: GroupedAverages; category_shown?: GroupedAverages };
  errors: { r2o: Record<string, number>; object: Record<string, number> };
  ci: Record<string, Interval>;
  counterfactual?: { n: number; chose_original_target: number; chose_original_rate: number | null; target_unchanged: number };
}

export function summarizeGoals(scored: ScoredGoal[], tasks: readonly TaskCode[], bootstrap: { resamples: number; seed: number }): GoalSummary {
  const collect = (pick: (s: ScoredGoal) => number) => {
    const map = new Map<TaskCode, number[]>();
    for (const s of scored) (map.get(s.item.task) ?? map.set(s.item.task, []).get(s.item.task)!).push(pick(s));
    return map;
  };
  const success = collect((s) => (s.outcome.success ? 1 : 0));
  const complete = collect((s) => s.outcome.chance.complete);
  const category = collect((s) => s.outcome.chance.category);
  const anyShown = scored.some((s) => s.outcome.chance_shown);
  const completeShown = collect((s) => (s.outcome.chance_shown ?? s.outcome.chance).complete);
  const categoryShown = collect((s) => (s.outcome.chance_shown ?? s.outcome.chance).category);

  const taskTable: Record<string, TaskSummary> = {};
  for (const task of tasks) {
    const group = scored.filter((s) => s.item.task === task);
    const r2o = R2O_TASKS.includes(task);
    const errors: Partial<Record<ErrorCategory, number>> = {};
    for (const category of [...(r2o ? R2O_ERRORS : OBJECT_ERRORS), "no-answer" as const]) errors[category] = group.filter((s) => s.outcome.error === category).length;
    taskTable[task] = {
      n: group.length,
      metric: r2o ? "Rid-SR" : "Oid-SR",
      SR: mean(success.get(task) ?? []),
      chance: { complete: mean(complete.get(task) ?? []), category: mean(category.get(task) ?? []) },
      ...(anyShown ? { chance_shown: { complete: mean(completeShown.get(task) ?? []), category: mean(categoryShown.get(task) ?? []) } } : {}),
      errors,
    };
  }
  const countErrors = (group: ScoredGoal[], categories: readonly string[]) =>
    Object.fromEntries([...categories, "no-answer"].map((c) => [c, group.filter((s) => s.outcome.error === c).length]));
  const summary: GoalSummary = {
    tasks: taskTable,
    success: grouped(success),
    chance: {
      complete: grouped(complete),
      category: grouped(category),
      ...(anyShown ? { complete_shown: grouped(completeShown), category_shown: grouped(categoryShown) } : {}),
    },
    errors: {
      r2o: countErrors(scored.filter((s) => s.item.target.kind === "room"), R2O_ERRORS),
      object: countErrors(scored.filter((s) => s.item.target.kind === "object"), OBJECT_ERRORS),
    },
    ci: {},
  };
  const cf = scored.filter((s) => s.outcome.counterfactual);
  if (cf.length > 0) {
    const chose = cf.filter((s) => s.outcome.counterfactual!.chose_original).length;
    summary.counterfactual = {
      n: cf.length,
      chose_original_target: chose,
      chose_original_rate: chose / cf.length,
      target_unchanged: cf.filter((s) => !s.outcome.counterfactual!.target_changed).length,
    };
  }
  if (bootstrap.resamples > 0 && scored.length > 0) {
    summary.ci = bootstrapIntervals(scored, tasks, bootstrap);
    for (const task of tasks) if (summary.ci[task]) taskTable[task]!.ci = { SR: summary.ci[task] };
  }
  return summary;
}

/** Cluster bootstrap over scenes: per-type SR and the four averages. */
function bootstrapIntervals(scored: ScoredGoal[], tasks: readonly TaskCode[], options: { resamples: number; seed: number }): Record<string, Interval> {
  const width = TASK_CODES.length * 2;
  const clusters = new Map<string, Float64Array>();
  for (const s of scored) {
    const v = clusters.get(s.item.cluster) ?? new Float64Array(width);
    clusters.set(s.item.cluster, v);
    const k = TASK_CODES.indexOf(s.item.task) * 2;
    v[k]! += 1;
    v[k + 1]! += s.outcome.success ? 1 : 0;
  }
  const present = TASK_CODES.filter((t) => tasks.includes(t));
  return clusterBootstrap([...clusters.values()], (sum) => {
    const out: Record<string, number> = {};
    const rate = (t: TaskCode) => {
      const k = TASK_CODES.indexOf(t) * 2;
      return sum[k]! > 0 ? sum[k + 1]! / sum[k]! : NaN;
    };
    const group = (name: string, types: readonly TaskCode[]) => {
      const rates = types.filter((t) => present.includes(t)).map(rate).filter((r) => !Number.isNaN(r));
      let n = 0;
      let c = 0;
      for (const t of types) {
        const k = TASK_CODES.indexOf(t) * 2;
        n += sum[k]!;
        c += sum[k + 1]!;
      }
      out[`${name}.mean_of_types`] = rates.length > 0 ? rates.reduce((a, b) => a + b, 0) / rates.length : NaN;
      out[`${name}.pooled`] = n > 0 ? c / n : NaN;
    };
    for (const t of present) out[t] = rate(t);
    group("Rid-SR", R2O_TASKS);
    group("average", TASK_CODES);
    return out;
  }, options);
}
