import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { htmlReport, jsonReport, markdownReport, readScores } from "../report/render.js";

export function registerReport(program: Command): void {
  program
    .command("report <runs...>")
    .description("tables for one or more runs (run folders or scores.json files), side by side")
    .option("--format <format>", "md | json | html", "md")
    .option("--out <file>", "write to a file instead of stdout")
    .action((inputs: string[], opts) => {
      const runs = readScores(inputs);
      const render = { md: markdownReport, json: jsonReport, html: htmlReport }[opts.format as string];
      if (!render) throw new UsageError(`unknown format "${opts.format}" (md, json, html)`);
      const text = render(runs);
      if (opts.out) {
        mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
        writeFileSync(opts.out, text);
        console.log(`wrote ${opts.out}`);
      } else process.stdout.write(text);
    });
}
