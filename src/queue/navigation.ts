/**
 * `navigate vcn --queue` (docs/queue.md): every episode is a work item. A worker claims one, runs
 * it closed loop in its own built-in simulator with the run's agent (a model's replies go through
 * the server's response store, so a re-claimed episode replays its stored replies and asks only
 * what was not stored), and stores the episode's record and the views it saved on the server,
 * marking the item done in the same transaction. When every episode is done the coordinator
 * writes the run folder a local `navigate` writes: navigate.json, episodes.jsonl, the saved views,
 * then the pictures, scores.json and report.md from the same code.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { readConfigFile, settingsFor } from "../core/config.js";
import { withFolderLock } from "../core/lock.js";
import { toJson, writeFileAtomic } from "../core/outputs.js";
import { UsageError } from "../core/problems.js";
import { runEpisode } from "../benchmarks/vcn/navigate/loop.js";
import { OBSERVATIONS, type Intervention, type NavMode, type ObservationKind } from "../benchmarks/vcn/navigate/prompt.js";
import { checkHeader, EPISODES_FILE, safeName, viewSheet } from "../benchmarks/vcn/navigate/runner.js";
import { finishNavigation, prepareNavigation, type NavigationRunOptions, type NavigationRunSummary, type PreparedNavigation } from "../benchmarks/vcn/navigate/session.js";
import type { NavTask } from "../benchmarks/vcn/navigate/tasks.js";
import type { EpisodeRecord } from "../benchmarks/vcn/navigate/types.js";
import type { TaskCode } from "../benchmarks/vcn/schema.js";
import type { Environment, Observation } from "../sim/types.js";
import type { ReplyStore } from "../store/store.js";
import { connectQueue } from "./connect.js";
import { enqueueAndWait } from "./coordinator.js";
import { itemFiles, itemRecords, storeItemResult, type ClaimedItem } from "./queue.js";
import type { NavigationSpec } from "./spec.js";

/** The spec of a prepared run: what a worker needs to prepare the same one (paths absolute, settings merged). */
export function navigationSpecOf(o: NavigationRunOptions, prepared: PreparedNavigation): NavigationSpec {
  const { identity } = prepared;
  const s = identity.settings as { seed: number; max_actions: number; depth: boolean; history?: number; prior_frames?: number; observation?: string };
  const config = o.configFile ? readConfigFile(o.configFile) : undefined;
  return {
    version: 1,
    kind: "navigation",
    benchmark: "vcn",
    model: identity.model,
    data: prepared.data,
    mode: identity.mode,
    intervention: identity.intervention,
    history: s.history ?? o.history ?? 8,
    priorFrames: s.prior_frames ?? o.priorFrames ?? 50,
    seed: s.seed,
    ...(o.tasks ? { tasks: [...o.tasks] } : {}),
    ...(o.limit ? { limit: o.limit } : {}),
    ...(o.assetsDir ? { assetsDir: path.resolve(o.assetsDir) } : {}),
    depth: s.depth,
    ...(s.observation ? { observation: s.observation } : {}),
    saveViews: Boolean(o.saveViews),
    maxActions: s.max_actions,
    ...(o.templateFile ? { templateFile: path.resolve(o.templateFile) } : {}),
    retryErrors: Boolean(o.retryErrors),
    allowOutsideRoot: Boolean(o.allowOutsideRoot),
    // Undefined values dropped, so the run id (a hash of the spec) is stable.
    settings: JSON.parse(JSON.stringify(settingsFor(o.model, config, o.flags ?? {}))),
  };
}

/** A navigation run as a worker holds it: the prepared run and its simulators not in use. */
export interface NavigationContext {
  kind: "navigation";
  prepared: PreparedNavigation;
  free: Environment[];
}

/**
 * Prepares a queued navigation run on this machine as the coordinator prepared it, with
 * `concurrency` simulators (one per episode at a time); the episode ids must be the queued ones
 * (the same data at the same path), else the run is refused here.
 */
export async function rebuildNavigation(spec: NavigationSpec, episodeIds: readonly string[], concurrency: number, store: ReplyStore, env: NodeJS.ProcessEnv): Promise<NavigationContext> {
  if (spec.version !== 1) throw new UsageError(`queued navigation spec version ${String(spec.version)} is not one this spatialprobe reads (1)`);
  if (spec.observation !== undefined && !(OBSERVATIONS as readonly string[]).includes(spec.observation)) throw new UsageError(`queued navigation spec: unknown observation "${spec.observation}" (${OBSERVATIONS.join(", ")})`);
  const o: NavigationRunOptions = {
    data: spec.data,
    out: "",
    model: spec.model,
    mode: spec.mode as NavMode,
    intervention: spec.intervention as Intervention,
    history: spec.history,
    priorFrames: spec.priorFrames,
    seed: spec.seed,
    ...(spec.tasks ? { tasks: spec.tasks as TaskCode[] } : {}),
    ...(spec.limit ? { limit: spec.limit } : {}),
    concurrency,
    ...(spec.assetsDir ? { assetsDir: spec.assetsDir } : {}),
    depth: spec.depth,
    ...(spec.observation ? { observation: spec.observation as ObservationKind } : {}),
    saveViews: spec.saveViews,
    maxActions: spec.maxActions,
    ...(spec.templateFile ? { templateFile: spec.templateFile } : {}),
    retryErrors: spec.retryErrors,
    allowOutsideRoot: spec.allowOutsideRoot,
    flags: spec.settings,
    quiet: true,
    env,
  };
  const prepared = await prepareNavigation(o, store);
  const ids = prepared.tasks.map((t) => t.id);
  if (ids.length !== episodeIds.length || ids.some((id, i) => id !== episodeIds[i])) {
    await prepared.close();
    const first = ids.findIndex((id, i) => id !== episodeIds[i]);
    throw new UsageError(
      `the data at ${spec.data} on this machine gives ${ids.length} episodes where the run was enqueued with ${episodeIds.length}` +
        (first >= 0 && first < Math.min(ids.length, episodeIds.length) ? ` (episode ${first + 1} is ${ids[first]} here, ${episodeIds[first]} in the queue)` : "") +
        "; workers need the same data at the same path",
    );
  }
  return { kind: "navigation", prepared, free: [...prepared.environments] };
}

