import { asciiWordAt, isAsciiDigit, JsonContainers, replaceThinkBlocks, skipJsonSpace, type JsonMember } from "../../../core/reply-scan.js";
import type { NavAction, ViewName } from "../../../sim/types.js";
import { VIEW_NAMES } from "../../../sim/types.js";
import { readFrameIndex } from "../parse.js";
import type { ReplyReading } from "./types.js";

/**
 * Reading one model reply of a closed-loop navigation step (VCN-Bench §3.1 action space; §5.2
 * waypoint mode with an oracle executor). Never throws; time linear in the reply's length (one
 * pass per rule, JSON objects found without recursion by JsonContainers).
 *
 * First, as for goal identification (parse.ts): `<think>...</think>` blocks are removed, and an
 * unclosed `<think>` with everything after it.
 *
 * JSON rule (both modes). Openings "{" are tried left to right, nested ones included; the first
 * that starts a valid JSON object holding one of the mode's keys decides, right or wrong: objects
 * without them are passed over, and a later object is never read once one has decided. A "frame"
 * member is the prior-video frame the reply names as the goal: an integer (12, 12.0 or "12";
 * negative ones are kept and scored out of range), null or absent for none; anything else makes
 * the reading fail.
 *
 * Action mode ({"frame": k, "action": "FORWARD" | "TURN_LEFT" | "TURN_RIGHT" | "STOP"}):
 *   1. "json": the key is "action"; its value, split into words (letters and digits; case,
 *      spaces, "_" and "-" do not matter), must be one phrase of ACTION_PHRASES.
 *   2. "keyword": otherwise the action of the first phrase of ACTION_PHRASES in the text, by
 *      where it starts, read as whole words in any case ("TURN_LEFT" is the words "turn left";
 *      "leftmost" is no "left"). This is a plain keyword rule: "the door on the left; go forward"
 *      reads TURN_LEFT, and "do not stop" reads STOP. The frame then comes from a JSON object or a
 *      "frame 12" label in the text (parse.ts readFrameIndex's "json" and "frame-label" rules; its
 *      first-number fallback is not used), else null.
 *
 * Waypoint mode ({"frame": k, "view": "front"|"left"|"back"|"right", "pixel": [u, v], "stop": b}):
 *   1. "json": the keys are "frame", "view", "pixel", "stop". "view" (case-insensitive) and "pixel"
 *      (two JSON numbers, not negative; 1e999 is not finite) come together or not at all; "stop"
 *      is a boolean or the string "true"/"false", false when absent. Without a pixel the reply names
 *      a frame (the executor goes to the frame's place) or stops at once ({"stop": true}, the frame
 *      then only identifies the goal). A negative or non-finite pixel is a failure here; whether a
 *      pixel lies inside the view is the executor's check (it knows the image size).
 *   2. "dualvln-text": the reply format of the released MV-DualVLN (siqiZ805/VCN-Bench,
 *      model/query_dualvln.py), read by its rules: the reply, split at every single space, is
 *      exactly nine tokens `<w> <frame> <w> <view> <w> <u> <v> <w> <stop>` (the <w> are not read),
 *      e.g. "Frame 12 View left Pixel 200 150 Stop false"; frame, u and v are what Python's int()
 *      accepts (sign, ASCII digits, single "_" between digits, whitespace around, at most 4,300
 *      digits; non-ASCII digits, which int() also takes, are not read here); the view token is
 *      exactly one of the four lower-case names; the stop token, stripped and lower-cased, stops
 *      when it is "true" and in any other case does not (the released code logs an invalid flag
 *      and goes on). Where the two rules differ on a pixel, the released rule wins in its own format:
 *      u or v outside 0..384 (384 included) makes the reply a stop where the agent stands (the
 *      released loop ends the episode without moving), read with rule "dualvln-text-outside" and
 *      no view or pixel. Two deviations: the reply's ends are trimmed of whitespace first (the
 *      released code fails on a leading or trailing space), and a frame beyond 2^53 fails (Python
 *      keeps it, to be scored out of range).
 */

