import type { PyValue } from "./json.js";

/**
 * Python's str(x) for the scalar values that appear as ids (used where the official code builds
 * dict keys with str(question_id)). A list or object gives its JSON; one nested too deeply for
 * JSON.stringify (where Python's str() raises RecursionError) gives a fixed text instead of a
 * stack overflow (the loaders report such an id as not a string or integer).
 */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return pyFloatOrIntRepr(value);
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return "<nested too deeply>";
  }
}

/** JSON.parse cannot tell 1 from 1.0; integral numbers are treated as Python ints here. */
function pyFloatOrIntRepr(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) <= Number.MAX_SAFE_INTEGER) return String(x);
  return pyFloatRepr(x);
}

/** Python's repr(float): shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e");
  const exp = Number(expText);
  const digits = mantissa!.replace("-", "").replace(".", "");
  const sign = x < 0 ? "-" : "";
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intDigits = digits.padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${intDigits.slice(0, exp + 1)}.${frac || "0"}`;
}

/**
 * A key with Python dict-key equality for ids decoded from JSON: 1, 1.0 and True are the same key,
 * "1" is another. Returns undefined for values Python cannot hash (lists, dicts) and NaN (never equal).
 */
export function pyHashKey(value: PyValue | undefined): string | undefined {
  if (value === undefined || value === null) return "none";
  if (typeof value === "string") return `s:${value}`;
  if (typeof value === "boolean") return `n:${value ? 1 : 0}`;
  if (typeof value === "bigint") return `n:${value}`;
  if (typeof value === "number") {
    if (Number.isNaN(value)) return undefined;
    if (Number.isInteger(value)) return `n:${BigInt(value)}`;
    return `f:${value}`;
  }
  return undefined;
}
