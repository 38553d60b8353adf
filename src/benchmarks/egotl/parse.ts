/**
 * Reading replies as the paper's supplementary H.2 (Table 5) describes, with every rule made
 * precise. Parsers never throw on model text.
 *
 * - planning: the `best` field of the reply's JSON `{"scores": {...}, "best": "A"}`. The reply is
 *   scanned for complete JSON objects (string-aware brace matching, outermost first); the LAST one
 *   whose `best` is a letter A-D wins (reasoning usually comes first). `best` may be "A", "a",
 *   "(A)", "A." or "Option A". When no object parses (trailing commas, single quotes), a
 *   `"best": "X"` pattern is looked for (last one wins) and the answer says `via: "pattern"`.
 *   A `best` that hedges ("A or B", "either A or B", "A/B": only letters and words such as "or",
 *   "either", "both", at least two letters; at most 64 characters) is unreadable, not its first
 *   letter (hedgedLetters).
 *   The scores are auxiliary: recorded, never scored.
 * - scene_action / next_action: the option text. Reply and options are normalised (NFKC, lower
 *   case, punctuation and symbols to spaces, whitespace collapsed). An exact match wins; else the
 *   options that occur in the reply as whole-word sequences. An occurrence lying entirely inside an
 *   occurrence of a longer matched option does not count (reply "turn left and climb" names only
 *   the option "turn left and climb", not also "turn left"). Exactly one option left: that one;
 *   several (a tie): unreadable, reason lists them. A bare letter is not an option text: unreadable.
 * - action_recognition: the first standalone capital A-D, i.e. one of A B C D with no letter, digit
 *   or underscore right before or after it ("(B)", "B.", "**C**", "Answer: D" all count; "Bob" and
 *   "AB" do not). Note the article "A" counts as well, as the paper's rule implies. No letter: the
 *   reply is unreadable and excluded from the paper's accuracy (see score.ts).
 * - direction: lower case, punctuation stripped (normalised as above); (1) the whole reply is one
 *   of the five labels; else (2) the earliest full label phrase in it ("turn left", "move
 *   forward", ...); else (3) the earliest keyword of DIRECTION_KEYWORDS (whole tokens). So when a
 *   reply names several directions, the verbatim label beats a paraphrase, and among equals the one
 *   named first wins. Standing up reads as Going up and sitting down as Going down ("stand",
 *   "standing", "sit", "sat", ...: the paper's vertical primitives, §4, under its labels, H.2.5).
 * - distance: the first number in the reply: optional sign (+, -, U+2212 when not glued to a
 *   letter or digit before it), digits with an optional decimal point, or a leading-dot decimal,
 *   optional exponent ("3 meters" -> 3, "about 2.5m" -> 2.5, "-1" -> -1, ".5" -> 0.5, "1e3" -> 1000).
 *   A comma ends a number ("1,5" -> 1). Spelled-out numbers are not read.
 */
import type { Answer } from "../../core/benchmark.js";
import { asciiWordAt, CodePointSet, codePointBefore, isAsciiDigit, isJsSpace, JsonContainers, skipJsSpace, type JsonMember } from "../../core/reply-scan.js";
import type { EgoTLItem } from "./load.js";
import { DIRECTION_LABELS, LETTERS, type DirectionLabel, type Letter } from "./schema.js";

/**
 * NFKC, lower case, punctuation and symbols to spaces, whitespace collapsed and trimmed: the words
 * (maximal runs of code points that are neither \p{P}, \p{S} nor \s) joined by single spaces.
 * One pass with a table into a buffer, where two regex replacements cost a string per run.
 */
export function normalizeText(text: string): string {
  const t = text.normalize("NFKC").toLowerCase();
  const out = new Uint16Array(t.length);
  let n = 0;
  let space = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    const pair = (c & 0xfc00) === 0xd800 && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (SEPARATORS.has(pair ? t.codePointAt(i)! : c)) {
      space = n > 0;
    } else {
      if (space) out[n++] = 0x20;
      space = false;
      out[n++] = c;
      if (pair) out[n++] = t.charCodeAt(i + 1);
    }
    if (pair) i++;
  }
  return fromCodeUnits(out, n);
}

const SEPARATORS = new CodePointSet(/^[\p{P}\p{S}\s]$/u);

