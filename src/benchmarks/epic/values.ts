import { pyStrip, pyIsDigit } from "../../core/pycompat/text.js";
import { pyFloat } from "../../core/pycompat/float.js";
import { pyIntFromString } from "../../core/pycompat/int.js";

/**
 * Reading the formatted reply fields and the ground-truth text fields with the official
 * conventions (epic_eval/utils/parsers.py, gt_loader.py): the sentinels "Not Required" and
 * "No Valid Response", lists whose first element is the value, counts through int(), booleans
 * through a small word list. A sentinel wrapped in a list (as the formatter writes it) is not a
 * sentinel: it reads as an unparseable value, which is what the official scorers do.
 */
export const NOT_REQUIRED = "Not Required";
export const NO_VALID_RESPONSE = "No Valid Response";

export function isNotRequired(value: unknown): boolean {
  return typeof value === "string" && pyStrip(value).toLowerCase() === NOT_REQUIRED.toLowerCase();
}

export function isNoValidResponse(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== "string") return false;
  return ["no valid response", "no_valid_response", "invalid response", "no response", ""].includes(pyStrip(value).toLowerCase());
}

export const first = (value: unknown): unknown => (Array.isArray(value) ? (value.length > 0 ? value[0] : null) : value);

/** int(x) for a count: bools and numbers truncate; digit strings; else int(float(s)); otherwise null. */
export function readCount(value: unknown): number | null {
  const raw = Array.isArray(value) && value.length > 0 ? value[0] : value;
  if (typeof raw === "boolean") return raw ? 1 : 0;
  if (typeof raw === "bigint") return Number(raw);
  if (typeof raw === "number") return Number.isFinite(raw) ? Math.trunc(raw) + 0 : null;
  if (typeof raw === "string") {
    const s = pyStrip(raw);
    if (pyIsDigit(s)) {
      const n = pyIntFromString(s);
      if (n !== null) return Number(n);
    }
    const f = pyFloat(s);
    return f !== null && Number.isFinite(f) ? Math.trunc(f) + 0 : null;
  }
  return null;
}

/** A ground-truth flag: bool, number (non-zero), or "true"/"yes"/"1". */
export function readFlag(value: unknown): boolean | null {
  const v = first(value);
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return ["true", "yes", "1"].includes(pyStrip(v).toLowerCase());
  return false;
}

/** A predicted or true feasibility: bool, number, or true/yes/1 and false/no/0; otherwise null. */
export function readBinary(value: unknown): boolean | null {
  const raw = Array.isArray(value) && value.length > 0 ? value[0] : value;
  if (typeof raw === "boolean") return raw;
  if (typeof raw === "number") return raw !== 0;
  if (typeof raw === "string") {
    const s = pyStrip(raw).toLowerCase();
    if (["true", "yes", "1"].includes(s)) return true;
    if (["false", "no", "0"].includes(s)) return false;
  }
  return null;
}

/** float() of a box or point coordinate; null where Python raises. */
function coordinate(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return pyFloat(v);
  return null;
}

/** Boxes: entries that are lists of at least 4 float()-able values (the first 4 kept); others dropped. */
export function readBoxes(value: unknown): number[][] {
  if (!Array.isArray(value)) return [];
  const out: number[][] = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length < 4) continue;
    const quad = item.slice(0, 4).map(coordinate);
    if (quad.every((v) => v !== null)) out.push(quad as number[]);
  }
  return out;
}

/** Points: entries that are lists of at least 2 float()-able values. */
export function readPoints(value: unknown): Array<[number, number]> {
  if (!Array.isArray(value)) return [];
  const out: Array<[number, number]> = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length < 2) continue;
    const x = coordinate(item[0]);
    const y = coordinate(item[1]);
    if (x !== null && y !== null) out.push([x, y]);
  }
  return out;
}
