/**
 * Answer balance of a generated set, applied when the houses are put together: a task whose
 * samples too often have no target keeps only as many no-target samples as the cap allows, spread
 * evenly over the houses, for the task and for each word its descriptions turn on; a yes/no answer
 * (Placement Region's feasibility) is evened the same way. The paper
 * states no share (§3.2.1: "there can be zero, one, or multiple objects"); at 42-57%
 * (SpatialRelation, Contact Relationship Type One before this rule) an empty reply was the best
 * answer to give without looking (issue 29).
 */

/** The largest share of a task's samples that may have no target. */
export const ZERO_TARGET_CAP = 0.25;

/**
 * Visual Matching's answer is one object or none, at count weight 0.5 (official config): with z
 * no-target samples an empty reply earns z and "one object, whole picture" about (1 - z) x 0.55,
 * so the best blind reply is least near z = 0.35.
 */
const CAPS: Record<string, number> = { VisualMatching: 0.35 };

export const zeroTargetCap = (leaf: string): number => CAPS[leaf] ?? ZERO_TARGET_CAP;

/** A sample as the balance sees it: its task, the words its description turns on, whether its answer is "no target", and its yes/no answer where it has one (Placement Region's feasibility). */
export interface BalanceSample {
  leaf: string;
  keys?: readonly string[];
  zeroTarget: boolean;
  answer?: boolean;
}

/** Keeps `allowed` of the listed samples at evenly spaced positions (the j-th when it starts a new step of allowed / n). */
function thin(keep: boolean[], indices: readonly number[], allowed: number): void {
  if (indices.length <= allowed) return;
  indices.forEach((index, j) => {
    keep[index] = Math.floor(((j + 1) * allowed) / indices.length) > Math.floor((j * allowed) / indices.length);
  });
}

/** The kept samples' indices by a grouping key. */
function keptGroups(samples: readonly BalanceSample[], keep: readonly boolean[], groupOf: (s: BalanceSample) => string): number[][] {
  const groups = new Map<string, number[]>();
  samples.forEach((s, i) => {
    if (!keep[i]) return;
    const key = groupOf(s);
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()];
}

/** Groups by the k-th word a description turns on, within its task. */
const byWord = (k: number) => (s: BalanceSample): string => `${s.leaf}\u0000${s.keys?.[k] ?? ""}`;
const byTask = (s: BalanceSample): string => s.leaf;

/** Indices of the samples by a grouping key, and how many of each group have a target. */
function groupZeros(samples: readonly BalanceSample[], keep: readonly boolean[], groupOf: (s: BalanceSample) => string): Array<{ zeros: number[]; withTarget: number; leaf: string }> {
  return keptGroups(samples, keep, groupOf).map((g) => {
    const zeros = g.filter((i) => samples[i]!.zeroTarget);
    return { zeros, withTarget: g.length - zeros.length, leaf: samples[g[0]!]!.leaf };
  });
}

/**
 * Which samples are kept (same order as given): every sample with a target; of the no-target
 * ones, per description word (the first words of the samples, then the second words, ...) at most
 * cap / (1 - cap) times as many as that word has with a target (rounded up), then per task at
 * most that many times the task's (rounded down), each time at evenly spaced positions. Held per word, the cap leaves no word that only means "none"
 * (a colour named only when absent told the answer from the text alone); held per task, the
 * task's no-target share is at most the cap. Yes/no answers are evened afterwards (balanceAnswers).
 */
export function keptForBalance(samples: readonly BalanceSample[], capOf: (leaf: string) => number = zeroTargetCap): boolean[] {
  const keep = samples.map(() => true);
  const ratio = (leaf: string) => capOf(leaf) / (1 - capOf(leaf));
  const words = Math.max(0, ...samples.map((s) => s.keys?.length ?? 0));
  for (let k = 0; k < words; k++) {
    for (const g of groupZeros(samples, keep, byWord(k))) thin(keep, g.zeros, Math.ceil(ratio(g.leaf) * g.withTarget - 1e-9));
  }
  for (const g of groupZeros(samples, keep, byTask)) thin(keep, g.zeros, Math.floor(ratio(g.leaf) * g.withTarget + 1e-9));
  balanceAnswers(samples, keep, words);
  return keep;
}

/**
 * Yes/no answers: per description word, then per task, the more frequent answer keeps at most one
 * sample more than the other, at evenly spaced positions (one more: a task or word seen once keeps it). Placement feasibility
 * went with the object's name before (an armchair 25 times in 26 not feasible, anything on a TV
 * stand 18 in 19), which a model can answer from the words alone (issue 29).
 */
function balanceAnswers(samples: readonly BalanceSample[], keep: boolean[], words: number): void {
  const even = (groupOf: (s: BalanceSample) => string) => {
    for (const g of keptGroups(samples, keep, groupOf)) {
      const yes = g.filter((i) => samples[i]!.answer === true), no = g.filter((i) => samples[i]!.answer === false);
      const [more, fewer] = yes.length >= no.length ? [yes, no] : [no, yes];
      thin(keep, more, fewer.length + 1);
    }
  };
  for (let k = 0; k < words; k++) even(byWord(k));
  even(byTask);
}
