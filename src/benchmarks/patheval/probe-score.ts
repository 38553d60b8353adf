import { clusterBootstrap, type Interval } from "../../stats/bootstrap.js";
import { parseStances, trueStances, type Stance } from "./probes.js";
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
}

export interface FineGrainedOutcome {
  kind: "fine-grained";
  descriptor: DescriptorName;
  choice: PathName | null;
  smaller: PathName;
  correct: boolean;
  level: "below" | "ε1" | "ε2" | "ε3";
}

export function scoreProbe(item: PathEvalItem, text: string | null, shown: ShownPair): AbstractionOutcome | FineGrainedOutcome {
  const probe = item.probe!;
  if (probe.kind === "attribute-abstraction") {
    const stances = text === null ? (Object.fromEntries(DESCRIPTORS.map((d) => [d, null])) as Record<DescriptorName, Stance>) : parseStances(text);
    const truth = trueStances(probe.scenarioId);
    const correct = {} as Record<DescriptorName, boolean>;
    const relevanceCorrect = {} as Record<DescriptorName, boolean>;
    for (const d of DESCRIPTORS) {
      correct[d] = stances[d] === truth[d];
      relevanceCorrect[d] = stances[d] !== null && (stances[d] !== 0) === (truth[d] !== 0);
    }
    return { kind: "attribute-abstraction", stances, truth, correct, relevanceCorrect };
  }
  const choice = text === null ? null : readChoice(text, shown, "robust");
  return { kind: "fine-grained", descriptor: probe.descriptor, choice, smaller: probe.smaller, correct: choice === probe.smaller, level: probe.level };
}

const rate = (k: number, n: number) => (n > 0 ? k / n : 0);

/** Abstraction: accuracy per descriptor over scenarios, overall, and for relevance alone. */
export function summarizeAbstraction(outcomes: AbstractionOutcome[]) {
  const perDescriptor = DESCRIPTORS.map((d) => ({
    descriptor: d,
    n: outcomes.length,
    accuracy: rate(outcomes.filter((o) => o.correct[d]).length, outcomes.length),
    relevance_accuracy: rate(outcomes.filter((o) => o.relevanceCorrect[d]).length, outcomes.length),
  }));
  const decisions = outcomes.length * DESCRIPTORS.length;
  return {
    n: outcomes.length,
    accuracy: rate(outcomes.reduce((s, o) => s + DESCRIPTORS.filter((d) => o.correct[d]).length, 0), decisions),
    relevance_accuracy: rate(outcomes.reduce((s, o) => s + DESCRIPTORS.filter((d) => o.relevanceCorrect[d]).length, 0), decisions),
    scenarios_all_correct: outcomes.filter((o) => DESCRIPTORS.every((d) => o.correct[d])).length,
    per_descriptor: perDescriptor,
  };
}

/** Fine-grained: accuracy overall, per descriptor, and on the nested ε subsets (ε1 ⊇ ε2 ⊇ ε3). */
export function summarizeFineGrained(outcomes: FineGrainedOutcome[], clusters: string[], bootstrap: { resamples: number; seed: number }) {
  const inSubset = (o: FineGrainedOutcome, eps: "ε1" | "ε2" | "ε3") => o.level !== "below" && ["ε1", "ε2", "ε3"].indexOf(o.level) >= ["ε1", "ε2", "ε3"].indexOf(eps);
  const acc = (list: FineGrainedOutcome[]) => ({ n: list.length, accuracy: list.length > 0 ? rate(list.filter((o) => o.correct).length, list.length) : null });
  let ci: Interval | null = null;
  if (bootstrap.resamples > 0 && outcomes.length > 0) {
    const byCluster = new Map<string, Float64Array>();
    outcomes.forEach((o, i) => {
      const v = byCluster.get(clusters[i]!) ?? new Float64Array(2);
      byCluster.set(clusters[i]!, v);
      v[0]! += 1;
      v[1]! += o.correct ? 1 : 0;
    });
    ci = clusterBootstrap([...byCluster.values()], (s) => ({ a: s[0]! > 0 ? s[1]! / s[0]! : NaN }), bootstrap)["a"] ?? null;
  }
  return {
    ...acc(outcomes),
    accuracy_ci: ci,
    unreadable: outcomes.filter((o) => o.choice === null).length,
    per_descriptor: DESCRIPTORS.map((d) => {
      const group = outcomes.filter((o) => o.descriptor === d);
      return { descriptor: d, ...acc(group), ε1: acc(group.filter((o) => inSubset(o, "ε1"))), ε2: acc(group.filter((o) => inSubset(o, "ε2"))), ε3: acc(group.filter((o) => inSubset(o, "ε3"))) };
    }),
    per_epsilon: { ε1: acc(outcomes.filter((o) => inSubset(o, "ε1"))), ε2: acc(outcomes.filter((o) => inSubset(o, "ε2"))), ε3: acc(outcomes.filter((o) => inSubset(o, "ε3"))) },
  };
}
