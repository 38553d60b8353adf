/**
 * Run labels as the tables print them: each benchmark's runs are labelled together with that
 * benchmark's defaults (run-facts.ts runLabels), a benchmark's runs of episodes together (its episodes' runLabels),
 * so a row of an export carries the label of the same run's row in report.md.
 */
import type { ScoresDocument } from "../../core/benchmark.js";
import { getBenchmark } from "../../registry.js";
import { episodeRunsOf, isEpisodeRunScores, runGroupKey } from "../episode-runs.js";
import { runLabels, type RunDefaults } from "../run-facts.js";

export function defaultsOf(benchmark: string): RunDefaults {
  const b = getBenchmark(benchmark);
  return { prompt: b.promptSources[0], control: b.promptControls[0] };
}

const labelGroupOf = (run: ScoresDocument): string => runGroupKey(run.benchmark, isEpisodeRunScores(run));

/** One label per run, in the order given. */
export function reportLabels(runs: ScoresDocument[]): string[] {
  const groups = new Map<string, number[]>();
  runs.forEach((run, i) => groups.set(labelGroupOf(run), [...(groups.get(labelGroupOf(run)) ?? []), i]));
  const labels = new Array<string>(runs.length);
  for (const [group, indices] of groups) {
    const members = indices.map((i) => runs[i]!);
    const first = members[0]!;
    const named = isEpisodeRunScores(first) ? episodeRunsOf(first.benchmark).runLabels(members.flatMap((m) => (isEpisodeRunScores(m) ? [m] : []))) : runLabels(members, defaultsOf(group));
    indices.forEach((i, k) => (labels[i] = named[k]!));
  }
  return labels;
}
