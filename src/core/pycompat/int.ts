import { toNumericAscii } from "./text.js";
import type { PyValue } from "./json.js";

/** CPython 3.11 refuses int<->str conversions of more than this many decimal digits. */
export const PY_INT_MAX_STR_DIGITS = 4300;

/**
 * Python's int(text) in base 10. Unicode whitespace around the number and Unicode decimal digits
 * are accepted, as are single underscores between digits. Returns null where Python raises.
 */
export function pyIntFromString(text: string): bigint | null {
  const ascii = toNumericAscii(text);
  const match = /^[ \t\n\v\f\r]*([+-]?)([0-9](?:_?[0-9])*)[ \t\n\v\f\r]*$/.exec(ascii);
  if (!match) return null;
  const digits = match[2]!.replaceAll("_", "");
  if (digits.length > PY_INT_MAX_STR_DIGITS) return null;
  const value = BigInt(digits);
  return match[1] === "-" ? -value : value;
}

/** Python's int(x) for a value decoded from JSON. Returns null where Python raises. */
export function pyInt(value: PyValue): bigint | null {
  if (typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number") return Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
  if (typeof value === "string") return pyIntFromString(value);
  return null;
}