/** The string of the first n code units (lone surrogates kept), built in chunks. */
function fromCodeUnits(units: Uint16Array, n: number): string {
  const CHUNK = 8192;
  const parts: string[] = [];
  for (let k = 0; k < n; k += CHUNK) parts.push(String.fromCharCode.apply(null, units.subarray(k, Math.min(n, k + CHUNK)) as unknown as number[]));
  return parts.join("");
}

// ------------------------------------------------------------------------------------------
// planning

export interface PlanningReading {
  letter: Letter;
  index: number;
  scores: Partial<Record<Letter, number>> | null;
  via: "json" | "pattern";
}

/**
 * A letter from a `best` value: "A", "a", "(A)", "A.", "Option A"; anything else null. The rule is
 * /^\s*(?:option\s+)?\(?\s*([A-Da-d])\s*\)?\s*[.:]?\s*$/i, read left to right without
 * backtracking (each optional part is taken when present, since nothing else could match there).
 */
export function letterFromValue(value: unknown): Letter | null {
  if (typeof value !== "string") return null;
  let i = skipJsSpace(value, 0);
  if (asciiWordAt(value, i, "option") && isJsSpace(value.charCodeAt(i + 6))) i = skipJsSpace(value, i + 6);
  if (value.charCodeAt(i) === 0x28) i++;
  i = skipJsSpace(value, i);
  const letter = LETTER_OF_CODE.get(value.charCodeAt(i));
  if (letter === undefined) return null;
  i = skipJsSpace(value, i + 1);
  if (value.charCodeAt(i) === 0x29) i = skipJsSpace(value, i + 1);
  const c = value.charCodeAt(i);
  if (c === 0x2e || c === 0x3a) i = skipJsSpace(value, i + 1);
  return i === value.length ? letter : null;
}

const LETTER_OF_CODE = new Map<number, Letter>(LETTERS.flatMap((l) => [[l.charCodeAt(0), l], [l.toLowerCase().charCodeAt(0), l]] as Array<[number, Letter]>));

/** ASCII case-insensitive `word` (lower case) at `at`. */
/**
 * Complete JSON objects in a text, outermost first, left to right (at most `maxStarts` tries).
 * An opening brace is tried; when the text from it is a valid JSON object, that object is taken and
 * the search resumes after it; otherwise at the next opening brace (possibly inside). Linear time:
 * whether a valid object starts at a brace is looked up (JsonContainers), not parsed again, and
 * no nesting depth is too deep (nothing recurses).
 */
export function findJsonObjects(text: string, maxStarts = 200): Array<Record<string, unknown>> {
  return objectSpans(text, new JsonContainers(text), maxStarts).map(([start, end]) => JSON.parse(text.slice(start, end)) as Record<string, unknown>);
}

/** The [start, end) spans findJsonObjects takes. */
function objectSpans(text: string, containers: JsonContainers, maxStarts: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let tries = 0;
  let i = text.indexOf("{");
  while (i >= 0 && tries < maxStarts) {
    tries++;
    const end = containers.end(i);
    if (end > 0) {
      out.push([i, end]);
      i = text.indexOf("{", end);
    } else i = text.indexOf("{", i + 1);
  }
  return out;
}

const PLANNING_KEYS: ReadonlySet<string> = new Set(["best", "scores"]);
const LETTER_KEYS: ReadonlySet<string> = new Set(LETTERS);

/** A `best` that names two or more letters ("A or B", "either A or B", "A/B"): the reply hedges. */
export interface PlanningHedge {
  hedged: Letter[];
  via: "json" | "pattern";
}

/**
 * The letters of a hedged `best` value, or null: split into ASCII words (runs of letters and
 * digits; anything else separates), every word is a letter a-d or one of HEDGE_WORDS (any case),
 * and at least two different letters occur. Values longer than HEDGE_MAX characters, or with a
 * character outside ASCII, are not read as hedges (one bounded scan, no allocation per character).
 */
