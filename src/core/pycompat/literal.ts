import { isAsciiDigit } from "../reply-scan.js";
import { PY_INT_MAX_STR_DIGITS } from "./int.js";

/**
 * The part of Python 3.11's `ast.literal_eval` that a model reply can reach: lists, tuples, dicts,
 * sets, str/bytes (all prefixes and escapes except \N{...}), ints in every base, floats, complex
 * sums, True/False/None, `...`, `set()`, one sign on a number, comments and implicit string
 * concatenation. Values that only matter as "not an int, not a list, not a dict" are kept as
 * opaque tags. Throws LiteralSyntaxError where Python raises SyntaxError or ValueError (callers
 * treat both alike), LiteralTypeError where Python raises TypeError (an unhashable dict key or
 * set element) and LiteralRecursionError where it raises RecursionError (an expression nested too
 * deeply to build its syntax tree), neither of which the official runner catches.
 *
 * Linear time: tokens are read as the parser asks for them (so junk fails at its first bad token,
 * as in CPython, whose parser also pulls tokens), and nothing recurses deeper than the tokenizer's
 * 200 nested brackets (sign chains and `+` chains are read in loops).
 */
export type Literal = null | boolean | bigint | number | string | Literal[] | LiteralDict | OpaqueLiteral;
export type LiteralDict = Map<string, Literal>;
export interface OpaqueLiteral {
  opaque: "tuple" | "set" | "bytes" | "complex" | "ellipsis";
  /** Only tuples keep items (their hashability depends on them). */
  items?: Literal[];
  /** A tuple read without items: what hashing it raises (absent: it hashes). */
  unhashable?: LiteralFailure;
}
/** Dicts hold only their string keys (the only keys the runner looks up). */

export class LiteralSyntaxError extends Error {}
export class LiteralTypeError extends Error {}
export class LiteralRecursionError extends Error {}

const MAX_NESTING = 200; // the tokenizer's limit on nested brackets

/**
 * Deepest syntax tree (the Expression node and every expression node on the longest path) that
 * CPython 3.11 builds here before "RecursionError: maximum recursion depth exceeded during ast
 * construction": 3 x the recursion limit (1000), less 3 per Python frame on the stack, literal_eval
 * and ast.parse included. Measured with CPython 3.11.7: called from a function 3 frames deep, it
 * raises from depth 2986 on (3000 - 3 x 5 + 1). We assume the official runner calls it from 6
 * frames deep, as PY_JSON_MAX_DEPTH assumes for json.loads: 3000 - 3 x 8. Only a text our grammar
 * accepts gets this far: one that also holds a non-literal (a name, another operator) is a syntax
 * error here, where CPython would build the tree and raise RecursionError; and CPython's parser
 * itself gives up (MemoryError) on some shallower texts that combine deep brackets with long sign
 * chains, which read as a value or a syntax error here. Those two approximations aside, a reply
 * nested too deeply for CPython is a LiteralRecursionError, never a JavaScript stack overflow.
 */
export const PY_AST_MAX_DEPTH = 2976;

export type LiteralFailure = { kind: "syntax" | "type" | "recursion"; message: string };
export type LiteralDecoded = { ok: true; value: Literal } | { ok: false; failure: LiteralFailure };

export function pyLiteralEval(source: string): Literal {
  const decoded = pyLiteralDecode(source);
  if (decoded.ok) return decoded.value;
  const { kind, message } = decoded.failure;
  if (kind === "type") throw new LiteralTypeError(message);
  if (kind === "recursion") throw new LiteralRecursionError(message);
  throw new LiteralSyntaxError(message);
}

/**
 * pyLiteralEval without exceptions: the value, or the failure pyLiteralEval would throw. With
 * `tupleItems: false`, tuples come without their items (only whether they hash is kept), for
 * callers that never look inside a tuple: the same outcome, with less to build.
 */
export function pyLiteralDecode(source: string, options: { tupleItems?: boolean } = {}): LiteralDecoded {
  let start = 0;
  while (source.charCodeAt(start) === 0x20 || source.charCodeAt(start) === 0x09) start++;
  const state: State = { failure: undefined };
  return new LiteralParser(new Lexer(source.slice(start), state), state, options.tupleItems ?? true).result();
}

/** The first failure wins (later steps only stop). */
interface State {
  failure: LiteralFailure | undefined;
}

function failWith(state: State, kind: LiteralFailure["kind"], message: string): null {
  state.failure ??= { kind, message };
  return null;
}

// ---------------------------------------------------------------- tokenizer

type Token =
  | { kind: "num"; value: bigint | number | "complex" }
  | { kind: "str"; value: string; bytes: boolean; fstring: boolean }
  | { kind: "name"; value: string }
  | { kind: "op"; value: string }
  | { kind: "end" }
  | { kind: "error" };

