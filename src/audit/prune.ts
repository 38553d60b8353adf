/**
 * Iterative Bias Pruning (Brown et al. 2025, §4): remove the items the blind forest is most sure
 * of (highest s(x)) in small steps, re-running the forest and the blind rules after each step,
 * until every task's best blind score (rules and TsT) is within `target` of its chance level or
 * the task's removal budget is spent. Tasks without an exact chance level are left whole. Named
 * tasks may also be held to their picture cues (`cueTasks`), and items may go in groups.
 */
import type { Benchmark, BenchItem } from "../core/benchmark.js";
import { auditUnits, type AuditOptions, type AuditResult, type TaskAudit } from "./audit.js";
import type { AuditUnit } from "./types.js";

export interface PruneOptions extends AuditOptions {
  /** Largest allowed gap between the best blind score and chance (a fraction, e.g. 0.05). */
  target: number;
  /** Largest share of a task's items that may be removed. */
  budget: number;
  /** Share of a task's items removed per step. */
  step: number;
  /**
   * Items that stand or fall together (a benchmark's bundles: one view's or one route's questions
   * across tasks): an item goes with its whole group, and only when every task the group touches
   * has the budget for it.
   */
  group?: (id: string) => string;
  /**
   * Tasks whose picture cues must come within `target` too: their gap is the larger of the blind
   * gap and the cue gap (best cue rule or cue forest), and while the cue gap is the larger their
   * items go in order of the cue forest's confidence. Needs units with cues.
   */
  cueTasks?: readonly string[];
}

export interface TaskPruning {
  n_before: number;
  n_after: number;
  /** The gap pruning aims at: blind, or for a cue task the larger of blind and cue gaps. */
  gap_before: number | null;
  gap_after: number | null;
  cues: boolean;
  /** reached: within target; budget: the budget ran out first; no-chance: no exact chance to aim at. */
  outcome: "reached" | "budget" | "no-chance";
}

export interface PruneResult {
  before: AuditResult;
  after: AuditResult;
  kept: Set<string>;
  /** Removed ids in the order they were removed, each with the confidence it was ranked by (s(x), or the cue forest's in a cue step). */
  removed: Array<{ id: string; task: string; step: number; s: number }>;
  tasks: Record<string, TaskPruning>;
  steps: number;
}

/** `audit --prune`'s budget and step (and generation's): at most half a task, 5% of it a step. */
export const DEFAULT_PRUNE = { budget: 0.5, step: 0.05 };

/** How far a task's best blind answer (rule or TsT) is above chance; null without chance. */
export function blindGap(task: TaskAudit): number | null {
  if (task.chance === null) return null;
  const scores = [task.blind_best?.score, task.tst?.score].filter((v): v is number => typeof v === "number");
  return scores.length === 0 ? null : Math.max(...scores) - task.chance;
}

/** How far a task's best cue answer (cue rule or cue forest) is above chance; null without chance or cues. */
export function cueGap(task: TaskAudit): number | null {
  if (task.chance === null || !task.cues) return null;
  const scores = [task.cues.best?.score, task.cues.forest?.score].filter((v): v is number => typeof v === "number");
  return scores.length === 0 ? null : Math.max(...scores) - task.chance;
}

/** The gap pruning aims at, and whether the cues carry it. */
function targetGap(task: string, t: TaskAudit, cueTasks: readonly string[]): { gap: number | null; byCues: boolean } {
  const blind = blindGap(t);
  const cue = cueTasks.includes(task) ? cueGap(t) : null;
  if (cue === null || (blind !== null && blind >= cue)) return { gap: blind, byCues: false };
  return { gap: cue, byCues: true };
}