export function hedgedLetters(value: unknown): Letter[] | null {
  if (typeof value !== "string" || value.length > HEDGE_MAX) return null;
  const letters: Letter[] = [];
  let i = 0;
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (c > 0x7f) return null;
    if (!isAsciiAlnum(c)) {
      i++;
      continue;
    }
    let j = i;
    while (j < value.length && isAsciiAlnum(value.charCodeAt(j))) j++;
    const word = value.slice(i, j).toLowerCase();
    const letter = word.length === 1 ? LETTER_OF_CODE.get(word.charCodeAt(0)) : undefined;
    if (letter !== undefined) {
      if (!letters.includes(letter)) letters.push(letter);
    } else if (!HEDGE_WORDS.has(word)) return null;
    i = j;
  }
  return letters.length >= 2 ? letters : null;
}

/** "either option A or option B" is 27 characters; a hedge is short. */
const HEDGE_MAX = 64;

const isAsciiAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

const HEDGE_WORDS: ReadonlySet<string> = new Set(["or", "either", "and", "option", "options", "maybe", "possibly", "perhaps", "both"]);

export function readPlanning(text: string): PlanningReading | null {
  const r = readPlanningReply(text);
  return r && "letter" in r ? r : null;
}

/**
 * readPlanning, telling a hedge apart: the last JSON object whose `best` is a letter or a hedge
 * decides (a hedge is unreadable, never its first letter); else the last `"best": ...` pattern,
 * read the same way.
 */
export function readPlanningReply(text: string): PlanningReading | PlanningHedge | null {
  const containers = new JsonContainers(text);
  const objects = objectSpans(text, containers, 200);
  for (let k = objects.length - 1; k >= 0; k--) {
    const members = containers.lastMembers(objects[k]![0], PLANNING_KEYS);
    const value = memberValue(containers, members.get("best"));
    const hedged = hedgedLetters(value);
    if (hedged) return { hedged, via: "json" };
    const letter = letterFromValue(value);
    if (!letter) continue;
    return { letter, index: LETTERS.indexOf(letter), scores: scoresAt(containers, members.get("scores")), via: "json" };
  }
  const last = lastBestPattern(text);
  if (!last) return null;
  if (typeof last !== "string") return { hedged: last, via: "pattern" };
  const letter = last.toUpperCase() as Letter;
  return { letter, index: LETTERS.indexOf(letter), scores: null, via: "pattern" };
}

/** A member's value as JSON.parse would give it, for scalars (a container reads as an empty object). */
function memberValue(containers: JsonContainers, member: JsonMember | undefined): unknown {
  if (!member) return undefined;
  const scalar = containers.scalar(member);
  return scalar.kind === "value" ? scalar.value : {};
}

/** readScores of the member's value, reading only its letter keys. */
function scoresAt(containers: JsonContainers, member: JsonMember | undefined): Partial<Record<Letter, number>> | null {
  if (!member || !containers.isObject(member)) return null;
  const letters = containers.lastMembers(member.start, LETTER_KEYS);
  const values: Record<string, unknown> = {};
  for (const [letter, m] of letters) values[letter] = memberValue(containers, m);
  return readScores(values);
}

