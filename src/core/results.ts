import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import YAML from "yaml";
import type { ItemResult } from "./benchmark.js";
import { UsageError } from "./problems.js";

export interface ResultCounts {
  parse_failures: number;
  errors: number;
  missing: number;
  items: number;
}

/**
 * Split a run's results into the scored ones and the counts every scores.json reports: errors
 * (infrastructure, not scored), missing predictions, and unreadable or failed answers.
 */
export function tallyResults(results: ItemResult[]): { counts: ResultCounts; scored: ItemResult[] } {
  const counts: ResultCounts = { parse_failures: 0, errors: 0, missing: 0, items: results.length };
  const scored: ItemResult[] = [];
  for (const result of results) {
    if (result.status === "error") {
      counts.errors++;
      continue;
    }
    if (result.answer?.status === "missing") counts.missing++;
    if (result.answer?.status === "unparseable" || result.answer?.status === "failed") counts.parse_failures++;
    scored.push(result);
  }
  return { counts, scored };
}

/** A YAML template file and its sha256 (recorded with the run; part of every request's bytes). */
export function readTemplateFile(file: string): { data: Record<string, unknown>; hash: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read template file ${file}`);
  }
  let data: unknown;
  try {
    data = YAML.parse(text) ?? {};
  } catch (error) {
    throw new UsageError(`template file ${file} is not valid YAML: ${(error as Error).message}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new UsageError(`template file ${file} must hold a mapping`);
  return { data: data as Record<string, unknown>, hash: createHash("sha256").update(text).digest("hex") };
}
