import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
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
