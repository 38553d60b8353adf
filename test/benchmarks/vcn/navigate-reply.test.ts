import assert from "node:assert/strict";
import { test } from "node:test";
import { ACTION_PHRASES, readNavReply } from "../../../src/benchmarks/vcn/navigate/reply.js";
import type { ReplyReading } from "../../../src/benchmarks/vcn/navigate/types.js";
import { flat, MB, repeatTo, SHAPES } from "../../helpers/adversarial.js";

/**
 * readNavReply: each rule of src/benchmarks/vcn/navigate/reply.ts with the exact reading it must
 * give (worked out from the rule as the file comment states it, and for the DualVLN text format
 * from the released query_dualvln.py: nine tokens split at single spaces, Python int(), the exact
 * view names, "true" stops, pixels outside 0..384 stop), then 1 MB adversarial replies, read
 * without a throw and in time linear in their length.
 */

const action = (text: string) => readNavReply(text, "action");
const waypoint = (text: string) => readNavReply(text, "waypoint");
const failure = (reason: string): ReplyReading => ({ ok: false, reason });

const NO_ACTION = 'no action in the reply (no JSON object with "action", no action word)';
const BAD_ACTION = 'the JSON "action" value is not one of FORWARD, TURN_LEFT, TURN_RIGHT, STOP';
const BAD_FRAME = 'the JSON "frame" value is not an integer';
const NOT_TWO = 'the JSON "pixel" value is not an array of two numbers [u, v]';
const notReleased = (why: string) => `no JSON object with "frame", "view", "pixel" or "stop", and not the DualVLN text format (${why})`;

// ------------------------------------------------------------------ action mode: JSON

test("action JSON: the four actions, the frame beside them", () => {
  assert.deepEqual(action('{"frame": 7, "action": "FORWARD"}'), { ok: true, frame: 7, action: "FORWARD", rule: "json" });
  assert.deepEqual(action('{"frame": 0, "action": "TURN_LEFT"}'), { ok: true, frame: 0, action: "TURN_LEFT", rule: "json" });
  assert.deepEqual(action('{"action": "TURN_RIGHT", "frame": 31}'), { ok: true, frame: 31, action: "TURN_RIGHT", rule: "json" });
  assert.deepEqual(action('Answer:\n```json\n{"frame": 4, "action": "STOP"}\n```'), { ok: true, frame: 4, action: "STOP", rule: "json" });
});

test("action JSON: the value is read as words of one phrase, in any case and with _ - or spaces", () => {
  const cases: Array<[string, string]> = [
    ["move forward", "FORWARD"], ["Move_Forward", "FORWARD"], ["go straight", "FORWARD"], ["forwards", "FORWARD"],
    ["turn_left", "TURN_LEFT"], ["Turn Left", "TURN_LEFT"], ["left", "TURN_LEFT"], ["rotate-right", "TURN_RIGHT"],
    [" TURN  RIGHT. ", "TURN_RIGHT"], ["Done", "STOP"], ["stop", "STOP"],
  ];
  for (const [value, want] of cases) {
    assert.deepEqual(action(JSON.stringify({ action: value })), { ok: true, frame: null, action: want, rule: "json" }, value);
  }
  // Not one phrase: two phrases, a phrase with other words, a word that is not in the table.
  for (const value of ["turn left then forward", "please stop", "explore", "turn", "", "TURN_LEFTS"]) {
    assert.deepEqual(action(JSON.stringify({ frame: 2, action: value })), failure(BAD_ACTION), value);
  }
  // Not a string.
  assert.deepEqual(action('{"action": 1}'), failure(BAD_ACTION));
  assert.deepEqual(action('{"action": ["FORWARD"]}'), failure(BAD_ACTION));
  assert.deepEqual(action('{"action": null}'), failure(BAD_ACTION));
});

