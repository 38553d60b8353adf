import { DESCRIPTORS, scenarioById, type DescriptorName, type Direction } from "./scenarios.js";
import type { FineGrainedProbe, PathEvalItem } from "./types.js";

/**
 * The paper's two probes that locate failures (§4.2, App. C.2, D.1):
 * - attribute abstraction: for each scenario, which descriptors matter and in which direction,
 *   scored against the scenario's directions (Table 7), and by Table 12's measure (probe-score.ts);
 * - fine-grained perception: for one descriptor at a time, which path has the smaller value.
 *   The paper asks it on the test pairs (Table 3, "Test Set") and on a separate set sampled per
 *   descriptor and ε of Table 8 (finegrained-set.ts). Without that set, the "test-set variant"
 *   derives one question per (test record, descriptor) and groups them by the same ε values.
 */
export const PROBES = ["attribute-abstraction", "attribute-abstraction-list", "fine-grained", "fine-grained-test-set", "segments"] as const;
export type ProbeName = (typeof PROBES)[number];

export const EPSILON_LEVELS = ["ε1", "ε2", "ε3"] as const;
export type EpsilonLevel = (typeof EPSILON_LEVELS)[number];

/** Paper Table 8 (App. C.2): the fine-grained perception thresholds ε1 < ε2 < ε3 per descriptor. */
export const PAPER_TABLE_8: Readonly<Record<DescriptorName, readonly [number, number, number]>> = Object.freeze({
  "Minimum clearance": [1.0, 2.0, 3.0],
  "Maximum clearance": [1.0, 2.0, 3.0],
  "Average clearance": [1.0, 2.5, 5.0],
  "Path length": [50, 75, 100],
  "Smoothness": [100, 200, 300],
  "Sharp turns": [1, 2, 3],
  "Maximum angle": [30, 60, 90],
});

/** Paper Table 9: average |difference| of the pairs the paper sampled per descriptor and ε (its synthesized set). */
export const PAPER_TABLE_9: Readonly<Record<DescriptorName, readonly [number, number, number]>> = Object.freeze({
  "Minimum clearance": [1.7, 2.7, 3.7],
  "Maximum clearance": [2.4, 3.3, 3.8],
  "Average clearance": [2.4, 4.2, 5.8],
  "Path length": [72.4, 91.2, 113.4],
  "Smoothness": [339.4, 372.5, 447.6],
  "Sharp turns": [2.6, 3.5, 4.3],
  "Maximum angle": [57.6, 74.7, 98.7],
});

/** Which fine-grained question set an item belongs to ("segments": the segment-complexity study, segments.ts). */
export type FineGrainedSet = "generated" | "test-set" | "segments";

/**
 * A fine-grained probe with the set it comes from. `level`: for the generated set, the ε it was
 * sampled for (independent samples, so not nested); for the test-set variant, the largest ε the
 * difference exceeds (nested subsets ε1 ⊇ ε2 ⊇ ε3), "below" under ε1.
 */
export interface FineGrainedDetail extends FineGrainedProbe {
  set: FineGrainedSet;
  /** The ε value of `level` (Table 8), when level is not "below". */
  epsilon?: number;
}

export const fineGrainedSetOf = (probe: FineGrainedProbe): FineGrainedSet => (probe as Partial<FineGrainedDetail>).set ?? "test-set";

/**
 * How the abstraction probe asks: "stances" (ours: smaller / larger / irrelevant per descriptor) or
 * "list" (the paper's App. C.1.3: the most important descriptors, separated by semicolons).
 */
export type AbstractionFormat = "stances" | "list";

export const abstractionFormatOf = (probe: { kind: string }): AbstractionFormat => ((probe as { format?: AbstractionFormat }).format ?? "stances");