const END: Token = { kind: "end" };
/** Tokens are never changed, so small integers share theirs. */
const SMALL_INT_TOKENS: Token[] = Array.from({ length: 1024 }, (_, k) => ({ kind: "num", value: BigInt(k) }));
const ERROR: Token = { kind: "error" };
type OpToken = Extract<Token, { kind: "op" }>;
/** One shared token per operator, so the parser compares operators by identity. */
const OPS = new Map<string, OpToken>([..."([{)]},:+-", "..."].map((op) => [op, { kind: "op", value: op }]));
const opToken = (op: string): OpToken => OPS.get(op)!;
const COMMA = opToken(","), COLON = opToken(":"), PLUS = opToken("+"), MINUS = opToken("-");
const LPAREN = opToken("("), RPAREN = opToken(")"), RBRACKET = opToken("]"), RBRACE = opToken("}");
/** The one-character operators by character code. */
const SINGLE_OPS: Array<OpToken | undefined> = [];
for (const op of "([{)]},:+-") SINGLE_OPS[op.charCodeAt(0)] = OPS.get(op);

const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameStart = (c: number) => isAsciiLetter(c) || c === 0x5f;
const isNameChar = (c: number) => isNameStart(c) || isAsciiDigit(c);
const isPrefixLetter = (c: number) => {
  const lower = c | 0x20;
  return lower === 0x72 || lower === 0x62 || lower === 0x75 || lower === 0x66; // r b u f, either case
};
const VALID_PREFIXES = new Set(["", "r", "u", "b", "f", "br", "rb", "fr", "rf"]);

/** Python's tokenizer, one token at a time. After a failure it only gives ERROR. */
class Lexer {
  private i = 0;
  private depth = 0;
  private emitted = 0;
  private sawNewlineAtTop = false;
  private done = false;

  constructor(private readonly s: string, private readonly state: State) {}

  next(): Token {
    if (this.done) return this.state.failure ? ERROR : END;
    const token = this.read();
    if (token === END || token === ERROR) this.done = true;
    return token;
  }

  private fail(message: string): Token {
    failWith(this.state, "syntax", message);
    return ERROR;
  }

  private push(token: Token): Token {
    if (this.sawNewlineAtTop) return this.fail("statement continues after a newline");
    this.emitted++;
    return token;
  }

