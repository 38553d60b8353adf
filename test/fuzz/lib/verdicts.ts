/**
 * What counts as a pass. A case passes when, within its time limit, it ends in one of the accepted
 * outcomes: data problems (each with its file and a message; a problem about the fuzzed JSONL row
 * also with its line), a DataError or UsageError, or a result; and when it read nothing outside the
 * root and no message or output holds the canary's content. Engine errors (TypeError, RangeError,
 * a stack overflow, an array too long) are failures wherever they show, even turned into an item's
 * error message.
 */
import type { CaseReport, CaseResult, ThrownError } from "./types.js";

export const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text);

/** Messages V8 and Node give for bugs, not for bad data. */
const ENGINE_MESSAGES = [
  /Maximum call stack size exceeded/,
  /Invalid (array|string|typed array) length/,
  /Array buffer allocation failed/,
  /Cannot (read|set) propert/,
  /is not (a function|iterable|a constructor|defined)/,
  /Cannot convert .* to a BigInt|Cannot mix BigInt/,
  /(undefined|null) is not an? /,
  /out of memory/i,
  /^(TypeError|RangeError|ReferenceError|InternalError)\b/,
];

export function isEngineMessage(message: string): boolean {
  return ENGINE_MESSAGES.some((pattern) => pattern.test(message));
}

const ENGINE_NAMES = new Set(["TypeError", "RangeError", "ReferenceError", "SyntaxError", "InternalError", "EvalError", "URIError"]);

export function isEngineError(error: ThrownError): boolean {
  return ENGINE_NAMES.has(error.name) || isEngineMessage(error.message);
}

/** A thrown value, as a case reports it. */
export function describeThrown(stage: string, error: unknown): ThrownError {
  if (!(error instanceof Error)) return { stage, name: typeof error, message: clip(String(error), 500) };
  const stack = (error.stack ?? "").split("\n").slice(1, 6).map((l) => l.trim()).join(" | ");
  return { stage, name: error.constructor?.name ?? error.name, message: clip(error.message, 500), ...(stack ? { stack } : {}) };
}

/** Why a finished case fails the common rules, or [] when it passes them. */
export function commonFailures(result: CaseResult, acceptError: (error: ThrownError) => boolean): string[] {
  if (result.status === "hang") return [`hang: no answer within the time limit (${result.ms} ms)`];
  if (result.status === "crash") return [`crash: ${result.detail}`];
  const report: CaseReport = result.report;
  const out: string[] = [];
  for (const error of report.errors) {
    if (acceptError(error)) continue;
    out.push(`${isEngineError(error) ? "engine error" : "unexpected error"} in ${error.stage}: ${error.name}: ${error.message}${error.stack ? ` at ${clip(error.stack, 300)}` : ""}`);
  }
  for (const message of report.itemErrors.filter(isEngineMessage)) out.push(`engine error hidden in an item's error: ${message}`);
  for (const v of report.violations) out.push(`read outside the root: ${v.op} ${v.given} -> ${v.real} (${v.why})`);
  for (const leak of report.leaks) out.push(`canary content in ${leak}`);
  for (const problem of report.malformed) out.push(`problem without its place: ${problem}`);
  return out;
}
