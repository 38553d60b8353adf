/**
 * Single-pass scanners shared by the reply readers, so that reading untrusted model text takes
 * time linear in its length. Each one gives exactly the result of a simpler rule that the readers
 * used to apply literally (and that took quadratic time on adversarial text); the rule is stated
 * on each function.
 */

/** JavaScript's `\s`: WhiteSpace and LineTerminator (the same with or without the `u` flag). */
export function isJsSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029
    || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** An ASCII digit 0-9 (the `\d` of a regex without the `u` flag). */
export function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** `word` (lower-case ASCII) at `at`, ASCII case-insensitively: the /i flag without /u folds no other character onto ASCII. */
export function asciiWordAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

/** The first index at or after `from` whose character is not `\s`. */
export function skipJsSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isJsSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Membership of code points in a character class given as a one-code-point regex such as
 * /^[\p{L}\p{N}]$/u: the regex decides, once per BMP code point (a table built on first use) and
 * once per astral one (cached). Testing a big Unicode class at every position of a long text in a
 * regex is slow when V8 stores the text in two bytes per character (any text beyond Latin-1).
 */
export class CodePointSet {
  private bmp: Uint8Array | undefined;
  private readonly astral = new Map<number, boolean>();

  constructor(private readonly oneCodePoint: RegExp) {}

  has(cp: number): boolean {
    if (cp < 0x10000) {
      if (!this.bmp) {
        this.bmp = new Uint8Array(0x10000);
        for (let c = 0; c < 0x10000; c++) this.bmp[c] = this.oneCodePoint.test(String.fromCharCode(c)) ? 1 : 0;
      }
      return this.bmp[cp] === 1;
    }
    let member = this.astral.get(cp);
    if (member === undefined) {
      member = this.oneCodePoint.test(String.fromCodePoint(cp));
      if (this.astral.size < 0x10000) this.astral.set(cp, member);
    }
    return member;
  }
}

/** The code point ending just before index i (a surrogate pair counts as one), or -1 at the start. */
export function codePointBefore(text: string, i: number): number {
  if (i <= 0) return -1;
  const low = text.charCodeAt(i - 1);
  if ((low & 0xfc00) === 0xdc00 && i >= 2 && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800) return text.codePointAt(i - 2)!;
  return low;
}

// ------------------------------------------------------------------------------------------------
// <think> blocks
// ------------------------------------------------------------------------------------------------

/**
 * `text.replace(/<think>[\s\S]*?<\/think>/g, replacement)` (with the `i` flag when `ignoreCase`),
 * in one pass: a block opens at the next "<think>" and closes at the first "</think>" after it; once
 * no "</think>" follows an opening, no later opening can close either, so the scan stops there.
 * (The regex retries every later "<think>" against the whole rest of the text: quadratic.)
 */
export function replaceThinkBlocks(text: string, replacement: string, ignoreCase: boolean): string {
  const open = ignoreCase ? /<think>/gi : /<think>/g;
  const close = ignoreCase ? /<\/think>/gi : /<\/think>/g;
  const parts: string[] = [];
  let pos = 0;
  for (;;) {
    open.lastIndex = pos;
    const opened = open.exec(text);
    if (!opened) break;
    close.lastIndex = opened.index + opened[0].length;
    const closed = close.exec(text);
    if (!closed) break;
    parts.push(text.slice(pos, opened.index), replacement);
    pos = closed.index + closed[0].length;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(pos));
  return parts.join("");
}

// ------------------------------------------------------------------------------------------------
// JSON containers (ECMAScript JSON.parse grammar)
// ------------------------------------------------------------------------------------------------

/** One member of a JSON object: its decoded key and the value's span [start, end). */
export interface JsonMember {
  key: string;
  start: number;
  end: number;
}

/**
 * Every JSON object or array that starts at some "{" or "[" of a text, in the grammar of
 * JavaScript's JSON.parse (strict JSON). `end(i)` is the index just past the container that starts
 * at i, or -1 when the text from i does not begin with a complete valid container. Since a JSON
 * container cannot be extended, `JSON.parse(text.slice(i, j))` succeeds for a j ending on its
 * closing bracket exactly when j === end(i): so "try JSON.parse on every span between an opening
 * and a closing brace" reduces to one lookup per opening.
 *
 * Built right to left: when the container at i is read, every container starting after i is
 * already known, so a nested one is skipped in one step and each character is read at the outer
 * level of at most two containers (one that reads it as structure, one that reads it inside a
 * string): linear time and no recursion, however deep the nesting.
 */
export class JsonContainers {
  private readonly ends: Int32Array;

