import { PY_INT_MAX_STR_DIGITS, pyInt, pyIntFromString } from "../../core/pycompat/int.js";
import { pyDumpsIntList, pyJsonDecode, pyJsonLoads, pyJsonValidate, type PyValue } from "../../core/pycompat/json.js";
import { pyLiteralDecode, type Literal } from "../../core/pycompat/literal.js";
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
      if (!Array.isArray(parsed)) return null;
      return parsed.every((v) => typeof v === "bigint") ? (parsed as bigint[]) : intsOrNull(parsed); // freshly read: no copy needed
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

/** One reading of a candidate: ids (`fromJson`: read by json.loads), the runner raising, or nothing (try the next candidate). */
type Attempt = { ids: bigint[]; fromJson?: boolean } | { crash: string } | undefined;

/**
 * The official runner's normalisation of a model reply followed by its validation. On success the
 * output is the JSON array text it stores; otherwise the reply is a recorded parse failure (the
 * runner stores it with success=false, which the evaluator treats as a missing answer).
 * `allowedIds`: the row's all_ids when present and non-empty (a1/b1): one id outside makes the
 * whole reply a failure. Linear time in the reply's length (see normalizeText). A reply nested too
 * deeply for CPython (json: more than PY_JSON_MAX_DEPTH containers; literal_eval: a syntax tree
 * deeper than PY_AST_MAX_DEPTH; more than 200 brackets is only a syntax error there) is a failure
 * whose reason is that the official runner raises ("maximum recursion depth exceeded").
 */
export function normalizeReply(text: string, allowedIds?: readonly bigint[]): NormalizedReply {
  const raise = (message: string): NormalizedReply => ({ ok: false, output: "", reason: `the reply makes the official runner raise (${message})` });
  let normalized: ReturnType<typeof normalizeText>;
  try {
    normalized = normalizeText(text);
  } catch (error) {
    return raise((error as Error).message);
  }
  if ("crash" in normalized) return raise(normalized.crash);
  try {
    if (normalized.ids) return checkIds(normalized.output, normalized.ids, allowedIds, normalized.fromJson);
    return validateOutput(normalized.output, allowedIds, normalized.json);
  } catch (error) {
    return raise((error as Error).message);
  }
}

/**
 * The runner's reading: the whole reply, a fenced block, then the first bracketed list and the first
 * braced object (no brackets, or no braces, inside) that read as display ids; else the stripped
 * reply. The candidates are found in one scan, and junk candidates that provably cannot yield ids
 * or make the runner raise (see cannotAnswer) are passed over without being parsed; the rest are
 * read once per distinct text.
 */
function normalizeText(text: string): { output: string; ids?: bigint[]; fromJson?: boolean; json?: JsonReading } | { crash: string } {
  const stripped = pyStrip(text);
  const found = (attempt: NonNullable<Attempt>) => ("ids" in attempt ? { output: pyDumpsIntList(attempt.ids), ids: attempt.ids, fromJson: attempt.fromJson } : attempt);
  let strippedJson: JsonReading | undefined;
  const seen = new Map<string, Attempt>([[stripped, tryDisplayIds(stripped, (reading) => (strippedJson = reading))]]);
  const attempt = (candidate: string): Attempt => {
    if (!seen.has(candidate)) seen.set(candidate, tryDisplayIds(candidate));
    return seen.get(candidate);
  };
  const direct = attempt(stripped);
  if (direct) return found(direct);
  if (stripped.startsWith("```") && stripped.endsWith("```")) {
    const fenced = attempt(stripped.replace(/^```[a-zA-Z0-9_+-]*\n?/, "").replace(/\n?```$/, ""));
    if (fenced) return found(fenced);
  }
  // First bracketed list, then first braced object, that reads as display ids.
  for (const [open, close] of [["[", "]"], ["{", "}"]] as const) {
    for (const span of candidates(stripped, open, close)) {
      if (cannotAnswer(stripped, span.start, span.end, open)) continue;
      const read = attempt(stripped.slice(span.start, span.end));
      if (read) return found(read);
    }
  }
  // validateOutput reads the stripped reply as JSON again: the first attempt already did.
  return strippedJson ? { output: stripped, json: strippedJson } : { output: stripped };
}

