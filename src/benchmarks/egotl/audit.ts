/**
 * EgoTL-Bench for `spatialprobe audit` (src/audit/types.ts): can its questions be answered
 * without looking at the video?
 *
 * Units. The text is what the model reads (system prompt, the frame intro, the task's question
 * with its options; the per-frame labels are left out of the text and their numbers given as
 * features). The four option tasks are a choice among their options (the reply in the task's own
 * contract: planning's JSON, the option text for scene-aware and next action, the letter for
 * action recognition); direction is a choice among the five labels; distance is a number.
 *
 * Candidate features are what a text-only reader can see of an option: its position, length,
 * word overlap with the question's context (abstract task, chain of thought), its similarity to
 * the other options (distractors made by editing the answer resemble it more than each other),
 * words no other option has, where it is first mentioned in the context (next action: the chain
 * of thought names the steps in order), and for planning the number of steps and the steps that
 * act on an object before walking or carrying to it (a swapped plan).
 *
 * Blind rules (issue 26): the option mentioned first in the context; the option most similar to
 * the others; answer priors learned on the training folds (per task: the most frequent right
 * text, which for direction is the label prior; and the right-rate of an option's leading words,
 * which learns "Walk around ..." in scene-aware action); direction's label among the training
 * clips of the nearest span lengths; the coherent plan; distance 0; distance
 * from the span's length (short spans did not move; else a training rate per frame). Cue rule: the
 * same from the clip's seconds (the video's timestamps).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AuditUnit, BenchmarkAudit, BlindRule, Candidate, Headline } from "../../audit/types.js";
import type { ScoresDocument } from "../../core/benchmark.js";
import { DataRoot } from "../../core/dataroot.js";
import { readRegularFile } from "../../core/file-read.js";
import { parseJson } from "../../core/jsonl.js";
import { MAX_DISTANCE_M } from "../../core/limits.js";
import { probeVideo } from "../../media/ffmpeg.js";
import { frameFolderNames } from "../../media/frames.js";
import { replyFor } from "./baselines.js";
import { findItemFiles, type EgoTLItem } from "./load.js";
import { normalizeText } from "./parse.js";
import { fill, loadTemplates, questionText, type EgoTLTemplates } from "./prompt.js";
import { DIRECTION_LABELS, LETTERS, type EgoTLTask } from "./schema.js";
import { choiceCandidates } from "../../audit/units.js";

const OPTION_TASKS: readonly EgoTLTask[] = ["planning", "scene_action", "next_action", "action_recognition"];
const CHOICE_TASKS: readonly EgoTLTask[] = [...OPTION_TASKS, "direction"];

// ---------------------------------------------------------------------------------------------
// Text helpers (pure)

export const wordsOf = (text: string): string[] => {
  const n = normalizeText(text);
  return n ? n.split(" ") : [];
};

/** Word unigrams and bigrams (bigrams keep word order, so a swapped plan differs from the true one). */
export function gramSet(words: readonly string[]): Set<string> {
  const grams = new Set<string>(words);
  for (let i = 0; i + 1 < words.length; i++) grams.add(`${words[i]} ${words[i + 1]}`);
  return grams;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Index of the first whole-word occurrence of `needle` in `hay`, or -1. */
export function findWords(hay: readonly string[], needle: readonly string[]): number {
  if (needle.length === 0) return -1;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Where an option is first mentioned in the context: the word index of its first whole-word
 * occurrence, or -1. Whole options only ("walk to the dresser" is mentioned by "walk to the dresser
 * in the bedroom"; "sit down on the sofa" is not mentioned by "sit down on the armchair").
 */
export function firstMention(context: readonly string[], option: readonly string[]): number {
  return findWords(context, option);
}

/** Dense rank of each non-negative position (0 = earliest); -1 stays -1. */
export function mentionRanks(positions: readonly number[]): number[] {
  const distinct = [...new Set(positions.filter((p) => p >= 0))].sort((a, b) => a - b);
  return positions.map((p) => (p >= 0 ? distinct.indexOf(p) : -1));
}

/** An option's leading words before its first "the" (at most 5): "turn left and walk to", "walk around", "pick up". */
export function optionStem(text: string): string {
  const words = wordsOf(text);
  const the = words.indexOf("the");
  return words.slice(0, Math.min(the > 0 ? the : words.length, 5)).join(" ");
}

/** A plan's steps: the text after "I will", split at ", then" / ", and finally" / "first". */
export function planSteps(plan: string): string[] {
  const words = normalizeText(plan);
  const at = words.lastIndexOf(" i will ");
  const body = at >= 0 ? words.slice(at + " i will ".length) : words;
  return body.split(/\b(?:and finally|then|first)\b/).map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Where a movement step goes ("walk to the X ..." / "carry the A to the X ..."): X's words up to "in", or null. */
function destinationOf(step: string): string | null {
  const m = /^(?:walk to|carry .+? to) the (.+?)(?: in the .*)?$/.exec(step);
  return m ? m[1]! : null;
}

/**
 * Steps that act on an object before the plan walks or carries to it: for each movement step,
 * the earlier non-movement steps naming its destination (the swapped plans of the generator).
 */
export function orderViolations(steps: readonly string[]): number {
  let count = 0;
  steps.forEach((step, j) => {
    const dest = destinationOf(step);
    if (dest === null) return;
    const target = dest.split(" ");
    for (let i = 0; i < j; i++) if (destinationOf(steps[i]!) === null && findWords(steps[i]!.split(" "), target) >= 0) count++;
  });
  return count;
}

// ---------------------------------------------------------------------------------------------
// Units

/** The context a text-only reader can relate options to: the abstract task and the chain of thought. */
function contextOf(item: EgoTLItem): string {
  return [item.abstractTask, item.chainOfThought].filter((t): t is string => t !== null).join(" ");
}

/**
 * The words options are looked up in for their first mention: the plan part of a chain of thought
 * (after "I will"; the task statement before it names the last steps first), else the whole context.
 */
export function mentionContext(context: string): string[] {
  const words = wordsOf(context);
  for (let i = words.length - 2; i >= 0; i--) if (words[i] === "i" && words[i + 1] === "will") return words.slice(i + 2);
  return words;
}

/** Candidate features of a list of options (pure; exported for tests). */
export function optionFeatures(options: readonly string[], context: string, planning: boolean): Array<Record<string, number>> {
  const words = options.map(wordsOf);
  const grams = words.map(gramSet);
  const contextWords = wordsOf(context);
  const contextSet = new Set(contextWords);
  const planWords = mentionContext(context);
  const positions = words.map((w) => firstMention(planWords, w));
  const ranks = mentionRanks(positions);
  return options.map((option, i) => {
    const others = grams.filter((_, j) => j !== i);
    const sims = others.map((g) => jaccard(grams[i]!, g));
    const otherWords = new Set(words.filter((_, j) => j !== i).flat());
    const own = new Set(words[i]);
    const steps = planning ? planSteps(option) : [];
    return {
      position: i,
      n_options: options.length,
      chars: option.length,
      words: words[i]!.length,
      context_overlap: contextSet.size > 0 ? jaccard(own, contextSet) : 0,
      mean_similarity: sims.length > 0 ? sims.reduce((a, b) => a + b, 0) / sims.length : 0,
      max_similarity: sims.length > 0 ? Math.max(...sims) : 0,
      unique_words: [...own].filter((w) => !otherWords.has(w)).length,
      first_mention_rank: ranks[i]!,
      first_mention_pos: positions[i]! >= 0 ? positions[i]! / Math.max(planWords.length, 1) : -1,
      plan_steps: planning ? steps.length : -1,
      plan_order_violations: planning ? orderViolations(steps) : -1,
    };
  });
}

/** The prompt's text parts (no frame labels): system, the frame intro, the current-view intro, the question. */
export function promptText(item: EgoTLItem, templates: EgoTLTemplates): string {
  const parts = [templates.system.trim()];
  if (item.media) parts.push(fill(item.task === "planning" ? templates.memory_intro : templates.clip_intro, { count: String(framesShown(item)) }));
  if (item.currentFrame) parts.push(fill(templates.current_frame_intro, {}));
  parts.push(questionText(item, templates));
  return parts.join("\n");
}

/** Frames in the span (the shown frame numbers give it away: uniform picks include both ends), or -1. */
function spanFrames(item: EgoTLItem): number {
  const span = item.media?.span;
  return span ? span.last_frame - span.first_frame + 1 : -1;
}

/** Frames the prompt shows, as far as the row tells without opening the video (-1 when it needs a probe). */
export function framesShown(item: EgoTLItem): number {
  const spec = item.media?.spec;
  if (!spec) return 0;
  const span = spanFrames(item);
  switch (spec.mode) {
    case "uniform":
      return span > 0 ? Math.min(spec.count, span) : spec.count;
    case "indices":
      return spec.indices.length;
    default:
      return span > 0 && spec.mode === "all" ? span : -1;
  }
}

/**
 * Item features: what the prompt states in numbers (frames shown and how many the clip has, seconds
 * when the row gives the rate; a span's frames are labelled from its start, so where it lies in the
 * episode is not stated) and text sizes.
 */
export function itemFeatures(item: EgoTLItem): Record<string, number> {
  const span = spanFrames(item);
  const fps = item.media?.fps ?? null;
  const steps = item.chainOfThought ? planSteps(item.chainOfThought).length : -1;
  return {
    frames_shown: framesShown(item),
    span_frames: span,
    span_seconds: span > 0 && fps ? span / fps : -1,
    has_clip: item.media ? 1 : 0,
    has_current_frame: item.currentFrame ? 1 : 0,
    abstract_task_words: item.abstractTask ? wordsOf(item.abstractTask).length : -1,
    chain_steps: steps,
    context_words: wordsOf(contextOf(item)).length,
  };
}

const DISTANCE_CLASSES: ReadonlyArray<[number, string]> = [[0, "0 m"], [1, "(0, 1] m"], [2, "(1, 2] m"], [4, "(2, 4] m"]];

export function distanceClass(metres: number): string {
  for (const [upTo, name] of DISTANCE_CLASSES) if (metres <= upTo) return name;
  return "> 4 m";
}

/** A distance reply: the number with at most 3 decimals (what replyFor writes for metres). */
const distanceReply = (item: EgoTLItem) => (value: number): string => replyFor(item, { metres: Math.round(Math.max(0, value) * 1000) / 1000 });

function unitOf(item: EgoTLItem, templates: EgoTLTemplates): AuditUnit {
  const base = { id: item.id, task: item.task, cluster: item.cluster, text: promptText(item, templates), prompt: { task: item.task }, features: itemFeatures(item) };
  const t = item.truth;
  if (t.kind === "distance") {
    return { ...base, answer: { kind: "number", truth: t.metres, reply: distanceReply(item), bounds: [0, MAX_DISTANCE_M] }, answerClass: distanceClass(t.metres) };
  }
  if (t.kind === "direction") {
    const features = optionFeatures(DIRECTION_LABELS, "", false);
    const candidates: Candidate[] = DIRECTION_LABELS.map((label, i) => ({ reply: replyFor(item, { label }), label: label === t.label ? 1 : 0, features: features[i]!, text: label }));
    return { ...base, answer: { kind: "choice", candidates }, answerClass: t.label };
  }
  const options = item.options!;
  const features = optionFeatures(options, contextOf(item), item.task === "planning");
  const candidates: Candidate[] = options.map((text, index) => ({ reply: replyFor(item, { index }), label: index === t.index ? 1 : 0, features: features[index]!, text }));
  return { ...base, answer: { kind: "choice", candidates }, answerClass: LETTERS[t.index]! };
}

// ---------------------------------------------------------------------------------------------
// Cues: the clip's length, read from the video's frame timestamps (or the frame count and rate)

type ClipLength = { frames: number; seconds: number } | null;

async function clipLength(item: EgoTLItem, probes: Map<string, ReturnType<typeof probeVideo>>): Promise<ClipLength> {
  const media = item.media;
  if (!media) return null;
  const span = media.span;
  if ("video" in media.source && media.source.video) {
    const file = media.source.video;
    if (!probes.has(file)) probes.set(file, probeVideo(file));
    const probed = await probes.get(file)!;
    if (!probed.ok || !probed.probe.fps) return null;
    const { frameCount, fps, timestamps } = probed.probe;
    const first = span ? span.first_frame : 0;
    const last = span ? Math.min(span.last_frame, frameCount - 1) : frameCount - 1;
    if (last < first) return null;
    const t0 = timestamps[first];
    const t1 = timestamps[last];
    const seconds = t0 != null && t1 != null ? t1 - t0 + 1 / fps : (last - first + 1) / fps;
    return { frames: last - first + 1, seconds };
  }
  const total = "frames" in media.source && media.source.frames ? media.source.frames.length : null;
  const frames = span ? span.last_frame - span.first_frame + 1 : total;
  return frames !== null && media.fps ? { frames, seconds: frames / media.fps } : null;
}

async function cuesOf(item: EgoTLItem, probes: Map<string, ReturnType<typeof probeVideo>>): Promise<Record<string, number>> {
  const length = await clipLength(item, probes);
  return { clip_frames: length?.frames ?? -1, clip_seconds: length?.seconds ?? -1 };
}

// ---------------------------------------------------------------------------------------------
// Rules

/** The candidate with the highest score (the first among equals); "" for a unit without candidates. */
function pickBest(unit: AuditUnit, score: (c: Candidate, i: number) => number): string {
  const candidates = choiceCandidates(unit);
  let best = -1;
  let bestScore = -Infinity;
  candidates.forEach((c, i) => {
    const s = score(c, i);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  return best >= 0 ? candidates[best]!.reply : "";
}

const numberReply = (unit: AuditUnit, value: number): string => (unit.answer.kind === "number" ? unit.answer.reply(value) : "");

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const rightCandidate = (unit: AuditUnit): Candidate | undefined => choiceCandidates(unit).find((c) => c.label === 1);
const normalOf = (c: Candidate): string => normalizeText(c.text ?? c.reply);

/** Per task, counts of a key among right answers and among offered options on the training units. */
function keyRates(train: readonly AuditUnit[], key: (c: Candidate) => string): Map<string, { right: Map<string, number>; offered: Map<string, number> }> {
  const out = new Map<string, { right: Map<string, number>; offered: Map<string, number> }>();
  for (const unit of train) {
    const right = rightCandidate(unit);
    if (!right) continue;
    const entry = out.get(unit.task) ?? { right: new Map(), offered: new Map() };
    out.set(unit.task, entry);
    const k = key(right);
    entry.right.set(k, (entry.right.get(k) ?? 0) + 1);
    for (const c of new Set(choiceCandidates(unit).map(key))) entry.offered.set(c, (entry.offered.get(c) ?? 0) + 1);
  }
  return out;
}

/** The most frequent right position per task on the training units (ties: the earlier position). */
function positionPrior(train: readonly AuditUnit[]): Map<string, number> {
  const counts = new Map<string, number[]>();
  for (const unit of train) {
    const index = choiceCandidates(unit).findIndex((c) => c.label === 1);
    if (index < 0) continue;
    const list = counts.get(unit.task) ?? [];
    list[index] = (list[index] ?? 0) + 1;
    counts.set(unit.task, list);
  }
  return new Map([...counts].map(([task, list]) => [task, list.reduce((best, n, i) => ((n ?? 0) > (list[best] ?? 0) ? i : best), 0)]));
}

const firstMentioned: BlindRule = {
  name: "first-mentioned",
  describe: "the option whose text comes first in the plan of the chain of thought (after \"I will\"; else in the abstract task); the first option when none occurs",
  tasks: ["scene_action", "next_action"],
  fit: () => (unit) => pickBest(unit, (c, i) => (c.features["first_mention_rank"]! >= 0 ? 1000 - c.features["first_mention_rank"]! : -i)),
};

const mostSimilar: BlindRule = {
  name: "most-similar-to-others",
  describe: "the option with the highest mean Jaccard similarity (word unigrams and bigrams) to the other options: distractors made by editing the answer",
  tasks: OPTION_TASKS,
  fit: () => (unit) => pickBest(unit, (c) => c.features["mean_similarity"]!),
};

const labelPrior: BlindRule = {
  name: "label-prior",
  describe: "per task, the right answer text seen most often on the training folds when it is offered (direction: the most frequent label), else the most frequent right position",
  tasks: CHOICE_TASKS,
  fit(train) {
    const rates = keyRates(train, normalOf);
    const positions = positionPrior(train);
    return (unit) => {
      const right = rates.get(unit.task)?.right ?? new Map<string, number>();
      const fallback = positions.get(unit.task) ?? 0;
      return pickBest(unit, (c, i) => (right.get(normalOf(c)) ?? 0) + (i === fallback ? 0.5 : 0));
    };
  },
};

const stemPrior: BlindRule = {
  name: "answer-stem-prior",
  describe: 'per task, the option whose leading words ("walk around", "turn left and walk to", "pick up") were right most often when offered on the training folds: (right + 1/options) / (offered + 1)',
  tasks: CHOICE_TASKS,
  fit(train) {
    const rates = keyRates(train, (c) => optionStem(c.text ?? c.reply));
    return (unit) => {
      const entry = rates.get(unit.task);
      const n = Math.max(choiceCandidates(unit).length, 1);
      return pickBest(unit, (c) => {
        const stem = optionStem(c.text ?? c.reply);
        return ((entry?.right.get(stem) ?? 0) + 1 / n) / ((entry?.offered.get(stem) ?? 0) + 1);
      });
    };
  },
};

/** The most frequent key among right answers of these units (ties: the earliest seen). */
function mostFrequentRight(units: readonly AuditUnit[]): string | null {
  const counts = new Map<string, number>();
  for (const u of units) {
    const right = rightCandidate(u);
    if (right) counts.set(normalOf(right), (counts.get(normalOf(right)) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [key, n] of counts) if (best === null || n > counts.get(best)!) best = key;
  return best;
}

export const SPAN_NEIGHBOURS = 10;

/** The k units whose value is closest to x, from units sorted by value (ties: the lower value first). */
export function nearestByValue<T>(sorted: readonly T[], value: (t: T) => number, x: number, k: number): T[] {
  let hi = sorted.findIndex((t) => value(t) >= x);
  if (hi < 0) hi = sorted.length;
  let lo = hi - 1;
  const out: T[] = [];
  while (out.length < k && (lo >= 0 || hi < sorted.length)) {
    const below = lo >= 0 ? x - value(sorted[lo]!) : Infinity;
    const above = hi < sorted.length ? value(sorted[hi]!) - x : Infinity;
    if (below <= above) out.push(sorted[lo--]!);
    else out.push(sorted[hi++]!);
  }
  return out;
}

const labelBySpan: BlindRule = {
  name: "label-by-span",
  describe: `direction: the most frequent right label among the ${SPAN_NEIGHBOURS} training clips whose spans are closest in length (short spans are turns on the spot, longer ones walks); the label prior where there is no span`,
  tasks: ["direction"],
  fit(train) {
    const span = (u: AuditUnit) => u.features["span_frames"] ?? -1;
    const byTask = new Map<string, AuditUnit[]>();
    for (const u of train) {
      if (span(u) <= 0) continue;
      const list = byTask.get(u.task) ?? [];
      list.push(u);
      byTask.set(u.task, list);
    }
    for (const list of byTask.values()) list.sort((a, b) => span(a) - span(b));
    return (unit) => {
      const sorted = byTask.get(unit.task) ?? [];
      const pool = span(unit) > 0 && sorted.length > 0 ? nearestByValue(sorted, span, span(unit), SPAN_NEIGHBOURS) : train.filter((u) => u.task === unit.task);
      const label = mostFrequentRight(pool);
      return pickBest(unit, (c) => (normalOf(c) === label ? 1 : 0));
    };
  },
};

const coherentPlan: BlindRule = {
  name: "coherent-plan",
  describe: "planning: the plan with no step acting on an object before walking to it, no words the other plans lack (a replaced object), and the most steps (not the one with a step dropped)",
  tasks: ["planning"],
  fit: () => (unit) => pickBest(unit, (c) => -100 * c.features["plan_order_violations"]! - 10 * Math.min(c.features["unique_words"]!, 1) + c.features["plan_steps"]!),
};

const distanceZero: BlindRule = {
  name: "distance-zero",
  describe: 'distance: always "0" (the camera wearer stays on the spot)',
  tasks: ["distance"],
  fit: () => (unit) => numberReply(unit, 0),
};

/**
 * A clip-length rule fitted on training units: the shortest length (frames or seconds) of a clip
 * that moved, and the median metres per unit of length of the clips that moved. Null when no
 * training clip with a known length moved.
 */
export function fitLengthRule(train: readonly AuditUnit[], read: (u: AuditUnit) => number | undefined): { shortestMoving: number; rate: number } | null {
  const moving = train.flatMap((u) => {
    const x = read(u);
    return u.answer.kind === "number" && u.answer.truth > 0 && x !== undefined && x > 0 ? [{ x, rate: u.answer.truth / x }] : [];
  });
  if (moving.length === 0) return null;
  return { shortestMoving: Math.min(...moving.map((m) => m.x)), rate: median(moving.map((m) => m.rate))! };
}

function lengthRule(name: string, describe: string, read: (u: AuditUnit) => number | undefined, cue: boolean): BlindRule {
  return {
    name,
    describe,
    tasks: ["distance"],
    ...(cue ? { cue: true } : {}),
    fit(train) {
      const fitted = fitLengthRule(train, read);
      const fallback = median(train.flatMap((u) => (u.answer.kind === "number" ? [u.answer.truth] : []))) ?? 0;
      return (unit) => {
        const x = read(unit);
        if (fitted === null || x === undefined || x <= 0) return numberReply(unit, fallback);
        return numberReply(unit, x < fitted.shortestMoving ? 0 : fitted.rate * x);
      };
    },
  };
}

const distancePerFrame = lengthRule(
  "distance-by-span",
  "distance: 0 for a span shorter than every training clip that moved, else the moving training clips' median metres per frame times the span's frames (the shown frame numbers give the span); the training median where there is no span",
  (u) => u.features["span_frames"],
  false,
);

const distanceSpeed = lengthRule(
  "distance-by-seconds",
  "distance: 0 for a clip shorter than every training clip that moved, else the moving training clips' median speed (m/s) times the clip's seconds (the shown frames' timestamps); the training median where the length is unknown",
  (u) => u.cues?.["clip_seconds"],
  true,
);

export const EGOTL_AUDIT_RULES: BlindRule[] = [firstMentioned, mostSimilar, labelPrior, stemPrior, labelBySpan, coherentPlan, distanceZero, distancePerFrame, distanceSpeed];

// ---------------------------------------------------------------------------------------------
// Scores

/** Uniform guessing: one of the options (four), or one of the five direction labels; distance has none. */
export function egotlChance(items: EgoTLItem[], task: string): number | null {
  const group = items.filter((i) => i.task === task);
  if (group.length === 0 || task === "distance") return null;
  if (task === "direction") return 1 / DIRECTION_LABELS.length;
  return group.reduce((s, i) => s + 1 / (i.options?.length ?? LETTERS.length), 0) / group.length;
}

/** Avg. at chance: the mean of the asked multiple-choice tasks' chance (aggregate.ts scoreTasks); a distance-only set's MRA has none. */
export function egotlOverallChance(items: EgoTLItem[]): number | null {
  const asked = new Set(items.map((i) => i.task));
  const averaged = CHOICE_TASKS.filter((t) => asked.has(t));
  if (averaged.length === 0) return null;
  return averaged.reduce((s, t) => s + egotlChance(items, t)!, 0) / averaged.length;
}

export function egotlHeadline(summary: Omit<ScoresDocument, "benchmark" | "model">, task: string): Headline {
  const tasks = summary["tasks"] as Record<string, Record<string, unknown>> | undefined;
  const s = tasks?.[task];
  const metric = task === "distance" ? "MRA" : "accuracy";
  const value = s?.[metric];
  const ci = (s?.["ci"] as Record<string, unknown> | undefined)?.[metric];
  return { metric, score: typeof value === "number" ? value : null, ci: Array.isArray(ci) && ci.length === 2 ? [ci[0] as number, ci[1] as number] : null };
}

export function egotlCredit(_item: EgoTLItem, detail: Record<string, unknown>): number {
  if (typeof detail["MRA"] === "number") return detail["MRA"];
  return detail["correct"] === true && detail["excluded"] !== true ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Subsets in the release layout

/** A text file's lines and their terminators, as the JSONL reader numbers them (\r\n, \r, \n). */
function splitLines(text: string): Array<{ line: number; text: string; end: string }> {
  const out: Array<{ line: number; text: string; end: string }> = [];
  const re = /\r\n|\r|\n/g;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    out.push({ line: out.length + 1, text: text.slice(start, m.index), end: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push({ line: out.length + 1, text: text.slice(start), end: "" });
  return out;
}

/** The media paths a row names (relative to its file's folder): video, frames, a frame folder, the current view. */
function mediaRefs(row: Record<string, unknown>): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const media = row["media"] as Record<string, unknown> | undefined;
  if (typeof media?.["video"] === "string") files.push(media["video"]);
  if (Array.isArray(media?.["frames"])) for (const f of media["frames"]) if (typeof f === "string") files.push(f);
  if (typeof media?.["dir"] === "string") dirs.push(media["dir"]);
  if (typeof row["current_frame"] === "string") files.push(row["current_frame"]);
  return { files, dirs };
}

/** Copy one file found inside the root to the same place under outDir (the root's layout kept). */
function copyInto(rootDir: string, outDir: string, real: string, shownAt: string): void {
  const rel = path.relative(rootDir, shownAt);
  if (rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(`${shownAt} is outside the dataset root`);
  const target = path.join(outDir, rel);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, readRegularFile(real));
}

/**
 * The kept items as a dataset: each item file rewritten with only the kept rows (the rows' bytes
 * unchanged), the media those rows name copied to the same relative places, and the training
 * answers (train*.jsonl) and ATTRIBUTION copied as they are. Nothing outside the root is read.
 */
export async function writeEgoTLSubset(root: string, items: EgoTLItem[], keep: ReadonlySet<string>, outDir: string): Promise<void> {
  const rootDir = path.resolve(root);
  const dataRoot = new DataRoot(rootDir);
  const keptLines = new Map<string, Set<number>>();
  for (const item of items) {
    if (!keep.has(item.id)) continue;
    const set = keptLines.get(item.file) ?? new Set<number>();
    set.add(item.line);
    keptLines.set(item.file, set);
  }
  mkdirSync(outDir, { recursive: true });
  const itemFiles = new Set([...findItemFiles(rootDir).map((f) => path.relative(rootDir, f)), ...keptLines.keys()]);
  for (const file of itemFiles) {
    const read = dataRoot.readText(file, { what: "data file" });
    if (!read.ok) throw new Error(read.message);
    const kept = keptLines.get(file) ?? new Set<number>();
    const baseDir = path.dirname(path.join(rootDir, file));
    let out = "";
    for (const line of splitLines(read.text)) {
      if (!kept.has(line.line)) continue;
      out += `${line.text}\n`;
      const parsed = parseJson(line.text);
      if (!parsed.ok) throw new Error(`${file} line ${line.line}: ${parsed.message}`);
      const { files, dirs } = mediaRefs(parsed.value as Record<string, unknown>);
      for (const ref of files) {
        const found = dataRoot.resolve(ref, "file", { from: baseDir });
        if (!found.ok) throw new Error(found.message);
        copyInto(rootDir, outDir, found.path, path.resolve(baseDir, ref));
      }
      for (const ref of dirs) {
        const folder = dataRoot.frameFolder(ref, frameFolderNames, { from: baseDir });
        if (folder.path === null) throw new Error(folder.problems.join("; "));
        for (const name of folder.names) {
          const found = dataRoot.resolve(path.join(ref, name), "file", { from: baseDir });
          if (!found.ok) throw new Error(found.message);
          copyInto(rootDir, outDir, found.path, path.resolve(baseDir, ref, name));
        }
      }
    }
    const target = path.join(outDir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, out);
  }
  for (const extra of ["train.jsonl", "ATTRIBUTION"]) {
    const read = dataRoot.readText(extra);
    if (read.ok) writeFileSync(path.join(outDir, extra), read.text);
  }
}

// ---------------------------------------------------------------------------------------------

export const egotlAudit: BenchmarkAudit<EgoTLItem> = {
  async units(items, { cues }) {
    const templates = loadTemplates();
    const probes = new Map<string, ReturnType<typeof probeVideo>>();
    const units = items.map((item) => unitOf(item, templates));
    if (cues) {
      // Two probes at a time (one per core); each video is probed once (`probes` holds its promise).
      let next = 0;
      const worker = async () => {
        while (next < items.length) {
          const i = next++;
          units[i]!.cues = await cuesOf(items[i]!, probes);
        }
      };
      await Promise.all([worker(), worker()]);
    }
    return units;
  },
  rules: EGOTL_AUDIT_RULES,
  credit: egotlCredit,
  headline: egotlHeadline,
  chance: egotlChance,
  overallChance: egotlOverallChance,
  writeSubset: writeEgoTLSubset,
};
