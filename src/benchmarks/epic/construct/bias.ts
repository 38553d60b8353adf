/**
 * Bias pruning against constant replies, the last step of generation (issue 29; Brown et al. 2025
 * §4's iterative bias pruning with the blind model `audit` gates EPIC on): a blind model answers an
 * EPIC sample with a reply that does not depend on the picture, one of the audit's menu (no
 * target, a half, a third, a quadrant, the centre, the whole picture with count 1 or 2, feasible or
 * not, ten fixed routes; audit-menu.ts). Each sample records the credit every menu reply earns
 * from the scorer. While a task's best menu reply earns more than `target` on average, the sample
 * that reply earns most on leaves the set, until the task is within the target or its budget is
 * spent. A task with fewer than `minSamples` samples is left whole: on a handful of samples the
 * best reply's mean is noise.
 *
 * Some tasks cannot come down to the target by removal alone: under the official path score a route
 * from the start that moves away from it in short steps earns about 0.4 of every point in any
 * picture, and the floor is the lower part of any upright view (Ground Detection). They stop at the
 * budget, and stats.json says so.
 */
import { menuCredits, menuOf, replyKind } from "../audit-menu.js";
import type { LeafTask } from "../taxonomy.js";
import type { EpicItem, RleJson } from "../types.js";

/** The gate's limits (bench/epic-validity.ts): a task's best constant reply at most 0.35; at most half a task removed. */
export const CONSTANT_PRUNE = { target: 0.35, budget: 0.5, minSamples: 20 } as const;

/** The credit of every menu reply of the sample's task kind, in menu order (audit-menu.ts menuOf). */
export function constantCredits(leaf: LeafTask, text: Record<string, unknown>, masks: Record<string, RleJson[]>, width: number, height: number): number[] {
  const item: EpicItem = { id: "", task: leaf.byType, cluster: "", leaf, images: [], imageRefs: [], text, masks, width, height, gtFile: "" };
  return menuCredits(item, menuOf(replyKind(leaf)));
}

export interface ConstantPruning {
  n_before: number;
  n_after: number;
  /** The best menu reply and its mean credit before and after. */
  best_before: { reply: string; score: number };
  best_after: { reply: string; score: number };
  /** reached: within the target; budget: the budget ran out first; small: fewer than minSamples, left whole. */
  outcome: "reached" | "budget" | "small";
}

/** The menu entry with the highest total credit over the kept rows (the first of equals). */
function bestEntry(rows: readonly (readonly number[])[], kept: readonly boolean[]): { entry: number; mean: number } {
  const sums = new Array<number>(rows[0]!.length).fill(0);
  let n = 0;
  rows.forEach((row, i) => {
    if (!kept[i]) return;
    n++;
    row.forEach((v, e) => (sums[e]! += v));
  });
  let entry = 0;
  sums.forEach((s, e) => {
    if (s > sums[entry]!) entry = e;
  });
  return { entry, mean: n > 0 ? sums[entry]! / n : 0 };
}

/**
 * Prunes the samples still kept (`kept`, same order as `samples`, changed in place) task by task;
 * returns what it did per task (by the task's by_type key) for the tasks it looked at.
 */
export function pruneAgainstConstants(samples: ReadonlyArray<{ leaf: LeafTask; credits: readonly number[] }>, kept: boolean[], limits: { target: number; budget: number; minSamples: number } = CONSTANT_PRUNE): Record<string, ConstantPruning> {
  const out: Record<string, ConstantPruning> = {};
  const byTask = new Map<LeafTask, number[]>();
  samples.forEach((s, i) => {
    if (kept[i]) (byTask.get(s.leaf) ?? byTask.set(s.leaf, []).get(s.leaf)!).push(i);
  });
  for (const [leaf, indices] of byTask) {
    const rows = indices.map((i) => samples[i]!.credits);
    const alive = indices.map(() => true);
    const menu = menuOf(replyKind(leaf));
    const before = bestEntry(rows, alive);
    let best = before;
    let removed = 0;
    const small = indices.length < limits.minSamples;
    const budget = Math.floor(limits.budget * indices.length);
    while (!small && best.mean > limits.target && removed < budget) {
      // The sample the best reply earns most on (the first of equals).
      let worst = -1;
      rows.forEach((row, k) => {
        if (alive[k] && (worst < 0 || row[best.entry]! > rows[worst]![best.entry]!)) worst = k;
      });
      alive[worst] = false;
      kept[indices[worst]!] = false;
      removed++;
      best = bestEntry(rows, alive);
    }
    out[leaf.byType] = {
      n_before: indices.length,
      n_after: indices.length - removed,
      best_before: { reply: menu[before.entry]!.name, score: round4(before.mean) },
      best_after: { reply: menu[best.entry]!.name, score: round4(best.mean) },
      outcome: small ? "small" : best.mean <= limits.target ? "reached" : "budget",
    };
  }
  return out;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