/**
 * The matches of /\[[^[\]]*\]/g (or the same with braces), left to right: an opening with no
 * other opening before the next closing. When another opening comes first, the match can only
 * start there. The next opening and closing are found with indexOf and a closing is remembered
 * while it lies ahead, so the text is searched once.
 */
function* candidates(text: string, open: string, close: string): Generator<{ start: number; end: number }> {
  let start = text.indexOf(open);
  let closing = -1;
  while (start !== -1) {
    if (closing <= start) closing = text.indexOf(close, start + 1);
    if (closing === -1) return;
    const following = text.indexOf(open, start + 1);
    if (following === -1 || following > closing) yield { start, end: closing + 1 };
    start = following;
  }
}

/**
 * True only when the candidate text[start, end) can neither give display ids nor make the runner
 * raise, whatever JSON or literal_eval make of it, so that reading it would change nothing. It must
 * be short (no syntax tree deep enough for RecursionError, no nesting deep enough for json), and:
 * - braced: no "display_ids", no backslash and fewer than 4 quotes (no string key can spell
 *   display_ids, even by escapes or implicit concatenation), and no "[" or "(" (no unhashable set
 *   element or dict key: list, set(), tuple holding one; a dict or set would need another "{");
 * - bracketed: no digit of any script, no backslash, no "{" and no "#", and something other than
 *   whitespace (the list is not empty, and no item can be an int, a digit string or a dict).
 */
function cannotAnswer(text: string, start: number, end: number, open: string): boolean {
  if (end - start > 2000) return false;
  return open === "{" ? inertBraces(text, start, end) : inertBrackets(text, start, end);
}

function inertBraces(text: string, start: number, end: number): boolean {
  let quotes = 0;
  for (let i = start + 1; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c || c === 0x5b || c === 0x28) return false; // \ [ (
    if (c === 0x22 || c === 0x27) quotes++;
  }
  return quotes < 4 && (quotes === 0 || !text.slice(start, end).includes("display_ids"));
}

function inertBrackets(text: string, start: number, end: number): boolean {
  let visible = false;
  for (let i = start + 1; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || c === 0x5c || c === 0x7b || c === 0x23 || c > 0x7f) return false; // digit \ { # non-ASCII
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) visible = true;
  }
  return visible;
}

/** json.loads then the runner's coercion: ids, not ids (why), the runner raising, or not JSON. */
type JsonReading = Coerced | { notJson: "syntax" | "recursion" };

function readJson(text: string): JsonReading {
  // A long text is checked before its value is built: when it is not JSON, it often fails only
  // near its end (a list followed by prose, a trailing comma), and then nothing was built in vain.
  if (text.length > 65536) {
    const failure = pyJsonValidate(text);
    if (failure) return { notJson: failure.kind };
  }
  const decoded = pyJsonDecode(text);
  return decoded.ok ? coerceDisplayIds(decoded.value) : { notJson: decoded.failure.kind };
}

/** JSON first, then a Python literal; the first that yields display ids wins. `onJson` is given the JSON reading. */
function tryDisplayIds(candidate: string, onJson?: (reading: JsonReading) => void): Attempt {
  const text = pyStrip(candidate);
  if (!text) return undefined;
  const json = readJson(text);
  onJson?.(json);
  if (!("notJson" in json)) {
    // Valid JSON that holds no ids holds none as a Python literal either: literal_eval fails on
    // true/false/null/NaN/Infinity and on nesting past 200, and otherwise reads the same lists,
    // dicts, numbers and strings (only "\/" differs, and no slash makes a digit string or a key).
    return "notIds" in json ? undefined : "ids" in json ? { ids: json.ids, fromJson: true } : json;
  }
  if (json.notJson === "recursion") return { crash: "maximum recursion depth exceeded" };
  const literal = pyLiteralDecode(text, { tupleItems: false }); // ids are never read from a tuple
  if (literal.ok) {
    const read = coerceDisplayIds(literal.value);
    if (!("notIds" in read)) return read;
  } else if (literal.failure.kind !== "syntax") return { crash: literal.failure.message };
  return undefined;
}

