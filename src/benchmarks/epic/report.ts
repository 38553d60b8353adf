import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { nScoredCell, overallCell, overallTerminal, runIdentity, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import { uniqueLabels } from "../../report/svg.js";
import { OVERLAY_VARIANTS } from "./prompt.js";
import { BY_GROUP_ORDER, CATEGORIES, LEAF_TASKS } from "./taxonomy.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
type Bucket = { total_processed: number; num_invalid_response: number; mean_score: number };
type Summary = { overall: { average_score: number; num_invalid_response: number; total_processed: number }; by_category: Record<string, Bucket>; by_type: Record<string, Bucket>; by_group: Record<string, Bucket> };

const summaryOf = (run: ScoresDocument) => run["summary"] as Summary | undefined;
const variantOf = (run: ScoresDocument) => (run["prompt"] as { variant?: string } | undefined)?.variant ?? EPIC_DEFAULTS.prompt!;
const shortGroup = (g: string) => g.split("/").pop()!;

/** What a run label leaves out: the mask overlay (the paper's default prompt). */
export const EPIC_DEFAULTS: RunDefaults = { prompt: OVERLAY_VARIANTS[0], control: "none" };

/**
 * Table 5 rows: runs of one model with the same options, one column per overlay variant. A second
 * run of a variant already in the row starts a new row: no run replaces another.
 */
function ablationRows(runs: ScoresDocument[]): Array<{ label: string; byVariant: Map<string, ScoresDocument> }> {
  const rows: Array<{ key: string; label: string; byVariant: Map<string, ScoresDocument> }> = [];
  for (const run of runs) {
    const id = runIdentity(run);
    const key = JSON.stringify([id.model, id.options]);
    const row = rows.find((r) => r.key === key && !r.byVariant.has(variantOf(run)));
    if (row) row.byVariant.set(variantOf(run), run);
    else rows.push({ key, label: id.options.length > 0 ? `${id.model} (${id.options.join(", ")})` : id.model, byVariant: new Map([[variantOf(run), run]]) });
  }
  const labels = uniqueLabels(rows.map((r) => r.label));
  return rows.map((r, i) => ({ label: labels[i]!, byVariant: r.byVariant }));
}

export function epicMarkdown(runs: ScoresDocument[]): string {
  const labels = runLabels(runs, EPIC_DEFAULTS);
  const parts = ["## EPIC-Bench", "", "Mean sample score (%), as the official evaluation code computes it; groups as the paper's Table 2. Scored = samples scored from a prediction / samples asked; Overall is \"—\" when a task type has no predictions.", ""];
  parts.push(table(["Run", "Scored", "Overall", ...BY_GROUP_ORDER.map(shortGroup), "Invalid"], runs.map((run, i) => {
    const s = summaryOf(run);
    return [labels[i]!, nScoredCell(run), overallCell(run, pct(s?.overall.average_score)), ...BY_GROUP_ORDER.map((g) => pct(s?.by_group[g]?.mean_score)), String(s?.overall.num_invalid_response ?? "–")];
  })));
  parts.push("", "### By category", "", table(["Run", ...CATEGORIES], runs.map((run, i) => [labels[i]!, ...CATEGORIES.map((c) => pct(summaryOf(run)?.by_category[c]?.mean_score))])));
  parts.push("", "### By task type", "", table(["Task type", ...labels], LEAF_TASKS.filter((t) => runs.some((r) => summaryOf(r)?.by_type[t.byType])).map((t) => [t.byType, ...runs.map((r) => {
    const b = summaryOf(r)?.by_type[t.byType];
    return b ? `${pct(b.mean_score)} (${b.total_processed})` : "–";
  })])));
  const variants = new Set(runs.map(variantOf));
  if (variants.size > 1) {
    const order = ["no-overlay", "box-overlay", "mask-overlay"].filter((v) => variants.has(v));
    const overall = (run: ScoresDocument | undefined) => (run ? overallCell(run, pct(summaryOf(run)?.overall.average_score)) : "–");
    parts.push("", "### Overlay ablation (Table 5): overall score by overlay variant", "", table(["Model", ...order], ablationRows(runs).map(({ label, byVariant }) => [label, ...order.map((v) => overall(byVariant.get(v)))])));
  }
  for (const [i, run] of runs.entries()) {
    const rows = (run["counting_by_targets"] as Array<{ targets: string; n: number; count_score: number }> | undefined) ?? [];
    if (rows.length === 0) continue;
    parts.push("", `### ${mdText(labels[i]!)}: counting score by number of ground-truth targets (Fig. 4)`, "", table(["Targets", "N", "Count score"], rows.map((r) => [r.targets, String(r.n), pct(r.count_score)])));
  }
  parts.push("", runsMarkdown(runs, EPIC_DEFAULTS));
  return parts.join("\n") + "\n";
}

export function epicTerminal(run: ScoresDocument): string {
  const s = summaryOf(run);
  if (!s) return [`no samples scored · errors ${run.counts.errors}`, ...terminalStatusLines(run)].join("\n");
  const lines = BY_GROUP_ORDER.filter((g) => s.by_group[g]).map((g) => `${g.padEnd(46)} ${pct(s.by_group[g]!.mean_score).padStart(6)}  (n ${s.by_group[g]!.total_processed}, invalid ${s.by_group[g]!.num_invalid_response})`);
  const overall = overallTerminal(run, pct(s.overall.average_score), run.score !== null);
  lines.push(`overall ${overall} over ${s.overall.total_processed} samples · invalid ${s.overall.num_invalid_response} · errors ${run.counts.errors} · missing ${run.counts.missing}`);
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