// The fallback pattern /["']best["']\s*:\s*["']?\s*(?:option\s+)?\(?([A-Da-d])\)?(?![\p{L}\p{N}_])/giu,
// last match, read without backtracking: after the key every part is taken when present (nothing
// else could match there), and the lookahead only needs the character after the letter (a ")"
// there passes either way).
const BEST_KEY = /["']best["']/giu;
/** The lookahead's class, with the pattern's flags (under /iu it also holds, e.g., U+0345, which folds to a letter). */
const BEST_WORD_CHARS = new CodePointSet(/^[\p{L}\p{N}_]$/iu);

function lastBestPattern(text: string): string | Letter[] | null {
  let last: string | Letter[] | null = null;
  BEST_KEY.lastIndex = 0;
  for (let m = BEST_KEY.exec(text); m; m = BEST_KEY.exec(text)) {
    const hedged = hedgedLetters(quotedValueAfter(text, m.index + m[0].length));
    if (hedged) {
      last = hedged;
      continue;
    }
    const read = bestAfterKey(text, m.index + m[0].length);
    if (read) {
      last = read.letter;
      BEST_KEY.lastIndex = read.end;
    } else BEST_KEY.lastIndex = m.index + 1;
  }
  return last;
}

/** The quoted value after `: ` at `from` (up to the same quote, at most HEDGE_MAX characters), or null. */
function quotedValueAfter(text: string, from: number): string | null {
  let i = skipJsSpace(text, from);
  if (text.charCodeAt(i) !== 0x3a) return null;
  i = skipJsSpace(text, i + 1);
  const quote = text[i];
  if (quote !== '"' && quote !== "'") return null;
  // A bounded window keeps many unclosed values linear.
  const window = text.slice(i + 1, i + 2 + HEDGE_MAX);
  const end = window.indexOf(quote);
  return end >= 0 ? window.slice(0, end) : null;
}

function bestAfterKey(text: string, from: number): { letter: string; end: number } | null {
  let i = skipJsSpace(text, from);
  if (text.charCodeAt(i) !== 0x3a) return null;
  i = skipJsSpace(text, i + 1);
  const q = text.charCodeAt(i);
  if (q === 0x22 || q === 0x27) i = skipJsSpace(text, i + 1);
  if (asciiWordAt(text, i, "option") && isJsSpace(text.charCodeAt(i + 6))) i = skipJsSpace(text, i + 6);
  if (text.charCodeAt(i) === 0x28) i++;
  if (LETTER_OF_CODE.get(text.charCodeAt(i)) === undefined) return null;
  const letter = text[i]!;
  i++;
  const next = text.codePointAt(i);
  if (next !== undefined && next !== 0x29 && BEST_WORD_CHARS.has(next)) return null;
  // The match ends after a ")" unless a word character follows it (then it ends before it).
  const afterParen = text.codePointAt(i + 1);
  return { letter, end: next === 0x29 && (afterParen === undefined || !BEST_WORD_CHARS.has(afterParen)) ? i + 1 : i };
}

function readScores(value: unknown): Partial<Record<Letter, number>> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const out: Partial<Record<Letter, number>> = {};
  for (const letter of LETTERS) {
    const v = (value as Record<string, unknown>)[letter];
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    if (Number.isFinite(n)) out[letter] = n;
  }
  return Object.keys(out).length > 0 ? out : null;
}

// ------------------------------------------------------------------------------------------
// option text

export type OptionReading = { index: number; via: "exact" | "contains" } | { index: null; reason: string; candidates?: number[] };

/**
 * Where `phrase` (normalised, non-empty) occurs in the normalised reply as a sequence of whole words:
 * at the start or after a space, and followed by a space or the end. Overlapping occurrences count.
 * Positions are in characters; since words are joined by single spaces, they order occurrences as
 * word positions would, and one span lies inside another exactly when its words do.
 */
function phraseStarts(reply: string, phrase: string): number[] {
  const out: number[] = [];
  if (!phrase) return out;
  for (let at = reply.indexOf(phrase); at !== -1; at = reply.indexOf(phrase, at + 1)) {
    const end = at + phrase.length;
    if ((at === 0 || reply.charCodeAt(at - 1) === 0x20) && (end === reply.length || reply.charCodeAt(end) === 0x20)) out.push(at);
  }
  return out;
}

/**
 * Whether some occurrence of an option lies inside no occurrence of a longer option. Occurrences
 * come sorted, so one pointer per longer option finds the last one starting at or before each
 * occurrence (the only one that can cover it): linear, where comparing all pairs was quadratic.
 */
function hasUncoveredOccurrence(own: Occurrences, longer: readonly Occurrences[]): boolean {
  const next = longer.map(() => 0);
  for (const s of own.starts) {
    let covered = false;
    longer.forEach((other, k) => {
      while (next[k]! < other.starts.length && other.starts[next[k]!]! <= s) next[k]!++;
      const last = next[k]! - 1;
      if (last >= 0 && other.starts[last]! + other.len >= s + own.len) covered = true;
    });
    if (!covered) return true;
  }
  return false;
}

interface Occurrences {
  len: number;
  starts: number[];
}

