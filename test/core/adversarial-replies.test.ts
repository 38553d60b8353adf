import assert from "node:assert/strict";
import { test } from "node:test";
import type { Answer } from "../../src/core/benchmark.js";
import { pyJsonLoads, PyJsonError, PyRecursionError, type PyDict } from "../../src/core/pycompat/json.js";
import { LiteralRecursionError, LiteralSyntaxError, pyLiteralEval, type Literal } from "../../src/core/pycompat/literal.js";
import { egopath } from "../../src/benchmarks/egopath/index.js";
import { patheval } from "../../src/benchmarks/patheval/index.js";
import { parseAnswer } from "../../src/benchmarks/patheval/parse.js";
import { epic } from "../../src/benchmarks/epic/index.js";
import { vcn } from "../../src/benchmarks/vcn/index.js";
import { egotl } from "../../src/benchmarks/egotl/index.js";
import {
  decodeOutcome, egopathRouteItem, egopathSetItem, egotlItem, epicItem, flat, MB, PATHEVAL_PROMPTS, pathevalItem, PY_DECODERS,
  readerCases, repeatTo, SHAPES, vcnItem,
} from "../helpers/adversarial.js";

/**
 * Every reader of model text and of predictions lines, on 1 MB adversarial inputs: it returns an
 * Answer of a valid shape and never throws (no RangeError from deep nesting either). For
 * constructed inputs, the exact answer each benchmark's rule gives. Timing is bench/replies.ts's
 * business, not the tests'.
 */

const STATUSES = new Set(["ok", "missing", "failed", "unparseable"]);

/** `unit` repeated whole, to about `length` characters (no cut unit at the end). */
const times = (unit: string, length: number) => flat(unit.repeat(Math.floor(length / unit.length)));

function assertAnswer(answer: Answer, label: string): void {
  assert.ok(answer && typeof answer === "object", `${label}: an Answer`);
  assert.ok(STATUSES.has(answer.status), `${label}: status ${String(answer.status)}`);
  if (answer.status === "ok") assert.ok(answer.value !== null && answer.value !== undefined, `${label}: an ok answer has a value`);
  else assert.equal(typeof answer.reason, "string", `${label}: a failure says why`);
}

test("every reader, every adversarial shape, 1 MB: a valid Answer, never a throw", () => {
  const cases = readerCases();
  for (const [shape, make] of Object.entries(SHAPES)) {
    const text = make(MB);
    for (const reader of cases) {
      const label = `${reader.name} on "${shape}"`;
      let answer: Answer | undefined;
      assert.doesNotThrow(() => {
        answer = reader.read(reader.prepare(text));
      }, label);
      assertAnswer(answer!, label);
    }
  }
});

test("json.loads and literal_eval on 1 MB lines: a value or the typed error Python's exception maps to", () => {
  for (const [shape, make] of Object.entries(SHAPES)) {
    const text = make(MB);
    for (const [name, decode] of Object.entries(PY_DECODERS)) {
      // decodeOutcome rethrows anything but the typed errors (a RangeError would fail here).
      assert.doesNotThrow(() => decodeOutcome(decode, text), `${name} on "${shape}"`);
    }
  }
});

// ------------------------------------------------------------------ EgoPathBench (the official runner's rules)

const egoRead = (text: string, set = true) => egopath.readReply(set ? egopathSetItem : egopathRouteItem, text);

test("egopath: after 1 MB of junk, the first bracketed list that reads as ids is the answer", () => {
  for (const junk of ["{x}", "{{{", "]]]", "((((", "\u{1F600}", "\ud800", "\0", "Answer: ", "'a", "True None "]) {
    const answer = egoRead(repeatTo(junk, MB) + " [1, 2] then [3]");
    assert.equal(answer.status, "ok", junk);
    assert.deepEqual(answer.value, [1n, 2n], junk);
    assert.equal(answer.stored, "[1, 2]", junk);
  }
  // Candidates in order: "[x]" reads as nothing, the next list holds a dict with an id.
  assert.deepEqual(egoRead(times("[x] ", MB) + '[{"id": 3}] [4]').value, [3n]);
  // Braced objects are tried only after every bracketed list: none here, so {"display_ids": ...}.
  assert.deepEqual(egoRead(times("{x} ", MB) + "{'display_ids': '4'} {\"display_ids\": \"1\"}").status, "unparseable");
});

