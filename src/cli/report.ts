import path from "node:path";
import type { Command } from "commander";
import { writeFileAtomic } from "../core/outputs.js";
import { UsageError } from "../core/problems.js";
import { DEFAULT_HTML_OPTIONS, htmlReport } from "../report/html-report.js";
import { jsonReport, markdownReport, readScores } from "../report/render.js";
import { number, positiveInteger } from "./main.js";

export function registerReport(program: Command): void {
  program
    .command("report <runs...>")
    .description("tables for one or more runs (run folders or scores.json files; item runs and `navigate` runs), side by side; html adds charts, an item gallery with overlays and the navigation episodes with their top-down pictures")
    .option("--format <format>", "md | json | html", "md")
    .option("--out <file>", "write to a file instead of stdout")
    .option("--max-size <MB>", "html: most megabytes of embedded pictures (default 20)", number)
    .option("--picture-size <px>", "html: longest side of each picture (default 640)", positiveInteger)
    .action(async (inputs: string[], opts) => {
      const format = opts.format as string;
      if (!["md", "json", "html"].includes(format)) throw new UsageError(`unknown format "${format}" (md, json, html)`);
      let text: string;
      if (format === "html") {
        const budgetBytes = opts.maxSize !== undefined ? Math.round(opts.maxSize * 1024 * 1024) : DEFAULT_HTML_OPTIONS.budgetBytes;
        if (budgetBytes < 0) throw new UsageError("--max-size must be 0 or more");
        const { html, summary } = await htmlReport(inputs, { budgetBytes, maxSide: opts.pictureSize ?? DEFAULT_HTML_OPTIONS.maxSide });
        text = html;
        console.error(`pictures for ${summary.pictured} of ${summary.total} items (${(summary.bytes / 1024 / 1024).toFixed(1)} MB)`);
      } else {
        const runs = readScores(inputs);
        text = format === "md" ? markdownReport(runs) : jsonReport(runs);
      }
      if (opts.out) {
        writeFileAtomic(path.resolve(opts.out), text);
        console.log(`wrote ${opts.out}`);
      } else process.stdout.write(text);
    });
}
