/**
 * The Test-set Stress-Test with a random forest (TsT-RF; Brown et al. 2025, arXiv 2511.04655 §3):
 * k-fold cross-validation of a blind model trained on the set's own non-visual inputs. Each
 * held-out item gets the forest's answer (scored later by the benchmark's own scorer) and a bias
 * score s(x), the held-out confidence in the right answer; permutation importance on the held-out
 * rows names the features that carry the score. The same machinery runs on cue features.
 */
import { createRng, deriveSeed, seedFromString } from "../stats/rng.js";
import { columnLabel, featureTable, type FeatureTable, type View } from "./features.js";
import { fitForestOnCodes, predictCodes, type Forest, type ForestOptions } from "./forest.js";
import type { AuditUnit } from "./types.js";

/** Fold of each unit: a seeded shuffle dealt round-robin, so folds differ in size by at most one. */
export function assignFolds(ids: readonly string[], folds: number, seed: number): number[] {
  const order = createRng(seed).shuffle(ids.map((_, i) => i));
  const fold = new Array<number>(ids.length).fill(0);
  order.forEach((unit, k) => (fold[unit] = k % folds));
  return fold;
}

export interface Importance {
  feature: string;
  /** Drop of the held-out proxy score (share of right picks; for numbers 1 − relative error) when the feature is shuffled. */
  drop: number;
}

export interface ForestVerdict {
  /** Held-out reply per unit id, in the task's output contract. */
  replies: Map<string, string>;
  /** s(x) per unit id: held-out confidence in the right answer, in [0, 1]. */
  s: Map<string, number>;
  importance: Importance[];
  /** Columns the forest could use (0: nothing to learn from). */
  columns: number;
}

/** How many columns get a permutation test (the ones with the most split gain). */
const PERMUTED_COLUMNS = 12;

/** Cross-validated forest over one task's units; `fold[i]` is unit i's fold. */
export function crossValidatedForest(units: readonly AuditUnit[], fold: readonly number[], view: View, options: Partial<ForestOptions> & { seed: number }): ForestVerdict {
  const table = featureTable(units, view, options.bins);
  const folds = Math.max(0, ...fold) + 1;
  const scores = new Float64Array(table.rows);
  const gain = new Float64Array(table.columns.length);
  const target = Float64Array.from(table.owner, (o) => targetOf(units[o.unit]!, o.candidate));
  const heldOut: HeldOut[] = [];
  for (let f = 0; f < folds; f++) {
    const train: number[] = [];
    const test: number[] = [];
    table.owner.forEach((o, r) => (fold[o.unit] === f ? test : train).push(r));
    if (test.length === 0) continue;
    const forest = fitForestOnCodes(table.codes, target, Int32Array.from(train), { ...options, seed: deriveSeed(options.seed, f) });
    forest.gain.forEach((g, c) => (gain[c] = gain[c]! + g));
    const rows = Int32Array.from(test);
    predictCodes(forest, table.codes, rows).forEach((p, k) => (scores[rows[k]!] = p));
    heldOut.push({ rows, forest });
  }
  const unitRows = rowsByUnit(table, units.length);
  const { replies, s } = verdicts(units, unitRows, scores, options.seed);
  const importance = permutationImportance(units, table, unitRows, heldOut, gain, options.seed);
  return { replies, s, importance, columns: table.columns.length };
}

interface HeldOut {
  rows: Int32Array;
  forest: Pick<Forest, "trees">;
}

/** What a row is trained to predict: a candidate's label, or an item's number. */
function targetOf(unit: AuditUnit, candidate: number): number {
  return unit.answer.kind === "number" ? unit.answer.truth : unit.answer.candidates[candidate]!.label;
}

/** Rows of each unit, in candidate order. */
function rowsByUnit(table: FeatureTable, units: number): number[][] {
  const out = Array.from({ length: units }, () => [] as number[]);
  table.owner.forEach((o, r) => out[o.unit]!.push(r));
  return out;
}

/** Replies and bias scores from the held-out predictions. */
function verdicts(units: readonly AuditUnit[], unitRows: readonly number[][], scores: Float64Array, seed: number): { replies: Map<string, string>; s: Map<string, number> } {
  const replies = new Map<string, string>();
  const s = new Map<string, number>();
  unitRows.forEach((rows, u) => {
    const unit = units[u]!;
    const picked = pick(unit, rows.map((r) => scores[r]!), seed);
    replies.set(unit.id, picked.reply);
    s.set(unit.id, picked.s);
  });
  return { replies, s };
}

