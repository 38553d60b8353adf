/**
 * A Java `.properties` parser with the semantics of java.util.Properties.load (Java SE API docs,
 * Properties.load(Reader)):
 * - natural lines end at \n, \r or \r\n; leading spaces, tabs and form feeds are skipped;
 * - a line whose first non-blank character is `#` or `!` is a comment (a comment never continues);
 * - a line ending in an odd number of backslashes continues on the next natural line, whose
 *   leading blanks are dropped (a trailing backslash at the end of the input is dropped);
 * - the key runs to the first unescaped `=`, `:` or blank; blanks after it, then at most one `=`
 *   or `:`, then blanks are skipped; the value is the rest of the logical line;
 * - escapes in keys and values: \t \n \r \f, \uXXXX (exactly four hex digits, else an error, as
 *   Java throws), and a backslash before any other character stands for that character;
 * - a repeated key keeps its last value (insertion order is the first occurrence's).
 *
 * Bytes are decoded as ISO-8859-1 by default, as Properties.load(InputStream) does; `utf8` and
 * `auto` (UTF-8 when the bytes are valid UTF-8, else ISO-8859-1: what PropertyResourceBundle does
 * since Java 9) are options. The Sweet Home 3D catalogues are ISO-8859-1 (bytes such as 0xA9 ©,
 * 0xB0 °, 0xF4 ô that are not valid UTF-8) plus \u escapes.
 *
 * Linear time in the input's length.
 */

export type PropertiesEncoding = "latin1" | "utf8" | "auto";

export class PropertiesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PropertiesError";
  }
}

export function decodePropertiesBytes(bytes: Uint8Array, encoding: PropertiesEncoding = "latin1"): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (encoding === "latin1") return b.toString("latin1");
  if (encoding === "utf8") return new TextDecoder("utf-8", { fatal: false }).decode(b);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    return b.toString("latin1");
  }
}

const isBlank = (c: string) => c === " " || c === "\t" || c === "\f";
const isEol = (c: string) => c === "\n" || c === "\r";

/**
 * Parse properties text (a string) or bytes (decoded per `encoding`). `source` names the input in
 * error messages.
 */
export function parseProperties(
  input: string | Uint8Array,
  options: { encoding?: PropertiesEncoding; source?: string } = {},
): Map<string, string> {
  const text = typeof input === "string" ? input : decodePropertiesBytes(input, options.encoding);
  const source = options.source ?? "properties";
  const out = new Map<string, string>();
  const n = text.length;
  let i = 0;
  let lineNo = 1;

  while (i < n) {
    // Start of a natural line: skip leading blanks.
    while (i < n && isBlank(text[i]!)) i++;
    if (i >= n) break;
    const c0 = text[i]!;
    if (isEol(c0)) {
      i += c0 === "\r" && text[i + 1] === "\n" ? 2 : 1;
      lineNo++;
      continue;
    }
    if (c0 === "#" || c0 === "!") {
      while (i < n && !isEol(text[i]!)) i++;
      continue;
    }

    // A logical line: read key then value, unescaping as we go, following continuations.
    let key = "";
    let value = "";
    let inKey = true;
    let afterKey = false; // between key and value: skipping blanks and one separator
    let sawSeparator = false;

    while (i < n) {
      const c = text[i]!;
      if (isEol(c)) break;
      if (c === "\\") {
        // Count the run of backslashes up to the end of the line to detect a continuation.
        if (i + 1 >= n || isEol(text[i + 1]!)) {
          // Odd trailing backslash (pairs are consumed below as escapes): continuation.
          i++;
          if (i < n) {
            i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
            lineNo++;
          }
          while (i < n && isBlank(text[i]!)) i++;
          continue;
        }
        const e = text[i + 1]!;
        let ch: string;
        let len = 2;
        if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PropertiesError(`${source}:${lineNo}: malformed \\uXXXX escape "\\u${hex}"`);
          ch = String.fromCharCode(parseInt(hex, 16));
          len = 6;
        } else if (e === "t") ch = "\t";
        else if (e === "n") ch = "\n";
        else if (e === "r") ch = "\r";
        else if (e === "f") ch = "\f";
        else ch = e;
        i += len;
        if (afterKey) {
          afterKey = false;
          inKey = false;
        }
        if (inKey) key += ch;
        else value += ch;
        continue;
      }
      if (inKey) {
        if (c === "=" || c === ":") {
          inKey = false;
          afterKey = true;
          sawSeparator = true;
          i++;
          continue;
        }
        if (isBlank(c)) {
          inKey = false;
          afterKey = true;
          i++;
          continue;
        }
        key += c;
        i++;
        continue;
      }
      if (afterKey) {
        if (isBlank(c)) {
          i++;
          continue;
        }
        if (!sawSeparator && (c === "=" || c === ":")) {
          sawSeparator = true;
          i++;
          continue;
        }
        afterKey = false;
      }
      value += c;
      i++;
    }
    out.set(key, value); // a repeated key keeps its first position and its last value
  }
  return out;
}
