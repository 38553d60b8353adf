import { isAsciiDigit, jsonStringEnd, skipJsonSpace } from "../reply-scan.js";
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

/** Why a text is not JSON, as plain data (building an Error, with its stack, is left to the caller that throws). */
export type PyJsonFailure = { kind: "syntax"; message: string; position: number } | { kind: "recursion" };
export type PyJsonDecoded = { ok: true; value: PyValue } | { ok: false; failure: PyJsonFailure };

/**
 * Python 3.11 `json.loads(text)` (strict mode): NaN/Infinity accepted, control characters inside
 * strings rejected, a leading BOM rejected, exact big integers, integers of more than 4300 digits
 * rejected. Throws PyJsonError (or PyRecursionError for very deep nesting).
 */
export function pyJsonLoads(text: string): PyValue {
  const decoded = pyJsonDecode(text);
  if (decoded.ok) return decoded.value;
  const failure = decoded.failure;
  if (failure.kind === "recursion") throw new PyRecursionError("maximum recursion depth exceeded");
  throw new PyJsonError(failure.message, failure.position);
}

/** Like pyJsonLoads but returns undefined instead of throwing. */
export function tryPyJsonLoads(text: string): PyValue | undefined {
  const decoded = pyJsonDecode(text);
  return decoded.ok ? decoded.value : undefined;
}

/**
 * pyJsonLoads without exceptions: the value, or the failure pyJsonLoads would throw. Linear time;
 * nesting is bounded by PY_JSON_MAX_DEPTH, so the recursion stays shallow.
 */
export function pyJsonDecode(text: string): PyJsonDecoded {
  return run(text, true);
}

/**
 * The failure pyJsonLoads would throw, or undefined when the text is JSON, without building the
 * value (cheaper when a long text turns out not to be JSON near its end).
 */
export function pyJsonValidate(text: string): PyJsonFailure | undefined {
  const checked = run(text, false);
  return checked.ok ? undefined : checked.failure;
}

function run(text: string, build: boolean): PyJsonDecoded {
  if (text.startsWith("\ufeff")) return { ok: false, failure: { kind: "syntax", message: "Unexpected UTF-8 BOM", position: 0 } };
  const parser = new Parser(text, build);
  parser.i = skipJsonSpace(text, 0);
  const value = parser.value(0);
  if (value === FAIL) return { ok: false, failure: parser.failure! };
  const end = skipJsonSpace(text, parser.i);
  if (end !== text.length) return { ok: false, failure: { kind: "syntax", message: "Extra data", position: end } };
  return { ok: true, value };
}

/** What a parser that only checks returns for containers. */
const CHECKED_LIST: PyValue[] = [];
const CHECKED_DICT: PyDict = new Map();

/** Returned by the parser's methods after recording `failure`. */
const FAIL: unique symbol = Symbol("fail");
type Read<T> = T | typeof FAIL;

const isJsonSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;


/** Shared small integers (bigints are immutable, so one value can serve every occurrence). */
const SMALL_INTS: bigint[] = Array.from({ length: 1024 }, (_, k) => BigInt(k));

/** A recursive-descent reader; `i` is the position, methods return FAIL after setting `failure`. */
/** `build` false: the same reading (and the same failures), but no value is built. */
class Parser {
  i = 0;
  failure: PyJsonFailure | undefined;
  constructor(private readonly s: string, private readonly build: boolean) {}

  private fail(message: string, position: number): typeof FAIL {
    this.failure = { kind: "syntax", message, position };
    return FAIL;
  }

  /** The value at `i` (already past spaces); `depth` = containers enclosing it. */
  value(depth: number): Read<PyValue> {
    const s = this.s;
    const pos = this.i;
    switch (s.charCodeAt(pos)) {
      case 0x22: // "
        this.i = pos + 1;
        return this.string();
      case 0x7b: // {
        this.i = pos + 1;
        return this.object(depth + 1);
      case 0x5b: // [
        this.i = pos + 1;
        return this.array(depth + 1);
      case 0x6e: // n
        if (s.startsWith("null", pos)) return this.literal(null, 4);
        break;
      case 0x74: // t
        if (s.startsWith("true", pos)) return this.literal(true, 4);
        break;
      case 0x66: // f
        if (s.startsWith("false", pos)) return this.literal(false, 5);
        break;
      case 0x4e: // N
        if (s.startsWith("NaN", pos)) return this.literal(NaN, 3);
        break;
      case 0x49: // I
        if (s.startsWith("Infinity", pos)) return this.literal(Infinity, 8);
        break;
      case 0x2d: // -
        if (s.startsWith("-Infinity", pos)) return this.literal(-Infinity, 9);
        break;
    }
    const number = this.number(pos);
    if (number !== undefined) return number;
    return this.fail("Expecting value", pos);
  }

