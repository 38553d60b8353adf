/**
 * One navigation run from options (the `navigate` command and the demo call it): load the set,
 * apply the intervention, make the agent and the environments, run (resuming what the folder
 * holds), score, and write the outputs.
 */
import path from "node:path";
import { readConfigFile, settingsFor, type ModelSettingsConfig } from "../../../core/config.js";
import { withFolderLock } from "../../../core/lock.js";
import { UsageError } from "../../../core/problems.js";
import { configuredProviderModel } from "../../../models/factory.js";
import { isProviderSpec } from "../../../models/provider.js";
import { resolveImageBudgets } from "../../../models/shape.js";
import { capConcurrency } from "../../../models/traffic.js";
import type { Model } from "../../../core/types.js";
import { ResponseStore, type ReplyStore } from "../../../store/store.js";
import { connectBridge } from "../../../sim/bridge/client.js";
import { HouseCache } from "../../../sim/house-cache.js";
import { createWorldSimulator } from "../../../sim/world-sim.js";
import type { Environment } from "../../../sim/types.js";
import { vcn } from "../index.js";
import type { TaskCode } from "../schema.js";
import { BUILTIN_AGENTS, builtinAgent, type NavAgent } from "./agents.js";
import { modelAgent } from "./model-agent.js";
import { writeNavigationOutputs } from "./outputs.js";
import type { Intervention, NavMode, ObservationKind } from "./prompt.js";
import { counterfactualTasks, navigate, promptResources, type NavigateResult, type RunIdentity } from "./runner.js";
import { navigationScores, type NavigationScores } from "./scores.js";
import { loadNavTasks, type NavTask } from "./tasks.js";
import { HousePlans } from "./houses.js";