/** One abstraction item per scenario present in the records (scenario ids must be known). */
export function abstractionItems(records: PathEvalItem[], format: AbstractionFormat = "stances"): PathEvalItem[] {
  const seen = new Set<number>();
  const out: PathEvalItem[] = [];
  for (const r of records) {
    if (r.scenarioId === undefined || seen.has(r.scenarioId)) continue;
    seen.add(r.scenarioId);
    const probe = { kind: "attribute-abstraction" as const, scenarioId: r.scenarioId, ...(format === "list" ? { format } : {}) };
    out.push({ ...r, id: `abstraction/${r.scenarioId}`, cluster: `scenario ${r.scenarioId}`, probe });
  }
  return out.sort((a, b) => a.scenarioId! - b.scenarioId!);
}

/** The largest ε of Table 8 that the difference exceeds (strictly, App. C.2: |m(P1) - m(P2)| > ε), or "below". */
export function epsilonLevel(descriptor: DescriptorName, difference: number, epsilons: Readonly<Record<DescriptorName, readonly number[]>> = PAPER_TABLE_8): FineGrainedProbe["level"] {
  const e = epsilons[descriptor];
  for (let k = EPSILON_LEVELS.length - 1; k >= 0; k--) if (difference > e[k]!) return EPSILON_LEVELS[k]!;
  return "below";
}

/** Test-set variant: one fine-grained item per (test record, descriptor) whose two values differ. */
export function fineGrainedItems(records: PathEvalItem[]): PathEvalItem[] {
  const out: PathEvalItem[] = [];
  for (const r of records) {
    for (const descriptor of DESCRIPTORS) {
      const a = r.metrics["Path 1"][descriptor];
      const b = r.metrics["Path 2"][descriptor];
      if (!(a < b) && !(a > b)) continue;
      const difference = Math.abs(a - b);
      const level = epsilonLevel(descriptor, difference);
      const probe: FineGrainedDetail = {
        kind: "fine-grained", descriptor, smaller: a < b ? "Path 1" : "Path 2", difference, level, set: "test-set",
        ...(level !== "below" ? { epsilon: PAPER_TABLE_8[descriptor][EPSILON_LEVELS.indexOf(level)]! } : {}),
      };
      out.push({ ...r, id: `${r.id}/${descriptor}`, probe });
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

/** Names a reply may use for each descriptor (lower case; the paper's prompt says "Maximum Turn Angle", "Number of Sharp Turns"). */
const DESCRIPTOR_ALIASES: Record<DescriptorName, string[]> = {
  "Minimum clearance": ["minimum clearance", "min clearance", "min. clearance"],
  "Maximum clearance": ["maximum clearance", "max clearance", "max. clearance"],
  "Average clearance": ["average clearance", "avg clearance", "avg. clearance", "mean clearance"],
  "Path length": ["path length", "length"],
  "Smoothness": ["smoothness"],
  "Sharp turns": ["sharp turn"],
  "Maximum angle": ["maximum angle", "max angle", "max. angle", "maximum turn angle", "max turn angle", "max. turn angle", "turn angle"],
};

/** The longest reply part read for a list answer (longer text is cut: bounded work on any input). */
const MAX_LIST_CHARS = 4000;

/**
 * The descriptors a list answer names (paper App. C.1.3 format, "Answer: a; b; c"): the text after
 * "Answer" (or from the start) up to "Explanation", searched for each descriptor's names, in
 * DESCRIPTORS order (the release's). Plain substring search: linear in the (bounded) text.
 */
export function parseChosenDescriptors(text: string): DescriptorName[] {
  const lower = text.slice(0, MAX_LIST_CHARS).toLowerCase().replace(/[*_`#]/g, " ").replace(/\s+/g, " ");
  const answerAt = lower.indexOf("answer");
  const from = answerAt >= 0 ? answerAt + "answer".length : 0;
  const explanationAt = lower.indexOf("explanation", from);
  const part = lower.slice(from, explanationAt >= 0 ? explanationAt : undefined);
  return DESCRIPTORS.filter((d) => DESCRIPTOR_ALIASES[d].some((alias) => part.includes(alias)));
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
