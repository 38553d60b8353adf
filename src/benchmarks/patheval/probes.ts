import { DESCRIPTORS, PAPER_THRESHOLDS, scenarioById, type DescriptorName, type Direction, type Descriptors } from "./scenarios.js";
import type { FineGrainedProbe, PathEvalItem } from "./types.js";

/**
 * The paper's two probes that locate failures (§5):
 * - attribute abstraction: for each scenario, which descriptors matter and in which direction,
 *   scored against the scenario's directions (Table 7);
 * - fine-grained perception: for one descriptor at a time, which path has the smaller value,
 *   reported on nested subsets of pairs whose difference is at least ε1, ε2, ε3 (Table 8).
 *   The paper's ε values are not in the public material; ours are 1×, 2× and 4× the labelling
 *   thresholds (PAPER_THRESHOLDS), overridable.
 */
export const PROBES = ["attribute-abstraction", "fine-grained"] as const;
export type ProbeName = (typeof PROBES)[number];

export const EPSILON_MULTIPLIERS: Record<"ε1" | "ε2" | "ε3", number> = { "ε1": 1, "ε2": 2, "ε3": 4 };

/** One abstraction item per scenario present in the records (scenario ids must be known). */
export function abstractionItems(records: PathEvalItem[]): PathEvalItem[] {
  const seen = new Set<number>();
  const out: PathEvalItem[] = [];
  for (const r of records) {
    if (r.scenarioId === undefined || seen.has(r.scenarioId)) continue;
    seen.add(r.scenarioId);
    out.push({ ...r, id: `abstraction/${r.scenarioId}`, cluster: `scenario ${r.scenarioId}`, probe: { kind: "attribute-abstraction", scenarioId: r.scenarioId } });
  }
  return out.sort((a, b) => a.scenarioId! - b.scenarioId!);
}

export function epsilonLevel(descriptor: DescriptorName, difference: number, thresholds: Descriptors = PAPER_THRESHOLDS): FineGrainedProbe["level"] {
  const t = thresholds[descriptor];
  if (difference >= EPSILON_MULTIPLIERS["ε3"] * t) return "ε3";
  if (difference >= EPSILON_MULTIPLIERS["ε2"] * t) return "ε2";
  if (difference >= EPSILON_MULTIPLIERS["ε1"] * t) return "ε1";
  return "below";
}

/** One fine-grained item per (record, descriptor) whose two values differ. */
export function fineGrainedItems(records: PathEvalItem[]): PathEvalItem[] {
  const out: PathEvalItem[] = [];
  for (const r of records) {
    for (const descriptor of DESCRIPTORS) {
      const a = r.metrics["Path 1"][descriptor];
      const b = r.metrics["Path 2"][descriptor];
      if (!(a < b) && !(a > b)) continue;
      const difference = Math.abs(a - b);
      out.push({
        ...r,
        id: `${r.id}/${descriptor}`,
        probe: { kind: "fine-grained", descriptor, smaller: a < b ? "Path 1" : "Path 2", difference, level: epsilonLevel(descriptor, difference) },
      });
    }
  }
  return out;
}

export type Stance = Direction | null;

/** Read "<descriptor>: smaller | larger | irrelevant" lines (synonyms accepted); unread descriptors are null. */
export function parseStances(text: string): Record<DescriptorName, Stance> {
  const plain = text.replace(/[*_`#]+/g, " ");
  const out = {} as Record<DescriptorName, Stance>;
  for (const d of DESCRIPTORS) {
    const match = new RegExp(`${d.replace(" ", "\\s+")}\\s*[:：=\\-–]\\s*([A-Za-z' ]{0,40})`, "i").exec(plain);
    const word = match?.[1]?.toLowerCase() ?? "";
    out[d] = /^\s*(smaller|lower|less|minimi|decrease|shorter|fewer)/.test(word) ? -1
      : /^\s*(larger|higher|greater|more|maximi|increase|longer|bigger)/.test(word) ? 1
      : /^\s*(irrelevant|not relevant|does not matter|doesn't matter|neither|no preference|n\/a|none|unimportant)/.test(word) ? 0
      : null;
  }
  return out;
}

/** Truth for the abstraction probe: the scenario's direction for each descriptor (0 = irrelevant). */
export function trueStances(scenarioId: number): Record<DescriptorName, Direction> {
  const directions = scenarioById(scenarioId).directions;
  return Object.fromEntries(DESCRIPTORS.map((d) => [d, directions[d] ?? 0])) as Record<DescriptorName, Direction>;
}

export const DESCRIPTOR_MEANINGS: Record<DescriptorName, string> = {
  "Minimum clearance": "the smallest distance between the path and any obstacle",
  "Maximum clearance": "the largest distance between a point of the path and its nearest obstacle",
  "Average clearance": "the mean distance between the path's points and their nearest obstacles",
  "Path length": "the total length of the path",
  "Smoothness": "the sum of the path's turning angles (a smoother path has a smaller value)",
  "Sharp turns": "the number of turns sharper than 90 degrees",
  "Maximum angle": "the sharpest turning angle along the path",
};