test("action JSON: frame forms (integer, 12.0, a string of digits, null, absent, negative) and bad frames", () => {
  const frameOf = (frame: string) => action(`{"frame": ${frame}, "action": "STOP"}`);
  assert.deepEqual(frameOf("12"), { ok: true, frame: 12, action: "STOP", rule: "json" });
  assert.deepEqual(frameOf("12.0"), { ok: true, frame: 12, action: "STOP", rule: "json" });
  assert.deepEqual(frameOf('" 12 "'), { ok: true, frame: 12, action: "STOP", rule: "json" });
  assert.deepEqual(frameOf("-1"), { ok: true, frame: -1, action: "STOP", rule: "json" });
  assert.deepEqual(frameOf("-0"), { ok: true, frame: 0, action: "STOP", rule: "json" });
  assert.deepEqual(frameOf('"-0"'), { ok: true, frame: 0, action: "STOP", rule: "json" });
  assert.deepEqual(frameOf("null"), { ok: true, frame: null, action: "STOP", rule: "json" });
  assert.deepEqual(action('{"action": "STOP"}'), { ok: true, frame: null, action: "STOP", rule: "json" });
  for (const bad of ["3.5", '"three"', '"12a"', '"-"', "true", "[3]", '{"i": 3}', "1e300", "9007199254740992"]) {
    assert.deepEqual(frameOf(bad), failure(BAD_FRAME), bad);
  }
});

