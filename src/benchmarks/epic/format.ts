import { pyFloat } from "../../core/pycompat/float.js";
import { pyIntFromString } from "../../core/pycompat/int.js";
import { pyJsonLoads, PyJsonError, PyRecursionError, type PyDict, type PyValue } from "../../core/pycompat/json.js";
import { isPySpace, pyStrip } from "../../core/pycompat/text.js";
import { replaceThinkBlocks } from "../../core/reply-scan.js";
import { LEAF_TASKS } from "./taxonomy.js";

/**
 * Reading a raw EPIC-Bench model reply into the values the official formatter
 * (tools/formatting/format_response.py of rxc205/EPIC-Bench-Eval) writes into its standard
 * record: `formatted_response_localization / _count / _path / _binary`. Everything here is a pure
 * function of (task type, text) and never throws on model text.
 *
 * The official pipeline, in the order it applies its rules:
 *  1. strip (Python whitespace); empty -> no valid response;
 *  2. `<think>` without `</think>` -> no valid response; otherwise every `<think>…</think>` span is
 *     removed (a lone `</think>` changes nothing);
 *  3. choose a JSON candidate: the first fenced block containing all the task's keys, else the
 *     first containing one of its "any" keys, else the `{…}` that encloses the first key found in
 *     the text (keys are plain substrings, tried in a fixed order);
 *  4. rewrite Python literals (quotes, True/False/None) and tuples inside the box/point array;
 *  5. `json.loads`, which must give an object; then the task's own reading of its fields.
 * The official code raises (and loses its whole output file) on a few replies; those are reported
 * here as `officialCrash` with the fields marked as no valid response.
 */

// ------------------------------------------------------------------------------------------------
// Record values
// ------------------------------------------------------------------------------------------------

/** The official marker for a required field whose value could not be read. */
export const NO_VALID_RESPONSE = "No Valid Response";
/** The official marker for a field the task does not use. */
export const NOT_REQUIRED = "Not Required";
export type NoValidResponse = typeof NO_VALID_RESPONSE;
export type NotRequired = typeof NOT_REQUIRED;
export type Field<T> = T | NoValidResponse | NotRequired;

/** [x1, y1, x2, y2] exactly as the reply gave them (no sorting, scaling or clipping yet). */
export type Box = [number, number, number, number];
export type Point = [number, number];

/** A Python exception the official formatter raises on a reply (its CLI then writes no output). */
export interface OfficialCrash {
  error: "OverflowError" | "ValueError" | "RecursionError";
  detail: string;
}

export interface FormattedReply {
  /** formatted_response_localization: boxes ([] is a valid "no target" answer). */
  localization: Field<Box[]>;
  /** formatted_response_count: Python int() of the reply's count. */
  count: Field<bigint>;
  /** formatted_response_path: path points. */
  points: Field<Point[]>;
  /** formatted_response_binary: placement feasibility. */
  feasibility: Field<boolean>;
  /** "no_valid_response" when any field the task requires holds NO_VALID_RESPONSE. */
  status: "ok" | "no_valid_response";
  reason?: string;
  officialCrash?: OfficialCrash;
}

export function isNoValidResponseMarker(value: unknown): value is NoValidResponse {
  return value === NO_VALID_RESPONSE;
}

export function isNotRequiredMarker(value: unknown): value is NotRequired {
  return value === NOT_REQUIRED;
}

/** The field's value, or undefined for either marker. */
export function fieldValue<T>(field: Field<T>): T | undefined {
  return field === NO_VALID_RESPONSE || field === NOT_REQUIRED ? undefined : (field as T);
}

// ------------------------------------------------------------------------------------------------
// Reply shapes: what each task asks the model to return
// ------------------------------------------------------------------------------------------------

type ReplyShape = "objects" | "instances" | "boxes" | "placement" | "path";
export type FieldName = "localization" | "count" | "points" | "feasibility";

interface ShapeSpec {
  /** Keys every preferred candidate contains (substring test on the raw candidate text). */
  allKeys: readonly string[];
  /** Keys of which a fallback candidate contains at least one. */
  anyKeys: readonly string[];
  /** The array whose (a, b) tuples become [a, b]. */
  tupleField: string;
  required: readonly FieldName[];
  read: (answer: PyDict) => Step<ReadFields>;
}