  private read(): Token {
    const s = this.s;
    while (this.i < s.length) {
      const i = this.i;
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0c) { this.i++; continue; }
      if (c === 0x5c && (s.charCodeAt(i + 1) === 0x0a || (s.charCodeAt(i + 1) === 0x0d && s.charCodeAt(i + 2) === 0x0a))) {
        this.i += s.charCodeAt(i + 1) === 0x0a ? 2 : 3;
        continue;
      }
      if (c === 0x23) {
        let j = i;
        while (j < s.length && s.charCodeAt(j) !== 0x0a && s.charCodeAt(j) !== 0x0d) j++;
        this.i = j;
        continue;
      }
      if (c === 0x0a || c === 0x0d) {
        if (this.depth === 0 && this.emitted > 0) this.sawNewlineAtTop = true;
        this.i++;
        continue;
      }
      if (c === 0) return this.fail("null byte");
      const op = SINGLE_OPS[c];
      if (op !== undefined) return this.op(op);
      if (isAsciiDigit(c) && !isNameChar(s.charCodeAt(i + 1)) && s.charCodeAt(i + 1) !== 0x2e && s.charCodeAt(i + 1) !== 0x5f) {
        this.i++; // a one-digit int, the most common token of a list of ids
        return this.push(SMALL_INT_TOKENS[c - 0x30]!);
      }
      const quoteAt = this.stringQuoteAt(i);
      if (quoteAt >= 0) {
        const token = this.readString(s.slice(i, quoteAt).toLowerCase(), quoteAt);
        return token.kind === "error" ? token : this.push(token);
      }
      if (isNameStart(c) || c > 127) {
        if (!isNameStart(c)) return this.fail("non-ASCII identifier or character");
        let j = i;
        while (j < s.length && isNameChar(s.charCodeAt(j))) j++;
        this.i = j;
        return this.push({ kind: "name", value: s.slice(i, j) });
      }
      if (isAsciiDigit(c) || (c === 0x2e && isAsciiDigit(s.charCodeAt(i + 1)))) {
        const token = this.readNumber(i);
        return token.kind === "error" ? token : this.push(token);
      }
      if (s.startsWith("...", i)) { this.i += 3; return this.push(OPS.get("...")!); }
      // Any other operator or character cannot be part of a literal.
      return this.fail(`unexpected character ${JSON.stringify(s[i])}`);
    }
    if (this.depth !== 0) return this.fail("unclosed bracket");
    return END;
  }

  /**
   * Right after a comma inside brackets: reads on while the text is `int ,` (a decimal int of at
   * most 15 digits, spaces or tabs around), giving each value to `add`, and a last `int` right
   * before "]"; stops before anything else. These are exactly the tokens next() would give and
   * the parser would read as plain items, so it goes on with next() from where this stops.
   */
  readSimpleInts(add: (value: bigint) => void): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      let j = i;
      while (s.charCodeAt(j) === 0x20 || s.charCodeAt(j) === 0x09) j++;
      const first = s.charCodeAt(j);
      if (!isAsciiDigit(first)) break;
      let n = first - 0x30;
      let k = j + 1;
      if (n !== 0) for (let c = s.charCodeAt(k); isAsciiDigit(c) && k - j <= 15; c = s.charCodeAt(++k)) n = n * 10 + (c - 0x30);
      const after = s.charCodeAt(k);
      if (k - j > 15 || isNameChar(after) || after === 0x2e) break;
      let m = k;
      while (s.charCodeAt(m) === 0x20 || s.charCodeAt(m) === 0x09) m++;
      const delimiter = s.charCodeAt(m);
      if (delimiter !== 0x2c && delimiter !== 0x5d) break;
      add(n < SMALL_INTS.length ? SMALL_INTS[n]! : BigInt(n));
      this.emitted++;
      if (delimiter === 0x5d) {
        i = m; // the "]" is left for next()
        break;
      }
      i = m + 1;
    }
    this.i = i;
  }

  /** A one-character operator; brackets keep the nesting count. */
  private op(token: OpToken): Token {
    const v = token.value;
    if (v === "(" || v === "[" || v === "{") {
      this.depth++;
      if (this.depth > MAX_NESTING) return this.fail("too many nested parentheses");
    } else if (v === ")" || v === "]" || v === "}") {
      this.depth--;
      if (this.depth < 0) return this.fail("unmatched bracket");
    }
    this.i++;
    return this.push(token);
  }

  /** Where the quote of a string literal starting at i is (after a valid prefix), or -1. */
  private stringQuoteAt(i: number): number {
    const s = this.s;
    let j = i;
    while (j < s.length && j - i < 2 && isPrefixLetter(s.charCodeAt(j))) j++;
    const q = s.charCodeAt(j);
    if (q !== 0x27 && q !== 0x22) return -1;
    if (!VALID_PREFIXES.has(s.slice(i, j).toLowerCase())) return -1;
    // A letter run longer than the prefix is an identifier (e.g. "abc'x'"), handled by the caller.
    if (i > 0 && isNameChar(s.charCodeAt(i - 1))) return -1;
    return j;
  }

  private readString(prefix: string, quoteAt: number): Token {
    const s = this.s;
    const quote = s.charCodeAt(quoteAt);
    const quoteChar = s[quoteAt]!;
    const triple = s.startsWith(quoteChar.repeat(3), quoteAt);
    const closing = triple ? quoteChar.repeat(3) : quoteChar;
    const raw = prefix.includes("r");
    const bytes = prefix.includes("b");
    let i = quoteAt + closing.length;
    let out = "";
    for (;;) {
      // Copy the run of ordinary characters in one slice.
      const runStart = i;
      while (i < s.length) {
        const c = s.charCodeAt(i);
        if (c === quote || c === 0x5c || (!triple && (c === 0x0a || c === 0x0d)) || (bytes && c > 127)) break;
        i++;
      }
      out += s.slice(runStart, i);
      if (i >= s.length) return this.fail("unterminated string literal");
      if (s.startsWith(closing, i)) { i += closing.length; break; }
      const c = s.charCodeAt(i);
      if (c === quote) { out += quoteChar; i++; continue; } // a lone quote inside a triple-quoted string
      if (c !== 0x5c) return this.fail(bytes && c > 127 ? "bytes can only contain ASCII literal characters" : "unterminated string literal");
      const next = s[i + 1];
      if (next === undefined) return this.fail("unterminated string literal");
      if (raw) { out += "\\" + next; i += 2; continue; }
      const escape = decodeEscape(s, i, bytes);
      if (typeof escape === "string") return this.fail(escape);
      out += escape[0];
      i += escape[1];
    }
    this.i = i;
    return { kind: "str", value: out, bytes, fstring: prefix.includes("f") };
  }

  private readNumber(i: number): Token {
    const read = numberAt(this.s, i);
    if (typeof read === "string") return this.fail(read);
    const end = read.end;
    const after = this.s.charCodeAt(end);
    if (isNameChar(after) || after === 0x2e) return this.fail("invalid literal");
    this.i = end;
    return typeof read.value === "bigint" && read.value < 1024n ? SMALL_INT_TOKENS[Number(read.value)]! : { kind: "num", value: read.value };
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
};