/** Saves a view sheet in memory under the path a local run writes it to (runner.ts viewSaver). */
function memorySaver(files: Map<string, Buffer>) {
  return async (task: NavTask, t: number, observation: Observation): Promise<string | undefined> => {
    if (observation.views.length === 0) return undefined;
    const rel = path.posix.join("episodes", safeName(task.id), "steps", `${t}.jpg`);
    files.set(rel, await viewSheet(observation));
    return rel;
  };
}

/**
 * Runs one claimed episode in a free simulator of the context and stores its result (record and
 * saved views) with its completion. Returns whether it ended in a provider error.
 */
export async function runQueuedEpisode(pool: pg.Pool, context: NavigationContext, claim: ClaimedItem, signal: AbortSignal): Promise<boolean> {
  const { prepared } = context;
  const task = prepared.tasks[claim.index];
  if (!task || task.id !== claim.itemId) throw new Error(`run ${claim.runId}: episode ${claim.index} is ${task?.id} here, ${claim.itemId} in the queue`);
  const env = context.free.pop();
  if (!env) throw new Error(`run ${claim.runId}: no free simulator (more episodes at once than the worker's concurrency)`);
  try {
    const files = new Map<string, Buffer>();
    const record = await runEpisode(task, env, prepared.agent, {
      intervention: prepared.identity.intervention,
      signal,
      renderAlways: prepared.renderSteps,
      ...(prepared.saveViews ? { saveViews: memorySaver(files) } : {}),
    });
    const error = record.status === "error";
    await storeItemResult(pool, claim.runId, { index: claim.index, itemId: task.id, record: toJson(record), files }, error);
    return error;
  } finally {
    context.free.push(env);
  }
}

/**
 * Writes the stored results into the run folder as a local run leaves it: the header, every saved
 * view (read from the server one episode at a time, so a long run's views never sit in memory
 * together), and episodes.jsonl in episode order. Returns the records.
 */
export function writeQueuedEpisodes(out: string, prepared: PreparedNavigation, pool: pg.Pool, runId: string): Promise<EpisodeRecord[]> {
  return withFolderLock(out, async () => {
    checkHeader(out, prepared.identity);
    const byId = new Map((await itemRecords(pool, runId)).map((r) => [r.itemId, r]));
    const lines: string[] = [];
    const records: EpisodeRecord[] = [];
    for (const task of prepared.tasks) {
      const result = byId.get(task.id);
      if (!result) continue;
      for (const [rel, bytes] of await itemFiles(pool, runId, result.index)) {
        const file = path.join(out, rel);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileAtomic(file, bytes);
      }
      lines.push(`${result.record}\n`);
      records.push(JSON.parse(result.record) as EpisodeRecord);
    }
    writeFileAtomic(path.join(out, EPISODES_FILE), lines);
    return records;
  });
}

export interface QueuedNavigation {
  url: string;
  /** false (`--no-work`): only wait for other workers. */
  work: boolean;
  leaseSeconds?: number;
}

/**
 * `navigate vcn --queue URL`: prepare the run as a local one (the same checks, the same header),
 * enqueue its episodes (or attach to the run: its id is a hash of the spec and the episode ids),
 * work on it here unless told not to, wait until every episode is done, then write the folder and
 * score it with the local code.
 */
export async function navigationOnQueue(o: NavigationRunOptions, queue: QueuedNavigation): Promise<NavigationRunSummary> {
  if (o.bridges && o.bridges.length > 0) throw new UsageError("--queue runs the episodes in each worker's built-in simulator; --bridge cannot be used with it");
  if (o.storeFile) throw new UsageError("--store is not used with --queue: the replies are kept on the queue server");
  if (o.houses) throw new UsageError("a shared house cache cannot be used with a queued run");
  const prepared = await prepareNavigation({ ...o, concurrency: 1 }, "none");
  try {
    const spec = navigationSpecOf(o, prepared);
    const builtin = prepared.providerModel === undefined;
    const runId = await enqueueAndWait(
      spec,
      prepared.tasks.map((t) => t.id),
      {
        url: queue.url,
        work: queue.work,
        concurrency: o.concurrency ?? (builtin ? 1 : 4),
        ...(queue.leaseSeconds ? { leaseSeconds: queue.leaseSeconds } : {}),
        ...(o.quiet ? { quiet: true } : {}),
        signal: o.signal ?? new AbortController().signal,
        ...(o.env ? { env: o.env } : {}),
      },
    );
    const connection = await connectQueue(queue.url, 1);
    let records: EpisodeRecord[];
    try {
      records = await writeQueuedEpisodes(o.out, prepared, connection.pool, runId);
    } finally {
      await connection.close();
    }
    return await finishNavigation(o, prepared, { records, ran: records.length, reused: 0 });
  } finally {
    await prepared.close();
  }
}
