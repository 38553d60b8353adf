import { pyInt, pyIntFromString } from "../../core/pycompat/int.js";
import { pyDumpsIntList, pyJsonLoads, PyJsonError, type PyValue } from "../../core/pycompat/json.js";
import { LiteralSyntaxError, pyLiteralEval, type Literal } from "../../core/pycompat/literal.js";
import { pyIsDigit, pyLstripChars, pyStrip } from "../../core/pycompat/text.js";

/**
 * Two readers, as in the official release:
 * - `parseStoredOutput`: the evaluator's strict reading of a stored prediction (`output` field).
 * - `normalizeReply`: the inference runner's lenient reading of raw model text, which produces the
 *   stored output (or a recorded failure). `run` applies both in turn; `score` only the first.
 * Neither throws, whatever the input.
 */

/** The evaluator's rule: a list converts element-wise with int(); a string must be a JSON array once fences are removed. */
export function parseStoredOutput(output: PyValue | undefined): bigint[] | null {
  try {
    if (Array.isArray(output)) return intsOrNull(output);
    if (typeof output === "string") {
      const text = pyStrip(pyStrip(output).replaceAll("```json", "").replaceAll("```", ""));
      const parsed = pyJsonLoads(text);
      return Array.isArray(parsed) ? intsOrNull(parsed) : null;
    }
    return null;
  } catch {
    return null;
  }
}

function intsOrNull(values: PyValue[]): bigint[] | null {
  const out: bigint[] = [];
  for (const v of values) {
    const id = pyInt(v);
    if (id === null) return null;
    out.push(id);
  }
  return out;
}

/**
 * The output a prediction row carries for scoring: none when `success` is literally false,
 * otherwise its `output` field.
 */
export function predictionOutput(row: Map<string, PyValue> | undefined): PyValue | undefined {
  if (!row) return undefined;
  if (row.get("success") === false) return undefined;
  return row.get("output");
}

export type NormalizedReply =
  | { ok: true; output: string; ids: bigint[] }
  | { ok: false; output: string; reason: string };

/** Thrown inside the runner reading where the official runner would raise an uncaught exception. */
class RunnerCrash extends Error {}
/** The official runner's "benchmark output must ..." complaint: try the next candidate. */
class NotDisplayIds extends Error {}

/**
 * The official runner's normalisation of a model reply followed by its validation. On success the
 * output is the JSON array text it stores; otherwise the reply is a recorded parse failure (the
 * runner stores it with success=false, which the evaluator treats as a missing answer).
 * `allowedIds`: the row's all_ids when present and non-empty (a1/b1): one id outside makes the
 * whole reply a failure.
 */
export function normalizeReply(text: string, allowedIds?: readonly bigint[]): NormalizedReply {
  let output: string;
  try {
    output = normalizeText(text);
  } catch (error) {
    return { ok: false, output: "", reason: `the reply makes the official runner raise (${(error as Error).message})` };
  }
  try {
    return validateOutput(output, allowedIds);
  } catch (error) {
    return { ok: false, output: "", reason: `the reply makes the official runner raise (${(error as Error).message})` };
  }
}

function normalizeText(text: string): string {
  const stripped = pyStrip(text);
  const direct = tryDisplayIds(stripped);
  if (direct) return pyDumpsIntList(direct);
  if (stripped.startsWith("```") && stripped.endsWith("```")) {
    const inner = stripped.replace(/^```[a-zA-Z0-9_+-]*\n?/, "").replace(/\n?```$/, "");
    const fenced = tryDisplayIds(inner);
    if (fenced) return pyDumpsIntList(fenced);
  }
  // First bracketed list, then first braced object, that reads as display ids.
  for (const pattern of [/\[[^[\]]*\]/g, /\{[^{}]*\}/g]) {
    for (const match of stripped.matchAll(pattern)) {
      const ids = tryDisplayIds(match[0]);
      if (ids) return pyDumpsIntList(ids);
    }
  }
  return stripped;
}

/** JSON first, then a Python literal; the first that yields display ids wins. */
function tryDisplayIds(candidate: string): bigint[] | undefined {
  const text = pyStrip(candidate);
  if (!text) return undefined;
  const readers: Array<(s: string) => Literal> = [pyJsonLoads, pyLiteralEval];
  for (const read of readers) {
    let payload: Literal;
    try {
      payload = read(text);
    } catch (error) {
      if (error instanceof PyJsonError || error instanceof LiteralSyntaxError) continue;
      throw new RunnerCrash((error as Error).message);
    }
    try {
      return coerceDisplayIds(payload);
    } catch (error) {
      if (error instanceof NotDisplayIds) continue;
      throw error;
    }
  }
  return undefined;
}

/** A list (or {"display_ids": list}) of ints, digit strings, or objects carrying id/display_id/displayId. */
function coerceDisplayIds(payload: Literal): bigint[] {
  const list = payload instanceof Map ? payload.get("display_ids") : payload;
  if (!Array.isArray(list)) throw new NotDisplayIds("benchmark output must be a JSON array");
  return list.map((item) => {
    const direct = idFromScalar(item);
    if (direct !== undefined) return direct;
    if (item instanceof Map) {
      const id = item.has("id") ? item.get("id") : item.has("display_id") ? item.get("display_id") : item.get("displayId");
      const nested = idFromScalar(id ?? null);
      if (nested !== undefined) return nested;
    }
    throw new NotDisplayIds("benchmark output must contain integer-like IDs");
  });
}

function idFromScalar(value: Literal): bigint | undefined {
  if (typeof value === "boolean") throw new NotDisplayIds("benchmark output must contain integer-like IDs, got bool");
  if (typeof value === "bigint") return value;
  if (typeof value === "string") {
    const trimmed = pyStrip(value);
    if (!pyIsDigit(pyLstripChars(trimmed, "-"))) return undefined;
    const id = pyIntFromString(trimmed);
    // str.isdigit() accepts superscripts and circled digits that int() then rejects: the runner raises.
    if (id === null) throw new RunnerCrash(`invalid literal for int(): ${JSON.stringify(trimmed)}`);
    return id;
  }
  return undefined;
}

function validateOutput(output: string, allowedIds?: readonly bigint[]): NormalizedReply {
  let payload: PyValue;
  try {
    payload = pyJsonLoads(output);
  } catch (error) {
    if (error instanceof PyJsonError) return { ok: false, output, reason: "no JSON array of display ids found in the reply" };
    throw error;
  }
  let ids: bigint[];
  try {
    ids = coerceDisplayIds(payload);
  } catch (error) {
    if (error instanceof NotDisplayIds) return { ok: false, output, reason: error.message };
    throw error;
  }
  if (allowedIds && allowedIds.length > 0) {
    const allowed = new Set(allowedIds);
    const outside = ids.filter((id) => !allowed.has(id));
    if (outside.length > 0) {
      return { ok: false, output, reason: `ids outside the candidate set: ${outside.join(", ")}` };
    }
  }
  return { ok: true, output, ids };
}