/** The escape at s[i] (a backslash): [decoded text, length], or the failure message. */
function decodeEscape(s: string, i: number, bytes: boolean): [string, number] | string {
  const next = s[i + 1]!;
  if (Object.hasOwn(SIMPLE_ESCAPES, next)) return [SIMPLE_ESCAPES[next]!, 2];
  if (next === "\n") return ["", 2];
  if (next === "\r") return ["", s[i + 2] === "\n" ? 3 : 2];
  if (next >= "0" && next <= "7") {
    let j = i + 1;
    while (j < i + 4 && s[j]! >= "0" && s[j]! <= "7") j++;
    return [String.fromCodePoint(parseInt(s.slice(i + 1, j), 8)), j - i];
  }
  const hexLength = next === "x" ? 2 : !bytes && next === "u" ? 4 : !bytes && next === "U" ? 8 : 0;
  if (hexLength > 0) {
    const digits = s.slice(i + 2, i + 2 + hexLength);
    if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) return "truncated \\x/\\u escape";
    const code = parseInt(digits, 16);
    if (code > 0x10ffff) return "illegal Unicode character";
    return [String.fromCodePoint(code), 2 + hexLength];
  }
  if (next === "N" && !bytes) return "\\N{...} escapes are not supported";
  return ["\\" + next, 2]; // unknown escapes are kept as written
}

// ---------------------------------------------------------------- numbers

/**
 * A number token at i, as the first of these patterns that matches (D = [0-9](?:_?[0-9])*,
 * E = [eE][+-]?D): hex/octal/binary ints; complex (D?\.D|D\.?)E?[jJ]; float D?\.D E? | D\. E? | D E;
 * decimal int [1-9](?:_?[0-9])* | 0+(?:_?0)*. Read without backtracking: every D and E is taken
 * whole (a shorter one leaves a digit or "_" where the pattern then needs "." "e" or "j").
 */
function numberAt(s: string, i: number): { value: bigint | number | "complex"; end: number } | string {
  if (s.charCodeAt(i) === 0x30) {
    const base = s[i + 1];
    const radix = base === "x" || base === "X" ? 16 : base === "o" || base === "O" ? 8 : base === "b" || base === "B" ? 2 : 0;
    if (radix > 0) {
      const end = prefixedDigitsEnd(s, i + 2, radix);
      if (end > i + 2) {
        const prefix = radix === 16 ? "0x" : radix === 8 ? "0o" : "0b";
        return { value: BigInt(prefix + s.slice(i + 2, end).replaceAll("_", "")), end };
      }
    }
  }
  const lead = decimalEnd(s, i);
  // complex
  const fraction = lead >= 0 ? fractionEnd(s, lead) : fractionEnd(s, i);
  if (fraction >= 0 && isJ(s.charCodeAt(exponentEnd(s, fraction)))) return { value: "complex", end: exponentEnd(s, fraction) + 1 };
  if (lead >= 0) {
    const mantissa = s.charCodeAt(lead) === 0x2e ? lead + 1 : lead;
    if (isJ(s.charCodeAt(exponentEnd(s, mantissa)))) return { value: "complex", end: exponentEnd(s, mantissa) + 1 };
  }
  // float
  if (fraction >= 0) return floatToken(s, i, exponentEnd(s, fraction));
  if (lead >= 0 && s.charCodeAt(lead) === 0x2e) return floatToken(s, i, exponentEnd(s, lead + 1));
  if (lead >= 0 && exponentEnd(s, lead) > lead) return floatToken(s, i, exponentEnd(s, lead));
  // decimal int
  if (lead < 0) return "invalid number";
  if (s.charCodeAt(i) !== 0x30) return decimalToken(s, i, lead);
  const zeros = runEnd(s, i, (c) => c === 0x30);
  return decimalToken(s, i, zeros);
}

/** (?:_?[digit])+ in the radix after "0x" / "0o" / "0b" (an underscore may come first); `from` when none. */
function prefixedDigitsEnd(s: string, from: number, radix: number): number {
  let j = from;
  for (;;) {
    if (digitValue(s.charCodeAt(j)) < radix) j++;
    else if (s.charCodeAt(j) === 0x5f && digitValue(s.charCodeAt(j + 1)) < radix) j += 2;
    else return j;
  }
}

/** End of a run of characters passing `ok`, with single underscores between them. */
function runEnd(s: string, from: number, ok: (c: number) => boolean): number {
  if (!ok(s.charCodeAt(from))) return from;
  let j = from + 1;
  for (;;) {
    const c = s.charCodeAt(j);
    if (ok(c)) j++;
    else if (c === 0x5f && ok(s.charCodeAt(j + 1))) j += 2;
    else return j;
  }
}

