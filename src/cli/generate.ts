import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { integer, positiveInteger } from "./main.js";

export function registerGenerate(program: Command): void {
  program
    .command("generate <benchmark>")
    .description("generate fresh data in the benchmark's release layout (egopath: synthetic scenes, 2 views each)")
    .requiredOption("--out <dir>", "output folder (a new or empty folder)")
    .option("--seed <n>", "random seed", integer, 7)
    .option("--count <n>", "number of scenes (egopath)", positiveInteger, 6)
    .action(async (benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      if (!benchmark.generate) throw new UsageError(`${benchmarkId} has no generator`);
      const summary = await benchmark.generate({ outDir: opts.out, seed: opts.seed, count: opts.count });
      console.log(`wrote ${opts.out}: ${summary}`);
    });
}
