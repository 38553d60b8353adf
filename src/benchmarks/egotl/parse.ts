/**
 * Reading replies as the paper's supplementary H.2 (Table 5) describes, with every rule made
 * precise. Parsers never throw on model text.
 *
 * - planning: the `best` field of the reply's JSON `{"scores": {...}, "best": "A"}`. The reply is
 *   scanned for complete JSON objects (string-aware brace matching, outermost first); the LAST one
 *   whose `best` is a letter A-D wins (reasoning usually comes first). `best` may be "A", "a",
 *   "(A)", "A." or "Option A". When no object parses (trailing commas, single quotes), a
 *   `"best": "X"` pattern is looked for (last one wins) and the answer says `via: "pattern"`.
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
 *   named first wins.
 * - distance: the first number in the reply: optional sign (+, -, U+2212 when not glued to a
 *   letter or digit before it), digits with an optional decimal point, or a leading-dot decimal,
 *   optional exponent ("3 meters" -> 3, "about 2.5m" -> 2.5, "-1" -> -1, ".5" -> 0.5, "1e3" -> 1000).
 *   A comma ends a number ("1,5" -> 1). Spelled-out numbers are not read.
 */
import type { Answer } from "../../core/benchmark.js";
import type { EgoTLItem } from "./load.js";
import { DIRECTION_LABELS, LETTERS, type DirectionLabel, type Letter } from "./schema.js";

/** NFKC, lower case, punctuation and symbols to spaces, whitespace collapsed and trimmed. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[\p{P}\p{S}]+/gu, " ").replace(/\s+/gu, " ").trim();
}

const tokens = (normalized: string): string[] => (normalized ? normalized.split(" ") : []);

// ------------------------------------------------------------------------------------------
// planning

export interface PlanningReading {
  letter: Letter;
  index: number;
  scores: Partial<Record<Letter, number>> | null;
  via: "json" | "pattern";
}

/** A letter from a `best` value: "A", "a", "(A)", "A.", "Option A"; anything else null. */
export function letterFromValue(value: unknown): Letter | null {
  if (typeof value !== "string") return null;
  const m = /^\s*(?:option\s+)?\(?\s*([A-Da-d])\s*\)?\s*[.:]?\s*$/i.exec(value);
  return m ? (m[1]!.toUpperCase() as Letter) : null;
}

/** Index of the brace closing the object that opens at `start`, skipping braces inside strings; -1 if none. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let j = start; j < text.length; j++) {
    const c = text[j];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return j;
    }
  }
  return -1;
}

/** Complete JSON objects in a text, outermost first, left to right (at most `maxStarts` tries). */
export function findJsonObjects(text: string, maxStarts = 200): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let tries = 0;
  let i = text.indexOf("{");
  while (i >= 0 && tries < maxStarts) {
    tries++;
    const end = closingBrace(text, i);
    if (end < 0) {
      i = text.indexOf("{", i + 1);
      continue;
    }
    try {
      const value: unknown = JSON.parse(text.slice(i, end + 1));
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        out.push(value as Record<string, unknown>);
        i = text.indexOf("{", end + 1);
        continue;
      }
    } catch {
      // not JSON: try the next brace (possibly inside this span)
    }
    i = text.indexOf("{", i + 1);
  }
  return out;
}

export function readPlanning(text: string): PlanningReading | null {
  const objects = findJsonObjects(text);
  for (let k = objects.length - 1; k >= 0; k--) {
    const object = objects[k]!;
    const letter = letterFromValue(object["best"]);
    if (!letter) continue;
    return { letter, index: LETTERS.indexOf(letter), scores: readScores(object["scores"]), via: "json" };
  }
  const pattern = /["']best["']\s*:\s*["']?\s*(?:option\s+)?\(?([A-Da-d])\)?(?![\p{L}\p{N}_])/giu;
  let last: string | null = null;
  for (const m of text.matchAll(pattern)) last = m[1]!;
  if (!last) return null;
  const letter = last.toUpperCase() as Letter;
  return { letter, index: LETTERS.indexOf(letter), scores: null, via: "pattern" };
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

/** Start positions of `needle` in `hay` as whole-token sequences. */
function occurrences(hay: string[], needle: string[]): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  for (let s = 0; s + needle.length <= hay.length; s++) {
    let ok = true;
    for (let t = 0; t < needle.length; t++) if (hay[s + t] !== needle[t]) { ok = false; break; }
    if (ok) out.push(s);
  }
  return out;
}

export function matchOption(reply: string, options: readonly string[]): OptionReading {
  const r = normalizeText(reply);
  if (!r) return { index: null, reason: "empty reply" };
  const normalized = options.map(normalizeText);
  const exact = normalized.indexOf(r);
  if (exact >= 0) return { index: exact, via: "exact" };
  const hay = tokens(r);
  const spans = normalized.map((o) => {
    const len = tokens(o).length;
    return occurrences(hay, tokens(o)).map((s) => [s, s + len] as const);
  });
  const candidates = spans
    .map((list, i) => ({ i, list }))
    .filter(({ i, list }) =>
      list.some(([s, e]) => !spans.some((other, j) => j !== i && other.some(([s2, e2]) => e2 - s2 > e - s && s2 <= s && e <= e2))),
    )
    .map(({ i }) => i);
  if (candidates.length === 1) return { index: candidates[0]!, via: "contains" };
  if (candidates.length === 0) return { index: null, reason: "no option text found in the reply" };
  return { index: null, reason: `the reply contains several options (${candidates.map((i) => LETTERS[i]).join(", ")})`, candidates };
}

// ------------------------------------------------------------------------------------------
// action recognition

/** The first standalone capital A-D (no letter, digit or underscore on either side), or null. */
export function firstLetter(text: string): Letter | null {
  const m = /(?<![\p{L}\p{N}_])[A-D](?![\p{L}\p{N}_])/u.exec(text);
  return m ? (m[0] as Letter) : null;
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
  const hay = tokens(r);
  let best: { at: number; label: DirectionLabel; norm: string } | null = null;
  for (const l of labels) {
    const at = occurrences(hay, tokens(l.norm))[0];
    if (at !== undefined && (best === null || at < best.at)) best = { at, label: l.label, norm: l.norm };
  }
  if (best) return { label: best.label, via: "phrase", matched: best.norm };
  for (const token of hay) {
    const label = Object.hasOwn(DIRECTION_KEYWORDS, token) ? DIRECTION_KEYWORDS[token] : undefined;
    if (label) return { label, via: "keyword", matched: token };
  }
  return null;
}

// ------------------------------------------------------------------------------------------
// distance

const NUMBER = /(?:(?<![\p{L}\p{N}])[-+\u2212])?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?/u;

/** The first number in a reply (see the module comment), or null. */
export function firstNumber(text: string): { value: number; text: string } | null {
  const m = NUMBER.exec(text);
  if (!m) return null;
  return { value: Number(m[0].replace("\u2212", "-")), text: m[0] };
}

// ------------------------------------------------------------------------------------------
// one reply

/** Read raw model text for an item (never throws). */
export function readAnswer(item: EgoTLItem, text: string): Answer {
  const unreadable = (reason: string, extra: Record<string, unknown> = {}): Answer => ({ status: "unparseable", value: Object.keys(extra).length ? extra : null, reason, stored: text });
  switch (item.task) {
    case "planning": {
      const r = readPlanning(text);
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