export function pruneIteratively<I extends BenchItem>(benchmark: Benchmark<I>, items: readonly I[], units: readonly AuditUnit[], options: PruneOptions): PruneResult {
  const before = auditUnits(benchmark, items, units, options);
  const sizes = new Map(Object.entries(before.document.tasks).map(([task, t]) => [task, t.n]));
  const kept = new Set(items.map((i) => i.id));
  const removed: PruneResult["removed"] = [];
  const spent = new Map<string, number>();
  const stuck = new Set<string>();
  let current = before;
  let steps = 0;
  const taskOf = new Map(before.items.map((i) => [i.id, i.task]));
  const groups = new Map<string, string[]>();
  const groupOf = options.group;
  if (groupOf) {
    for (const item of items) {
      const members = groups.get(groupOf(item.id));
      if (members) members.push(item.id);
      else groups.set(groupOf(item.id), [item.id]);
    }
  }
  let byId = new Map(before.items.map((i) => [i.id, i]));
  const cueTasks = options.cueTasks ?? [];
  for (;;) {
    const over = Object.entries(current.document.tasks).filter(([task, t]) => {
      const { gap } = targetGap(task, t, cueTasks);
      return gap !== null && gap > options.target && !stuck.has(task) && (spent.get(task) ?? 0) < Math.floor(options.budget * sizes.get(task)!);
    });
    if (over.length === 0) break;
    steps++;
    for (const [task, t] of over) {
      const confidence = targetGap(task, t, cueTasks).byCues ? (i: { s: number; s_cues?: number }) => i.s_cues ?? 0 : (i: { s: number }) => i.s;
      const n = sizes.get(task)!;
      const allowed = Math.floor(options.budget * n) - (spent.get(task) ?? 0);
      const count = Math.min(allowed, Math.max(1, Math.ceil(options.step * n)));
      // Highest s first; ties by id so the order is the same on every machine.
      const ranked = current.items.filter((i) => i.task === task && kept.has(i.id)).sort((a, b) => confidence(b) - confidence(a) || (a.id < b.id ? -1 : 1));
      let taken = 0;
      for (const item of ranked) {
        if (taken >= count) break;
        const members = groupOf ? (groups.get(groupOf(item.id)) ?? [item.id]).filter((id) => kept.has(id)) : [item.id];
        const cost = new Map<string, number>();
        for (const id of members) cost.set(taskOf.get(id)!, (cost.get(taskOf.get(id)!) ?? 0) + 1);
        if ([...cost].some(([t, c]) => (spent.get(t) ?? 0) + c > Math.floor(options.budget * sizes.get(t)!))) continue;
        for (const id of members) {
          kept.delete(id);
          removed.push({ id, task: taskOf.get(id)!, step: steps, s: confidence(byId.get(id)!) });
        }
        for (const [t, c] of cost) spent.set(t, (spent.get(t) ?? 0) + c);
        taken++;
      }
      // A task none of whose groups fits the budgets any more is left as it is.
      if (taken === 0) stuck.add(task);
    }
    // The steps need the scores only; the intervals are drawn once, for the kept set.
    current = auditUnits(benchmark, items.filter((i) => kept.has(i.id)), units, { ...options, bootstrap: 0 });
    byId = new Map(current.items.map((i) => [i.id, i]));
  }
  if (steps > 0 && options.bootstrap > 0) current = auditUnits(benchmark, items.filter((i) => kept.has(i.id)), units, options);
  const tasks: Record<string, TaskPruning> = {};
  for (const [task, t] of Object.entries(before.document.tasks)) {
    const after = current.document.tasks[task];
    const gapAfter = after ? targetGap(task, after, cueTasks).gap : null;
    tasks[task] = {
      n_before: t.n,
      n_after: after?.n ?? 0,
      gap_before: targetGap(task, t, cueTasks).gap,
      gap_after: gapAfter,
      cues: cueTasks.includes(task) && t.cues !== null,
      outcome: t.chance === null ? "no-chance" : gapAfter !== null && gapAfter <= options.target ? "reached" : "budget",
    };
  }
  return { before, after: current, kept, removed, tasks, steps };
}
