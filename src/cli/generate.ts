import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { integer, positiveInteger } from "./main.js";

/** How much `generate` makes when --count is not given (a few seconds of work each). */
const DEFAULT_COUNT: Record<string, number> = { egopath: 6, patheval: 40 };

export function registerGenerate(program: Command): void {
  program
    .command("generate <benchmark>")
    .description("generate fresh data in the benchmark's release layout (egopath: furnished houses built by the paper's method)")
    .requiredOption("--out <dir>", "output folder (a new or empty folder)")
    .option("--seed <n>", "random seed", integer, 7)
    .option("--count <n>", "egopath: houses (default 6); patheval: environments (default 40; the release has 1,149)", positiveInteger)
    .option("--assets <dir>", "egopath: folder of Sweet Home 3D furniture libraries (.sh3f; default /usr/share/sweethome3d/furniture from Debian's sweethome3d-furniture)")
    .option("--set <key=value...>", "benchmark options, e.g. egopath: size=1024 views=12 routes=10 splits=0.8,0.1,0.1; patheval: runs=30 pairs=5 planner=rrt-connect|rrt test-per-scenario=70|release dims=2d,3d train-images=true max-iterations=50000 workers=2")
    .action(async (benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      if (!benchmark.generate) throw new UsageError(`${benchmarkId} has no generator (egopath and patheval have one)`);
      if (opts.assets !== undefined && benchmarkId !== "egopath") throw new UsageError(`--assets is read by egopath only (its generator builds houses from furniture models)`);
      const extra: Record<string, string> = {};
      for (const pair of (opts.set as string[] | undefined) ?? []) {
        const i = pair.indexOf("=");
        if (i <= 0) throw new UsageError(`--set expects key=value, got "${pair}"`);
        extra[pair.slice(0, i)] = pair.slice(i + 1);
      }
      const summary = await benchmark.generate({ outDir: opts.out, seed: opts.seed, count: opts.count ?? DEFAULT_COUNT[benchmarkId] ?? 40, extra, log: (line) => console.error(line), assetsDir: opts.assets });
      console.log(`wrote ${opts.out}: ${summary}`);
    });
}