  constructor(private readonly text: string) {
    this.ends = new Int32Array(text.length);
    for (let i = text.length - 1; i >= 0; i--) {
      const c = text.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) this.ends[i] = this.container(i, c === 0x7b) + 1;
    }
  }

  /** Index just past the container starting at i, or -1. */
  end(i: number): number {
    return i >= 0 && i < this.ends.length ? this.ends[i]! - 1 : -1;
  }

  /**
   * The last member of each of `keys` in the valid object at i (JSON.parse keeps the last
   * duplicate). Reads the object's own level once; nested containers are skipped.
   */
  lastMembers(i: number, keys: ReadonlySet<string>): ReadonlyMap<string, JsonMember> {
    const s = this.text;
    let found: Map<string, JsonMember> | undefined;
    if (this.end(i) < 0 || s.charCodeAt(i) !== 0x7b) return NO_MEMBERS;
    let longest = 0;
    for (const key of keys) longest = Math.max(longest, key.length);
    let p = skipJsonSpace(s, i + 1);
    if (s.charCodeAt(p) === 0x7d) return NO_MEMBERS;
    for (;;) {
      const keyEnd = jsonStringEnd(s, p);
      const key = decodedKey(s, p, keyEnd, longest);
      p = skipJsonSpace(s, skipJsonSpace(s, keyEnd) + 1);
      const end = this.valueEnd(p);
      if (key !== undefined && keys.has(key)) (found ??= new Map()).set(key, { key, start: p, end });
      p = skipJsonSpace(s, end);
      if (s.charCodeAt(p) === 0x7d) return found ?? NO_MEMBERS;
      p = skipJsonSpace(s, p + 1);
    }
  }

  /** Whether a member's value is an object (not an array or a scalar). */
  isObject(member: JsonMember): boolean {
    return this.text.charCodeAt(member.start) === 0x7b;
  }

  /** The value of a member as JSON.parse gives it, for scalars; containers are not decoded. */
  scalar(member: JsonMember): { kind: "container" } | { kind: "value"; value: string | number | boolean | null } {
    const c = this.text.charCodeAt(member.start);
    if (c === 0x7b || c === 0x5b) return { kind: "container" };
    return { kind: "value", value: JSON.parse(this.text.slice(member.start, member.end)) as string | number | boolean | null };
  }

  /** End of the container opening at i (exclusive), or -1. */
  private container(i: number, isObject: boolean): number {
    const s = this.text;
    const close = isObject ? 0x7d : 0x5d;
    let p = skipJsonSpace(s, i + 1);
    if (s.charCodeAt(p) === close) return p + 1;
    for (;;) {
      if (isObject) {
        if (s.charCodeAt(p) !== 0x22) return -1;
        const keyEnd = jsonStringEnd(s, p);
        if (keyEnd < 0) return -1;
        p = skipJsonSpace(s, keyEnd);
        if (s.charCodeAt(p) !== 0x3a) return -1;
        p = skipJsonSpace(s, p + 1);
      }
      p = this.valueEnd(p);
      if (p < 0) return -1;
      p = skipJsonSpace(s, p);
      const c = s.charCodeAt(p);
      if (c === close) return p + 1;
      if (c !== 0x2c) return -1;
      p = skipJsonSpace(s, p + 1);
    }
  }

  private valueEnd(p: number): number {
    const s = this.text;
    switch (s.charCodeAt(p)) {
      case 0x7b:
      case 0x5b:
        return this.ends[p]! - 1; // already known: p lies right of the container being read
      case 0x22:
        return jsonStringEnd(s, p);
      case 0x74:
        return s.startsWith("true", p) ? p + 4 : -1;
      case 0x66:
        return s.startsWith("false", p) ? p + 5 : -1;
      case 0x6e:
        return s.startsWith("null", p) ? p + 4 : -1;
      default:
        return jsonNumberEnd(s, p);
    }
  }
}

const NO_MEMBERS: ReadonlyMap<string, JsonMember> = new Map();

/**
 * The decoded text of the valid string token [start, end) when it may be one of the keys looked
 * for: undefined for a key without escapes longer than `longest`; keys with escapes are decoded.
 */
function decodedKey(s: string, start: number, end: number, longest: number): string | undefined {
  let escaped = false;
  for (let k = start + 1; k < end - 1; k++) {
    if (s.charCodeAt(k) === 0x5c) {
      escaped = true;
      break;
    }
  }
  if (escaped) return JSON.parse(s.slice(start, end)) as string;
  return end - start - 2 <= longest ? s.slice(start + 1, end - 1) : undefined;
}

/** The first index at or after `from` that is not JSON whitespace (space, tab, LF, CR). */
export function skipJsonSpace(s: string, from: number): number {
  let i = from;
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

const isHex = (c: number) => isAsciiDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** End (exclusive) of the JSON string token opening at the quote at p, or -1. */
export function jsonStringEnd(s: string, p: number): number {
  let i = p + 1;
  for (;;) {
    if (i >= s.length) return -1;
    const c = s.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    const e = s.charCodeAt(i + 1);
    if (e === 0x75) {
      for (let k = 2; k < 6; k++) if (!isHex(s.charCodeAt(i + k))) return -1;
      i += 6;
    } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
    else return -1;
  }
}

/** End (exclusive) of the JSON number token at p, or -1: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?. */
function jsonNumberEnd(s: string, p: number): number {
  let i = p;
  if (s.charCodeAt(i) === 0x2d) i++;
  const first = s.charCodeAt(i);
  if (first === 0x30) i++;
  else if (isAsciiDigit(first)) while (isAsciiDigit(s.charCodeAt(i))) i++;
  else return -1;
  if (s.charCodeAt(i) === 0x2e) {
    i++;
    if (!isAsciiDigit(s.charCodeAt(i))) return -1;
    while (isAsciiDigit(s.charCodeAt(i))) i++;
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = s.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isAsciiDigit(s.charCodeAt(i))) return -1;
    while (isAsciiDigit(s.charCodeAt(i))) i++;
  }
  return i;
}
