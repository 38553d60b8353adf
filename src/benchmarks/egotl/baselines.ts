/**
 * Built-in models (no key, no network). They reply in each task's output contract, so their
 * replies go through the same readers as a real model's.
 *
 * - random: uniform over the four options / the five directions; a distance uniform on [0, 5) m
 *   with one decimal; planning replies JSON with the chosen letter scored 10. Seeded per item.
 * - frequency: the most frequent answer per task in a training JSONL (`--train`, configure({train})):
 *   the most frequent letter (planning, action recognition); for the option-text tasks the most
 *   frequent answer text when it is one of the item's options, else the option at the most
 *   frequent position; the most frequent direction label; for distance the most frequent value
 *   after rounding to 0.1 m. Ties go to the first in a fixed order (A..D; the label order of
 *   the paper; the smaller text or value). A task absent from the training file gets an empty
 *   reply (unreadable, so wrong).
 * - oracle: the true answer in the task's format (checks the pipeline end to end).
 */
import { UsageError } from "../../core/problems.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import type { EgoTLItem } from "./load.js";
import { normalizeText } from "./parse.js";
import { DIRECTION_LABELS, LETTERS, type DirectionLabel, type EgoTLTask, type Letter } from "./schema.js";

export type Baseline = { describe: string; reply: (item: EgoTLItem, seed: number, prompt: Record<string, unknown>) => string };

/** A reply in the output contract of the item's task. */
export function replyFor(item: EgoTLItem, answer: { index?: number; label?: DirectionLabel; metres?: number; scores?: number[] }): string {
  switch (item.task) {
    case "planning": {
      const best = LETTERS[answer.index ?? 0]!;
      const scores = Object.fromEntries(LETTERS.map((l, i) => [l, answer.scores?.[i] ?? (l === best ? 10 : 0)]));
      return JSON.stringify({ scores, best });
    }
    case "scene_action":
    case "next_action":
      return item.options?.[answer.index ?? 0] ?? "";
    case "action_recognition":
      return LETTERS[answer.index ?? 0]!;
    case "direction":
      return answer.label ?? "";
    case "distance":
      return answer.metres === undefined ? "" : String(answer.metres);
  }
}

function randomReply(item: EgoTLItem, seed: number): string {
  const rng = createRng(seedFromString(item.id, seed));
  switch (item.task) {
    case "direction":
      return replyFor(item, { label: rng.pick(DIRECTION_LABELS) });
    case "distance":
      return replyFor(item, { metres: rng.int(0, 49) / 10 });
    default: {
      const index = rng.below(4);
      const scores = LETTERS.map((_, i) => (i === index ? 10 : rng.int(0, 9)));
      return replyFor(item, { index, scores });
    }
  }
}

function oracleReply(item: EgoTLItem): string {
  const t = item.truth;
  if (t.kind === "option") return replyFor(item, { index: t.index });
  if (t.kind === "direction") return replyFor(item, { label: t.label });
  return replyFor(item, { metres: t.metres });
}

export interface FrequencyTable {
  /** The training file. */
  source: string;
  n: Partial<Record<EgoTLTask, number>>;
  letter: Partial<Record<EgoTLTask, Letter>>;
  /** Normalised most frequent answer text (option-text tasks). */
  text: Partial<Record<EgoTLTask, string>>;
  direction: DirectionLabel | null;
  distance: number | null;
}

/** The most frequent value; ties go to the first in `order`. */
function mode<T>(values: T[], order: (a: T, b: T) => number): T | null {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: T | null = null;
  let bestCount = 0;
  for (const [v, c] of [...counts].sort((a, b) => order(a[0], b[0]))) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

const compare = <T extends string | number>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);

export function frequencyTable(items: EgoTLItem[], source: string): FrequencyTable {
  const table: FrequencyTable = { source, n: {}, letter: {}, text: {}, direction: null, distance: null };
  for (const item of items) table.n[item.task] = (table.n[item.task] ?? 0) + 1;
  for (const task of ["planning", "scene_action", "next_action", "action_recognition"] as const) {
    const group = items.filter((i) => i.task === task && i.truth.kind === "option");
    const letters = group.map((i) => LETTERS[(i.truth as { index: number }).index]!);
    const letter = mode(letters, compare);
    if (letter) table.letter[task] = letter;
    if (task === "scene_action" || task === "next_action") {
      const texts = group.map((i) => normalizeText(i.options![(i.truth as { index: number }).index]!));
      const text = mode(texts, compare);
      if (text) table.text[task] = text;
    }
  }
  table.direction = mode(
    items.flatMap((i) => (i.truth.kind === "direction" ? [i.truth.label] : [])),
    (a, b) => DIRECTION_LABELS.indexOf(a) - DIRECTION_LABELS.indexOf(b),
  );
  table.distance = mode(
    items.flatMap((i) => (i.truth.kind === "distance" ? [Math.round(i.truth.metres * 10) / 10] : [])),
    compare,
  );
  return table;
}

export function frequencyReply(item: EgoTLItem, table: FrequencyTable): string {
  switch (item.task) {
    case "direction":
      return table.direction ? replyFor(item, { label: table.direction }) : "";
    case "distance":
      return table.distance === null ? "" : replyFor(item, { metres: table.distance });
    default: {
      const letter = table.letter[item.task];
      if (!letter) return "";
      const text = table.text[item.task];
      const byText = text === undefined ? -1 : (item.options ?? []).findIndex((o) => normalizeText(o) === text);
      return replyFor(item, { index: byText >= 0 ? byText : LETTERS.indexOf(letter) });
    }
  }
}

export const FREQUENCY_NEEDS_TRAIN = "the frequency baseline needs the training answers: pass --train <train.jsonl> (e.g. examples/egotl-mini/train.jsonl)";

export function egotlBaselines(table: FrequencyTable | null): Record<string, Baseline> {
  return {
    random: { describe: "uniform over the options / the five directions; distance uniform on [0, 5) m (chance level)", reply: (item, seed) => randomReply(item, seed) },
    frequency: {
      describe: "the most frequent training answer per task (needs --train)",
      reply: (item) => {
        if (!table) throw new UsageError(FREQUENCY_NEEDS_TRAIN);
        return frequencyReply(item, table);
      },
    },
    oracle: { describe: "the true answer in each task's output format", reply: (item) => oracleReply(item) },
  };
}
