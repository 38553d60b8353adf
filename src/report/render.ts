import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { ScoresDocument } from "../core/benchmark.js";
import { UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";

/** Read scores.json from run folders or direct paths. */
export function readScores(inputs: string[]): ScoresDocument[] {
  return inputs.map((input) => {
    const file = existsSync(input) && statSync(input).isDirectory() ? path.join(input, "scores.json") : input;
    if (!existsSync(file)) throw new UsageError(`no scores.json at ${input}`);
    try {
      return JSON.parse(readFileSync(file, "utf8")) as ScoresDocument;
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
  });
}

/** Markdown: one section per benchmark, runs side by side. */
export function markdownReport(runs: ScoresDocument[]): string {
  const byBenchmark = new Map<string, ScoresDocument[]>();
  for (const run of runs) byBenchmark.set(run.benchmark, [...(byBenchmark.get(run.benchmark) ?? []), run]);
  return [...byBenchmark].map(([id, group]) => getBenchmark(id).markdown(group)).join("\n");
}

export function jsonReport(runs: ScoresDocument[]): string {
  return `${JSON.stringify(runs, null, 2)}\n`;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A self-contained HTML page of the Markdown report's tables (the full viewer is a later feature). */
export function htmlReport(runs: ScoresDocument[]): string {
  const lines = markdownReport(runs).split("\n");
  const body: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("|")) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.startsWith("|")) {
        rows.push(lines[i]!.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|")));
        i++;
      }
      const [header, , ...rest] = rows;
      body.push(
        `<table><thead><tr>${header!.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr></thead><tbody>` +
          rest.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("") +
          "</tbody></table>",
      );
      continue;
    }
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) body.push(`<h${heading[1]!.length}>${escapeHtml(heading[2]!)}</h${heading[1]!.length}>`);
    else if (line.trim()) body.push(`<p>${escapeHtml(line).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`);
    i++;
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>spatialprobe report</title><style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}th:first-child,td:first-child{text-align:left}
th{background:#f3f3f3}</style></head><body>
${body.join("\n")}
</body></html>
`;
}