function digitValue(c: number): number {
  if (isAsciiDigit(c)) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return 99;
}

/** End of D at i, or -1 when no digit starts there. */
function decimalEnd(s: string, i: number): number {
  return isAsciiDigit(s.charCodeAt(i)) ? runEnd(s, i, isAsciiDigit) : -1;
}

/** End of `\.D` at i, or -1. */
function fractionEnd(s: string, i: number): number {
  return s.charCodeAt(i) === 0x2e && isAsciiDigit(s.charCodeAt(i + 1)) ? runEnd(s, i + 1, isAsciiDigit) : -1;
}

/** End of an exponent E at i, or i when none is there. */
function exponentEnd(s: string, i: number): number {
  const e = s.charCodeAt(i);
  if (e !== 0x65 && e !== 0x45) return i;
  const sign = s.charCodeAt(i + 1);
  const digits = sign === 0x2b || sign === 0x2d ? i + 2 : i + 1;
  return isAsciiDigit(s.charCodeAt(digits)) ? runEnd(s, digits, isAsciiDigit) : i;
}

const isJ = (c: number) => c === 0x6a || c === 0x4a;

function floatToken(s: string, i: number, end: number): { value: number; end: number } {
  return { value: Number(s.slice(i, end).replaceAll("_", "")), end };
}

/** Shared small integers (bigints are immutable, so one value serves every occurrence). */
const SMALL_INTS: bigint[] = Array.from({ length: 1024 }, (_, k) => BigInt(k));

function decimalToken(s: string, i: number, end: number): { value: bigint; end: number } | string {
  if (end - i <= 15) {
    let n = 0;
    for (let k = i; k < end && n >= 0; k++) {
      const c = s.charCodeAt(k);
      n = c === 0x5f ? n : isAsciiDigit(c) ? n * 10 + (c - 0x30) : -1;
    }
    if (n >= 0) return { value: n < SMALL_INTS.length ? SMALL_INTS[n]! : BigInt(n), end };
  }
  let significant = 0;
  let leading = true;
  for (let k = i; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c === 0x5f) continue;
    if (leading && c === 0x30) continue;
    leading = false;
    significant++;
  }
  if (significant > PY_INT_MAX_STR_DIGITS) return "integer literal too long";
  return { value: BigInt(s.slice(i, end).replaceAll("_", "")), end };
}

// ---------------------------------------------------------------- parser and evaluation

/**
 * The parser evaluates as it goes (ast.literal_eval's _convert, in the same order), so no syntax
 * tree is built. Python reports a syntax error anywhere before any evaluation error, so an
 * evaluation failure is kept aside (the first one in _convert's order) while parsing goes on.
 * Each parse method returns the value, EVAL_FAILED (evaluation failed: see `evalFailure`) or
 * SYNTAX_ERROR (recorded in `state`), and leaves in `kind` and `depth` what an enclosing sign or
 * sum needs to know about the expression, and its height in Python's ast (a leaf is 1).
 */
const EVAL_FAILED: unique symbol = Symbol("eval failed");
const SYNTAX_ERROR: unique symbol = Symbol("syntax error");
type Read = Literal | typeof EVAL_FAILED | typeof SYNTAX_ERROR;

/** num: a numeric Constant; unary: a sign applied to something; other: anything else. */
type Kind = "num" | "unary" | "other";

class LiteralParser {
  /** Items of the containers being read (see Items). */
  readonly stack: Literal[] = [];
  private current: Token;
  /** About the expression just read. */
  private kind: Kind = "other";
  private depth = 0;
  private evalFailure: LiteralFailure | undefined;

  constructor(private readonly lexer: Lexer, private readonly state: State, private readonly tupleItems: boolean) {
    this.current = lexer.next();
  }

  /** The whole text: its value, or the failure in Python's order (syntax, then depth, then evaluation). */
  result(): LiteralDecoded {
    const value = this.expressionList();
    if (value !== SYNTAX_ERROR) this.expectEnd();
    if (this.state.failure) return { ok: false, failure: this.state.failure };
    if (this.depth + 1 > PY_AST_MAX_DEPTH) return { ok: false, failure: { kind: "recursion", message: "maximum recursion depth exceeded during ast construction" } };
    if (value === EVAL_FAILED) return { ok: false, failure: this.evalFailure! };
    return { ok: true, value: value as Literal };
  }

  private fail(message: string): typeof SYNTAX_ERROR {
    failWith(this.state, "syntax", message);
    return SYNTAX_ERROR;
  }
  private advance(): void {
    this.current = this.lexer.next();
  }
  /** Operator tokens are shared, so a comparison is one identity check. */
  private isOp(op: OpToken): boolean {
    return this.current === op;
  }
  private take(op: OpToken): boolean {
    if (this.current !== op) {
      this.fail(`expected ${op.value}`);
      return false;
    }
    this.advance();
    return true;
  }

