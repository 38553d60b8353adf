/**
 * Test/train splits of the labelled pairs and label balancing (generate patheval).
 * - splitByScenario (default, paper §3.5): per scenario a seeded draw of N test pairs; the rest trains.
 * - splitByEnvironment (split=environment): whole environments go to test until every scenario can
 *   fill its N, the others train; so no environment is in both. Pairs of test environments beyond
 *   the N drawn are in neither split (counted as unused).
 * - balanceSides (balance=true): per scenario, swap the sides of some majority-label test pairs so
 *   Path 1 and Path 2 labels are equal (or one apart for an odd count). Swapping exchanges the two
 *   paths and their descriptors, so the label flips by the same rule; the record says `swapped`.
 */
import { appendAll } from "../../core/problems.js";
import { createRng } from "../../stats/rng.js";
import type { EnvironmentPlans } from "./plan.js";
import { SCENARIOS, type Descriptors } from "./scenarios.js";
import type { PathName } from "./types.js";

export interface Sample {
  env: EnvironmentPlans;
  /** Path indices in the environment, [Path 1, Path 2]. */
  pair: [number, number];
  scenarioId: number;
  label: PathName;
  metrics: Record<PathName, Descriptors>;
  /** Sides exchanged by balanceSides. */
  swapped: boolean;
}

/** The release's per-scenario test count (prepare_data.py): 34 for the five largest scenarios, 33 otherwise. */
function testCounts(groups: Sample[][], perScenario: number | "release"): number[] {
  const topCounts = groups.map((g) => g.length).sort((a, b) => a - b).slice(-5);
  return groups.map((g) => (perScenario === "release" ? (topCounts.includes(g.length) ? 34 : 33) : perScenario));
}

const byScenario = (samples: readonly Sample[]) => SCENARIOS.map((s) => samples.filter((x) => x.scenarioId === s.id));

/** Per scenario, a seeded draw of the test pairs; the rest is training. */
export function splitByScenario(samples: Sample[], perScenario: number | "release", seed: number): { test: Sample[]; train: Sample[] } {
  const groups = byScenario(samples);
  const counts = testCounts(groups, perScenario);
  const test: Sample[] = [];
  const train: Sample[] = [];
  groups.forEach((group, i) => {
    const order = createRng(seed + 101 * (i + 1)).shuffle(group);
    appendAll(test, order.slice(0, counts[i]!));
    appendAll(train, order.slice(counts[i]!));
  });
  return { test, train };
}

/** Environment-disjoint split: see the file comment. Environments are taken in a seeded order. */
export function splitByEnvironment(samples: Sample[], perScenario: number | "release", seed: number): { test: Sample[]; train: Sample[]; unused: Sample[] } {
  const counts = testCounts(byScenario(samples), perScenario);
  const names = [...new Set(samples.map((s) => s.env.name))];
  const order = createRng(seed ^ 0x5e11).shuffle(names);
  const have = SCENARIOS.map(() => 0);
  const testEnvs = new Set<string>();
  for (const name of order) {
    const own = samples.filter((s) => s.env.name === name);
    const helps = own.some((s) => have[s.scenarioId - 1]! < counts[s.scenarioId - 1]!);
    if (!helps) continue;
    testEnvs.add(name);
    for (const s of own) have[s.scenarioId - 1]!++;
  }
  const candidates = byScenario(samples.filter((s) => testEnvs.has(s.env.name)));
  const test: Sample[] = [];
  const unused: Sample[] = [];
  candidates.forEach((group, i) => {
    const drawn = createRng(seed + 101 * (i + 1)).shuffle(group);
    appendAll(test, drawn.slice(0, counts[i]!));
    appendAll(unused, drawn.slice(counts[i]!));
  });
  return { test, train: samples.filter((s) => !testEnvs.has(s.env.name)), unused };
}

/** The pair seen from the other side: paths, descriptors and label exchanged. */
export function swapSides(s: Sample): Sample {
  return {
    ...s,
    pair: [s.pair[1], s.pair[0]],
    label: s.label === "Path 1" ? "Path 2" : "Path 1",
    metrics: { "Path 1": s.metrics["Path 2"], "Path 2": s.metrics["Path 1"] },
    swapped: !s.swapped,
  };
}

/** Equal labels per scenario by swapping floor((majority - minority) / 2) seeded majority pairs; order kept. */
export function balanceSides(samples: Sample[], seed: number): { samples: Sample[]; swapped: number } {
  const flip = new Set<Sample>();
  SCENARIOS.forEach((scenario, i) => {
    const group = samples.filter((s) => s.scenarioId === scenario.id);
    const ones = group.filter((s) => s.label === "Path 1");
    const twos = group.filter((s) => s.label === "Path 2");
    const [major, minor] = ones.length >= twos.length ? [ones, twos] : [twos, ones];
    const k = Math.floor((major.length - minor.length) / 2);
    for (const s of createRng(seed + 0xba1 * (i + 1)).shuffle(major).slice(0, k)) flip.add(s);
  });
  return { samples: samples.map((s) => (flip.has(s) ? swapSides(s) : s)), swapped: flip.size };
}
