/**
 * All episode plans of a tour, de-duplicated by tag (App. B.1, Fig. 8: overlapping prior videos
 * give the same instruction; one is kept), and the choice of which to build.
 *
 * Choice, per task: the plans' subclasses take turns (so both Order and both Count subclasses
 * appear); within a subclass, plans with the lower category chance come first (more distractor
 * frames of the target's category: design principle iii), ties in a seeded order. Of the windows
 * that gave a tag, one is drawn at random.
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

/** The category chance of a plan in its window: success frames over frames of the target's category. */
export function planCategoryChance(space: TourSpace, plan: EpisodePlan): number {
  const frames = space.tour.frames.slice(plan.window.first, plan.window.last + 1);
  if (plan.targetObject !== undefined) {
    const category = space.house.objects.get(plan.targetObject)!.category;
    const inCategory = frames.filter((f) => f.objects.some((o) => o.category === category)).length;
    const success = frames.filter((f) => f.objects.some((o) => o.name === plan.targetObject)).length;
    return inCategory > 0 ? success / inCategory : 1;
  }
  const category = space.house.rooms.get(plan.targetRoom)!.category;
  const inCategory = frames.filter((f) => f.room !== null && space.house.rooms.get(f.room)!.category === category).length;
  const success = frames.filter((f) => f.room === plan.targetRoom).length;
  return inCategory > 0 ? success / inCategory : 1;
}

/** Tagged plans of one task in the order they are tried (see the file comment). */
export function choiceOrder(tagged: readonly TaggedPlans[], task: TaskCode, rng: Rng): TaggedPlans[] {
  const own = rng.shuffle(tagged.filter((t) => t.task === task));
  const score = new Map(own.map((t) => [t.tag, Math.min(...t.variants.map((v) => planCategoryChance(v.space, v.plan)))]));
  const groups = new Map<string, TaggedPlans[]>();
  for (const t of own) {
    const g = groups.get(t.subclass);
    if (g) g.push(t);
    else groups.set(t.subclass, [t]);
  }
  const lists = [...groups.keys()].sort().map((k) => groups.get(k)!.map((t, i) => ({ t, i })).sort((a, b) => score.get(a.t.tag)! - score.get(b.t.tag)! || a.i - b.i).map((x) => x.t));
  const out: TaggedPlans[] = [];
  for (let round = 0; out.length < own.length; round++) for (const list of lists) if (round < list.length) out.push(list[round]!);
  return out;
}

/** A tag's variants in the order they are tried: lowest category chance first, ties in a seeded order. */
export function variantOrder(t: TaggedPlans, rng: Rng): TaggedPlans["variants"] {
  return rng.shuffle(t.variants).map((v, i) => ({ v, i, c: planCategoryChance(v.space, v.plan) })).sort((a, b) => a.c - b.c || a.i - b.i).map((x) => x.v);
}
