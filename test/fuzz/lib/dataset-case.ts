/**
 * One dataset fuzz case, inside a worker: the worker's copy of the seed with the one mutated file
 * written in place (mutations.ts), then what `validate`, `run` (a built-in model, so every prompt
 * is built and every answer scored) and `score` (the run's own predictions read back) do with it;
 * then the copy is restored. The worker's read guard records every file reached meanwhile; the
 * outputs are searched for the canary's content.
 */
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { DataError, UsageError, type DataProblem } from "../../../src/core/problems.js";
import { executeRun, executeScore } from "../../../src/core/session.js";
import { getBenchmark } from "../../../src/registry.js";
import { SECRET } from "./canary.js";
import { startRecording, stopRecording } from "./guard.js";
import { mutate, restore } from "./mutations.js";
import type { Seed } from "./seeds.js";
import type { CaseReport, DatasetCase, SeenProblem, ThrownError } from "./types.js";
import { clip, describeThrown } from "./verdicts.js";

export interface DatasetWorkerSetup {
  seeds: Seed[];
  canary: string;
  /** The worker's own folder: its copies of the seeds, and each case's outputs (removed after it). */
  scratch: string;
}

/** The worker's copy of a seed (made on first use; cases change it and restore it). */
function workerRoot(seed: Seed, scratch: string): string {
  const root = path.join(scratch, "roots", seed.name);
  if (!existsSync(root)) cpSync(seed.base, root, { recursive: true });
  return root;
}

/** Problems that do not say where they are: no file, no message, or (for the fuzzed JSONL row) no line. */
function malformedProblems(problems: DataProblem[], fuzzCase: DatasetCase, seed: Seed): string[] {
  const m = fuzzCase.mutation;
  const rowFile = (m.kind === "field" || m.kind === "row") && seed.docs[m.doc]!.format === "jsonl" ? path.basename(seed.docs[m.doc]!.file) : null;
  const out: string[] = [];
  for (const p of problems) {
    const shown = clip(JSON.stringify(p), 300);
    if (typeof p.file !== "string" || p.file === "") out.push(`no file: ${shown}`);
    else if (typeof p.message !== "string" || p.message.trim() === "") out.push(`no message: ${shown}`);
    else if (rowFile && path.basename(p.file) === rowFile && m.kind === "field" && !(typeof p.line === "number" && p.line >= 1)) out.push(`no line for the row's file: ${shown}`);
  }
  return out;
}

/** Every file below `dir` as text (for the canary search). */
function textsBelow(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return out;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      if (lstatSync(full).isFile()) out.push({ file: name, text: readFileSync(full, "latin1") });
    } catch {
      /* gone */
    }
  }
  return out;
}

function builtinModel(benchmarkId: string): string {
  const names = Object.keys(getBenchmark(benchmarkId).baselines);
  return names.find((n) => n === "oracle") ?? names.find((n) => n.includes("oracle")) ?? names[0]!;
}

type StageOutcome<T> = { ok: true; value: T } | { ok: false; refused: boolean; error: ThrownError };

/** Milliseconds per stage of the last case (for the report's note). */
const stageMs: Record<string, number> = {};

async function stage<T>(name: string, work: () => Promise<T> | T): Promise<StageOutcome<T>> {
  const began = performance.now();
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, refused: error instanceof DataError || error instanceof UsageError, error: describeThrown(name, error) };
  } finally {
    stageMs[name] = Math.round(performance.now() - began);
  }
}

export async function runDatasetCase(fuzzCase: DatasetCase, setup: DatasetWorkerSetup, counter: number): Promise<CaseReport> {
  const began = performance.now();
  const seed = setup.seeds.find((s) => s.name === fuzzCase.seed)!;
  const out = path.join(setup.scratch, `out-${counter}`);
  const root = workerRoot(seed, setup.scratch);
  try {
    mutate(fuzzCase, seed, root, setup.canary);
    return await checkCase(fuzzCase, seed, root, out, began);
  } finally {
    restore(fuzzCase, seed, root);
    rmSync(out, { recursive: true, force: true });
  }
}

