import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { generateOnQueue } from "../queue/generate.js";
import { getBenchmark } from "../registry.js";
import { MAX_GENERATE_COUNT } from "../core/limits.js";
import { wholeIn } from "./main.js";

/** How much `generate` makes when --count is not given (a few seconds of work each). */
const DEFAULT_COUNT: Record<string, number> = { egopath: 6, patheval: 40, vcn: 10, egotl: 2, epic: 2 };

/** The generators that build furnished houses from furniture libraries (and so read --assets). */
const WORLD_GENERATORS = ["egopath", "vcn", "egotl", "epic"];

/**
 * A generator writes a whole release layout, so --out must be new, empty, or a set spatialprobe made
 * before (its README.md's first line says so; the generator then replaces it, core/outputs.ts).
 */
export function usableGenerateOut(out: string): boolean {
  if (!existsSync(out)) return true;
  if (!statSync(out).isDirectory()) return false;
  if (readdirSync(out).length === 0) return true;
  const readme = path.join(out, "README.md");
  return existsSync(readme) && /spatialprobe/.test(readFileSync(readme, "utf8").split("\n", 1)[0]!);
}

export function registerGenerate(program: Command): void {
  program
    .command("generate <benchmark>")
    .description("generate fresh data in the benchmark's release layout (egopath, vcn, egotl, epic: furnished houses on the world engine, by each paper's method; patheval: planned paths in 2D and 3D environments)")
    .requiredOption("--out <dir>", "output folder (a new or empty folder)")
    .option("--seed <n>", "random seed", wholeIn(0, Number.MAX_SAFE_INTEGER), 7)
    .option("--count <n>", "egopath: houses (default 6); vcn: episodes (default 10); egotl, epic: houses (default 2); patheval: environments (default 40; the release has 1,149)", wholeIn(1, MAX_GENERATE_COUNT))
    .option("--queue <url>", "split the work into jobs on a PostgreSQL queue (postgres://...; scripts/queue-server.sh) for `spatialprobe worker` processes on any machine (with the same furniture libraries, or --path-map): egopath, epic, vcn: one per house; egotl: one per rendered episode; patheval: one per environment; assemble the set as the jobs are done (vcn: house by house; the others once all are done) and write the same set as without --queue (docs/queue.md)")
    .option("--no-work", "with --queue: leave the jobs to the workers instead of making them here too")
    .option("--assets <dir>", "egopath, vcn, egotl, epic: folder of Sweet Home 3D furniture libraries (.sh3f; default /usr/share/sweethome3d/furniture from Debian's sweethome3d-furniture)")
    .option("--set <key=value...>", "benchmark options, e.g. egopath: size=1024 views=12 routes=10 splits=0.8,0.1,0.1 selection=paper|off prune=0.05|off; vcn: houses=4 rooms=32-38 area=1.4 tours=1 size=384 fps=1 speed=1.4 turn=180 frames=600 window=30-160 media=both|video|frames order=4 count=4 distance=4 orientation=4 instance=4; epic: views=8 people=3 size=512x384 matching=0.15; egotl: train=1 (houses of training items) episodes=3 per-task=N media=spans|clips antialias=true|false size=320x240; patheval: runs=30 pairs=5 planner=rrt-connect|rrt validity=release|exact labelled-pairs=all|last thresholds=0.8,0.8,0.8,50,90,1,30 (or length:40,smoothness:60,...) environments=DIR (your environment files, release format) scenarios=FILE (lines \"<id>: <text>\", ids 1..15) balance=true split=scenario|environment test-per-scenario=70|release preset=table10 probing=1000 (same/different single-path pairs) study=segments (Fig. 2 alone) dims=2d,3d train-images=true max-iterations=50000 workers=2")
    .action(async (benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      if (!benchmark.generate) throw new UsageError(`${benchmarkId} has no generator`);
      // Refused before any work (the generators check again when they write, after minutes of it).
      if (!usableGenerateOut(opts.out)) throw new UsageError(`--out ${opts.out} is not a new or empty folder, nor a set spatialprobe generated: choose another, or empty it first`);
      if (opts.assets !== undefined && !WORLD_GENERATORS.includes(benchmarkId)) throw new UsageError(`--assets is read by ${WORLD_GENERATORS.join(", ")} (their generators build houses from furniture models)`);
      const extra: Record<string, string> = {};
      for (const pair of (opts.set as string[] | undefined) ?? []) {
        const i = pair.indexOf("=");
        if (i <= 0) throw new UsageError(`--set expects key=value, got "${pair}"`);
        extra[pair.slice(0, i)] = pair.slice(i + 1);
      }
      if (opts.work === false && opts.queue === undefined) throw new UsageError("--no-work goes with --queue");
      if (opts.queue !== undefined) {
        const log = (line: string) => console.error(line);
        const summary = await generateOnQueue(benchmarkId, { outDir: opts.out, seed: opts.seed, count: opts.count ?? DEFAULT_COUNT[benchmarkId] ?? 40, extra, ...(opts.assets ? { assetsDir: opts.assets } : {}), log }, { url: String(opts.queue), work: opts.work !== false });
        console.log(`wrote ${opts.out}: ${summary}`);
        return;
      }
      const summary = await benchmark.generate({ outDir: opts.out, seed: opts.seed, count: opts.count ?? DEFAULT_COUNT[benchmarkId] ?? 40, extra, log: (line) => console.error(line), assetsDir: opts.assets });
      console.log(`wrote ${opts.out}: ${summary}`);
    });
}
