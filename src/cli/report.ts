import path from "node:path";
import type { Command } from "commander";
import { writeFileAtomic } from "../core/outputs.js";
import { UsageError } from "../core/problems.js";
import { DEFAULT_HTML_OPTIONS, htmlReport } from "../report/html-report.js";
import { jsonReport, readReportRuns } from "../report/render.js";
import { expandReportInputs } from "../report/export/inputs.js";
import { checkTable, csvExport, latexExport, markdownExport } from "../report/export/formats.js";
import { MAX_IMAGE_SIDE_PX, MAX_REPORT_PICTURES_MB } from "../core/limits.js";
import { numberIn, wholeIn } from "./main.js";
import { auditMarkdown } from "../audit/markdown.js";
import { blindReferences, findAudits } from "../report/blind-rows.js";
import { isAuditFolder } from "../report/export/inputs.js";

const FORMATS = ["md", "json", "csv", "latex", "html"];

/** Run folders below a named folder that have no scores.json yet: said once on stderr, never silently left out. */
function noteUnfinished(dirs: string[]): void {
  const shown = dirs.slice(0, 5).join(", ");
  console.error(`note: left out ${dirs.length} run folder${dirs.length === 1 ? "" : "s"} without a scores.json yet (in progress, or stopped before scoring): ${shown}${dirs.length > 5 ? `, ... and ${dirs.length - 5} more` : ""}`);
}

export function registerReport(program: Command): void {
  program
    .command("report <runs...>")
    .description("tables for one or more runs side by side (with chance and blind rows where the data's audit exists or takes seconds), or an audit folder's report: run folders, scores.json files, or folders holding run folders at any depth (runs/demo, a --repeats folder); item runs and `navigate` runs. md: each benchmark's tables; csv: tidy rows or the leaderboard; latex: booktabs tables; json: the scores.json documents; html adds charts, an item gallery with overlays and the navigation episodes")
    .option("--format <format>", "md | json | csv | latex | html", "md")
    .option("--table <table>", "md, latex: auto (the models x benchmarks leaderboard when the runs span 2+ benchmarks, then every benchmark's tables) | leaderboard | tables | all; csv: tidy (one row per run x task x metric) | leaderboard (default: auto; csv: tidy)")
    .option("--out <file>", "write to a file instead of stdout")
    .option("--max-size <MB>", "html: most megabytes of embedded pictures (default 20)", numberIn(0, MAX_REPORT_PICTURES_MB))
    .option("--picture-size <px>", "html: longest side of each picture (default 1024: overlay labels drawn 12 px high)", wholeIn(1, MAX_IMAGE_SIDE_PX))
    .action(async (inputs: string[], opts) => {
      const format = opts.format as string;
      if (!FORMATS.includes(format)) throw new UsageError(`unknown format "${format}" (${FORMATS.join(", ")})`);
      const table = checkTable(format, opts.table as string | undefined);
      let text: string;
      if (format === "html") {
        const budgetBytes = opts.maxSize !== undefined ? Math.round(opts.maxSize * 1024 * 1024) : DEFAULT_HTML_OPTIONS.budgetBytes;
        if (budgetBytes < 0) throw new UsageError("--max-size must be 0 or more");
        // The same expansion as every other format (the HTML page also shows runs in progress).
        const expanded = expandReportInputs(inputs, { requireScores: false });
        if (expanded.unfinished.length > 0) noteUnfinished(expanded.unfinished);
        const dirs = expanded.runs;
        const { html, summary } = await htmlReport(dirs, { budgetBytes, maxSide: opts.pictureSize ?? DEFAULT_HTML_OPTIONS.maxSide, onProgress: pictureProgress() });
        text = html;
        console.error(`pictures for ${summary.pictured} of ${summary.total} items (${(summary.bytes / 1024 / 1024).toFixed(1)} MB)`);
      } else if (inputs.every(isAuditFolder)) {
        // Audit folders alone: their reports.
        const audits = findAudits(inputs);
        text = format === "json" ? `${JSON.stringify(audits.map((a) => a.document), null, 2)}\n` : `${audits.map((a) => auditMarkdown(a.document)).join("\n\n")}\n`;
      } else {
        const runInputs = inputs.filter((input) => !isAuditFolder(input));
        const runs = readReportRuns(runInputs, noteUnfinished);
        const scores = runs.map((run) => run.scores);
        const references = format === "json" ? [] : await blindReferences(scores, findAudits(inputs));
        text = format === "md" ? markdownExport(scores, table!, references) : format === "latex" ? latexExport(scores, table!, references) : format === "csv" ? csvExport(runs, table!, references) : jsonReport(scores);
      }
      if (opts.out) {
        writeFileAtomic(path.resolve(opts.out), text);
        console.log(`wrote ${opts.out}`);
      } else process.stdout.write(text);
    });
}

/** "drawing pictures: 83 of 830 items" on stderr at every tenth of the items (a big report takes minutes). */
function pictureProgress(): (done: number, total: number) => void {
  let shown = -1;
  return (done, total) => {
    const tenth = total > 0 ? Math.floor((10 * done) / total) : 10;
    if (tenth === shown || total < 50) return;
    shown = tenth;
    console.error(`drawing pictures: ${done} of ${total} items`);
  };
}
