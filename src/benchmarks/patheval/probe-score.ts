import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import { abstractionFormatOf, parseChosenDescriptors, type AbstractionFormat } from "./probes.js";
import { EPSILON_LEVELS, fineGrainedSetOf, PAPER_TABLE_8, PAPER_TABLE_9, parseStances, trueStances, type EpsilonLevel, type FineGrainedSet, type Stance } from "./probes.js";
import { readChoice } from "./score.js";
import type { ShownPair } from "./prompt.js";
import { DESCRIPTORS, type DescriptorName } from "./scenarios.js";
import type { PathEvalItem, PathName } from "./types.js";

export interface AbstractionOutcome {
  kind: "attribute-abstraction";
  stances: Record<DescriptorName, Stance>;
  truth: Record<DescriptorName, -1 | 0 | 1>;
  /** Direction right (smaller / larger / irrelevant) per descriptor. */
  correct: Record<DescriptorName, boolean>;
  /** Relevant-or-not right per descriptor (direction ignored). */
  relevanceCorrect: Record<DescriptorName, boolean>;
  /** "list": the paper's prompt (descriptors named, no direction); "stances": ours. */
  format: AbstractionFormat;
  /** The descriptors chosen: named in a list answer, or stated smaller / larger. */
  chosen: DescriptorName[];
  /** Table 12's success: at least one descriptor the scenario needs (Table 7) was chosen. */
  chose_relevant: boolean;
  /** Stricter companion: at least one needed descriptor was chosen with the scenario's direction (null for lists: no direction asked). */
  chose_relevant_with_direction: boolean | null;
}

export interface FineGrainedOutcome {
  kind: "fine-grained";
  descriptor: DescriptorName;
  choice: PathName | null;
  smaller: PathName;
  correct: boolean;
  level: "below" | EpsilonLevel;
  set: FineGrainedSet;
  difference: number;
  /** Segment study only: point, line or curve. */
  segment?: string;
}

/** Table 12's success from stated stances: a chosen (non-irrelevant) descriptor among the needed ones. */
export function choseRelevant(stances: Record<DescriptorName, Stance>, truth: Record<DescriptorName, -1 | 0 | 1>, withDirection = false): boolean {
  return DESCRIPTORS.some((d) => truth[d] !== 0 && stances[d] !== null && stances[d] !== 0 && (!withDirection || stances[d] === truth[d]));
}

export function scoreProbe(item: PathEvalItem, text: string | null, shown: ShownPair): AbstractionOutcome | FineGrainedOutcome {
  const probe = item.probe!;
  if (probe.kind === "attribute-abstraction" && abstractionFormatOf(probe) === "list") return scoreAbstractionList(probe.scenarioId, text);
  if (probe.kind === "attribute-abstraction") {
    const stances = text === null ? (Object.fromEntries(DESCRIPTORS.map((d) => [d, null])) as Record<DescriptorName, Stance>) : parseStances(text);
    const truth = trueStances(probe.scenarioId);
    const correct = {} as Record<DescriptorName, boolean>;
    const relevanceCorrect = {} as Record<DescriptorName, boolean>;
    for (const d of DESCRIPTORS) {
      correct[d] = stances[d] === truth[d];
      relevanceCorrect[d] = stances[d] !== null && (stances[d] !== 0) === (truth[d] !== 0);
    }
    return {
      kind: "attribute-abstraction", format: "stances", stances, truth, correct, relevanceCorrect,
      chosen: DESCRIPTORS.filter((d) => stances[d] === -1 || stances[d] === 1),
      chose_relevant: choseRelevant(stances, truth), chose_relevant_with_direction: choseRelevant(stances, truth, true),
    };
  }
  const choice = text === null ? null : readChoice(text, shown, "robust");
  const segment = (probe as { segment?: string }).segment;
  return {
    kind: "fine-grained", descriptor: probe.descriptor, choice, smaller: probe.smaller, correct: choice === probe.smaller, level: probe.level,
    set: fineGrainedSetOf(probe), difference: probe.difference, ...(segment ? { segment } : {}),
  };
}

/** The paper's list format: relevance per descriptor (named or not against needed or not); no direction to score. */
function scoreAbstractionList(scenarioId: number, text: string | null): AbstractionOutcome {
  const truth = trueStances(scenarioId);
  const chosen = text === null ? [] : parseChosenDescriptors(text);
  const stances = Object.fromEntries(DESCRIPTORS.map((d) => [d, null])) as Record<DescriptorName, Stance>;
  const correct = Object.fromEntries(DESCRIPTORS.map((d) => [d, false])) as Record<DescriptorName, boolean>;
  const relevanceCorrect = Object.fromEntries(DESCRIPTORS.map((d) => [d, chosen.includes(d) === (truth[d] !== 0)])) as Record<DescriptorName, boolean>;
  return {
    kind: "attribute-abstraction", format: "list", stances, truth, correct, relevanceCorrect, chosen,
    chose_relevant: chosen.some((d) => truth[d] !== 0), chose_relevant_with_direction: null,
  };
}