/** Action phrases, as lower-case words. Two-word phrases never start with a word that is a phrase itself. */
export const ACTION_PHRASES: ReadonlyArray<readonly [string, NavAction]> = [
  ["forward", "FORWARD"],
  ["forwards", "FORWARD"],
  ["move forward", "FORWARD"],
  ["go forward", "FORWARD"],
  ["move ahead", "FORWARD"],
  ["go straight", "FORWARD"],
  ["left", "TURN_LEFT"],
  ["turn left", "TURN_LEFT"],
  ["rotate left", "TURN_LEFT"],
  ["right", "TURN_RIGHT"],
  ["turn right", "TURN_RIGHT"],
  ["rotate right", "TURN_RIGHT"],
  ["stop", "STOP"],
  ["done", "STOP"],
];

const PHRASE_ACTIONS: ReadonlyMap<string, NavAction> = new Map(ACTION_PHRASES);
/** The words of the phrases; a text word is read as its index here (-1: none), with no string made. */
const PHRASE_WORDS: readonly string[] = [...new Set(ACTION_PHRASES.flatMap(([phrase]) => phrase.split(" ")))];
const LONGEST_WORD = Math.max(...PHRASE_WORDS.map((w) => w.length));

const ACTION_KEY: ReadonlySet<string> = new Set(["action"]);
const ACTION_KEYS: ReadonlySet<string> = new Set(["action", "frame"]);
const WAYPOINT_KEYS: ReadonlySet<string> = new Set(["frame", "view", "pixel", "stop"]);

/** The released MV-DualVLN image side: pixels outside 0..384 stop the agent (query_dualvln.py). */
export const DUALVLN_IMAGE_SIDE = 384;
/** CPython's default limit on the digits int() converts from a string (3.11 and later). */
const PY_INT_MAX_DIGITS = 4300;

/** How one navigation reply reads in the mode the prompt asked for (the rules: file comment). */
export function readNavReply(text: string, mode: "action" | "waypoint"): ReplyReading {
  if (typeof text !== "string") return fail("the reply is not text");
  if (!NOT_SPACE.test(text)) return fail("the reply is empty");
  const clean = withoutThinking(text);
  if (!NOT_SPACE.test(clean)) return fail("the reply holds nothing outside <think> blocks");
  return mode === "action" ? readAction(clean) : readWaypoint(clean);
}

const fail = (reason: string): ReplyReading => ({ ok: false, reason });
/** Any character but JavaScript's `\s` (what String.prototype.trim removes). */
const NOT_SPACE = /\S/;

/** `<think>` blocks removed, and an unclosed `<think>` with the rest of the text (as parse.ts reads). */
function withoutThinking(text: string): string {
  const closed = replaceThinkBlocks(text, " ", true);
  const unclosed = closed.search(/<think>/i);
  return unclosed === -1 ? closed : closed.slice(0, unclosed);
}

// ------------------------------------------------------------------------------------------------
// JSON
// ------------------------------------------------------------------------------------------------

/**
 * The first valid JSON object holding any of `deciding` (its start), or -1. Only those keys are
 * looked for in each object, so passing over objects with other keys allocates nothing.
 */
function firstObject(containers: JsonContainers, text: string, deciding: ReadonlySet<string>): number {
  for (let start = 0; start < text.length; start++) {
    if (text.charCodeAt(start) !== 0x7b || containers.end(start) < 0) continue;
    if (containers.lastMembers(start, deciding).size > 0) return start;
  }
  return -1;
}

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A JSON "frame" member: an integer (number or string of digits), or null when absent or null. */
function jsonFrame(containers: JsonContainers, member: JsonMember | undefined): Read<number | null> {
  if (!member) return { ok: true, value: null };
  const read = containers.scalar(member);
  const value = read.kind === "value" ? read.value : undefined;
  if (value === null) return { ok: true, value: null };
  const frame = typeof value === "number" ? value : typeof value === "string" ? integerText(value) : null;
  if (frame === null || !Number.isSafeInteger(frame)) return { ok: false, reason: 'the JSON "frame" value is not an integer' };
  return { ok: true, value: frame || 0 }; // -0 read as 0
}

