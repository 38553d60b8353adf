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
    .description("navigation metrics (SR, SPL, soft SPL, SSR, RSR, steps, collisions) from episodes and trajectory logs of any simulator, or the released evaluation's result.json logs")
    .requiredOption("--episodes <file>", "episodes: VCN-Bench's released gzip JSON {\"episodes\": [...]} (or plain JSON); every episode needs dist_to_goal (SPL's geodesic shortest path)")
    .option("--trajectories <file>", "JSONL, one episode a line: {\"episode_id\", \"positions\": [[x,y,z],...], \"stop\", \"actions\"?, \"headings\"?, \"collisions\"?, \"rooms\"?, \"final_distance\"?, \"path_length\"?, \"kind\"?: \"actions\" | \"waypoints\"}; checked against the action space")
    .option("--released-logs <dir>", "instead of --trajectories: an output folder of the released evaluation (run_eval_mvdualvln.py), one <scene>_ep_<id>/result.json per episode")
    .requiredOption("--out <dir>", "output folder for navigation.json and navigation.md")
    .option("--goal-run <dir>", "output folder of `run vcn`: adds navigation given goal identification (joined by episode id)")
    .option("--metric-variant <name>", "paper (default: STOP within 1 m Euclidean of a view point) | released (the released code: final geodesic distance < 1 m, no STOP needed; SPL with dist_to_goal + 1e-6 and the logged path length)", "paper")
    .option("--distance <kind>", "how the final distance is measured: euclidean (the paper variant's default) | geodesic (the log's final_distance; the released variant's only choice)")
    .option("--ignore-height", "euclidean distances on the floor plane (drop the second coordinate, habitat's up axis)")
    .option("--success-distance <m>", "success radius in metres (strict <)", number, 1)
    .option("--ssr-distance <m>", "SSR radius in metres (strict <)", number, 3)
    .option("--rsr-requires-stop", "RSR also needs STOP")
    .action(async (opts) => {
      if (opts.metricVariant !== "paper" && opts.metricVariant !== "released") throw new UsageError(`--metric-variant must be paper or released, got "${opts.metricVariant}"`);
      if (opts.distance !== undefined && opts.distance !== "euclidean" && opts.distance !== "geodesic") throw new UsageError(`--distance must be euclidean or geodesic, got "${opts.distance}"`);
      if (opts.metricVariant === "released" && opts.distance === "euclidean") throw new UsageError("--metric-variant released measures the final distance geodesically; drop --distance euclidean");
      if ((opts.trajectories === undefined) === (opts.releasedLogs === undefined)) throw new UsageError("give exactly one of --trajectories <file> and --released-logs <dir>");
      const options: NavOptions = {
        metricVariant: opts.metricVariant,
        ...(opts.distance !== undefined ? { distance: opts.distance } : {}),
        ignoreHeight: Boolean(opts.ignoreHeight),
        successDistance: opts.successDistance,
        ssrDistance: opts.ssrDistance,
        rsrRequiresStop: Boolean(opts.rsrRequiresStop),
      };
      const source = opts.trajectories !== undefined ? { trajectories: opts.trajectories as string } : { releasedLogs: opts.releasedLogs as string };
      const report = navigationFromFiles({ episodes: opts.episodes, ...source, ...(opts.goalRun ? { goalRun: opts.goalRun } : {}) }, options);
      const document = {
        episodes: path.resolve(opts.episodes),
        ...(opts.trajectories !== undefined ? { trajectories: path.resolve(opts.trajectories) } : { released_logs: path.resolve(opts.releasedLogs) }),
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