const rate = (k: number, n: number) => (n > 0 ? k / n : 0);
/** Unweighted mean of the non-empty cells, and how many there were (a table with empty cells says so). */
const mean = (values: ReadonlyArray<number | null>): { mean: number | null; cells: number } => {
  const known = values.filter((v): v is number => v !== null);
  return { mean: known.length > 0 ? known.reduce((s, v) => s + v, 0) / known.length : null, cells: known.length };
};

/**
 * Abstraction: accuracy per descriptor over scenarios, overall, for relevance alone, and Table 12's
 * measure (share of scenarios where at least one needed descriptor was chosen): one number per run,
 * which repeated runs average as the paper does over its 5 runs.
 */
export function summarizeAbstraction(outcomes: AbstractionOutcome[]) {
  // Lists name descriptors without a direction: direction accuracy is not defined for them.
  const lists = outcomes.some((o) => o.format === "list");
  const direction = (value: number) => (lists ? null : value);
  const perDescriptor = DESCRIPTORS.map((d) => ({
    descriptor: d,
    n: outcomes.length,
    accuracy: direction(rate(outcomes.filter((o) => o.correct[d]).length, outcomes.length)),
    relevance_accuracy: rate(outcomes.filter((o) => o.relevanceCorrect[d]).length, outcomes.length),
  }));
  const decisions = outcomes.length * DESCRIPTORS.length;
  return {
    n: outcomes.length,
    format: lists ? "list" : "stances",
    accuracy: direction(rate(outcomes.reduce((s, o) => s + DESCRIPTORS.filter((d) => o.correct[d]).length, 0), decisions)),
    relevance_accuracy: rate(outcomes.reduce((s, o) => s + DESCRIPTORS.filter((d) => o.relevanceCorrect[d]).length, 0), decisions),
    scenarios_all_correct: direction(outcomes.filter((o) => DESCRIPTORS.every((d) => o.correct[d])).length),
    table_12: {
      at_least_one_relevant: rate(outcomes.filter((o) => o.chose_relevant).length, outcomes.length),
      at_least_one_relevant_with_direction: direction(rate(outcomes.filter((o) => o.chose_relevant_with_direction === true).length, outcomes.length)),
      mean_chosen: outcomes.length > 0 ? outcomes.reduce((s, o) => s + o.chosen.length, 0) / outcomes.length : null,
      scenarios: outcomes.length,
    },
    per_descriptor: perDescriptor,
  };
}

export interface FineGrainedEntry {
  outcome: FineGrainedOutcome;
  cluster: string;
  task: string;
}

type Cell = { n: number; accuracy: number | null; mean_difference: number | null };

/** ε cell membership: the sample drawn for that ε (generated set), or the nested subset (test-set variant). */
function inCell(o: FineGrainedOutcome, eps: EpsilonLevel): boolean {
  if (o.level === "below") return false;
  return o.set === "generated" ? o.level === eps : EPSILON_LEVELS.indexOf(o.level) >= EPSILON_LEVELS.indexOf(eps);
}

function cell(list: FineGrainedOutcome[]): Cell {
  return {
    n: list.length,
    accuracy: list.length > 0 ? rate(list.filter((o) => o.correct).length, list.length) : null,
    mean_difference: list.length > 0 ? list.reduce((s, o) => s + o.difference, 0) / list.length : null,
  };
}

/**
 * Table 3's layout for one dimension: per descriptor, all its questions and each ε cell, with the
 * mean over the three ε; per ε, the cell pooled over descriptors and the mean over the seven
 * descriptors (unweighted means of the non-empty cells' accuracies; `*_cells` says how many). `mean_difference`
 * per cell is Table 9's quantity for the questions asked.
 */
