import { toNumericAscii } from "./text.js";

/**
 * Python's float(x) for JSON values: numbers as they are, booleans as 1/0, strings by Python's
 * rules (surrounding Unicode whitespace, Unicode digits, underscores between digits, inf/nan).
 * Returns null where Python raises.
 */
export function pyFloat(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "string") return null;
  const text = toNumericAscii(value).replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) {
    const sign = special[1] === "-" ? -1 : 1;
    return special[2]!.toLowerCase() === "nan" ? NaN : sign * Infinity;
  }
  const digits = "[0-9](?:_?[0-9])*";
  const pattern = new RegExp(`^[+-]?(?:${digits}(?:\\.(?:${digits})?)?|\\.${digits})(?:[eE][+-]?${digits})?$`);
  if (!pattern.test(text)) return null;
  return Number(text.replaceAll("_", ""));
}