  /** Sets what the expression just read is, and returns its value. */
  private done(value: Literal | typeof EVAL_FAILED, kind: Kind, depth: number): Literal | typeof EVAL_FAILED {
    this.kind = kind;
    this.depth = depth;
    return value;
  }

  private evalFail(kind: LiteralFailure["kind"], message: string): typeof EVAL_FAILED {
    this.evalFailure = { kind, message };
    return EVAL_FAILED;
  }

  private expectEnd(): void {
    if (this.current.kind !== "end") this.fail("unexpected trailing tokens");
  }

  /** A bare comma-separated sequence is a tuple. */
  private expressionList(): Read {
    const first = this.sum();
    if (first === SYNTAX_ERROR || !this.isOp(COMMA)) return first;
    const items = this.openItems("tuple", first);
    while (this.isOp(COMMA)) {
      this.advance();
      if (!this.startsExpression()) break;
      if (!items.add(this.sum())) return SYNTAX_ERROR;
    }
    return this.done(this.closeItems(items).result(), "other", items.height);
  }

  private startsExpression(): boolean {
    const t = this.current;
    if (t.kind === "end") return false;
    if (t.kind === "op") return EXPRESSION_OPS.has(t.value);
    return true;
  }

  /** Left-associative + and - chains, in a loop (a BinOp only holds a complex number). */
  private sum(): Read {
    let left = this.unary();
    while (left !== SYNTAX_ERROR && (this.isOp(PLUS) || this.isOp(MINUS))) {
      this.advance();
      // The left side must be a numeric Constant or one sign on one (_convert_signed_num), checked
      // before the right side, which must be a numeric Constant.
      const numeric = this.kind === "num" || this.kind === "unary";
      const leftFailure = !numeric ? MALFORMED_NODE : left === EVAL_FAILED ? this.evalFailure : undefined;
      const leftValue = left as Literal;
      const leftDepth = this.depth;
      const right = this.unary();
      if (right === SYNTAX_ERROR) return SYNTAX_ERROR;
      const value = leftFailure ? this.failAs(leftFailure) : complexSum(leftValue, this.kind === "num" ? right : EVAL_FAILED) ?? this.evalFail("syntax", MALFORMED);
      left = this.done(value, "other", Math.max(leftDepth, this.depth) + 1);
    }
    return left;
  }

  /** A chain of signs, counted in a loop, then an atom. Only a sign on a numeric Constant is a value. */
  private unary(): Read {
    let signs = 0;
    let innermost = "+";
    while (this.isOp(PLUS) || this.isOp(MINUS)) {
      signs++;
      innermost = (this.current as { value: string }).value;
      this.advance();
    }
    const operand = this.atom();
    if (operand === SYNTAX_ERROR || signs === 0) return operand;
    const value = this.kind === "num" ? applySign(innermost, operand as Literal) : this.evalFail("syntax", MALFORMED);
    // Outer signs apply to a sign, never a Constant: malformed.
    return this.done(signs > 1 ? this.evalFail("syntax", MALFORMED) : value, "unary", this.depth + signs);
  }

  private atom(): Read {
    const t = this.current;
    if (t.kind === "error") return SYNTAX_ERROR;
    this.advance();
    if (t.kind === "num") return this.done(t.value === "complex" ? { opaque: "complex" } : t.value, "num", 1);
    if (t.kind === "str") return this.strings(t);
    if (t.kind === "name") {
      if (t.value === "True") return this.done(true, "other", 1);
      if (t.value === "False") return this.done(false, "other", 1);
      if (t.value === "None") return this.done(null, "other", 1);
      if (t.value === "set" && this.isOp(LPAREN)) {
        this.advance();
        return this.take(RPAREN) ? this.done({ opaque: "set" }, "other", 2) : SYNTAX_ERROR;
      }
      return this.fail(`name ${t.value} is not a literal`);
    }
    if (t.kind === "op") {
      if (t.value === "...") return this.done({ opaque: "ellipsis" }, "other", 1);
      if (t.value === "[") return this.list();
      if (t.value === "(") return this.parenthesised();
      if (t.value === "{") return this.braces();
    }
    return this.fail("expected a literal");
  }

  private strings(first: Extract<Token, { kind: "str" }>): Read {
    let value = first.value;
    let fstring = first.fstring;
    for (let next = this.current; next.kind === "str"; next = this.current) {
      if (next.bytes !== first.bytes) return this.fail("cannot mix bytes and nonbytes literals");
      value += next.value;
      fstring ||= next.fstring;
      this.advance();
    }
    if (fstring) return this.done(this.evalFail("syntax", "f-strings are not literals"), "other", 2);
    return this.done(first.bytes ? { opaque: "bytes" } : value, "other", 1);
  }

