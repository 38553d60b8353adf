import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import { DataError, UsageError } from "../core/problems.js";
import { MAX_RESULT_LINE, probeResultsMarkdown, readProbeResults } from "../benchmarks/patheval/index.js";

/** Largest results file read (a few hundred rows are a few hundred kilobytes). */
const MAX_RESULTS_BYTES = 16 * 1024 * 1024;

export function registerProbeResults(program: Command): void {
  program
    .command("probe-results <benchmark> <file>")
    .description("read the results of experiments run outside spatialprobe (patheval: encoder probe, Table 4; memorization, Table 13; format in docs/patheval-probing.md) and print them in the paper's table layouts")
    .option("--format <name>", "md | json", "md")
    .option("--out <file>", "write the tables to this file instead of the terminal")
    .addHelpText("after", "\nExample:\n  spatialprobe probe-results patheval probe/results.jsonl\n")
    .action((benchmarkId: string, file: string, opts) => {
      if (benchmarkId !== "patheval") throw new UsageError(`probe-results reads patheval results only (got "${benchmarkId}")`);
      if (opts.format !== "md" && opts.format !== "json") throw new UsageError(`unknown --format "${opts.format}" (choose md, json)`);
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`${file} is not a file`);
      const size = statSync(file).size;
      if (size > MAX_RESULTS_BYTES) throw new UsageError(`${file} is ${size} bytes; results files over ${MAX_RESULTS_BYTES} bytes are refused (lines of at most ${MAX_RESULT_LINE} characters)`);
      const { rows, problems } = readProbeResults(readFileSync(file, "utf8"), file);
      if (problems.length > 0) throw new DataError(problems);
      const text = opts.format === "json" ? `${JSON.stringify(rows.map(({ line: _line, ...row }) => row), null, 2)}\n` : probeResultsMarkdown(rows);
      if (opts.out) {
        writeFileSync(opts.out, text);
        console.log(`wrote ${opts.out}: ${rows.length} measurements`);
      } else process.stdout.write(text);
    });
}
