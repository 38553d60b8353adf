/**
 * `spatialprobe navigate vcn`: every episode of a set, closed loop, in the built-in simulator or
 * through the bridge, with a built-in agent or a model; then the metrics, the pictures and the
 * report.
 *
 * The run folder:
 *   navigate.json   what the run is (agent, mode, intervention, data, settings); a resumed run
 *                   must match it
 *   episodes.jsonl  one EpisodeRecord per finished episode, appended as each ends (the live file
 *                   the viewer follows), rewritten in episode order at the end
 *   responses.sqlite  every model reply (the response store), so a killed run resumes
 *   scores.json, report.md, episodes/<id>/topdown.png, episodes/<id>/steps/<t>.jpg
 * Resuming: finished episodes (status "done") are kept; the others run again from reset, their
 * decisions answered from the store, so the trajectory is the one the killed run was making.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { parseJson } from "../../../core/jsonl.js";
import { withFolderLock } from "../../../core/lock.js";
import { toJson, writeFileAtomic } from "../../../core/outputs.js";
import { UsageError } from "../../../core/problems.js";
import { Progress } from "../../../core/progress.js";
import type { Environment, Observation } from "../../../sim/types.js";
import { counterfactualOf } from "../interventions.js";
import { tourSampler } from "../prompt.js";
import type { NavAgent } from "./agents.js";
import { runEpisode } from "./loop.js";
import { loadNavTemplates, type Intervention, type NavMode } from "./prompt.js";
import type { NavTask } from "./tasks.js";
import type { EpisodeRecord } from "./types.js";
import { EPISODES_FILE, RUN_HEADER, safeName } from "./files.js";

export { EPISODES_FILE, RUN_HEADER, safeName } from "./files.js";

/** What a navigation run is; a resumed run must be the same. */
export interface RunIdentity {
  kind: "navigation";
  benchmark: "vcn";
  data: string;
  model: string;
  agent: string;
  mode: NavMode;
  intervention: Intervention;
  /** Episodes the run is to navigate. */
  episodes: number;
  settings: Record<string, unknown>;
}

export interface NavigateRun {
  identity: RunIdentity;
  tasks: NavTask[];
  agent: NavAgent;
  /** One environment per worker (concurrency = their number). */
  environments: Environment[];
  out: string;
  /** Save the views that are rendered (episodes/<id>/steps/<t>.jpg). */
  saveViews: boolean;
  /** Render after every action, not only where the agent looks (--save-views). */
  renderSteps: boolean;
  signal: AbortSignal;
  quiet?: boolean;
}

export interface NavigateResult {
  records: EpisodeRecord[];
  /** Episodes run now (the rest came from the folder). */
  ran: number;
  reused: number;
}

/** Finished records of an earlier run of the folder (a line cut by a kill is dropped: its episode runs again). */
export function readFinished(file: string): Map<string, EpisodeRecord> {
  const out = new Map<string, EpisodeRecord>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const parsed = parseJson(line);
    if (!parsed.ok) continue;
    const record = parsed.value as EpisodeRecord;
    if (record && typeof record.episode_id === "string" && record.status === "done") out.set(record.episode_id, record);
  }
  return out;
}

/** The header check: a folder holding another run is refused, never mixed. */
export function checkHeader(out: string, identity: RunIdentity): void {
  const file = path.join(out, RUN_HEADER);
  if (existsSync(file)) {
    const parsed = parseJson(readFileSync(file, "utf8"));
    const earlier = parsed.ok ? toJson(parsed.value) : "";
    if (earlier !== toJson(identity)) {
      throw new UsageError(`${out} holds another navigation run (${RUN_HEADER} differs: agent, mode, intervention, data or settings); use another --out, or delete the folder`);
    }
    return;
  }
  mkdirSync(out, { recursive: true });
  writeFileAtomic(file, `${toJson(identity, 2)}\n`);
}

