import assert from "node:assert/strict";
import { test } from "node:test";
import { navigationRunsMarkdown, type NavigationRunScores } from "../../../src/benchmarks/vcn/navigate/report.js";

/**
 * The per-instruction-type table of navigation runs (Table 4's SPL / SR / RSR per type, with soft
 * SPL, SSR and DTG), on scores written by hand. Two runs, as an intervention comparison would be:
 *   base:     count n 4: SR 0.5, SPL 0.4125, soft 0.6, RSR 0.75 over 4, SSR 0.75, DTG 1.234
 *             instance n 2: SR 0, SPL 0, soft 0.25, RSR 0.5 over 2, SSR 0.5, DTG 3.5
 *   shuffled: count n 4: SR 0.25, SPL 0.2, soft 0.3, RSR 0.25 over 4, SSR 0.5, DTG 2.0
 *             order n 1: no room known for its target (rsr_n 0): RSR "–"
 * Types come in the paper's order (Count, Order, Distance, Orientation, Instance) whatever the
 * order in scores.json.
 */
const nav = (by_task: Record<string, Record<string, number>>): NavigationRunScores["navigation"] => ({ metric_variant: "paper", summary: { n: 6, SR: 0, SPL: 0, soft_SPL: 0, SSR: 0, RSR: 0, rsr_n: 0, DTG: 0, missing: 0 }, by_task } as never);

const base: NavigationRunScores = {
  kind: "navigation", benchmark: "vcn", model: "m", intervention: "none", complete: true, counts: { episodes: 6, done: 6, error: 0, not_run: 0 },
  navigation: nav({
    instance: { n: 2, SR: 0, SPL: 0, soft_SPL: 0.25, SSR: 0.5, RSR: 0.5, rsr_n: 2, DTG: 3.5, missing: 0 },
    count: { n: 4, SR: 0.5, SPL: 0.4125, soft_SPL: 0.6, SSR: 0.75, RSR: 0.75, rsr_n: 4, DTG: 1.234, missing: 0 },
  }),
};
const shuffled: NavigationRunScores = {
  kind: "navigation", benchmark: "vcn", model: "m", intervention: "shuffled-prior", complete: true, counts: { episodes: 5, done: 5, error: 0, not_run: 0 },
  navigation: nav({
    order: { n: 1, SR: 0, SPL: 0, soft_SPL: 0, SSR: 0, RSR: 0, rsr_n: 0, DTG: 4, missing: 0 },
    count: { n: 4, SR: 0.25, SPL: 0.2, soft_SPL: 0.3, SSR: 0.5, RSR: 0.25, rsr_n: 4, DTG: 2, missing: 0 },
  }),
};

test("navigation reports: SR, SPL, soft SPL, RSR (n), SSR and DTG per run and instruction type", () => {
  const md = navigationRunsMarkdown([base, shuffled]);
  const start = md.indexOf("### Per instruction type");
  assert.ok(start > 0);
  const section = md.slice(start, md.indexOf("\n### ", start + 1));
  assert.match(section, /\| Run \| Type \| N \| SR \| SPL \| soft SPL \| RSR \(n\) \| SSR \| DTG \(m\) \|/);
  assert.deepEqual(section.split("\n").filter((l) => l.startsWith("| m")), [
    "| m | Count | 4 | 50.0 | 41.3 | 60.0 | 75.0 (4) | 75.0 | 1.23 |",
    "| m | Instance | 2 | 0.0 | 0.0 | 25.0 | 50.0 (2) | 50.0 | 3.50 |",
    "| m (shuffled-prior) | Count | 4 | 25.0 | 20.0 | 30.0 | 25.0 (4) | 50.0 | 2.00 |",
    "| m (shuffled-prior) | Order | 1 | 0.0 | 0.0 | 0.0 | – | 0.0 | 4.00 |",
  ]);
});
