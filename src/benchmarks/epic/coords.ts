import { pyFloat } from "../../core/pycompat/float.js";
import { pyIntFromString } from "../../core/pycompat/int.js";
import type { PyValue } from "../../core/pycompat/json.js";
import { pyIsDigit, pyStrip } from "../../core/pycompat/text.js";

/**
 * Coordinates and stored-field parsing as the official EPIC-Bench evaluator does them
 * (epic_eval/utils/coords.py, epic_eval/utils/parsers.py, and the per-model-family modes of
 * epic_eval/run_batch_evaluation.py).
 */

// ------------------------------------------------------------------------------------------------
// Coordinate modes
// ------------------------------------------------------------------------------------------------

export const COORD_MODES = ["auto", "absolute", "normalized_0_1", "normalized_0_1000"] as const;
export type CoordMode = (typeof COORD_MODES)[number];
/** What "auto" resolves to. */
export type PixelCoordMode = Exclude<CoordMode, "auto">;

const COORD_MODE_ALIASES = new Map<string, PixelCoordMode>([
  ["normalized", "normalized_0_1"],
  ["normalized_1000", "normalized_0_1000"],
]);
const EXPLICIT_MODES = new Set<string>(["absolute", "normalized_0_1", "normalized_0_1000"]);

/**
 * The canonical spelling of a mode: empty/missing -> "auto", the legacy aliases "normalized" and
 * "normalized_1000" -> their canonical names; any other string is returned unchanged (and then
 * behaves like "auto" everywhere).
 */
export function canonicalCoordMode(mode: string | null | undefined): string {
  if (!mode) return "auto";
  return COORD_MODE_ALIASES.get(mode) ?? mode;
}

/**
 * The mode actually used for a set of raw values. Explicit modes win. Otherwise (auto or an
 * unknown name): no values -> absolute; every value in [0, 1] -> normalized_0_1; largest value
 * above max(h, w) -> normalized_0_1000; else absolute. NaN compares as Python's max()/min() do.
 */
export function resolveCoordMode(mode: string | null | undefined, values: readonly number[], h: number, w: number): PixelCoordMode {
  const canonical = canonicalCoordMode(mode);
  if (EXPLICIT_MODES.has(canonical)) return canonical as PixelCoordMode;
  if (values.length === 0) return "absolute";
  const largest = pyMaxOf(values);
  const smallest = pyMinOf(values);
  if (largest <= 1.0 && smallest >= 0) return "normalized_0_1";
  if (largest > pyMax(h, w)) return "normalized_0_1000";
  return "absolute";
}

/** [sx, sy] that multiply raw x and y into pixels. */
export function scaleFactors(mode: PixelCoordMode, h: number, w: number): [number, number] {
  if (mode === "normalized_0_1") return [w, h];
  if (mode === "normalized_0_1000") return [w / 1000.0, h / 1000.0];
  return [1.0, 1.0];
}

/**
 * Boxes to integer pixel boxes: scale (mode resolved over every value of every box), sort each
 * corner pair, clip x to [0, w] and y to [0, h], drop boxes without positive width and height,
 * truncate to integers. Entries with fewer than 4 values are skipped (their values still count
 * for auto detection).
 */
export function boxesToPixels(boxes: ReadonlyArray<readonly number[]>, mode: string | null | undefined, h: number, w: number): Array<[number, number, number, number]> {
  if (boxes.length === 0) return [];
  const [sx, sy] = scaleFactors(resolveCoordMode(mode, boxes.flat(), h, w), h, w);
  const out: Array<[number, number, number, number]> = [];
  for (const box of boxes) {
    if (box.length < 4) continue;
    const [ax, ay, bx, by] = [box[0]! * sx, box[1]! * sy, box[2]! * sx, box[3]! * sy];
    const x1 = clip(pyMin(ax, bx), w);
    const x2 = clip(pyMax(ax, bx), w);
    const y1 = clip(pyMin(ay, by), h);
    const y2 = clip(pyMax(ay, by), h);
    if (x2 > x1 && y2 > y1) out.push([Math.trunc(x1), Math.trunc(y1), Math.trunc(x2), Math.trunc(y2)]);
  }
  return out;
}

/** Points to float pixel points: scale, clip x to [0, w-1] and y to [0, h-1]. Short entries are skipped. */
export function pointsToPixels(points: ReadonlyArray<readonly number[]>, mode: string | null | undefined, h: number, w: number): Array<[number, number]> {
  if (points.length === 0) return [];
  const [sx, sy] = scaleFactors(resolveCoordMode(mode, points.flat(), h, w), h, w);
  const out: Array<[number, number]> = [];
  for (const point of points) {
    if (point.length < 2) continue;
    out.push([clip(point[0]! * sx, w - 1), clip(point[1]! * sy, h - 1)]);
  }
  return out;
}

