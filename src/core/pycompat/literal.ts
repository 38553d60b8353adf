import { PY_INT_MAX_STR_DIGITS } from "./int.js";

/**
 * The part of Python 3.11's `ast.literal_eval` that a model reply can reach: lists, tuples, dicts,
 * sets, str/bytes (all prefixes and escapes except \N{...}), ints in every base, floats, complex
 * sums, True/False/None, `...`, `set()`, one sign on a number, comments and implicit string
 * concatenation. Values that only matter as "not an int, not a list, not a dict" are kept as
 * opaque tags. Throws LiteralSyntaxError where Python raises SyntaxError or ValueError (callers
 * treat both alike) and LiteralTypeError where Python raises TypeError (an unhashable dict key or
 * set element), which the official runner does not catch.
 */
export type Literal = null | boolean | bigint | number | string | Literal[] | LiteralDict | OpaqueLiteral;
export type LiteralDict = Map<string, Literal>;
export interface OpaqueLiteral {
  opaque: "tuple" | "set" | "bytes" | "complex" | "ellipsis";
  /** Only tuples keep items (their hashability depends on them). */
  items?: Literal[];
}
/** Dicts hold only their string keys (the only keys the runner looks up). */

export class LiteralSyntaxError extends Error {}
export class LiteralTypeError extends Error {}

const MAX_NESTING = 200; // the tokenizer's limit on nested brackets

type Token =
  | { kind: "num"; value: bigint | number | "complex" }
  | { kind: "str"; value: string; bytes: boolean; fstring: boolean }
  | { kind: "name"; value: string }
  | { kind: "op"; value: string }
  | { kind: "end" };

export function pyLiteralEval(source: string): Literal {
  const text = source.replace(/^[ \t]+/, "");
  const tokens = tokenize(text);
  const parser = new LiteralParser(tokens);
  const node = parser.expressionList();
  parser.expectEnd();
  return evaluate(node);
}

// ---------------------------------------------------------------- tokenizer

function fail(message: string): never {
  throw new LiteralSyntaxError(message);
}

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let depth = 0;
  let sawNewlineAtTop = false;
  const push = (t: Token) => {
    if (sawNewlineAtTop) fail("statement continues after a newline");
    tokens.push(t);
  };
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === " " || ch === "\t" || ch === "\f") { i++; continue; }
    if (ch === "\\" && (s[i + 1] === "\n" || (s[i + 1] === "\r" && s[i + 2] === "\n"))) {
      i += s[i + 1] === "\n" ? 2 : 3;
      continue;
    }
    if (ch === "#") { while (i < s.length && s[i] !== "\n" && s[i] !== "\r") i++; continue; }
    if (ch === "\n" || ch === "\r") {
      if (depth === 0 && tokens.length > 0) sawNewlineAtTop = true;
      i++;
      continue;
    }
    if (ch === "\0") fail("null byte");
    const stringStart = matchStringPrefix(s, i);
    if (stringStart) {
      const [token, end] = readString(s, i, stringStart.prefix, stringStart.quoteAt);
      push(token);
      i = end;
      continue;
    }
    if (NAME_START.test(ch) || ch.charCodeAt(0) > 127) {
      if (!NAME_START.test(ch)) fail("non-ASCII identifier or character");
      let j = i;
      while (j < s.length && NAME_CHAR.test(s[j]!)) j++;
      push({ kind: "name", value: s.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === "." && /[0-9]/.test(s[i + 1] ?? ""))) {
      const [token, end] = readNumber(s, i);
      push(token);
      i = end;
      continue;
    }
    if (s.startsWith("...", i)) { push({ kind: "op", value: "..." }); i += 3; continue; }
    if ("([{".includes(ch)) {
      depth++;
      if (depth > MAX_NESTING) fail("too many nested parentheses");
      push({ kind: "op", value: ch });
      i++;
      continue;
    }
    if (")]}".includes(ch)) {
      depth--;
      if (depth < 0) fail("unmatched bracket");
      push({ kind: "op", value: ch });
      i++;
      continue;
    }
    if (",:+-".includes(ch)) { push({ kind: "op", value: ch }); i++; continue; }
    // Any other operator or character cannot be part of a literal.
    fail(`unexpected character ${JSON.stringify(ch)}`);
  }
  if (depth !== 0) fail("unclosed bracket");
  tokens.push({ kind: "end" });
  return tokens;
}

