import path from "node:path";
import type { Command } from "commander";
import { withFolderLock } from "../core/lock.js";
import { toJson, writeFileAtomic } from "../core/outputs.js";
import { UsageError } from "../core/problems.js";
import { navigationFromFiles, navigationMarkdown, type NavOptions } from "../benchmarks/vcn/index.js";
import { number } from "./main.js";

/** `navigation`: SR, SPL, soft SPL, SSR and RSR from any simulator's logs (VCN-Bench's metrics). */
export function registerNavigation(program: Command): void {
  program
    .command("navigation")
    .description("navigation metrics (SR, SPL, soft SPL, SSR, RSR) from episodes and trajectory logs of any simulator")
    .requiredOption("--episodes <file>", "episodes: VCN-Bench's released gzip JSON {\"episodes\": [...]} (or plain JSON)")
    .requiredOption("--trajectories <file>", "JSONL, one episode a line: {\"episode_id\", \"positions\": [[x,y,z],...], \"stop\", \"rooms\"?, \"final_distance\"?}")
    .requiredOption("--out <dir>", "output folder for navigation.json and navigation.md")
    .option("--goal-run <dir>", "output folder of `run vcn`: adds navigation given goal identification (joined by episode id)")
    .option("--distance <kind>", "euclidean (default: straight lines between positions) | geodesic (the release's dist_to_goal and the log's final_distance)", "euclidean")
    .option("--ignore-height", "euclidean distances on the floor plane (drop the second coordinate, habitat's up axis)")
    .option("--success-distance <m>", "success radius in metres (strict <)", number, 1)
    .option("--ssr-distance <m>", "SSR radius in metres (strict <)", number, 3)
    .option("--rsr-requires-stop", "RSR also needs STOP")
    .action(async (opts) => {
      if (opts.distance !== "euclidean" && opts.distance !== "geodesic") throw new UsageError(`--distance must be euclidean or geodesic, got "${opts.distance}"`);
      const options: NavOptions = {
        distance: opts.distance,
        ignoreHeight: Boolean(opts.ignoreHeight),
        successDistance: opts.successDistance,
        ssrDistance: opts.ssrDistance,
        rsrRequiresStop: Boolean(opts.rsrRequiresStop),
      };
      const report = navigationFromFiles({ episodes: opts.episodes, trajectories: opts.trajectories, ...(opts.goalRun ? { goalRun: opts.goalRun } : {}) }, options);
      const document = {
        episodes: path.resolve(opts.episodes),
        trajectories: path.resolve(opts.trajectories),
        ...(opts.goalRun ? { goal_run: path.resolve(opts.goalRun) } : {}),
        ...report,
        created_at: new Date().toISOString(),
      };
      const markdown = `${navigationMarkdown(report, "# VCN-Bench navigation")}\n`;
      // One writer per output folder (it may be a run folder), each file replaced atomically.
      await withFolderLock(opts.out, () => {
        writeFileAtomic(path.join(opts.out, "navigation.json"), `${toJson(document, 2)}\n`);
        writeFileAtomic(path.join(opts.out, "navigation.md"), markdown);
      });
      console.log(markdown.trimEnd());
      console.log(`wrote ${opts.out}/navigation.json, navigation.md`);
    });
}