  private literal(value: PyValue, length: number): PyValue {
    this.i += length;
    return value;
  }

  /** A number at pos, undefined when none starts there (FAIL for too many digits). */
  private number(pos: number): Read<PyValue> | undefined {
    const s = this.s;
    let i = pos;
    if (s.charCodeAt(i) === 0x2d) i++;
    const first = s.charCodeAt(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) {
      while (isAsciiDigit(s.charCodeAt(i))) i++;
    } else return undefined;
    const intEnd = i;
    let isFloat = false;
    if (s.charCodeAt(i) === 0x2e && isAsciiDigit(s.charCodeAt(i + 1))) {
      i += 2;
      while (isAsciiDigit(s.charCodeAt(i))) i++;
      isFloat = true;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (sign === 0x2b || sign === 0x2d) j++;
      if (isAsciiDigit(s.charCodeAt(j))) {
        while (isAsciiDigit(s.charCodeAt(j))) j++;
        i = j;
        isFloat = true;
      }
    }
    this.i = i;
    if (isFloat) return this.build ? Number(s.slice(pos, i)) : 0;
    const negative = s.charCodeAt(pos) === 0x2d;
    const digitCount = intEnd - pos - (negative ? 1 : 0);
    if (digitCount > PY_INT_MAX_STR_DIGITS) return this.fail("Exceeds the integer digit limit", pos);
    if (!this.build) return 0;
    if (digitCount <= 15) {
      // Exact in a double: computed from the digits, without a string.
      let n = 0;
      for (let k = intEnd - digitCount; k < intEnd; k++) n = n * 10 + (s.charCodeAt(k) - 0x30);
      if (!negative && n < SMALL_INTS.length) return SMALL_INTS[n]!;
      return BigInt(negative ? -n : n);
    }
    return BigInt(s.slice(pos, i));
  }

  /** A non-negative int of at most 15 digits at pos (not followed by a fraction or exponent), else undefined. */
  private smallInt(pos: number): bigint | undefined {
    const s = this.s;
    let n = s.charCodeAt(pos) - 0x30;
    let i = pos + 1;
    if (n !== 0) {
      for (let c = s.charCodeAt(i); c >= 0x30 && c <= 0x39; c = s.charCodeAt(++i)) n = n * 10 + (c - 0x30);
      if (i - pos > 15) return undefined;
    }
    const next = s.charCodeAt(i);
    if (next === 0x2e || next === 0x65 || next === 0x45) return undefined;
    this.i = i;
    return !this.build || n < SMALL_INTS.length ? SMALL_INTS[this.build ? n : 0]! : BigInt(n);
  }

  /** The string whose opening quote is just before `i`. */
  private string(): Read<string> {
    const s = this.s;
    const open = this.i - 1;
    let i = this.i;
    let c = s.charCodeAt(i);
    while (i < s.length && c !== 0x22 && c !== 0x5c && c >= 0x20) c = s.charCodeAt(++i);
    if (c === 0x22) {
      this.i = i + 1;
      return this.build ? s.slice(open + 1, i) : "";
    }
    if (c === 0x5c) {
      // Escapes: Python's rules for a valid string token are JSON's, and so is the decoded text
      // (surrogate pairs combine, lone surrogates stay), so the native decoder can read it.
      const end = jsonStringEnd(s, open);
      if (end > 0) {
        this.i = end;
        return this.build ? (JSON.parse(s.slice(open, end)) as string) : "";
      }
    }
    return this.escapedString(open);
  }