function matchStringPrefix(s: string, i: number): { prefix: string; quoteAt: number } | undefined {
  let j = i;
  while (j < s.length && j - i < 2 && /[rRbBuUfF]/.test(s[j]!)) j++;
  if (s[j] !== "'" && s[j] !== '"') return undefined;
  const prefix = s.slice(i, j).toLowerCase();
  const valid = ["", "r", "u", "b", "f", "br", "rb", "fr", "rf"];
  if (!valid.includes(prefix)) return undefined;
  // A letter run longer than the prefix is an identifier (e.g. "abc'x'"), handled by the caller.
  if (i > 0 && NAME_CHAR.test(s[i - 1]!)) return undefined;
  return { prefix, quoteAt: j };
}

function readString(s: string, start: number, prefix: string, quoteAt: number): [Token, number] {
  const quote = s[quoteAt]!;
  const triple = s.startsWith(quote.repeat(3), quoteAt);
  const closing = triple ? quote.repeat(3) : quote;
  const raw = prefix.includes("r");
  const bytes = prefix.includes("b");
  let i = quoteAt + closing.length;
  let out = "";
  for (;;) {
    if (i >= s.length) fail("unterminated string literal");
    if (s.startsWith(closing, i)) { i += closing.length; break; }
    const ch = s[i]!;
    if (!triple && (ch === "\n" || ch === "\r")) fail("unterminated string literal");
    if (bytes && ch.charCodeAt(0) > 127) fail("bytes can only contain ASCII literal characters");
    if (ch !== "\\") { out += ch; i++; continue; }
    const next = s[i + 1];
    if (next === undefined) fail("unterminated string literal");
    if (raw) { out += ch + next; i += 2; continue; }
    const [text, length] = decodeEscape(s, i, bytes);
    out += text;
    i += length;
  }
  void start;
  return [{ kind: "str", value: out, bytes, fstring: prefix.includes("f") }, i];
}

function decodeEscape(s: string, i: number, bytes: boolean): [string, number] {
  const next = s[i + 1]!;
  const simple: Record<string, string> = {
    "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
  };
  if (next in simple) return [simple[next]!, 2];
  if (next === "\n") return ["", 2];
  if (next === "\r") return ["", s[i + 2] === "\n" ? 3 : 2];
  if (/[0-7]/.test(next)) {
    const digits = /^[0-7]{1,3}/.exec(s.slice(i + 1))![0];
    return [String.fromCodePoint(parseInt(digits, 8)), 1 + digits.length];
  }
  const hexLengths: Record<string, number> = bytes ? { x: 2 } : { x: 2, u: 4, U: 8 };
  const hexLength = hexLengths[next];
  if (hexLength !== undefined) {
    const digits = s.slice(i + 2, i + 2 + hexLength);
    if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) fail("truncated \\x/\\u escape");
    const code = parseInt(digits, 16);
    if (code > 0x10ffff) fail("illegal Unicode character");
    return [String.fromCodePoint(code), 2 + hexLength];
  }
  if (next === "N" && !bytes) fail("\\N{...} escapes are not supported");
  return ["\\" + next, 2]; // unknown escapes are kept as written
}