/** "12", " -3 ": an optional minus and ASCII digits, spaces around; else null. */
function integerText(value: string): number | null {
  const digits = value.trim();
  let i = digits.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i === digits.length) return null;
  for (; i < digits.length; i++) if (!isAsciiDigit(digits.charCodeAt(i))) return null;
  return Number(digits);
}

/** A JSON string member's value, or undefined. */
function jsonString(containers: JsonContainers, member: JsonMember): string | undefined {
  const read = containers.scalar(member);
  return read.kind === "value" && typeof read.value === "string" ? read.value : undefined;
}

// ------------------------------------------------------------------------------------------------
// Action mode
// ------------------------------------------------------------------------------------------------

function readAction(text: string): ReplyReading {
  const containers = text.includes("{") ? new JsonContainers(text) : null;
  const start = containers ? firstObject(containers, text, ACTION_KEY) : -1;
  if (containers && start >= 0) {
    const members = containers.lastMembers(start, ACTION_KEYS);
    const frame = jsonFrame(containers, members.get("frame"));
    if (!frame.ok) return fail(frame.reason);
    const value = jsonString(containers, members.get("action")!);
    const action = value === undefined ? undefined : PHRASE_ACTIONS.get(phraseOf(value));
    if (!action) return fail('the JSON "action" value is not one of FORWARD, TURN_LEFT, TURN_RIGHT, STOP');
    return { ok: true, frame: frame.value, action, rule: "json" };
  }
  const action = firstActionPhrase(text);
  if (!action) return fail('no action in the reply (no JSON object with "action", no action word)');
  return { ok: true, frame: textFrame(text), action, rule: "keyword" };
}

/** The frame a prose reply names: a JSON "frame" or a "frame 12" label (parse.ts), never a bare number. */
function textFrame(text: string): number | null {
  const reading = readFrameIndex(text);
  return reading.ok && (reading.rule === "json" || reading.rule === "frame-label") && Number.isSafeInteger(reading.index) ? reading.index : null;
}

/** An ASCII letter or digit (`c | 0x20` folds upper case onto lower case). */
const isWordCode = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);

/** The end of the run of ASCII letters and digits starting at i. */
function wordEnd(text: string, i: number): number {
  let end = i;
  while (end < text.length && isWordCode(text.charCodeAt(end))) end++;
  return end;
}

/** Indices into PHRASE_WORDS of the words of each length. */
const WORDS_BY_LENGTH: readonly number[][] = Array.from({ length: LONGEST_WORD + 1 }, (_, n) => PHRASE_WORDS.flatMap((w, k) => (w.length === n ? [k] : [])));

/** The index in PHRASE_WORDS of the word text[start, end) in any case, or -1. */
function phraseWordIndex(text: string, start: number, end: number): number {
  if (end - start > LONGEST_WORD) return -1;
  const first = text.charCodeAt(start) | 0x20;
  for (const k of WORDS_BY_LENGTH[end - start]!) {
    const word = PHRASE_WORDS[k]!;
    if (word.charCodeAt(0) === first && asciiWordAt(text, start, word)) return k;
  }
  return -1;
}

/** Action of each phrase by the indices of its words: one word [a], two words [a, b] as a * size + b. */
const SINGLE_ACTIONS = new Map<number, NavAction>();
const PAIR_ACTIONS = new Map<number, NavAction>();
for (const [phrase, action] of ACTION_PHRASES) {
  const [a, b] = phrase.split(" ").map((w) => PHRASE_WORDS.indexOf(w)) as [number, number | undefined];
  if (b === undefined) SINGLE_ACTIONS.set(a, action);
  else PAIR_ACTIONS.set(a * PHRASE_WORDS.length + b, action);
}

/**
 * The action of the earliest phrase of ACTION_PHRASES in the text (words: runs of ASCII letters and
 * digits). Phrases are found when their last word is read; a two-word phrase found at word i
 * starts at word i - 1, where no one-word phrase was (else the scan would have ended there), so
 * the first phrase found starts first.
 */
