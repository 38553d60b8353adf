import { asciiWordAt, isAsciiDigit, isJsSpace, JsonContainers, replaceThinkBlocks, skipJsSpace } from "../../core/reply-scan.js";

/**
 * Reading one frame index from a reply. Never throws; time linear in the reply's length. The
 * rule, in order:
 *   0. `<think>...</think>` blocks are removed (reasoning models), and an unclosed `<think>` with
 *      everything after it.
 *   1. JSON: the first `{...}` in the text that parses as a JSON object with a key "frame"
 *      (or "frame_index", "index") holding an integer (a number like 12 or 12.0, or a string "12").
 *      Openings are tried left to right (nested objects included); the first that starts a valid
 *      object decides: without any of the keys it is passed over, with one it answers (null when
 *      the value is no integer).
 *   2. A frame label: the first "frame 12" / "Frame: 12" / "frame #12" / "frame index 12"
 *      (case-insensitive; "frames 1-5" does not match).
 *   3. An answer label: the first "answer", "choose" or "chose" (a whole word, any case) followed
 *      by an integer, with optionally "is", then ":" or "=", then "#" in between, and spaces or
 *      markdown asterisks around them: "the answer is 7", "Answer: 7", "**Answer:** 7", "I choose 7".
 *   4. The first number in the text that is not a count of frames, if it is an integer ("12",
 *      "12.0"; "3.5" is unreadable). A number followed by the word "frame" or "frames" ("There are
 *      24 frames") counts frames and is passed over. This also reads the released DualVLN reply
 *      format, whose second token is the frame index.
 * Labels (rules 2 and 3) take the whole run of digits, which must not continue as a decimal
 * ("frame 3.5" is no label). Negative numbers are read as such (and scored out-of-range). There is
 * no nesting limit: JSON objects are found without recursion (see JsonContainers), so a reply of
 * 1 MB of "{" or of one deeply nested object is read like any other.
 */

export type FrameReading =
  | { ok: true; index: number; rule: "json" | "frame-label" | "answer-label" | "first-integer" }
  | { ok: false; reason: string };

const JSON_KEYS = ["frame", "frame_index", "index"];
const JSON_KEY_SET: ReadonlySet<string> = new Set(JSON_KEYS);

function integerOf(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value.trim());
  return null;
}

/**
 * Rule 1. Equivalent to trying JSON.parse on every "{" ... "}" slice, openings left to right and
 * closings shortest first (what this function used to do, in quadratic time): only the slice that
 * ends where the object opening there ends can parse (see JsonContainers).
 */
function fromJson(text: string): number | null | undefined {
  if (!text.includes("{")) return undefined;
  const containers = new JsonContainers(text);
  for (let start = 0; start < text.length; start++) {
    if (text.charCodeAt(start) !== 0x7b || containers.end(start) < 0) continue;
    const members = containers.lastMembers(start, JSON_KEY_SET);
    const key = JSON_KEYS.find((k) => members.has(k));
    if (key === undefined) continue;
    const value = containers.scalar(members.get(key)!);
    return value.kind === "value" ? integerOf(value.value) : null;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------------
// Rule 2: /\bframe(?:\s*index)?\s*(?:[:#=]|no\.?|number)?\s*(-?\d+)(?![\d.]*\d)/i, read without
// backtracking. Each part of the label can be read in only one way (the spaces are greedy, and
// what follows each of them is never a space), so a greedy left-to-right reading matches exactly
// when the regex does, and takes the same digits: the whole run of digits, which the lookahead
// wants followed by dots only, then anything but a digit.
// ------------------------------------------------------------------------------------------------

const isWordChar = (c: number) => isAsciiDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/**
 * The integer starting at `i` as a label takes it: an optional "-", the whole run of digits, and
 * not a decimal (the digits may be followed by dots, then anything but a digit). Null otherwise.
 */
function labelNumberAt(text: string, i: number): string | null {
  const numberStart = i;
  if (text.charCodeAt(i) === 0x2d) i++;
  const digitsStart = i;
  while (isAsciiDigit(text.charCodeAt(i))) i++;
  if (i === digitsStart) return null;
  const numberEnd = i;
  while (text.charCodeAt(i) === 0x2e) i++;
  if (i > numberEnd && isAsciiDigit(text.charCodeAt(i))) return null; // (?![\d.]*\d)
  return text.slice(numberStart, numberEnd);
}

/** The label's number when a label starts at the "frame" found at `at`, else null. */
function labelAt(text: string, at: number): string | null {
  if (at > 0 && isWordChar(text.charCodeAt(at - 1))) return null; // \b before "frame"
  let i = at + 5;
  const afterSpace = skipJsSpace(text, i);
  if (asciiWordAt(text, afterSpace, "index")) i = afterSpace + 5;
  i = skipJsSpace(text, i);
  const c = text.charCodeAt(i);
  if (c === 0x3a || c === 0x23 || c === 0x3d) i++;
  else if (asciiWordAt(text, i, "number")) i += 6;
  else if (asciiWordAt(text, i, "no")) i += text.charCodeAt(i + 2) === 0x2e ? 3 : 2;
  return labelNumberAt(text, skipJsSpace(text, i));
}

function frameLabel(text: string): string | null {
  const word = /frame/gi;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    const number = labelAt(text, m.index);
    if (number !== null) return number;
    word.lastIndex = m.index + 1;
  }
  return null;
}

// ------------------------------------------------------------------------------------------------
// Rule 3: an answer label. Every part after the word is optional and read greedily; spaces and
// asterisks are skipped in runs that end at the next other character, so no character is read by
// two labels' scans and the whole search stays linear.
// ------------------------------------------------------------------------------------------------

/** The first index at or after `from` that is neither `\s` nor "*" (markdown emphasis). */
function skipSpaceAndStars(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text.charCodeAt(i) === 0x2a || isJsSpace(text.charCodeAt(i)))) i++;
  return i;
}

