import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { nScoredCell, overallTerminal, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import { VARIANTS } from "./prompt.js";
import { PAPER_TABLE_10 } from "./generate-options.js";
import { DESCRIPTORS } from "./scenarios.js";

/** What a run label leaves out: the plain prompt (probe runs are named by their probe). */
export const PATHEVAL_DEFAULTS: RunDefaults = { prompt: VARIANTS[0], control: "none" };

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

type Dims = Record<string, { n: number; accuracy: number; official_accuracy: number; parse_failures: number; chose_first: number; chose_second: number; ci: { accuracy?: [number, number] } }>;

type Cell = { n: number; accuracy: number | null; mean_difference?: number | null };
type FineRow = { descriptor: string; n: number; accuracy: number | null; ε1: Cell; ε2: Cell; ε3: Cell; mean_over_epsilon: number | null; mean_over_epsilon_cells: number };
type FineTable = { n: number; accuracy: number | null; per_descriptor: FineRow[]; per_epsilon: Record<string, Cell & { mean_over_descriptors: number | null; mean_over_descriptors_cells: number }>; mean_over_descriptors: number | null; mean_over_descriptors_cells: number };
type FineSummary = FineTable & { set: string; set_label: string; by_dim: Record<string, FineTable>; paper_table_9?: Record<string, number[]>; epsilons?: Record<string, number[]> };
type AbstractionRow = { descriptor: string; accuracy: number | null; relevance_accuracy: number };
type AbstractionSummary = { format?: string; accuracy: number | null; relevance_accuracy: number; n: number; per_descriptor: AbstractionRow[]; table_12?: { at_least_one_relevant: number; at_least_one_relevant_with_direction: number | null; scenarios: number; mean_chosen?: number | null } };

const EPS = ["ε1", "ε2", "ε3"] as const;

interface Labelled {
  run: ScoresDocument;
  label: string;
}

/** "2D / 3D" cell: accuracy (%) with n in brackets, or a mean with [k/m] when only k of its m cells were non-empty. */
function perDim(tables: Array<[string, FineTable]>, pick: (t: FineTable) => Cell | { accuracy: number | null; cells: number; of: number } | undefined): string {
  return tables.map(([, t]) => {
    const c = pick(t);
    if (c === undefined) return "–";
    if ("cells" in c) return c.cells < c.of && c.accuracy !== null ? `${pct(c.accuracy)} · ${c.cells}/${c.of} cells` : pct(c.accuracy);
    return `${pct(c.accuracy)} (${c.n})`;
  }).join(" / ");
}

/** Table 3's layout (rows descriptors, columns all / ε1..ε3 / mean over ε; cells per dimension), then Table 9's. */
function fineGrainedMarkdown(fine: FineSummary, label: string, scored: string): string[] {
  const tables = Object.entries(fine.by_dim ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const dims = tables.map(([d]) => d).join(" / ");
  const allHeader = fine.set === "generated" ? "All ε samples" : "Test Set (all pairs)";
  const out = [
    `### ${mdText(label)}: fine-grained perception, ${mdText(fine.set === "generated" ? "generated set" : fine.set === "test-set" ? "test-set variant" : "mixed sets")} (${fine.n} questions, ${mdText(scored)}; accuracy ${pct(fine.accuracy)})`,
    "",
    `Set: ${mdText(fine.set_label)}. Accuracy (%) of naming the path with the smaller value, ${mdText(dims)}, questions in brackets (paper Table 3's layout; ε of Table 8, |difference| > ε). Means are unweighted over the non-empty cells ("k/m cells": only k of m had questions); – where a cell is empty.`,
    "",
    table(["Descriptor", "ε1 / ε2 / ε3 (Table 8)", allHeader, ...EPS, "Mean over ε"], (tables[0]?.[1].per_descriptor ?? []).map((row, i) => [
      row.descriptor,
      (fine.epsilons?.[row.descriptor] ?? []).join(" / "),
      perDim(tables, (t) => t.per_descriptor[i]),
      ...EPS.map((e) => perDim(tables, (t) => t.per_descriptor[i]?.[e])),
      perDim(tables, (t) => ({ accuracy: t.per_descriptor[i]?.mean_over_epsilon ?? null, cells: t.per_descriptor[i]?.mean_over_epsilon_cells ?? 0, of: 3 })),
    ]).concat([[
      "Mean over descriptors",
      "",
      perDim(tables, (t) => ({ accuracy: t.mean_over_descriptors, cells: t.mean_over_descriptors_cells, of: t.per_descriptor.length })),
      ...EPS.map((e) => perDim(tables, (t) => ({ accuracy: t.per_epsilon[e]?.mean_over_descriptors ?? null, cells: t.per_epsilon[e]?.mean_over_descriptors_cells ?? 0, of: t.per_descriptor.length }))),
      "",
    ], [
      "All questions (pooled)",
      "",
      perDim(tables, (t) => t),
      ...EPS.map((e) => perDim(tables, (t) => t.per_epsilon[e])),
      "",
    ]])),
  ];
  if (tables.length > 0) {
    const [dim, first] = tables[0]!;
    out.push("", `Average |difference| of the questions asked per descriptor and ε (${mdText(dim)}; paper Table 9 in brackets):`, "");
    out.push(table(["Descriptor", ...EPS.map((e) => `Avg. ${e.slice(1)}`)], first.per_descriptor.map((row) => [
      row.descriptor,
      ...EPS.map((e, k) => `${num(row[e].mean_difference)} (${fine.paper_table_9?.[row.descriptor]?.[k] ?? "?"})`),
    ])));
  }
  return out;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2)) : "–");

