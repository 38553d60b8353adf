import type { ScoresDocument } from "../../core/benchmark.js";
import { table } from "../../report/markdown.js";

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? (100 * v).toFixed(1) : "–");
const ci = (v: unknown) => (Array.isArray(v) ? `[${pct(v[0])}, ${pct(v[1])}]` : "");

type Dims = Record<string, { n: number; accuracy: number; official_accuracy: number; parse_failures: number; chose_first: number; chose_second: number; ci: { accuracy?: [number, number] } }>;

export function pathevalMarkdown(runs: ScoresDocument[]): string {
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
    parts.push("", `### ${run.model}: accuracy by scenario (Fig. 3)`, "", table(["Scenario", "Agent", "N", "Accuracy"], scenarios.map((s) => [String(s.id), s.agent, String(s.n), pct(s.accuracy)])));
    parts.push("", `### ${run.model}: accuracy on pairs decided by each descriptor`, "", table(["Descriptor", "N", "Accuracy"], descriptors.map((d) => [d.descriptor, String(d.n), pct(d.accuracy)])));
  }
  return parts.join("\n") + "\n";
}

export function pathevalTerminal(run: ScoresDocument): string {
  const t = run.tasks as unknown as Dims;
  const lines = Object.entries(t).map(([dim, s]) => `${dim}  n ${s.n}  accuracy ${pct(s.accuracy)} ${ci(s.ci.accuracy)}  (official reading ${pct(s.official_accuracy)})  first/second ${s.chose_first}/${s.chose_second}  unreadable ${s.parse_failures}`);
  lines.push(`overall accuracy ${pct(run.score)}  ·  errors ${run.counts.errors}`);
  return lines.join("\n");
}