export function matchOption(reply: string, options: readonly string[]): OptionReading {
  const r = normalizeText(reply);
  if (!r) return { index: null, reason: "empty reply" };
  const normalized = options.map(normalizeText);
  const exact = normalized.indexOf(r);
  if (exact >= 0) return { index: exact, via: "exact" };
  // Lengths in characters: a span inside a longer one is inside one of more words (see phraseStarts).
  const found = normalized.map((o) => ({ len: o.length, starts: phraseStarts(r, o) }));
  const candidates = found
    .map((own, i) => ({ i, own }))
    .filter(({ i, own }) => hasUncoveredOccurrence(own, found.filter((other, j) => j !== i && other.len > own.len)))
    .map(({ i }) => i);
  if (candidates.length === 1) return { index: candidates[0]!, via: "contains" };
  if (candidates.length === 0) return { index: null, reason: "no option text found in the reply" };
  return { index: null, reason: `the reply contains several options (${candidates.map((i) => LETTERS[i]).join(", ")})`, candidates };
}

// ------------------------------------------------------------------------------------------
// action recognition

const WORD_CODE_POINTS = new CodePointSet(/^[\p{L}\p{N}_]$/u);
const LETTER_OR_NUMBER = new CodePointSet(/^[\p{L}\p{N}]$/u);

/**
 * The first standalone capital A-D (no letter, digit or underscore on either side), or null: the
 * first match of /(?<![\p{L}\p{N}_])[A-D](?![\p{L}\p{N}_])/u, with the neighbours looked up.
 */
export function firstLetter(text: string): Letter | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x41 || c > 0x44) continue;
    const before = codePointBefore(text, i);
    const after = i + 1 < text.length ? text.codePointAt(i + 1)! : -1;
    if ((before === -1 || !WORD_CODE_POINTS.has(before)) && (after === -1 || !WORD_CODE_POINTS.has(after))) return text[i] as Letter;
  }
  return null;
}

// ------------------------------------------------------------------------------------------
// direction

/** Paraphrase keywords (whole tokens after normalisation) and the label each stands for. */
export const DIRECTION_KEYWORDS: Readonly<Record<string, DirectionLabel>> = Object.freeze({
  left: "Turn left", leftward: "Turn left", leftwards: "Turn left", counterclockwise: "Turn left", anticlockwise: "Turn left",
  right: "Turn right", rightward: "Turn right", rightwards: "Turn right", clockwise: "Turn right",
  forward: "Move forward", forwards: "Move forward", straight: "Move forward", ahead: "Move forward", onward: "Move forward", onwards: "Move forward",
  advance: "Move forward", advances: "Move forward", advancing: "Move forward",
  up: "Going up", upward: "Going up", upwards: "Going up", upstairs: "Going up", uphill: "Going up",
  ascend: "Going up", ascends: "Going up", ascending: "Going up", ascent: "Going up", climb: "Going up", climbs: "Going up", climbing: "Going up",
  rise: "Going up", rises: "Going up", rising: "Going up",
  down: "Going down", downward: "Going down", downwards: "Going down", downstairs: "Going down", downhill: "Going down",
  descend: "Going down", descends: "Going down", descending: "Going down", descent: "Going down",
  // The paper's vertical primitives are standing up and sitting down (§4 clip-wise segmentation,
  // Fig. 4); its label set (H.2.5) names them Going up and Going down.
  stand: "Going up", stands: "Going up", standing: "Going up", stood: "Going up",
  sit: "Going down", sits: "Going down", sitting: "Going down", sat: "Going down",
});

export interface DirectionReading {
  label: DirectionLabel;
  via: "exact" | "phrase" | "keyword";
  /** The phrase or keyword that decided. */
  matched: string;
}

export function readDirection(text: string): DirectionReading | null {
  const r = normalizeText(text);
  if (!r) return null;
  const labels = DIRECTION_LABELS.map((l) => ({ label: l, norm: normalizeText(l) }));
  const exact = labels.find((l) => l.norm === r);
  if (exact) return { label: exact.label, via: "exact", matched: exact.norm };
  let best: { at: number; label: DirectionLabel; norm: string } | null = null;
  for (const l of labels) {
    const at = firstPhrase(r, l.norm);
    if (at !== -1 && (best === null || at < best.at)) best = { at, label: l.label, norm: l.norm };
  }
  if (best) return { label: best.label, via: "phrase", matched: best.norm };
  const keyword = KEYWORD_WORD.exec(r);
  return keyword ? { label: DIRECTION_KEYWORDS[keyword[0]]!, via: "keyword", matched: keyword[0] } : null;
}