export type PixelShapes =
  | { boxes: ReadonlyArray<readonly number[]> }
  | { points: ReadonlyArray<readonly number[]> };

/** boxesToPixels or pointsToPixels, by the shape given. */
export function toPixels(shapes: { boxes: ReadonlyArray<readonly number[]> }, mode: string | null | undefined, h: number, w: number): Array<[number, number, number, number]>;
export function toPixels(shapes: { points: ReadonlyArray<readonly number[]> }, mode: string | null | undefined, h: number, w: number): Array<[number, number]>;
export function toPixels(shapes: PixelShapes, mode: string | null | undefined, h: number, w: number): number[][] {
  return "boxes" in shapes ? boxesToPixels(shapes.boxes, mode, h, w) : pointsToPixels(shapes.points, mode, h, w);
}

/** max(0.0, min(v, limit)) with Python's comparison semantics (NaN -> 0.0). */
function clip(v: number, limit: number): number {
  return pyMax(0.0, pyMin(v, limit));
}

/** Python min(a, b): a unless b < a. */
function pyMin(a: number, b: number): number {
  return b < a ? b : a;
}
/** Python max(a, b): a unless b > a. */
function pyMax(a: number, b: number): number {
  return b > a ? b : a;
}
function pyMaxOf(values: readonly number[]): number {
  return values.reduce(pyMax);
}
function pyMinOf(values: readonly number[]): number {
  return values.reduce(pyMin);
}

// ------------------------------------------------------------------------------------------------
// Per-model-family defaults (run_batch_evaluation.py)
// ------------------------------------------------------------------------------------------------

/**
 * MODEL_COORD_MODES of the official batch evaluator, keyed by model family = the name of the
 * directory holding the std_format file, matched exactly. Families not listed keep each sample's
 * own coordinate_system (written by the formatter; "auto" by default).
 */
export const COORD_DEFAULTS: Readonly<Record<string, PixelCoordMode>> = Object.freeze({
  "Qwen2.5-VL": "absolute",
  "Qwen3-VL": "normalized_0_1000",
  "Qwen3.5-VL": "normalized_0_1000",
  InternVL3: "normalized_0_1000",
  "InternVL3.5": "normalized_0_1000",
  LLaVA: "normalized_0_1",
  Claude: "absolute",
  Gemini: "normalized_0_1000",
});

/**
 * The official batch rule: an explicit --coord-mode override wins, else the family's entry,
 * else undefined (use the per-sample field).
 */
export function officialCoordModeForFamily(family: string, override?: string | null): string | undefined {
  if (override) return override;
  return Object.hasOwn(COORD_DEFAULTS, family) ? COORD_DEFAULTS[family] : undefined;
}

/**
 * Our mapping from a model spec or name (e.g. "openai:Qwen/Qwen2.5-VL-72B-Instruct",
 * "gemini-2.5-pro", "anthropic:claude-sonnet-4") to the family default above; "auto" when no
 * family matches. Matching by name pattern is ours: the official script only matches directory
 * names exactly (its Qwen3.5 inference scripts write to "Qwen3_5", which the table does not
 * match, so there Qwen3.5 replies fall back to "auto"; we follow the table's evident intent).
 */
export function coordModeForModel(spec: string): CoordMode {
  const name = spec.toLowerCase();
  for (const [pattern, family] of FAMILY_PATTERNS) {
    if (pattern.test(name)) return COORD_DEFAULTS[family]!;
  }
  return "auto";
}

const FAMILY_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/qwen[-_ ]?2[._]5[-_ ]?vl/, "Qwen2.5-VL"],
  [/qwen[-_ ]?3[._]5/, "Qwen3.5-VL"],
  [/qwen[-_ ]?3[-_ ]?vl/, "Qwen3-VL"],
  [/internvl[-_ ]?3[._]5/, "InternVL3.5"],
  [/internvl[-_ ]?3(?![0-9])/, "InternVL3"],
  [/llava/, "LLaVA"],
  [/claude/, "Claude"],
  [/gemini/, "Gemini"],
];

// ------------------------------------------------------------------------------------------------
// Stored-field parsers (parsers.py). Inputs are values as Python's json module decodes them
// (pyJsonLoads: ints are bigint, floats are number); undefined stands for a missing field (None).
// ------------------------------------------------------------------------------------------------

/** Where the official parser raises instead of returning (evaluate.py then scores the sample 0, invalid). */
export interface OfficialRaise {
  raises: "OverflowError" | "ValueError";
}