function fineGrainedTable(outcomes: FineGrainedOutcome[]) {
  const perDescriptor = DESCRIPTORS.map((d) => {
    const group = outcomes.filter((o) => o.descriptor === d);
    const cells = Object.fromEntries(EPSILON_LEVELS.map((e) => [e, cell(group.filter((o) => inCell(o, e)))])) as Record<EpsilonLevel, Cell>;
    const m = mean(EPSILON_LEVELS.map((e) => cells[e].accuracy));
    return { descriptor: d, ...cell(group), ...cells, mean_over_epsilon: m.mean, mean_over_epsilon_cells: m.cells };
  });
  // Pooled over descriptors: counts and accuracy only (differences of different descriptors do not add up).
  const perEpsilon = Object.fromEntries(EPSILON_LEVELS.map((e) => {
    const { mean_difference: _units, ...pooled } = cell(outcomes.filter((o) => inCell(o, e)));
    const m = mean(perDescriptor.map((r) => r[e].accuracy));
    return [e, { ...pooled, mean_over_descriptors: m.mean, mean_over_descriptors_cells: m.cells }];
  })) as Record<EpsilonLevel, { n: number; accuracy: number | null; mean_over_descriptors: number | null; mean_over_descriptors_cells: number }>;
  const { mean_difference: _all, ...overall } = cell(outcomes);
  const m = mean(perDescriptor.map((r) => r.accuracy));
  return { ...overall, per_descriptor: perDescriptor, per_epsilon: perEpsilon, mean_over_descriptors: m.mean, mean_over_descriptors_cells: m.cells };
}

export const FINE_GRAINED_SET_LABELS: Record<FineGrainedSet, string> = {
  generated: "generated set (paper App. C.2: per descriptor and ε of Table 8, pairs drawn from all valid paths; ε samples independent)",
  "test-set": "test-set variant (one question per test pair and descriptor; ε cells are nested subsets of the test pairs by Table 8's ε)",
  segments: "segment-complexity study (paper §4.2, Fig. 2): which of two segments is closer to the one obstacle",
};

/** Paper §4.2: average clearance differences of its segment pairs, and GPT-4o's accuracies as the text gives them (Fig. 2d). */
export const PAPER_SEGMENTS = {
  mean_difference: { point: 14.76, line: 14.42, curve: 14.28 },
  gpt_4o_accuracy_text: { point: 0.77, line: 0.64, curve: 0.59 },
} as const;

/** Segment study (Fig. 2d's layout): accuracy per segment type and dimension, with the pairs' mean clearance difference. */
export function summarizeSegments(entries: FineGrainedEntry[]) {
  const types = ["point", "line", "curve"];
  const dims = [...new Set(entries.map((e) => e.task))].sort();
  const per = (list: FineGrainedEntry[]) => cell(list.map((e) => e.outcome));
  const all = per(entries);
  return {
    set: "segments" as const,
    set_label: FINE_GRAINED_SET_LABELS.segments,
    n: all.n,
    accuracy: all.accuracy,
    unreadable: entries.filter((e) => e.outcome.choice === null).length,
    by_dim: Object.fromEntries(dims.map((dim) => {
      const group = entries.filter((e) => e.task === dim);
      return [dim, { ...per(group), per_segment: types.map((t) => ({ segment: t, ...per(group.filter((e) => e.outcome.segment === t)) })) }];
    })),
    per_segment: types.map((t) => ({ segment: t, ...per(entries.filter((e) => e.outcome.segment === t)) })),
    paper: PAPER_SEGMENTS,
  };
}

/** Fine-grained: accuracy overall (with a cluster bootstrap), pooled and per dimension in Table 3's layout. */
export function summarizeFineGrained(entries: FineGrainedEntry[], bootstrap: { resamples: number; seed: number }) {
  const outcomes = entries.map((e) => e.outcome);
  let ci: Interval | null = null;
  if (bootstrap.resamples > 0 && outcomes.length > 0) {
    const byCluster = new Map<string, Float64Array>();
    for (const { outcome, cluster } of entries) {
      const v = byCluster.get(cluster) ?? new Float64Array(2);
      byCluster.set(cluster, v);
      v[0]! += 1;
      v[1]! += outcome.correct ? 1 : 0;
    }
    ci = clusterBootstrap([...byCluster.values()], (s) => ({ a: s[0]! > 0 ? s[1]! / s[0]! : NaN }), bootstrap)["a"] ?? null;
  }
  const sets = [...new Set(outcomes.map((o) => o.set))];
  const set: FineGrainedSet | "mixed" = sets.length === 1 ? sets[0]! : "mixed";
  const dims = [...new Set(entries.map((e) => e.task))].sort();
  const pooled = fineGrainedTable(outcomes);
  return {
    set,
    set_label: set === "mixed" ? "mixed sets" : FINE_GRAINED_SET_LABELS[set],
    epsilons: PAPER_TABLE_8,
    n: pooled.n,
    accuracy: pooled.accuracy,
    accuracy_ci: ci,
    unreadable: outcomes.filter((o) => o.choice === null).length,
    per_descriptor: pooled.per_descriptor,
    per_epsilon: pooled.per_epsilon,
    mean_over_descriptors: pooled.mean_over_descriptors,
    by_dim: Object.fromEntries(dims.map((dim) => [dim, fineGrainedTable(entries.filter((e) => e.task === dim).map((e) => e.outcome))])),
    paper_table_9: PAPER_TABLE_9,
  };
}
