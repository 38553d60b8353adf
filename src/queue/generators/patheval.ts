/**
 * PathEval on the queue: one job per environment. An environment's plans (paper §3.1: `runs` RRT
 * plans, seeded by the seed and the environment alone), its farthest pairs and their labels
 * (§3.3-3.5) and the side-by-side pictures of its labelled pairs depend on nothing else
 * (benchmarks/patheval/environment-job.ts), so a worker makes one; the coordinator plans the tasks
 * (the environments chosen, the options each needs) and then runs the local generator itself with
 * the stored environments in place of its planning pool (withEnvironmentSource): the split,
 * balance, records, fine-grained and probing sets are drawn across environments there, as locally.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../../core/problems.js";
import type { EnvironmentOutput, EnvironmentTask } from "../../benchmarks/patheval/environment-job.js";
import type { GenerateSpec } from "../spec.js";
import type { QueuedGenerator } from "./types.js";

const job = () => import("../../benchmarks/patheval/environment-job.js");

/** A task as the spec carries it: a user's file by name and hash (workers read the same file), not its text. */
type PlannedTask = Omit<EnvironmentTask, "environment"> & { environment?: { name: string; fileName: string; sha256: string } };

interface PathEvalPlan {
  /** environments=DIR as the coordinator resolved it (absolute). */
  environmentsDir?: string;
  tasks: PlannedTask[];
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

function planOf(spec: GenerateSpec): PathEvalPlan {
  const plan = spec.plan as PathEvalPlan | undefined;
  if (!plan || !Array.isArray(plan.tasks)) throw new UsageError("this patheval generator run's spec has no planned environments (made by another spatialprobe?)");
  return plan;
}

/**
 * The folder a worker reads the user's environment files from: environments= when given as an
 * absolute path (`worker --path-map` moves those), else the coordinator's resolution of it.
 */
function environmentsDirOf(spec: GenerateSpec, plan: PathEvalPlan): string | undefined {
  const given = spec.extra["environments"];
  return given !== undefined && path.isAbsolute(given) ? given : plan.environmentsDir;
}

/** The task a worker makes: a user's file read back and checked against the coordinator's hash. */
function workerTask(planned: PlannedTask, dir: string | undefined): EnvironmentTask {
  if (!planned.environment) return planned as EnvironmentTask;
  const { sha256: expected, name, fileName } = planned.environment;
  const file = path.join(dir!, fileName);
  const text = readFileSync(file, "utf8");
  if (sha256(text) !== expected) throw new Error(`${file} is not the file the coordinator read (sha256 differs): workers need the same environment files at the same path`);
  return { ...planned, environment: { name, fileName, text } };
}

export const pathEvalGenerator: QueuedGenerator = {
  benchmark: "patheval",
  unit: "environments",
  async plan(request, spec) {
    if (spec.extra["study"] !== undefined) throw new UsageError("generate patheval --set study=... is one piece of work (seconds), not split into jobs: run it without --queue");
    const { parseGenerateSet } = await import("../../benchmarks/patheval/generate-options.js");
    const { readScenarioFile } = await import("../../benchmarks/patheval/user-files.js");
    const { environmentTasks } = await import("../../benchmarks/patheval/generate.js");
    const { taskId } = await job();
    // The options and the user's files are checked here, before anything is enqueued (bad ones: a UsageError or DataError).
    const options = parseGenerateSet(spec.extra, readScenarioFile);
    if (existsSync(request.outDir) && readdirSync(request.outDir).length > 0) throw new UsageError(`${request.outDir} is not empty: choose a new folder`);
    const tasks = environmentTasks({ outDir: request.outDir, seed: spec.seed, environments: spec.count, ...options });
    const dir = options.environmentsDir ? path.resolve(options.environmentsDir) : undefined;
    const planned: PlannedTask[] = tasks.map(({ environment, ...task }) =>
      environment ? { ...task, environment: { name: environment.name, fileName: environment.fileName, sha256: sha256(environment.text) } } : task,
    );
    return { jobIds: tasks.map(taskId), plan: { ...(dir ? { environmentsDir: dir } : {}), tasks: planned } satisfies PathEvalPlan };
  },
  async open(spec) {
    const plan = planOf(spec);
    const dir = environmentsDirOf(spec, plan);
    const { environmentPool } = await import("../../benchmarks/patheval/pool.js");
    // Threads, so the planning leaves the event loop (and the lease heartbeat) free; one per job in flight.
    const pool = environmentPool();
    return {
      async run(index) {
        const { plans, pictures } = await pool.run(workerTask(plan.tasks[index]!, dir));
        // planMs is a timing: left out, so a job made again stores the same record.
        return { record: JSON.stringify({ ...plans, planMs: 0 }), files: pictures };
      },
      close: () => void pool.close(),
    };
  },
  async assemble(request, spec, jobs) {
    const { generateOptions, generateSummaryText } = await import("../../benchmarks/patheval/index.js");
    const { generatePathEval } = await import("../../benchmarks/patheval/generate.js");
    const { taskId } = await job();
    const records = await jobs.all();
    const stored = async (tasks: EnvironmentTask[]): Promise<EnvironmentOutput[]> => {
      const ids = tasks.map(taskId);
      if (ids.length !== records.length || records.some((r, k) => r.jobId !== ids[k])) throw new Error(`the stored environments (${records.length}) are not the ones this command plans (${ids.length}): were the environment files changed?`);
      const outputs: EnvironmentOutput[] = [];
      for (const r of records) outputs.push({ plans: JSON.parse(r.record) as EnvironmentOutput["plans"], pictures: await jobs.files(r.index) });
      return outputs;
    };
    // The local generator, with the stored environments in place of its planning pool: the same assembly, the same summary.
    const summary = await generatePathEval({ outDir: request.outDir, seed: spec.seed, environments: spec.count, ...generateOptions(spec.extra), log: request.log, environmentSource: stored });
    return generateSummaryText(summary, request.outDir);
  },
};
