/**
 * Worker processes for fuzz cases, each case under a hard time limit. A case runs in a child
 * process (worker.ts) because a hang there may be a busy loop in JavaScript or a blocked
 * synchronous call (spawnSync of ffprobe), which nothing but a signal interrupts: past the limit the
 * worker's whole process group (it and the ffmpeg / ffprobe it started) is killed with SIGKILL, the
 * case is a "hang", and a fresh worker takes the slot (one is kept starting ahead of need). Workers
 * are reused across cases otherwise.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { CaseReport, CaseResult, FuzzCase } from "./types.js";

const WORKER = path.join(import.meta.dirname, "worker.ts");

/** How long a worker may take to start (tsx, the project's modules, a warm-up), on a loaded machine. */
const START_LIMIT_MS = 180_000;

export type WorkerMessage = { type: "ready"; info?: Record<string, unknown> } | { type: "report"; report: CaseReport } | { type: "reply"; value: unknown } | { type: "failed"; message: string };

export class FuzzWorker {
  private child: ChildProcess;
  private waiting: ((message: WorkerMessage | { type: "exit"; detail: string }) => void) | null = null;
  readonly started: Promise<Record<string, unknown>>;

  constructor(init: Record<string, unknown>) {
    // detached: the worker leads its own process group, so a kill reaches its ffmpeg children too.
    this.child = fork(WORKER, [], { execArgv: ["--import", "tsx"], detached: true, serialization: "advanced", stdio: ["ignore", "ignore", "pipe", "ipc"] });
    let stderr = "";
    this.child.stderr!.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    this.child.on("message", (message: WorkerMessage) => this.deliver(message));
    this.child.on("exit", (code, signal) => this.deliver({ type: "exit", detail: `worker exited (code ${code}, signal ${signal}); stderr: ${stderr.trim().slice(-1500)}` }));
    this.started = this.next(START_LIMIT_MS).then((message) => {
      if (message?.type === "ready") return message.info ?? {};
      this.kill();
      throw new Error(`fuzz worker did not start: ${message ? JSON.stringify(message).slice(0, 2000) : "timed out"}`);
    });
    this.child.send({ type: "init", ...init });
  }

  private deliver(message: WorkerMessage | { type: "exit"; detail: string }): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.(message);
  }

  /** The next message, or null after `limitMs`. */
  private next(limitMs: number): Promise<WorkerMessage | { type: "exit"; detail: string } | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, limitMs);
      this.waiting = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Send a message and wait for the answer, at most `limitMs`. */
  async ask(message: Record<string, unknown>, limitMs: number): Promise<WorkerMessage | { type: "exit"; detail: string } | null> {
    if (!this.alive) return { type: "exit", detail: "worker not running" };
    const answer = this.next(limitMs);
    this.child.send(message);
    return answer;
  }

  /** Kill the worker and everything it started (its process group). */
  kill(): void {
    if (!this.alive || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      this.child.kill("SIGKILL");
    }
  }
}

export interface PoolOptions {
  size: number;
  limitMs: number;
  init: Record<string, unknown>;
  /** Called after each case (progress). */
  onResult?: (result: CaseResult, done: number, total: number) => void;
}

/**
 * Workers made ahead of need: one is kept starting in the background, so the slot of a killed
 * worker gets a ready one at once instead of waiting for tsx and the project's modules to load.
 */
export class WorkerSupply {
  private spares: FuzzWorker[] = [];
  private all: FuzzWorker[] = [];

  /** `spares`: how many are kept starting (one per slot where hangs come in runs, as the bridge's do). */
  constructor(
    private readonly init: Record<string, unknown>,
    private readonly spareCount = 1,
  ) {}

  private make(): FuzzWorker {
    const worker = new FuzzWorker(this.init);
    worker.started.catch(() => undefined); // a failed start is reported to whoever takes it
    this.all.push(worker);
    return worker;
  }

  /** A started worker (the oldest spare, if there is one), with the spares topped up again. */
  async take(): Promise<FuzzWorker> {
    const worker = this.spares.shift() ?? this.make();
    while (this.spares.length < this.spareCount) this.spares.push(this.make());
    await worker.started;
    return worker;
  }

  /** Kill every worker made (the spare included). */
  close(): void {
    for (const worker of this.all) worker.kill();
  }
}

/** Run every case on `size` workers; a hung or crashed worker is replaced. Results in the cases' order. */
export async function runCases(cases: FuzzCase[], options: PoolOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  const supply = new WorkerSupply(options.init);
  let next = 0;
  let done = 0;
  const slot = async () => {
    let worker = await supply.take();
    while (next < cases.length) {
      const index = next++;
      const fuzzCase = cases[index]!;
      const began = performance.now();
      const start = Date.now();
      const answer = await worker.ask({ type: "case", case: fuzzCase }, fuzzCase.limitMs ?? options.limitMs);
      const ms = Math.round(performance.now() - began);
      const base = { id: fuzzCase.id, ms, span: [start, Date.now()] as [number, number] };
      let result: CaseResult;
      if (answer?.type === "report") result = { ...base, status: "done", report: answer.report };
      else if (answer === null) result = { ...base, status: "hang" };
      else result = { ...base, status: "crash", detail: answer.type === "exit" ? answer.detail : JSON.stringify(answer).slice(0, 2000) };
      results[index] = result;
      options.onResult?.(result, ++done, cases.length);
      if (result.status !== "done") {
        worker.kill();
        worker = await supply.take();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.size, cases.length)) }, slot));
  } finally {
    supply.close();
  }
  return results;
}