  private list(): Read {
    const items = this.openItems("list");
    while (!this.isOp(RBRACKET)) {
      if (this.current.kind === "error") return SYNTAX_ERROR;
      if (!items.add(this.sum())) return SYNTAX_ERROR;
      if (!this.isOp(COMMA)) break;
      this.lexer.readSimpleInts(items.addInt); // a run of plain ints, read without tokens
      this.advance();
    }
    return this.take(RBRACKET) ? this.done(this.closeItems(items).result(), "other", items.height) : SYNTAX_ERROR;
  }

  private parenthesised(): Read {
    if (this.isOp(RPAREN)) {
      this.advance();
      return this.done({ opaque: "tuple", items: [] }, "other", 1);
    }
    const first = this.sum();
    if (first === SYNTAX_ERROR) return SYNTAX_ERROR;
    if (this.isOp(RPAREN)) {
      this.advance();
      return first; // (x) is x itself, kind and depth included
    }
    if (!this.take(COMMA)) return SYNTAX_ERROR;
    const items = this.openItems("tuple", first);
    while (!this.isOp(RPAREN)) {
      if (this.current.kind === "error") return SYNTAX_ERROR;
      if (!items.add(this.sum())) return SYNTAX_ERROR;
      if (this.isOp(COMMA)) this.advance();
      else break;
    }
    return this.take(RPAREN) ? this.done(this.closeItems(items).result(), "other", items.height) : SYNTAX_ERROR;
  }

  private braces(): Read {
    if (this.isOp(RBRACE)) {
      this.advance();
      return this.done(new Map(), "other", 1);
    }
    const first = this.sum();
    if (first === SYNTAX_ERROR) return SYNTAX_ERROR;
    if (this.isOp(COLON)) {
      this.advance();
      const dict = new DictBuilder(this, first);
      if (!dict.value(this.sum())) return SYNTAX_ERROR;
      while (this.isOp(COMMA)) {
        this.advance();
        if (this.isOp(RBRACE)) break;
        if (!dict.key(this.sum()) || !this.take(COLON) || !dict.value(this.sum())) return SYNTAX_ERROR;
      }
      return this.take(RBRACE) ? this.done(dict.result(), "other", dict.height) : SYNTAX_ERROR;
    }
    const items = this.openItems("set", first);
    while (this.isOp(COMMA)) {
      this.advance();
      if (this.isOp(RBRACE)) break;
      if (!items.add(this.sum())) return SYNTAX_ERROR;
    }
    return this.take(RBRACE) ? this.done(this.closeItems(items).result(), "other", items.height) : SYNTAX_ERROR;
  }

  /**
   * Item collectors are reused, one per nesting level (containers nest strictly), so reading a
   * list of many small lists allocates only the lists. A syntax error abandons the whole parse.
   */
  private readonly pool: Items[] = [];
  private level = 0;

  private openItems(kind: "list" | "tuple" | "set", first?: Read): Items {
    const items = (this.pool[this.level] ??= new Items(this));
    this.level++;
    items.reset(kind, kind === "list" || (kind === "tuple" && this.tupleItems));
    if (first !== undefined) items.add(first);
    return items;
  }

  private closeItems(items: Items): Items {
    this.level--;
    return items;
  }

  /** For the builders: the depth of the expression just read, and the failure of the last EVAL_FAILED. */
  lastDepth(): number {
    return this.depth;
  }
  lastEvalFailure(): LiteralFailure {
    return this.evalFailure!;
  }
  /** Restores the failure a container reports (a later item may have overwritten `evalFailure`). */
  failAs(failure: LiteralFailure): typeof EVAL_FAILED {
    this.evalFailure = failure;
    return EVAL_FAILED;
  }
}

const MALFORMED = "malformed node or string";
/** Operators an expression can start with. */
const EXPRESSION_OPS: ReadonlySet<string> = new Set(["(", "[", "{", "+", "-", "..."]);
const MALFORMED_NODE: LiteralFailure = { kind: "syntax", message: MALFORMED };

/** One sign on a numeric Constant (complex numbers stay opaque). */
function applySign(op: string, value: Literal): Literal {
  if (op === "+") return value;
  if (typeof value === "bigint") return -value;
  if (typeof value === "number") return -value;
  return value;
}

/** A real number plus or minus an imaginary one; undefined when malformed. */
function complexSum(left: Literal, right: Literal | typeof EVAL_FAILED): Literal | undefined {
  const leftReal = typeof left === "bigint" || typeof left === "number";
  const rightComplex = right !== EVAL_FAILED && isOpaque(right) && right.opaque === "complex";
  return leftReal && rightComplex ? { opaque: "complex" } : undefined;
}

