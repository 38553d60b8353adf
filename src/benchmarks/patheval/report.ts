import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";
import { nScoredCell, overallTerminal, runLabels, runsMarkdown, terminalStatusLines, type RunDefaults } from "../../report/run-facts.js";
import { VARIANTS } from "./prompt.js";

/** What a run label leaves out: the plain prompt (probe runs are named by their probe). */
export const PATHEVAL_DEFAULTS: RunDefaults = { prompt: VARIANTS[0], control: "none" };

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

type Dims = Record<string, { n: number; accuracy: number; official_accuracy: number; parse_failures: number; chose_first: number; chose_second: number; ci: { accuracy?: [number, number] } }>;

type Subset = { n: number; accuracy: number | null };
type ProbeRow = { descriptor: string; n: number; accuracy: number | null; relevance_accuracy?: number; ε1?: Subset; ε2?: Subset; ε3?: Subset };

interface Labelled {
  run: ScoresDocument;
  label: string;
}

function probeMarkdown({ run, label }: Labelled): string {
  const abstraction = run.tasks["attribute-abstraction"] as { accuracy: number; relevance_accuracy: number; n: number; per_descriptor: ProbeRow[] } | undefined;
  const fine = run.tasks["fine-grained"] as { accuracy: number; n: number; per_descriptor: ProbeRow[]; per_epsilon: Record<string, { n: number; accuracy: number }> } | undefined;
  const parts: string[] = [];
  const scored = `scored ${nScoredCell(run)}`;
  if (abstraction) {
    parts.push(`### ${mdText(label)}: attribute abstraction (${abstraction.n} scenarios, ${mdText(scored)}; direction accuracy ${pct(abstraction.accuracy)}, relevance ${pct(abstraction.relevance_accuracy)})`, "");
    parts.push(table(["Descriptor", "Direction right", "Relevance right"], abstraction.per_descriptor.map((r) => [r.descriptor, pct(r.accuracy), pct(r.relevance_accuracy)])));
  }
  if (fine) {
    parts.push(`### ${mdText(label)}: fine-grained perception (${fine.n} questions, ${mdText(scored)}; accuracy ${pct(fine.accuracy)})`, "");
    parts.push(table(["Descriptor", "All", "ε1", "ε2", "ε3"], fine.per_descriptor.map((r) => [r.descriptor, `${pct(r.accuracy)} (${r.n})`, `${pct(r.ε1?.accuracy)} (${r.ε1?.n ?? 0})`, `${pct(r.ε2?.accuracy)} (${r.ε2?.n ?? 0})`, `${pct(r.ε3?.accuracy)} (${r.ε3?.n ?? 0})`])));
  }
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

function pathevalChoiceMarkdown(runs: Labelled[]): string {
  const dims = ["2D", "3D"];
  const parts = ["## PathEval", "", "Accuracy (%) of choosing the path that better fits the scenario; chance is 50. Scored = pairs scored from a prediction / pairs asked.", ""];
  parts.push(table(
    ["Run", "Scored", "Variant", ...dims.flatMap((d) => [`${d} acc.`, `${d} 95% CI`, `${d} official reading`])],
    runs.map(({ run, label }) => {
      const t = run.tasks as unknown as Dims;
      return [label, nScoredCell(run), String((run["prompt"] as Record<string, unknown> | undefined)?.["variant"] ?? ""), ...dims.flatMap((d) => [pct(t[d]?.accuracy), ci(t[d]?.ci.accuracy), pct(t[d]?.official_accuracy)])];
    }),
  ));
  parts.push("", "### Position bias (Table 2): how often the left / right path was chosen", "");
  parts.push(table(["Run", ...dims.flatMap((d) => [`${d} first`, `${d} second`, `${d} unreadable`])], runs.map(({ run, label }) => {
    const t = run.tasks as unknown as Dims;
    return [label, ...dims.flatMap((d) => [String(t[d]?.chose_first ?? "–"), String(t[d]?.chose_second ?? "–"), String(t[d]?.parse_failures ?? "–")])];
  })));
  for (const { run, label } of runs) {
    const scenarios = (run["per_scenario"] as Array<{ id: number; agent: string; n: number; accuracy: number }>) ?? [];
    const descriptors = (run["per_descriptor"] as Array<{ descriptor: string; n: number; accuracy: number }>) ?? [];
    parts.push("", `### ${mdText(label)}: accuracy by scenario (Fig. 3)`, "", table(["Scenario", "Agent", "N", "Accuracy"], scenarios.map((s) => [String(s.id), s.agent, String(s.n), pct(s.accuracy)])));
    parts.push("", `### ${mdText(label)}: accuracy on pairs decided by each descriptor`, "", table(["Descriptor", "N", "Accuracy"], descriptors.map((d) => [d.descriptor, String(d.n), pct(d.accuracy)])));
  }
  return parts.join("\n") + "\n";
}

export function pathevalTerminal(run: ScoresDocument): string {
  const score = overallTerminal(run, pct(run.score), run.score !== null);
  if (run["probe"]) return [`${run["probe"]}: accuracy ${score} over ${run.n} questions · unreadable ${run.counts.parse_failures} · errors ${run.counts.errors}`, ...terminalStatusLines(run)].join("\n");
  const t = run.tasks as unknown as Dims;
  const lines = Object.entries(t).map(([dim, s]) => `${dim}  n ${s.n}  accuracy ${pct(s.accuracy)} ${ci(s.ci.accuracy)}  (official reading ${pct(s.official_accuracy)})  first/second ${s.chose_first}/${s.chose_second}  unreadable ${s.parse_failures}`);
  lines.push(`overall accuracy ${score}  ·  errors ${run.counts.errors}`);
  lines.push(...terminalStatusLines(run));
  return lines.join("\n");
}
