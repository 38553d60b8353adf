/**
 * EPIC-Bench charts: mean score by group (Table 2 layout, with intervals), by category and overall,
 * the counting score by number of targets, exact counting accuracy on precise-count samples by
 * number of targets for TL and CR apart (Fig. 4), and invalid responses per category when any.
 */
import type { ChartFigure, ScoresDocument } from "../../core/benchmark.js";
import { chartLabels } from "../../report/run-facts.js";
import { asInterval, asNumber, asRecord, barChart, stackedBars, type BarSeries, type StackedRow } from "../../report/svg.js";
import { COUNT_PANELS, type CountPanel } from "./aggregate.js";
import { EPIC_DEFAULTS } from "./report.js";
import { BY_GROUP_ORDER, CATEGORIES } from "./taxonomy.js";

interface Labelled {
  run: ScoresDocument;
  name: string;
}

const summaryOf = (run: ScoresDocument) => asRecord(run["summary"]);
const bucket = (run: ScoresDocument, level: string, key: string) => asRecord(asRecord(summaryOf(run)?.[level])?.[key]);
const someValue = (series: BarSeries[]) => series.some((s) => s.values.some((v) => v !== null));
const samples = (b: Record<string, unknown> | undefined) => {
  const n = asNumber(b?.["total_processed"]);
  return n === null ? null : `n = ${n}`;
};

/** "TargetLocalization/BasicAttributes" -> "BasicAttributes", as the report's table heads. */
const shortGroup = (g: string) => g.split("/").pop()!;

function groups(runs: Labelled[]): ChartFigure | null {
  const series = runs.map(({ run, name }) => ({
    name,
    values: BY_GROUP_ORDER.map((g) => asNumber(bucket(run, "by_group", g)?.["mean_score"])),
    intervals: BY_GROUP_ORDER.map((g) => asInterval(asRecord(summaryOf(run)?.["by_group_ci"])?.[g])),
    notes: BY_GROUP_ORDER.map((g) => samples(bucket(run, "by_group", g))),
  }));
  if (!someValue(series)) return null;
  // Each sample is its own bootstrap cluster (load.ts: the release names no scenes).
  const title = "EPIC-Bench: mean score by group (Table 2 layout, 95% bootstrap CI over samples)";
  return { title, svg: barChart({ title, groups: BY_GROUP_ORDER.map(shortGroup), series, axisLabel: "mean score (%)" }) };
}

function categories(runs: Labelled[]): ChartFigure | null {
  const series = runs.map(({ run, name }) => {
    const overall = asRecord(summaryOf(run)?.["overall"]);
    return {
      name,
      values: [...CATEGORIES.map((c) => asNumber(bucket(run, "by_category", c)?.["mean_score"])), asNumber(overall?.["average_score"])],
      intervals: [...CATEGORIES.map(() => null), asInterval(run["score_ci"])],
      notes: [...CATEGORIES.map((c) => samples(bucket(run, "by_category", c))), samples(overall)],
    };
  });
  if (!someValue(series)) return null;
  const title = "EPIC-Bench: mean score by category and overall";
  return { title, svg: barChart({ title, groups: [...CATEGORIES, "Overall"], series, axisLabel: "mean score (%)" }) };
}

function counting(runs: Labelled[]): ChartFigure | null {
  const rows = runs.map(({ run }) => {
    const list = Array.isArray(run["counting_by_targets"]) ? (run["counting_by_targets"] as unknown[]) : [];
    return new Map(list.map(asRecord).filter((r) => typeof r?.["targets"] === "string").map((r) => [r!["targets"] as string, r!]));
  });
  // The scorer's buckets are "0", "1", ..., "5+": numeric order.
  const keys = [...new Set(rows.flatMap((m) => [...m.keys()]))].sort((a, b) => parseFloat(a) - parseFloat(b) || a.localeCompare(b));
  if (keys.length === 0) return null;
  const series = runs.map(({ name }, i) => ({
    name,
    values: keys.map((k) => asNumber(rows[i]!.get(k)?.["count_score"])),
    notes: keys.map((k) => {
      const n = asNumber(rows[i]!.get(k)?.["n"]);
      return n === null ? null : `n = ${n}`;
    }),
  }));
  if (!someValue(series)) return null;
  const title = "EPIC-Bench: counting score by number of ground-truth targets (Fig. 4)";
  return { title, svg: barChart({ title, groups: keys.map((k) => `${k} targets`), series, axisLabel: "count score (%)" }) };
}

const PANEL_TITLES: Record<CountPanel, string> = { TargetLocalization: "Target Localization", ContactRelationship: "Contact Relationship" };

/** Fig. 4, one panel: exact counting accuracy on precise-count samples by number of targets. */
function countAccuracy(runs: Labelled[], panel: CountPanel): ChartFigure | null {
  const rows = runs.map(({ run }) => {
    const list = asRecord(run["count_accuracy_by_targets"])?.[panel];
    return new Map((Array.isArray(list) ? list : []).map(asRecord).filter((r) => typeof r?.["targets"] === "string").map((r) => [r!["targets"] as string, r!]));
  });
  const keys = ["0", "1", "2", "3", "4", "5+"].filter((k) => rows.some((m) => m.has(k)));
  if (keys.length === 0) return null;
  const series = runs.map(({ name }, i) => ({
    name,
    values: keys.map((k) => asNumber(rows[i]!.get(k)?.["accuracy"])),
    notes: keys.map((k) => {
      const r = rows[i]!.get(k);
      return r ? `${asNumber(r["correct"])}/${asNumber(r["n"])}` : null;
    }),
  }));
  if (!someValue(series)) return null;
  const title = `EPIC-Bench: counting accuracy on precise-count samples, ${PANEL_TITLES[panel]} (Fig. 4)`;
  return { title, svg: barChart({ title, groups: keys.map((k) => `${k} targets`), series, axisLabel: "exact count (%)" }) };
}

function invalid(runs: Labelled[]): ChartFigure | null {
  const rows: StackedRow[] = runs.flatMap(({ run, name }) =>
    CATEGORIES.flatMap((c) => {
      const b = bucket(run, "by_category", c);
      const total = asNumber(b?.["total_processed"]);
      if (!b || total === null) return [];
      const bad = asNumber(b["num_invalid_response"]) ?? 0;
      return [{ label: `${name} · ${c}`, counts: [Math.max(total - bad, 0), bad] }];
    }),
  );
  if (!rows.some((r) => r.counts[1]! > 0)) return null;
  const title = "EPIC-Bench: invalid responses per category";
  return { title, svg: stackedBars({ title, categories: ["valid response", "invalid response"], rows, colors: ["#59a14f", "#e15759"] }) };
}

/** Charts for EPIC-Bench runs side by side (named as the report names them); charts without data are left out. */
export function epicCharts(runs: ScoresDocument[]): ChartFigure[] {
  const names = chartLabels(runs, EPIC_DEFAULTS);
  const labelled = runs.map((run, i) => ({ run, name: names[i]! }));
  return [groups(labelled), categories(labelled), counting(labelled), ...COUNT_PANELS.map((p) => countAccuracy(labelled, p)), invalid(labelled)].filter((c): c is ChartFigure => c !== null);
}