/** The counterfactual intervention's tasks: the relation swapped in the instruction, goals unchanged (§6.3); the rest are skipped with the reason. */
export function counterfactualTasks(tasks: readonly NavTask[]): { tasks: NavTask[]; skipped: Array<{ id: string; reason: string }> } {
  const out: NavTask[] = [];
  const skipped: Array<{ id: string; reason: string }> = [];
  for (const task of tasks) {
    const derived = task.item ? counterfactualOf(task.item) : { ok: false as const, reason: "no goal-identification item" };
    if (derived.ok) out.push({ ...task, instruction: derived.item.instruction });
    else skipped.push({ id: task.id, reason: derived.reason });
  }
  return { tasks: out, skipped };
}

/** A 2 x 2 sheet of the four views (front, left / back, right), each at half size, as JPEG. */
export async function viewSheet(observation: Observation): Promise<Buffer> {
  const [w, h] = [observation.views[0]!.width, observation.views[0]!.height];
  const half = [Math.round(w / 2), Math.round(h / 2)] as const;
  const tiles = await Promise.all(observation.views.map((v) => sharp(v.data).resize(half[0], half[1]).toBuffer()));
  return sharp({ create: { width: half[0] * 2, height: half[1] * 2, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite(tiles.map((input, k) => ({ input, left: (k % 2) * half[0], top: Math.floor(k / 2) * half[1] })))
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Saves the view sheet after action t under episodes/<id>/steps/<t>.jpg; returns the run-relative path. */
function viewSaver(out: string): (task: NavTask, t: number, observation: Observation) => Promise<string | undefined> {
  return async (task, t, observation) => {
    if (observation.views.length === 0) return undefined;
    const rel = path.posix.join("episodes", safeName(task.id), "steps", `${t}.jpg`);
    const file = path.join(out, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, await viewSheet(observation));
    return rel;
  };
}

/** Runs the episodes not yet finished in the folder, `environments.length` at a time. */
export async function navigate(run: NavigateRun): Promise<NavigateResult> {
  return withFolderLock(run.out, async () => {
    checkHeader(run.out, run.identity);
    const file = path.join(run.out, EPISODES_FILE);
    const finished = readFinished(file);
    const todo = run.tasks.filter((t) => !finished.has(t.id));
    // The file holds only finished records from here on: rewrite it, then append.
    writeFileAtomic(file, [...finished.values()].map((r) => `${toJson(r)}\n`));
    const fd = openSync(file, "a");
    const progress = new Progress(`vcn navigate ${run.identity.model}`, run.tasks.length, process.stderr, run.quiet);
    for (let k = 0; k < finished.size; k++) progress.tick({ cached: true });
    const saveViews = run.saveViews ? viewSaver(run.out) : undefined;
    const records = new Map(finished);
    let next = 0;
    const worker = async (env: Environment) => {
      while (!run.signal.aborted) {
        const task = todo[next++];
        if (!task) return;
        const record = await runEpisode(task, env, run.agent, {
          intervention: run.identity.intervention,
          signal: run.signal,
          renderAlways: run.renderSteps,
          ...(saveViews ? { saveViews } : {}),
        });
        records.set(task.id, record);
        writeSync(fd, `${toJson(record)}\n`);
        fsyncSync(fd);
        progress.tick({ error: record.status === "error" });
      }
    };
    try {
      await Promise.all(run.environments.slice(0, Math.max(1, Math.min(run.environments.length, todo.length))).map(worker));
    } finally {
      closeSync(fd);
      progress.finish();
    }
    const ordered = run.tasks.map((t) => records.get(t.id)).filter((r): r is EpisodeRecord => r !== undefined);
    writeFileAtomic(file, ordered.map((r) => `${toJson(r)}\n`));
    return { records: ordered, ran: todo.length, reused: finished.size };
  });
}

/** The navigation template's tour sampler and templates, shared by the model agents of a run. */
export function promptResources(templateFile?: string) {
  const templates = loadNavTemplates(templateFile);
  return { templates, sampleTour: tourSampler(templates) };
}
