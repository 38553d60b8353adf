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

/** A plain object, or {} for anything else (result lines read back from disk may be malformed). */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The caption line saying why a result line has no answer to show: a failed request, an
 * unreadable reply, a missing or failed prediction; undefined when it has an answer.
 */
export function noAnswerLine(result: unknown): string | undefined {
  const record = asRecord(result);
  if (record["status"] === "error") {
    const error = asRecord(asRecord(record["response"])["error"]);
    const message = [error["message"], error["kind"]].find((v): v is string => typeof v === "string" && v.length > 0);
    return `request failed: ${message ?? "no error message recorded"}`;
  }
  const answer = asRecord(record["answer"]);
  const reason = typeof answer["reason"] === "string" ? answer["reason"] : "no reason recorded";
  if (answer["status"] === "unparseable") return `unreadable: ${reason}`;
  if (answer["status"] === "missing") return `no answer (missing): ${reason}`;
  if (answer["status"] === "failed") return `no answer (recorded failure): ${reason}`;
  return undefined;
}