/**
 * The items of a list, tuple or set: values in order until the first evaluation failure. They are
 * kept on the parser's stack (a nested container is done before the next item comes) and copied
 * out at the exact size, which spares the growth slack of one array per container.
 */
class Items {
  private base = 0;
  private kind: "list" | "tuple" | "set" = "list";
  /** Whether the values are kept (a list's always; a tuple's unless only its hashability matters). */
  private keep = true;
  private failure: LiteralFailure | undefined;
  /** What hashing the tuple would raise: its first unhashable item's failure (in order). */
  private unhashableItem: LiteralFailure | undefined;
  height = 1;

  constructor(private readonly parser: LiteralParser) {}

  reset(kind: "list" | "tuple" | "set", keep: boolean): void {
    this.base = this.parser.stack.length;
    this.kind = kind;
    this.keep = keep;
    this.failure = undefined;
    this.unhashableItem = undefined;
    this.height = 1;
  }

  /** A plain int item (a Constant: depth 1), bound for the lexer's readSimpleInts. */
  readonly addInt = (value: bigint): void => {
    if (this.height < 2) this.height = 2;
    if (!this.failure && this.keep) this.parser.stack.push(value);
  };

  /** false on a syntax error (the caller stops). */
  add(item: Read): boolean {
    if (item === SYNTAX_ERROR) return false;
    this.height = Math.max(this.height, this.parser.lastDepth() + 1);
    if (this.failure) return true;
    if (item === EVAL_FAILED) this.failure = this.parser.lastEvalFailure();
    else if (this.kind === "set") this.failure = unhashable(item);
    else if (this.kind === "tuple" && !this.keep) this.unhashableItem ??= unhashable(item);
    if (!this.failure && this.keep) this.parser.stack.push(item as Literal);
    return true;
  }

  private values(): Literal[] {
    const stack = this.parser.stack;
    const values = stack.slice(this.base);
    stack.length = this.base;
    return values;
  }

  result(): Literal | typeof EVAL_FAILED {
    const values = this.keep ? this.values() : [];
    if (this.failure) return this.parser.failAs(this.failure);
    if (this.kind === "list") return values;
    if (this.kind === "set") return { opaque: "set" };
    if (this.keep) return { opaque: "tuple", items: values };
    return this.unhashableItem ? { opaque: "tuple", unhashable: this.unhashableItem } : HASHABLE_TUPLE;
  }
}

/** A tuple read without its items (pyLiteralDecode with tupleItems: false) that hashes. */
const HASHABLE_TUPLE: OpaqueLiteral = Object.freeze({ opaque: "tuple" });

/** A dict: key, value, then the key's hash, pair after pair (as dict(zip(keys, values)) does). */
class DictBuilder {
  private readonly out: LiteralDict = new Map();
  private failure: LiteralFailure | undefined;
  private pendingKey: Literal | undefined;
  height = 1;

  constructor(private readonly parser: LiteralParser, firstKey: Read) {
    this.key(firstKey);
  }

  key(item: Read): boolean {
    if (item === SYNTAX_ERROR) return false;
    this.height = Math.max(this.height, this.parser.lastDepth() + 1);
    if (!this.failure && item === EVAL_FAILED) this.failure = this.parser.lastEvalFailure();
    this.pendingKey = item === EVAL_FAILED ? undefined : item;
    return true;
  }

  value(item: Read): boolean {
    if (item === SYNTAX_ERROR) return false;
    this.height = Math.max(this.height, this.parser.lastDepth() + 1);
    if (this.failure) return true;
    if (item === EVAL_FAILED) this.failure = this.parser.lastEvalFailure();
    else {
      const key = this.pendingKey as Literal;
      this.failure = unhashable(key);
      if (!this.failure && typeof key === "string") this.out.set(key, item);
    }
    return true;
  }

  result(): Literal | typeof EVAL_FAILED {
    return this.failure ? this.parser.failAs(this.failure) : this.out;
  }
}

function isOpaque(v: Literal): v is OpaqueLiteral {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map);
}

/** Why hash(value) raises TypeError, or undefined when it does not. */
function unhashable(value: Literal): LiteralFailure | undefined {
  if (Array.isArray(value) || value instanceof Map) return { kind: "type", message: "unhashable type" };
  if (isOpaque(value)) {
    if (value.opaque === "set") return { kind: "type", message: "unhashable type: 'set'" };
    if (value.opaque === "tuple") {
      if (value.unhashable) return value.unhashable;
      for (const item of value.items ?? []) {
        const failure = unhashable(item);
        if (failure) return failure;
      }
    }
  }
  return undefined;
}

export function isLiteralList(value: Literal): value is Literal[] {
  return Array.isArray(value);
}
