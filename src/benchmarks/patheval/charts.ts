/**
 * PathEval charts: accuracy per dimension with intervals, per scenario (Fig. 3) and per deciding
 * descriptor, left/right choice shares (position bias, Table 2); for probe runs, the fine-grained
 * accuracy by ε subset, the attribute-abstraction accuracy per descriptor and the segment study (Fig. 2d).
 */
import type { ChartFigure, ScoresDocument } from "../../core/benchmark.js";
import { chartLabels } from "../../report/run-facts.js";
import { asInterval, asNumber, asRecord, barChart, stackedBars, type BarSeries, type StackedRow } from "../../report/svg.js";
import { PATHEVAL_DEFAULTS } from "./report.js";
import { DESCRIPTORS } from "./scenarios.js";

const DIMS = ["2D", "3D"] as const;
const CHANCE = 0.5;
// ε of paper Table 8 (|difference| > ε); the generated set samples each separately, the test-set variant nests them.
const EPSILONS = [["ε1", "ε1 (Table 8)"], ["ε2", "ε2 (Table 8)"], ["ε3", "ε3 (Table 8)"]] as const;

interface Labelled {
  run: ScoresDocument;
  name: string;
}

const chance = (groups: string[]) => [{ name: "chance (50%)", values: groups.map(() => CHANCE) }];
const dimOf = (run: ScoresDocument, dim: string) => asRecord(run.tasks[dim]);
const listOf = (value: unknown) => (Array.isArray(value) ? value.map(asRecord).filter((r): r is Record<string, unknown> => r !== undefined) : []);
const someValue = (series: BarSeries[]) => series.some((s) => s.values.some((v) => v !== null));

function dimensions(runs: Labelled[]): ChartFigure | null {
  const dims = DIMS.filter((d) => runs.some(({ run }) => dimOf(run, d)));
  const series = runs.map(({ run, name }) => ({
    name,
    values: dims.map((d) => asNumber(dimOf(run, d)?.["accuracy"])),
    intervals: dims.map((d) => asInterval(asRecord(dimOf(run, d)?.["ci"])?.["accuracy"])),
    notes: dims.map((d) => {
      const n = asNumber(dimOf(run, d)?.["n"]);
      return n === null ? null : `n = ${n}`;
    }),
  }));
  if (dims.length === 0 || !someValue(series)) return null;
  const title = "PathEval: accuracy per dimension (95% environment-cluster CI)";
  return { title, svg: barChart({ title, groups: [...dims], series, references: chance([...dims]), axisLabel: "accuracy (%)" }) };
}

/** Bars over the rows of a per-item list (per_scenario, per_descriptor), matched by key. */
function listBars(runs: Labelled[], title: string, field: string, keyOf: (row: Record<string, unknown>) => string | null, order: (keys: string[]) => string[], groupName: (key: string) => string): ChartFigure | null {
  const rows = runs.map(({ run }) => new Map(listOf(run[field]).flatMap((row) => {
    const key = keyOf(row);
    return key === null ? [] : [[key, row] as const];
  })));
  const keys = order([...new Set(rows.flatMap((m) => [...m.keys()]))]);
  if (keys.length === 0) return null;
  const series = runs.map(({ name }, i) => ({
    name,
    values: keys.map((k) => asNumber(rows[i]!.get(k)?.["accuracy"])),
    notes: keys.map((k) => {
      const n = asNumber(rows[i]!.get(k)?.["n"]);
      return n === null ? null : `n = ${n}`;
    }),
  }));
  if (!someValue(series)) return null;
  const groups = keys.map(groupName);
  return { title, svg: barChart({ title, groups, series, references: chance(groups), axisLabel: "accuracy (%)" }) };
}

function scenarios(runs: Labelled[]): ChartFigure | null {
  const agents = new Map<string, string>();
  for (const { run } of runs) for (const row of listOf(run["per_scenario"])) {
    const id = asNumber(row["id"]);
    if (id !== null && typeof row["agent"] === "string" && !agents.has(String(id))) agents.set(String(id), row["agent"]);
  }
  const keyOf = (row: Record<string, unknown>) => (asNumber(row["id"]) === null ? null : String(row["id"]));
  const byId = (keys: string[]) => [...keys].sort((a, b) => Number(a) - Number(b));
  return listBars(runs, "PathEval: accuracy by scenario (Fig. 3)", "per_scenario", keyOf, byId, (k) => `${k}. ${agents.get(k) ?? ""}`.trim());
}

function descriptors(runs: Labelled[]): ChartFigure | null {
  const keyOf = (row: Record<string, unknown>) => (typeof row["descriptor"] === "string" ? row["descriptor"] : null);
  const known = DESCRIPTORS as readonly string[];
  // Known descriptors in the release's order, then any others in first-seen order.
  const ordered = (keys: string[]) => [...known.filter((d) => keys.includes(d)), ...keys.filter((k) => !known.includes(k))];
  return listBars(runs, "PathEval: accuracy on pairs decided by each descriptor", "per_descriptor", keyOf, ordered, (k) => k);
}