function firstActionPhrase(text: string): NavAction | undefined {
  let previous = -1;
  for (let i = 0; i < text.length; ) {
    if (!isWordCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = wordEnd(text, i);
    const word = phraseWordIndex(text, i, end);
    if (word >= 0) {
      const action = (previous >= 0 && PAIR_ACTIONS.get(previous * PHRASE_WORDS.length + word)) || SINGLE_ACTIONS.get(word);
      if (action) return action;
    }
    previous = word;
    i = end;
  }
  return undefined;
}

/** The value of a JSON "action" as one phrase: its words, lower-cased, joined by single spaces. */
function phraseOf(value: string): string {
  const words: string[] = [];
  for (let i = 0; i < value.length; ) {
    if (!isWordCode(value.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = wordEnd(value, i);
    words.push(value.slice(i, end).toLowerCase());
    i = end;
  }
  return words.join(" ");
}

// ------------------------------------------------------------------------------------------------
// Waypoint mode
// ------------------------------------------------------------------------------------------------

function readWaypoint(text: string): ReplyReading {
  if (text.includes("{")) {
    const containers = new JsonContainers(text);
    const start = firstObject(containers, text, WAYPOINT_KEYS);
    if (start >= 0) return waypointFromJson(containers, text, containers.lastMembers(start, WAYPOINT_KEYS));
  }
  const released = readDualVlnText(text);
  if (released.ok) return released;
  return fail(`no JSON object with "frame", "view", "pixel" or "stop", and not the DualVLN text format (${released.reason})`);
}

function waypointFromJson(containers: JsonContainers, text: string, members: ReadonlyMap<string, JsonMember>): ReplyReading {
  const frame = jsonFrame(containers, members.get("frame"));
  if (!frame.ok) return fail(frame.reason);
  const stop = jsonStop(containers, members.get("stop"));
  if (!stop.ok) return fail(stop.reason);
  const viewMember = members.get("view");
  const pixelMember = members.get("pixel");
  if (!viewMember && !pixelMember) {
    if (stop.value) return { ok: true, frame: frame.value, stop: true, rule: "json" };
    if (frame.value === null) return fail('the JSON object names no frame, no pixel and does not stop');
    return { ok: true, frame: frame.value, stop: false, rule: "json" };
  }
  if (!viewMember) return fail('a JSON "pixel" without a "view"');
  if (!pixelMember) return fail('a JSON "view" without a "pixel"');
  const view = viewOf(jsonString(containers, viewMember));
  if (!view) return fail('the JSON "view" value is not one of front, left, back, right');
  const pixel = jsonPixel(text, containers, pixelMember);
  if (!pixel.ok) return fail(pixel.reason);
  return { ok: true, frame: frame.value, view, pixel: pixel.value, stop: stop.value, rule: "json" };
}

function viewOf(value: string | undefined): ViewName | undefined {
  const name = value?.trim().toLowerCase();
  return VIEW_NAMES.find((v) => v === name);
}

/** A JSON "stop": true/false or "true"/"false" (any case); false when absent. */
function jsonStop(containers: JsonContainers, member: JsonMember | undefined): Read<boolean> {
  if (!member) return { ok: true, value: false };
  const read = containers.scalar(member);
  const value = read.kind === "value" ? read.value : undefined;
  if (typeof value === "boolean") return { ok: true, value };
  const word = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  if (word === "true" || word === "false") return { ok: true, value: word === "true" };
  return { ok: false, reason: 'the JSON "stop" value is not true or false' };
}

/** What ends a number or literal inside a valid JSON array: JSON whitespace, "," or "]". */
const ENDS_SCALAR: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x5d]);

/**
 * A JSON "pixel": an array of exactly two finite, non-negative numbers. The array is valid JSON
 * (JsonContainers checked it), so its elements are read at its own level, nested ones skipped.
 */
function jsonPixel(text: string, containers: JsonContainers, member: JsonMember): Read<[number, number]> {
  const notTwo: Read<[number, number]> = { ok: false, reason: 'the JSON "pixel" value is not an array of two numbers [u, v]' };
  if (text.charCodeAt(member.start) !== 0x5b) return notTwo;
  const values: number[] = [];
  let p = skipJsonSpace(text, member.start + 1);
  while (text.charCodeAt(p) !== 0x5d) {
    if (values.length === 2) return notTwo;
    const c = text.charCodeAt(p);
    if (c === 0x5b || c === 0x7b || c === 0x22) return notTwo; // a container or a string
    let end = p;
    while (end < member.end && !ENDS_SCALAR.has(text.charCodeAt(end))) end++;
    const value = JSON.parse(text.slice(p, end)) as unknown;
    if (typeof value !== "number") return notTwo;
    values.push(value);
    p = skipJsonSpace(text, end);
    if (text.charCodeAt(p) === 0x2c) p = skipJsonSpace(text, p + 1);
  }
  if (values.length !== 2) return notTwo;
  const [u, v] = values as [number, number];
  if (!Number.isFinite(u) || !Number.isFinite(v)) return { ok: false, reason: 'a JSON "pixel" coordinate is not finite' };
  if (u < 0 || v < 0) return { ok: false, reason: 'a JSON "pixel" coordinate is negative' };
  return { ok: true, value: [u || 0, v || 0] }; // -0 read as 0
}

// ------------------------------------------------------------------------------------------------
// The released MV-DualVLN text format (model/query_dualvln.py), by its rules (file comment)
// ------------------------------------------------------------------------------------------------

/** Python's str.isspace() for one UTF-16 unit (what strip() and int() remove). */
function isPySpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

function pyStrip(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && isPySpace(token.charCodeAt(start))) start++;
  while (end > start && isPySpace(token.charCodeAt(end - 1))) end--;
  return token.slice(start, end);
}

