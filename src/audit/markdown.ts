/**
 * audit.md and the terminal table: per task, chance beside the best blind rule, TsT and the cue
 * scores, each as a percentage with its interval; then each task's rules and the features that
 * carry the forest. A blind score within 5 points of chance reads "near chance"; above chance by
 * more, the gap is shown.
 */
import type { AuditDocument, ForestScore, ScoredAnswerer, TaskAudit } from "./audit.js";
import type { PruneResult } from "./prune.js";

export const pct = (v: number | null | undefined, digits = 1): string => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(digits) : "—");
const interval = (ci: [number, number] | null | undefined): string => (ci ? ` [${pct(ci[0])}, ${pct(ci[1])}]` : "");
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** "62.0 (+32.0)": a blind score and its gap over chance. */
function withGap(score: number | null | undefined, chance: number | null): string {
  if (typeof score !== "number") return "—";
  if (chance === null) return pct(score);
  const gap = score - chance;
  return `${pct(score)} (${gap >= 0 ? "+" : ""}${pct(gap)})`;
}

function forestCell(f: ForestScore | null | undefined, chance: number | null): string {
  return f ? withGap(f.score, chance) : "—";
}

/** The summary table: one row per task. */
export function summaryTable(doc: AuditDocument): string {
  const rows = Object.entries(doc.tasks).map(([task, t]) => {
    const blind = t.blind_best ? `${withGap(t.blind_best.score, t.chance)} ${t.blind_best.name}` : "—";
    const cues = t.cues ? [t.cues.best ? `${withGap(t.cues.best.score, t.chance)} ${t.cues.best.name}` : null, t.cues.forest ? `forest ${forestCell(t.cues.forest, t.chance)}` : null].filter(Boolean).join("; ") : "—";
    const legible = t.legibility ? `${pct(t.legibility.questions_unreadable)} unreadable` : "—";
    return `| ${cell(task)} | ${cell(t.metric)} | ${t.n} | ${pct(t.chance)} | ${cell(blind)} | ${forestCell(t.tst, t.chance)} | ${cell(cues)} | ${legible} |`;
  });
  return [
    "| Task | Metric | n | Chance | Best blind rule | TsT | Cues | Legibility |",
    "|---|---|---:|---:|---|---:|---|---:|",
    ...rows,
  ].join("\n");
}

function ruleLines(rules: readonly ScoredAnswerer[], chance: number | null): string[] {
  return [...rules].sort((a, b) => (b.score ?? -1) - (a.score ?? -1)).map((r) => `- ${cell(r.name)}: ${withGap(r.score, chance)}${interval(r.ci)} — ${cell(r.describe)}`);
}

function taskSection(task: string, t: TaskAudit): string[] {
  const lines = [`### ${task}`, "", `${t.metric}, n = ${t.n}, chance ${t.chance === null ? "— (no exact chance level)" : pct(t.chance)}.`, ""];
  const shares = Object.entries(t.answers).map(([k, v]) => `${cell(k)} ${pct(v, 0)}%`);
  lines.push(`Right answers: ${shares.join(", ")}.`, "", "Blind rules (no picture):", ...ruleLines(t.blind, t.chance), "");
  if (t.blind_selected) lines.push(`Blind rule chosen on the other folds (held out; chosen: ${cell([...new Set(t.blind_selected.chosen)].join(", "))}): ${withGap(t.blind_selected.score, t.chance)}${interval(t.blind_selected.ci)}`, "");
  if (t.tst) {
    lines.push(`TsT (forest on the prompt text and options, ${t.tst.folds}-fold): ${withGap(t.tst.score, t.chance)}${interval(t.tst.ci)}`);
    for (const f of t.tst.top_features) lines.push(`- ${cell(f.feature)}: −${pct(f.drop)} points when shuffled`);
    lines.push("");
  }
  if (t.cues) {
    lines.push("Cue rules (read off the picture without reasoning):", ...ruleLines(t.cues.rules, t.chance));
    if (t.cues.forest) {
      lines.push(`- cue forest: ${withGap(t.cues.forest.score, t.chance)}${interval(t.cues.forest.ci)}`);
      for (const f of t.cues.forest.top_features) lines.push(`  - ${cell(f.feature)}: −${pct(f.drop)} points when shuffled`);
    }
    lines.push("");
  }
  if (t.legibility) {
    const l = t.legibility;
    lines.push(`Legibility: ${pct(l.labels_covered)}% of ${l.labels} labels covered by later marks or the border; ${pct(l.questions_unreadable)}% of ${l.questions} questions have an answer whose label cannot be read.`, "");
  }
  return lines;
}

export function auditMarkdown(doc: AuditDocument): string {
  const overall = doc.overall;
  return [
    `# Audit: ${doc.benchmark}`,
    "",
    `${doc.n} items, ${doc.folds}-fold cross-validation, seed ${doc.seed}. Scores in percent, each with its gap over chance; every reply was scored by the benchmark's own scorer.`,
    "",
    summaryTable(doc),
    "",
    `Overall (${overall.metric}): chance ${pct(overall.chance)}, best blind rule ${overall.blind_best ? `${pct(overall.blind_best.score)} (${overall.blind_best.name}, picked on these items)` : "—"}, blind rules chosen on the other folds ${pct(overall.blind_selected?.score)}, TsT ${pct(overall.tst)}.`,
    "",
    ...Object.entries(doc.tasks).flatMap(([task, t]) => taskSection(task, t)),
  ].join("\n");
}

export function pruneMarkdown(result: PruneResult, target: number): string {
  const rows = Object.entries(result.tasks).map(([task, t]) => `| ${cell(task)} | ${t.n_before} | ${t.n_after} | ${pct(t.gap_before)} | ${pct(t.gap_after)} | ${t.outcome} |`);
  return [
    `# Bias pruning: ${result.before.document.benchmark}`,
    "",
    `Target: best blind score within ${pct(target)} points of chance. ${result.removed.length} items removed in ${result.steps} steps.`,
    "",
    "| Task | n before | n after | Gap before | Gap after | Outcome |",
    "|---|---:|---:|---:|---:|---|",
    ...rows,
    "",
    "## Before",
    "",
    summaryTable(result.before.document),
    "",
    "## After",
    "",
    summaryTable(result.after.document),
    "",
  ].join("\n");
}
