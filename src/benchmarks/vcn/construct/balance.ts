/**
 * Cue balance across a generated set (issue 28 item 1). The audit's cue rules answer without the
 * relation: "the first / the last frame showing the named category" and "the frame with the most
 * pixels of the named object" (audit.ts CUE_RULES). Over a task's episodes, each rule should find
 * a success frame no more often than the category chance says a blind pick among the category's
 * frames would. The tour's order makes them stronger than that (the farthest room is often visited
 * last, the asked instance often seen last), so each task, and each place relation (tallyKeys),
 * keeps a tally — per rule, how many chosen episodes the rule answers, against the sum of their
 * category chances — and the choice of episodes keeps the first from running ahead of the second.
 */
import { cueRulePicks, CUE_RULES, type CueItem, type CueRuleName, type PixelTable } from "../audit.js";
import { chanceLevels } from "../chance.js";
import type { TaskCode } from "../schema.js";
import type { GoalTarget } from "../types.js";
import type { EpisodePlan } from "./plan.js";
import type { Tour } from "./tour-types.js";

const RULES = Object.keys(CUE_RULES) as CueRuleName[];

/** What one episode adds to its tallies: 1 per cue rule that picks a success frame, and its category chance. */
export interface CueOutcome {
  hits: number[];
  chance: number;
}

/** The visible pixels of each object in each frame of a tour (what tour.json gives the audit). */
export function tourPixels(tour: Tour): PixelTable {
  return new Map(tour.frames.map((f) => [f.index, new Map(f.objects.map((o) => [o.name, o.pixels]))]));
}

/** The cue rules' outcome on an item as the generator writes it. */
export function cueOutcome(item: CueItem & { answers?: number[] }, goal: GoalTarget, pixels: PixelTable): CueOutcome {
  const picks = cueRulePicks(item, pixels);
  const success = new Set(item.answers ?? []);
  return { hits: RULES.map((r) => (success.has(picks[r]) ? 1 : 0)), chance: chanceLevels({ target: goal, annotations: item.annotations }).category };
}

/** Types whose relation names a place (nearest, farthest, northernmost) rather than an order in the video. */
const PLACE_TASKS: readonly TaskCode[] = ["distance", "orientation", "instance"];

/**
 * The tallies an episode counts in: its task's, and for the types whose relation names a place,
 * its subclass and relation's too. The first or the last frame of the named category answering
 * "first" or "before" is what the relation means; answering "farthest" or "southernmost" it is a
 * give-away a forest reads together with the relation word (seed 28, 250 episodes: 15 of 20
 * "southernmost" targets were the first or the last room of their category in the window, and the
 * cue forest scored 42-44 on Orientation against a category chance of 31).
 */
export function tallyKeys(plan: Pick<EpisodePlan, "task" | "subclass" | "query">): string[] {
  return PLACE_TASKS.includes(plan.task) ? [plan.task, `${plan.subclass}|${plan.query?.relation ?? ""}`] : [plan.task];
}

/**
 * Per tally (tallyKeys), how far each cue rule's hits run ahead of the chosen episodes' summed
 * category chance. Only running ahead counts (the audit's gate is one-sided): weighing a shortfall
 * too would favour episodes of high category chance, i.e. few distractor frames (design principle iii).
 */
export class CueTally {
  private readonly lead = new Map<string, number[]>();

  private of(key: string): number[] {
    return this.lead.get(key) ?? new Array<number>(RULES.length).fill(0);
  }

  /** Adding `o` takes some rule that its pick hits further ahead, beyond `slack` episodes, in one of the tallies. */
  worsens(keys: readonly string[], o: CueOutcome, slack: number): boolean {
    return keys.some((key) => this.of(key).some((d, r) => o.hits[r] === 1 && d + 1 - o.chance > slack));
  }

  add(keys: readonly string[], o: CueOutcome): void {
    for (const key of keys) this.lead.set(key, this.of(key).map((d, r) => d + o.hits[r]! - o.chance));
  }
}

/** How many cue rules answer an episode (of those that must wait, fewer is better). */
export const rulesAnswering = (o: CueOutcome): number => o.hits.reduce((a, b) => a + b, 0);