/** "benchmark output must ...": not display ids (the runner tries the next candidate). */
type Coerced = { ids: bigint[] } | { notIds: string } | { crash: string };

/** A list (or {"display_ids": list}) of ints, digit strings, or objects carrying id/display_id/displayId. */
function coerceDisplayIds(payload: Literal): Coerced {
  const list = payload instanceof Map ? payload.get("display_ids") : payload;
  if (!Array.isArray(list)) return { notIds: "benchmark output must be a JSON array" };
  // A fresh list of ints (the common case) is the answer itself.
  if (list.every((item) => typeof item === "bigint")) return { ids: list as bigint[] };
  const ids: bigint[] = [];
  for (const item of list) {
    let id = idFromScalar(item);
    if (id === undefined && item instanceof Map) {
      const nested = item.has("id") ? item.get("id") : item.has("display_id") ? item.get("display_id") : item.get("displayId");
      id = idFromScalar(nested ?? null);
    }
    if (id === undefined) return { notIds: "benchmark output must contain integer-like IDs" };
    if (typeof id !== "bigint") return id;
    ids.push(id);
  }
  return { ids };
}

function idFromScalar(value: Literal): bigint | { notIds: string } | { crash: string } | undefined {
  if (typeof value === "boolean") return { notIds: "benchmark output must contain integer-like IDs, got bool" };
  if (typeof value === "bigint") return value;
  if (typeof value === "string") {
    const trimmed = pyStrip(value);
    if (!pyIsDigit(pyLstripChars(trimmed, "-"))) return undefined;
    const id = pyIntFromString(trimmed);
    // str.isdigit() accepts superscripts and circled digits that int() then rejects: the runner raises.
    if (id === null) return { crash: `invalid literal for int(): ${JSON.stringify(trimmed)}` };
    return id;
  }
  return undefined;
}

const NO_ARRAY = "no JSON array of display ids found in the reply";

/** The runner's validation: the output must read as JSON display ids (`reading`: its JSON reading, when already made). */
function validateOutput(output: string, allowedIds?: readonly bigint[], reading?: JsonReading): NormalizedReply {
  const read = reading ?? readJson(output);
  if ("notJson" in read) {
    if (read.notJson === "syntax") return { ok: false, output, reason: NO_ARRAY };
    throw new RunnerCrash("maximum recursion depth exceeded");
  }
  if ("notIds" in read) return { ok: false, output, reason: read.notIds };
  if ("crash" in read) throw new RunnerCrash(read.crash);
  return checkIds(output, read.ids, allowedIds, true);
}

const SMALL = 1n << 53n;
/** json.loads refuses an integer of more than 4300 digits. */
const tooLongForJson = (id: bigint) => (id >= SMALL || id <= -SMALL) && (id < 0n ? -id : id).toString().length > PY_INT_MAX_STR_DIGITS;

/**
 * validateOutput for an output that is pyDumpsIntList(ids): reading it back gives the same ids,
 * unless one has more digits than json.loads accepts (an id from a long hex literal), so it is not
 * parsed again.
 */
function checkIds(output: string, ids: bigint[], allowedIds?: readonly bigint[], fromJson = false): NormalizedReply {
  // Ids json.loads read (or int() of digit strings) have at most 4300 digits already; only a
  // literal_eval hex, octal or binary int can be longer.
  if (!fromJson && ids.some(tooLongForJson)) return { ok: false, output, reason: NO_ARRAY };
  if (allowedIds && allowedIds.length > 0) {
    const allowed = new Set(allowedIds);
    const outside = ids.filter((id) => !allowed.has(id));
    if (outside.length > 0) {
      return { ok: false, output, reason: `ids outside the candidate set: ${outside.join(", ")}` };
    }
  }
  return { ok: true, output, ids };
}