/** The first whole-word occurrence of a phrase, or -1. */
function firstPhrase(reply: string, phrase: string): number {
  for (let at = reply.indexOf(phrase); at !== -1; at = reply.indexOf(phrase, at + 1)) {
    const end = at + phrase.length;
    if ((at === 0 || reply.charCodeAt(at - 1) === 0x20) && (end === reply.length || reply.charCodeAt(end) === 0x20)) return at;
  }
  return -1;
}

/** The first word of a normalised reply that is one of DIRECTION_KEYWORDS (words are space-separated). */
const KEYWORD_WORD = new RegExp(`(?<![^ ])(?:${Object.keys(DIRECTION_KEYWORDS).join("|")})(?![^ ])`);

// ------------------------------------------------------------------------------------------
// distance

/**
 * The first number in a reply (see the module comment), or null: the first match of
 * /(?:(?<![\p{L}\p{N}])[-+\u2212])?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?/u, read in one
 * scan. A number starts at a digit, at a "." before a digit, or at a sign before either of those
 * that no letter or number precedes (otherwise the match starts after the sign).
 */
export function firstNumber(text: string): { value: number; text: string } | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let body = -1;
    if (startsDecimal(text, i)) body = i;
    else if ((c === 0x2d || c === 0x2b || c === 0x2212) && startsDecimal(text, i + 1)) {
      const before = codePointBefore(text, i);
      if (before === -1 || !LETTER_OR_NUMBER.has(before)) body = i + 1;
    }
    if (body < 0) continue;
    const number = text.slice(i, decimalEnd(text, body));
    return { value: Number(number.replace("\u2212", "-")), text: number };
  }
  return null;
}

const startsDecimal = (text: string, i: number) => isAsciiDigit(text.charCodeAt(i)) || (text.charCodeAt(i) === 0x2e && isAsciiDigit(text.charCodeAt(i + 1)));

/** End of \d+(?:\.\d+)?|\.\d+ at i, then of an exponent [eE][-+]?\d+ when one follows. */
function decimalEnd(text: string, i: number): number {
  let j = i;
  while (isAsciiDigit(text.charCodeAt(j))) j++;
  if (text.charCodeAt(j) === 0x2e && isAsciiDigit(text.charCodeAt(j + 1))) {
    j++;
    while (isAsciiDigit(text.charCodeAt(j))) j++;
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(j + 1);
    const digits = sign === 0x2d || sign === 0x2b ? j + 2 : j + 1;
    if (isAsciiDigit(text.charCodeAt(digits))) {
      j = digits;
      while (isAsciiDigit(text.charCodeAt(j))) j++;
    }
  }
  return j;
}

// ------------------------------------------------------------------------------------------
// one reply

/** Read raw model text for an item (never throws). */
export function readAnswer(item: EgoTLItem, text: string): Answer {
  const unreadable = (reason: string, extra: Record<string, unknown> = {}): Answer => ({ status: "unparseable", value: Object.keys(extra).length ? extra : null, reason, stored: text });
  switch (item.task) {
    case "planning": {
      const r = readPlanningReply(text);
      if (r && "hedged" in r) return unreadable(`"best" hedges between ${r.hedged.join(", ")} (a hedge is not an answer)`, { hedged: r.hedged });
      return r ? { status: "ok", value: r, stored: text } : unreadable('no JSON with a "best" letter A-D');
    }
    case "scene_action":
    case "next_action": {
      const r = matchOption(text, item.options ?? []);
      if (r.index === null) return unreadable(r.reason, r.candidates ? { candidates: r.candidates } : {});
      return { status: "ok", value: { index: r.index, letter: LETTERS[r.index], via: r.via }, stored: text };
    }
    case "action_recognition": {
      const letter = firstLetter(text);
      return letter
        ? { status: "ok", value: { letter, index: LETTERS.indexOf(letter) }, stored: text }
        : unreadable("no standalone capital letter A-D (excluded from the paper's accuracy)");
    }
    case "direction": {
      const r = readDirection(text);
      return r ? { status: "ok", value: r, stored: text } : unreadable("no direction label or keyword");
    }
    case "distance": {
      const r = firstNumber(text);
      return r ? { status: "ok", value: { metres: r.value, text: r.text }, stored: text } : unreadable("no number");
    }
  }
}