const SHAPES: Record<ReplyShape, ShapeSpec> = {
  objects: {
    allKeys: ["number_of_objects", "bounding_boxes"],
    anyKeys: ["number_of_objects"],
    tupleField: "bounding_boxes",
    required: ["localization", "count"],
    read: readObjects,
  },
  instances: {
    allKeys: ["number_of_instances", "bounding_boxes"],
    anyKeys: ["number_of_instances", "bounding_boxes"],
    tupleField: "bounding_boxes",
    required: ["localization", "count"],
    read: readInstances,
  },
  boxes: { allKeys: [], anyKeys: ["bounding_boxes"], tupleField: "bounding_boxes", required: ["localization"], read: readBoxesOnly },
  placement: {
    allKeys: ["bounding_boxes", "placement_feasibility"],
    anyKeys: ["placement_feasibility"],
    tupleField: "bounding_boxes",
    required: ["localization", "feasibility"],
    read: readPlacement,
  },
  path: { allKeys: [], anyKeys: ["points"], tupleField: "points", required: ["points"], read: readPath },
};

const SHAPE_OF_TASK = new Map<string, ReplyShape>([
  ...LEAF_TASKS.filter((t) => t.category === "TargetLocalization").map((t) => [t.leaf, "objects"] as const),
  ["GroundDetection", "boxes"],
  ["AffordanceRegion", "boxes"],
  ["FeasiblePath", "path"],
  ["FeasiblePath_Ego", "path"],
  ["FeasiblePath_Exo", "path"],
  ["VisualMatching", "instances"],
  ["ContactRelationship", "instances"],
  ["ContactRelationship_TypeOne", "instances"],
  ["ContactRelationship_TypeTwo", "instances"],
  ["ContactRelationship_TypeThree", "instances"],
  ["PlacementRegion", "placement"],
]);

/** Task types formatReply knows: the 23 leaves plus the bases FeasiblePath and ContactRelationship. */
export function formattableTaskTypes(): string[] {
  return [...SHAPE_OF_TASK.keys()];
}

/** The fields a task type's record fills (the others are NOT_REQUIRED). */
export function requiredFields(taskType: string): readonly FieldName[] {
  const shape = SHAPE_OF_TASK.get(taskType);
  return shape ? SHAPES[shape].required : [];
}

// ------------------------------------------------------------------------------------------------
// Entry point
// ------------------------------------------------------------------------------------------------

type Step<T> = { value: T } | { invalid: string } | { crash: OfficialCrash };

interface ReadFields {
  localization?: Box[];
  count?: bigint | NoValidResponse;
  points?: Point[];
  feasibility?: boolean;
  /** Why a field that is present but NO_VALID_RESPONSE could not be read. */
  note?: string;
}

/**
 * The official standard-record values for one raw reply. An unknown task type gets every field
 * NOT_REQUIRED and status "no_valid_response" (the official formatter fills nothing for it either).
 */
export function formatReply(taskType: string, raw: string): FormattedReply {
  const shape = SHAPE_OF_TASK.get(taskType);
  if (!shape) {
    return { localization: NOT_REQUIRED, count: NOT_REQUIRED, points: NOT_REQUIRED, feasibility: NOT_REQUIRED, status: "no_valid_response", reason: `unknown EPIC-Bench task type "${String(taskType)}"` };
  }
  const spec = SHAPES[shape];
  let step: Step<ReadFields>;
  try {
    step = readReply(spec, raw);
  } catch (error) {
    // Not expected; a reader never throws on model text.
    step = { invalid: `internal error while reading the reply: ${(error as Error).message}` };
  }
  return assembleRecord(spec.required, step);
}

function readReply(spec: ShapeSpec, raw: unknown): Step<ReadFields> {
  if (typeof raw !== "string") return { invalid: "the reply is not text" };
  const text = pyStrip(raw);
  if (text === "") return { invalid: "the reply is empty" };
  const content = withoutThinking(text);
  if (content === undefined) return { invalid: "the reply opens <think> and never closes it" };
  const candidate = chooseCandidate(content, spec);
  if (candidate === undefined) return { invalid: `no JSON object with ${describeKeys(spec)} was found` };
  const decoded = decodePythonJson(bracketTuplesIn(pythonLiteralsToJson(candidate), spec.tupleField));
  if (!("value" in decoded)) return decoded;
  if (!(decoded.value instanceof Map)) return { invalid: "the chosen JSON value is not an object" };
  return spec.read(decoded.value);
}

