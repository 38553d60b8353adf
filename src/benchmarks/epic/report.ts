import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { nScoredCell, overallCell, overallTerminal, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import { COUNT_PANELS } from "./aggregate.js";
import { OVERLAY_VARIANTS } from "./prompt.js";
import { jointVsCountOnly, OVERLAY_ABLATION_GROUPS, overlayAblation, repeatMeans, rulesOf, variantOf, type Comparison } from "./tables.js";
import { BY_GROUP_ORDER, CATEGORIES, LEAF_TASKS } from "./taxonomy.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
type Bucket = { total_processed: number; num_invalid_response: number; mean_score: number };
type Summary = { overall: { average_score: number; num_invalid_response: number; total_processed: number }; by_category: Record<string, Bucket>; by_type: Record<string, Bucket>; by_group: Record<string, Bucket> };

const summaryOf = (run: ScoresDocument) => run["summary"] as Summary | undefined;
const shortGroup = (g: string) => g.split("/").pop()!;

/** Printed under the main table when a run is the built-in oracle. */
export const ORACLE_NOTE =
  "The built-in `oracle` answers with the boxes around each ground-truth mask's parts (and the true counts, feasibility and a path through the feasible area). The official scorer compares boxes with the masks, and a box covers pixels its mask does not, so the oracle's score is the most a box answer can reach on these samples, not 100.";

/** What a run label leaves out: the mask overlay (the paper's default prompt). */
export const EPIC_DEFAULTS: RunDefaults = { prompt: OVERLAY_VARIANTS[0], control: "none" };

export function epicMarkdown(runs: ScoresDocument[]): string {
  const labels = runLabels(runs, EPIC_DEFAULTS);
  const parts = ["## EPIC-Bench", "", "Mean sample score (%), as the official evaluation code computes it; groups as the paper's Table 2. Scored = samples scored from a prediction / samples asked; Overall is \"—\" when a task type has no predictions.", ""];
  parts.push(table(["Run", "Scored", "Overall", ...BY_GROUP_ORDER.map(shortGroup), "Invalid"], runs.map((run, i) => {
    const s = summaryOf(run);
    return [labels[i]!, nScoredCell(run), overallCell(run, pct(s?.overall.average_score)), ...BY_GROUP_ORDER.map((g) => pct(s?.by_group[g]?.mean_score)), String(s?.overall.num_invalid_response ?? "–")];
  })));
  // Why the built-in oracle is not at 100: its boxes are scored against masks.
  if (runs.some((run) => String(run.model) === "oracle")) parts.push("", ORACLE_NOTE);
  const paperRuns = runs.flatMap((run, i) => (rulesOf(run) === "paper" ? [labels[i]!] : []));
  if (paperRuns.length > 0) parts.push("", `Scored with the paper's rules where its text and the official code differ (\`--rules paper\`, scores.json \`scoring.rules\`): ${paperRuns.map(mdText).join(", ")}. The others follow the official code.`);
  parts.push("", "### By category", "", table(["Run", ...CATEGORIES], runs.map((run, i) => [labels[i]!, ...CATEGORIES.map((c) => pct(summaryOf(run)?.by_category[c]?.mean_score))])));
  parts.push("", "### By task type", "", table(["Task type", ...labels], LEAF_TASKS.filter((t) => runs.some((r) => summaryOf(r)?.by_type[t.byType])).map((t) => [t.byType, ...runs.map((r) => {
    const b = summaryOf(r)?.by_type[t.byType];
    return b ? `${pct(b.mean_score)} (${b.total_processed})` : "–";
  })])));
  parts.push(...repeatMeansMarkdown(runs));
  const overlayVariants = new Set(runs.map(variantOf).filter((v) => (OVERLAY_VARIANTS as readonly string[]).includes(v)));
  if (overlayVariants.size > 1) {
    parts.push(...comparisonMarkdown(overlayAblation(runs), {
      title: "### Overlay ablation (Table 5): Feasible Path, Affordance Region, Contact Relationship, Placement Region",
      what: "Mean sample score (%) over the samples of these four tasks that every overlay run below scored (per task: score and n)",
      baseline: "no-overlay",
      groups: OVERLAY_ABLATION_GROUPS,
    }));
  }
  if (runs.some((r) => variantOf(r) === "count-only")) {
    parts.push(...comparisonMarkdown(jointVsCountOnly(runs), {
      title: "### Joint vs count-only (Table 4): counting score on precise-count TL and CR samples",
      what: "Counting score (%) over the Target Localization and Contact Relationship samples whose count must be precise (exact match) that every run below scored; joint = count and boxes (mask-overlay prompt)",
      baseline: "mask-overlay",
    }));
  }
  parts.push(...countAccuracyMarkdown(runs, labels));
  for (const [i, run] of runs.entries()) {
    const rows = (run["counting_by_targets"] as Array<{ targets: string; n: number; count_score: number }> | undefined) ?? [];
    if (rows.length === 0) continue;
    parts.push("", `### ${mdText(labels[i]!)}: counting score by number of ground-truth targets (Fig. 4)`, "", table(["Targets", "N", "Count score"], rows.map((r) => [r.targets, String(r.n), pct(r.count_score)])));
  }
  parts.push("", runsMarkdown(runs, EPIC_DEFAULTS));
  return parts.join("\n") + "\n";
}

const VARIANT_WORDS: Record<string, string> = { "no-overlay": "w/o overlay", "box-overlay": "box overlay", "mask-overlay": "mask overlay", "count-only": "count only" };

/**
 * A comparison table (Tables 4 and 5): one row per run, the value over the common samples, its
 * difference from the same model's baseline variant, n, errors and missing predictions in scope.
 */
function comparisonMarkdown(c: Comparison, text: { title: string; what: string; baseline: string; groups?: readonly string[] }): string[] {
  const out = ["", text.title, "", `${text.what}: ${c.common} samples in common. Errors and Missing count the run's samples in scope that have no score (they are not in the common set).`, ""];
  const baseOf = new Map(c.cells.filter((x) => x.variant === text.baseline).map((x) => [x.label, x.value]));
  const groups = text.groups ?? [];
  const groupCell = (v: { value: number | null; n: number } | undefined) => (v && v.value !== null ? `${(100 * v.value).toFixed(2)} (${v.n})` : "–");
  out.push(table(["Model", "Prompt", "Score", "Δ", ...groups.map(shortGroup), "N", "Errors", "Missing"], c.cells.map((x) => {
    const base = baseOf.get(x.label);
    const delta = x.variant !== text.baseline && x.value !== null && base !== undefined && base !== null ? `${x.value >= base ? "+" : ""}${(100 * (x.value - base)).toFixed(2)}` : "";
    return [x.repeats > 1 ? `${x.label} (mean of ${x.repeats} repeats)` : x.label, VARIANT_WORDS[x.variant] ?? x.variant, x.value === null ? "–" : (100 * x.value).toFixed(2), delta, ...groups.map((g) => groupCell(x.byGroup[g])), String(x.n), String(x.errors), String(x.missing)];
  })));
  if (c.withoutPerItem.length > 0) out.push("", `Left out (their scores.json has no per-item list; score them again): ${c.withoutPerItem.map(mdText).join(", ")}.`);
  return out;
}

type AccuracyRow = { targets: string; n: number; correct: number; accuracy: number };

/** Fig. 4 as a table: exact counting accuracy on precise-count samples by number of targets, TL and CR. */
function countAccuracyMarkdown(runs: ScoresDocument[], labels: string[]): string[] {
  const out: string[] = [];
  for (const [i, run] of runs.entries()) {
    const panels = run["count_accuracy_by_targets"] as Record<string, AccuracyRow[]> | undefined;
    if (!panels || COUNT_PANELS.every((p) => (panels[p] ?? []).length === 0)) continue;
    const keys = ["0", "1", "2", "3", "4", "5+"].filter((k) => COUNT_PANELS.some((p) => (panels[p] ?? []).some((r) => r.targets === k)));
    const cell = (p: string, k: string) => {
      const r = (panels[p] ?? []).find((x) => x.targets === k);
      return r ? `${pct(r.accuracy)} (${r.correct}/${r.n})` : "–";
    };
    out.push("", `### ${mdText(labels[i]!)}: counting accuracy by number of targets, precise-count samples (Fig. 4)`, "", table(["Targets", ...COUNT_PANELS], keys.map((k) => [k, ...COUNT_PANELS.map((p) => cell(p, k))])));
  }
  return out;
}

/** The mean over the repeats of a run, as the paper reports its runs (Sec. 4.1). */
function repeatMeansMarkdown(runs: ScoresDocument[]): string[] {
  const means = repeatMeans(runs);
  if (means.length === 0) return [];
  return ["", "### Mean over repeats (the paper reports the mean of its independent runs)", "", "Plain mean of each repeat's overall score and group means (%); N = samples scored in each repeat.", "",
    table(["Run", "Repeats", "N", "Overall", ...BY_GROUP_ORDER.map(shortGroup)], means.map((m) => [m.label, String(m.repeats), m.n.join("/"), pct(m.overall), ...BY_GROUP_ORDER.map((g) => pct(m.byGroup[g]))]))];
}

export function epicTerminal(run: ScoresDocument): string {
  const s = summaryOf(run);
  if (!s) return [`no samples scored · errors ${run.counts.errors}`, ...terminalStatusLines(run)].join("\n");
  const lines = BY_GROUP_ORDER.filter((g) => s.by_group[g]).map((g) => `${g.padEnd(46)} ${pct(s.by_group[g]!.mean_score).padStart(6)}  (n ${s.by_group[g]!.total_processed}, invalid ${s.by_group[g]!.num_invalid_response})`);
  const overall = overallTerminal(run, pct(s.overall.average_score), run.score !== null);
  lines.push(`overall ${overall} over ${s.overall.total_processed} samples · invalid ${s.overall.num_invalid_response} · errors ${run.counts.errors} · missing ${run.counts.missing}`);
  if (rulesOf(run) === "paper") lines.push("rules: paper (where the paper's text and the official code differ; scores.json scoring.rules)");
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