/**
 * A unit's answer from its rows' predictions. Choice: the highest-scored candidate (ties broken
 * by a per-item draw, so a forest that learnt nothing favours no position); s = the predicted
 * mass on the right answer. Subset: the candidates predicted at 0.5 or more; s = mean agreement
 * with the labels. Number: the prediction within bounds; s = 1 − relative error (capped at 1).
 */
export function pick(unit: AuditUnit, predicted: readonly number[], seed: number): { reply: string; s: number; proxy: number } {
  const form = unit.answer;
  if (form.kind === "number") {
    const value = Math.min(form.bounds[1], Math.max(form.bounds[0], predicted[0] ?? 0));
    const s = 1 - Math.min(1, Math.abs(value - form.truth) / Math.max(Math.abs(form.truth), 1e-9));
    return { reply: form.reply(value), s, proxy: s };
  }
  if (form.kind === "subset") {
    const chosen = predicted.flatMap((p, i) => (p >= 0.5 ? [i] : []));
    const agreement = predicted.reduce((sum, p, i) => sum + form.candidates[i]!.label * p + (1 - form.candidates[i]!.label) * (1 - p), 0) / Math.max(1, predicted.length);
    const right = predicted.reduce((sum, p, i) => sum + ((p >= 0.5) === form.candidates[i]!.label >= 0.5 ? 1 : 0), 0) / Math.max(1, predicted.length);
    return { reply: form.reply(chosen), s: agreement, proxy: right };
  }
  const best = Math.max(...predicted);
  const top = predicted.flatMap((p, i) => (p >= best - 1e-12 ? [i] : []));
  const choice = top.length === 1 ? top[0]! : top[createRng(seedFromString(unit.id, seed)).below(top.length)]!;
  const mass = predicted.reduce((sum, p) => sum + Math.max(p, 0), 0);
  const s = mass <= 1e-12 ? 1 / predicted.length * form.candidates.reduce((sum, c) => sum + c.label, 0) : predicted.reduce((sum, p, i) => sum + Math.max(p, 0) * form.candidates[i]!.label, 0) / mass;
  return { reply: form.candidates[choice]!.reply, s: Math.min(1, s), proxy: form.candidates[choice]!.label };
}

/**
 * Permutation importance (Breiman 2001) on the held-out rows: the columns with the most split
 * gain are shuffled one at a time across the held-out rows of each fold and the mean proxy
 * score is compared with the unshuffled one.
 */
function permutationImportance(units: readonly AuditUnit[], table: FeatureTable, unitRows: readonly number[][], heldOut: readonly HeldOut[], gain: Float64Array, seed: number): Importance[] {
  const candidates = [...gain.keys()].filter((c) => gain[c]! > 0).sort((a, b) => gain[b]! - gain[a]! || a - b).slice(0, PERMUTED_COLUMNS);
  if (candidates.length === 0) return [];
  const proxyOf = (scores: Float64Array) => {
    let total = 0;
    let counted = 0;
    unitRows.forEach((rows, u) => {
      if (rows.length === 0 || Number.isNaN(scores[rows[0]!]!)) return;
      total += pick(units[u]!, rows.map((r) => scores[r]!), seed).proxy;
      counted++;
    });
    return counted === 0 ? 0 : total / counted;
  };
  const scoresWith = (column: number | null) => {
    const scores = new Float64Array(table.rows).fill(NaN);
    heldOut.forEach(({ rows, forest }, f) => {
      let codes: readonly Uint8Array[] = table.codes;
      if (column !== null) {
        // The held-out rows' codes of this column, shuffled among themselves.
        const original = table.codes[column]!;
        const shuffled = original.slice();
        const order = createRng(deriveSeed(seed, 1000 + column * 31 + f)).shuffle([...rows]);
        rows.forEach((r, k) => (shuffled[r] = original[order[k]!]!));
        codes = table.codes.map((c, i) => (i === column ? shuffled : c));
      }
      predictCodes(forest, codes, rows).forEach((p, k) => (scores[rows[k]!] = p));
    });
    return scores;
  };
  const base = proxyOf(scoresWith(null));
  return candidates
    .map((c) => ({ feature: columnLabel(table, c), drop: base - proxyOf(scoresWith(c)) }))
    .sort((a, b) => b.drop - a.drop || (a.feature < b.feature ? -1 : 1));
}