function assembleRecord(required: readonly FieldName[], step: Step<ReadFields>): FormattedReply {
  const record: FormattedReply = { localization: NOT_REQUIRED, count: NOT_REQUIRED, points: NOT_REQUIRED, feasibility: NOT_REQUIRED, status: "ok" };
  if (!("value" in step)) {
    for (const name of required) record[name] = NO_VALID_RESPONSE;
    record.status = "no_valid_response";
    if ("crash" in step) {
      record.officialCrash = step.crash;
      record.reason = `the official formatter raises ${step.crash.error} (${step.crash.detail}); its CLI writes no output for the whole file`;
    } else record.reason = step.invalid;
    return record;
  }
  const read = step.value;
  if (required.includes("localization")) record.localization = read.localization ?? NO_VALID_RESPONSE;
  if (required.includes("count")) record.count = read.count ?? NO_VALID_RESPONSE;
  if (required.includes("points")) record.points = read.points ?? NO_VALID_RESPONSE;
  if (required.includes("feasibility")) record.feasibility = read.feasibility ?? NO_VALID_RESPONSE;
  const missing = required.filter((name) => record[name] === NO_VALID_RESPONSE);
  if (missing.length > 0) {
    record.status = "no_valid_response";
    record.reason = read.note ?? `no valid ${missing.join(", ")}`;
  }
  return record;
}

function describeKeys(spec: ShapeSpec): string {
  return [...new Set([...spec.allKeys, ...spec.anyKeys])].map((k) => `"${k}"`).join(" / ");
}

// ------------------------------------------------------------------------------------------------
// Think blocks
// ------------------------------------------------------------------------------------------------

/** Text with every <think>…</think> span removed (then stripped); undefined when a <think> is never closed. */
export function withoutThinking(text: string): string | undefined {
  if (!text.includes("<think>")) return text;
  if (!text.includes("</think>")) return undefined;
  return pyStrip(replaceThinkBlocks(text, "", false));
}

// ------------------------------------------------------------------------------------------------
// Choosing the JSON candidate
// ------------------------------------------------------------------------------------------------

/**
 * The stripped contents of the fenced blocks, in order (fences pair up left to right): the official
 * pattern /```(?:json|python)?\s*\n?([\s\S]*?)\n?```/g (Python's \s), read in one pass. A
 * block opens at the next "```", skips a "json" or "python" label (any other label stays part of
 * the block) and closes at the first "```" after the whitespace that follows; the optional
 * newlines only move whitespace that the strip removes anyway. When a fence never closes, no
 * later one can (the regex would retry each of them against the rest of the text).
 */
export function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf("```", from);
    if (open === -1) break;
    let i = open + 3;
    if (text.startsWith("json", i)) i += 4;
    else if (text.startsWith("python", i)) i += 6;
    const start = i;
    while (i < text.length && isPySpace(text.charCodeAt(i))) i++;
    const close = text.indexOf("```", i);
    if (close === -1) break;
    blocks.push(pyStrip(text.slice(start, close)));
    from = close + 3;
  }
  return blocks;
}

const containsAll = (text: string, keys: readonly string[]) => keys.every((k) => text.includes(k));
const containsAny = (text: string, keys: readonly string[]) => keys.some((k) => text.includes(k));

function chooseCandidate(text: string, spec: ShapeSpec): string | undefined {
  const blocks = fencedBlocks(text);
  if (spec.allKeys.length > 0) {
    const complete = blocks.find((b) => containsAll(b, spec.allKeys));
    if (complete !== undefined) return complete;
  }
  if (spec.anyKeys.length > 0) {
    const partial = blocks.find((b) => containsAny(b, spec.anyKeys));
    if (partial !== undefined) return partial;
  }
  return objectAroundFirstKey(text, spec.allKeys, spec.anyKeys);
}

/**
 * The `{…}` that starts at the last "{" before the first occurrence of the first key (in key
 * order, not text order) that occurs at all, closed by brace counting that ignores strings.
 */
