import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { BY_GROUP_ORDER, CATEGORIES, LEAF_TASKS } from "./taxonomy.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
type Bucket = { total_processed: number; num_invalid_response: number; mean_score: number };
type Summary = { overall: { average_score: number; num_invalid_response: number; total_processed: number }; by_category: Record<string, Bucket>; by_type: Record<string, Bucket>; by_group: Record<string, Bucket> };

const summaryOf = (run: ScoresDocument) => run["summary"] as Summary | undefined;
const label = (run: ScoresDocument) => `${run.model}${(run["prompt"] as { variant?: string } | undefined)?.variant && (run["prompt"] as { variant?: string }).variant !== "mask-overlay" ? ` (${(run["prompt"] as { variant: string }).variant})` : ""}`;
const shortGroup = (g: string) => g.split("/").pop()!;

export function epicMarkdown(runs: ScoresDocument[]): string {
  const parts = ["## EPIC-Bench", "", "Mean sample score (%), as the official evaluation code computes it; groups as the paper's Table 2.", ""];
  parts.push(table(["Model", "Overall", ...BY_GROUP_ORDER.map(shortGroup), "Invalid"], runs.map((run) => {
    const s = summaryOf(run);
    return [label(run), pct(s?.overall.average_score), ...BY_GROUP_ORDER.map((g) => pct(s?.by_group[g]?.mean_score)), String(s?.overall.num_invalid_response ?? "–")];
  })));
  parts.push("", "### By category", "", table(["Model", ...CATEGORIES], runs.map((run) => [label(run), ...CATEGORIES.map((c) => pct(summaryOf(run)?.by_category[c]?.mean_score))])));
  parts.push("", "### By task type", "", table(["Task type", ...runs.map(label)], LEAF_TASKS.filter((t) => runs.some((r) => summaryOf(r)?.by_type[t.byType])).map((t) => [t.byType, ...runs.map((r) => {
    const b = summaryOf(r)?.by_type[t.byType];
    return b ? `${pct(b.mean_score)} (${b.total_processed})` : "–";
  })])));
  const variants = new Set(runs.map((r) => (r["prompt"] as { variant?: string } | undefined)?.variant ?? "mask-overlay"));
  if (variants.size > 1) {
    const byModel = new Map<string, Map<string, ScoresDocument>>();
    for (const r of runs) {
      const v = (r["prompt"] as { variant?: string } | undefined)?.variant ?? "mask-overlay";
      byModel.set(r.model, (byModel.get(r.model) ?? new Map()).set(v, r));
    }
    const order = ["no-overlay", "box-overlay", "mask-overlay"].filter((v) => variants.has(v));
    parts.push("", "### Overlay ablation (Table 5): overall score by overlay variant", "", table(["Model", ...order], [...byModel].map(([model, m]) => [model, ...order.map((v) => pct(m.get(v) ? summaryOf(m.get(v)!)?.overall.average_score : undefined))])));
  }
  for (const run of runs) {
    const rows = (run["counting_by_targets"] as Array<{ targets: string; n: number; count_score: number }> | undefined) ?? [];
    if (rows.length === 0) continue;
    parts.push("", `### ${mdText(label(run))}: counting score by number of ground-truth targets (Fig. 4)`, "", table(["Targets", "N", "Count score"], rows.map((r) => [r.targets, String(r.n), pct(r.count_score)])));
  }
  return parts.join("\n") + "\n";
}

export function epicTerminal(run: ScoresDocument): string {
  const s = summaryOf(run);
  if (!s) return `no samples scored · errors ${run.counts.errors}`;
  const lines = BY_GROUP_ORDER.filter((g) => s.by_group[g]).map((g) => `${g.padEnd(46)} ${pct(s.by_group[g]!.mean_score).padStart(6)}  (n ${s.by_group[g]!.total_processed}, invalid ${s.by_group[g]!.num_invalid_response})`);
  lines.push(`overall ${pct(s.overall.average_score)} over ${s.overall.total_processed} samples · invalid ${s.overall.num_invalid_response} · errors ${run.counts.errors} · missing ${run.counts.missing}`);
  return lines.join("\n");
}