function positionBias(runs: Labelled[]): ChartFigure | null {
  const rows: StackedRow[] = runs.flatMap(({ run, name }) =>
    DIMS.flatMap((d) => {
      const s = dimOf(run, d);
      if (!s) return [];
      return [{ label: `${name} · ${d}`, counts: [s["chose_first"], s["chose_second"], s["parse_failures"]].map((v) => asNumber(v) ?? 0) }];
    }),
  );
  if (rows.length === 0) return null;
  const title = "PathEval: position bias, left / right path chosen (Table 2)";
  return { title, svg: stackedBars({ title, categories: ["left path (shown first)", "right path (shown second)", "unreadable"], rows, colors: ["#4e79a7", "#f28e2b", "#bab0ac"] }) };
}

function fineGrained(runs: Labelled[]): ChartFigure | null {
  const probes = runs.flatMap(({ run, name }) => {
    const t = asRecord(run.tasks["fine-grained"]);
    return t ? [{ t, name }] : [];
  });
  if (probes.length === 0) return null;
  const groups = ["all questions", ...EPSILONS.map(([, title]) => title)];
  const series = probes.map(({ t, name }) => {
    const subsets = EPSILONS.map(([key]) => asRecord(asRecord(t["per_epsilon"])?.[key]));
    return {
      name,
      values: [asNumber(t["accuracy"]), ...subsets.map((s) => asNumber(s?.["accuracy"]))],
      intervals: [asInterval(t["accuracy_ci"]), null, null, null],
      notes: [t["n"], ...subsets.map((s) => s?.["n"])].map((n) => (asNumber(n) === null ? null : `n = ${n}`)),
    };
  });
  const title = "PathEval fine-grained probe: accuracy by ε subset";
  return { title, svg: barChart({ title, groups, series, references: chance(groups), axisLabel: "accuracy (%)" }) };
}

function abstraction(runs: Labelled[]): ChartFigure | null {
  const probes = runs.flatMap(({ run, name }) => {
    const t = asRecord(run.tasks["attribute-abstraction"]);
    return t ? [{ rows: new Map(listOf(t["per_descriptor"]).map((r) => [String(r["descriptor"]), r])), name }] : [];
  });
  const keys = [...new Set(probes.flatMap((p) => [...p.rows.keys()]))];
  if (keys.length === 0) return null;
  const series = probes.flatMap(({ rows, name }) => [
    { name: `${name}: direction`, values: keys.map((k) => asNumber(rows.get(k)?.["accuracy"])) },
    { name: `${name}: relevance`, values: keys.map((k) => asNumber(rows.get(k)?.["relevance_accuracy"])) },
  ]);
  const title = "PathEval attribute-abstraction probe: right direction / relevance per descriptor";
  return { title, svg: barChart({ title, groups: keys, series, axisLabel: "accuracy (%)" }) };
}

/** Fig. 2d's chart: accuracy per segment type, one bar per run and dimension. */
function segments(runs: Labelled[]): ChartFigure | null {
  const types = ["point", "line", "curve"];
  const series = runs.flatMap(({ run, name }) => {
    const byDim = asRecord(asRecord(run.tasks["segments"])?.["by_dim"]);
    if (!byDim) return [];
    return DIMS.filter((d) => asRecord(byDim[d])).map((d) => {
      const rows = new Map(listOf(asRecord(byDim[d])?.["per_segment"]).map((r) => [String(r["segment"]), r]));
      return {
        name: `${name}: ${d}`,
        values: types.map((t) => asNumber(rows.get(t)?.["accuracy"])),
        notes: types.map((t) => {
          const n = asNumber(rows.get(t)?.["n"]);
          return n === null ? null : `n = ${n}`;
        }),
      };
    });
  });
  if (series.length === 0 || !someValue(series)) return null;
  const title = "PathEval segment complexity (Fig. 2d): which segment is closer to the obstacle";
  return { title, svg: barChart({ title, groups: types, series, references: chance(types), axisLabel: "accuracy (%)" }) };
}

/** Charts for PathEval runs side by side (choice runs and probe runs each get their own, named as the report names them); empty charts are left out. */
export function pathevalCharts(runs: ScoresDocument[]): ChartFigure[] {
  const names = chartLabels(runs, PATHEVAL_DEFAULTS);
  const labelled = runs.map((run, i) => ({ run, name: names[i]! }));
  const choices = labelled.filter(({ run }) => !run["probe"]);
  const probes = labelled.filter(({ run }) => run["probe"]);
  const charts = [
    ...(choices.length > 0 ? [dimensions(choices), scenarios(choices), descriptors(choices), positionBias(choices)] : []),
    ...(probes.length > 0 ? [fineGrained(probes), abstraction(probes), segments(probes)] : []),
  ];
  return charts.filter((c): c is ChartFigure => c !== null);
}