const NOT_REQUIRED_TEXT = "not required";
const NO_VALID_TEXTS = new Set(["no valid response", "no_valid_response", "invalid response", "no response", ""]);

/** is_not_required: a string that reads "Not Required" once stripped and lower-cased. */
export function isNotRequired(value: PyValue | undefined): boolean {
  return typeof value === "string" && pyStrip(value).toLowerCase() === NOT_REQUIRED_TEXT;
}

/**
 * is_no_valid_response: None, or a string reading "no valid response", "no_valid_response",
 * "invalid response", "no response" or "" once stripped and lower-cased. A list is never one,
 * so the formatter's ["No Valid Response"] is NOT recognised by the scorers (they then read it
 * as an empty box list / no count / no path / no feasibility).
 */
export function isNoValidResponse(value: PyValue | undefined): boolean {
  if (value === null || value === undefined) return true;
  return typeof value === "string" && NO_VALID_TEXTS.has(pyStrip(value).toLowerCase());
}

const firstIfList = (value: PyValue | undefined) => (Array.isArray(value) && value.length > 0 ? value[0] : value);

/**
 * parse_count: first element of a non-empty list; bool/int/float through int(); a string of
 * digits (str.isdigit) through int(), else through int(float(s)). null where Python returns None.
 */
export function parseCount(value: PyValue | undefined): bigint | null | OfficialRaise {
  const raw = firstIfList(value);
  if (typeof raw === "boolean") return raw ? 1n : 0n;
  if (typeof raw === "bigint") return raw;
  if (typeof raw === "number") return truncatedFloat(raw);
  if (typeof raw === "string") {
    const text = pyStrip(raw);
    if (pyIsDigit(text)) return pyIntFromString(text) ?? { raises: "ValueError" }; // e.g. "²", or > 4300 digits
    const f = pyFloat(text);
    return f === null ? null : truncatedFloat(f);
  }
  return null;
}

/** int(x) of a float inside the parser's try: NaN -> None (ValueError caught), ±inf raises. */
function truncatedFloat(x: number): bigint | null | OfficialRaise {
  if (Number.isNaN(x)) return null;
  if (!Number.isFinite(x)) return { raises: "OverflowError" };
  return BigInt(Math.trunc(x));
}

/**
 * parse_binary: first element of a non-empty list; bools as they are; numbers by truthiness
 * (NaN is true); strings "true"/"yes"/"1" and "false"/"no"/"0" after strip+lower; else null.
 */
export function parseBinary(value: PyValue | undefined): boolean | null {
  const raw = firstIfList(value);
  if (typeof raw === "boolean") return raw;
  if (typeof raw === "bigint") return raw !== 0n;
  if (typeof raw === "number") return raw !== 0; // NaN !== 0 is true, as bool(nan)
  if (typeof raw === "string") {
    const s = pyStrip(raw).toLowerCase();
    if (s === "true" || s === "yes" || s === "1") return true;
    if (s === "false" || s === "no" || s === "0") return false;
  }
  return null;
}

/** parse_path_points: [x, y] floats from every list entry of length >= 2 whose first two values float() accepts. */
export function parsePathPoints(value: PyValue | undefined): Array<[number, number]> | OfficialRaise {
  return parseLeadingFloats(value, 2) as Array<[number, number]> | OfficialRaise;
}

/** parse_localization_bboxes: [x1, y1, x2, y2] floats from every list entry of length >= 4. */
export function parseLocalizationBoxes(value: PyValue | undefined): Array<[number, number, number, number]> | OfficialRaise {
  return parseLeadingFloats(value, 4) as Array<[number, number, number, number]> | OfficialRaise;
}

function parseLeadingFloats(value: PyValue | undefined, width: number): number[][] | OfficialRaise {
  if (!Array.isArray(value)) return [];
  const out: number[][] = [];
  entries: for (const entry of value) {
    if (!Array.isArray(entry) || entry.length < width) continue;
    const numbers: number[] = [];
    for (const v of entry.slice(0, width)) {
      const f = pythonFloat(v);
      if (f === "overflow") return { raises: "OverflowError" };
      if (f === undefined) continue entries; // TypeError / ValueError: entry skipped
      numbers.push(f);
    }
    out.push(numbers);
  }
  return out;
}

/** Python float(v): undefined where it raises TypeError/ValueError, "overflow" for an int beyond float range. */
function pythonFloat(v: PyValue): number | undefined | "overflow" {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    const f = Number(v);
    return Number.isFinite(f) ? f : "overflow";
  }
  if (typeof v === "string") return pyFloat(v) ?? undefined;
  return undefined;
}

export function isOfficialRaise(value: unknown): value is OfficialRaise {
  return typeof value === "object" && value !== null && "raises" in value;
}
