import type { GenerateSpec } from "../spec.js";

/** What `generate <benchmark> --queue` was asked: the local generate's options, --out as given. */
export interface GenerateRequest {
  outDir: string;
  seed: number;
  count: number;
  /** The --set options as given. */
  extra: Record<string, string>;
  assetsDir?: string;
  log: (line: string) => void;
}

/** One job's output, stored with its completion: a JSON record and the files it made (text as UTF-8 bytes). */
export interface JobOutput {
  record: string;
  files: Map<string, Buffer>;
}

/** The jobs of a queued generator run, as planned on the coordinator. */
export interface JobPlan {
  /** One id per job, in the order the local generator makes them. */
  jobIds: string[];
  /** What every worker needs beyond the spec's options (JSON; put in the spec, so it is part of the run id). */
  plan?: unknown;
}

/** A worker's side of a queued generator run: what its jobs share (furniture models, textures), and one job. */
export interface GeneratorWorker {
  run(index: number, jobId: string): Promise<JobOutput>;
  close(): void;
}

/** A job's stored record. */
export interface StoredRecord {
  index: number;
  jobId: string;
  record: string;
}

/** Reads the stored outputs at assembly, one job at a time (a set's videos need not all be in memory at once). */
export interface StoredJobs {
  /**
   * The records in job order, each as soon as its job is done: an assembly that goes job by job
   * works while the workers still make later jobs.
   */
  inOrder(): AsyncIterable<StoredRecord>;
  /** Every record in job order, once every job is done. */
  all(): Promise<StoredRecord[]>;
  files(index: number): Promise<Map<string, Buffer>>;
}

/**
 * A generator whose work splits into independent jobs (docs/queue.md, "Generated sets"): the
 * coordinator plans the jobs, workers run them from the spec alone, and the coordinator assembles
 * the set from the stored outputs — the same bytes as a local `generate` of the same command.
 */
export interface QueuedGenerator {
  benchmark: string;
  /** What a job is, plural, for messages ("houses", "episodes"). */
  unit: string;
  /** On the coordinator, before anything is enqueued: check the options (bad ones are a UsageError) and plan the jobs. */
  plan(request: GenerateRequest, spec: GenerateSpec): Promise<JobPlan>;
  /** On a worker: prepare for the run's jobs (the spec carries the plan). */
  open(spec: GenerateSpec): Promise<GeneratorWorker>;
  /** On the coordinator, as the jobs are done (StoredJobs): write the set under request.outDir; returns the summary line a local generate prints. */
  assemble(request: GenerateRequest, spec: GenerateSpec, jobs: StoredJobs): Promise<string>;
}