/** The number of an answer label whose word (of `length` letters) starts at `at`, else null. */
function answerLabelAt(text: string, at: number, length: number): string | null {
  if (at > 0 && isWordChar(text.charCodeAt(at - 1))) return null;
  let i = skipSpaceAndStars(text, at + length);
  if (asciiWordAt(text, i, "is") && !isWordChar(text.charCodeAt(i + 2))) i = skipSpaceAndStars(text, i + 2);
  const c = text.charCodeAt(i);
  if (c === 0x3a || c === 0x3d) i = skipSpaceAndStars(text, i + 1);
  if (text.charCodeAt(i) === 0x23) i++;
  return labelNumberAt(text, i);
}

function answerLabel(text: string): string | null {
  const word = /answer|choose|chose/gi;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    const number = answerLabelAt(text, m.index, m[0].length);
    if (number !== null) return number;
  }
  return null;
}

/** Rule 4's count test: the number ending at `end` is followed by the word "frame" or "frames". */
function countsFrames(text: string, end: number): boolean {
  const i = skipJsSpace(text, end);
  if (!asciiWordAt(text, i, "frame")) return false;
  const after = text.charCodeAt(i + 5) === 0x73 || text.charCodeAt(i + 5) === 0x53 ? i + 6 : i + 5;
  return !isWordChar(text.charCodeAt(after));
}

/** Rule 4: the first number that is not a count of frames (null: none). */
function firstNonCountNumber(text: string): string | null {
  const number = /-?\d+(?:\.\d+)?/g;
  for (let m = number.exec(text); m; m = number.exec(text)) {
    if (!countsFrames(text, m.index + m[0].length)) return m[0];
  }
  return null;
}

export function readFrameIndex(text: string): FrameReading {
  if (typeof text !== "string") return { ok: false, reason: "the reply is not text" };
  const closed = replaceThinkBlocks(text, " ", true);
  const unclosed = closed.search(/<think>/i);
  const clean = unclosed === -1 ? closed : closed.slice(0, unclosed) + " ";
  const json = fromJson(clean);
  if (json !== undefined) {
    return json === null ? { ok: false, reason: "the JSON \"frame\" value is not an integer" } : { ok: true, index: json, rule: "json" };
  }
  const label = frameLabel(clean);
  if (label !== null) return { ok: true, index: Number(label), rule: "frame-label" };
  const answer = answerLabel(clean);
  if (answer !== null) return { ok: true, index: Number(answer), rule: "answer-label" };
  const number = firstNonCountNumber(clean);
  if (number === null) return { ok: false, reason: "no frame index in the reply" };
  const value = Number(number);
  if (!Number.isInteger(value)) return { ok: false, reason: `the first number (${number}) is not an integer` };
  return { ok: true, index: value, rule: "first-integer" };
}