function abstractionMarkdown(abstraction: AbstractionSummary, label: string, scored: string): string[] {
  const t12 = abstraction.table_12;
  const list = abstraction.format === "list";
  const chosen = typeof t12?.mean_chosen === "number" ? ` ${t12.mean_chosen.toFixed(1)} descriptors chosen per scenario on average.` : "";
  return [
    list
      ? `### ${mdText(label)}: attribute abstraction, the paper's list format (${abstraction.n} scenarios, ${mdText(scored)}; relevance ${pct(abstraction.relevance_accuracy)}; no direction asked)`
      : `### ${mdText(label)}: attribute abstraction (${abstraction.n} scenarios, ${mdText(scored)}; direction accuracy ${pct(abstraction.accuracy)}, relevance ${pct(abstraction.relevance_accuracy)})`,
    "",
    ...(t12 ? [
      `Table 12's measure (App. D.1): at least one needed descriptor chosen in ${pct(t12.at_least_one_relevant)}% of ${t12.scenarios} scenarios` +
        (list ? "." : ` (with its direction: ${pct(t12.at_least_one_relevant_with_direction)}%).`) + `${chosen} One number per run; the paper averages 5 runs.`,
      "",
    ] : []),
    table(["Descriptor", "Direction right", "Relevance right"], abstraction.per_descriptor.map((r) => [r.descriptor, pct(r.accuracy), pct(r.relevance_accuracy)])),
  ];
}

type SegmentRow = Cell & { segment: string };
type SegmentSummary = { n: number; accuracy: number | null; by_dim: Record<string, Cell & { per_segment: SegmentRow[] }>; per_segment: SegmentRow[]; paper?: { mean_difference: Record<string, number>; gpt_4o_accuracy_text: Record<string, number> } };

/** Fig. 2d's layout: accuracy per segment type and dimension, the pairs' mean clearance difference, the paper's numbers. */
function segmentsMarkdown(segments: SegmentSummary, label: string, scored: string): string[] {
  const dims = Object.keys(segments.by_dim ?? {}).sort();
  return [
    `### ${mdText(label)}: segment complexity (Fig. 2; ${segments.n} questions, ${mdText(scored)}; accuracy ${pct(segments.accuracy)})`,
    "",
    "Which of two segments is closer to the one obstacle (a line's or curve's nearer end counts). Accuracy (%), questions in brackets; the paper's text gives GPT-4o 77 / 64 / 59 for points / lines / curves.",
    "",
    table(["Segment", ...dims.map((d) => `${d} acc.`), "Mean clearance difference", "Paper: difference", "Paper: GPT-4o acc."], segments.per_segment.map((row) => [
      row.segment,
      ...dims.map((d) => {
        const c = segments.by_dim[d]?.per_segment.find((r) => r.segment === row.segment);
        return c ? `${pct(c.accuracy)} (${c.n})` : "–";
      }),
      num(row.mean_difference),
      String(segments.paper?.mean_difference[row.segment] ?? "–"),
      pct(segments.paper?.gpt_4o_accuracy_text[row.segment]),
    ])),
  ];
}

function probeMarkdown({ run, label }: Labelled): string {
  const abstraction = run.tasks["attribute-abstraction"] as AbstractionSummary | undefined;
  const fine = run.tasks["fine-grained"] as FineSummary | undefined;
  const parts: string[] = [];
  const scored = `scored ${nScoredCell(run)}`;
  if (abstraction) parts.push(...abstractionMarkdown(abstraction, label, scored));
  if (fine) parts.push(...(parts.length > 0 ? [""] : []), ...fineGrainedMarkdown(fine, label, scored));
  const segments = run.tasks["segments"] as SegmentSummary | undefined;
  if (segments) parts.push(...(parts.length > 0 ? [""] : []), ...segmentsMarkdown(segments, label, scored));
  return parts.join("\n");
}

export function pathevalMarkdown(runs: ScoresDocument[]): string {
  const labels = runLabels(runs, PATHEVAL_DEFAULTS);
  const labelled = runs.map((run, i) => ({ run, label: labels[i]! }));
  const probes = labelled.filter(({ run }) => run["probe"]);
  const choices = labelled.filter(({ run }) => !run["probe"]);
  const probeParts = probes.map(probeMarkdown);
  const runsPart = runsMarkdown(runs, PATHEVAL_DEFAULTS);
  if (choices.length === 0) return ["## PathEval", "", probeParts.join("\n\n"), "", runsPart].join("\n") + "\n";
  return pathevalChoiceMarkdown(choices) + (probeParts.length > 0 ? `\n${probeParts.join("\n\n")}\n` : "") + `\n${runsPart}\n`;
}

