/**
 * All episode plans of a tour, de-duplicated by tag (App. B.1, Fig. 8: overlapping prior videos
 * give the same instruction; one is kept), and the choice of which to build.
 *
 * Choice, per task: the plans' subclasses, and within each its relations, take turns from a drawn
 * group (so both Order and both Count subclasses appear, and "before" as often as "after", "first"
 * as "second": otherwise "the last frame showing the category" answers a type whose relation is
 * mostly one way; Distance targets early among their candidates take turns with late ones,
 * candidateSide); within a group, plans with the lower category chance come first (more
 * distractor frames of the target's category: design principle iii; for Instance, more instances
 * of its category, see rankingChance), ties in a seeded order.
 *
 * No window gives its answer away by where it starts or ends (issue 28): a window must start before
 * its first success frame (the target room or object) and go on past its last, and of the windows
 * that gave a tag, those whose success frames sit near a position drawn uniformly over the window
 * are taken. Preferring low category chance alone favoured windows that end as the target room is
 * entered ("answer the last frame" scored Rid-SR 44 against a category chance of 30).
 */
import type { Rng } from "../../../stats/rng.js";
import type { TaskCode } from "../schema.js";
import { countPlans } from "./count.js";
import { distancePlans } from "./distance.js";
import type { TourSpace } from "./episode.js";
import { windowFacts, type WindowFacts } from "./facts.js";
import { instancePlans } from "./instance.js";
import { orderPlans } from "./order.js";
import { orientationPlans } from "./orientation.js";
import type { EpisodePlan } from "./plan.js";
import { priorWindows } from "./windows.js";

export interface TaggedPlans {
  tag: string;
  task: TaskCode;
  subclass: string;
  /** The plan from every window (of any tour of the house) that gave the tag, with that window's facts and tour. */
  variants: Array<{ plan: EpisodePlan; facts: WindowFacts; space: TourSpace }>;
}

/** Every plan of every window of the tour, grouped by tag (in first-seen order). */
export function tourPlans(space: TourSpace, minFrames: number, step: number, maxFrames = Infinity): TaggedPlans[] {
  const byTag = new Map<string, TaggedPlans>();
  const frames = space.tour.frames;
  for (const window of priorWindows(frames, minFrames, step)) {
    if (window.last - window.first + 1 > maxFrames) continue;
    const facts = windowFacts(frames, window);
    const plans = [
      ...orderPlans(space.house, facts),
      ...countPlans(space.house, facts),
      ...distancePlans(space.house, facts, (w, room) => space.probe(w, room)),
      ...orientationPlans(space.house, facts),
      ...instancePlans(space.house, facts),
    ];
    for (const plan of plans) {
      const entry = byTag.get(plan.tag);
      if (entry) entry.variants.push({ plan, facts, space });
      else byTag.set(plan.tag, { tag: plan.tag, task: plan.task, subclass: plan.subclass, variants: [{ plan, facts, space }] });
    }
  }
  return [...byTag.values()];
}

/** The tagged plans of several tours of one house merged by tag (a tag names the same instruction in the same scene). */
export function mergeTagged(lists: readonly TaggedPlans[][]): TaggedPlans[] {
  const byTag = new Map<string, TaggedPlans>();
  for (const list of lists) {
    for (const t of list) {
      const entry = byTag.get(t.tag);
      if (entry) entry.variants.push(...t.variants);
      else byTag.set(t.tag, { ...t, variants: [...t.variants] });
    }
  }
  return [...byTag.values()];
}

/** A plan's frames of its window (positions 0..n-1) that succeed, and those of the target's category (Rid/Oid rules, chance.ts). */
function windowFrames(space: TourSpace, plan: EpisodePlan): { success: number[]; inCategory: number; length: number } {
  const frames = space.tour.frames.slice(plan.window.first, plan.window.last + 1);
  const success: number[] = [];
  let inCategory = 0;
  const object = plan.targetObject !== undefined ? space.house.objects.get(plan.targetObject)! : undefined;
  const roomCategory = object ? undefined : space.house.rooms.get(plan.targetRoom)!.category;
  frames.forEach((f, k) => {
    if (object ? f.objects.some((o) => o.name === object.name) : f.room === plan.targetRoom) success.push(k);
    if (object ? f.objects.some((o) => o.category === object.category) : f.room !== null && space.house.rooms.get(f.room)!.category === roomCategory) inCategory++;
  });
  return { success, inCategory, length: frames.length };
}

/** The category chance of a plan in its window: success frames over frames of the target's category. */
export function planCategoryChance(space: TourSpace, plan: EpisodePlan): number {
  const { success, inCategory } = windowFrames(space, plan);
  return inCategory > 0 ? success.length / inCategory : 1;
}

/** Where a plan's success frames sit in its window: their mean position, 0 the first frame, 1 the last (null: none). */
export function successPosition(space: TourSpace, plan: EpisodePlan): number | null {
  const { success, length } = windowFrames(space, plan);
  if (success.length === 0) return null;
  return length > 1 ? success.reduce((s, k) => s + k, 0) / success.length / (length - 1) : 0;
}

/** The window starts before its first success frame and goes on past its last: neither end frame shows the answer. */
export function targetInside(space: TourSpace, plan: EpisodePlan): boolean {
  const { success, length } = windowFrames(space, plan);
  return success.length > 0 && success[0]! > 0 && success[success.length - 1]! < length - 1;
}