async function checkCase(fuzzCase: DatasetCase, seed: Seed, root: string, out: string, began: number): Promise<CaseReport> {
  const benchmark = getBenchmark(fuzzCase.benchmark);
  const configured = benchmark.configure ? benchmark.configure({}) : benchmark;
  const source = configured.promptSources[0]!;
  const control = configured.promptControls[0]!;
  const report: CaseReport = { id: fuzzCase.id, ms: 0, stages: {}, problems: [], problemCount: 0, malformed: [], errors: [], itemErrors: [], violations: [], leaks: [], opened: 0 };

  startRecording();
  try {
    // validate: the load `spatialprobe validate` makes (with the request checks).
    const allowOutsideRoot = fuzzCase.allowOutsideRoot === true;
    const validated = await stage("validate", () => configured.load(root, undefined, { allowOutsideRoot, requests: { source, control } }));
    if (validated.ok) {
      const problems = validated.value.problems;
      report.stages["validate"] = problems.length > 0 ? "problems" : "clean";
      report.problemCount = problems.length;
      report.problems = problems.slice(0, 5).map((p): SeenProblem => ({ file: p.file, line: p.line, field: p.field, message: clip(String(p.message), 300) }));
      report.malformed = malformedProblems(problems, fuzzCase, seed).slice(0, 5);
      // A loop, not a spread: a fuzzed row can give 200,000 problems.
      if (problems.some((p) => `${p.file} ${p.field ?? ""} ${p.message}`.includes(SECRET))) report.leaks.push("a problem's message");
    } else {
      report.stages["validate"] = validated.refused ? "refused" : "error";
      report.errors.push(validated.error);
    }
    // run: a built-in model answers every item (each prompt is built, each answer read and scored).
    // Data validate refused is not run: `run` makes the very same load (core/session.ts
    // loadForScoring) and refuses it with the same problems, which test/cli/validate-complete checks.
    const common = { benchmark: fuzzCase.benchmark, data: root, bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, ...(allowOutsideRoot ? { benchmarkOptions: { allowOutsideRoot } } : {}) };
    const refusedByValidate = report.stages["validate"] === "problems";
    const run: StageOutcome<Awaited<ReturnType<typeof executeRun>>> | null = refusedByValidate
      ? null
      : await stage("run", () =>
          executeRun({ ...common, out: path.join(out, "run"), model: builtinModel(fuzzCase.benchmark), promptSource: source, control, seed: 1, flags: {}, retryErrors: false }),
        );
    if (run === null) {
      report.stages["run"] = "skipped";
    } else if (run.ok) {
      report.stages["run"] = "result";
      for (const result of run.value.results) {
        const message = result.response?.error?.message;
        if (result.status === "error" && message !== undefined && report.itemErrors.length < 50) report.itemErrors.push(clip(message, 300));
      }
    } else {
      report.stages["run"] = run.refused ? "refused" : "error";
      report.errors.push(run.error);
    }
    // score: the run's predictions read back with the official rules.
    if (run?.ok) {
      const scored = await stage("score", () => executeScore({ ...common, out: path.join(out, "score"), predictions: [path.join(out, "run", "predictions.jsonl")] }));
      report.stages["score"] = scored.ok ? "result" : scored.refused ? "refused" : "error";
      if (!scored.ok) report.errors.push(scored.error);
    } else {
      report.stages["score"] = "skipped";
    }
  } finally {
    const seen = stopRecording();
    report.violations = seen.violations.slice(0, 5);
    report.opened = seen.opened;
  }
  const texts = [...report.errors.map((e) => `${e.message} ${e.stack ?? ""}`), ...report.itemErrors];
  if (texts.some((t) => t.includes(SECRET))) report.leaks.push("an error message");
  for (const { file, text } of textsBelow(out)) if (text.includes(SECRET)) report.leaks.push(`output file ${file}`);
  report.itemErrors = report.itemErrors.slice(0, 5);
  report.ms = Math.round(performance.now() - began);
  report.note = Object.entries(stageMs).map(([name, ms]) => `${name} ${ms} ms`).join(", ");
  for (const name of Object.keys(stageMs)) delete stageMs[name];
  return report;
}