function objectAroundFirstKey(text: string, allKeys: readonly string[], anyKeys: readonly string[]): string | undefined {
  let keyAt = -1;
  for (const key of [...allKeys, ...anyKeys]) {
    keyAt = text.indexOf(key);
    if (keyAt !== -1) break;
  }
  if (keyAt <= 0) return undefined; // at 0 there is no "{" before it
  const open = text.lastIndexOf("{", keyAt - 1);
  if (open === -1) return undefined;
  const close = matchingBrace(text, open);
  if (close === -1) return undefined;
  const candidate = text.slice(open, close + 1);
  if (allKeys.length > 0 && !containsAll(candidate, allKeys)) {
    return anyKeys.length > 0 && containsAny(candidate, anyKeys) ? candidate : undefined;
  }
  if (allKeys.length === 0 && anyKeys.length > 0 && !containsAny(candidate, anyKeys)) return undefined;
  return candidate;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x7b) depth++;
    else if (ch === 0x7d && --depth === 0) return i;
  }
  return -1;
}

// ------------------------------------------------------------------------------------------------
// Python literal rewriting
// ------------------------------------------------------------------------------------------------

/**
 * The official rewrite of Python-style text into JSON: every `\'` becomes `'` first (everywhere);
 * then strings in either quote become double-quoted (a `"` inside a single-quoted string is left
 * as is, which breaks the JSON); outside strings True/False/None become true/false/null unless a
 * letter or digit follows (nothing is checked before them).
 */