/** Python's int(token) for base-10 text: a sign, digits with single "_" between them; null when int() raises. */
function pyInt(token: string): number | null {
  const s = pyStrip(token);
  let i = s.charCodeAt(0) === 0x2b || s.charCodeAt(0) === 0x2d ? 1 : 0;
  let digits = "";
  for (let afterDigit = false; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isAsciiDigit(c)) {
      afterDigit = true;
      digits += s[i];
      if (digits.length > PY_INT_MAX_DIGITS) return null;
    } else if (c === 0x5f && afterDigit && isAsciiDigit(s.charCodeAt(i + 1))) afterDigit = false;
    else return null;
  }
  if (digits.length === 0) return null;
  const value = Number(digits);
  return s.charCodeAt(0) === 0x2d && value !== 0 ? -value : value;
}

const DUALVLN_TOKENS = 9;

function readDualVlnText(reply: string): ReplyReading {
  const text = reply.trim();
  let spaces = 0;
  for (let i = text.indexOf(" "); i !== -1 && spaces < DUALVLN_TOKENS; i = text.indexOf(" ", i + 1)) spaces++;
  if (spaces !== DUALVLN_TOKENS - 1) return fail(spaces < DUALVLN_TOKENS - 1 ? `${spaces + 1} space-separated tokens, not 9` : "more than 9 space-separated tokens");
  const [, frameToken, , viewToken, , uToken, vToken, , stopToken] = text.split(" ") as [string, string, string, string, string, string, string, string, string];
  const frame = pyInt(frameToken);
  if (frame === null) return fail("the frame token (2nd) is not an integer");
  if (!Number.isSafeInteger(frame)) return fail("the frame token (2nd) is too large");
  const view = VIEW_NAMES.find((name) => name === viewToken);
  if (!view) return fail("the view token (4th) is not front, left, back or right");
  const u = pyInt(uToken);
  const v = pyInt(vToken);
  if (u === null || v === null) return fail("the pixel tokens (6th, 7th) are not integers");
  if (u < 0 || u > DUALVLN_IMAGE_SIDE || v < 0 || v > DUALVLN_IMAGE_SIDE) return { ok: true, frame, stop: true, rule: "dualvln-text-outside" };
  return { ok: true, frame, view, pixel: [u, v], stop: pyStrip(stopToken).toLowerCase() === "true", rule: "dualvln-text" };
}
