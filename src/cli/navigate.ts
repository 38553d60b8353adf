import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { readConfigFile } from "../core/config.js";
import { toJson } from "../core/outputs.js";
import { DataError, UsageError } from "../core/problems.js";
import { startBridgeServer } from "../sim/bridge/server.js";
import { createWorldSimulator } from "../sim/world-sim.js";
import { BUILTIN_AGENTS, executeNavigation, INTERVENTIONS, NAV_MODES, navigationTerminal, OBSERVATIONS, TASK_CODES, type NavigationRunOptions, type NavigationRunScores, type TaskCode } from "../benchmarks/vcn/index.js";
import { navigationOnQueue } from "../queue/navigation.js";
import { MAX_CONCURRENCY, MAX_EPISODE_ACTIONS, MAX_FRAMES_PER_SPEC, MAX_PORT } from "../core/limits.js";
import { list, positiveCount, seed, wholeIn } from "./main.js";
import { addModelFlags, modelSettingsFlags } from "./model-flags.js";
import { EXIT_INCOMPLETE, folderPart, runName } from "./shared.js";

function oneOf<T extends string>(values: readonly T[]) {
  return (text: string): T => {
    if (!(values as readonly string[]).includes(text)) throw new InvalidArgumentError(`must be one of ${values.join(", ")}`);
    return text as T;
  };
}


/** The tasks flag: VCN-Bench's five instruction types. */
function taskCodes(names: string[] | undefined): TaskCode[] | undefined {
  if (!names) return undefined;
  const bad = names.filter((n) => !(TASK_CODES as readonly string[]).includes(n));
  if (bad.length > 0) throw new UsageError(`--tasks: unknown instruction type ${bad.join(", ")} (use ${TASK_CODES.join(", ")})`);
  return names as TaskCode[];
}
/** `navigate vcn`: closed-loop navigation with a built-in agent or a model. */
export function registerNavigate(program: Command): void {
  const command = program
    .command("navigate <benchmark>")
    .description("closed-loop navigation (VCN-Bench §3.1, §5.1): an agent watches the prior video, gets the instruction, and moves in the simulator until it stops; SR, SPL, RSR, SSR per instruction type")
    .requiredOption("--data <dir>", "a VCN-Bench-format set: episodes.json.gz, items.jsonl, and for the built-in simulator houses/<scene>/scene.json (spatialprobe generate vcn makes one)")
    .requiredOption("--model <spec>", `a built-in agent (${BUILTIN_AGENTS.join(", ")}) or openai:<model> | anthropic:<model> | gemini:<model>`)
    .option("--out <dir>", "output folder (default runs/vcn-navigate/<model>[--<name>])")
    .option("--name <label>", "a label for the run, shown in every report table", runName)
    .option("--mode <mode>", `model agents: ${NAV_MODES.join(" | ")} (the reply is one action, or a point of a view that the executor walks to, §5.2)`, oneOf(NAV_MODES), "action")
    .option("--intervention <name>", `§6.3: ${INTERVENTIONS.join(" | ")}`, oneOf(INTERVENTIONS), "none")
    .option("--history <n>", "model agents: earlier decisions shown with their front view (default 8, DualVLN's history)", wholeIn(0, MAX_EPISODE_ACTIONS), 8)
    .option("--prior-frames <n>", "model agents: most prior-video frames per prompt, thinned evenly (§4.1)", wholeIn(1, MAX_FRAMES_PER_SPEC), 50)
    .option("--seed <n>", "seed of the shuffled prior video and of random agents", seed, 20260717)
    .option("--tasks <list>", "instruction types (count, order, distance, orientation, instance; default all)", list)
    .option("--limit <n>", "only the first N episodes", positiveCount)
    .option("--concurrency <n>", "episodes at a time (default 1 for built-in agents, 4 for models; with --bridge: one per bridge)", wholeIn(1, MAX_CONCURRENCY))
    .option("--bridge <url...>", "run in an external simulator behind the bridge protocol (docs/bridge-protocol.md), one episode at a time per URL")
    .option("--assets <dir>", "built-in simulator: Sweet Home 3D furniture libraries (default /usr/share/sweethome3d/furniture)")
    .option("--observation <kind>", `model agents: ${OBSERVATIONS.join(" | ")} (§3.1: depth pictures and the pose beside the views; rgb: the views alone)`, oneOf(OBSERVATIONS))
    .option("--depth", "render depth views (waypoint mode places a pixel with them; on whenever the prompt shows depth)")
    .option("--save-views", "save every step's four views (model agents always save the views they were shown)")
    .option("--max-actions <n>", "action limit per episode (default 1000, §3.1)", wholeIn(1, MAX_EPISODE_ACTIONS), 1000)
    .option("--metric <variant>", "paper (default: STOP within 1 m Euclidean of a view point, §5.1) | released (the released evaluation code: final geodesic distance, STOP not needed)", oneOf(["paper", "released"] as const), "paper")
    .option("--template <file>", "navigation prompt template (default templates/vcn-navigate.yaml)")
    .option("--store <file>", "response store (default <out>/responses.sqlite)")
    .option("--retry-errors", "ask again where a stored reply is an error")
    .option("--allow-outside-root", "let the data name files outside its folder")
    .option("--allow-incomplete", "exit 0 even when episodes ended in errors or were not run")
    .option("--queue <url>", "enqueue the episodes on a PostgreSQL queue (postgres://...; scripts/queue-server.sh) for `spatialprobe worker` processes on any machine, each episode in the worker's built-in simulator; wait until every episode is done, then write the usual outputs (replies and episode results are kept on the server); the same command attaches to the same run")
    .option("--no-work", "with --queue: leave the episodes to the workers instead of running them here too")
    .option("--quiet", "no progress on stderr");
  addModelFlags(command);
  command.action(async (benchmark: string, opts) => {
    if (benchmark !== "vcn") throw new UsageError(`navigate supports vcn (VCN-Bench) only, not "${benchmark}"`);
    const name: string | undefined = opts.name ?? (opts.config ? readConfigFile(opts.config).name : undefined);
    const out: string = opts.out ?? `runs/vcn-navigate/${folderPart(opts.model)}${name ? `--${folderPart(name)}` : ""}`;
    const controller = new AbortController();
    const onSignal = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      if (opts.work === false && opts.queue === undefined) throw new UsageError("--no-work goes with --queue");
      const options: NavigationRunOptions = {
        data: opts.data,
        out,
        model: opts.model,
        ...(name ? { name } : {}),
        mode: opts.mode,
        intervention: opts.intervention,
        history: opts.history,
        priorFrames: opts.priorFrames,
        seed: opts.seed,
        ...(opts.tasks ? { tasks: taskCodes(opts.tasks)! } : {}),
        ...(opts.limit ? { limit: opts.limit } : {}),
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.bridge ? { bridges: opts.bridge } : {}),
        ...(opts.assets ? { assetsDir: opts.assets } : {}),
        depth: Boolean(opts.depth),
        ...(opts.observation ? { observation: opts.observation } : {}),
        saveViews: Boolean(opts.saveViews),
        maxActions: opts.maxActions,
        metricVariant: opts.metric,
        ...(opts.template ? { templateFile: opts.template } : {}),
        ...(opts.store ? { storeFile: opts.store } : {}),
        retryErrors: Boolean(opts.retryErrors),
        allowOutsideRoot: Boolean(opts.allowOutsideRoot),
        ...(opts.config ? { configFile: opts.config } : {}),
        flags: modelSettingsFlags(opts),
        quiet: Boolean(opts.quiet),
        signal: controller.signal,
      };
      const { scores, ran, reused } = opts.queue !== undefined ? await navigationOnQueue(options, { url: String(opts.queue), work: opts.work !== false }) : await executeNavigation(options);
      // A summary, as `run` prints; every table is in report.md.
      console.log(navigationTerminal(scores as unknown as NavigationRunScores));
      console.log(`wrote ${out}/scores.json, episodes.jsonl, report.md (every table) and a top-down picture per episode (${ran} episodes run, ${reused} kept from an earlier run)`);
      if (!scores.complete) {
        console.error(`incomplete: ${scores.counts.error} episodes ended in provider errors, ${scores.counts.not_run} were not run; run the same command again${scores.counts.error > 0 ? " with --retry-errors to ask again" : ""}`);
        if (!opts.allowIncomplete) process.exitCode = EXIT_INCOMPLETE;
      }
    } catch (error) {
      if (error instanceof DataError || error instanceof UsageError || !controller.signal.aborted) throw error;
      console.error(`interrupted; run the same command again to resume (finished episodes are kept in ${out}/episodes.jsonl)`);
      process.exitCode = 130;
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  });
}