function readNumber(s: string, i: number): [Token, number] {
  const rest = s.slice(i);
  const patterns: Array<[RegExp, (m: string) => bigint | number | "complex"]> = [
    [/^0[xX](?:_?[0-9a-fA-F])+/, (m) => BigInt("0x" + m.slice(2).replaceAll("_", ""))],
    [/^0[oO](?:_?[0-7])+/, (m) => BigInt("0o" + m.slice(2).replaceAll("_", ""))],
    [/^0[bB](?:_?[01])+/, (m) => BigInt("0b" + m.slice(2).replaceAll("_", ""))],
    [
      /^(?:(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*\.?)(?:[eE][+-]?[0-9](?:_?[0-9])*)?[jJ]/,
      () => "complex",
    ],
    [
      /^(?:(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*\.(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*[eE][+-]?[0-9](?:_?[0-9])*)/,
      (m) => Number(m.replaceAll("_", "")),
    ],
    [/^(?:[1-9](?:_?[0-9])*|0+(?:_?0)*)/, (m) => decimalLiteral(m)],
  ];
  for (const [pattern, convert] of patterns) {
    const match = pattern.exec(rest);
    if (!match) continue;
    const end = i + match[0].length;
    if (NAME_CHAR.test(s[end] ?? "") || s[end] === ".") fail("invalid literal");
    return [{ kind: "num", value: convert(match[0]) }, end];
  }
  return fail("invalid number");
}

function decimalLiteral(text: string): bigint {
  const digits = text.replaceAll("_", "");
  if (digits.replace(/^0+/, "").length > PY_INT_MAX_STR_DIGITS) fail("integer literal too long");
  return BigInt(digits);
}

// ---------------------------------------------------------------- parser

type Node =
  | { type: "const"; value: Literal }
  | { type: "fstring" }
  | { type: "list"; items: Node[] }
  | { type: "tuple"; items: Node[] }
  | { type: "set"; items: Node[] }
  | { type: "dict"; entries: Array<[Node, Node]> }
  | { type: "unary"; op: string; operand: Node }
  | { type: "binary"; op: string; left: Node; right: Node }
  | { type: "emptySetCall" };

class LiteralParser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos]!;
  }
  private isOp(value: string): boolean {
    const t = this.peek();
    return t.kind === "op" && t.value === value;
  }
  private take(value: string): void {
    if (!this.isOp(value)) fail(`expected ${value}`);
    this.pos++;
  }

  expectEnd(): void {
    if (this.peek().kind !== "end") fail("unexpected trailing tokens");
  }

  /** A bare comma-separated sequence is a tuple. */
  expressionList(): Node {
    const first = this.sum();
    if (!this.isOp(",")) return first;
    const items = [first];
    while (this.isOp(",")) {
      this.pos++;
      if (this.startsExpression()) items.push(this.sum());
      else break;
    }
    return { type: "tuple", items };
  }

  private startsExpression(): boolean {
    const t = this.peek();
    if (t.kind === "end") return false;
    if (t.kind === "op") return ["(", "[", "{", "+", "-", "..."].includes(t.value);
    return true;
  }

  private sum(): Node {
    let left = this.unary();
    while (this.isOp("+") || this.isOp("-")) {
      const op = (this.peek() as { value: string }).value;
      this.pos++;
      left = { type: "binary", op, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Node {
    if (this.isOp("+") || this.isOp("-")) {
      const op = (this.peek() as { value: string }).value;
      this.pos++;
      return { type: "unary", op, operand: this.unary() };
    }
    return this.atom();
  }

  private atom(): Node {
    const t = this.peek();
    this.pos++;
    if (t.kind === "num") return { type: "const", value: t.value === "complex" ? { opaque: "complex" } : t.value };
    if (t.kind === "str") return this.strings(t);
    if (t.kind === "name") {
      if (t.value === "True") return { type: "const", value: true };
      if (t.value === "False") return { type: "const", value: false };
      if (t.value === "None") return { type: "const", value: null };
      if (t.value === "set" && this.isOp("(")) {
        this.pos++;
        this.take(")");
        return { type: "emptySetCall" };
      }
      return fail(`name ${t.value} is not a literal`);
    }
    if (t.kind === "op") {
      if (t.value === "...") return { type: "const", value: { opaque: "ellipsis" } };
      if (t.value === "[") return { type: "list", items: this.sequence("]") };
      if (t.value === "(") return this.parenthesised();
      if (t.value === "{") return this.braces();
    }
    return fail("expected a literal");
  }

  private strings(first: Extract<Token, { kind: "str" }>): Node {
    let value = first.value;
    let fstring = first.fstring;
    let next = this.peek();
    while (next.kind === "str") {
      if (next.bytes !== first.bytes) fail("cannot mix bytes and nonbytes literals");
      value += next.value;
      fstring ||= next.fstring;
      this.pos++;
      next = this.peek();
    }
    if (fstring) return { type: "fstring" };
    return { type: "const", value: first.bytes ? { opaque: "bytes" } : value };
  }

  private sequence(close: string): Node[] {
    const items: Node[] = [];
    while (!this.isOp(close)) {
      items.push(this.sum());
      if (this.isOp(",")) this.pos++;
      else break;
    }
    this.take(close);
    return items;
  }

  private parenthesised(): Node {
    if (this.isOp(")")) {
      this.pos++;
      return { type: "tuple", items: [] };
    }
    const first = this.sum();
    if (this.isOp(")")) {
      this.pos++;
      return first;
    }
    this.take(",");
    const items = [first];
    while (!this.isOp(")")) {
      items.push(this.sum());
      if (this.isOp(",")) this.pos++;
      else break;
    }
    this.take(")");
    return { type: "tuple", items };
  }

  private braces(): Node {
    if (this.isOp("}")) {
      this.pos++;
      return { type: "dict", entries: [] };
    }
    const first = this.sum();
    if (this.isOp(":")) {
      this.pos++;
      const entries: Array<[Node, Node]> = [[first, this.sum()]];
      while (this.isOp(",")) {
        this.pos++;
        if (this.isOp("}")) break;
        const key = this.sum();
        this.take(":");
        entries.push([key, this.sum()]);
      }
      this.take("}");
      return { type: "dict", entries };
    }
    const items = [first];
    while (this.isOp(",")) {
      this.pos++;
      if (this.isOp("}")) break;
      items.push(this.sum());
    }
    this.take("}");
    return { type: "set", items };
  }
}

// ---------------------------------------------------------------- evaluation (ast.literal_eval's _convert)

function evaluate(node: Node): Literal {
  switch (node.type) {
    case "const":
      return node.value;
    case "fstring":
      return fail("f-strings are not literals");
    case "list":
      return node.items.map(evaluate);
    case "tuple":
      return { opaque: "tuple", items: node.items.map(evaluate) };
    case "emptySetCall":
      return { opaque: "set" };
    case "set":
      for (const item of node.items) requireHashable(evaluate(item));
      return { opaque: "set" };
    case "dict": {
      const out: LiteralDict = new Map();
      for (const [keyNode, valueNode] of node.entries) {
        const key = evaluate(keyNode);
        const value = evaluate(valueNode);
        requireHashable(key);
        if (typeof key === "string") out.set(key, value);
      }
      return out;
    }
    case "unary":
      return signedNumber(node);
    case "binary": {
      const left = signedNumber(node.left);
      const right = plainNumber(node.right);
      const leftReal = typeof left === "bigint" || typeof left === "number";
      const rightComplex = typeof right === "object" && right !== null && "opaque" in right;
      if (!leftReal || !rightComplex) fail("malformed node or string");
      return { opaque: "complex" };
    }
  }
}

function plainNumber(node: Node): Literal {
  if (node.type !== "const") return fail("malformed node or string");
  const v = node.value;
  const isNumber = typeof v === "bigint" || typeof v === "number" || (isOpaque(v) && v.opaque === "complex");
  if (!isNumber) fail("malformed node or string");
  return v;
}

function signedNumber(node: Node): Literal {
  if (node.type !== "unary") return plainNumber(node);
  const operand = plainNumber(node.operand);
  if (node.op === "+") return operand;
  if (typeof operand === "bigint") return -operand;
  if (typeof operand === "number") return -operand;
  return operand;
}

function isOpaque(v: Literal): v is OpaqueLiteral {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map);
}

function requireHashable(value: Literal): void {
  if (Array.isArray(value) || value instanceof Map) throw new LiteralTypeError("unhashable type");
  if (isOpaque(value)) {
    if (value.opaque === "set") throw new LiteralTypeError("unhashable type: 'set'");
    if (value.opaque === "tuple") value.items?.forEach(requireHashable);
  }
}

export function isLiteralList(value: Literal): value is Literal[] {
  return Array.isArray(value);
}