export function pythonLiteralsToJson(text: string): string {
  const source = text.replaceAll("\\'", "'");
  let out = "";
  let quote: string | undefined;
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (quote !== undefined) {
      if (ch === "\\") {
        out += source.slice(i, i + 2); // the escaped character is copied whatever it is
        i += 2;
        continue;
      }
      if (ch === quote) {
        out += '"';
        quote = undefined;
      } else out += ch;
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      out += '"';
      quote = ch;
      i++;
      continue;
    }
    const literal = pythonConstantAt(source, i);
    if (literal) {
      out += literal[1];
      i += literal[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

const PYTHON_CONSTANTS: ReadonlyArray<readonly [string, string]> = [
  ["True", "true"],
  ["False", "false"],
  ["None", "null"],
];

function pythonConstantAt(text: string, at: number): readonly [string, string] | undefined {
  for (const pair of PYTHON_CONSTANTS) {
    if (!text.startsWith(pair[0], at)) continue;
    const next = text.codePointAt(at + pair[0].length);
    if (next === undefined || !isPyAlnum(next)) return pair;
  }
  return undefined;
}

/**
 * Python 3.11's str.isalnum() for one code point: letters (L*) and numbers (N*) of Unicode 14.
 * JavaScript's property escapes follow a newer Unicode, so letters and digits assigned after 14.0
 * are excluded explicitly (they are unassigned, hence not alnum, for Python 3.11).
 */
function isPyAlnum(codePoint: number): boolean {
  if (!LETTER_OR_NUMBER.test(String.fromCodePoint(codePoint))) return false;
  return !ASSIGNED_AFTER_UNICODE_14.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
}
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const ASSIGNED_AFTER_UNICODE_14: ReadonlyArray<readonly [number, number]> = [
  [0x88f, 0x88f], [0xc5c, 0xc5c], [0xcdc, 0xcdc], [0x1c89, 0x1c8a], [0xa7cb, 0xa7cf], [0xa7d2, 0xa7d2],
  [0xa7d4, 0xa7d4], [0xa7da, 0xa7dc], [0xa7f1, 0xa7f1], [0x105c0, 0x105f3], [0x10940, 0x10959],
  [0x10d40, 0x10d65], [0x10d6f, 0x10d85], [0x10ec2, 0x10ec7], [0x1123f, 0x11240], [0x11380, 0x11389],
  [0x1138b, 0x1138b], [0x1138e, 0x1138e], [0x11390, 0x113b5], [0x113b7, 0x113b7], [0x113d1, 0x113d1],
  [0x113d3, 0x113d3], [0x116d0, 0x116e3], [0x11bc0, 0x11be0], [0x11bf0, 0x11bf9], [0x11db0, 0x11ddb],
  [0x11de0, 0x11de9], [0x11f02, 0x11f02], [0x11f04, 0x11f10], [0x11f12, 0x11f33], [0x11f50, 0x11f59],
  [0x1342f, 0x1342f], [0x13441, 0x13446], [0x13460, 0x143fa], [0x16100, 0x1611d], [0x16130, 0x16139],
  [0x16d40, 0x16d6c], [0x16d70, 0x16d79], [0x16ea0, 0x16eb8], [0x16ebb, 0x16ed3], [0x16ff2, 0x16ff6],
  [0x187f8, 0x187ff], [0x18cff, 0x18cff], [0x18d09, 0x18d1e], [0x18d80, 0x18df2], [0x1b132, 0x1b132],
  [0x1b155, 0x1b155], [0x1ccf0, 0x1ccf9], [0x1d2c0, 0x1d2d3], [0x1df25, 0x1df2a], [0x1e030, 0x1e06d],
  [0x1e4d0, 0x1e4eb], [0x1e4f0, 0x1e4f9], [0x1e5d0, 0x1e5ed], [0x1e5f0, 0x1e5fa], [0x1e6c0, 0x1e6de],
  [0x1e6e0, 0x1e6e2], [0x1e6e4, 0x1e6e5], [0x1e6e7, 0x1e6ed], [0x1e6f0, 0x1e6f4], [0x1e6fe, 0x1e6ff],
  [0x2b739, 0x2b73f], [0x2cea2, 0x2cead], [0x2ebf0, 0x2ee5d], [0x31350, 0x33479],
];

/**
 * `(a, b, …)` becomes `[a, b, …]` between `"<field>": [` and the first `]` that is followed by
 * optional whitespace and `,` or `}`; so tuples after an inner list's closing bracket are left alone.
 * This is the official substitution
 *   ("<field>"\s*:\s*\[)([\s\S]*?)(\]\s*[,}])  ->  head + body with \(([^)]*)\) -> [\1] + tail
 * (Python's \s), read in one pass: the head can be read in only one way, and whether a "]" ends
 * the body does not depend on where the body began, so once no "]" ends one, none ends a later one.
 */
export function bracketTuplesIn(text: string, field: string): string {
  const key = `"${field}"`;
  let out = "";
  let copied = 0;
  let from = 0;
  for (;;) {
    const at = text.indexOf(key, from);
    if (at === -1) break;
    const bodyStart = arrayOpenedAfterKey(text, at + key.length);
    if (bodyStart === -1) {
      from = at + 1;
      continue;
    }
    const tail = bodyEnd(text, bodyStart);
    if (!tail) break;
    out += text.slice(copied, bodyStart) + bracketTuples(text.slice(bodyStart, tail.bracket));
    copied = tail.bracket;
    from = tail.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const skipPySpace = (text: string, from: number): number => {
  let i = from;
  while (i < text.length && isPySpace(text.charCodeAt(i))) i++;
  return i;
};

/** After `"<field>"`: the index just past `\s*:\s*[`, or -1. */
function arrayOpenedAfterKey(text: string, from: number): number {
  let i = skipPySpace(text, from);
  if (text.charCodeAt(i) !== 0x3a) return -1;
  i = skipPySpace(text, i + 1);
  return text.charCodeAt(i) === 0x5b ? i + 1 : -1;
}

/** The first `]\s*[,}]` at or after `from`: where its "]" is and where it ends. */
function bodyEnd(text: string, from: number): { bracket: number; end: number } | undefined {
  for (let b = text.indexOf("]", from); b !== -1; b = text.indexOf("]", b + 1)) {
    const t = skipPySpace(text, b + 1);
    const c = text.charCodeAt(t);
    if (c === 0x2c || c === 0x7d) return { bracket: b, end: t + 1 };
  }
  return undefined;
}

/** \(([^)]*)\) -> [\1], left to right: a "(" pairs with the first ")" after it; none after it ends the work. */
function bracketTuples(body: string): string {
  let out = "";
  let copied = 0;
  for (let open = body.indexOf("("); open !== -1; open = body.indexOf("(", copied)) {
    const close = body.indexOf(")", open + 1);
    if (close === -1) break;
    out += body.slice(copied, open) + "[" + body.slice(open + 1, close) + "]";
    copied = close + 1;
  }
  return copied === 0 ? body : out + body.slice(copied);
}

// ------------------------------------------------------------------------------------------------
// JSON decoding with the official run's failure modes
// ------------------------------------------------------------------------------------------------

/**
 * Deepest container nesting json.loads survives inside the official CLI (single-file mode, as
 * scripts/format_response.sh runs it, CPython 3.11 recursion limit 1000): 989 decodes, 990 raises
 * RecursionError, which the formatter does not catch.
 */
export const OFFICIAL_JSON_MAX_DEPTH = 989;

function decodePythonJson(text: string): Step<PyValue> {
  let value: PyValue;
  try {
    value = pyJsonLoads(text);
  } catch (error) {
    if (error instanceof PyRecursionError) return { crash: recursionCrash() };
    if (error instanceof PyJsonError) {
      if (prefixNestingExceeds(text, error.position, OFFICIAL_JSON_MAX_DEPTH)) return { crash: recursionCrash() };
      if (error.message.startsWith("Exceeds the integer digit limit")) {
        return { crash: { error: "ValueError", detail: "json.loads: an integer of more than 4300 digits" } };
      }
      return { invalid: `the chosen text is not JSON (${error.message})` };
    }
    return { invalid: `the chosen text is not JSON (${(error as Error).message})` };
  }
  if (nestingDepth(value) > OFFICIAL_JSON_MAX_DEPTH) return { crash: recursionCrash() };
  return { value };
}

function recursionCrash(): OfficialCrash {
  return { error: "RecursionError", detail: `json.loads: containers nested more than ${OFFICIAL_JSON_MAX_DEPTH} deep` };
}

/** Whether the (valid JSON) prefix text[0, end) opens more than `limit` nested containers at some point. */
function prefixNestingExceeds(text: string, end: number, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < end; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      if (++depth > limit) return true;
    } else if (ch === "]" || ch === "}") depth--;
  }
  return false;
}

function nestingDepth(value: PyValue): number {
  let children: Iterable<PyValue>;
  if (Array.isArray(value)) children = value;
  else if (value instanceof Map) children = value.values();
  else return 0;
  let deepest = 0;
  for (const child of children) deepest = Math.max(deepest, nestingDepth(child));
  return deepest + 1;
}

// ------------------------------------------------------------------------------------------------
// Reading the task's fields from the decoded object
// ------------------------------------------------------------------------------------------------

/** dict.get(key) is None: the key is absent or null. */
const isNone = (value: PyValue | undefined): value is null | undefined => value === null || value === undefined;

function readObjects(answer: PyDict): Step<ReadFields> {
  const count = answer.get("number_of_objects");
  if (isNone(count)) return { invalid: "number_of_objects is missing or null" };
  const n = formatterInt(count, "number_of_objects");
  if (!("value" in n)) return n;
  const boxes = answer.get("bounding_boxes");
  return { value: { count: n.value, localization: isNone(boxes) ? [] : boxesIn(boxes) } };
}

function readInstances(answer: PyDict): Step<ReadFields> {
  const count = answer.get("number_of_instances");
  const boxes = answer.get("bounding_boxes");
  if (isNone(count) && isNone(boxes)) return { invalid: "number_of_instances and bounding_boxes are both missing or null" };
  const localization = isNone(boxes) ? [] : boxesIn(boxes);
  if (isNone(count)) {
    return { value: { localization, count: NO_VALID_RESPONSE, note: "number_of_instances is missing or null (the boxes are kept)" } };
  }
  const n = formatterInt(count, "number_of_instances");
  if (!("value" in n)) return n;
  return { value: { count: n.value, localization } };
}

function readBoxesOnly(answer: PyDict): Step<ReadFields> {
  const boxes = answer.get("bounding_boxes");
  if (isNone(boxes)) return { invalid: "bounding_boxes is missing or null" };
  return { value: { localization: boxesIn(boxes) } };
}

function readPlacement(answer: PyDict): Step<ReadFields> {
  const boxes = answer.get("bounding_boxes");
  const feasible = answer.get("placement_feasibility");
  if (isNone(boxes) || isNone(feasible)) return { invalid: "bounding_boxes or placement_feasibility is missing or null" };
  return { value: { localization: boxesIn(boxes), feasibility: feasibilityOf(feasible) } };
}

/** A path needs at least this many readable points. */
export const MIN_PATH_POINTS = 3;

function readPath(answer: PyDict): Step<ReadFields> {
  const points = answer.get("points");
  if (isNone(points)) return { invalid: "points is missing or null" };
  const kept = pointsIn(points);
  if (kept.length < MIN_PATH_POINTS) return { invalid: `only ${kept.length} readable point(s); at least ${MIN_PATH_POINTS} are needed` };
  return { value: { points: kept } };
}

/** The formatter's int(x) where TypeError/ValueError mean "invalid" and OverflowError escapes. */
function formatterInt(value: PyValue, key: string): Step<bigint> {
  if (typeof value === "bigint") return { value };
  if (typeof value === "boolean") return { value: value ? 1n : 0n };
  if (typeof value === "number") {
    if (Number.isNaN(value)) return { invalid: `${key} is NaN` };
    if (!Number.isFinite(value)) return { crash: { error: "OverflowError", detail: `int() of ${key} = ${value > 0 ? "inf" : "-inf"}` } };
    return { value: BigInt(Math.trunc(value)) };
  }
  if (typeof value === "string") {
    const n = pyIntFromString(value);
    return n === null ? { invalid: `${key} is not an integer string (int() fails)` } : { value: n };
  }
  return { invalid: `${key} is ${Array.isArray(value) ? "a list" : "an object"}, not a number` };
}

/** Boxes that read as [x1, y1, x2, y2]; other entries are dropped. A non-list gives []. */
export function boxesIn(value: PyValue): Box[] {
  if (!Array.isArray(value)) return [];
  const boxes: Box[] = [];
  for (const entry of value) {
    const box = boxOf(entry);
    if (box) boxes.push(box);
  }
  return boxes;
}

/** [x1, y1, x2, y2], [[x1, y1], [x2, y2]] (longer corners allowed) or [[x1, y1, x2, y2, …]]. */
function boxOf(entry: PyValue): Box | undefined {
  if (!Array.isArray(entry)) return undefined;
  if (entry.length === 4) return numbersOf(entry) as Box | undefined;
  if (entry.length === 2) {
    const [a, b] = entry;
    if (Array.isArray(a) && a.length >= 2 && Array.isArray(b) && b.length >= 2) return numbersOf([a[0]!, a[1]!, b[0]!, b[1]!]) as Box | undefined;
    return undefined;
  }
  if (entry.length === 1) {
    const inner = entry[0];
    if (Array.isArray(inner) && inner.length >= 4) return numbersOf(inner.slice(0, 4)) as Box | undefined;
  }
  return undefined;
}

/** Points that read as [x, y] or [[x, y, …]]; other entries are dropped. A non-list gives []. */
export function pointsIn(value: PyValue): Point[] {
  if (!Array.isArray(value)) return [];
  const points: Point[] = [];
  for (const entry of value) {
    const point = pointOf(entry);
    if (point) points.push(point);
  }
  return points;
}

function pointOf(entry: PyValue): Point | undefined {
  if (!Array.isArray(entry)) return undefined;
  if (entry.length === 2) return numbersOf(entry) as Point | undefined;
  if (entry.length === 1) {
    const inner = entry[0];
    if (Array.isArray(inner) && inner.length >= 2) return numbersOf(inner.slice(0, 2)) as Point | undefined;
  }
  return undefined;
}

function numbersOf(values: readonly PyValue[]): number[] | undefined {
  const out: number[] = [];
  for (const v of values) {
    const n = coordinateNumber(v);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

/**
 * The formatter's number for one coordinate: Python float(v) (booleans count, numeric strings
 * count, a float() error or overflow means none), non-finite means none. An integral value below
 * 1e15 becomes a Python int, which only matters here in that -0.0 becomes 0.
 */
export function coordinateNumber(value: PyValue | undefined): number | undefined {
  let f: number | null;
  if (typeof value === "number") f = value;
  else if (typeof value === "bigint") f = Number(value); // rounds like float(int); too large -> Infinity
  else if (typeof value === "boolean") f = value ? 1 : 0;
  else if (typeof value === "string") f = pyFloat(value);
  else return undefined;
  if (f === null || !Number.isFinite(f)) return undefined;
  return f === 0 ? 0 : f;
}

const YES_WORDS = new Set(["true", "1", "yes"]);

/** A bool is kept; anything else is true only when str(v).strip().lower() is "true", "1" or "yes". */
export function feasibilityOf(value: PyValue): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return YES_WORDS.has(pyStrip(value).toLowerCase());
  if (typeof value === "bigint") return value === 1n; // str(1) == "1"; no other int qualifies
  return false; // str() of a float ("1.0"), list or dict never matches
}
