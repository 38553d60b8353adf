import { closeSync, createWriteStream, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { Benchmark, BenchItem, ItemResult, ScoresDocument } from "./benchmark.js";

/** JSON.stringify that writes bigints as numbers when exact, else as strings. */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, v) => (typeof v === "bigint" ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : String(v)) : v),
    indent,
  );
}

export async function writeJsonl(file: string, rows: Iterable<unknown>): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const stream = createWriteStream(file);
  for (const row of rows) {
    if (!stream.write(`${toJson(row)}\n`)) await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/**
 * Write a finished run: scores.json, items.jsonl, report.md, and (for model runs) the stored
 * predictions in the benchmark's official format, so the official evaluator can re-check them.
 */
export async function writeRunOutputs<I extends BenchItem>(
  outDir: string,
  benchmark: Benchmark<I>,
  scores: ScoresDocument,
  results: ItemResult[],
  options: { rawIds?: Map<string, unknown>; writePredictions: boolean },
): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, "scores.json"), `${toJson(scores, 2)}\n`);
  await writeJsonl(path.join(outDir, "items.jsonl"), results);
  writeFileSync(path.join(outDir, "report.md"), benchmark.markdown([scores]));
  if (options.writePredictions) {
    const rows = results.map((r) => ({
      [benchmark.predictionIdField]: options.rawIds?.get(r.id) ?? r.id,
      output: r.status === "scored" ? r.answer?.stored ?? "" : "",
      success: r.status === "scored" && r.answer?.status === "ok",
      ...(r.status === "error" ? { error: r.response?.error?.message ?? "error" } : {}),
      ...(r.status === "scored" && r.answer?.status !== "ok" ? { error: `benchmark output: ${r.answer?.reason ?? "unreadable"}` } : {}),
    }));
    await writeJsonl(path.join(outDir, "predictions.jsonl"), rows);
  }
}

/** While a run is in progress: its header (live.json) and each result as it arrives (live.jsonl). */
export const LIVE_HEADER = "live.json";
export const LIVE_RESULTS = "live.jsonl";

export interface LiveHeader {
  benchmark: string;
  model: string;
  data: string;
  prompt_source: string;
  benchmark_options: Record<string, unknown>;
  n_total: number;
  started_at: string;
}

export interface LiveLog {
  append(result: ItemResult): void;
  /** Stop writing (an interrupted run keeps its live files: they show how far it got). */
  close(): void;
  /** The run finished and wrote its outputs: the live files go. */
  remove(): void;
}

/** Start the live files of a run folder (a resumed run starts them afresh). */
export function openLiveLog(outDir: string, header: LiveHeader): LiveLog {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, LIVE_HEADER), `${toJson(header, 2)}\n`);
  const resultsFile = path.join(outDir, LIVE_RESULTS);
  const fd = openSync(resultsFile, "w");
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    append(result) {
      if (open) writeSync(fd, `${toJson(result)}\n`);
    },
    close,
    remove() {
      close();
      rmSync(resultsFile, { force: true });
      rmSync(path.join(outDir, LIVE_HEADER), { force: true });
    },
  };
}
