import type { ScoresDocument } from "../../core/benchmark.js";
import { mdText, table } from "../../report/markdown.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

type Dims = Record<string, { n: number; accuracy: number; official_accuracy: number; parse_failures: number; chose_first: number; chose_second: number; ci: { accuracy?: [number, number] } }>;

type Subset = { n: number; accuracy: number | null };
type ProbeRow = { descriptor: string; n: number; accuracy: number | null; relevance_accuracy?: number; ε1?: Subset; ε2?: Subset; ε3?: Subset };

function probeMarkdown(run: ScoresDocument): string {
  const abstraction = run.tasks["attribute-abstraction"] as { accuracy: number; relevance_accuracy: number; n: number; per_descriptor: ProbeRow[] } | undefined;
  const fine = run.tasks["fine-grained"] as { accuracy: number; n: number; per_descriptor: ProbeRow[]; per_epsilon: Record<string, { n: number; accuracy: number }> } | undefined;
  const parts: string[] = [];
  if (abstraction) {
    parts.push(`### ${mdText(run.model)}: attribute abstraction (${abstraction.n} scenarios; direction accuracy ${pct(abstraction.accuracy)}, relevance ${pct(abstraction.relevance_accuracy)})`, "");
    parts.push(table(["Descriptor", "Direction right", "Relevance right"], abstraction.per_descriptor.map((r) => [r.descriptor, pct(r.accuracy), pct(r.relevance_accuracy)])));
  }
  if (fine) {
    parts.push(`### ${mdText(run.model)}: fine-grained perception (${fine.n} questions; accuracy ${pct(fine.accuracy)})`, "");
    parts.push(table(["Descriptor", "All", "ε1", "ε2", "ε3"], fine.per_descriptor.map((r) => [r.descriptor, `${pct(r.accuracy)} (${r.n})`, `${pct(r.ε1?.accuracy)} (${r.ε1?.n ?? 0})`, `${pct(r.ε2?.accuracy)} (${r.ε2?.n ?? 0})`, `${pct(r.ε3?.accuracy)} (${r.ε3?.n ?? 0})`])));
  }
  return parts.join("\n");
}

export function pathevalMarkdown(runs: ScoresDocument[]): string {
  const probes = runs.filter((r) => r["probe"]);
  const choices = runs.filter((r) => !r["probe"]);
  const head = ["## PathEval", ""];
  const probeParts = probes.map(probeMarkdown);
  if (choices.length === 0) return [...head, probeParts.join("\n\n")].join("\n") + "\n";
  return pathevalChoiceMarkdown(choices) + (probeParts.length > 0 ? `\n${probeParts.join("\n\n")}\n` : "");
}

function pathevalChoiceMarkdown(runs: ScoresDocument[]): string {
  const dims = ["2D", "3D"];
  const parts = ["## PathEval", "", "Accuracy (%) of choosing the path that better fits the scenario; chance is 50.", ""];
  parts.push(table(
    ["Model", "Variant", ...dims.flatMap((d) => [`${d} acc.`, `${d} 95% CI`, `${d} official reading`])],
    runs.map((run) => {
      const t = run.tasks as unknown as Dims;
      return [run.model, String((run["prompt"] as Record<string, unknown> | undefined)?.["variant"] ?? ""), ...dims.flatMap((d) => [pct(t[d]?.accuracy), ci(t[d]?.ci.accuracy), pct(t[d]?.official_accuracy)])];
    }),
  ));
  parts.push("", "### Position bias (Table 2): how often the left / right path was chosen", "");
  parts.push(table(["Model", ...dims.flatMap((d) => [`${d} first`, `${d} second`, `${d} unreadable`])], runs.map((run) => {
    const t = run.tasks as unknown as Dims;
    return [run.model, ...dims.flatMap((d) => [String(t[d]?.chose_first ?? "–"), String(t[d]?.chose_second ?? "–"), String(t[d]?.parse_failures ?? "–")])];
  })));
  for (const run of runs) {
    const scenarios = (run["per_scenario"] as Array<{ id: number; agent: string; n: number; accuracy: number }>) ?? [];
    const descriptors = (run["per_descriptor"] as Array<{ descriptor: string; n: number; accuracy: number }>) ?? [];
    parts.push("", `### ${mdText(run.model)}: accuracy by scenario (Fig. 3)`, "", table(["Scenario", "Agent", "N", "Accuracy"], scenarios.map((s) => [String(s.id), s.agent, String(s.n), pct(s.accuracy)])));
    parts.push("", `### ${mdText(run.model)}: accuracy on pairs decided by each descriptor`, "", table(["Descriptor", "N", "Accuracy"], descriptors.map((d) => [d.descriptor, String(d.n), pct(d.accuracy)])));
  }
  return parts.join("\n") + "\n";
}

export function pathevalTerminal(run: ScoresDocument): string {
  if (run["probe"]) return `${run["probe"]}: accuracy ${pct(run.score)} over ${run.n} questions · unreadable ${run.counts.parse_failures} · errors ${run.counts.errors}`;
  const t = run.tasks as unknown as Dims;
  const lines = Object.entries(t).map(([dim, s]) => `${dim}  n ${s.n}  accuracy ${pct(s.accuracy)} ${ci(s.ci.accuracy)}  (official reading ${pct(s.official_accuracy)})  first/second ${s.chose_first}/${s.chose_second}  unreadable ${s.parse_failures}`);
  lines.push(`overall accuracy ${pct(run.score)}  ·  errors ${run.counts.errors}`);
  return lines.join("\n");
}