export interface NavigationRunOptions {
  data: string;
  out: string;
  /** A built-in agent or a provider model spec. */
  model: string;
  name?: string;
  mode?: NavMode;
  intervention?: Intervention;
  history?: number;
  priorFrames?: number;
  seed?: number;
  tasks?: TaskCode[];
  limit?: number;
  concurrency?: number;
  /** External simulators (bridge URLs); none: the built-in simulator. */
  bridges?: string[];
  assetsDir?: string;
  /** A house cache shared with other runs (the demo's); the run makes its own otherwise. */
  houses?: HouseCache;
  depth?: boolean;
  /** Model agents: what each prompt shows besides the views (default "rgbd-pose", §3.1). */
  observation?: ObservationKind;
  saveViews?: boolean;
  maxActions?: number;
  metricVariant?: "paper" | "released";
  templateFile?: string;
  storeFile?: string;
  retryErrors?: boolean;
  allowOutsideRoot?: boolean;
  configFile?: string;
  /** Model settings from flags (cli/model-flags.ts). */
  flags?: ModelSettingsConfig;
  quiet?: boolean;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export interface NavigationRunSummary {
  scores: NavigationScores;
  markdown: string;
  ran: number;
  reused: number;
}

/**
 * What a navigation run is made of before any episode runs: built the same way for a local run,
 * the coordinator of a queued one and a queue worker (queue/navigation.ts), so all three agree.
 */
export interface PreparedNavigation {
  /** The data folder, absolute. */
  data: string;
  name?: string;
  tasks: NavTask[];
  skipped?: Array<{ id: string; reason: string }>;
  identity: RunIdentity;
  agent: NavAgent;
  providerModel?: Model;
  environments: Environment[];
  /** Save the views that are rendered (model agents always; built-ins with --save-views). */
  saveViews: boolean;
  renderSteps: boolean;
  close(): Promise<void>;
}

/** An agent that walks to prior-video frames' places cannot run episodes whose places are unknown: refused, with each episode's reason. */
export function refuseWithoutFramePositions(spec: string, tasks: readonly NavTask[]): void {
  const unknown = tasks.filter((t) => t.framePositions === null);
  if (unknown.length === 0) return;
  const reasons = unknown.slice(0, 5).map((t) => `${t.id}: ${t.item ? t.framePositionsMissing ?? "unknown" : "no goal-identification item in items.jsonl"}`);
  throw new UsageError(`${spec} walks to where a prior-video frame was taken, which ${unknown.length} of ${tasks.length} episodes do not give (${reasons.join("; ")}${unknown.length > 5 ? "; ..." : ""})`);
}

/**
 * Loads the set, applies the intervention, makes the agent and the environments. `store`: the
 * response store to use (a queue's); "none": the caller never asks (a queue coordinator);
 * undefined: the run folder's SQLite store.
 */
export async function prepareNavigation(o: NavigationRunOptions, store?: ReplyStore | "none"): Promise<PreparedNavigation> {
  const spec = o.model;
  const config = o.configFile ? readConfigFile(o.configFile) : undefined;
  const name = o.name ?? config?.name;
  const data = path.resolve(o.data);
  const loaded = loadNavTasks(data, { allowOutsideRoot: Boolean(o.allowOutsideRoot) });
  const wanted = o.tasks;
  let tasks = wanted ? loaded.tasks.filter((t) => wanted.includes(t.taskType as TaskCode)) : loaded.tasks;
  if (o.limit) tasks = tasks.slice(0, o.limit);
  if (tasks.length === 0) throw new UsageError(`no episodes to run in ${o.data}${wanted ? ` for --tasks ${wanted.join(",")}` : ""}`);
  const intervention: Intervention = o.intervention ?? "none";
  let skipped: Array<{ id: string; reason: string }> | undefined;
  if (intervention === "counterfactual") ({ tasks, skipped } = counterfactualTasks(tasks));
  if (tasks.length === 0) throw new UsageError(`--intervention counterfactual: no episode has a counterfactual instruction (${skipped!.length} skipped)`);

  const builtin = builtinAgent(spec);
  if (!builtin && !isProviderSpec(spec)) throw new UsageError(`unknown agent "${spec}": use ${BUILTIN_AGENTS.join(", ")}, or openai:<model>, anthropic:<model>, gemini:<model>`);
  if (builtin && intervention !== "none") throw new UsageError(`--intervention ${intervention} changes what a model is shown; the built-in agent ${spec} sees no prompt`);
  if (builtin?.needsFramePositions) refuseWithoutFramePositions(spec, tasks);
  const mode: NavMode = o.mode ?? "action";
  const observation: ObservationKind = o.observation ?? "rgbd-pose";
  if (builtin && o.observation !== undefined) throw new UsageError(`--observation changes what a model is shown; the built-in agent ${spec} sees no prompt`);
  // The depth pictures of the prompt come from the simulator's depth views.
  const depth = Boolean(o.depth) || (!builtin && observation === "rgbd-pose");
  const history = o.history ?? 8;
  const priorBudget = o.priorFrames ?? 50;
  const seed = o.seed ?? 20260717;
  const maxActions = o.maxActions ?? 1000;
  const settings = settingsFor(spec, config, o.flags ?? {});
  const bridges = o.bridges ?? [];
  const concurrency = bridges.length > 0 ? bridges.length : (o.concurrency ?? config?.concurrency ?? (builtin ? 1 : 4));
  let owned: ResponseStore | undefined;
  let agent: NavAgent;
  let providerModel: Model | undefined;
  if (builtin) agent = builtin;
  else {
    const { model, settings: generation } = configuredProviderModel(spec, settings, o.env);
    providerModel = model;
    const { templates, sampleTour } = promptResources(o.templateFile);
    const maxImages = settings.max_images ?? model.limits?.maxImages.count;
    const imageBudget = resolveImageBudgets(vcn.imageBudget, { maxPixels: settings.max_pixels, format: settings.image_format, jpegQuality: settings.jpeg_quality });
    // Images per request: prior frames, the oracle frame, 4 initial and 4 current views (and their depth), the history's front views.
    const fixed = 8 + (observation === "rgbd-pose" ? 4 : 0) + history + (intervention === "oracle-frame" ? 1 : 0);
    const priorFrames = maxImages !== undefined ? Math.min(priorBudget, maxImages - fixed) : priorBudget;
    if (priorFrames < 1 && intervention !== "no-prior") throw new UsageError(`the model takes at most ${maxImages} images per request, which leaves no room for prior-video frames beside ${fixed} views; lower --history`);
    if (store === undefined) owned = new ResponseStore(o.storeFile ?? path.join(o.out, "responses.sqlite"));
    const replies = store === undefined ? owned : store === "none" ? undefined : store;
    agent = modelAgent({
      model,
      settings: { ...generation, jsonOutput: settings.json_output ?? true },
      ...(replies ? { store: replies } : {}),
      retryErrors: Boolean(o.retryErrors),
      imageBudget,
      mode,
      intervention,
      observation,
      historyWindow: history,
      priorFrames: Math.max(1, priorFrames),
      seed,
      templates,
      sampleTour,
    });
  }
  const count = Math.min(concurrency, tasks.length);
  // The episodes in flight are the cap of the model's adaptive limiter (models/concurrency.ts), as runItems sets it.
  if (providerModel) capConcurrency(providerModel, count);
  // One house cache for every simulator of the run: a house is loaded once, whichever worker needs it.
  const ownHouses = bridges.length === 0 && !o.houses ? new HouseCache({ dataRoot: data, ...(o.assetsDir ? { assetsDir: o.assetsDir } : {}), capacity: Math.max(3, count) }) : undefined;
  const houses = o.houses ?? ownHouses;
  const environments: Environment[] =
    bridges.length > 0
      ? await Promise.all(bridges.map((url) => connectBridge(url)))
      : Array.from({ length: count }, () => createWorldSimulator({ dataRoot: data, houses: houses!, depth, maxActions }));
  const blind = environments.find((e) => !e.info.depth);
  if (depth && blind) {
    await Promise.all(environments.map((e) => e.close()));
    ownHouses?.close();
    owned?.close();
    throw new UsageError(`the simulator ${blind.info.simulator} renders no depth, which ${builtin ? "--depth" : "the default --observation rgbd-pose"} needs; run with ${builtin ? "no --depth" : "--observation rgb"}`);
  }
  const identity: RunIdentity = {
    kind: "navigation",
    benchmark: "vcn",
    data,
    model: spec,
    agent: agent.name,
    mode,
    intervention,
    episodes: tasks.length,
    settings: {
      seed,
      ...(builtin ? {} : { history, prior_frames: priorBudget, observation, template: o.templateFile ?? "templates/vcn-navigate.yaml", generation: settings }),
      max_actions: maxActions,
      depth,
      simulator: bridges.length > 0 ? "bridge" : "built-in",
      ...(wanted ? { tasks: wanted } : {}),
      ...(o.limit ? { limit: o.limit } : {}),
    },
  };
  return {
    data,
    ...(name ? { name } : {}),
    tasks,
    ...(skipped ? { skipped } : {}),
    identity,
    agent,
    ...(providerModel ? { providerModel } : {}),
    environments,
    saveViews: Boolean(o.saveViews) || !builtin,
    renderSteps: Boolean(o.saveViews),
    close: async () => {
      owned?.close();
      await Promise.all(environments.map((e) => e.close()));
      ownHouses?.close();
    },
  };
}

/** Scores the records of a prepared run and writes scores.json, report.md and the pictures in o.out. */
export async function finishNavigation(o: NavigationRunOptions, prepared: PreparedNavigation, result: NavigateResult): Promise<NavigationRunSummary> {
  const { tasks, identity, data } = prepared;
  const plans = new HousePlans(data, { allowOutsideRoot: Boolean(o.allowOutsideRoot) });
  const scores = navigationScores(identity, prepared.environments[0]!.info, tasks, result.records, {
    ...(prepared.name ? { name: prepared.name } : {}),
    ...(prepared.skipped ? { skipped: prepared.skipped } : {}),
    options: {
      metricVariant: o.metricVariant ?? "paper",
      // RSR reads the room of the final position from the house plan (sets without plans: no RSR).
      ...(tasks.some((t) => plans.scene(t.env.scene_id) !== null) ? { roomOf: (position, episode) => plans.regionAt(episode.scene_id ?? "", position) ?? null } : {}),
    },
  });
  const markdown = await withFolderLock(o.out, () => writeNavigationOutputs(o.out, scores, tasks, result.records, plans));
  return { scores, markdown, ran: result.ran, reused: result.reused };
}

export async function executeNavigation(o: NavigationRunOptions): Promise<NavigationRunSummary> {
  const prepared = await prepareNavigation(o);
  try {
    const { identity, tasks, agent, environments, saveViews, renderSteps } = prepared;
    const result = await navigate({ identity, tasks, agent, environments, out: o.out, saveViews, renderSteps, signal: o.signal ?? new AbortController().signal, quiet: Boolean(o.quiet) });
    return await finishNavigation(o, prepared, result);
  } finally {
    await prepared.close();
  }
}
