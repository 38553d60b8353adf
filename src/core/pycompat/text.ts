/**
 * Python 3.11 string predicates that the official EgoPathBench scripts rely on (str.strip,
 * str.isdigit, int() of a string). JavaScript's own notions differ (String.prototype.trim strips
 * U+FEFF but not U+001C..U+001F or U+0085; \p{Nd} follows a newer Unicode), so the tables here are
 * Python's own (Unicode 14.0, as shipped with CPython 3.11).
 */

/** Code points for which Python's str.isspace() is true. */
const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
  0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]);

/** First code point (the zero) of every run of ten decimal digits (Unicode category Nd) in Unicode 14. */
const DECIMAL_RUN_STARTS = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6,
  0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50,
  0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0,
  0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0,
  0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce,
  0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

/** Inclusive ranges of characters that are digits for str.isdigit() but not decimals (superscripts, circled digits...). */
const NON_DECIMAL_DIGIT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0xb2, 0xb3], [0xb9, 0xb9], [0x1369, 0x1371], [0x19da, 0x19da], [0x2070, 0x2070],
  [0x2074, 0x2079], [0x2080, 0x2089], [0x2460, 0x2468], [0x2474, 0x247c], [0x2488, 0x2490],
  [0x24ea, 0x24ea], [0x24f5, 0x24fd], [0x24ff, 0x24ff], [0x2776, 0x277e], [0x2780, 0x2788],
  [0x278a, 0x2792], [0x10a40, 0x10a43], [0x10e60, 0x10e68], [0x11052, 0x1105a], [0x1f100, 0x1f10a],
];

export function isPySpace(codePoint: number): boolean {
  return PY_SPACE.has(codePoint);
}

/** The decimal value (0-9) of a code point, or -1 when it is not a decimal digit. */
export function decimalValue(codePoint: number): number {
  if (codePoint >= 0x30 && codePoint <= 0x39) return codePoint - 0x30;
  if (codePoint < 0x660) return -1;
  for (const start of DECIMAL_RUN_STARTS) {
    if (codePoint >= start && codePoint < start + 10) return codePoint - start;
  }
  return -1;
}

function isPyDigitCodePoint(codePoint: number): boolean {
  if (decimalValue(codePoint) >= 0) return true;
  return NON_DECIMAL_DIGIT_RANGES.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
}

/** Python's str.isdigit(): non-empty and every character is a digit. */
export function pyIsDigit(text: string): boolean {
  if (text.length === 0) return false;
  for (const ch of text) {
    if (!isPyDigitCodePoint(ch.codePointAt(0)!)) return false;
  }
  return true;
}

/** Python's str.strip() with no arguments (every Python whitespace character is one UTF-16 unit). */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpace(text.charCodeAt(start))) start++;
  while (end > start && isPySpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Python's str.lstrip(chars) for a set of single characters. */
export function pyLstripChars(text: string, chars: string): string {
  let i = 0;
  while (i < text.length && chars.includes(text[i]!)) i++;
  return text.slice(i);
}

/**
 * What int() and float() do to a string before parsing it: ASCII stays as is, other Unicode
 * whitespace becomes a space, Unicode decimal digits become ASCII digits, anything else becomes
 * "?" (which never parses).
 */
export function toNumericAscii(text: string): string {
  let ascii = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 128) ascii += ch;
    else if (isPySpace(cp)) ascii += " ";
    else if (decimalValue(cp) >= 0) ascii += String(decimalValue(cp));
    else ascii += "?";
  }
  return ascii;
}