/** Instance: one over the number of distinct instances of the target's category seen in the window (a blind pick among them). */
function instanceShare(space: TourSpace, plan: EpisodePlan): number {
  const category = space.house.objects.get(plan.targetObject!)!.category;
  const seen = new Set(space.tour.frames.slice(plan.window.first, plan.window.last + 1).flatMap((f) => f.objects.filter((o) => o.category === category).map((o) => o.name)));
  return 1 / Math.max(1, seen.size);
}

/**
 * What a plan is ranked by, lower first: its category chance, except for Instance, ranked by how
 * many instances of its category the window shows (instanceShare). There the category chance is the
 * target's share of the category's sightings, and preferring it low picked targets seen briefly and
 * small beside distractors seen often and large, which a cue forest reads (at seed 28, 250
 * episodes: targets in 3.8 frames at 6,420 px on average, the other instances in 12.3 at 8,944 px;
 * forest 38.0 against a category chance of 21.9).
 */
function rankingChance(space: TourSpace, plan: EpisodePlan): number {
  return plan.task === "instance" ? instanceShare(space, plan) : planCategoryChance(space, plan);
}

/**
 * Distance: whether the target is in the first half of its candidate rooms in visit order ("early")
 * or the second ("late"); "" for other tasks. Unlike Count's ordinals or Order's before/after, the
 * relation does not say where the answer lies in the tour, but the chosen windows did: at seed 29,
 * 500 episodes, 39 of 54 "farthest" and 30 of 46 "nearest" targets were early, and the audit's
 * cue forest beat the category chance by 7 points on early frames of the named category.
 */
export function candidateSide(plan: EpisodePlan): "early" | "late" | "" {
  if (plan.task !== "distance" || !plan.query) return "";
  return plan.query.candidates.indexOf(plan.targetRoom) < plan.query.candidates.length / 2 ? "early" : "late";
}

/** A tag's windows that hold the target inside, in the tag's order. */
const insideVariants = (t: TaggedPlans): TaggedPlans["variants"] => t.variants.filter((v) => targetInside(v.space, v.plan));

/** A tag's side: candidateSide of its first window holding the target inside (windows of other extents may hold other candidates). */
const sideOf = (inside: TaggedPlans["variants"]): string => (inside.length > 0 ? candidateSide(inside[0]!.plan) : "");

/** Tagged plans of one task in the order they are tried (see the file comment); tags with no window holding the target inside are left out. */
export function choiceOrder(tagged: readonly TaggedPlans[], task: TaskCode, rng: Rng): TaggedPlans[] {
  const own = rng.shuffle(tagged.filter((t) => t.task === task).map((t) => ({ t, inside: insideVariants(t) })).filter((x) => x.inside.length > 0));
  const score = new Map(own.map(({ t, inside }) => [t.tag, Math.min(...inside.map((v) => rankingChance(v.space, v.plan)))]));
  const groups = new Map<string, TaggedPlans[]>();
  for (const { t, inside } of own) {
    const key = `${t.subclass}|${t.variants[0]!.plan.query?.relation ?? ""}|${sideOf(inside)}`;
    const g = groups.get(key);
    if (g) g.push(t);
    else groups.set(key, [t]);
  }
  const sorted = [...groups.keys()].sort().map((k) => groups.get(k)!.map((t, i) => ({ t, i })).sort((a, b) => score.get(a.t.tag)! - score.get(b.t.tag)! || a.i - b.i).map((x) => x.t));
  // The turns start at a drawn group: a house asked for one episode of the task would otherwise always take the first group.
  const first = sorted.length > 0 ? rng.below(sorted.length) : 0;
  const lists = [...sorted.slice(first), ...sorted.slice(0, first)];
  const out: TaggedPlans[] = [];
  for (let round = 0; out.length < own.length; round++) for (const list of lists) if (round < list.length) out.push(list[round]!);
  return out;
}

/** Success positions this close to the drawn one count as on target (the category chance then decides). */
export const POSITION_TOLERANCE = 0.25;

/**
 * A tag's variants in the order they are tried: only windows that hold the target inside; those on
 * the tag's side (candidateSide) before the others; then first those whose success frames sit
 * within POSITION_TOLERANCE of a position drawn uniformly for this tag, by rankingChance (the
 * lowest category chance first: design principle iii), then the others nearest first; ties in a
 * seeded order.
 */
export function variantOrder(t: TaggedPlans, rng: Rng): TaggedPlans["variants"] {
  const aim = rng.next();
  const inside = insideVariants(t);
  const side = sideOf(inside);
  const offAim = (v: TaggedPlans["variants"][number]) => {
    const d = Math.abs(successPosition(v.space, v.plan)! - aim);
    return d <= POSITION_TOLERANCE ? 0 : d;
  };
  return rng
    .shuffle(inside)
    .map((v, i) => ({ v, i, s: candidateSide(v.plan) === side ? 0 : 1, d: offAim(v), c: rankingChance(v.space, v.plan) }))
    .sort((a, b) => a.s - b.s || a.d - b.d || a.c - b.c || a.i - b.i)
    .map((x) => x.v);
}