/** `sim serve`: the built-in simulator behind the bridge protocol (for tests of a client, or another tool's agent). */
export function registerSim(program: Command): void {
  const sim = program.command("sim").description("the built-in navigation simulator");
  sim
    .command("serve")
    .description("serve the built-in simulator over the bridge protocol (docs/bridge-protocol.md) on 127.0.0.1, for one session (until the client closes it)")
    .requiredOption("--data <dir>", "a generated VCN-Bench set (houses/<scene>/scene.json)")
    .option("--port <n>", "port (default: any free one; printed)", wholeIn(0, MAX_PORT), 0)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--assets <dir>", "Sweet Home 3D furniture libraries")
    .option("--depth", "depth views too")
    .option("--max-actions <n>", "action limit per episode", wholeIn(1, MAX_EPISODE_ACTIONS), 1000)
    .action(async (opts) => {
      const environment = createWorldSimulator({ dataRoot: path.resolve(opts.data), ...(opts.assets ? { assetsDir: opts.assets } : {}), depth: Boolean(opts.depth), maxActions: opts.maxActions });
      const server = await startBridgeServer({ environment, host: opts.host, port: opts.port });
      console.log(toJson({ url: server.url, port: server.port, pid: process.pid }));
      // One session: it ends when the client closes it, or at Ctrl-C.
      await new Promise<void>((resolve) => {
        process.once("SIGINT", () => resolve());
        process.once("SIGTERM", () => resolve());
        void server.sessionClosed.then(() => resolve());
      });
      await server.close();
      await environment.close();
    });
}
