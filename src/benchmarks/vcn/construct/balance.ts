/**
 * Cue balance across a generated set (issue 28 item 1). The audit's cue rules answer without the
 * relation: "the last frame showing the named category" and "the frame with the most pixels of
 * the named object" (audit.ts). Over a task's episodes, each rule should find a success frame no
 * more often than the category chance says a blind pick among the category's frames would. The
 * tour's order makes them stronger than that (the farthest room is often visited last, the asked
 * instance often seen last), so each task keeps a tally — per rule, how many chosen episodes the
 * rule answers, against the sum of their category chances — and the choice of episodes keeps the
 * first from running ahead of the second.
 */
import { cueRulePicks, CUE_RULE_SCORES, type CueItem, type PixelTable } from "../audit.js";
import { chanceLevels } from "../chance.js";
import type { TaskCode } from "../schema.js";
import type { GoalTarget } from "../types.js";
import type { Tour } from "./tour-types.js";

const RULES = Object.keys(CUE_RULE_SCORES) as Array<keyof typeof CUE_RULE_SCORES>;

/** What one episode adds to its task's tally: 1 per cue rule that picks a success frame, and its category chance. */
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

/**
 * Per task, how far each cue rule's hits run ahead of the chosen episodes' summed category chance.
 * Only running ahead counts (the audit's gate is one-sided): weighing a shortfall too would favour
 * episodes of high category chance, i.e. few distractor frames (design principle iii).
 */
export class CueTally {
  private readonly lead = new Map<TaskCode, number[]>();

  private of(task: TaskCode): number[] {
    return this.lead.get(task) ?? new Array<number>(RULES.length).fill(0);
  }

  /** Adding `o` takes some rule that its pick hits further ahead, beyond `slack` episodes. */
  worsens(task: TaskCode, o: CueOutcome, slack: number): boolean {
    return this.of(task).some((d, r) => o.hits[r] === 1 && d + 1 - o.chance > slack);
  }

  add(task: TaskCode, o: CueOutcome): void {
    this.lead.set(task, this.of(task).map((d, r) => d + o.hits[r]! - o.chance));
  }
}

/** How many cue rules answer an episode (of those that must wait, fewer is better). */
export const rulesAnswering = (o: CueOutcome): number => o.hits.reduce((a, b) => a + b, 0);
