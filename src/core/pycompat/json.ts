import { PY_INT_MAX_STR_DIGITS } from "./int.js";

/**
 * A value as Python's json module decodes it: integers stay exact (bigint), floats are numbers
 * (NaN and +/-Infinity included), objects are Maps so any key is safe.
 */
export type PyValue = null | boolean | bigint | number | string | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue>;

export class PyJsonError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} (char ${position})`);
  }
}

/** Nesting depth past which CPython's decoder raises RecursionError (default recursion limit 1000). */
export const PY_JSON_MAX_DEPTH = 990;

export class PyRecursionError extends Error {}

const JSON_SPACE = /[ \t\n\r]*/y;

/**
 * Python 3.11 `json.loads(text)` (strict mode): NaN/Infinity accepted, control characters inside
 * strings rejected, a leading BOM rejected, exact big integers, integers of more than 4300 digits
 * rejected. Throws PyJsonError (or PyRecursionError for very deep nesting).
 */
export function pyJsonLoads(text: string): PyValue {
  if (text.startsWith("\ufeff")) throw new PyJsonError("Unexpected UTF-8 BOM", 0);
  const parser = new Parser(text);
  let pos = parser.skipSpace(0);
  const [value, end] = parser.value(pos, 0);
  pos = parser.skipSpace(end);
  if (pos !== text.length) throw new PyJsonError("Extra data", pos);
  return value;
}

/** Like pyJsonLoads but returns undefined instead of throwing. */
export function tryPyJsonLoads(text: string): PyValue | undefined {
  try {
    return pyJsonLoads(text);
  } catch {
    return undefined;
  }
}

class Parser {
  constructor(private readonly s: string) {}

  skipSpace(pos: number): number {
    JSON_SPACE.lastIndex = pos;
    JSON_SPACE.exec(this.s);
    return JSON_SPACE.lastIndex;
  }

  value(pos: number, depth: number): [PyValue, number] {
    const s = this.s;
    const ch = s[pos];
    switch (ch) {
      case '"':
        return this.string(pos + 1);
      case "{":
        return this.object(pos + 1, depth + 1);
      case "[":
        return this.array(pos + 1, depth + 1);
      case "n":
        if (s.startsWith("null", pos)) return [null, pos + 4];
        break;
      case "t":
        if (s.startsWith("true", pos)) return [true, pos + 4];
        break;
      case "f":
        if (s.startsWith("false", pos)) return [false, pos + 5];
        break;
      case "N":
        if (s.startsWith("NaN", pos)) return [NaN, pos + 3];
        break;
      case "I":
        if (s.startsWith("Infinity", pos)) return [Infinity, pos + 8];
        break;
      case "-":
        if (s.startsWith("-Infinity", pos)) return [-Infinity, pos + 9];
        break;
    }
    const number = this.number(pos);
    if (number) return number;
    throw new PyJsonError("Expecting value", pos);
  }

  number(pos: number): [PyValue, number] | undefined {
    const s = this.s;
    let i = pos;
    if (s[i] === "-") i++;
    if (s[i] === "0") i++;
    else if (s[i] !== undefined && s[i]! >= "1" && s[i]! <= "9") {
      while (isAsciiDigit(s[i])) i++;
    } else return undefined;
    const intEnd = i;
    let isFloat = false;
    if (s[i] === "." && isAsciiDigit(s[i + 1])) {
      i += 2;
      while (isAsciiDigit(s[i])) i++;
      isFloat = true;
    }
    if (s[i] === "e" || s[i] === "E") {
      let j = i + 1;
      if (s[j] === "+" || s[j] === "-") j++;
      if (isAsciiDigit(s[j])) {
        while (isAsciiDigit(s[j])) j++;
        i = j;
        isFloat = true;
      }
    }
    const literal = s.slice(pos, i);
    if (isFloat) return [Number(literal), i];
    const digitCount = intEnd - pos - (s[pos] === "-" ? 1 : 0);
    if (digitCount > PY_INT_MAX_STR_DIGITS) throw new PyJsonError("Exceeds the integer digit limit", pos);
    return [BigInt(literal), i];
  }

  string(pos: number): [string, number] {
    const s = this.s;
    let out = "";
    let i = pos;
    for (;;) {
      const start = i;
      while (i < s.length && s[i] !== '"' && s[i] !== "\\" && s.charCodeAt(i) >= 0x20) i++;
      out += s.slice(start, i);
      if (i >= s.length) throw new PyJsonError("Unterminated string", pos - 1);
      const ch = s[i]!;
      if (ch === '"') return [out, i + 1];
      if (ch !== "\\") throw new PyJsonError("Invalid control character", i);
      const esc = s[i + 1];
      i += 2;
      switch (esc) {
        case '"': out += '"'; break;
        case "\\": out += "\\"; break;
        case "/": out += "/"; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          let code = this.hex4(i);
          i += 4;
          if (code >= 0xd800 && code <= 0xdbff && s[i] === "\\" && s[i + 1] === "u") {
            const low = this.hex4(i + 2);
            if (low >= 0xdc00 && low <= 0xdfff) {
              code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
              i += 6;
            }
          }
          out += String.fromCodePoint(code);
          break;
        }
        default:
          throw new PyJsonError("Invalid \\escape", i - 2);
      }
    }
  }

  hex4(pos: number): number {
    const digits = this.s.slice(pos, pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new PyJsonError("Invalid \\uXXXX escape", pos - 1);
    return parseInt(digits, 16);
  }

  array(pos: number, depth: number): [PyValue[], number] {
    if (depth > PY_JSON_MAX_DEPTH) throw new PyRecursionError("maximum recursion depth exceeded");
    const out: PyValue[] = [];
    let i = this.skipSpace(pos);
    if (this.s[i] === "]") return [out, i + 1];
    for (;;) {
      const [item, end] = this.value(i, depth);
      out.push(item);
      i = this.skipSpace(end);
      if (this.s[i] === "]") return [out, i + 1];
      if (this.s[i] !== ",") throw new PyJsonError("Expecting ',' delimiter", i);
      i = this.skipSpace(i + 1);
    }
  }

  object(pos: number, depth: number): [PyDict, number] {
    if (depth > PY_JSON_MAX_DEPTH) throw new PyRecursionError("maximum recursion depth exceeded");
    const out: PyDict = new Map();
    let i = this.skipSpace(pos);
    if (this.s[i] === "}") return [out, i + 1];
    for (;;) {
      if (this.s[i] !== '"') throw new PyJsonError("Expecting property name enclosed in double quotes", i);
      const [key, keyEnd] = this.string(i + 1);
      i = this.skipSpace(keyEnd);
      if (this.s[i] !== ":") throw new PyJsonError("Expecting ':' delimiter", i);
      i = this.skipSpace(i + 1);
      const [item, end] = this.value(i, depth);
      out.set(key, item);
      i = this.skipSpace(end);
      if (this.s[i] === "}") return [out, i + 1];
      if (this.s[i] !== ",") throw new PyJsonError("Expecting ',' delimiter", i);
      i = this.skipSpace(i + 1);
    }
  }
}

function isAsciiDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

/** Python's json.dumps for a list of integers: "[1, 2, 3]". */
export function pyDumpsIntList(ids: readonly bigint[]): string {
  return `[${ids.map(String).join(", ")}]`;
}

/** Convert a decoded Python value to plain JSON-safe JavaScript (for logs and reports). */
export function pyToPlain(value: PyValue): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : String(value);
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return value.map(pyToPlain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, pyToPlain(v)]));
  return value;
}