  /** The slow reading of a string token, for the exact failure of an invalid one. */
  private escapedString(open: number): Read<string> {
    const s = this.s;
    let out = "";
    let i = open + 1;
    for (;;) {
      const start = i;
      let c = s.charCodeAt(i);
      while (i < s.length && c !== 0x22 && c !== 0x5c && c >= 0x20) c = s.charCodeAt(++i);
      out += s.slice(start, i);
      if (i >= s.length) return this.fail("Unterminated string", open);
      if (c === 0x22) {
        this.i = i + 1;
        return out;
      }
      if (c !== 0x5c) return this.fail("Invalid control character", i);
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
          let code = hex4(s, i);
          if (code < 0) return this.fail("Invalid \\uXXXX escape", i - 1);
          i += 4;
          if (code >= 0xd800 && code <= 0xdbff && s.charCodeAt(i) === 0x5c && s.charCodeAt(i + 1) === 0x75) {
            const low = hex4(s, i + 2);
            if (low < 0) return this.fail("Invalid \\uXXXX escape", i + 1);
            if (low >= 0xdc00 && low <= 0xdfff) {
              code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
              i += 6;
            }
          }
          out += String.fromCodePoint(code);
          break;
        }
        default:
          return this.fail("Invalid \\escape", i - 2);
      }
    }
  }

  /** Items of the arrays being read, innermost last; each array is cut to its exact size at its end. */
  private readonly items: PyValue[] = [];

  private array(depth: number): Read<PyValue[]> {
    if (depth > PY_JSON_MAX_DEPTH) return this.recursion();
    const s = this.s;
    let i = skipJsonSpace(s, this.i);
    if (s.charCodeAt(i) === 0x5d) {
      this.i = i + 1;
      return this.build ? [] : CHECKED_LIST;
    }
    const out = this.items;
    const base = out.length;
    for (;;) {
      this.i = i;
      const first = s.charCodeAt(i);
      // Numbers are the common item: small non-negative ints are read right here, others without
      // the dispatch in value().
      let item: Read<PyValue>;
      const small = first >= 0x30 && first <= 0x39 ? this.smallInt(i) : undefined;
      if (small !== undefined) item = small;
      else if ((first >= 0x30 && first <= 0x39) || (first === 0x2d && !s.startsWith("-Infinity", i))) item = this.number(i) ?? this.fail("Expecting value", i);
      else item = this.value(depth);
      if (item === FAIL) return FAIL;
      if (this.build) out.push(item);
      i = this.i;
      let c = s.charCodeAt(i);
      if (isJsonSpace(c)) c = s.charCodeAt((i = skipJsonSpace(s, i)));
      if (c === 0x5d) {
        this.i = i + 1;
        if (!this.build) return CHECKED_LIST;
        const list = out.slice(base);
        out.length = base;
        return list;
      }
      if (c !== 0x2c) return this.fail("Expecting ',' delimiter", i);
      i++;
      if (isJsonSpace(s.charCodeAt(i))) i = skipJsonSpace(s, i);
    }
  }

  private object(depth: number): Read<PyDict> {
    if (depth > PY_JSON_MAX_DEPTH) return this.recursion();
    const s = this.s;
    const out: PyDict = this.build ? new Map() : CHECKED_DICT;
    let i = skipJsonSpace(s, this.i);
    if (s.charCodeAt(i) === 0x7d) {
      this.i = i + 1;
      return out;
    }
    for (;;) {
      if (s.charCodeAt(i) !== 0x22) return this.fail("Expecting property name enclosed in double quotes", i);
      this.i = i + 1;
      const key = this.string();
      if (key === FAIL) return FAIL;
      i = skipJsonSpace(s, this.i);
      if (s.charCodeAt(i) !== 0x3a) return this.fail("Expecting ':' delimiter", i);
      this.i = skipJsonSpace(s, i + 1);
      const item = this.value(depth);
      if (item === FAIL) return FAIL;
      if (this.build) out.set(key, item);
      i = skipJsonSpace(s, this.i);
      const c = s.charCodeAt(i);
      if (c === 0x7d) {
        this.i = i + 1;
        return out;
      }
      if (c !== 0x2c) return this.fail("Expecting ',' delimiter", i);
      i = skipJsonSpace(s, i + 1);
    }
  }

  private recursion(): typeof FAIL {
    this.failure = { kind: "recursion" };
    return FAIL;
  }
}

/** The value of four hex digits at pos, or -1. */
function hex4(s: string, pos: number): number {
  let code = 0;
  for (let k = 0; k < 4; k++) {
    const c = s.charCodeAt(pos + k);
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return -1;
    code = code * 16 + d;
  }
  return code;
}

/** Python's json.dumps for a list of integers: "[1, 2, 3]". */
export function pyDumpsIntList(ids: readonly bigint[]): string {
  const texts = new Array<string>(ids.length);
  let previous: bigint | undefined;
  let previousText = "";
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k]!;
    if (id !== previous) {
      const n = Number(id);
      previousText = n >= 0 && n < SMALL_INT_TEXTS.length ? SMALL_INT_TEXTS[n]! : String(id);
      previous = id;
    }
    texts[k] = previousText;
  }
  return `[${texts.join(", ")}]`;
}

const SMALL_INT_TEXTS: string[] = Array.from({ length: 1024 }, (_, k) => String(k));

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