test("action JSON: of several objects the first valid one holding \"action\" decides, nested ones included", () => {
  // No "action" in the first: passed over.
  assert.deepEqual(action('{"frame": 2} {"note": "x"} {"action": "STOP"} {"action": "FORWARD"}'), { ok: true, frame: null, action: "STOP", rule: "json" });
  // The first with "action" decides even when its value is bad: later objects are not read.
  assert.deepEqual(action('{"action": "fly"} {"action": "STOP"}'), failure(BAD_ACTION));
  // An object inside one without the key.
  assert.deepEqual(action('{"answer": {"frame": 2, "action": "turn right"}}'), { ok: true, frame: 2, action: "TURN_RIGHT", rule: "json" });
  // The outer object holds "action": it decides, the inner one is a value.
  assert.deepEqual(action('{"action": "STOP", "plan": {"action": "FORWARD"}}'), { ok: true, frame: null, action: "STOP", rule: "json" });
  // Duplicate keys: the last one, as JSON.parse keeps it.
  assert.deepEqual(action('{"action": "STOP", "action": "FORWARD", "frame": 1, "frame": 9}'), { ok: true, frame: 9, action: "FORWARD", rule: "json" });
  // Malformed objects are no JSON: the next valid one, or the keyword rule on the text.
  assert.deepEqual(action('{"action": TURN_LEFT} {"action": "STOP"}'), { ok: true, frame: null, action: "STOP", rule: "json" });
  assert.deepEqual(action('{"action": "FORWARD",}'), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  // Python-style quotes are no JSON, and "frame': 3" is no frame label: the keyword rule, no frame.
  assert.deepEqual(action("{'frame': 3, 'action': 'TURN_RIGHT'}"), { ok: true, frame: null, action: "TURN_RIGHT", rule: "keyword" });
});

// ------------------------------------------------------------------ action mode: keywords

test("action keywords: every phrase of the table, alone and in a sentence", () => {
  for (const [phrase, want] of ACTION_PHRASES) {
    assert.deepEqual(action(phrase), { ok: true, frame: null, action: want, rule: "keyword" }, phrase);
    assert.deepEqual(action(`I will ${phrase.toUpperCase()} now.`), { ok: true, frame: null, action: want, rule: "keyword" }, phrase);
  }
  // The scan's premise (reply.ts): no two-word phrase starts with a word that is a phrase itself.
  const single = new Set(ACTION_PHRASES.map(([p]) => p).filter((p) => !p.includes(" ")));
  assert.deepEqual(ACTION_PHRASES.filter(([p]) => single.has(p.split(" ")[0]!) && p.includes(" ")), []);
  assert.deepEqual(action("TURN_LEFT"), { ok: true, frame: null, action: "TURN_LEFT", rule: "keyword" });
  assert.deepEqual(action("turn_right"), { ok: true, frame: null, action: "TURN_RIGHT", rule: "keyword" });
  assert.deepEqual(action("Action: MOVE_FORWARD"), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  assert.deepEqual(action("I am done."), { ok: true, frame: null, action: "STOP", rule: "keyword" });
});

test("action keywords: the first action word in the text wins; words are whole", () => {
  assert.deepEqual(action("Turn right, then left."), { ok: true, frame: null, action: "TURN_RIGHT", rule: "keyword" });
  // The plain keyword rule: "left" in a description is an action word.
  assert.deepEqual(action("The door on the left is open; go forward."), { ok: true, frame: null, action: "TURN_LEFT", rule: "keyword" });
  assert.deepEqual(action("Do not stop: move forward."), { ok: true, frame: null, action: "STOP", rule: "keyword" });
  // Whole words only: leftmost, rightward, stopped, forwarding, undone are none.
  assert.deepEqual(action("The leftmost chair, rightward, stopped, forwarding, undone; forward"), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  // "move ahead" and "go straight" are phrases; "ahead" and "straight" alone are not.
  assert.deepEqual(action("move ahead"), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  assert.deepEqual(action("the kitchen is straight ahead"), failure(NO_ACTION));
  assert.deepEqual(action("turn around"), failure(NO_ACTION));
  assert.deepEqual(action("I cannot decide."), failure(NO_ACTION));
  assert.deepEqual(action('{"frame": 3}'), failure(NO_ACTION));
});

test("action keywords: the frame comes from a JSON frame or a frame label, never a bare number", () => {
  assert.deepEqual(action("Frame 7 shows the goal. Move forward."), { ok: true, frame: 7, action: "FORWARD", rule: "keyword" });
  assert.deepEqual(action("The target is frame #12; turn left"), { ok: true, frame: 12, action: "TURN_LEFT", rule: "keyword" });
  assert.deepEqual(action('{"frame": 3} then turn right'), { ok: true, frame: 3, action: "TURN_RIGHT", rule: "keyword" });
  assert.deepEqual(action("7. forward"), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  assert.deepEqual(action("There are 24 frames; turn left"), { ok: true, frame: null, action: "TURN_LEFT", rule: "keyword" });
});

// ------------------------------------------------------------------ both modes: think blocks, empty replies

test("<think> blocks are removed, and an unclosed one with the rest", () => {
  assert.deepEqual(action("<think>turn left? maybe stop</think> move forward"), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  assert.deepEqual(action('<think>{"action": "STOP"}</think>{"action": "FORWARD"}'), { ok: true, frame: null, action: "FORWARD", rule: "json" });
  assert.deepEqual(action("<THINK>left</THINK>stop"), { ok: true, frame: null, action: "STOP", rule: "keyword" });
  assert.deepEqual(action("move forward <think> turn left"), { ok: true, frame: null, action: "FORWARD", rule: "keyword" });
  assert.deepEqual(action("<think> stop"), failure("the reply holds nothing outside <think> blocks"));
  assert.deepEqual(waypoint("<think>a</think>\nFrame 3 View back Pixel 10 20 Stop false"), { ok: true, frame: 3, view: "back", pixel: [10, 20], stop: false, rule: "dualvln-text" });
  assert.deepEqual(waypoint('<think>{"stop": true}</think>{"frame": 5}'), { ok: true, frame: 5, stop: false, rule: "json" });
});

test("empty and whitespace replies, in both modes", () => {
  for (const text of ["", " ", "\n\t \r\n", "\u3000"]) {
    assert.deepEqual(action(text), failure("the reply is empty"), JSON.stringify(text));
    assert.deepEqual(waypoint(text), failure("the reply is empty"), JSON.stringify(text));
  }
  assert.deepEqual(readNavReply(undefined as unknown as string, "action"), failure("the reply is not text"));
});

// ------------------------------------------------------------------ waypoint mode: JSON

test("waypoint JSON: a pixel of a view, with and without stop", () => {
  assert.deepEqual(waypoint('{"frame": 12, "view": "left", "pixel": [200, 150], "stop": false}'), { ok: true, frame: 12, view: "left", pixel: [200, 150], stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"frame": 3, "view": " Back ", "pixel": [0, 383.5], "stop": true}'), { ok: true, frame: 3, view: "back", pixel: [0, 383.5], stop: true, rule: "json" });
  assert.deepEqual(waypoint('{"view": "front", "pixel": [-0, 0.0]}'), { ok: true, frame: null, view: "front", pixel: [0, 0], stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"view": "RIGHT", "pixel": [ 1 , 2 ]}'), { ok: true, frame: null, view: "right", pixel: [1, 2], stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"frame": 1, "view": "front", "pixel": [5, 6], "stop": "TRUE"}'), { ok: true, frame: 1, view: "front", pixel: [5, 6], stop: true, rule: "json" });
  assert.deepEqual(waypoint('{"frame": 1, "view": "front", "pixel": [5, 6], "stop": "false"}'), { ok: true, frame: 1, view: "front", pixel: [5, 6], stop: false, rule: "json" });
  // Beyond the 384-pixel image: the executor's check, not the reader's.
  assert.deepEqual(waypoint('{"view": "front", "pixel": [500, 9000]}'), { ok: true, frame: null, view: "front", pixel: [500, 9000], stop: false, rule: "json" });
});

test("waypoint JSON: a frame alone, a stop alone, and a frame with stop", () => {
  assert.deepEqual(waypoint('{"frame": 17}'), { ok: true, frame: 17, stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"frame": "17", "stop": false}'), { ok: true, frame: 17, stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"stop": true}'), { ok: true, frame: null, stop: true, rule: "json" });
  assert.deepEqual(waypoint('{"frame": 4, "stop": true}'), { ok: true, frame: 4, stop: true, rule: "json" });
  const nothing = failure("the JSON object names no frame, no pixel and does not stop");
  assert.deepEqual(waypoint('{"stop": false}'), nothing);
  assert.deepEqual(waypoint('{"frame": null}'), nothing);
});

test("waypoint JSON: bad pixels, views, stops and frames, each with its reason", () => {
  const pixelOf = (pixel: string) => waypoint(`{"frame": 2, "view": "left", "pixel": ${pixel}}`);
  assert.deepEqual(pixelOf("[-1, 2]"), failure('a JSON "pixel" coordinate is negative'));
  assert.deepEqual(pixelOf("[3, -0.5]"), failure('a JSON "pixel" coordinate is negative'));
  assert.deepEqual(pixelOf("[1e999, 2]"), failure('a JSON "pixel" coordinate is not finite'));
  assert.deepEqual(pixelOf("[2, -1e999]"), failure('a JSON "pixel" coordinate is not finite'));
  for (const bad of ["[1, 2, 3]", "[1]", "[]", '"200,150"', '["1", "2"]', "[[1], [2]]", "[1, null]", "[true, 2]", '{"u": 1, "v": 2}', "200"]) {
    assert.deepEqual(pixelOf(bad), failure(NOT_TWO), bad);
  }
  assert.deepEqual(waypoint('{"pixel": [1, 2]}'), failure('a JSON "pixel" without a "view"'));
  assert.deepEqual(waypoint('{"frame": 3, "view": "front", "stop": true}'), failure('a JSON "view" without a "pixel"'));
  assert.deepEqual(waypoint('{"view": "up", "pixel": [1, 2]}'), failure('the JSON "view" value is not one of front, left, back, right'));
  assert.deepEqual(waypoint('{"view": 0, "pixel": [1, 2]}'), failure('the JSON "view" value is not one of front, left, back, right'));
  assert.deepEqual(waypoint('{"stop": 1}'), failure('the JSON "stop" value is not true or false'));
  assert.deepEqual(waypoint('{"stop": "yes", "frame": 2}'), failure('the JSON "stop" value is not true or false'));
  assert.deepEqual(waypoint('{"frame": 2.5}'), failure(BAD_FRAME));
});

test("waypoint JSON: the first valid object holding any of frame/view/pixel/stop decides", () => {
  assert.deepEqual(waypoint('{"reason": "the sofa"} {"frame": 3} {"frame": 4}'), { ok: true, frame: 3, stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"view": "up", "pixel": [1, 2]} {"frame": 3}'), failure('the JSON "view" value is not one of front, left, back, right'));
  assert.deepEqual(waypoint('{"result": {"frame": 5, "view": "right", "pixel": [10, 20]}}'), { ok: true, frame: 5, view: "right", pixel: [10, 20], stop: false, rule: "json" });
  assert.deepEqual(waypoint('{"frame": 5, "view": "right", "pixel": [10, 20],} {"stop": true}'), { ok: true, frame: null, stop: true, rule: "json" });
  // JSON before the DualVLN text rule, even when the reply is also nine tokens.
  assert.deepEqual(waypoint('{"stop":true} 5 v left p 1 2 s false'), { ok: true, frame: null, stop: true, rule: "json" });
  assert.deepEqual(waypoint('{"frame": 5, "view": "right", "pixel": [10, 20]'), failure(notReleased("7 space-separated tokens, not 9")));
});

// ------------------------------------------------------------------ waypoint mode: the released DualVLN text format

test("DualVLN text: the released format's readings", () => {
  assert.deepEqual(waypoint("Frame 12 View left Pixel 200 150 Stop false"), { ok: true, frame: 12, view: "left", pixel: [200, 150], stop: false, rule: "dualvln-text" });
  assert.deepEqual(waypoint("Frame 0 View front Pixel 0 384 Stop true"), { ok: true, frame: 0, view: "front", pixel: [0, 384], stop: true, rule: "dualvln-text" });
  assert.deepEqual(waypoint("Frame 49 View back Pixel 384 0 Stop True\n"), { ok: true, frame: 49, view: "back", pixel: [384, 0], stop: true, rule: "dualvln-text" });
  // The words are not read; the frame may be negative (scored out of range).
  assert.deepEqual(waypoint("a -3 b right c 7 8 d false"), { ok: true, frame: -3, view: "right", pixel: [7, 8], stop: false, rule: "dualvln-text" });
  assert.deepEqual(waypoint("a -0 b right c -0 +0 d false"), { ok: true, frame: 0, view: "right", pixel: [0, 0], stop: false, rule: "dualvln-text" });
  // Any stop flag but "true" (stripped, lower-cased) goes on: the released code only logs it.
  for (const flag of ["false", "yes", "1", "true.", "Stop"]) {
    assert.deepEqual(waypoint(`Frame 2 View left Pixel 1 2 Stop ${flag}`), { ok: true, frame: 2, view: "left", pixel: [1, 2], stop: false, rule: "dualvln-text" }, flag);
  }
  // Python int(): a sign, "_" between digits, leading zeros, whitespace around ("12\n" is one token).
  assert.deepEqual(waypoint("Frame 1_2 View left Pixel +20 0_5 Stop true"), { ok: true, frame: 12, view: "left", pixel: [20, 5], stop: true, rule: "dualvln-text" });
  assert.deepEqual(waypoint("Frame 012\n View left Pixel 007 \t9 Stop \tfalse"), { ok: true, frame: 12, view: "left", pixel: [7, 9], stop: false, rule: "dualvln-text" });
  assert.deepEqual(waypoint(`F ${"0".repeat(4300)}1 V left P 1 2 S false`), failure(notReleased("the frame token (2nd) is not an integer"))); // 4,301 digits: int() raises
  assert.deepEqual(waypoint(`F ${"0".repeat(4299)}1 V left P 1 2 S false`), { ok: true, frame: 1, view: "left", pixel: [1, 2], stop: false, rule: "dualvln-text" });
});

test("DualVLN text: a pixel outside 0..384 is a stop where the agent stands (the released rule wins)", () => {
  const outside = (frame: number): ReplyReading => ({ ok: true, frame, stop: true, rule: "dualvln-text-outside" });
  assert.deepEqual(waypoint("Frame 12 View right Pixel 385 10 Stop false"), outside(12));
  assert.deepEqual(waypoint("Frame 12 View right Pixel 10 385 Stop false"), outside(12));
  assert.deepEqual(waypoint("Frame 12 View back Pixel -1 10 Stop false"), outside(12));
  assert.deepEqual(waypoint("Frame 3 View left Pixel 0 -5 Stop false"), outside(3));
  assert.deepEqual(waypoint(`Frame 3 View left Pixel ${"9".repeat(400)} 5 Stop false`), outside(3)); // beyond a double: still outside
});

test("DualVLN text: replies the released reader rejects", () => {
  const cases: Array<[string, string]> = [
    ["Frame 12 View Left Pixel 200 150 Stop false", "the view token (4th) is not front, left, back or right"],
    ["Frame 12 View left, Pixel 200 150 Stop false", "the view token (4th) is not front, left, back or right"],
    ["Frame twelve View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"],
    ["Frame 12. View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"],
    ["Frame 1__2 View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"],
    ["Frame _12 View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"],
    ["Frame 12_ View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"],
    ["Frame +-1 View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"],
    ["Frame \u0661\u0662 View left Pixel 200 150 Stop false", "the frame token (2nd) is not an integer"], // Arabic-Indic digits: int() reads them, we do not
    ["Frame 9007199254740992 View left Pixel 1 2 Stop false", "the frame token (2nd) is too large"],
    ["Frame 12 View left Pixel 200.5 150 Stop false", "the pixel tokens (6th, 7th) are not integers"],
    ["Frame 12 View left Pixel 200 1e2 Stop false", "the pixel tokens (6th, 7th) are not integers"],
    ["Frame 12 View left Pixel (200, 150) Stop false", "the pixel tokens (6th, 7th) are not integers"],
    ["Frame 12  View left Pixel 200 150 Stop false", "more than 9 space-separated tokens"],
    ["Frame 12 View left Pixel 200 150 Stop false because", "more than 9 space-separated tokens"],
    ["Frame\t12 View left Pixel 200 150 Stop false", "8 space-separated tokens, not 9"],
    ["Frame 12 View left", "4 space-separated tokens, not 9"],
    ["12", "1 space-separated tokens, not 9"],
  ];
  for (const [text, why] of cases) assert.deepEqual(waypoint(text), failure(notReleased(why)), text);
  // One deviation: the ends are trimmed (the released reader would count a leading space as a token).
  assert.deepEqual(waypoint("  Frame 12 View left Pixel 200 150 Stop false \n"), { ok: true, frame: 12, view: "left", pixel: [200, 150], stop: false, rule: "dualvln-text" });
  // Action mode does not read the released format as a waypoint: "left" is its first action word.
  assert.deepEqual(action("Frame 12 View left Pixel 200 150 Stop false"), { ok: true, frame: 12, action: "TURN_LEFT", rule: "keyword" });
});

// ------------------------------------------------------------------ adversarial replies

const MODES = ["action", "waypoint"] as const;

/** `unit` repeated whole, to about `length` units (no cut word at the end). */
const times = (unit: string, length: number) => flat(unit.repeat(Math.floor(length / unit.length)));

// Every shape at 1 MB, in both modes, is also read by test/core/adversarial-replies.test.ts (the
// readers' sweep of test/helpers/adversarial.ts lists readNavReply); here, replies built to have a
// known reading.
test("1 MB adversarial replies with a known reading", () => {
  assert.deepEqual(action(repeatTo("{", MB) + ' {"action": "STOP", "frame": 2}'), { ok: true, frame: 2, action: "STOP", rule: "json" });
  assert.deepEqual(action(repeatTo("7", MB)), failure(NO_ACTION));
  assert.deepEqual(waypoint(repeatTo("7", MB)), failure(notReleased("1 space-separated tokens, not 9")));
  assert.deepEqual(action(times("frame ", MB) + "stop"), { ok: true, frame: null, action: "STOP", rule: "keyword" });
  assert.deepEqual(action(times("turn ", MB) + "left"), { ok: true, frame: null, action: "TURN_LEFT", rule: "keyword" });
  assert.deepEqual(action(repeatTo('"', MB)), failure(NO_ACTION));
  assert.deepEqual(waypoint(repeatTo('"', MB)), failure(notReleased("1 space-separated tokens, not 9")));
  assert.deepEqual(action(flat('{"action": "' + repeatTo("forward ", MB) + '"}')), failure(BAD_ACTION));
  assert.deepEqual(waypoint(flat('{"frame": 1, "view": "left", "pixel": ' + SHAPES["nested array"]!(MB) + "}")), failure(NOT_TWO));
  assert.deepEqual(waypoint(flat('{"view": "left", "pixel": [1,' + repeatTo(" ", MB) + "2]}")), { ok: true, frame: null, view: "left", pixel: [1, 2], stop: false, rule: "json" });
  assert.deepEqual(waypoint(SHAPES["nested frame object"]!(MB)), failure(BAD_FRAME));
  assert.deepEqual(waypoint(flat(repeatTo("F", MB) + " 12 View left Pixel 1 2 Stop false")), { ok: true, frame: 12, view: "left", pixel: [1, 2], stop: false, rule: "dualvln-text" });
  assert.deepEqual(waypoint(flat("F 1 V left P " + repeatTo("7", MB) + " 2 S false")), failure(notReleased("the pixel tokens (6th, 7th) are not integers")));
  assert.deepEqual(waypoint(flat("F 1 V left P 1 2 S " + repeatTo("x", MB))), { ok: true, frame: 1, view: "left", pixel: [1, 2], stop: false, rule: "dualvln-text" });
});

/** CPU time (ms) of the process while `read` runs: unlike wall time, not inflated when other processes take the CPU. */
function cpuMs(read: () => unknown): number {
  const start = process.cpuUsage();
  read();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The least CPU time (ms) of reading each of two texts, the reads alternated. */
function bestPairMs(readShort: () => unknown, readLong: () => unknown, rounds = 3): [number, number] {
  let [short, long] = [Infinity, Infinity];
  for (let round = 0; round < rounds; round++) {
    short = Math.min(short, cpuMs(readShort));
    long = Math.min(long, cpuMs(readLong));
  }
  return [short, long];
}

/** A reading of the contract's shape: a rule when read, a reason when not. */
function isReading(reading: ReplyReading): boolean {
  return reading.ok ? typeof reading.rule === "string" : typeof reading.reason === "string" && reading.reason.length > 0;
}

test("linear time: reading 2N units takes about twice as long as N on every adversarial shape (4 times would be quadratic)", () => {
  const n = 128 * 1024;
  const slow: string[] = [];
  for (const [shape, make] of Object.entries(SHAPES)) {
    const [short, long] = [make(n), make(2 * n)];
    for (const mode of MODES) {
      assert.ok(isReading(readNavReply(long, mode)), `${mode} on "${shape}"`);
      // Timer noise and a busy machine: a pair counts as slow only when three measurements all say so.
      let verdict = "";
      for (let attempt = 0; attempt < 3; attempt++) {
        const [once, twice] = bestPairMs(() => readNavReply(short, mode), () => readNavReply(long, mode));
        verdict = twice > 3 * once + 2 ? `${mode} on "${shape}": ${once.toFixed(2)} ms -> ${twice.toFixed(2)} ms` : "";
        if (!verdict) break;
      }
      if (verdict) slow.push(verdict);
    }
  }
  assert.deepEqual(slow, []);
});