test("egopath: 1 MB lists read whole, by json.loads or, failing that, literal_eval", () => {
  const n = MB / 2;
  const json = egoRead(flat("[" + "1,".repeat(n - 1) + "2]"), false);
  assert.equal(json.status, "ok");
  assert.equal((json.value as bigint[]).length, n);
  assert.equal((json.value as bigint[])[n - 1], 2n);
  // A trailing comma is not JSON but is a Python list.
  const python = egoRead(flat("[" + "3,".repeat(n) + "]"), false);
  assert.equal(python.status, "ok");
  assert.equal((python.value as bigint[]).length, n);
  assert.ok((python.stored as string).startsWith("[3, 3, 3"));
  // a1: one id outside all_ids makes the whole reply a failure.
  const outside = egoRead(flat("[" + "1,".repeat(n) + "7]"));
  assert.equal(outside.status, "unparseable");
  assert.match(outside.reason!, /ids outside the candidate set: 7$/);
  // A list of lists is no list of ids; its first inner list is.
  assert.deepEqual(egoRead(flat("[" + "[2],".repeat(MB / 4 - 1) + "[3]]")).value, [2n]);
});

test("egopath: nesting too deep for CPython is the runner raising RecursionError, never a stack overflow", () => {
  const raised = /the official runner raise \(maximum recursion depth exceeded/;
  for (const deep of [SHAPES["nested array"]!(MB), SHAPES["open brackets [[["]!(MB), SHAPES["nested object"]!(MB), repeatTo("-", MB) + "1"]) {
    const answer = egoRead(deep);
    assert.equal(answer.status, "unparseable");
    assert.match(answer.reason!, raised);
    assert.equal(answer.stored, "");
  }
  // Past 200 brackets (and no json nesting) literal_eval only has a syntax error: the reply is not ids.
  const parens = egoRead(repeatTo("(", MB));
  assert.equal(parens.status, "unparseable");
  assert.equal(parens.reason, "no JSON array of display ids found in the reply");
});

test("egopath: a predictions line with a 1 MB output is read with the evaluator's rules", () => {
  const line = (output: unknown) => pyJsonLoads(JSON.stringify({ question_id: 1, output })) as PyDict;
  assert.equal(egopath.readPrediction(egopathSetItem, line(repeatTo("x", MB) + "[1]")).status, "unparseable"); // prose around an array
  assert.equal((egopath.readPrediction(egopathSetItem, line(Array.from({ length: MB / 4 }, () => 3))).value as bigint[]).length, MB / 4);
  assert.equal(egopath.readPrediction(egopathSetItem, line("```json\n" + "[" + "2, ".repeat(1000) + "2]\n```")).status, "ok");
});

// ------------------------------------------------------------------ PathEval

test("patheval: 1 MB replies, robust and official readings", () => {
  const plain = PATHEVAL_PROMPTS["plain"];
  // Robust: the text after the first "Answer:" names one path.
  assert.equal(patheval.readReply(pathevalItem, repeatTo("Answer: ", MB) + "Path 2", plain).value, "Path 2");
  // Official: only the text between the first "Answer: " and the next counts, here nothing.
  assert.equal(parseAnswer(repeatTo("Answer: ", MB) + "Path 2", { mode: "official" }), null);
  assert.equal(parseAnswer("Answer: Path 1\nExplanation: " + repeatTo("Path 2 ", MB), { mode: "official" }), "Path 1");
  // A <think> block is dropped; a closing tag before any opening one closes nothing.
  assert.equal(patheval.readReply(pathevalItem, "<think>Answer: Path 1" + repeatTo(" x", MB) + "</think> Answer: Path 2", plain).value, "Path 2");
  assert.equal(patheval.readReply(pathevalItem, "</think>" + repeatTo("<think>", MB) + " Answer: Path 1", plain).value, "Path 1");
  // Naming both paths is no choice.
  assert.equal(patheval.readReply(pathevalItem, "Answer: " + repeatTo("Path 1 Path 2 ", MB), plain).status, "unparseable");
  // Flipped pair: "Path 1" is the record's Path 2.
  assert.equal(patheval.readReply(pathevalItem, repeatTo("\u8def", MB) + " Answer: Path 1", PATHEVAL_PROMPTS["flipped"]).value, "Path 2");
});

// ------------------------------------------------------------------ EPIC-Bench (the official formatter's rules)

test("epic: 1 MB replies, the formatter's candidate rules", () => {
  const item = epicItem("Category");
  // Tuples become lists up to the first "]" followed by "," or "}": here the whole list.
  const object = '{"number_of_objects": 2, "bounding_boxes": [(1, 2, 3, 4), [5, 6, 7, 8]]}';
  // A fence that never closes holds no block; the object around the first key is read.
  const unclosed = epic.readReply(item, "```" + repeatTo(" ", MB) + object);
  assert.equal(unclosed.status, "ok");
  assert.deepEqual(unclosed.value, { localization: [[1, 2, 3, 4], [5, 6, 7, 8]], count: [2n], path: ["Not Required"], binary: ["Not Required"] });
  // A complete fenced block wins over text around it.
  const fenced = epic.readReply(item, repeatTo("{x}", MB) + "```json\n" + object + "\n```");
  assert.deepEqual((fenced.value as { count: unknown }).count, [2n]);
  // Nesting deeper than json.loads survives in the official CLI: its RecursionError.
  const deep = epic.readReply(item, '{"number_of_objects": 1, "bounding_boxes": ' + SHAPES["nested array"]!(MB) + "}");
  assert.equal(deep.status, "unparseable");
  assert.match(deep.reason!, /RecursionError/);
  // Many think blocks: each "<think>...</think>" is removed, then the object is read.
  const thinking = epic.readReply(item, repeatTo("<think>{x}</think>", MB) + object);
  assert.equal(thinking.status, "ok");
  // An opened <think> that never closes: no valid response.
  assert.equal(epic.readReply(item, "</think>" + repeatTo("<think>", MB) + object).status, "ok"); // a close exists: nothing to strip
  assert.equal(epic.readReply(item, repeatTo("<think>", MB) + object).status, "unparseable");
});

// ------------------------------------------------------------------ VCN-Bench (our rules, parse.ts)

test("vcn: 1 MB replies, the frame-index rules in order", () => {
  const read = (text: string) => vcn.readReply(vcnItem, text);
  assert.deepEqual(read(repeatTo("{x}", MB) + ' {"frame": 7}').value, { reply_index: 7, frame: 7, rule: "json" });
  // Nested objects: the first opening that starts a valid object with a frame key decides.
  const nested = SHAPES["nested object"]!(MB).replace('{"a":1}', '{"frame": 3}');
  assert.equal((read(nested).value as { reply_index: number }).reply_index, 3);
  assert.equal(read(SHAPES["nested frame object"]!(MB)).reason, 'the JSON "frame" value is not an integer');
  assert.deepEqual(read("frame" + repeatTo(" ", MB) + "12").value, { reply_index: 12, frame: 12, rule: "frame-label" });
  // "frame 1." then "f": the digits are followed by dots only, then no digit: a label.
  assert.deepEqual(read(repeatTo("frame 1.", MB) + "5").value, { reply_index: 1, frame: 1, rule: "frame-label" });
  // "frame 1.1.1...": a digit follows the dots, so no label; the first number, "1.1", is no integer.
  assert.equal(read("frame " + repeatTo("1.", MB)).reason, "the first number (1.1) is not an integer");
  assert.equal(read(repeatTo("{{{", MB)).reason, "no frame index in the reply");
  assert.equal(read(repeatTo("<think>", MB) + " 4").reason, "no frame index in the reply"); // an unclosed <think> swallows the rest
});

// ------------------------------------------------------------------ EgoTL-Bench (our rules, parse.ts)

test("egotl: 1 MB replies for each task", () => {
  const read = (task: Parameters<typeof egotlItem>[0], text: string) => egotl.readReply(egotlItem(task), text);
  const final = '{"scores": {"A": 1, "B": 2, "C": 3, "D": 4}, "best": "C"}';
  assert.deepEqual(read("planning", repeatTo("x", MB) + final).value, { letter: "C", index: 2, scores: { A: 1, B: 2, C: 3, D: 4 }, via: "json" });
  // Only 200 opening braces are tried: past them, the "best" pattern reads the letter.
  assert.deepEqual(read("planning", repeatTo("{x}", MB) + final).value, { letter: "C", index: 2, scores: null, via: "pattern" });
  assert.equal(read("planning", repeatTo('"best": "', MB)).status, "unparseable");
  // The longer option covers the shorter one at every occurrence.
  assert.deepEqual(read("scene_action", times("turn left and climb ", MB)).value, { index: 0, letter: "A", via: "contains" });
  assert.match(read("next_action", times("turn left and ", MB) + "walk to the sink").reason!, /several options \(B, C\)/);
  assert.deepEqual(read("action_recognition", times("AB ", MB) + " C.").value, { letter: "C", index: 2 });
  assert.equal((read("direction", repeatTo("A B ", MB) + "then turn right").value as { label: string }).label, "Turn right");
  assert.deepEqual(read("distance", repeatTo("-", MB) + "5 m").value, { metres: -5, text: "-5" });
  assert.deepEqual(read("distance", times("\u{1F600}a", MB) + "-2.5").value, { metres: 2.5, text: "2.5" }); // a sign right after a letter is not read
  assert.deepEqual(read("distance", repeatTo("\u{1F600}", MB - 1) + "-2.5").value, { metres: -2.5, text: "-2.5" }); // after an emoji (or half of one) it is
});

// ------------------------------------------------------------------ Python compat on 1 MB lines

test("json.loads and literal_eval on 1 MB inputs: Python's results", () => {
  const n = MB / 2;
  const ints = pyJsonLoads(flat("[" + "1,".repeat(n - 1) + "1]")) as bigint[];
  assert.equal(ints.length, n);
  assert.throws(() => pyJsonLoads(SHAPES["nested array"]!(MB)), PyRecursionError);
  assert.throws(() => pyJsonLoads(repeatTo("7", MB)), (e: unknown) => e instanceof PyJsonError && /integer digit limit/.test(e.message));
  assert.equal(pyJsonLoads(JSON.stringify(repeatTo("\ud800\n\0", MB))), repeatTo("\ud800\n\0", MB));
  assert.throws(() => pyJsonLoads(repeatTo('"', MB)), PyJsonError);

  assert.throws(() => pyLiteralEval(repeatTo("-", MB) + "1"), LiteralRecursionError);
  assert.throws(() => pyLiteralEval("1" + repeatTo("+1", MB)), LiteralRecursionError);
  assert.throws(() => pyLiteralEval(repeatTo("(", MB)), LiteralSyntaxError); // more than 200 nested brackets
  assert.throws(() => pyLiteralEval(repeatTo("-", 1000) + "1"), LiteralSyntaxError); // shallow enough: malformed, a ValueError
  const tuples = pyLiteralEval(repeatTo("(1, 2), ", MB)) as { opaque: string; items: Literal[] };
  assert.equal(tuples.opaque, "tuple");
  assert.equal(tuples.items.length, MB / 8);
  assert.deepEqual(tuples.items[0], { opaque: "tuple", items: [1n, 2n] });
  assert.equal((pyLiteralEval(flat("[" + "4, ".repeat(n / 2) + "]")) as Literal[]).length, n / 2);
});