const variantOf = (run: ScoresDocument) => String((run["prompt"] as Record<string, unknown> | undefined)?.["variant"] ?? "");

function pathevalChoiceMarkdown(runs: Labelled[]): string {
  const dims = ["2D", "3D"];
  const parts = ["## PathEval", "", "Accuracy (%) of choosing the path that better fits the scenario; chance is 50. Scored = pairs scored from a prediction / pairs asked.", ""];
  parts.push(table(
    ["Run", "Scored", "Variant", ...dims.flatMap((d) => [`${d} acc.`, `${d} 95% CI`, `${d} official reading`])],
    runs.map(({ run, label }) => {
      const t = run.tasks as unknown as Dims;
      return [label, nScoredCell(run), variantOf(run), ...dims.flatMap((d) => [pct(t[d]?.accuracy), ci(t[d]?.ci.accuracy), pct(t[d]?.official_accuracy)])];
    }),
  ));
  parts.push("", "### Position bias (Table 2): how often the left / right path was chosen", "");
  parts.push(table(["Run", "Variant", ...dims.flatMap((d) => [`${d} first`, `${d} second`, `${d} unreadable`])], runs.map(({ run, label }) => {
    const t = run.tasks as unknown as Dims;
    return [label, variantOf(run), ...dims.flatMap((d) => [String(t[d]?.chose_first ?? "–"), String(t[d]?.chose_second ?? "–"), String(t[d]?.parse_failures ?? "–")])];
  })));
  parts.push(...table10Markdown(runs));
  const deduped = runs.filter(({ run }) => run["distinct_prompts"]);
  for (const { run, label } of deduped) {
    const d = run["distinct_prompts"] as { n_records: number; n_distinct: number };
    parts.push("", `${mdText(label)}: ${d.n_distinct} distinct prompts asked for ${d.n_records} records (records with the same text, e.g. the 2D and 3D copy of a pair, are asked once; accuracy is over the distinct prompts).`);
  }
  for (const { run, label } of runs) {
    const scenarios = (run["per_scenario"] as Array<{ id: number; agent: string; n: number; accuracy: number }>) ?? [];
    const descriptors = (run["per_descriptor"] as Array<{ descriptor: string; n: number; accuracy: number }>) ?? [];
    const variant = variantOf(run);
    parts.push("", `### ${mdText(label)}: accuracy by scenario (Fig. 3)`, "", table(["Scenario", "Agent", "Variant", "N", "Accuracy"], scenarios.map((s) => [String(s.id), s.agent, variant, String(s.n), pct(s.accuracy)])));
    parts.push("", `### ${mdText(label)}: accuracy on pairs decided by each descriptor`, "", table(["Descriptor", "Variant", "N", "Accuracy"], descriptors.map((d) => [d.descriptor, variant, String(d.n), pct(d.accuracy)])));
  }
  return parts.join("\n") + "\n";
}

type MeanDifference = Record<string, { n: number; mean: Record<string, number | null> }>;

/** Table 10's layout: mean |difference| per descriptor of the pairs each run asked, per dimension, then the paper's row. */
function table10Markdown(runs: Labelled[]): string[] {
  const rows = runs.flatMap(({ run, label }) => Object.entries((run["mean_difference"] as MeanDifference | undefined) ?? {})
    .filter(([, v]) => v.n > 0)
    .map(([dim, v]) => [label, dim, String(v.n), ...DESCRIPTORS.map((d) => diff(v.mean[d]))]));
  if (rows.length === 0) return [];
  return [
    "", "### Average descriptor differences of the pairs asked (Table 10)", "",
    "Mean |Path 1 − Path 2| per descriptor over the records each run asked; the paper's row is over its 1,050 test pairs.", "",
    table(["Run", "Dim", "N", ...DESCRIPTORS], [...rows, ["Paper Table 10", "", "1050", ...DESCRIPTORS.map((d) => String(PAPER_TABLE_10[d]))]]),
  ];
}

const diff = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(3) : "–");

export function pathevalTerminal(run: ScoresDocument): string {
  const score = overallTerminal(run, pct(run.score), run.score !== null);
  const measure = run["probe"] === "attribute-abstraction-list" ? "Table 12 success (a needed descriptor chosen)" : "accuracy";
  if (run["probe"]) return [`${run["probe"]}: ${measure} ${score} over ${run.n} questions · unreadable ${run.counts.parse_failures} · errors ${run.counts.errors}`, ...terminalStatusLines(run)].join("\n");
  const t = run.tasks as unknown as Dims;
  const lines = Object.entries(t).map(([dim, s]) => `${dim}  n ${s.n}  accuracy ${pct(s.accuracy)} ${ci(s.ci.accuracy)}  (official reading ${pct(s.official_accuracy)})  first/second ${s.chose_first}/${s.chose_second}  unreadable ${s.parse_failures}`);
  lines.push(`overall accuracy ${score}  ·  errors ${run.counts.errors}`);
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
