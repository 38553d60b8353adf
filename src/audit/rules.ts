/**
 * Blind rules every benchmark gets from the shape of its answers: each fixed option position,
 * the position most often right on the training folds, the longest and shortest option, for
 * sets "all", "none" and the per-position prior, for numbers the training folds' median and mean.
 * A benchmark adds its own (constant boxes, first-mentioned options, last frames) in audit.ts.
 */
import type { AuditUnit, BlindRule, Candidate } from "./types.js";
import { choiceCandidates } from "./units.js";

/** Positions a fixed-position rule is made for (longer lists, such as frames, have first/last rules of their own). */
const FIXED_POSITIONS = 6;


/** The index of the best candidate by `key` (first on ties), or 0. */
function argBest(items: readonly Candidate[], key: (c: Candidate) => number): number {
  let best = 0;
  items.forEach((c, i) => {
    if (key(c) > key(items[best]!)) best = i;
  });
  return best;
}

/** The reply of the candidate at `index` (the last one when the list is shorter), or "" for forms without candidates. */
function replyAt(unit: AuditUnit, index: number): string {
  const form = unit.answer;
  if (form.kind === "choice") return form.candidates[Math.min(index, form.candidates.length - 1)]?.reply ?? "";
  return "";
}

/**
 * Always the candidate at position k. Where every item offers the same candidate there (a menu of
 * constant answers: a box, a route shape), the rule is named by that candidate's text.
 */
function fixedPosition(k: number, units: readonly AuditUnit[]): BlindRule {
  const texts = new Set(units.map((u) => choiceCandidates(u)[k]?.text));
  const constant = texts.size === 1 ? [...texts][0] : undefined;
  if (constant !== undefined) return { name: `always ${constant}`, describe: `the same answer for every item: ${constant}`, fit: () => (unit) => replyAt(unit, k) };
  return { name: `option ${k + 1}`, describe: `always the option shown ${ordinal(k + 1)}`, fit: () => (unit) => replyAt(unit, k) };
}

function ordinal(n: number): string {
  return n === 1 ? "first" : n === 2 ? "second" : n === 3 ? "third" : `${n}th`;
}

/** The position whose candidate was most often right on the training units (ties: the earlier). */
const priorPosition: BlindRule = {
  name: "prior position",
  describe: "the option position most often right on the other folds",
  fit(train) {
    const wins: number[] = [];
    for (const unit of train) {
      const list = choiceCandidates(unit);
      if (list.length === 0) continue;
      const right = argBest(list, (c) => c.label);
      wins[right] = (wins[right] ?? 0) + 1;
    }
    let best = 0;
    wins.forEach((w, i) => {
      if (w > (wins[best] ?? 0)) best = i;
    });
    return (unit) => replyAt(unit, best);
  },
};

function byLength(name: string, sign: 1 | -1): BlindRule {
  return {
    name,
    describe: `the option with the ${sign > 0 ? "longest" : "shortest"} text`,
    fit: () => (unit) => {
      const list = choiceCandidates(unit);
      if (list.length === 0 || list.some((c) => c.text === undefined)) return replyAt(unit, 0);
      return replyAt(unit, argBest(list, (c) => sign * c.text!.length));
    },
  };
}

function subsetRule(name: string, describe: string, choose: (train: readonly AuditUnit[]) => (unit: AuditUnit) => number[]): BlindRule {
  return {
    name,
    describe,
    fit(train) {
      const chooser = choose(train);
      return (unit) => (unit.answer.kind === "subset" ? unit.answer.reply(chooser(unit)) : "");
    },
  };
}

/** Each position in the set when it was in the right set at least half the time on the training units. */
function subsetPrior(train: readonly AuditUnit[]): (unit: AuditUnit) => number[] {
  const rate: Array<{ in: number; n: number }> = [];
  for (const unit of train) {
    if (unit.answer.kind !== "subset") continue;
    unit.answer.candidates.forEach((c, i) => {
      rate[i] ??= { in: 0, n: 0 };
      rate[i]!.n++;
      if (c.label >= 0.5) rate[i]!.in++;
    });
  }
  return (unit) => (unit.answer.kind === "subset" ? unit.answer.candidates.flatMap((_, i) => (rate[i] && rate[i]!.in * 2 >= rate[i]!.n ? [i] : [])) : []);
}

function numberRule(name: string, describe: string, statistic: (values: number[]) => number): BlindRule {
  return {
    name,
    describe,
    fit(train) {
      const values = train.flatMap((u) => (u.answer.kind === "number" ? [u.answer.truth] : []));
      const value = values.length === 0 ? 0 : statistic(values);
      return (unit) => (unit.answer.kind === "number" ? unit.answer.reply(Math.min(unit.answer.bounds[1], Math.max(unit.answer.bounds[0], value))) : "");
    },
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The generic rules that apply to a task's units (by their answer form; option rules only up to the longest list). */
export function genericRules(units: readonly AuditUnit[]): BlindRule[] {
  const kinds = new Set(units.map((u) => u.answer.kind));
  const rules: BlindRule[] = [];
  if (kinds.has("choice")) {
    const longest = Math.max(...units.map((u) => choiceCandidates(u).length));
    for (let k = 0; k < Math.min(FIXED_POSITIONS, longest); k++) rules.push(fixedPosition(k, units));
    rules.push(priorPosition);
    // Length rules for options that vary (over a fixed menu of answers they are fixed positions again).
    const menu = (u: AuditUnit) => JSON.stringify(choiceCandidates(u).map((c) => c.text));
    const fixedMenu = units.every((u) => menu(u) === menu(units[0]!));
    if (!fixedMenu && units.some((u) => choiceCandidates(u).length > 0 && choiceCandidates(u).every((c) => c.text !== undefined))) rules.push(byLength("longest option", 1), byLength("shortest option", -1));
  }
  if (kinds.has("subset")) {
    rules.push(
      subsetRule("all", "every candidate in the set", () => (unit) => (unit.answer.kind === "subset" ? unit.answer.candidates.map((_, i) => i) : [])),
      subsetRule("none", "no candidate in the set", () => () => []),
      subsetRule("prior per position", "each position in the set when it was in at least half the time on the other folds", subsetPrior),
    );
  }
  if (kinds.has("number")) {
    rules.push(
      numberRule("train median", "the median answer of the other folds", median),
      numberRule("train mean", "the mean answer of the other folds", (v) => v.reduce((s, x) => s + x, 0) / v.length),
    );
  }
  return rules;
}
